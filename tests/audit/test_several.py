"""The audit of several chapters: forked workers where safe, the same reports either way."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Sequence

import early
import pytest
from places import ROOT

from proofs import reader
from proofs.audit import audit_document, several

SAMPLES = [ROOT / "tests" / "samples" / "chapter.mdx", ROOT / "tests" / "samples" / "chapter.txt"]
FORKED = "the sample chapters audited by audit_documents in a process of their own"


@early.job(FORKED)
def forked_audits(items: Sequence[pytest.Item]) -> dict:
    first, rest = early.run_script("audit_forked.py", None).split("\n", 1)
    return {"first line": first, **json.loads(rest)}


@pytest.mark.early(FORKED)
def test_forks_audit_the_first_chapters_while_this_process_audits_the_last():
    outcome = early.result(FORKED)
    assert outcome["can fork"] is sys.platform.startswith("linux")
    if outcome["can fork"]:
        workers = {"audited by": [["worker"], ["worker"], ["here"]], "same": True}
        assert outcome["forked"] == workers
        assert outcome["fewer jobs than chapters"] == workers  # one worker, two chapters


@pytest.mark.early(FORKED)
def test_what_was_printed_before_the_workers_forked_is_printed_once():
    outcome = early.result(FORKED)
    assert outcome["first line"] == "the audits follow"


@pytest.mark.early(FORKED)
def test_one_job_or_another_thread_audits_every_chapter_here():
    outcome = early.result(FORKED)
    here = {"audited by": [["here"], ["here"], ["here"]], "same": True}
    assert outcome["one job"] == here
    assert outcome["another thread"] == here


@pytest.mark.early(FORKED)
def test_a_worker_that_dies_has_its_chapters_audited_here_and_an_error_is_raised_here():
    outcome = early.result(FORKED)
    if outcome["can fork"]:
        # the worker died at the first chapter; the second, sent to it, never started there
        again = {"audited by": [["worker", "here"], ["here"], ["here"]], "same": True}
        assert outcome["worker died"] == again
        assert outcome["worker raised"] == "a worker's audit went wrong"


def test_one_job_gives_each_chapters_own_audit_in_order():
    documents = [reader.read_chapter(path) for path in SAMPLES]
    reports = several.audit_documents(documents, False, 1)
    assert [r.path for r in reports] == [str(path) for path in SAMPLES]
    assert [r.to_dict() for r in reports] == [
        audit_document(d, False, documents[:k]).to_dict() for k, d in enumerate(documents)
    ]


def test_no_document_no_report():
    assert several.audit_documents([], False, 4) == []


@pytest.mark.parametrize("jobs", [0, -1, True, 1.5, "2"])
def test_jobs_must_be_a_positive_integer(jobs):
    with pytest.raises(ValueError, match="audit_documents: jobs must be an integer >= 1"):
        several.audit_documents([], False, jobs)


def test_no_fork_beside_another_thread_or_off_linux(monkeypatch):
    stop = threading.Event()
    waiting = threading.Thread(target=stop.wait)
    waiting.start()
    try:
        assert not several.can_fork()
    finally:
        stop.set()
        waiting.join()
    monkeypatch.setattr(sys, "platform", "darwin")
    assert not several.can_fork()
