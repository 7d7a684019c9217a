"""What running a chapter's listings in their sandbox costs: the seeds' listings run
contained and not, in alternation, and each listing's median wall time either way, the
chapter's, and the ratio; then what starting and ending an empty sandbox takes. Times
are compared within one run, never asserted.

Run from the repository root (the chapters are found as the tests find them):

    python -m benchmarks.listing_sandbox [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from benchmarks.latency import load
from proofs.audit.listings import run_listings
from proofs.audit.listings.running import DISK, MEMORY
from proofs.audit.listings.sandbox import Sandbox, why_not_contained
from proofs.book.locations import chapter_folders
from proofs.reader import Document, read_chapter

SEED = "000_ce182fefa314a82b.txt"  # 自己注意: three listings, the second imports the first


def seconds_by_listing(document: Document, contain: bool) -> list[tuple[str, float]]:
    """Each listing's file name and wall time in one run of the chapter's listings."""
    runs = run_listings(document, contain=contain)
    failed = [run.problem for run in runs if not run.ran]
    if failed:
        raise RuntimeError(f"a listing did not run: {failed[0]}")
    return [(run.file, run.seconds) for run in runs]


def starting(contain: bool) -> float:
    """The seconds a sandbox (or the supervisor alone) takes to start and to end."""
    began = time.perf_counter()
    Sandbox(contain, None, MEMORY, DISK).close()
    return time.perf_counter() - began


def main(argv: list[str] | None = None, write: Callable[[str], object] = print) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="runs each way (default 5)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be >= 1")
    refused = why_not_contained(MEMORY, DISK)
    if refused:
        write(f"no sandbox on this machine ({refused}): nothing to compare")
        return
    path = next((f / SEED for f in chapter_folders() if (f / SEED).is_file()), None)
    if path is None:
        write(f"{SEED} is not here: point TRANSFORMER_PROOFS_CHAPTERS at the chapters")
        return
    document = read_chapter(path)
    write(f"{SEED}, {args.rounds} rounds each way, alternating; {load()}")
    times: dict[bool, list[list[tuple[str, float]]]] = {True: [], False: []}
    for _ in range(args.rounds):
        for contain in (False, True):
            times[contain].append(seconds_by_listing(document, contain))
    write(f"  {'listing':16} {'not contained':>14} {'contained':>10} {'ratio':>6}")
    names = [name for name, _ in times[True][0]]
    columns = {True: [0.0] * len(names), False: [0.0] * len(names)}
    for k, name in enumerate(names):
        for contain in (False, True):
            columns[contain][k] = statistics.median(r[k][1] for r in times[contain])
        plain, boxed = columns[False][k], columns[True][k]
        write(f"  {name:16} {plain:12.3f} s {boxed:8.3f} s {boxed / plain:6.2f}")
    plain, boxed = sum(columns[False]), sum(columns[True])
    write(f"  {'the chapter':16} {plain:12.3f} s {boxed:8.3f} s {boxed / plain:6.2f}")
    start = {c: statistics.median(starting(c) for _ in range(args.rounds)) for c in (False, True)}
    write(
        f"  {'start and end':16} {start[False]:12.3f} s {start[True]:8.3f} s "
        f"{start[True] / start[False]:6.2f}"
    )
    write(f"at the end: {load()}")


if __name__ == "__main__":
    main()
