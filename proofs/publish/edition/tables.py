"""A chapter's table as a booktabs table that fits the line: at its natural width when it
fits, else with its wordy columns wrapping (tabularx), and as a last resort scaled down.

Widths are estimated as proofs.typeset.latex.estimated_width does (in em at the body
size), against the length of the page's line (proofs.publish.edition.preamble.line_em).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from proofs.typeset.latex import estimated_width

SIZE = 0.9  # the tables are set \small: 9 pt on the 10 pt body
PADDING = 1.2  # em of \tabcolsep on both sides of a column
FRAME = 3.0  # em: a table inside an element's box has that much less line
WORDY = 6.0  # em: a column of words wider than this may wrap
_NUMBER = re.compile(r"[-+−]?[\d,]*\.?\d*%?")  # a printed number (or a blank cell)


def _numeric(cells: Sequence[str]) -> bool:
    return any(cells) and all(_NUMBER.fullmatch(c.strip()) for c in cells)


def _row(cells: Sequence[str]) -> str:
    """A row of cells in LaTeX; {} first when it opens with [, which \\\\ would read as
    its own optional argument."""
    text = " & ".join(cells)
    return ("{}" if text.startswith("[") else "") + text + r" \\"


def table_tex(rows: Sequence[Sequence[str]], cell: Callable[[str, int], str], line: float) -> str:
    """The table whose rows (the header first) hold the chapter's cell texts, on a line of
    `line` em; `cell` turns a cell's text, in the row of that index, into LaTeX."""
    count = max(len(r) for r in rows)
    rows = [tuple(r) + ("",) * (count - len(r)) for r in rows]
    header, body = rows[0], rows[1:]
    columns = list(zip(*body, strict=True)) if body else [()] * count
    numeric = [_numeric(c) for c in columns]
    widths = [max(map(estimated_width, c), default=0.0) for c in columns]
    heads = [estimated_width(h) for h in header]
    natural = sum(SIZE * max(w, h) + PADDING for w, h in zip(widths, heads, strict=True))
    wraps = [False] * count
    if natural > line - FRAME:
        wraps = [
            (h > w) if number else max(w, h) > WORDY
            for w, h, number in zip(widths, heads, numeric, strict=True)
        ]
    spec = "".join(
        (r">{\raggedleft\arraybackslash}X" if number else r">{\raggedright\arraybackslash}X")
        if wrap
        else ("r" if number else "l")
        for wrap, number in zip(wraps, numeric, strict=True)
    )
    lines = [
        r"\toprule",
        _row([cell(h, 0) for h in header]),
        r"\midrule",
        *(_row([cell(c, k) for c in r]) for k, r in enumerate(body, 1)),
        r"\bottomrule",
    ]
    if any(wraps):
        table = [rf"\begin{{tabularx}}{{\linewidth}}{{{spec}}}", *lines, r"\end{tabularx}"]
    else:
        table = [
            r"\begin{adjustbox}{max width=\linewidth}",
            rf"\begin{{tabular}}{{{spec}}}",
            *lines,
            r"\end{tabular}",
            r"\end{adjustbox}",
        ]
    return "\n".join([r"\begin{booktable}", *table, r"\end{booktable}"])
