"""The chapter is the claim: copies of the two chapters, each with one realistic slip
(tests/seed_slips.py: a formula, a claim in words or numbers, an example's printed number,
a rounding, the structure, a table cell, a printed output line, a claim in the prose
around the elements), are each reported at the slip's line; neutral edits (spacing, an
equivalent formula, another notation for a number, a reworded sentence) change nothing.
The copies are made in a temporary directory; the chapters are only read.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from places import SEEDS
from seed_slips import NEUTRAL, SLIPS, Edit

from proofs.audit import Report, audit_file

FILES = {"sa": SEEDS / "000_ce182fefa314a82b.txt", "tb": SEEDS / "002_1f7cf506cffefce0.txt"}


def chapter(key: str) -> Path:
    path = FILES[key]
    if not path.is_file():
        pytest.skip(f"{path} is not here: no chapter to copy")
    return path


_PRISTINE: dict[str, Report] = {}


def pristine(key: str) -> Report:
    if key not in _PRISTINE:
        _PRISTINE[key] = audit_file(chapter(key))
    return _PRISTINE[key]


def edited(edit: Edit, directory: Path) -> Report:
    path = chapter(edit.chapter)
    lines = path.read_text(encoding="utf-8").split("\n")
    assert edit.old in lines[edit.line - 1], f"{edit.name}: {edit.old!r} not on line {edit.line}"
    lines[edit.line - 1] = lines[edit.line - 1].replace(edit.old, edit.new, 1)
    copy = directory / path.name
    copy.write_text("\n".join(lines), encoding="utf-8")
    return audit_file(copy)


def signature(report: Report) -> Counter:
    """What an audit says, without where: section, status and what was audited."""
    return Counter((f.section, f.status, f.text) for f in report.findings)


@pytest.mark.slow
@pytest.mark.parametrize("slip", SLIPS, ids=[s.name for s in SLIPS])
def test_each_slip_is_reported_at_its_line(slip, tmp_path):
    known = {(f.section, f.line, f.text) for f in pristine(slip.chapter).mismatched}
    report = edited(slip, tmp_path)
    new = [f for f in report.mismatched if (f.section, f.line, f.text) not in known]
    line = slip.expect_line or slip.line
    assert any(f.line == line for f in new), (
        f"{slip.name}: no new mismatch at line {line}; new: "
        f"{[(f.section, f.line, f.detail[:80]) for f in new]}"
    )


@pytest.mark.slow
@pytest.mark.parametrize("edit", NEUTRAL, ids=[e.name for e in NEUTRAL])
def test_a_neutral_edit_changes_nothing(edit, tmp_path):
    report = edited(edit, tmp_path)
    before = pristine(edit.chapter)
    assert [(f.section, f.line, f.detail) for f in report.mismatched] == [
        (f.section, f.line, f.detail) for f in before.mismatched
    ]
    changed = {(s, st, t) for (s, st, t) in signature(report) - signature(before)}
    assert all(status != "mismatched" for _, status, _ in changed), changed


def test_the_corpus_covers_every_category_with_enough_copies():
    categories = Counter(s.category for s in SLIPS)
    assert set(categories) == {
        "formula",
        "claim",
        "example",
        "rounding",
        "structure",
        "table",
        "output",
        "prose claim",
    }
    assert len(SLIPS) >= 60 and len(NEUTRAL) >= 10 and categories["prose claim"] >= 20
