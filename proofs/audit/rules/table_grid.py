"""A table of one quantity over two names: rows at the values of one (its first column,
`$\\alpha$`), columns at the values of the other (`$\\gamma = 1$`, `$\\gamma = 2$`, …),
each cell the quantity the paragraph before the table names (「$E_\\gamma(\\alpha)$ の値」,
「比 $e^{-m_h k}$ を並べます」), computed with the chapter's definitions and the settings
before the table.

Which formula of the paragraph the cells are is read from the cells themselves: the first
formula, with no relation in it, that the chapter's notation computes at every cell and
that agrees with at least MAJORITY of them (and MIN_AGREEING at least). A formula that
agrees with fewer is some other quantity the paragraph mentions (the limit 1/(1 − α)
beside E_γ(α)), and says nothing of the table. The cells it then disagrees with are
mismatches, each with the value the formula gives at the row's and column's values.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from proofs.audit.deciding.defined import Notation
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.audit.rules.table_content import (
    Printed,
    columns,
    decimal_columns,
    number_at,
    paragraph_before,
    printed_cell,
    settings_before,
    shown_value,
    symbol_name,
)
from proofs.reader import Document
from proofs.reader.math import split_relations
from proofs.reader.records import Table
from proofs.tex.tree import Node, TexError, parse

_GRID = (
    "# 見本\n\n## 1. 和\n\n"
    '<Definition id="def-e" title="和">\n\n'
    "$E_\\gamma(\\alpha) := \\sum_{{k=0}}^{{\\gamma}}\\alpha^k$ と置く。\n\n</Definition>\n\n"
    "$E_\\gamma(\\alpha)$ の値です。\n\n"
    "| $\\alpha$ | $\\gamma = 1$ | $\\gamma = 2$ | $\\gamma = 3$ |\n|---|---|---|---|\n"
    "| 0.5 | 1.5000 | 1.7500 | 1.8750 |\n| 0.8 | 1.8000 | 2.4400 | {} |\n"
)
GRID = Rule(
    "TAB104",
    "table-grid-of-a-quantity",
    Section.TABLE,
    Severity.ERROR,
    "A table whose rows are the values of one name and whose columns set another ($\\gamma "
    "= 1$, $\\gamma = 2$) holds in each cell the quantity a formula of the paragraph before "
    "it names, when that formula, computed with the chapter's definitions, gives most cells.",
    Example(_GRID.format("2.9250")),
    Example(_GRID.format("2.9520")),
)
RULES = (GRID,)

MAJORITY = Fraction(2, 3)  # of the cells a formula must give to be the table's quantity
MIN_AGREEING = 4  # cells, at least


def audit_table_grid(document: Document, table: Table, notation: Notation) -> list[Finding]:
    """The cells of a table of one quantity over two names, against the formula of the
    paragraph before it that gives most of them; none when no formula does."""
    grid = _grid(table)
    if grid is None:
        return []
    key, across = grid
    settings = settings_before(document, table)
    rounded = decimal_columns(table)
    for math in paragraph_before(document, table):
        tex = math.tex.strip()
        if len(split_relations(tex)[0]) != 1:
            continue  # a relation states something; the quantity is named alone
        try:
            tree = parse(tex)
        except TexError:
            continue
        judged = _cells(table, tree, notation, key, across, settings, rounded)
        if judged is None:
            continue
        agreeing = [row for row in judged if row[3]]
        if len(agreeing) >= MIN_AGREEING and len(agreeing) >= MAJORITY * len(judged):
            return [_finding(table, tex, row) for row in judged]
    return []


def _grid(table: Table) -> tuple[str, dict[int, tuple[str, Printed]]] | None:
    """(the rows' name, {column: (the columns' name, its value)}) of a table whose first
    header is a name and whose other headers set one other name, two of them at least;
    None for any other table."""
    cols = columns(table)
    key = symbol_name(cols[0].symbol) if cols[0].symbol else None
    across = {
        c.index: c.settings[0]
        for c in cols[1:]
        if len(c.settings) == 1 and c.symbol is None and c.formula is None
    }
    names = {name for name, _ in across.values()}
    if key is None or len(across) < 2 or len(names) != 1 or key in names:
        return None
    return key, across


def _cells(
    table: Table,
    tree: Node,
    notation: Notation,
    key: str,
    across: dict[int, tuple[str, Printed]],
    settings: dict[str, Printed],
    rounded: Mapping[int, int],
) -> list[tuple[int, int, Fraction, bool]] | None:
    """(row, column, the formula's value, whether the cell agrees) of each numeric cell;
    None when the formula does not give every one of them a value."""
    out = []
    for r, row in enumerate(table.rows[1:], 1):
        at = Printed.read(row[0])
        if at is None:
            continue
        for k, (name, value) in across.items():
            printed = printed_cell(row[k], rounded, k)
            if printed is None:
                continue
            given = {**{n: p.value for n, p in settings.items()}, key: at.value, name: value.value}
            computed = number_at(notation, tree, given)
            if computed is None:
                return None
            out.append((r, k, computed, abs(computed - printed.value) <= printed.half))
    return out


def _finding(
    table: Table,
    tex: str,
    judged: tuple[int, int, Fraction, bool],
) -> Finding:
    r, k, value, agrees = judged
    row = table.rows[r]
    header = table.rows[0][k].strip()
    text = f"{header}: {row[k].strip()} (row {row[0].strip()})"
    where = f"{table.rows[0][0].strip().strip('$')} = {row[0].strip()}, {header.strip('$')}"
    status, detail = (
        (Status.CONFIRMED, f"as ${tex}$, stated before the table, gives at {where}")
        if agrees
        else (
            Status.MISMATCHED,
            f"${tex}$, stated before the table and giving most of its cells, gives "
            f"{shown_value(value)} at {where}",
        )
    )
    return Finding(Section.TABLE, table.row_lines[r], text, status, detail, code=GRID.code)
