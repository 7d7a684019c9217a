"""The latency benchmark's arithmetic (benchmarks/latency.py) and its recording plugin
(benchmarks/latency_record.py) on one element's tests."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from benchmarks import latency

ROOT = Path(__file__).resolve().parents[2]


def test_an_id_is_estimated_from_the_tests_it_selects_and_nothing_else():
    tests = [
        {"selected_by": ["a"], "seconds": 2.0},
        {"selected_by": ["b"], "seconds": 1.0},
        {"selected_by": [], "seconds": 9.0},
    ]
    rows = latency.per_element(tests, ["b", "a", "c"], 0.5)
    assert rows == [("a", 1, 2.5), ("b", 1, 1.5), ("c", 0, 0.5)]
    for test, processor in zip(tests, (0.5, 3.0, 1.0), strict=True):
        test["processor"] = processor
    assert latency.per_element(tests, ["a", "b"], 0.5, "processor")[0] == ("b", 1, 3.5)


def test_a_time_over_its_goal_is_not_reported_met():
    assert latency.verdict(5.0, 5.0) == "goal <= 5 s: met"
    assert latency.verdict(5.01, 5.0).endswith("1.00x over")
    assert latency.verdict(12.5, 5.0).endswith("2.50x over")


def test_the_plugin_records_each_selected_test_with_its_elements(tmp_path):
    record = tmp_path / "record.json"
    environment = {**os.environ, "LATENCY_RECORD": str(record), "HYPOTHESIS_PROFILE": "ci"}
    command = [*latency.PYTEST, "-p", "benchmarks.latency_record", "-k", "exr_jacobian_two"]
    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:]
    recorded = json.loads(record.read_text())
    tests = recorded["tests"]
    assert tests and all("exr-jacobian-two" in t["elements"] for t in tests)
    assert all("exr-jacobian-two" in t["selected_by"] for t in tests)
    assert all(t["seconds"] > 0 and t["processor"] > 0 and not t["failed"] for t in tests)
    assert 0 < recorded["collection_seconds"] < recorded["session_seconds"]


def test_the_plugin_records_why_a_test_failed(tmp_path):
    (tmp_path / "test_one.py").write_text(
        "def test_passes():\n    pass\n\n"
        "def test_fails():\n    assert 1 == 2, 'the reason, in a line'\n"
    )
    record = tmp_path / "record.json"
    environment = {**os.environ, "LATENCY_RECORD": str(record)}
    command = [*latency.PYTEST, "-p", "benchmarks.latency_record", str(tmp_path / "test_one.py")]
    subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True)
    tests = {t["nodeid"].rpartition("::")[2]: t for t in json.loads(record.read_text())["tests"]}
    assert not tests["test_passes"]["failed"] and tests["test_passes"]["why"] == ""
    assert tests["test_fails"]["failed"]
    assert "the reason, in a line" in tests["test_fails"]["why"]


def test_the_forward_pass_is_measured_under_both_kernel_settings(monkeypatch):
    seen = []

    def fake(command, environment):
        seen.append(environment.get("OPENBLAS_CORETYPE"))
        return latency.Timed(1.0, 1.0, 0, "ratio 0.9\n", "ratio 0.9")

    monkeypatch.setattr(latency, "timed", fake)
    lines: list[str] = []
    latency.measure_forward({"OPENBLAS_CORETYPE": "Zen"}, 1, lines.append)
    assert seen == ["Haswell", None]
    assert lines[1::2] == ["  ratio 0.9", "  ratio 0.9"]
