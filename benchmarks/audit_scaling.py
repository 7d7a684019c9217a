"""How the audit's time and memory grow with what it reads.

Two series, measured in one run:

- chapter length: a seed chapter's text repeated 1, 2, 4, 8 and 16 times (the reader takes
  the copies as one chapter whose elements come again; the audit reports them duplicated);
- formulas per line: the chapter with one more line of 4,000 … 32,000 distinct equalities
  `$k = k$`, one after another as the chapters list settings (「$a = 1$、$b = 2$」).

Each case runs in a fresh interpreter, so that its peak memory is its own. What a process
does once whatever it reads is done first, on the chapter: the examples' checks, the
tables and the listings' outputs regenerated. In the length series the case is then
audited twice: "first" is its first reading and audit, the SymPy decisions of its elements
included; "again" is the second, with everything the audit keeps from one document to the
next already decided: reading, locating and comparing alone. In the formulas series the
chapter is audited twice first, then the case once: "line" is the case's time less the
chapter's second, what the line costs. The peak is the process's resident memory while the
case ran (Linux: the high-water mark reset before it; elsewhere the whole process's). Each
series ends with its growth exponents, the least-squares slopes of log time against log
size: 1 is linear, 2 quadratic. Times are compared within one run, never asserted.

Run from the repository root:

    python -m benchmarks.audit_scaling [--chapter self-attention] [--copies 1 2 4 8 16]
                                       [--formulas 4000 8000 16000 32000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmarks.growth import growth_exponent
from benchmarks.peak_memory import peak_bytes, reset_peak

ROOT = Path(__file__).resolve().parents[1]


def repeated(text: str, copies: int) -> str:
    """The chapter's text `copies` times, one after the other."""
    return (text.rstrip("\n") + "\n\n") * copies


def with_equalities(text: str, count: int) -> str:
    """The chapter with one more line of `count` distinct equalities `$k = k$`."""
    return text.rstrip("\n") + "\n\n" + "、".join(f"${k} = {k}$" for k in range(count)) + "\n"


def measure_case(chapter: Path, case: Path, line: bool) -> dict[str, float]:
    """In this process: the chapter's checks, tables and outputs; then the case audited
    twice ("first", "again"), or, for a `line`, the chapter twice and the case once
    ("line": the case's seconds less the chapter's second); and the peak resident bytes
    while the case ran."""
    from proofs.audit import audit_document, identify
    from proofs.audit.elements import audit_checks, audit_elements
    from proofs.audit.outputs import audit_outputs
    from proofs.audit.tables import audit_tables
    from proofs.reader import read_chapter

    document = read_chapter(chapter)
    key = identify(document)
    audit_checks(document, audit_elements(document, key))
    audit_tables(document, key)
    audit_outputs(document, key)

    def audit(path: Path) -> float:
        start = time.perf_counter()
        audit_document(read_chapter(path))
        return time.perf_counter() - start

    if line:
        audit(chapter)
        alone = audit(chapter)
        reset_peak()
        times = {"line": audit(case) - alone}
    else:
        reset_peak()
        times = {"first": audit(case), "again": audit(case)}
    return {**times, "peak": peak_bytes()}


def run_case(chapter: Path, case: Path, line: bool) -> dict[str, float]:
    """measure_case in a fresh interpreter of this package."""
    command = [sys.executable, "-m", "benchmarks.audit_scaling", "--case", str(case)]
    command += ["--chapter-file", str(chapter), *(["--line"] if line else [])]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def series(
    title: str,
    label: str,
    columns: Sequence[str],
    cases: Sequence[tuple[int, dict[str, float]]],
    write: Callable[[str], object],
) -> None:
    """Print one series: each case's size, lines and formulas, the seconds of each column
    with its ratio to the first case, and the peak MiB; then each column's growth exponent."""
    write(title)
    heads = "".join(f" {name + ' s':>8} {'ratio':>6}" for name in columns)
    write(f"  {label:>10} {'lines':>7} {'formulas':>8}{heads} {'peak MiB':>8}")
    base = cases[0][1]
    for size, case in cases:
        times = "".join(f" {case[name]:>8.3f} {case[name] / base[name]:>6.2f}" for name in columns)
        write(
            f"  {size:>10,} {case['lines']:>7,.0f} {case['formulas']:>8,.0f}{times} "
            f"{case['peak'] / 2**20:>8.0f}"
        )
    sizes = [size for size, _ in cases]
    slopes = ", ".join(
        f"{name} {growth_exponent(sizes, [c[name] for _, c in cases]):.2f}" for name in columns
    )
    write(f"  growth exponent against {label} (log-log slope): {slopes}")


def main(argv: list[str] | None = None, write: Callable[[str], object] = print) -> None:
    from proofs.book.locations import chapter_folders
    from proofs.publish.pictures import chapter_file
    from proofs.reader import parse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapter", default="self-attention", help="the chapter's key")
    parser.add_argument(
        "--chapters",
        type=Path,
        action="append",
        default=[],
        help="a folder of chapter files (default: the chapters setting)",
    )
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    parser.add_argument("--formulas", type=int, nargs="+", default=[4000, 8000, 16000, 32000])
    parser.add_argument("--case", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--chapter-file", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--line", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.case is not None:  # one case, in the interpreter run_case started
        write(json.dumps(measure_case(args.chapter_file, args.case, args.line)))
        return
    source = chapter_file(args.chapter, chapter_folders(args.chapters))
    if source is None:
        parser.error(f"--chapter: no file of chapter {args.chapter!r} in the chapter folders")
    text = source.read_text(encoding="utf-8")
    write(f"audit of {source.name} ({args.chapter}), each case in a fresh interpreter")
    with tempfile.TemporaryDirectory() as folder:

        def measured(name: str, case_text: str, line: bool) -> dict[str, float]:
            path = Path(folder) / name
            path.write_text(case_text, encoding="utf-8")
            document = parse(case_text, str(path))
            out = run_case(source, path, line)
            return {**out, "lines": len(document.lines), "formulas": len(document.math)}

        copies = [(n, measured(f"copies-{n}.txt", repeated(text, n), False)) for n in args.copies]
        series("chapter length: the text repeated", "copies", ("first", "again"), copies, write)
        lines = [
            (n, measured(f"line-{n}.txt", with_equalities(text, n), True)) for n in args.formulas
        ]
        series(
            "formulas per line: one more line of equalities", "equalities", ("line",), lines, write
        )


if __name__ == "__main__":
    main()
