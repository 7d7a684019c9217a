"""False findings on correct rewrites: every printed number a check reads in the seed
chapters, written another correct way (tests/correct_rewrites.py: its digits grouped
otherwise, one digit fewer or more, an exact constant for a decimal, a decimal for a
fraction, a misprinted number's correct rounding), one copy per rewrite, each audited.

A false finding is a mismatch of a copy's audit that the audit of the chapter as it is
does not report (by section, line and text, the rewrite's number read as the original):
a rewrite says what the chapter said, so the audit has nothing new to find. A claim it
can no longer read is "not checkable", never a mismatch. Prints the count by kind of
rewrite, each false finding with `--show`, and exits 1 when there is one.

Run from the repository root:

    python -m benchmarks.correct_rewrites [--show] [--sample N]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

from proofs.audit import audit_document
from proofs.book.profiles import load_profile
from proofs.reader import parse

TESTS = Path(__file__).resolve().parents[1] / "tests"


def _data(module: str) -> ModuleType:
    """A helper module of the tests, imported from their folder."""
    sys.path.insert(0, str(TESTS))
    try:
        return __import__(module)
    finally:
        sys.path.remove(str(TESTS))


def main(argv: list[str] | None = None) -> int:
    from proofs.book.locations import chapter_folders, find_chapter_file
    from proofs.book.registry import CHAPTERS, load_all

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print every false finding")
    parser.add_argument("--sample", type=int, default=0, help="every N-th rewrite only")
    args = parser.parse_args(argv)
    load_profile("ci", in_cache=True)
    load_all()
    rewriting = _data("correct_rewrites")
    kinds: Counter[str] = Counter()
    false: Counter[str] = Counter()
    shown: list[str] = []
    for chapter in CHAPTERS.values():
        path = find_chapter_file(chapter.title, "", chapter_folders())
        if path is None:
            print(f"{chapter.title}: no chapter file found", file=sys.stderr)
            continue
        text = path.read_text(encoding="utf-8")
        document = parse(text, path.name)
        before = rewriting.mismatches(audit_document(document))
        found = rewriting.rewrites(document)
        for rewrite in found[:: args.sample] if args.sample else found:
            copy = parse("\n".join(rewrite.apply(text.split("\n"))), path.name)
            new = rewriting.new_mismatches(audit_document(copy), before, rewrite)
            kinds[rewrite.kind] += 1
            false[rewrite.kind] += len(new)
            shown += [f"  {rewrite.name}\n    {finding}" for finding in new]
    print(f"{'rewrite':<10} {'copies':>6} {'false findings':>15}")
    for kind in sorted(kinds):
        print(f"{kind:<10} {kinds[kind]:>6} {false[kind]:>15}")
    print(f"{'all':<10} {sum(kinds.values()):>6} {sum(false.values()):>15}")
    if args.show and shown:
        print("false findings:")
        print("\n".join(shown))
    return 1 if sum(false.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
