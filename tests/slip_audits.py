"""The audits of the one-edit copies of the two chapters (tests/seed_slips.py), each chapter
as it is among them: one early job (tests/early.py) for every test that asks, run in a
process of its own (tests/audit_copies.py). A test takes part by being marked
`early(AUDITS)` and parametrized with the Edit as `slip` or `edit`."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import early
import pytest
from places import SEEDS
from seed_slips import Edit

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
    """What the audit of the chapter as it is found (skipped where the chapter is not)."""
    chapter(key)
    return early.result(AUDITS)[f"pristine {key}"]


def signature(found: dict) -> Counter:
    """What an audit says, without where: section, status and what was audited."""
    return Counter(tuple(finding) for finding in found["findings"])
