"""Whether tests moved to the thorough profile took power with them, measured by mutation.

A test marked `thorough` runs only under HYPOTHESIS_PROFILE=thorough. It loses the suite
nothing when every mutant it would kill is killed by the tests that still run under ci. This
benchmark takes the mutants of a module (benchmarks/mutation.py's operators) on the lines
the moved tests execute (coverage of those tests alone, under the thorough profile), and for
each, in a copy of the repository with the mutant written in:

1. runs the module's own test files under ci (the moved tests skipped), stopping at the
   first failure: "kept" when they kill it;
2. runs the moved tests, under thorough, on each mutant the kept tests let live: "moved
   only" when it kills it. That count is the power the move lost; 0 is the claim.

Run from the repository root, with the moved test's node id (for 命題 3.2 at n = 256,
tests/symbolic/test_softmax.py::test_prop_softmax_jacobian_n_256_the_size_limit_and_its_wrong_formulas):

    python -m benchmarks.thorough_power symbolic/softmax.py NODE_ID [NODE_ID ...]
        [--kept tests/symbolic/test_softmax.py ...] [--jobs 2] [--timeout 900]
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks.mutation import TESTS, Mutant, mutants, mutated

ROOT = Path(__file__).resolve().parents[1]


def environment(root: Path, profile: str) -> dict[str, str]:
    """The tests' environment in `root` under the Hypothesis `profile`, one BLAS thread."""
    return dict(
        os.environ,
        HYPOTHESIS_PROFILE=profile,
        PYTHONPATH=str(root),
        PYTHONDONTWRITEBYTECODE="1",
        OPENBLAS_NUM_THREADS="1",
        OMP_NUM_THREADS="1",
    )


def lines_run_by(module: str, tests: Sequence[str]) -> set[int]:
    """The lines of `module` that `tests` execute under the thorough profile."""
    import coverage

    with tempfile.TemporaryDirectory(prefix="thorough-coverage-") as tmp:
        data_file = Path(tmp) / "coverage-data"
        command = [sys.executable, "-m", "coverage", "run", f"--data-file={data_file}"]
        command += [f"--include={module}", "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests]
        done = subprocess.run(
            command, cwd=ROOT, env=environment(ROOT, "thorough"), capture_output=True, text=True
        )
        if done.returncode != 0:
            raise SystemExit(f"{tests} do not pass under thorough:\n{done.stdout[-2000:]}")
        data = coverage.CoverageData(basename=str(data_file))
        data.read()
        return set(data.lines(str(ROOT / module)) or ())


def outcome(
    copy: Path,
    mutant: Mutant,
    source: str,
    kept: Sequence[str],
    moved: Sequence[str],
    timeout: float,
) -> str:
    """ "kept", "moved only" or "survived" (or "timeout"), with the mutant written in."""
    path = copy / mutant.module
    path.write_text(mutated(source, mutant), encoding="utf-8")
    try:
        for tests, profile, verdict in ((kept, "ci", "kept"), (moved, "thorough", "moved only")):
            command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
            run = subprocess.run(
                [*command, *tests],
                cwd=copy,
                env=environment(copy, profile),
                capture_output=True,
                timeout=timeout,
            )
            if run.returncode == 1:
                return verdict
        return "survived"
    except subprocess.TimeoutExpired:
        return "timeout"
    finally:
        path.write_text(source, encoding="utf-8")


def main(argv: list[str] | None = None, write: Callable[[str], object] = print) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", choices=sorted(TESTS))
    parser.add_argument("moved", nargs="+", help="the thorough tests' node ids")
    parser.add_argument("--kept", nargs="+", help="tests run under ci (default: the module's)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per run")
    args = parser.parse_args(argv)
    kept = args.kept or TESTS[args.module]
    source = (ROOT / args.module).read_text(encoding="utf-8")
    lines = lines_run_by(args.module, args.moved)
    chosen = [m for m in mutants(args.module, source) if m.statement in lines]
    write(
        f"{args.module}: {len(chosen)} mutants on the {len(lines)} lines the moved tests run "
        f"({' '.join(args.moved)}); kept tests (ci): {' '.join(kept)}"
    )
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="thorough-power-") as tmp:
        copies: queue.Queue[Path] = queue.Queue()
        for k in range(max(1, args.jobs)):
            copy = Path(tmp) / f"repo-{k}"
            shutil.copytree(
                ROOT,
                copy,
                ignore=shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", "node_modules"),
            )
            copies.put(copy)

        def judge(mutant: Mutant) -> str:
            copy = copies.get()
            try:
                return outcome(copy, mutant, source, kept, args.moved, args.timeout)
            finally:
                copies.put(copy)

        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            results = list(pool.map(judge, chosen))
    counts = {k: results.count(k) for k in ("kept", "moved only", "survived", "timeout")}
    for mutant, result in zip(chosen, results, strict=True):
        if result != "kept":
            write(f"  #{mutant.index} line {mutant.line}: {mutant.description} -> {result}")
    write(
        f"killed by the kept tests {counts['kept']}, by the moved test only "
        f"{counts['moved only']}, by neither {counts['survived']}, timed out "
        f"{counts['timeout']} ({time.perf_counter() - began:.0f} s)"
    )
    return 1 if counts["moved only"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
