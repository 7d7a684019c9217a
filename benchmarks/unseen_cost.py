"""What auditing a chapter the package has never seen costs, as an author runs it.

Each chapter of benchmarks/unseen (or --folder) is audited by the command an author types,
`python -m proofs audit FILE --quiet`, in a fresh interpreter, --runs times: the median wall
time and the processor time beside it (which other work on the machine inflates far less).
The goal is 3 s for a 400-line chapter, instantiation of its statements included, so each
time is also scaled to 400 lines. The same run times `python -m proofs audit --help` (the
interpreter and the package's imports) so that the audit's own share reads as a ratio that
another machine reproduces. Times are printed, never asserted; the load average at the
start and the end says how shared the machine was.

Run from the repository root:

    python -m benchmarks.unseen_cost [--folder DIR] [--runs 3] [--run-listings] [CHAPTER ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

from benchmarks.latency import Timed, timed, verdict

UNSEEN = Path(__file__).resolve().parent / "unseen"
GOAL = 3.0  # seconds for a chapter of GOAL_LINES lines
GOAL_LINES = 400


def chapters(folder: Path, names: Sequence[str]) -> list[Path]:
    """The chapter files of `folder` (MDX and rendered text), or only those named."""
    found = sorted(p for p in folder.iterdir() if p.suffix in (".mdx", ".txt"))
    if not names:
        return found
    chosen = [p for p in found if p.name in names]
    missing = sorted(set(names) - {p.name for p in chosen})
    if missing:
        raise SystemExit(f"--folder {folder} has no chapter {', '.join(missing)}")
    return chosen


def median_run(command: Sequence[str], runs: int) -> tuple[float, float, int]:
    """(median wall seconds, median processor seconds, the last exit code) of `runs` runs."""
    done: list[Timed] = [timed(command, os.environ) for _ in range(runs)]
    wall = statistics.median(t.seconds for t in done)
    cpu = statistics.median(t.cpu for t in done)
    return wall, cpu, done[-1].returncode


def per_goal_lines(seconds: float, lines: int) -> float:
    """The seconds scaled to a chapter of GOAL_LINES lines (the time grows about linearly
    with the lines: benchmarks/audit_scaling).

    >>> per_goal_lines(1.5, 200), per_goal_lines(3.0, 400)
    (3.0, 3.0)
    """
    return seconds * GOAL_LINES / lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", help="only these chapters of the folder")
    parser.add_argument("--folder", type=Path, default=UNSEEN, help="the chapters' folder")
    parser.add_argument("--runs", type=int, default=3, help="audits of each chapter")
    parser.add_argument("--run-listings", action="store_true", help="run the listings too")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs: expected a count of 1 or more, got {args.runs}")
    audit = [sys.executable, "-m", "proofs", "audit"]
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    start, start_cpu, _ = median_run([*audit, "--help"], args.runs)
    print(f"interpreter and imports (audit --help): {start:.2f} s (processor {start_cpu:.2f} s)")
    flags = ["--quiet", *(["--run-listings"] if args.run_listings else [])]
    scaled = []
    for path in chapters(args.folder, args.chapters):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        wall, cpu, code = median_run([*audit, *flags, str(path)], args.runs)
        scaled.append(per_goal_lines(wall, lines))
        print(
            f"{path.name:24} {lines:4} lines  {wall:5.2f} s (processor {cpu:5.2f} s, "
            f"{wall / start:4.1f}x the start)  {scaled[-1]:5.2f} s per {GOAL_LINES} lines  "
            f"exit {code}  ({verdict(scaled[-1], GOAL)})"
        )
    if scaled:
        print(
            f"per {GOAL_LINES} lines: median {statistics.median(scaled):.2f} s, "
            f"largest {max(scaled):.2f} s ({sum(s <= GOAL for s in scaled)} of {len(scaled)} "
            f"within {GOAL:g} s)"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
