"""How long the readers' bench takes to judge one function, as a reader runs it: a softmax
(its four clauses, `proofs check FILE:softmax`) and a Pre-LN block (`FILE:pre_ln_block`),
each from the bench's complete correct file, the contained session's start included.
The goals are 10 s for a softmax and 60 s for a block on the machine that runs it; the
figures are printed, never asserted.

    python -m benchmarks.bench_speed [--runs 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from proofs.bench.judging import judge_file

COMPLETE = Path(__file__).resolve().parents[1] / "tests" / "bench" / "alternatives" / "complete.py"
GOALS = {"softmax": 10.0, "pre_ln_block": 60.0, "post_ln_block": 60.0}  # seconds


def seconds(name: str, seed: int) -> tuple[float, int]:
    """(wall-clock seconds, clauses judged) of judging the complete file's `name`."""
    began = time.monotonic()
    report = judge_file(COMPLETE, [name], seed=seed)
    assert not report.failed, [r.witness for r in report.results if r.verdict != "passed"]
    return time.monotonic() - began, len(report.results)


def main(argv: Sequence[str] | None = None, write: Callable[[str], object] = print) -> None:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--runs", type=int, default=3, help="seeds judged per function")
    args = options.parse_args(argv)
    write(f"{'function':14s} {'clauses':>7s} {'median s':>9s} {'max s':>7s}  goal")
    for name, goal in GOALS.items():
        times = []
        for seed in range(args.runs):
            spent, clauses = seconds(name, seed)
            times.append(spent)
        times.sort()
        median, worst = times[len(times) // 2], times[-1]
        within = "within" if worst <= goal else "OVER"
        write(f"{name:14s} {clauses:7d} {median:9.1f} {worst:7.1f}  {within} {goal:g} s")


if __name__ == "__main__":
    main()
