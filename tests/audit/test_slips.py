"""The chapter is the claim: copies of the two chapters, each with one realistic slip
(tests/seed_slips.py: a formula, a claim in words or numbers, an example's printed number,
a rounding, the structure, a table cell, a printed output line, a claim in the prose
around the elements), are each reported at the slip's line; neutral edits (spacing, an
equivalent formula, another notation for a number, a reworded sentence) change nothing.
The copies are audited in a process of their own, started once collection is done
(tests/early.py, tests/audit_copies.py); the chapters are only read.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import early
import pytest
from places import SEEDS
from seed_slips import NEUTRAL, SLIPS, Edit

FILES = {"sa": SEEDS / "000_ce182fefa314a82b.txt", "tb": SEEDS / "002_1f7cf506cffefce0.txt"}


AUDITS = "the slips' and neutral edits' audits"


def chapter(key: str) -> Path:
    path = FILES[key]
    if not path.is_file():
        pytest.skip(f"{path} is not here: no chapter to copy")
    return path


@early.job(AUDITS)
def audit_copies(items: Sequence[pytest.Item]) -> dict:
    """Every selected edit's copy audited, and each chapter as it is, in one process of
    their own (tests/audit_copies.py)."""
    edits = [item.callspec.params.get("slip") or item.callspec.params["edit"] for item in items]
    present = [e for e in edits if FILES[e.chapter].is_file()]
    entries = [
        {"name": f"pristine {key}", "path": str(FILES[key]), "line": 0, "old": None, "new": None}
        for key in sorted({e.chapter for e in present})
    ]
    entries += [
        {"name": e.name, "path": str(FILES[e.chapter]), "line": e.line, "old": e.old, "new": e.new}
        for e in present
    ]
    return json.loads(early.run_script("audit_copies.py", entries))


def audit_of(edit: Edit) -> dict:
    """What the audit of the edit's copy found (tests/audit_copies.py)."""
    chapter(edit.chapter)
    found = early.result(AUDITS)[edit.name]
    assert "error" not in found, found["error"]
    return found


def pristine(key: str) -> dict:
    return early.result(AUDITS)[f"pristine {key}"]


def signature(found: dict) -> Counter:
    """What an audit says, without where: section, status and what was audited."""
    return Counter(tuple(finding) for finding in found["findings"])


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
