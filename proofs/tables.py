"""Tables as the chapters print them, and the lines their listings print.

A `Table` keeps the cells formatted exactly as a chapter prints them
(thousands separators, decimals, TeX in `$…$`), the raw values behind them, and
the lines the chapter's listing prints for the same values, so that the audit
can compare a chapter against it cell by cell and `tables` can render it as
Markdown, TAB text, LaTeX or CSV. The chapters' own tables are built and
registered in their packages (`proofs/chapters/<chapter>/tables.py`); every
number in them is computed by the package.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy


@dataclass(frozen=True)
class Table:
    """A regenerated table: header, formatted cells, raw values, caption.

    `rows` hold the cells as the chapter prints them (thousands separators,
    decimals, TeX in `$…$`); `values` hold the numbers behind them (None for a
    blank cell), under `value_columns` when they leave a column of formulas out.
    `listing` holds the lines the chapter's code listing prints for the same
    quantities, formatted with the listing's own format strings.
    """

    name: str
    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    values: tuple[tuple[Any, ...], ...]  # numbers and labels, by column
    listing: tuple[str, ...] = field(default=())
    value_columns: tuple[str, ...] | None = None  # the header of `values`, when not `columns`

    def to_markdown(self) -> str:
        """A pipe table as in the MDX chapter (`|---|` rule, blank cells empty)."""

        def line(cells: tuple[str, ...]) -> str:
            return "| " + " | ".join(cells) + " |"

        rule = "|" + "|".join("---" for _ in self.columns) + "|"
        return "\n".join([line(self.columns), rule, *(line(r) for r in self.rows)])

    def to_text(self) -> str:
        """TAB-separated rows, as the rendered-text chapter prints its tables."""
        return "\n".join("\t".join(r) for r in (self.columns, *self.rows))

    def to_latex(self) -> str:
        """A booktabs table; text cells escaped, `$…$` cells kept as TeX."""
        align = "l" + "r" * (len(self.columns) - 1)
        body = [
            r"\begin{table}[ht]",
            r"\centering",
            rf"\caption{{{_latex_text(self.caption)}}}",
            rf"\begin{{tabular}}{{{align}}}",
            r"\toprule",
            " & ".join(_latex_cell(c) for c in self.columns) + r" \\",
            r"\midrule",
            *(" & ".join(_latex_cell(c) for c in r) + r" \\" for r in self.rows),
            r"\bottomrule",
            r"\end{tabular}",
            r"\end{table}",
        ]
        return "\n".join(body)

    def to_csv(self) -> str:
        """The header and the raw values (full precision; blank for an empty cell)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.value_columns or self.columns)
        for row in self.values:
            writer.writerow(["" if v is None else v for v in row])
        return out.getvalue()

    def render(self, fmt: str) -> str:
        """One of FORMATS."""
        if fmt not in FORMATS:
            raise ValueError(f"format must be one of {FORMATS}, got {fmt!r}")
        return getattr(self, f"to_{fmt}")()

    def to_listing(self) -> str:
        return "\n".join(self.listing)


FORMATS = ("markdown", "text", "latex", "csv", "listing")


_LATEX_SPECIALS = {"&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}"}


def _latex_text(s: str) -> str:
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in s)


def _latex_cell(cell: str) -> str:
    """Keep `$…$` spans as TeX, escape the text around them."""
    parts = cell.split("$")
    return "".join(f"${p}$" if i % 2 else _latex_text(p) for i, p in enumerate(parts))


def thousands(k: int) -> str:
    """An integer with thousands separators, as the chapters print counts: 1,048,576."""
    return f"{k:,}"


def tex_thousands(k: int) -> str:
    """The same inside math: 7{,}087{,}872."""
    return f"{k:,}".replace(",", "{,}")


def _int_tuple(name: str, values: object) -> tuple:
    """A sequence of sizes as a tuple (hashable, for the cache), or a TypeError naming it."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name} must be a sequence of positive ints, got {values!r}")
    return tuple(values)


def _positive_ints(**named: object) -> None:
    for name, value in named.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")


def _int_at(expr: sympy.Expr, values: dict) -> int:
    """An integer-valued polynomial evaluated exactly."""
    result = sympy.sympify(expr).subs(values)
    if not result.is_Integer:
        raise ValueError(f"{expr} does not evaluate to an integer at {values}: {result}")
    return int(result)


EPS = float(np.finfo(np.float64).eps)


@dataclass(frozen=True)
class ListingLine:
    """A line as a chapter's listing prints it, computed by the package."""

    text: str
    source: str  # what computed it
    rounding: float = 0.0  # values at or below this are rounding errors
