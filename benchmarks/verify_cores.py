"""How `proofs verify --profile thorough` grows with the cores it is given.

Runs the whole registry under the thorough profile with --jobs 1, 2, 4, … up to twice
the machine's cores, each in a fresh interpreter with an empty cache
directory (every run does the same work: the symbolic derivations included), and prints
a table: the wall time, the processor time, the speed-up over --jobs 1 and the
efficiency (speed-up over the jobs, or over the cores when there are more jobs than
cores), then the longest check, which bounds a run whatever the jobs. Times are compared
within one run, never asserted.

Run from the repository root:

    python -m benchmarks.verify_cores [--profile thorough] [--jobs 1 2 4]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable

from benchmarks.latency import load, timed


def job_counts(cores: int) -> list[int]:
    """1, 2, 4, … up to twice the cores.

    >>> job_counts(2), job_counts(3)
    ([1, 2, 4], [1, 2, 4, 6])
    """
    counts = [1]
    while counts[-1] * 2 <= 2 * cores:
        counts.append(counts[-1] * 2)
    if counts[-1] != 2 * cores:
        counts.append(2 * cores)
    return counts


def main(argv: list[str] | None = None, write: Callable[[str], object] = print) -> None:
    cores = os.cpu_count() or 1  # what verify's --jobs defaults to
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="thorough", help="Hypothesis profile")
    parser.add_argument("--jobs", type=int, nargs="+", help="the --jobs values (default 1, 2, 4 …)")
    args = parser.parse_args(argv)
    jobs = sorted(set(args.jobs or job_counts(cores)))
    if jobs[0] < 1:
        parser.error("--jobs values must be >= 1")
    write(f"{cores} cores, profile {args.profile}; {load()}")
    write(
        f"  {'jobs':>4} {'seconds':>8} {'processor':>10} {'speed-up':>9} {'efficiency':>11}"
        "  longest check"
    )
    first = None
    for count in jobs:
        with tempfile.TemporaryDirectory(prefix="verify-cores-") as cache:
            env = {**os.environ, "XDG_CACHE_HOME": cache}
            command = [sys.executable, "-m", "proofs", "verify", "--json"]
            run = timed([*command, "--profile", args.profile, "--jobs", str(count)], env)
        if run.returncode != 0:
            write(f"  {count:>4} exit code {run.returncode}: {run.last_line}")
            continue
        report = json.loads(run.stdout)
        slowest = max(report["elements"], key=lambda e: e["seconds"])
        first = first or run.seconds
        speedup = first / run.seconds
        write(
            f"  {count:>4} {run.seconds:8.1f} {run.cpu:10.1f} {speedup:9.2f} "
            f"{speedup / min(count, cores):11.2f}  {slowest['id']} {slowest['seconds']:.1f} s"
        )
    write(f"at the end: {load()}")


if __name__ == "__main__":
    main()
