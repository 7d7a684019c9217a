"""Running the command line for the tests of its commands: in-process (`run`), or, for a
command that reads the working directory or the environment, in tests/command_worker.py
with the folder and the variables given (`run_in`), so that the test process never
changes its own while its background jobs run (tests/early.py)."""

from __future__ import annotations

import atexit
import json
import select
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import early
from places import ROOT, TESTS

from proofs import cli

TIMEOUT = 600  # seconds a command in the worker may take


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


_WORKERS: list[subprocess.Popen] = []  # the running worker, when one was started


def _worker() -> subprocess.Popen:
    """The worker process, started on first use (the package imported once) and stopped
    when the tests end."""
    if _WORKERS and _WORKERS[0].poll() is None:
        return _WORKERS[0]
    worker = subprocess.Popen(
        [sys.executable, "-P", str(TESTS / "command_worker.py")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        env=early.environment(PYTHONPATH=str(ROOT)),
        encoding="utf-8",
    )
    if not _WORKERS:
        atexit.register(lambda: [w.kill() for w in _WORKERS])
    _WORKERS[:] = [worker]
    return worker


def run_in(
    folder: Path,
    *args: object,
    environ: Mapping[str, str | None] | None = None,
    stdout: str = "",
    fresh: bool = False,
) -> tuple[int, str, str]:
    """`proofs ARGS` with `folder` as its working directory and the environment the tests
    started with, changed by `environ` (None unsets a variable): (exit code, stdout,
    stderr). `stdout`: "closed" or "full" to run with standard output so; `fresh`: in a
    process forked for it, which keeps nothing the command computed for the next one."""
    changed = {**early.environment(), **(environ or {})}
    request = {
        "argv": [str(a) for a in args],
        "cwd": str(folder),
        "environ": {name: value for name, value in changed.items() if value is not None},
        "stdout": stdout,
        "fresh": fresh,
    }
    worker = _worker()
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(json.dumps(request) + "\n")
    worker.stdin.flush()
    ready, _, _ = select.select([worker.stdout], [], [], TIMEOUT)
    answer = worker.stdout.readline() if ready else ""
    if not answer:
        worker.kill()
        raise RuntimeError(f"the command worker gave no answer to {request['argv']}")
    said = json.loads(answer)
    if said["code"] == -1:
        raise RuntimeError(f"proofs {' '.join(request['argv'])} raised:\n{said['err']}")
    return said["code"], said["out"], said["err"]
