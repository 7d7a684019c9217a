"""Spans found by bisection (proofs.reader.spans) agree with a scan of every span, and a
long line's numbers are looked up in what its findings quote (proofs.audit.reports.
coverage._quotes) as the pattern of a digit on neither side would find them."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from proofs.audit.reports.coverage import _quotes
from proofs.reader.spans import Spans


@st.composite
def disjoint_spans(draw: st.DrawFn) -> list[tuple[int, int]]:
    cuts = sorted(set(draw(st.lists(st.integers(0, 200), max_size=20))))
    return [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False)]


@given(disjoint_spans(), st.integers(-5, 205))
def test_the_span_holding_a_position_is_the_one_a_scan_finds(spans, at):
    scanned = next(((a, b) for a, b in spans if a <= at < b), None)
    assert Spans(reversed(spans)).holding(at) == scanned
    assert (at in Spans(spans)) == (scanned is not None)


def test_an_end_is_outside_its_span():
    assert Spans([(2, 4)]).holding(4) is None
    assert Spans([(2, 4)]).holding(2) == (2, 4)
    assert 1 not in Spans([(2, 4)])


@given(
    st.text(alphabet="0123456789. x", max_size=40),
    st.from_regex(r"\A\d{1,3}(\.\d{1,3})?\Z"),
)
def test_a_quoted_number_is_found_as_the_pattern_finds_it(text, digits):
    pattern = re.search(rf"(?<!\d){re.escape(digits)}(?!\d)", text) is not None
    assert _quotes(text, digits) == pattern


def test_a_number_inside_a_longer_one_is_not_quoted():
    assert _quotes("21.53 x", "53") and _quotes("21.53 x", "21") and _quotes("21.53", "21.53")
    assert not _quotes("21.53", "1.5") and not _quotes("215", "15")
