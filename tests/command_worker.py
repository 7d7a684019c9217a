"""A process that runs `proofs` commands in the working directory and environment each
request names: what the tests need when a command reads the working directory or a
variable (pyproject.toml above it, TRANSFORMER_PROOFS_CHAPTERS, HYPOTHESIS_PROFILE), which
the test process itself must never change while its background jobs run (tests/early.py).

One request per line on standard input, as JSON: {"argv": [...], "cwd": "...",
"environ": {...} (the whole environment), "stdout": "" | "closed" | "full", "fresh":
bool}; one answer per line on the descriptor the process started with as standard output:
{"code", "out", "err"}. The process is single-threaded: it sets the directory and the
environment, runs cli.main with its streams captured, and puts both back; a "fresh"
request runs in a child forked for it, so that what the command keeps in memory (a
derivation's functools cache) is not there for the next. tests/commands.py starts it."""

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

    for line in requests:
        request = json.loads(line)
        answer = _forked(request, cli) if request.get("fresh") else _answer(request, cli)
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def _forked(request: dict, cli) -> dict:
    """The answer to a request, from a child process forked for it."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer, and leave without running anything of the parent's
        os.close(read)
        with os.fdopen(write, "w", encoding="utf-8") as pipe:
            pipe.write(json.dumps(_answer(request, cli)))
        os._exit(0)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as pipe:
        said = pipe.read()
    os.waitpid(pid, 0)
    return json.loads(said) if said else {"code": -1, "out": "", "err": "the child died"}


def _answer(request: dict, cli) -> dict:
    """Run one request here: its directory and environment set, then put back."""
    home, environment = os.getcwd(), dict(os.environ)
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
    return {"code": code, "out": out.getvalue(), "err": err.getvalue()}


if __name__ == "__main__":
    serve()
