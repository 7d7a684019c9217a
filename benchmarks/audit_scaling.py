"""How the audit's time and memory grow with what it reads.

Two series, measured in one run:

- chapter size: an MDX seed chapter's sections repeated 1, 2, 4, 8 and 15 times, each copy
  renumbered (its sections `## N.` moved on by ten, its ids, references and proofs given
  the copy's suffix), up to about 1 MB of realistic chapter text: elements, proofs,
  examples, tables, listings and prose as the book writes them;
- lines of equalities: the chapter with 500 … 4,000 more lines, each a sentence with an
  equality of its own numbers (「$1003 \\times 7 = 7021$ です。」), as a chapter of worked
  computations prints them; "added" is what they cost (the case's second audit less the
  chapter's), whose growth is fitted against the lines added.

Each case runs in a fresh interpreter, so that its peak memory is its own. What a process
does once whatever it reads is done first, on the chapter: the examples' checks, the
tables and the listings' outputs regenerated. Each case is then audited twice: "first" is
its first reading and audit, the SymPy decisions of its elements included; "again" the
second, with everything the audit keeps from one document to the next already decided.
The peak is the process's resident memory while the case ran (Linux: the high-water mark
reset before it; elsewhere the whole process's). Each series ends with its growth
exponents, the least-squares slopes of log time against log size: 1 is linear, 2
quadratic. Times are compared within one run, never asserted.

Run from the repository root:

    python -m benchmarks.audit_scaling [--chapter self-attention] [--copies 1 2 4 8 15]
                                       [--lines 500 1000 2000 4000]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmarks.growth import growth_exponent
from benchmarks.peak_memory import peak_bytes, reset_peak

ROOT = Path(__file__).resolve().parents[1]

_SECTION = re.compile(r"^## (\d+)\.", re.M)
_ID = re.compile(r'\b(id|to|of)="([a-z]+-[a-z0-9-]+)"')  # an element's id, a reference, a proof's


def renumbered(text: str, copies: int) -> str:
    """An MDX chapter's title line, then its body `copies` times, copy c's sections moved on
    by 10c and its ids, references and proofs suffixed with -c{c}: one chapter whose
    elements are all distinct, as a longer chapter's are."""
    title, _, body = text.partition("\n")
    parts = [body]
    for c in range(1, copies):
        copy = _SECTION.sub(lambda m, c=c: f"## {int(m.group(1)) + 10 * c}.", body)
        parts.append(_ID.sub(lambda m, c=c: f'{m.group(1)}="{m.group(2)}-c{c}"', copy))
    return title + "\n" + "".join(parts)


def with_equality_lines(text: str, count: int) -> str:
    """The chapter with `count` more lines, each an equality of its own numbers."""
    lines = [f"${k} \\times 7 = {7 * k}$ です。" for k in range(1000, 1000 + count)]
    return text.rstrip("\n") + "\n\n" + "\n\n".join(lines) + "\n"


def measure_case(chapter: Path, case: Path) -> dict[str, float]:
    """In this process: the chapter audited twice (its checks, tables and outputs, then
    "chapter": its second audit's seconds); then the case audited twice ("first",
    "again"), "added" the second less the chapter's; and the peak resident bytes while the
    case ran."""
    from proofs.audit import audit_document
    from proofs.reader import read_chapter

    def audit(path: Path) -> float:
        start = time.perf_counter()
        audit_document(read_chapter(path))
        return time.perf_counter() - start

    audit(chapter)
    alone = audit(chapter)
    reset_peak()
    times = {"first": audit(case), "again": audit(case)}
    return {**times, "chapter": alone, "added": times["again"] - alone, "peak": peak_bytes()}


def run_case(chapter: Path, case: Path) -> dict[str, float]:
    """measure_case in a fresh interpreter of this package."""
    command = [sys.executable, "-m", "benchmarks.audit_scaling", "--case", str(case)]
    command += ["--chapter-file", str(chapter)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def series(
    title: str,
    label: str,
    columns: Sequence[str],
    cases: Sequence[tuple[int, dict[str, float]]],
    write: Callable[[str], object],
    against: str = "bytes",
) -> None:
    """Print one series: each case's size, its bytes and lines, the seconds of each column
    with its ratio to the first case, and the peak MiB; then each column's growth exponent
    against `against` (the bytes, or the case's size)."""
    write(title)
    heads = "".join(f" {name + ' s':>8} {'ratio':>6}" for name in columns)
    write(f"  {label:>10} {'bytes':>10} {'lines':>7}{heads} {'peak MiB':>8}")
    base = cases[0][1]
    for size, case in cases:
        times = "".join(f" {case[name]:>8.2f} {case[name] / base[name]:>6.2f}" for name in columns)
        write(
            f"  {size:>10,} {case['bytes']:>10,.0f} {case['lines']:>7,.0f}{times} "
            f"{case['peak'] / 2**20:>8.0f}"
        )
    sizes = [case["bytes"] if against == "bytes" else size for size, case in cases]
    slopes = ", ".join(
        f"{name} {growth_exponent(sizes, [c[name] for _, c in cases]):.2f}" for name in columns
    )
    write(f"  growth exponent against the {against} (log-log slope): {slopes}")


def main(argv: list[str] | None = None, write: Callable[[str], object] = print) -> None:
    from proofs.book.locations import chapter_folders
    from proofs.publish.pictures import chapter_file

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapter", default="self-attention", help="an MDX chapter's key")
    parser.add_argument(
        "--chapters",
        type=Path,
        action="append",
        default=[],
        help="a folder of chapter files (default: the chapters setting)",
    )
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 2, 4, 8, 15])
    parser.add_argument("--lines", type=int, nargs="+", default=[500, 1000, 2000, 4000])
    parser.add_argument("--case", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--chapter-file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.case is not None:  # one case, in the interpreter run_case started
        write(json.dumps(measure_case(args.chapter_file, args.case)))
        return
    source = chapter_file(args.chapter, chapter_folders(args.chapters))
    if source is None:
        parser.error(f"--chapter: no file of chapter {args.chapter!r} in the chapter folders")
    text = source.read_text(encoding="utf-8")
    if not _SECTION.search(text):
        parser.error(f"--chapter: {source.name} is not an MDX chapter (## N. sections)")
    write(f"audit of {source.name} ({args.chapter}), each case in a fresh interpreter")
    with tempfile.TemporaryDirectory() as folder:

        def measured(name: str, case_text: str) -> dict[str, float]:
            path = Path(folder) / name
            path.write_text(case_text, encoding="utf-8")
            out = run_case(source, path)
            return {**out, "bytes": len(case_text.encode()), "lines": case_text.count("\n")}

        sizes = [(n, measured(f"copies-{n}.mdx", renumbered(text, n))) for n in args.copies]
        title = "chapter size: its sections repeated, renumbered"
        series(title, "copies", ("first", "again"), sizes, write)
        lines = [(n, measured(f"lines-{n}.mdx", with_equality_lines(text, n))) for n in args.lines]
        title = "lines of equalities added to the chapter (added: what they cost)"
        series(title, "lines", ("again", "added"), lines, write, against="lines added")


if __name__ == "__main__":
    main()
