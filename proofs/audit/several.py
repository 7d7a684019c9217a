"""The audit of several chapters at once: each chapter's report, in the files' order, the
chapters side by side on the machine's cores where that is safe.

A chapter's audit is a pure function of its file, the files before it (whose listings its
own may import) and the package, so the chapters need not wait for each other. A worker
is a fork of this process, made once the package and its registry are loaded: it starts
where this process stands, where a spawned interpreter would first import them again
(about as long as a chapter's audit). Forking is safe only where it is the platform's own
way (Linux) and from a process running one Python thread (another thread could hold a lock
the child would inherit locked); elsewhere, and with `jobs` = 1, the chapters are audited
one after the other here. Either way the reports are the same, timings aside.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
import warnings
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from proofs.audit import audit_document
from proofs.audit.reports.report import Report
from proofs.reader import Document


def can_fork() -> bool:
    """Whether workers may be forked from this process: on Linux, with one Python thread."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


def audit_documents(documents: Sequence[Document], run: bool, jobs: int) -> list[Report]:
    """Each document's report (`audit_document`, its listings run when `run`, given the
    documents before it), in order. With `jobs` > 1 and `can_fork()`, up to `jobs` - 1
    forked workers audit the first documents while this process audits the last; a worker
    that dies is audited again here, and an error of the audit itself is raised as here."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"audit_documents: jobs must be an integer >= 1, got {jobs!r}")
    workers = min(jobs, len(documents)) - 1
    if workers < 1 or not can_fork():
        return [audit_document(d, run, documents[:k]) for k, d in enumerate(documents)]
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
    try:
        with warnings.catch_warnings():
            # Python 3.12 and later warn of any fork from a process with several threads;
            # the others here are BLAS's own, which OpenBLAS stops before a fork (its fork
            # handler) and starts again in the child.
            warnings.filterwarnings(
                "ignore", r".*fork\(\) may lead to deadlocks", DeprecationWarning
            )
            futures = [
                pool.submit(audit_document, d, run, documents[:k])
                for k, d in enumerate(documents[:-1])
            ]
        last = audit_document(documents[-1], run, documents[:-1])
        reports = [
            _result(f, d, run, documents[:k])
            for k, (f, d) in enumerate(zip(futures, documents[:-1], strict=True))
        ]
    finally:
        pool.shutdown(cancel_futures=True)
    return [*reports, last]


def _result(future: Future, document: Document, run: bool, earlier: Sequence[Document]) -> Report:
    """The worker's report, or the document audited here when its worker died."""
    try:
        return future.result()
    except BrokenProcessPool:
        return audit_document(document, run, earlier)
