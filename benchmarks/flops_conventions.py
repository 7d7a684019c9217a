"""The time of `proofs flops` for each published configuration, against its goal of 1 s.

Three figures a configuration: the whole command in a fresh process, as a user runs it
(the interpreter's start and the imports included), best of --repeats, in wall seconds
and in the CPU seconds of that process (what the wall time is on an idle machine: on a
shared one the wall time measures the other load too); and the table computed in this
process once the modules are loaded (every convention derived and evaluated, the
explanation of two of them included). Printed, never asserted; the goal is judged on
the CPU seconds.

    python -m benchmarks.flops_conventions [--repeats 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import resource
import subprocess
import sys
import time

from proofs.cli import main
from spec.published_models import MODELS

GOAL = 1.0  # seconds a configuration


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fresh_process(model: str, repeats: int) -> tuple[float, float]:
    """The least (wall, CPU) seconds of `python -m proofs flops --model MODEL` in a new
    process."""
    best = (float("inf"), float("inf"))
    for _ in range(repeats):
        start, cpu = time.perf_counter(), _children_cpu()
        subprocess.run(
            [sys.executable, "-m", "proofs", "flops", "--model", model],
            check=True,
            capture_output=True,
        )
        best = min(best, (time.perf_counter() - start, _children_cpu() - cpu))
    return best


def in_process(model: str, repeats: int) -> float:
    """The least wall time of the command run through proofs.cli.main, modules loaded."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            main(["flops", "--model", model, "--explain", "chinchilla", "torch"])
        best = min(best, time.perf_counter() - start)
    return best


def main_benchmark() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    in_process("gpt2", 1)  # load the modules once
    print(f"{'model':16} {'fresh: wall':>12} {'CPU':>9} {'in process':>11}  goal <= {GOAL:g} s CPU")
    worst = 0.0
    for model in MODELS:
        (wall, cpu), loaded = fresh_process(model, args.repeats), in_process(model, args.repeats)
        worst = max(worst, cpu)
        print(f"{model:16} {wall:10.3f} s {cpu:7.3f} s {loaded:9.3f} s")
    verdict = "met" if worst <= GOAL else f"{worst / GOAL:.2f}x over"
    print(f"slowest configuration in a fresh process: {worst:.3f} CPU s ({verdict})")


if __name__ == "__main__":
    main_benchmark()
