"""The readers' bench against its catalogues: every slip of tests/bench/mistakes must be
rejected, naming the element its line of expected.txt names (every hint given names it
as the element to reread, and some failure names it, as its element or in its hint);
every correct alternative of tests/bench/alternatives accepted on each of SEEDS seeds.
Prints one line per file and the rates.

    python benchmarks/bench_sweep.py [--seeds 20] [--scale 1.0] [--only mistakes]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from proofs.bench.judging import Report, judge_file

ROOT = Path(__file__).resolve().parents[1] / "tests" / "bench"


def expected_elements() -> dict[str, str]:
    """Each slip's file name and the element it must name (tests/bench/mistakes)."""
    lines = (ROOT / "mistakes" / "expected.txt").read_text(encoding="utf-8").splitlines()
    return dict(line.split() for line in lines if line.strip())


def names(report: Report, element: str) -> bool:
    """Whether the report's failures name `element`: every hint's element to reread is it,
    and a failure names it (its element, or its hint's)."""
    failed = [r for r in report.results if r.verdict in ("failed", "not run")]
    hinted = [r for r in failed if r.hint]
    return all(r.reread.startswith(element) for r in hinted) and any(
        r.element == element or r.reread.startswith(element) for r in failed
    )


def mistakes(scale: float) -> tuple[int, int, int]:
    """(rejected, rejected naming their element, slips) over the catalogue."""
    rejected = named = 0
    expected = expected_elements()
    for name, element in expected.items():
        began = time.monotonic()
        report = judge_file(ROOT / "mistakes" / f"{name}.py", scale=scale)
        failed = report.failed
        right = failed and names(report, element)
        rejected += failed
        named += right
        hints = sorted({r.reread.split()[0] for r in report.results if r.hint})
        print(
            f"{'rejected' if failed else 'ACCEPTED'} {'names' if right else 'MISSES'} "
            f"{element:34s} {name} (hints: {', '.join(hints) or 'none'}; "
            f"{time.monotonic() - began:.1f} s)",
            flush=True,
        )
    return rejected, named, len(expected)


def alternatives(seeds: int, scale: float) -> tuple[int, int, int]:
    """(runs falsely rejected, runs, files) over the catalogue, `seeds` seeds each."""
    runs = wrong = 0
    files = sorted((ROOT / "alternatives").glob("*.py"))
    for path in files:
        began, rejected = time.monotonic(), 0
        for seed in range(seeds):
            report = judge_file(path, seed=seed, scale=scale)
            runs += 1
            bad = [r for r in report.results if r.verdict in ("failed", "not run")]
            if bad:
                rejected += 1
                print(f"FALSE REJECTION {path.name} seed {seed}: {bad[0].title}: {bad[0].witness}")
        verdict = "accepted" if not rejected else f"REJECTED on {rejected} of"
        spent = (time.monotonic() - began) / seeds
        print(f"{verdict} {path.name} on {seeds} seeds ({spent:.1f} s a run)", flush=True)
        wrong += rejected
    return wrong, runs, len(files)


def main() -> None:
    options = argparse.ArgumentParser()
    options.add_argument("--seeds", type=int, default=20)
    options.add_argument("--scale", type=float, default=1.0)
    options.add_argument("--only", choices=("mistakes", "alternatives"))
    args = options.parse_args()
    if args.only != "alternatives":
        rejected, named, total = mistakes(args.scale)
        print(
            f"slips rejected: {rejected} of {total} ({rejected / total:.0%}); "
            f"rejected naming their element: {named} of {total} ({named / total:.0%})"
        )
    if args.only != "mistakes":
        wrong, runs, files = alternatives(args.seeds, args.scale)
        print(f"false rejections of {files} correct alternatives: {wrong} of {runs} runs")


if __name__ == "__main__":
    main()
