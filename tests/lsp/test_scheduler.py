"""When audits run: a burst of changes is audited once, at its last version; a version
superseded while its audit runs is stopped and never published; an audit past its
budget is stopped and published as stopped. The work is a stand-in that records what it
is given, so that only the scheduling is tested."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("lsprotocol", reason="needs the editor extra: pip install '.[editor]'")
from proofs.lsp.incremental import Analysis  # noqa: E402
from proofs.lsp.scheduler import Scheduler  # noqa: E402
from proofs.lsp.store import Store  # noqa: E402

URI = "file:///c.txt"


def run(scenario, work, debounce=0.05, budget=60.0) -> list[Analysis]:
    """The analyses published while `scenario(scheduler, store)` runs, and until no audit
    is left."""
    published: list[Analysis] = []

    async def main() -> None:
        scheduler = Scheduler(work, published.append, debounce=debounce, budget=budget)
        await scenario(scheduler, Store())
        while scheduler.running or scheduler.ready or scheduler.timers:
            await asyncio.sleep(0.01)
        scheduler.lane.shutdown()

    asyncio.run(main())
    return published


def test_a_burst_of_changes_is_audited_once_at_its_last_version():
    given = []

    def work(snapshot):
        given.append(snapshot.version)
        return Analysis(snapshot)

    async def burst(scheduler, store):
        for version in range(1, 6):
            scheduler.submit(store.open(URI, version, f"text {version}"))
            await asyncio.sleep(0.001)

    published = run(burst, work)
    assert given == [5]
    assert [a.snapshot.version for a in published] == [5]


def test_a_superseded_audit_is_stopped_and_not_published():
    started = []

    def work(snapshot):
        started.append(snapshot.version)
        if snapshot.version == 1:
            while True:  # an audit that would never end
                time.sleep(0.001)
        return Analysis(snapshot)

    async def supersede(scheduler, store):
        scheduler.submit(store.open(URI, 1, "one"), wait=False)
        await asyncio.sleep(0.1)
        scheduler.submit(store.open(URI, 2, "two"), wait=False)

    published = run(supersede, work)
    assert started == [1, 2]
    assert [(a.snapshot.version, a.stopped) for a in published] == [(2, "")]


def test_an_audit_past_its_budget_is_stopped_and_says_so():
    def work(snapshot):
        while True:
            sum(range(1000))

    async def one(scheduler, store):
        scheduler.submit(store.open(URI, 1, "one"), wait=False)

    published = run(one, work, budget=0.2)
    assert [a.stopped for a in published] == ["ran past its 0.2 s"]
