"""What the audit catches in chapters it has no checks for: the one-slip edits of
tests/corpus/slips.py, applied one at a time to the corpus chapters; with
--seed-chapters, in the two seed chapters with their checks: the edits of
tests/seed_slips.py, the prose-claim slips it does not catch yet (NOT_YET) counted too.

A slip is caught when the audit of the edited chapter reports a mismatch at the slip's
line (or the line its entry names: where a broken element opens) that the audit of the
pristine chapter does not report. A neutral edit (the same mathematics written
otherwise) must add no mismatch anywhere. Prints one row per category and the slips
missed, and exits 1 when a neutral edit or the pristine chapter raises a mismatch (a
false alarm).

Run from the repository root:

    python -m benchmarks.corpus_detection [--run-listings] [--show-missed] [--seeds]
    python -m benchmarks.corpus_detection --seed-chapters [--show-missed]
    python -m benchmarks.corpus_detection --unseen [--folder DIR] [--run-listings] [--jobs N]
        [--earlier CHAPTER ...]

--unseen measures on benchmarks/unseen (or DIR): chapters written by authors who had not read
the audit's rules, with one-slip edits written the same way (benchmarks/unseen/README.md).
--earlier gives a chapter of the book before them (repeatable): a listing may import its
files, as gqa.mdx's imports the self-attention chapter's attention.py.

--seeds also audits the two seed chapters as chapters without checks (text the rules
were not written on) and lists every mismatch: a measure of false alarms.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from proofs.audit import audit_document
from proofs.book.profiles import load_profile
from proofs.reader import Document, parse

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"
UNSEEN = Path(__file__).resolve().parent / "unseen"
CATEGORIES = (  # the order the table prints them in
    "prose arithmetic",
    "rounding",
    "example number",
    "example numbers",
    "table cell",
    "listing output",
    "formula",
    "proof chain",
    "claim",
    "claim number",
    "structure",
)


@dataclass(frozen=True)
class Edit:
    name: str
    chapter: str
    line: int
    old: str
    new: str
    category: str
    expect_line: int | None


def corpus() -> tuple[dict[str, str], list[Edit]]:
    """The corpus chapters' texts by file name, and every edit of its data file."""
    slips = _data("slips", CORPUS)
    chapters = {
        name: (CORPUS / name).read_text(encoding="utf-8")
        for name in ("inference.mdx", "training.txt")
    }
    return chapters, [Edit(*entry) for entry in [*slips.INFERENCE, *slips.TRAINING]]


def unseen_corpus(folder: Path) -> tuple[dict[str, str], list[Edit]]:
    """The chapters of `folder` (each `NAME.mdx` or `NAME.txt` with its `slips_NAME.py`) by
    file name, and every edit of their slips files."""
    chapters: dict[str, str] = {}
    edits: list[Edit] = []
    for path in sorted(folder.glob("slips_*.py")):
        data = _data(path.stem, folder)
        for entry in data.SLIPS:
            edit = Edit(*entry)
            if edit.chapter not in chapters:
                chapters[edit.chapter] = (folder / edit.chapter).read_text(encoding="utf-8")
            edits.append(edit)
    return chapters, edits


def seed_corpus() -> tuple[dict[str, str], list[Edit]]:
    """The seed chapters' texts by the keys tests/seed_slips.py names them with (sa, tb),
    and its edits: the slips, the neutral edits, and the slips not caught yet."""
    from proofs.book.locations import chapter_folders, find_chapter_file
    from proofs.book.registry import CHAPTERS, load_all

    load_all()
    slips = _data("seed_slips", CORPUS.parent)
    chapters = {}
    for key, registered in zip(("sa", "tb"), CHAPTERS.values(), strict=True):
        path = find_chapter_file(registered.title, "", chapter_folders())
        if path is None:
            raise SystemExit(f"{registered.title}: no chapter file found")
        chapters[key] = path.read_text(encoding="utf-8")
    entries = [*slips.SLIPS, *slips.NEUTRAL, *slips.NOT_YET]
    edits = [
        Edit(e.name, e.chapter, e.line, e.old, e.new, e.category, e.expect_line) for e in entries
    ]
    return chapters, edits


