"""The latency of the everyday commands, each beside its goal, measured in one run.

- collection: `python -m pytest --collect-only -q`, the part of every pytest command paid
  before a test runs, the best and the median of --repeats runs;
- the suite: the README's test command, `python -m pytest` in one process (no -n), once,
  with a plugin (benchmarks/latency_record.py) that records each test's time and the
  element ids conftest gave it;
- `pytest -k <id>` for every element id, estimated from that one run: the collection's
  median plus the time of the tests the id selects (their setup, call and teardown); the
  --sample slowest estimates are then run as `pytest -k <id>` and timed, beside the
  estimate, and as `pytest -k "<id> or <id>"`, the same selection from every file
  collected (conftest reads only the files naming the id when -k is one id alone);
- `python -m proofs verify` (the whole registry, the default --jobs) with an empty cache
  directory (XDG_CACHE_HOME, the first run after an install or an upgrade) and again with
  the cache that run left (every later run), and the checks that took longest;
- `python -m proofs audit` of every registered chapter's file (found where the package
  looks for them), its time and its peak resident memory, with an empty cache directory
  and again with the one that run left (例 4.5's table kept);
- the forward pass (benchmarks/forward_speed.py) under each BLAS kernel setting, the AVX2
  kernel (OPENBLAS_CORETYPE=Haswell) and the one OpenBLAS picks for the processor: its
  multiply rate over np.matmul's and its time over GPT2LMHeadModel's, each beside its goal.

Every command runs in a fresh interpreter under the Hypothesis profile --profile, in the
environment this benchmark was started in. When that environment keeps Python from writing
bytecode (PYTHONDONTWRITEBYTECODE, as some containers set), every command compiles the
package and rewrites the tests' asserts again; the collection is then also timed with the
bytecode kept in a temporary folder (PYTHONPYCACHEPREFIX), as on an ordinary install.
Beside each wall time: the processor time (user and system) of the command and the
processes it started, which other work on a shared machine inflates far less, and the load
average at the start and the end. Times are compared within one run, never asserted.

Run from the repository root:

    python -m benchmarks.latency [--repeats 3] [--sample 3] [--profile ci]
                                 [--skip-suite] [--skip-verify] [--skip-audit]
                                 [--skip-forward]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.peak_memory import sampled_peak

ROOT = Path(__file__).resolve().parents[1]

GOALS = {
    "pytest -k <id>": 5.0,
    "python -m pytest": 120.0,
    "python -m proofs verify": 12.0,
    "python -m proofs audit": 3.0,
}
"""Seconds, on a 2-core machine under the ci profile (the speed issue's targets)."""

AUDIT_MEMORY_GOAL = 300  # MB of peak resident memory for the audit of the chapters

KERNELS = {"AVX2 kernel (OPENBLAS_CORETYPE=Haswell)": "Haswell", "the processor's own kernel": None}
"""The BLAS kernel settings the forward pass is measured under: OPENBLAS_CORETYPE's value,
None for OpenBLAS's own choice."""

PYTEST = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider")


@dataclass(frozen=True)
class Timed:
    """A command's wall time, the processor time it and its subprocesses used (which other
    work on the machine inflates far less), its exit code, what it printed."""

    seconds: float
    cpu: float
    returncode: int
    stdout: str
    last_line: str
    memory: int = 0  # bytes: the largest sum of its processes' proportional sizes, if sampled


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: Sequence[str], environment: Mapping[str, str], memory: bool = False) -> Timed:
    """Run `command` from the repository root and time it; with `memory`, sample the memory
    of its processes too (`peak_memory.sampled_peak`)."""
    cpu, start = _children_cpu(), time.perf_counter()
    if memory:
        done, peak = sampled_peak(command, cwd=ROOT, env=dict(environment))
    else:
        done = subprocess.run(
            list(command), cwd=ROOT, env=dict(environment), capture_output=True, text=True
        )
        peak = 0
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    last = lines[-1] if lines else done.stderr.strip()[-200:]
    return Timed(seconds, cpu, done.returncode, done.stdout, last, peak)


def load() -> str:
    """The machine's load averages over 1, 5 and 15 minutes, where the system says."""
    try:
        return "load average " + ", ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "load average unknown"


def keyword(element_id: str) -> str:
    """The -k expression of an element id: its tests carry it with _ for -.

    >>> keyword("prop-softmax-jacobian")
    'prop_softmax_jacobian'
    """
    return element_id.replace("-", "_")


