"""The verify-with-cores benchmark's table (benchmarks/verify_cores.py), on made-up runs."""

from __future__ import annotations

import json

from benchmarks import latency, verify_cores


def test_each_jobs_row_has_its_speed_up_over_one_job_and_its_longest_check(monkeypatch):
    seconds = {"1": 40.0, "2": 25.0, "4": 20.0}

    def fake(command, environment):
        jobs = command[command.index("--jobs") + 1]
        report = {"elements": [{"id": "a", "seconds": 1.0}, {"id": f"b{jobs}", "seconds": 3.0}]}
        return latency.Timed(seconds[jobs], 50.0, 0, json.dumps(report), "")

    monkeypatch.setattr(verify_cores, "timed", fake)
    monkeypatch.setattr(verify_cores.os, "cpu_count", lambda: 2)
    lines: list[str] = []
    verify_cores.main(["--jobs", "4", "1", "2"], lines.append)
    rows = [line.split() for line in lines[2:5]]
    assert rows == [
        ["1", "40.0", "50.0", "1.00", "1.00", "b1", "3.0", "s"],
        ["2", "25.0", "50.0", "1.60", "0.80", "b2", "3.0", "s"],
        ["4", "20.0", "50.0", "2.00", "1.00", "b4", "3.0", "s"],
    ]


def test_a_failed_run_is_reported_with_its_exit_code(monkeypatch):
    monkeypatch.setattr(
        verify_cores, "timed", lambda command, environment: latency.Timed(1, 1, 2, "", "usage")
    )
    lines: list[str] = []
    verify_cores.main(["--jobs", "1"], lines.append)
    assert lines[2].split() == ["1", "exit", "code", "2:", "usage"]