def _data(module: str, folder: Path) -> ModuleType:
    """A data module of the tests, imported from its folder."""
    sys.path.insert(0, str(folder))
    try:
        return __import__(module)
    finally:
        sys.path.remove(str(folder))


def applied(edit: Edit, text: str) -> str:
    """The chapter's text with the edit made on its line."""
    lines = text.split("\n")
    assert edit.old in lines[edit.line - 1], edit.name
    lines[edit.line - 1] = lines[edit.line - 1].replace(edit.old, edit.new, 1)
    return "\n".join(lines)


def mismatches(
    text: str, name: str, run: bool, earlier: Sequence[Document] = ()
) -> set[tuple[int, str, str, str]]:
    """(line, section, text, severity) of every mismatch the audit reports, an error or a
    warning (`run`: with the chapter's listings run, given the files of the `earlier`
    chapters' listings)."""
    report = audit_document(parse(text, name), run, earlier)
    return {(f.line, f.section, f.text, str(f.severity)) for f in report.mismatched}


_EARLIER: list[Document] = []  # the chapters before each audited one (--earlier), read once


def _audited(job: tuple[str, str, bool]) -> set[tuple[int, str, str, str]]:
    text, name, run = job
    return mismatches(text, name, run, tuple(_EARLIER))


def measure(
    show_missed: bool,
    run: bool,
    seeds: bool = False,
    seed_chapters: bool = False,
    unseen: Path | None = None,
    jobs: int = 1,
    earlier: Sequence[Path] = (),
) -> int:
    load_profile("ci", in_cache=True)
    _EARLIER[:] = [parse(p.read_text(encoding="utf-8"), p.name) for p in earlier]
    if unseen is not None:
        chapters, all_edits = unseen_corpus(unseen)
    else:
        chapters, all_edits = seed_corpus() if seed_chapters else corpus()
    names = list(chapters)
    texts = [applied(e, chapters[e.chapter]) for e in all_edits]
    work = [(chapters[n], n, run) for n in names] + [
        (t, e.chapter, run) for t, e in zip(texts, all_edits, strict=True)
    ]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            found = pool.map(_audited, work, chunksize=1)
    else:
        found = [_audited(job) for job in work]
    pristine = dict(zip(names, found[: len(names)], strict=True))
    caught: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    missed, alarms = [], []
    if not seed_chapters:  # a seed chapter's one real slip is no alarm: it is the chapter's
        for name, mismatched in pristine.items():
            alarms += [(name, "pristine", *m) for m in sorted(mismatched)]
    for edit, edited in zip(all_edits, found[len(names) :], strict=True):
        new = edited - pristine[edit.chapter]
        total[edit.chapter, edit.category] += 1
        if edit.category == "neutral":
            alarms += [(edit.chapter, edit.name, *m) for m in sorted(new)]
            caught[edit.chapter, edit.category] += not new
            continue
        at = edit.expect_line or edit.line
        if any(line == at for line, *_ in new):
            caught[edit.chapter, edit.category] += 1
        else:
            missed.append((edit, sorted(new)))
    _table(names, caught, total, chapters)
    lines = sum(chapters[n].count("\n") + 1 for n in names)
    errors = [a for a in alarms if a[-1] == "error"]
    warnings = [a for a in alarms if a[-1] == "warning" and a[1] == "pristine"]
    print(
        f"\non the correct chapters ({lines} lines): {len(errors)} false alarms (errors, the "
        f"neutral edits' included), {len(warnings)} warnings "
        f"({200 * len(warnings) / lines:.2f} per 200 lines)"
    )
    if show_missed:
        print("\nmissed:")
        for edit, others in missed:
            elsewhere = f"; new elsewhere: {[m[0] for m in others]}" if others else ""
            print(
                f"  {edit.chapter:20} {edit.category:16} {edit.name:32} line {edit.line}{elsewhere}"
            )
    for chapter, name, line, _, text, severity in alarms:
        said = "false alarm" if severity == "error" else "warning"
        print(f"{said}: {chapter} {name}: line {line}: {text}")
    if seeds:
        _seeds_without_checks(run)
    return 1 if errors else 0