def per_element(
    tests: Sequence[Mapping], ids: Sequence[str], collection: float, key: str = "seconds"
) -> list[tuple[str, int, float]]:
    """(id, its number of tests, the estimated `key` time of `pytest -k <id>`) for each id,
    slowest first: `collection` plus the recorded `key` times of the tests the id selects.

    >>> tests = [{"selected_by": ["a"], "seconds": 1.0},
    ...          {"selected_by": ["a", "b"], "seconds": 0.5}]
    >>> per_element(tests, ["a", "b", "c"], 2.0)
    [('a', 2, 3.5), ('b', 1, 2.5), ('c', 0, 2.0)]
    """
    rows = []
    for element_id in ids:
        chosen = [t[key] for t in tests if element_id in t["selected_by"]]
        rows.append((element_id, len(chosen), collection + sum(chosen)))
    return sorted(rows, key=lambda row: (-row[2], row[0]))


def folders(tests: Sequence[Mapping]) -> list[tuple[str, float]]:
    """The tests' processor time by folder (tests/<room>, or the package of a doctest),
    largest first.

    >>> folders([{"nodeid": "tests/a/test_x.py::t", "processor": 1.0},
    ...          {"nodeid": "tests/a/test_y.py::t", "processor": 2.0},
    ...          {"nodeid": "symbolic/mask.py::symbolic.mask.f", "processor": 0.5}])
    [('tests/a', 3.0), ('symbolic', 0.5)]
    """
    sums: dict[str, float] = {}
    for test in tests:
        path = test["nodeid"].split("::")[0].split("/")
        name = "/".join(path[:2]) if path[0] == "tests" and len(path) > 2 else path[0]
        sums[name] = sums.get(name, 0.0) + test["processor"]
    return sorted(sums.items(), key=lambda item: (-item[1], item[0]))


def verdict(measured: float, goal: float, unit: str = "s") -> str:
    """`measured` beside `goal` (both in `unit`): within it or over it, and by what factor.

    >>> verdict(3.0, 5.0), verdict(7.5, 5.0), verdict(450, 300, "MB")
    ('goal <= 5 s: met', 'goal <= 5 s: 1.50x over', 'goal <= 300 MB: 1.50x over')
    """
    met = "met" if measured <= goal else f"{measured / goal:.2f}x over"
    return f"goal <= {goal:g} {unit}: {met}"


def element_ids() -> list[str]:
    """Every registered element id."""
    from proofs.book.registry import load_all

    return sorted(load_all())


def measure_collection(
    environment: Mapping[str, str], repeats: int, write: Callable[[str], object], label: str
) -> tuple[float, float]:
    """Time `pytest --collect-only` `repeats` times; print and return the medians of the
    wall and the processor times."""
    runs = [timed([*PYTEST, "--collect-only"], environment) for _ in range(repeats)]
    if any(r.returncode != 0 for r in runs):
        failed = next(r for r in runs if r.returncode != 0)
        raise SystemExit(f"collection failed ({failed.returncode}): {failed.last_line}")
    seconds = sorted(r.seconds for r in runs)
    median = statistics.median(seconds)
    cpu = statistics.median(r.cpu for r in runs)
    write(
        f"collection ({label}): best {seconds[0]:.2f} s, median {median:.2f} s "
        f"(processor {cpu:.2f} s) of {repeats} runs; {runs[-1].last_line}"
    )
    return median, cpu


def measure_suite(
    environment: Mapping[str, str], folder: Path, write: Callable[[str], object]
) -> list[Mapping]:
    """Run the README's test command once, recording each test; print its time."""
    record = folder / "suite.json"
    run = timed(
        [*PYTEST, "-p", "benchmarks.latency_record"],
        {**environment, "LATENCY_RECORD": str(record)},
    )
    write(
        f"python -m pytest (one process): {run.seconds:.1f} s (processor {run.cpu:.1f} s), "
        f"exit code {run.returncode}; {run.last_line}   "
        f"({verdict(run.seconds, GOALS['python -m pytest'])})"
    )
    recorded = json.loads(record.read_text())
    tests = recorded["tests"]
    processor = sum(t["processor"] for t in tests)
    write(
        f"  collection {recorded['collection_seconds']:.1f} s; the tests' processor time "
        f"{processor:.1f} s"
    )
    by_folder = folders(tests)
    write(
        "  processor time by folder: "
        + ", ".join(f"{name} {seconds:.0f} s" for name, seconds in by_folder[:8])
    )
    for test in tests:
        if test["failed"]:
            write(f"  failed: {test['nodeid']}: {test['why']}")
    return tests


