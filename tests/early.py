"""Slow work in subprocesses that the tests will need, started once collection is done so
that it runs on a core the test process leaves idle.

The suite runs in one process, whose work is nearly all on one core; a LuaLaTeX compile or
a batch of audits in a subprocess leaves that process waiting. A job is a function of the
selected tests marked `@pytest.mark.early(name)`, registered with `@job(name)`. Once
collection is done, conftest starts each job whose tests were selected, one at a time on
a background thread, in the order its tests come, and runs those tests last, after every
test that needs no job; a test takes the job's result with
`result(name)`, waiting while it runs, and an exception of the job is raised in every test
that asks. A job whose tests were not selected never runs. Under pytest-xdist, whose
workers already keep the cores busy, the tests of a job go to one worker (conftest makes
the distribution `loadgroup`, each job's tests one group), which runs the job when its
first test asks: once, where its tests are.

A job should spend its time in subprocesses: its thread shares the interpreter with the
tests, which a job computing in Python would slow down. It reads no state of the process
that a test could change meanwhile: its subprocesses run in `environment()`, the
environment as the session started its jobs, and in a folder they name (the checkout's);
its files go in a `scratch` folder of the run's own. The tests change none of it either
(tests/test_process_state.py: no test sets os.environ, tempfile's folder or the working
directory; a command that reads them runs in tests/command_worker.py).
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from places import ROOT

Job = Callable[[Sequence[pytest.Item]], Any]

_JOBS: dict[str, Job] = {}
_STARTED: dict[str, Future] = {}
_OWNERS: list[object] = []  # the session that started the jobs
_DEFERRED: dict[str, Callable[[], Future]] = {}  # jobs started when a test first asks
_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="early-job")
_ENVIRONMENT: dict[str, str] = {}  # os.environ when the session started its jobs
RUN_FOLDER = "PROOFS_TESTS_RUN_FOLDER"  # the run's own folder, set by conftest


def job(name: str) -> Callable[[Job], Job]:
    """Register `function(items)` as the job `name`, run for the selected items marked
    `early(name)`."""

    def register(function: Job) -> Job:
        if name in _JOBS and _JOBS[name] is not function:
            raise ValueError(f"the early job {name!r} is registered twice")
        _JOBS[name] = function
        return function

    return register


def marked(item: pytest.Item) -> list[str]:
    """The job names an item is marked with."""
    return [name for mark in item.iter_markers("early") for name in mark.args]


def start(
    items: Sequence[pytest.Item],
    owner: object,
    now: bool = True,
    environ: Mapping[str, str] | None = None,
) -> None:
    """Start, in the order the items come, the job of every name they are marked with, for
    `owner`, the session whose tests they are; with `now` False, each when its first test
    asks for its result. `environ` (os.environ by default): the environment of the jobs'
    subprocesses, copied now."""
    _OWNERS.append(owner)
    if not _ENVIRONMENT:  # the first session's: a test's own session must not change it
        _ENVIRONMENT.update(os.environ if environ is None else environ)
    names = list(dict.fromkeys(name for item in items for name in marked(item)))
    for name in names:
        if name not in _JOBS:
            raise pytest.UsageError(f"no early job is registered as {name!r}")
        chosen = [item for item in items if name in marked(item)]
        if now:
            _STARTED[name] = _POOL.submit(_JOBS[name], chosen)
        else:
            _DEFERRED[name] = functools.partial(_POOL.submit, _JOBS[name], chosen)


def result(name: str) -> Any:
    """The job's result, once it is done; a job not started (its tests were selected by no
    collection, as when a test is called directly) is an error naming it."""
    if name in _DEFERRED:
        _STARTED[name] = _DEFERRED.pop(name)()
    if name not in _STARTED:
        raise LookupError(f"the early job {name!r} was not started: is its test marked early?")
    error = _STARTED[name].exception()  # waits for the job
    if error is not None:  # a new exception per test: raising the job's own again and
        # again would lengthen its traceback at every test
        raise RuntimeError(f"the early job {name!r} failed: {error}") from error
    return _STARTED[name].result()


def environment(**changes: str) -> dict[str, str]:
    """The environment for a job's subprocess: os.environ as the session started its jobs
    (as it is now, when no session did), with `changes`."""
    return {**(_ENVIRONMENT or os.environ), **changes}


def scratch(prefix: str) -> Path:
    """A new folder for a job's files, in the run's own folder (conftest's, named in the
    environment the session started with): a job never asks tempfile, whose folder a test
    might have changed meanwhile."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir=environment().get(RUN_FOLDER)))


def run_script(script: str, data: object, *arguments: str) -> str:
    """What a script of tests/ printed, given `data` as JSON on its input: a job's work in
    a process of its own. Python runs it with -P, tests/ not first on the import path (its
    folders, tests/spec among them, are not the packages); a failure is a RuntimeError
    with the script's error output."""
    done = subprocess.run(
        [sys.executable, "-P", str(Path(__file__).parent / script), *arguments],
        input=json.dumps(data),
        cwd=ROOT,  # the checkout, whatever folder a test moved to
        env=environment(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode != 0:
        raise RuntimeError(f"tests/{script} exited {done.returncode}: {done.stderr[-3000:]}")
    return done.stdout


def run_pytest(*arguments: str, **changes: str) -> subprocess.CompletedProcess:
    """`python -m pytest -q -p no:cacheprovider ARGUMENTS` in the checkout, in
    `environment(**changes)`: a job's nested run of the suite (a collection, a set-up)."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *arguments],
        cwd=ROOT,
        env=environment(**changes),
        capture_output=True,
        text=True,
        timeout=600,
    )


def stop(owner: object) -> None:
    """Drop the jobs not started yet once `owner`, the session that started them, ends (a
    run stopped early needs none of them); the end of another session (a collection run
    in-process by a test) changes nothing."""
    if owner in _OWNERS:
        _POOL.shutdown(wait=False, cancel_futures=True)
