"""A process that runs `proofs` commands in the working directory and environment each
request names: what the tests need when a command reads the working directory or a
variable (pyproject.toml above it, TRANSFORMER_PROOFS_CHAPTERS, HYPOTHESIS_PROFILE), which
the test process itself must never change while its background jobs run (tests/early.py).

One request per line on standard input, as JSON: {"argv": [...], "cwd": "...",
"environ": {...} (the whole environment), "stdout": "" | "closed" | "full"}; one answer per
line on the descriptor the process started with as standard output: {"code", "out",
"err"}. The process is single-threaded: it sets the directory and the environment, runs
cli.main with its streams captured, and puts both back. tests/commands.py starts it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import traceback


def _close_quietly(stream: io.TextIOBase) -> None:
    with contextlib.suppress(OSError):
        stream.close()


def serve() -> None:
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # a child of a command writes no answer
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    requests = sys.stdin
    sys.stdin = open(os.devnull, encoding="utf-8")  # a command reads no request
    from proofs import cli

    home, environment = os.getcwd(), dict(os.environ)
    for line in requests:
        request = json.loads(line)
        out, err = io.StringIO(), io.StringIO()
        stdout = {"closed": None, "full": "full"}.get(request["stdout"], out)
        try:
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["environ"])
            with contextlib.ExitStack() as stack:
                if stdout == "full":  # every write fails, and the last flush at close too
                    stdout = open("/dev/full", "w", encoding="utf-8")
                    stack.callback(_close_quietly, stdout)
                stack.enter_context(contextlib.redirect_stdout(stdout))  # type: ignore[arg-type]
                stack.enter_context(contextlib.redirect_stderr(err))
                code = cli.main(request["argv"])
        except BaseException:  # the test is told, the worker serves on
            code, err = -1, io.StringIO(err.getvalue() + traceback.format_exc())
        finally:
            os.chdir(home)
            os.environ.clear()
            os.environ.update(environment)
        answer = {"code": code, "out": out.getvalue(), "err": err.getvalue()}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    serve()
