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

--seeds also audits the two seed chapters as chapters without checks (text the rules
were not written on) and lists every mismatch: a measure of false alarms.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from proofs.audit import audit_document
from proofs.book.profiles import load_profile
from proofs.reader import parse

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"


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


def mismatches(text: str, name: str, run: bool) -> set[tuple[int, str, str]]:
    """(line, section, text) of every mismatch the audit reports (`run`: with the
    chapter's listings run)."""
    report = audit_document(parse(text, name), run)
    return {(f.line, f.section, f.text) for f in report.mismatched}


def measure(show_missed: bool, run: bool, seeds: bool = False, seed_chapters: bool = False) -> int:
    load_profile("ci", in_cache=True)
    chapters, all_edits = seed_corpus() if seed_chapters else corpus()
    pristine = {name: mismatches(text, name, run) for name, text in chapters.items()}
    caught: Counter[str] = Counter()
    total: Counter[str] = Counter()
    missed, alarms = [], []
    if not seed_chapters:  # a seed chapter's one real slip is no alarm: it is the chapter's
        for name, found in pristine.items():
            alarms += [(name, "pristine", line, text) for line, _, text in sorted(found)]
    for edit in all_edits:
        text = applied(edit, chapters[edit.chapter])
        new = mismatches(text, edit.chapter, run) - pristine[edit.chapter]
        total[edit.category] += 1
        if edit.category == "neutral":
            alarms += [(edit.chapter, edit.name, line, text) for line, _, text in sorted(new)]
            caught[edit.category] += not new
            continue
        at = edit.expect_line or edit.line
        if any(line == at for line, _, _ in new):
            caught[edit.category] += 1
        else:
            missed.append((edit, sorted(new)))
    print(f"{'category':18} {'caught':>7} {'of':>4} {'share':>7}")
    slips = [c for c in total if c != "neutral"]
    for category in slips:
        share = caught[category] / total[category]
        print(f"{category:18} {caught[category]:7d} {total[category]:4d} {share:7.0%}")
    all_caught, all_slips = sum(caught[c] for c in slips), sum(total[c] for c in slips)
    print(f"{'all slips':18} {all_caught:7d} {all_slips:4d} {all_caught / all_slips:7.0%}")
    print(f"{'neutral (quiet)':18} {caught['neutral']:7d} {total['neutral']:4d}")
    if show_missed:
        print("\nmissed:")
        for edit, others in missed:
            elsewhere = f"; new elsewhere: {[line for line, _, _ in others]}" if others else ""
            print(f"  {edit.category:16} {edit.name:28} line {edit.line}{elsewhere}")
    for chapter, name, line, text in alarms:
        print(f"false alarm: {chapter} {name}: line {line}: {text}")
    if seeds:
        _seeds_without_checks(run)
    return 1 if alarms else 0


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
            {(f.line, f.section, f.text) for f in report.mismatched if f.section != "element"}
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
    args = parser.parse_args(argv)
    return measure(args.show_missed, args.run_listings, args.seeds, args.seed_chapters)


if __name__ == "__main__":
    sys.exit(main())
