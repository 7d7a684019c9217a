"""A table row split into its cells, each with where its text stands in the line, so that
the cells are read, and a cell can be rewritten in place, by one rule."""

from __future__ import annotations

Span = tuple[int, int]


def cell_spans(line: str, separator: str, outer: bool) -> tuple[Span, ...]:
    """(start, end) of each cell's text, the whitespace around it left out; `outer` first
    strips the row's surrounding whitespace and separators (a pipe table's `| a | b |`).

    >>> cell_spans("| 4 | 4.00 |", "|", outer=True)
    ((2, 3), (6, 10))
    >>> cell_spans("\\ta\\t", "\\t", outer=False)
    ((0, 0), (1, 2), (3, 3))
    """
    start, end = 0, len(line)
    if outer:
        start, end = len(line) - len(line.lstrip()), len(line.rstrip())
        while start < end and line[start] == separator:
            start += 1
        while end > start and line[end - 1] == separator:
            end -= 1
    spans, cursor = [], start
    while True:
        stop = line.find(separator, cursor, end)
        stop = end if stop < 0 else stop
        piece = line[cursor:stop]
        first = cursor + len(piece) - len(piece.lstrip())
        spans.append((first, max(first, cursor + len(piece.rstrip()))))
        if stop == end:
            return tuple(spans)
        cursor = stop + 1
