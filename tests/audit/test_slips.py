"""The chapter is the claim: copies of the two chapters, each with one realistic slip
(tests/seed_slips.py: a formula, a claim in words or numbers, an example's printed number,
a rounding, the structure, a table cell, a printed output line, a claim in the prose
around the elements), are each reported at the slip's line; neutral edits (spacing, an
equivalent formula, another notation for a number, a reworded sentence) change nothing.
The copies are audited in a process of their own, started once collection is done
(tests/early.py, tests/audit_copies.py); the chapters are only read.
"""

from __future__ import annotations

from collections import Counter

import pytest
from seed_slips import NEUTRAL, SLIPS
from slip_audits import AUDITS, audit_of, pristine, signature


@pytest.mark.slow
@pytest.mark.early(AUDITS)
@pytest.mark.parametrize("slip", SLIPS, ids=[s.name for s in SLIPS])
def test_each_slip_is_reported_at_its_line(slip):
    found = audit_of(slip)
    known = {tuple(m[:3]) for m in pristine(slip.chapter)["mismatched"]}
    new = [m for m in found["mismatched"] if tuple(m[:3]) not in known]
    line = slip.expect_line or slip.line
    assert any(m[1] == line for m in new), (
        f"{slip.name}: no new mismatch at line {line}; new: "
        f"{[(section, at, detail[:80]) for section, at, _, detail, _ in new]}"
    )


@pytest.mark.slow
@pytest.mark.early(AUDITS)
@pytest.mark.parametrize("edit", NEUTRAL, ids=[e.name for e in NEUTRAL])
def test_a_neutral_edit_changes_nothing(edit):
    found = audit_of(edit)
    before = pristine(edit.chapter)
    assert [(s, at, d) for s, at, _, d, _ in found["mismatched"]] == [
        (s, at, d) for s, at, _, d, _ in before["mismatched"]
    ]
    changed = signature(found) - signature(before)
    assert all(status != "mismatched" for _, status, *_ in changed), changed


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
