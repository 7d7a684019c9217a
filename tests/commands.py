"""Running the command line in-process, for the tests of its commands."""

from __future__ import annotations

from proofs import cli


def run(capsys, *args: object) -> tuple[int, str, str]:
    """cli.main in-process: (exit code, stdout, stderr)."""
    code = cli.main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_line(stderr: str) -> str:
    """The one line a refusal writes on stderr (the test fails on any other count)."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]
