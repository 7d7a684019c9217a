"""The self-attention chapter as a whole: every element registered with its number, every
check's description saying how it proves."""

from __future__ import annotations

import re

import pytest
from places import SEEDS

from proofs.book.registry import REGISTRY

SEEDS_README = SEEDS / "README.md"
IDS = sorted(e.id for e in REGISTRY.values() if e.chapter == "self-attention")


def test_every_chapter_element_is_registered_with_its_number():
    if not SEEDS_README.exists():
        pytest.skip(f"{SEEDS_README} is not present")
    text = SEEDS_README.read_text(encoding="utf-8")
    section = text.split("### Self-attention")[1].split("### ")[0]
    rows = re.findall(r"^\|\s*(\S+ [A-Z0-9.]+)\s*\|\s*([a-z][a-z0-9-]+)\s*\|", section, re.M)
    assert len(rows) == 26
    for number, element_id in rows:
        assert element_id in REGISTRY, f"{element_id} is not registered"
        assert REGISTRY[element_id].number == number
        assert REGISTRY[element_id].chapter == "self-attention"
    assert sorted(i for _, i in rows) == IDS


def test_every_description_says_how():
    how = (
        "SymPy",
        "symbolic",
        "Hypothesis",
        "witness",
        "digits",
        "Monte Carlo",
        "bit for bit",
        "exactly",
        "printed",
    )
    for element_id in IDS:
        description = REGISTRY[element_id].description
        assert any(word in description for word in how), element_id
