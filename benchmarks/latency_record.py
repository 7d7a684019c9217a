"""A pytest plugin for benchmarks/latency.py: it writes, for every test collected, its node
id, the element keywords conftest gave it, the element ids whose `-k <id>` selects it (by
pytest's own matching), its wall time and its processor time (setup, call and teardown; the
processor time also counts the subprocesses it waited for; zero for a test that did not
run) and, for a test that failed, the first error line of its report (why, in a line), and the
time collection took, to the JSON file named by $LATENCY_RECORD.

Loaded with `-p benchmarks.latency_record`; it records and never changes what runs.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

_started = time.perf_counter()
_collected_at: float | None = None
_elements: dict[str, list[str]] = {}
_selected_by: dict[str, list[str]] = {}
_times: dict[str, tuple[float, float]] = {}
_failed: dict[str, str] = {}  # node id -> the first error line of its report


def processor_seconds() -> float:
    """User and system time of this process and of the subprocesses it has waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """After conftest has marked each test with its elements: remember them, and the ids
    whose `-k <id>` (either spelling) selects it, by pytest's own matching."""
    from _pytest.mark import KeywordMatcher

    from proofs.book.registry import load_all

    ids = sorted(load_all())
    for item in items:
        _elements[item.nodeid] = sorted(
            {i for mark in item.iter_markers("element") for i in mark.args}
        )
        matches = KeywordMatcher.from_item(item)
        _selected_by[item.nodeid] = [i for i in ids if matches(i) or matches(i.replace("-", "_"))]


def pytest_collection_finish() -> None:
    global _collected_at
    _collected_at = time.perf_counter()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    wall, processor = time.perf_counter(), processor_seconds()
    yield
    _times[item.nodeid] = (time.perf_counter() - wall, processor_seconds() - processor)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.failed and report.nodeid not in _failed:
        lines = report.longreprtext.splitlines()
        errors = [line[1:].strip() for line in lines if line.startswith("E ")]
        said = errors or [line for line in lines if line.strip()] or [""]
        _failed[report.nodeid] = said[0][:300]


def pytest_sessionfinish() -> None:
    target = os.environ.get("LATENCY_RECORD")
    if not target:
        return
    collected = _collected_at if _collected_at is not None else time.perf_counter()
    record = {
        "collection_seconds": collected - _started,
        "session_seconds": time.perf_counter() - _started,
        "tests": [
            {
                "nodeid": nodeid,
                "elements": elements,
                "selected_by": _selected_by.get(nodeid, []),
                "seconds": _times.get(nodeid, (0.0, 0.0))[0],
                "processor": _times.get(nodeid, (0.0, 0.0))[1],
                "failed": nodeid in _failed,
                "why": _failed.get(nodeid, ""),
            }
            for nodeid, elements in _elements.items()
        ],
    }
    Path(target).write_text(json.dumps(record))
