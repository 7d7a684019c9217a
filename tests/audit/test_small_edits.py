"""Small edits of the chapters never crash the audit: a paragraph deleted, or a stray line
(an element's opening or closing tag, a proof's, a display's $$, a table row) added
anywhere. The audit answers each with a report — a claim it can no longer find is a
finding at its element, never an exception — or, for what cannot be read at all, with
ChapterInputError (bad input, exit code 2 on the command line). Hypothesis picks the
paragraph and the line; every one of them was swept once, the two crashes it found each
have a test of their own."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st
from places import SEEDS

from proofs.audit import audit_document
from proofs.audit.findings import Section, Status
from proofs.book.claims import Claim
from proofs.book.profiles import scaled
from proofs.reader import ChapterInputError, parse

CHAPTERS = ("000_ce182fefa314a82b.txt", "002_1f7cf506cffefce0.txt")
STRAY = ('<Definition id="d" title="t">', "</Definition>", "<Proof>", "$$", "| a | b |")


@cache
def lines_of(name: str) -> tuple[str, ...]:
    path = SEEDS / name
    if not path.is_file():
        pytest.skip(f"{path} is not here: the edits are of the seed chapters")
    return tuple(path.read_text(encoding="utf-8").split("\n"))


def paragraphs(lines: tuple[str, ...]) -> list[tuple[int, int]]:
    """(first, end) of every run of lines that are not blank, 0-based, end excluded."""
    found, start = [], None
    for k, line in enumerate((*lines, "")):
        if line.strip() and start is None:
            start = k
        elif not line.strip() and start is not None:
            found.append((start, k))
            start = None
    return found


def audited(text: str) -> None:
    """The audit of `text` and its report, or the bad input it is."""
    try:  # a table row with more cells than its header is found by the audit, not the reader
        report = audit_document(parse(text, "edited.txt"))
    except ChapterInputError:
        return
    assert report.to_lint()


@scaled(0.3)
@given(name=st.sampled_from(CHAPTERS), data=st.data())
def test_deleting_any_paragraph_never_crashes_the_audit(name, data):
    lines = lines_of(name)
    first, end = data.draw(st.sampled_from(paragraphs(lines)))
    audited("\n".join(lines[:first] + lines[end:]))


@scaled(0.3)
@given(name=st.sampled_from(CHAPTERS), stray=st.sampled_from(STRAY), data=st.data())
def test_a_stray_line_anywhere_never_crashes_the_audit(name, stray, data):
    lines = lines_of(name)
    at = data.draw(st.integers(0, len(lines)))
    audited("\n".join((*lines[:at], stray, *lines[at:])))


def test_prop_row_wise_maps_claim_of_a_deleted_statement_is_a_finding_not_a_crash():
    """命題 7.1's statement deleted: its check's claim i ≠ j is no longer in the text,
    which is a claim finding at the element (it once raised ValueError: the claim's
    relation ≠ is not one the left side is matched by)."""
    lines = lines_of(CHAPTERS[1])
    statement = next(k for k, line in enumerate(lines) if line.startswith("位置ごとの MLP と"))
    report = audit_document(parse("\n".join(lines[:statement] + lines[statement + 1 :]), "b.txt"))
    lost = [
        f
        for f in report.findings
        if f.section == Section.CLAIM and f.ref == "prop-row-wise-maps" and "i \\ne j" in f.text
    ]
    assert [f.status for f in lost] == [Status.MISMATCHED]


def test_prop_layer_norm_invariance_proof_after_a_stray_opening_tag_is_read_not_a_crash():
    """A stray `<Definition id="d" title="t">` at the top: the tag is a structure finding,
    and 命題 3.1's proof (∑_j y_j, y_j indexing a `bold y` nothing there defines) is
    judged as it can be (it once raised KeyError: the evaluator took the name the
    notation indexes without asking whether it has a meaning)."""
    lines = lines_of(CHAPTERS[1])
    report = audit_document(parse("\n".join((lines[0], STRAY[0], *lines[1:])), "b.txt"))
    never_closed = [
        f for f in report.findings if f.section == Section.STRUCTURE and f.text == STRAY[0]
    ]
    assert [f.status for f in never_closed] == [Status.MISMATCHED]


def test_a_claim_whose_left_side_does_not_start_it_is_refused_when_made():
    """A declared left side finds the claim's formula when its right side changed: one that
    does not start the claim with a relation it is matched by is a check's mistake, told
    when the check registers its claim, not when an audit cannot find the formula."""
    assert Claim("\\mu = 3", lhs="\\mu").lhs == "\\mu"
    with pytest.raises(ValueError, match="does not start with its left side"):
        Claim("i \\ne j", lhs="i")
    with pytest.raises(ValueError, match="does not start with its left side"):
        Claim("\\sigma = 1", lhs="\\mu")
