"""False findings and lost coverage on the unseen chapters restyled by another hand: each
chapter of benchmarks/unseen/restyled is a correct chapter of benchmarks/unseen rewritten,
line for line, by an author with other habits (\\mathrm{d}, \\exp, \\operatorname, \\mathbf,
である for です, 、。 as ，．, 4096 for 4{,}096, …) who had not read the audit's rules, saying
the same thing with the same numbers.

A restyled chapter says what its original says, so an error or a warning its audit reports
that the original's does not (by line, severity and code) is a false finding. Beside them,
the relations and numbers each audit examined: what a restyle leaves unread is coverage an
author with those habits does not get. Exits 1 when there is a false finding.

Run from the repository root:

    python -m benchmarks.unseen_restyled [--folder DIR] [--jobs N]
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from benchmarks.unseen_cost import UNSEEN, chapters
from benchmarks.unseen_rewrites import audited
from proofs.book.profiles import load_profile

RESTYLED = UNSEEN / "restyled"


def _compared(paths: tuple[Path, Path]) -> tuple[str, list[str]]:
    """The restyled chapter's line of counts and its false findings."""
    restyled, original = paths
    load_profile("ci", in_cache=True)
    own, relations, numbers = audited(original.read_text(encoding="utf-8"), original.name)
    theirs, relations_now, numbers_now = audited(
        restyled.read_text(encoding="utf-8"), restyled.name
    )
    false = [f"{restyled.name}:{line} {level} {code}" for line, level, code in sorted(theirs - own)]
    counts = (
        f"{restyled.name:24} {len(false)} false findings; relations examined "
        f"{relations} as written, {relations_now} restyled; numbers {numbers}, {numbers_now}"
    )
    return counts, false


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=RESTYLED, help="the restyled chapters")
    parser.add_argument("--originals", type=Path, default=UNSEEN, help="the chapters as written")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    restyled = chapters(args.folder, [])
    missing = [p.name for p in restyled if not (args.originals / p.name).is_file()]
    if missing:
        parser.error(f"--originals {args.originals} has no chapter {', '.join(missing)}")
    pairs = [(p, args.originals / p.name) for p in restyled]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(_compared, pairs))
    else:
        results = [_compared(pair) for pair in pairs]
    for counts, false in results:
        print(counts)
        for line in false:
            print("   ", line)
    total = sum(len(false) for _, false in results)
    print(f"{total} false findings on {len(pairs)} restyled chapters")
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main())
