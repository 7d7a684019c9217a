"""Disjoint spans of a text (its formulas, its names, its ordinals) and the one that holds
a position, found by bisection: a line of thousands of formulas is read in n log n, not
in the square of its length."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable


class Spans:
    """Disjoint (start, end) spans, end excluded."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        self.spans = sorted(spans)
        self._starts = [start for start, _ in self.spans]

    def holding(self, at: int) -> tuple[int, int] | None:
        """The span that holds position `at`, or None.

        >>> Spans([(0, 3), (5, 9)]).holding(6), Spans([(0, 3), (5, 9)]).holding(3)
        ((5, 9), None)
        """
        k = bisect_right(self._starts, at) - 1
        if k >= 0 and at < self.spans[k][1]:
            return self.spans[k]
        return None

    def __contains__(self, at: int) -> bool:
        return self.holding(at) is not None