def _table(
    names: list[str],
    caught: Counter[tuple[str, str]],
    total: Counter[tuple[str, str]],
    chapters: dict[str, str],
) -> None:
    """Caught of all per category, a column per chapter and one for all of them."""
    categories = sorted(
        {c for _, c in total}, key=lambda c: CATEGORIES.index(c) if c in CATEGORIES else 99
    )
    width = max(12, *(len(n) for n in names))
    print(f"{'':18} " + " ".join(f"{n:>{width}}" for n in names) + f" {'all':>12}")
    lines = [str(chapters[n].count(chr(10)) + 1) for n in names]
    print(f"{'lines':18} " + " ".join(f"{x:>{width}}" for x in lines))

    def cell(got: int, of: int) -> str:
        return f"{got} of {of} ({got / of:.0%})" if of else "-"

    rows = [c for c in categories if c != "neutral"]
    for category in rows:
        cells = [cell(caught[n, category], total[n, category]) for n in names]
        got = sum(caught[n, category] for n in names)
        of = sum(total[n, category] for n in names)
        print(
            f"{category:18} " + " ".join(f"{x:>{width}}" for x in cells) + f" {cell(got, of):>12}"
        )
    slips = [cell(sum(caught[n, c] for c in rows), sum(total[n, c] for c in rows)) for n in names]
    got = sum(caught[n, c] for n in names for c in rows)
    of = sum(total[n, c] for n in names for c in rows)
    print(f"{'all slips':18} " + " ".join(f"{x:>{width}}" for x in slips) + f" {cell(got, of):>12}")
    quiet = [cell(caught[n, "neutral"], total[n, "neutral"]) for n in names]
    got = sum(caught[n, "neutral"] for n in names)
    of = sum(total[n, "neutral"] for n in names)
    print(
        f"{'neutral (quiet)':18} "
        + " ".join(f"{x:>{width}}" for x in quiet)
        + f" {cell(got, of):>12}"
    )


def _seeds_without_checks(run: bool) -> None:
    """The seed chapters audited as chapters without checks: text the rules were not
    written on. Every mismatch is listed; the one real slip is 例 3.2's 1.1428."""
    from proofs.book.locations import chapter_folders, find_chapter_file
    from proofs.book.registry import CHAPTERS, load_all

    load_all()
    earlier: list = []
    print("\nthe seed chapters audited without their checks:")
    for key, chapter in CHAPTERS.items():
        path = find_chapter_file(chapter.title, "", chapter_folders())
        if path is None:
            print(f"  {key}: no chapter file found")
            continue
        document = parse(path.read_text(encoding="utf-8"), path.name)
        report = audit_document(document, run, tuple(earlier), False)
        earlier.append(document)  # a later chapter's listing imports an earlier one's file
        found = sorted(  # an MDX id of a registered element is the registry's, not the text's
            {(f.line, f.section, f.text) for f in report.errors if f.section != "element"}
        )
        print(f"  {key} ({path.name}): {len(found)} mismatches")
        for line, section, text in found:
            print(f"    line {line} {section}: {text[:70]}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-missed", action="store_true", help="list the slips missed")
    parser.add_argument("--run-listings", action="store_true", help="run the listings too")
    parser.add_argument(
        "--seeds",
        action="store_true",
        help="also audit the seed chapters without their checks and list the mismatches",
    )
    parser.add_argument(
        "--seed-chapters",
        action="store_true",
        help="measure on the seed chapters with their checks (tests/seed_slips.py)",
    )
    parser.add_argument(
        "--unseen",
        action="store_true",
        help="measure on the chapters of benchmarks/unseen (or --folder)",
    )
    parser.add_argument("--folder", type=Path, default=UNSEEN, help="the chapters of --unseen")
    parser.add_argument("--jobs", type=int, default=1, help="audits side by side")
    parser.add_argument(
        "--earlier",
        type=Path,
        action="append",
        default=[],
        help="a chapter of the book before them, whose listings' files theirs may import",
    )
    args = parser.parse_args(argv)
    unseen = args.folder if args.unseen else None
    return measure(
        args.show_missed,
        args.run_listings,
        args.seeds,
        args.seed_chapters,
        unseen,
        args.jobs,
        args.earlier,
    )


if __name__ == "__main__":
    sys.exit(main())
