"""When the audits run: after a pause in typing, one at a time, the newest version first,
and never to the end for a version the editor has already replaced.

A change waits `debounce` seconds (an open or a save does not), so that a burst of
keystrokes is audited once. Audits run one at a time in a thread of their own, off the
thread that answers the editor: hovers, code actions and the other documents' messages
are answered while one runs, and the checks (Hypothesis among them) never run in two
threads at once. A newer version of a document supersedes the audit of an older one: a
pending audit is dropped, a running one is stopped (an exception, Stopped, raised in its
thread at its next step), and so is one that runs past `budget` seconds, whose Analysis
then says so. Nothing a stopped audit was computing is kept: every memo of the audit
stores a value only once it is whole.
"""

from __future__ import annotations

import asyncio
import ctypes
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TypeVar

from proofs.lsp.incremental import Analysis, Refusal
from proofs.lsp.store import Snapshot

DEBOUNCE = 0.05  # seconds a change waits for the next keystroke
BUDGET = 60.0  # seconds an audit may run before it is stopped
T = TypeVar("T")


class Stopped(BaseException):
    """Raised in an audit's thread to stop it (a BaseException: no `except Exception` of
    the audit's rules or of a check catches it)."""


@dataclass(eq=False)
class Job:
    """One audit: the version it reads, its thread, and whether it may still be stopped."""

    snapshot: Snapshot
    started: float = 0.0
    thread: int | None = None
    stoppable: bool = False
    why_stopped: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def stop(self, why: str) -> None:
        """Raise Stopped in the job's thread, unless it has finished."""
        with self.lock:
            if self.stoppable and self.thread is not None and not self.why_stopped:
                self.why_stopped = why
                _raise_in(self.thread, Stopped)


def _raise_in(thread: int, exception: type[BaseException] | None) -> None:
    """Raise `exception` in `thread` at its next step (None: withdraw one not yet raised)."""
    target = ctypes.py_object(exception) if exception is not None else None
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), target)


def run_stoppable(job: Job, work: Callable[[Snapshot], Analysis]) -> Analysis:
    """Run `work` on the job's snapshot in this thread, stoppable by job.stop until it
    returns; a stopped job's Analysis says why it stopped."""
    job.thread = threading.get_ident()
    job.started = time.perf_counter()
    try:
        with job.lock:
            job.stoppable = True
        try:
            analysis = work(job.snapshot)
        finally:
            with job.lock:
                job.stoppable = False
                _raise_in(job.thread, None)
    except Stopped:
        return Analysis(job.snapshot, stopped=job.why_stopped or "stopped")
    return analysis


class Scheduler:
    """Audits the documents handed to it and hands each finished Analysis of a version
    still current to `finished`; `started` is told when an audit starts."""

    def __init__(
        self,
        work: Callable[[Snapshot], Analysis],
        finished: Callable[[Analysis], None],
        started: Callable[[Job], None] = lambda job: None,
        ended: Callable[[Job], None] = lambda job: None,
        debounce: float = DEBOUNCE,
        budget: float = BUDGET,
    ) -> None:
        self.work = work
        self.finished = finished
        self.started = started
        self.ended = ended
        # one audit or check at a time
        self.lane = ThreadPoolExecutor(1, thread_name_prefix="audit")
        self.debounce = debounce
        self.budget = budget
        self.wanted: dict[str, Snapshot] = {}  # the newest version of each document to audit
        self.ready: deque[str] = deque()
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.running: Job | None = None

    def submit(self, snapshot: Snapshot, wait: bool = True) -> None:
        """Audit this version (after the debounce when `wait`), superseding any older."""
        uri = snapshot.uri
        self.wanted[uri] = snapshot
        if self.running is not None and self.running.snapshot.uri == uri:
            self.running.stop(f"superseded by version {snapshot.version}")
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        if uri in self.ready:
            self.ready.remove(uri)
        loop = asyncio.get_running_loop()
        if wait and self.debounce > 0:
            self.timers[uri] = loop.call_later(self.debounce, self._queue, uri)
        else:
            self._queue(uri)

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """Run `work` in the audits' lane, after the audit running now (a check a hover
        asks for: the checks never run in two threads at once)."""
        return await asyncio.get_running_loop().run_in_executor(self.lane, work, *args)

    def forget(self, uri: str) -> None:
        """Audit the document no more (it was closed)."""
        self.wanted.pop(uri, None)
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        if uri in self.ready:
            self.ready.remove(uri)
        if self.running is not None and self.running.snapshot.uri == uri:
            self.running.stop("closed")

    def _queue(self, uri: str) -> None:
        self.timers.pop(uri, None)
        if uri in self.wanted and uri not in self.ready:
            self.ready.append(uri)
        self._next()

    def _next(self) -> None:
        if self.running is not None or not self.ready:
            return
        uri = self.ready.popleft()
        job = Job(self.wanted.pop(uri))
        self.running = job
        self.started(job)
        loop = asyncio.get_running_loop()
        over = loop.call_later(self.budget, job.stop, f"ran past its {self.budget:g} s")
        future = loop.run_in_executor(self.lane, run_stoppable, job, self.work)
        future.add_done_callback(lambda done: self._done(job, done, over))

    def _done(self, job: Job, done: asyncio.Future, over: asyncio.TimerHandle) -> None:
        over.cancel()
        self.running = None
        try:
            analysis = done.result()
        except Exception as exc:  # noqa: BLE001 - an audit that fails is reported, not raised
            analysis = Analysis(job.snapshot, refused=Refusal(f"the audit failed: {exc!r}"))
        self.ended(job)
        superseded = job.snapshot.uri in self.wanted
        if not superseded and not analysis.stopped.startswith(("superseded", "closed")):
            took = time.perf_counter() - job.started if job.started else 0.0
            self.finished(replace(analysis, seconds=analysis.seconds or took))
        self._next()