def measure_ids(
    environment: Mapping[str, str],
    tests: Sequence[Mapping],
    collection: tuple[float, float],
    sample: int,
    write: Callable[[str], object],
) -> None:
    """Estimate `pytest -k <id>` for every id, then time the `sample` slowest estimates.
    The estimates are ranked by each test's processor time, which a busy machine inflates
    less, or its wall time where that is less: the suite's background jobs (tests/early.py)
    run beside the tests, and the subprocesses they wait for count in the processor time
    of whichever test is running when they end."""
    ids = element_ids()
    tests = [{**t, "least": min(t["seconds"], t["processor"])} for t in tests]
    rows = per_element(tests, ids, collection[1], "least")
    walls = {row[0]: row[2] for row in per_element(tests, ids, collection[0])}
    goal = GOALS["pytest -k <id>"]
    over = sum(seconds > goal for _, _, seconds in rows)
    write(
        f"pytest -k <id>, estimated for {len(ids)} ids (the whole suite's collection, more "
        f"than -k <id> collects, + the recorded time of the id's tests): {over} over the goal "
        "in processor time (or wall time, where less); the slowest:"
    )
    for element_id, count, seconds in rows[:10]:
        write(
            f"  {element_id:<36} {count:>4} tests  processor or wall {seconds:6.2f} s, "
            f"wall {walls[element_id]:6.2f} s"
        )
    untested = [element_id for element_id, count, _ in rows if count == 0]
    if untested:
        write(f"  ids no test carries: {', '.join(untested)}")
    if sample:
        write(f"pytest -k <id>, timed, for the {sample} slowest estimates:")
    for element_id, _, estimate in rows[:sample]:
        run = timed([*PYTEST, "-k", keyword(element_id)], environment)
        write(
            f"  -k {keyword(element_id):<34} {run.seconds:6.2f} s (processor {run.cpu:.2f} s, "
            f"estimated {estimate:.2f}), exit code {run.returncode}; {run.last_line}   "
            f"({verdict(run.seconds, goal)})"
        )
        # the same selection with every file collected: an expression that is not one id
        either = f"{keyword(element_id)} or {keyword(element_id)}"
        every = timed([*PYTEST, "-k", either], environment)
        write(
            f"     every file collected: {every.seconds:6.2f} s (processor {every.cpu:.2f} s); "
            f"{every.last_line}"
        )


def cache_states(environment: Mapping[str, str]) -> Iterator[tuple[str, dict[str, str]]]:
    """The environment with an empty cache directory (the first run after an install, an
    upgrade or an edit of the package), then with the one the first run left (every
    later run), each with its label."""
    with tempfile.TemporaryDirectory(prefix="latency-cache-") as cache:
        env = {**environment, "XDG_CACHE_HOME": cache}
        for label in ("empty cache", "its cache kept"):
            yield label, env


def measure_verify(environment: Mapping[str, str], write: Callable[[str], object]) -> None:
    """Time `proofs verify` with an empty cache directory, then with the one it left."""
    goal = GOALS["python -m proofs verify"]
    for label, env in cache_states(environment):
        run = timed([sys.executable, "-m", "proofs", "verify", "--json"], env)
        report = json.loads(run.stdout) if run.stdout.strip() else {}
        slowest = sorted(report.get("elements", []), key=lambda e: -e["seconds"])[:3]
        checks = ", ".join(f"{e['id']} {e['seconds']:.1f} s" for e in slowest)
        write(
            f"python -m proofs verify ({label}): {run.seconds:.1f} s (processor "
            f"{run.cpu:.1f} s), exit code {run.returncode}, {report.get('passed', '?')} of "
            f"{report.get('checks', '?')} passed   ({verdict(run.seconds, goal)})"
        )
        write(f"  longest checks: {checks}")


def chapter_files() -> list[Path]:
    """Every registered chapter's file, where the package looks for it (none found: none)."""
    from proofs.book.locations import chapter_folders
    from proofs.book.registry import CHAPTERS, load_all
    from proofs.publish.pictures import chapter_file

    load_all()
    folders = chapter_folders()
    found = (chapter_file(key, folders) for key in CHAPTERS)
    return [path for path in found if path is not None]


