"""The readers' bench against its catalogues: every slip of tests/bench/mistakes must be
rejected, naming the element its first line names; every correct alternative of
tests/bench/alternatives accepted on each of SEEDS seeds. Prints the rates and times.

    python benchmarks/bench_sweep.py [--seeds 20] [--scale 1.0]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from proofs.bench.judge import judge_file

ROOT = Path(__file__).resolve().parents[1] / "tests" / "bench"


def mistakes(scale: float) -> tuple[int, int]:
    expected = dict(line.split() for line in (ROOT / "mistakes" / "expected.txt").read_text().splitlines())
    rejected = 0
    for name, element in expected.items():
        began = time.monotonic()
        report = judge_file(ROOT / "mistakes" / f"{name}.py", scale=scale)
        failed = [r for r in report.results if r.verdict in ("failed", "not run")]
        named = any(r.element == element or element in r.reread for r in failed)
        rejected += bool(failed) and named
        print(f"{'rejected' if failed else 'ACCEPTED'} {'names' if named else 'MISSES'} {element:32s} {name} ({time.monotonic() - began:.1f} s)")
    return rejected, len(expected)


def alternatives(seeds: int, scale: float) -> tuple[int, int]:
    runs = wrong = 0
    for path in sorted((ROOT / "alternatives").glob("*.py")):
        for seed in range(seeds):
            report = judge_file(path, seed=seed, scale=scale)
            runs += 1
            bad = [r for r in report.results if r.verdict in ("failed", "not run")]
            if bad:
                wrong += 1
                print(f"FALSE REJECTION {path.name} seed {seed}: {bad[0].title}: {bad[0].witness}")
        print(f"accepted {path.name} on {seeds} seeds")
    return wrong, runs


def main() -> None:
    options = argparse.ArgumentParser()
    options.add_argument("--seeds", type=int, default=20)
    options.add_argument("--scale", type=float, default=1.0)
    options.add_argument("--only", choices=("mistakes", "alternatives"))
    args = options.parse_args()
    if args.only != "alternatives":
        rejected, total = mistakes(args.scale)
        print(f"mistakes rejected naming their element: {rejected} of {total} ({rejected / total:.0%})")
    if args.only != "mistakes":
        wrong, runs = alternatives(args.seeds, args.scale)
        print(f"false rejections of correct alternatives: {wrong} of {runs} runs")


if __name__ == "__main__":
    main()
