"""The Transformer-block chapter as a whole: every element registered with its number."""

import re

import pytest
from places import SEEDS

from proofs.book.registry import load_all


def chapter_ids() -> list[tuple[str, str]]:
    """(number, id) of every row of the seeds' README table for this chapter."""
    readme = SEEDS / "README.md"
    if not readme.is_file():
        pytest.skip(f"{readme} is not here: the chapter's element list cannot be read")
    rows, inside = [], False
    row = re.compile(r"^\| (\S+ [\dA-Z.]+) \| ((?:def|prop|lem|thm|cor|ex|rem|exr)-[a-z0-9-]+) \|")
    for line in readme.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            inside = "Transformer block" in line
        match = row.match(line)
        if inside and match:
            rows.append((match.group(1), match.group(2)))
    return rows


def test_every_element_of_the_chapter_is_registered_with_its_number():
    registry = load_all()
    rows = chapter_ids()
    assert len(rows) == 21
    for number, id_ in rows:
        assert id_ in registry, id_
        assert registry[id_].number == number, id_
        assert registry[id_].chapter == "transformer-block", id_
