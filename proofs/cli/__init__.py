"""The command line: `python -m proofs verify | tables | latex | audit | sync | figures |
new-chapter | flops | check | lsp`, one module per group of subcommands beside their grammar
(`arguments`).

Exit codes: 0 all passed / nothing mismatched / in sync; 1 a check failed or
errored, or the audit found a mismatch (a finding of an example's or exercise's
check included; with --baseline, one the baseline does not accept), or a file's
regions drifted from the package's (sync without --write); 2 bad input (a
malformed command line, an unknown id, a missing file, an output file that exists
without --force), with a one-line message on stderr.
A finding of a passing check is listed by verify but does not fail it.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from proofs.book.locations import SettingsError
from proofs.cli import chapter_files, check, figures, flops, lsp, tables, verify
from proofs.cli.arguments import PROG, UsageError, parser
from proofs.files import OutputError
from proofs.typeset.shown import inert, visible

COMMANDS = {
    "verify": verify.verify,
    "tables": tables.tables,
    "latex": tables.latex,
    "audit": chapter_files.audit,
    "sync": chapter_files.sync,
    "figures": figures.figures,
    "new-chapter": chapter_files.new_chapter,
    "flops": flops.flops,
    "check": check.check,
    "lsp": lsp.lsp,
}


class StreamError(OSError):
    """Standard output cannot take what a command writes (a full disk, a closed descriptor)."""


class _Output(io.TextIOBase):
    """Standard output for the duration of a command: a failure to write is a StreamError,
    told apart from the OSErrors of the files a command reads, and a descriptor closed at
    start fails instead of dropping the output without a word."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def _do(self, step: Callable[[TextIO], int | None]) -> int | None:
        if self.stream is None:
            raise StreamError(errno.EBADF, "standard output is closed")
        try:
            return step(self.stream)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise StreamError(exc.errno, exc.strerror) from exc

    def write(self, text: str) -> int:
        return self._do(lambda s: s.write(text)) or 0

    def flush(self) -> None:
        self._do(lambda s: s.flush())

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def fileno(self) -> int:
        if self.stream is None:
            raise StreamError(errno.EBADF, "standard output is closed")
        return self.stream.fileno()


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush of what
    is still buffered does not fail again with a traceback at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())  # type: ignore[union-attr]


def _refuse(exc: Exception) -> None:
    """The one line of a refusal on stderr: the names and text it quotes made visible
    (proofs.typeset.shown), so that it stays one line whatever a name holds."""
    print(inert(visible(f"{PROG}: {exc}")), file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; return its exit code (argparse's own errors give 2). Without
    any argument, the help on stderr and exit code 2, argparse's answer to a missing
    argument: nothing ran."""
    grammar = parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        grammar.print_help(sys.stderr)
        return 2
    try:
        args = grammar.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    from cache.remembered import kept_in

    stdout, sys.stdout = sys.stdout, _Output(sys.stdout)
    try:
        with kept_in(verify.derivations_folder()):  # what a command derives, kept for the next
            code = COMMANDS[args.command](args)
        sys.stdout.flush()  # a full stream fails here, not after the exit code is chosen
        return code
    except (UsageError, OutputError, SettingsError) as exc:
        _refuse(exc)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except verify.LoadError as exc:
        _refuse(exc)
        return 1
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except StreamError as exc:
        print(
            f"{PROG}: cannot write to standard output ({exc.strerror}); the output is incomplete",
            file=sys.stderr,
        )
        _silence_stdout()
        return 2
    except Exception as exc:
        from proofs.book.profiles import ProfileError  # only now: Hypothesis is slow to import

        if not isinstance(exc, ProfileError):  # a bad HYPOTHESIS_PROFILE is bad input
            raise
        _refuse(exc)
        return 2
    finally:
        sys.stdout = stdout
