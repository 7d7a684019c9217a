"""The background jobs of the suite (tests/early.py): started only for the selected tests
marked with them, in the order those come; a job's failure reaches every test that asks,
as a new exception each time; ending another session leaves them running; their
subprocesses run in the environment the session started them in."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import early
import pytest
from places import ROOT

RUN = Path(os.environ.get(early.RUN_FOLDER) or ROOT)  # the run's folder (conftest's)


class Item:
    """What the jobs read of a collected test: its `early` marks."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def iter_markers(self, name: str):
        return [pytest.mark.early(*self.names).mark] if name == "early" and self.names else []


@pytest.fixture
def jobs(monkeypatch):
    """An empty registry and a pool of their own, so that the suite's jobs are untouched."""
    monkeypatch.setattr(early, "_JOBS", {})
    monkeypatch.setattr(early, "_STARTED", {})
    monkeypatch.setattr(early, "_OWNERS", [])
    monkeypatch.setattr(early, "_DEFERRED", {})
    monkeypatch.setattr(early, "_ENVIRONMENT", {})
    pool = ThreadPoolExecutor(max_workers=1)
    monkeypatch.setattr(early, "_POOL", pool)
    yield early._JOBS
    pool.shutdown(wait=True)


def test_a_job_runs_once_for_the_selected_items_marked_with_it_and_nothing_else(jobs):
    calls = []

    @early.job("a")
    def job_a(items):
        calls.append(("a", [i.names for i in items]))
        return "done a"

    @early.job("b")
    def job_b(items):
        calls.append(("b", len(items)))

    first, second, plain = Item("a"), Item("a", "c"), Item()
    early.job("c")(lambda items: "done c")
    early.start([plain, first, second], owner="session")
    assert early.result("a") == "done a" and early.result("c") == "done c"
    assert calls == [("a", [("a",), ("a", "c")])]  # b: no selected test is marked with it
    with pytest.raises(LookupError, match="'b' was not started"):
        early.result("b")


def test_a_deferred_job_starts_when_its_first_test_asks_and_runs_once(jobs):
    calls = []
    early.job("later")(lambda items: calls.append(len(items)) or len(calls))
    early.start([Item("later"), Item("later")], owner="worker", now=False)
    assert calls == []
    assert early.result("later") == early.result("later") == 1
    assert calls == [2]


def test_the_jobs_start_in_the_order_their_first_tests_come(jobs):
    order = []
    for name in ("x", "y"):
        early.job(name)(lambda items, name=name: order.append(name))
    early.start([Item("y"), Item("x"), Item("y")], owner="session")
    early.result("x"), early.result("y")
    assert order == ["y", "x"]


def test_a_failed_job_raises_a_new_error_in_each_test_that_asks(jobs):
    @early.job("broken")
    def broken(items):
        raise OSError("lualatex is gone")

    early.start([Item("broken")], owner="session")
    errors = []
    for _ in range(2):
        with pytest.raises(RuntimeError, match="'broken' failed: lualatex is gone") as caught:
            early.result("broken")
        errors.append(caught.value)
    assert errors[0] is not errors[1]
    assert isinstance(errors[0].__cause__, OSError) and errors[0].__cause__ is errors[1].__cause__


def test_an_unregistered_name_and_a_name_registered_twice_are_refused(jobs):
    with pytest.raises(pytest.UsageError, match="no early job is registered as 'nowhere'"):
        early.start([Item("nowhere")], owner="session")
    early.job("twice")(len)
    early.job("twice")(len)  # the same function again: a module imported twice
    with pytest.raises(ValueError, match="'twice' is registered twice"):
        early.job("twice")(sorted)


def test_only_the_session_that_started_the_jobs_stops_them(jobs):
    early.job("later")(lambda items: "ran")
    early.start([], owner="outer")
    early.stop("a collection run in-process by a test")
    early.start([Item("later")], owner="outer")
    assert early.result("later") == "ran"
    early.stop("outer")
    with pytest.raises(RuntimeError):  # the pool is shut: nothing more starts
        early._POOL.submit(print)


def test_a_jobs_subprocess_runs_in_the_environment_the_session_started_with(jobs, tmp_path):
    """A job's subprocesses get os.environ as the first session started its jobs, a copy
    that neither a later change (of the mapping it was taken from) nor the start of another
    session (a collection run in-process by a test) changes, and the checkout's folder."""
    started = {**os.environ, "EARLY_PROBE": "at the start"}
    early.start([], owner="session", environ=started)
    started["EARLY_PROBE"] = "changed meanwhile"
    assert early.environment()["EARLY_PROBE"] == "at the start"
    early.start([], owner="a session a test runs in-process", environ={"EARLY_PROBE": "later"})
    assert early.environment()["EARLY_PROBE"] == "at the start"
    assert early.environment(EARLY_PROBE="asked")["EARLY_PROBE"] == "asked"
    probe = tmp_path / "probe.py"
    probe.write_text("import os\nprint(os.environ['EARLY_PROBE'], os.getcwd(), sep='\\n')\n")
    assert early.run_script(str(probe), {}).splitlines() == ["at the start", str(ROOT)]


def test_a_jobs_folder_is_made_in_the_runs_own_folder(jobs):
    early.start([], owner="session", environ={**os.environ, early.RUN_FOLDER: str(RUN)})
    folder = early.scratch("probe-")
    assert folder.parent == RUN and folder.name.startswith("probe-") and folder.is_dir()
    folder.rmdir()


def test_the_tests_taking_a_jobs_result_run_after_every_other(request):
    waiting = [bool(early.marked(item)) for item in request.session.items]
    assert waiting == sorted(waiting)
