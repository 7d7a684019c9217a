"""Figures as the chapters draw them: SVG text built from the package's own arrays.

A chapter registers each figure it draws (`@CHAPTER.figure`) as a function giving the
SVG between its `<Figure>` tags, so that `sync` can write it back when the file's has
drifted. The book's figures share one style, kept here: shading in the theme's accent
colour at 35 %, lines in the text colour 1.2 wide, 14-px labels centred in their cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

import numpy as np

BASELINE = 5  # a 14-px label's baseline below the centre of its cell
ABOVE = 10  # the column numbers' baseline above the grid
BESIDE = 30  # the row numbers' centre left of the grid


@dataclass(frozen=True)
class Grid:
    """Where a grid of square cells stands in its SVG and how it is labelled."""

    width: int  # the SVG's viewBox
    height: int
    left: int  # the grid's top-left corner
    top: int
    cell: int  # the side of a cell (even, so that labels centre on whole units)
    label: str  # the SVG's aria-label
    notes: tuple[tuple[int, int, str], ...] = ()  # (x, y, text) written beside the grid
    rows: str = "i"  # the row index, named before the first row's number
    columns: str = "j"
    empty: str = "0"  # written in each cell left unshaded


def shaded_grid(mask: np.ndarray, grid: Grid) -> str:
    """The SVG of a boolean matrix: a rectangle shading each run of True cells in a row,
    the grid, the rows and columns numbered from 1, `grid.empty` in every False cell,
    then the notes."""
    if mask.ndim != 2 or mask.dtype != np.bool_:
        raise TypeError(f"mask must be a 2-D boolean array, got {mask.dtype} of shape {mask.shape}")
    n, m = mask.shape
    c, x0, y0 = grid.cell, grid.left, grid.top
    x1, y1 = x0 + m * c, y0 + n * c
    label = escape(grid.label, {'"': "&quot;"})
    out = [
        f'<svg viewBox="0 0 {grid.width} {grid.height}" width="100%" role="img" '
        f'aria-label="{label}">',
        '  <g fill="var(--sl-color-accent)" opacity="0.35">',
    ]
    for i, row in enumerate(mask):
        for start, stop in _runs(row):
            out.append(
                f'    <rect x="{x0 + start * c}" y="{y0 + i * c}" '
                f'width="{(stop - start) * c}" height="{c}" />'
            )
    out += [
        "  </g>",
        '  <g fill="none" stroke="currentColor" stroke-width="1.2">',
        f'    <rect x="{x0}" y="{y0}" width="{m * c}" height="{n * c}" />',
    ]
    out += [f'    <line x1="{x}" y1="{y0}" x2="{x}" y2="{y1}" />' for x in range(x0 + c, x1, c)]
    out += [f'    <line x1="{x0}" y1="{y}" x2="{x1}" y2="{y}" />' for y in range(y0 + c, y1, c)]
    out += ["  </g>", '  <g fill="currentColor" font-size="14" text-anchor="middle">']
    centre = c // 2
    texts = [
        (x0 + j * c + centre, y0 - ABOVE, f"{grid.columns} = 1" if j == 0 else str(j + 1))
        for j in range(m)
    ]
    texts += [
        (x0 - BESIDE, y0 + i * c + centre + BASELINE, f"{grid.rows} = 1" if i == 0 else str(i + 1))
        for i in range(n)
    ]
    texts += [
        (x0 + j * c + centre, y0 + i * c + centre + BASELINE, grid.empty)
        for i in range(n)
        for j in range(m)
        if not mask[i, j]
    ]
    texts += list(grid.notes)
    out += [f'    <text x="{x}" y="{y}">{escape(text)}</text>' for x, y, text in texts]
    out += ["  </g>", "</svg>"]
    return "\n".join(out)


@dataclass(frozen=True)
class Stages:
    """Where rows of stages stand in their SVG: each row a line from left to right through
    its stages, one box (`box` wide, `row` high less a gap) per stage."""

    width: int
    left: int  # the first box's left side
    top: int  # the first row's top
    row: int  # the height of a row (even)
    box: int  # the width of a box
    gap: int  # between two boxes
    label: str  # the SVG's aria-label
    heading: tuple[str, str]  # written above the stages' column numbers and the terms
    names: tuple[str, ...]  # written in a stage's box
    # the stage index, named before the first column's number: ℓ, the script l, since a
    # sans-serif l is the identity's I
    stage: str = "ℓ"


def stage_rows(
    rows: list[tuple[tuple[bool, ...], str]], layout: Stages, bold: int | None = None
) -> str:
    """The SVG of rows of choices: in each row a line passes through the shaded box of
    every stage the row takes (True), labelled with the stage's name, and straight past
    every other stage; the row's text (its term) stands at its right. Row `bold` is drawn
    twice as thick. Every row has one choice per stage."""
    stages = {len(choices) for choices, _ in rows} | {len(layout.names)}
    if len(stages) != 1:
        raise ValueError(
            f"every row needs one choice per stage name ({len(layout.names)}), got {sorted(stages)}"
        )
    (m,) = stages
    L, step, h = layout, layout.box + layout.gap, layout.row
    end = L.left + m * step
    height = L.top + len(rows) * h + 10
    out = [
        f'<svg viewBox="0 0 {L.width} {height}" width="100%" role="img" '
        f'aria-label="{escape(L.label, {chr(34): "&quot;"})}">',
        '  <g fill="var(--sl-color-accent)" opacity="0.35">',
    ]
    boxes = [
        (L.left + k * step, L.top + i * h + 3)
        for i, (choices, _) in enumerate(rows)
        for k, taken in enumerate(choices)
        if taken
    ]
    out += [f'    <rect x="{x}" y="{y}" width="{L.box}" height="{h - 6}" />' for x, y in boxes]
    out += ["  </g>", '  <g fill="none" stroke="currentColor" stroke-width="1.2">']
    out += [f'    <rect x="{x}" y="{y}" width="{L.box}" height="{h - 6}" />' for x, y in boxes]
    for i, (choices, _) in enumerate(rows):  # the row's line, broken by its boxes
        y = L.top + i * h + h // 2
        thick = ' stroke-width="2.4"' if i == bold else ""
        stops = [L.left - L.gap]
        for k, taken in enumerate(choices):
            if taken:
                stops += [L.left + k * step, L.left + k * step + L.box]
        stops.append(end)
        out += [
            f'    <line x1="{a}" y1="{y}" x2="{b}" y2="{y}"{thick} />'
            for a, b in zip(stops[::2], stops[1::2], strict=True)
        ]
    out += ["  </g>", '  <g fill="currentColor" font-size="14" text-anchor="middle">']
    texts = [
        (L.left + k * step + L.box // 2, L.top - ABOVE, f"{L.stage} = 1" if k == 0 else str(k + 1))
        for k in range(m)
    ]
    texts += [
        (L.left + (m * step) // 2, L.top - ABOVE - 20, L.heading[0]),
        (end + 60, L.top - ABOVE, L.heading[1]),
    ]
    for i, (choices, term) in enumerate(rows):
        y = L.top + i * h + h // 2 + BASELINE
        texts += [
            (L.left + k * step + L.box // 2, y, L.names[k])
            for k, taken in enumerate(choices)
            if taken
        ]
        texts.append((end + 60, y, term))
    out += [f'    <text x="{x}" y="{y}">{escape(text)}</text>' for x, y, text in texts]
    out += ["  </g>", "</svg>"]
    return "\n".join(out)


def _runs(row: np.ndarray) -> list[tuple[int, int]]:
    """(start, stop) of each run of True entries."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]
