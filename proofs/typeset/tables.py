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
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy

from proofs.typeset.latex import estimated_width, is_wide, tex_cell
from symbolic.printing import chapter_latex


@dataclass(frozen=True)
class Table:
    """A regenerated table: header, formatted cells, the values behind them, caption.

    `rows` hold the cells as the chapter prints them (thousands separators,
    decimals, TeX in `$…$`); `values` hold, cell by cell, what is behind them: a
    number at full precision, the text of a label or formula, None for a blank cell.
    The caption is in the chapters' notation too (`$d_{\\mathrm{ff}} = 3072$`).
    `listing` holds the lines the chapter's code listing prints for the same
    quantities, formatted with the listing's own format strings.
    """

    name: str
    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    values: tuple[tuple[Any, ...], ...]
    listing: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        for kind, table in (("row", self.rows), ("values row", self.values)):
            for k, row in enumerate(table, 1):
                if len(row) != len(self.columns):
                    raise ValueError(
                        f"{self.name}: {kind} {k} has {len(row)} cells, the "
                        f"header {len(self.columns)}"
                    )

    def column(self, name: str) -> tuple[Any, ...]:
        """The values of the column headed `name`, top to bottom."""
        j = self.columns.index(name)
        return tuple(row[j] for row in self.values)

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
        """A booktabs table that fits the text width of any page (LuaLaTeX, luatexja).

        The caption carries the element's own number, so it is a `\\caption*`, outside
        LaTeX's table counter. A column of numbers whose header is words wider than its
        numbers and than WRAP_FROM becomes a tabularx X column, where the header wraps:
        the table is then as wide as the text and no wider. Other columns keep their
        natural width, numbers to the right, words to the left."""
        columns = list(zip(*self.rows, strict=True)) or [()] * len(self.columns)
        numeric = [all(_NUMBER.fullmatch(c) for c in cells) for cells in columns]
        wraps = [
            number
            and any(map(is_wide, head))
            and estimated_width(head) > max(WRAP_FROM, *map(estimated_width, cells))
            for head, cells, number in zip(self.columns, columns, numeric, strict=True)
        ]
        spec = "".join(
            r">{\raggedleft\arraybackslash}X" if wrap else "r" if number else "l"
            for wrap, number in zip(wraps, numeric, strict=True)
        )
        begin, end = (
            (rf"\begin{{tabularx}}{{\linewidth}}{{{spec}}}", r"\end{tabularx}")
            if any(wraps)
            else (rf"\begin{{tabular}}{{{spec}}}", r"\end{tabular}")
        )
        body = [
            r"\begin{table}[htbp]",
            r"\centering",
            rf"\caption*{{{tex_cell(self.caption)}}}",
            begin,
            r"\toprule",
            " & ".join(map(tex_cell, self.columns)) + r" \\",
            r"\midrule",
            *(" & ".join(map(tex_cell, r)) + r" \\" for r in self.rows),
            r"\bottomrule",
            end,
            r"\end{table}",
        ]
        return "\n".join(body)

    def to_csv(self) -> str:
        """The header and the values (numbers at full precision, labels and formulas as
        printed, blank for an empty cell): the same columns, in the same language."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.columns)
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

COUNTED = "配列の成分の総数"  # the row label of a count of allocated arrays

WRAP_FROM = 5.0  # em: a shorter header (合計, 個数) stays on one line
_NUMBER = re.compile(r"[-+]?[\d,]*\.?\d*")  # a printed number, or a blank cell


def thousands(k: int) -> str:
    """An integer with thousands separators, as the chapters print counts: 1,048,576."""
    return f"{k:,}"


def tex_thousands(k: int) -> str:
    """An integer as the chapters write it inside math: 7{,}087{,}872, but 1024 and 3072."""
    return str(k) if abs(k) < 10_000 else f"{k:,}".replace(",", "{,}")


def settings_tex(settings: Mapping[sympy.Symbol, object]) -> str:
    """Sizes as the chapters state them, each in its own math, in their notation:
    $|V| = 50{,}257$、$d_{\\mathrm{ff}} = 4d$."""

    def value(v: object) -> str:
        return tex_thousands(v) if isinstance(v, int) else chapter_latex(sympy.sympify(v))

    return "、".join(f"${chapter_latex(s)} = {value(v)}$" for s, v in settings.items())


def int_tuple(name: str, values: object) -> tuple:
    """A sequence of sizes as a tuple (hashable, for the cache), or a TypeError naming it."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name} must be a sequence of positive ints, got {values!r}")
    return tuple(values)


def positive_ints(**named: object) -> None:
    """Each named value a positive int (not a bool), or a ValueError naming it."""
    for name, value in named.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")


def int_at(expr: sympy.Expr, values: dict) -> int:
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


def listing_lines(make: Callable[[], Table]) -> list[ListingLine]:
    """The lines a listing prints of the table `make()` builds with its defaults, each
    naming the function that computed it."""
    source = f"{make.__module__}.{make.__qualname__}"
    return [ListingLine(text, source) for text in make().listing]