def measure_audit(environment: Mapping[str, str], write: Callable[[str], object]) -> None:
    """Time `proofs audit` of every chapter's file, and its peak memory, with an empty
    cache directory, then with the one it left (an author's every later audit)."""
    files = chapter_files()
    if not files:
        write("python -m proofs audit: no chapter file found (see proofs.book.locations)")
        return
    for label, env in cache_states(environment):
        with tempfile.TemporaryDirectory(prefix="latency-peak-") as folder:
            peak = Path(folder) / "peak"
            command = [sys.executable, "-m", "benchmarks.peak_memory", str(peak), "proofs"]
            run = timed([*command, "audit", "--quiet", *map(str, files)], env, memory=True)
            own = int(peak.read_text()) / 1e6 if peak.exists() else float("nan")
        together = run.memory / 1e6
        write(
            f"python -m proofs audit ({len(files)} chapters, {label}): {run.seconds:.2f} s "
            f"(processor {run.cpu:.2f} s), peak {own:.0f} MB in its own process, "
            f"{together:.0f} MB with its workers (proportional sizes, sampled), exit code "
            f"{run.returncode}   ({verdict(run.seconds, GOALS['python -m proofs audit'])}; "
            f"{verdict(max(own, together), AUDIT_MEMORY_GOAL, 'MB')})"
        )


def measure_forward(
    environment: Mapping[str, str], repeats: int, write: Callable[[str], object]
) -> None:
    """Run benchmarks/forward_speed.py under each kernel setting; relay what it printed."""
    for label, coretype in KERNELS.items():
        env = {k: v for k, v in environment.items() if k != "OPENBLAS_CORETYPE"}
        if coretype is not None:
            env["OPENBLAS_CORETYPE"] = coretype
        command = [sys.executable, "-m", "benchmarks.forward_speed", "--repeats", str(repeats)]
        run = timed(command, env)
        write(f"the forward pass, {label} ({run.seconds:.0f} s, exit code {run.returncode}):")
        for line in run.stdout.splitlines() or [run.last_line]:
            write(f"  {line}")


def main(argv: list[str] | None = None, write: Callable[[str], object] = print) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="collections timed (default 3)")
    parser.add_argument(
        "--sample", type=int, default=3, help="slowest ids run as pytest -k <id> (default 3)"
    )
    parser.add_argument("--profile", default="ci", help="HYPOTHESIS_PROFILE (default ci)")
    parser.add_argument("--skip-suite", action="store_true", help="no suite, no -k <id>")
    parser.add_argument("--skip-verify", action="store_true", help="no proofs verify")
    parser.add_argument("--skip-audit", action="store_true", help="no proofs audit")
    parser.add_argument("--skip-forward", action="store_true", help="no forward pass")
    parser.add_argument(
        "--forward-repeats", type=int, default=3, help="forward_speed's --repeats (default 3)"
    )
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.sample < 0 or args.forward_repeats < 1:
        parser.error("--repeats and --forward-repeats must be >= 1 and --sample >= 0")
    environment = {**os.environ, "HYPOTHESIS_PROFILE": args.profile}
    no_bytecode = bool(environment.get("PYTHONDONTWRITEBYTECODE"))
    write(
        f"{os.cpu_count()} cores, Python {sys.version.split()[0]}, profile {args.profile}; "
        f"bytecode {'not written (PYTHONDONTWRITEBYTECODE)' if no_bytecode else 'written'}; "
        f"{load()}"
    )
    with tempfile.TemporaryDirectory(prefix="latency-") as scratch:
        folder = Path(scratch)
        collection = measure_collection(environment, args.repeats, write, "as started")
        if no_bytecode:
            kept = {k: v for k, v in environment.items() if k != "PYTHONDONTWRITEBYTECODE"}
            kept["PYTHONPYCACHEPREFIX"] = str(folder / "bytecode")
            timed([*PYTEST, "--collect-only"], kept)  # writes the bytecode
            measure_collection(kept, args.repeats, write, "bytecode kept")
        if not args.skip_suite:
            tests = measure_suite(environment, folder, write)
            measure_ids(environment, tests, collection, args.sample, write)
        if not args.skip_verify:
            measure_verify(environment, write)
        if not args.skip_audit:
            measure_audit(environment, write)
        if not args.skip_forward:
            measure_forward(environment, args.forward_repeats, write)
        write(f"at the end: {load()}")


if __name__ == "__main__":
    main()
