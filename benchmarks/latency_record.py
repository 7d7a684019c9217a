"""A pytest plugin for benchmarks/latency.py: it writes, for every test that ran, its node id,
the element keywords conftest gave it and its time (setup, call and teardown), and the
time collection took, to the JSON file named by $LATENCY_RECORD.

Loaded with `-p benchmarks.latency_record`; it records and never changes what runs.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

_started = time.perf_counter()
_collected_at: float | None = None
_elements: dict[str, list[str]] = {}
_seconds: dict[str, float] = {}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """After conftest has marked each test with its elements: remember them."""
    for item in items:
        _elements[item.nodeid] = sorted(
            {i for mark in item.iter_markers("element") for i in mark.args}
        )


def pytest_collection_finish() -> None:
    global _collected_at
    _collected_at = time.perf_counter()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _seconds[report.nodeid] = _seconds.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish() -> None:
    target = os.environ.get("LATENCY_RECORD")
    if not target:
        return
    collected = _collected_at if _collected_at is not None else time.perf_counter()
    record = {
        "collection_seconds": collected - _started,
        "session_seconds": time.perf_counter() - _started,
        "tests": [
            {"nodeid": nodeid, "elements": elements, "seconds": _seconds.get(nodeid, 0.0)}
            for nodeid, elements in _elements.items()
        ],
    }
    Path(target).write_text(json.dumps(record))
