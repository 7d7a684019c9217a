"""Tables checked from their own content, for tables no package regenerates.

A column whose header holds a formula (「1 層の数 $2nd$」, `$1 - \\beta_1^t$`,
`$\\eta_t/\\eta_{\\max}$`, `$ab$`), or is a symbol the paragraph just before the table
sets to one (「では $\\theta_i = 10^{-(i-1)/16}$ です」), is computed in each row from
what the formula names: the key column's symbol (the first column whose header is a
symbol, `$t$`) at the row's key, the other columns whose header is a symbol (`コサイン減衰
$\\eta_t$（$\\times 10^{-4}$）`, scaled by the unit the header gives) at the row's cells,
and the settings of the paragraphs just before the table (`$\\beta_1 = 0.9$`、`$d = 768$`;
a name set to two values there is none). A name the table gives is a number: `k(T - C)`
is a product. An application that another column's header is stands for that column:
`e^{\\ell(\\boldsymbol{z}^{*}, y)}` for e to the cell of `\\ell(\\boldsymbol{z}^{*}, y)` in the
row, `B(r)/B(0)` for the cell of `B(r)` over that of the row whose key is 0; `m_{t-1}`
in a table keyed by t stands for the column `m_t` of the row whose key is t − 1. A
formula that holds another column's (`e^{-s^2}` in `ne^{-s^2}`) is judged again with
that column's cell in its place. A column
whose formula names anything else is not examined. The printed inputs are taken at either
end of their rounding, so a cell is a mismatch only when no choice of them within their
printed precision gives it.

When the chapter's listings ran, a row that one of their output lines prints (its key
first, most of its other numbers alike) is compared with that line number by number:
each cell the listing prints otherwise is a mismatch, unless the number printed in its
place is one the row holds in another column (the listing's columns in another order). A
formula in brackets after a header's symbol (「$H$（$\\log n$）」) says which H, and is not
the column's formula.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType

import sympy

from proofs.audit.deciding.defined import Notation, closure
from proofs.audit.deciding.notation import OpenEvaluator
from proofs.audit.deciding.sentence import cases_before, title_settings
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.audit.rules.definitions import WHOLE_COLUMN, Use
from proofs.book.printed import significant_digits, ungrouped
from proofs.reader import Document
from proofs.reader.math import INLINE_MATH, split_relations, split_statements
from proofs.reader.records import Math, Table
from proofs.tex.arithmetic import NotNumeric, TooLarge, evaluate
from proofs.tex.tokens import printed_numbers
from proofs.tex.tree import Node, TexError, parse, tree_names

_COLUMN = (
    '# 見本\n\n<Remark id="rem-widths" title="幅">\n\n$d = 4$ とします。\n\n</Remark>\n\n'
    "| $n$ | 1 層の数 $2nd$ |\n|---|---|\n| 1 | 8 |\n| 2 | {} |\n"
)
COMPUTED_COLUMN = Rule(
    "TAB101",
    "table-formula-column",
    Section.TABLE,
    Severity.ERROR,
    "A column whose header holds a formula (or names one: $\\lambda_i = 2\\pi/\\theta_i$, "
    "or is a symbol the paragraph before the table sets to one) is that formula in each "
    "row, of the key column's value, the row's other cells, the settings of the paragraphs "
    "before the table and those of its header ($m = 100$ での), for some choice of the "
    "printed inputs within their rounding; a formula that holds another column's "
    "($e^{-s^2}$ in $ne^{-s^2}$) also with that column's cell in its place.",
    Example(_COLUMN.format("17")),
    Example(_COLUMN.format("16")),
)
_LISTED = (
    '# 見本\n\n<Remark id="rem-powers" title="累乗">\n\n累乗を並べます。\n\n</Remark>\n\n'
    "```python\nfor n in (1, 2):\n    print(n, n * 2, n * 4, n * 8)\n```\n\n"
    "```text\n1 2 4 8\n2 4 8 16\n```\n\n"
    "| $n$ | 2 倍 | 4 倍 | 8 倍 |\n|---|---|---|---|\n| 1 | 2 | 4 | 8 |\n| 2 | 4 | 8 | {} |\n"
)
PRINTED_ROW = Rule(
    "TAB102",
    "table-row-a-listing-prints",
    Section.TABLE,
    Severity.ERROR,
    "With the listings run, a table row that a listing's output line prints (its key "
    "first, most of its other numbers alike) has that line's numbers, but where the line "
    "prints a number the row holds in another column (its columns in another order).",
    Example(_LISTED.format("17"), run_listings=True),
    Example(_LISTED.format("16"), run_listings=True),
)
_DEFINED = (
    "# 見本\n\n## 1. 形式\n\n"
    '<Definition id="def-bias" title="バイアス">\n\n'
    "$b := 2^{{e-1}} - 1$ と置く。\n\n</Definition>\n\n"
    "| 形式 | $e$ | $b$ |\n|---|---|---|\n| A | 5 | 15 |\n| B | 8 | {} |\n"
)
DEFINED_COLUMN = Rule(
    "TAB103",
    "table-column-the-chapter-defines",
    Section.TABLE,
    Severity.ERROR,
    "A column whose header is a quantity the chapter defines ($b$ of $b := 2^{e-1} - 1$, "
    "$\\mathrm{SiLU}'(x)$ of a defined SiLU) is the chapter's definition in each row, at the "
    "row's key and cells and the settings before the table, for some choice of the printed "
    "inputs within their rounding.",
    Example(_DEFINED.format("128")),
    Example(_DEFINED.format("127")),
)
RULES = (COMPUTED_COLUMN, PRINTED_ROW, DEFINED_COLUMN)


CONTEXT = 12  # lines before a table searched for its settings
CORNERS = 4  # printed inputs of a formula taken at both ends of their rounding, at most
_NUMBER = re.compile(r"^[-−]?\d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?$|^[-−]?\d+(?:\.\d+)?$")
_IN_TEXT = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])")
_CALL = re.compile(r"\s*(\\?[A-Za-z]+(?:_\{[^{}]*\}|_\w)?)\((.+)\)\s*")  # F(x), \\ell(z, y)
_BREAK = re.compile(r"\s*(?:<|#|\$\$)")  # a tag, a heading or a display: no paragraph's line
_UNIT = re.compile(r"\\times\s*10\^\{?(-?\d+)\}?")
_BRACKETED = re.compile(r"（[^（）]*）|\([^()$]*\$[^()]*\)")  # a remark in brackets
_WORDS = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana and kanji: words, not a unit
_IN_PERCENT = re.compile(r"[（(\[]\s*(?:%|％)\s*[）)\]]")  # a header's unit: （%）
_SYMBOL = re.compile(  # x, \beta_1, n_{\mathrm{in}}, M_{\text{tok}}
    r"\s*\\?[A-Za-z]+(?:_\{?\\?(?:(?:mathrm|text|operatorname)\{)?[A-Za-z0-9]+\}?\}?)?\s*"
)
_SCALED = re.compile(r"\$?\s*([-−]?[\d.]+)\s*\\times\s*10\^\{?([-−]?\d+)\}?\s*\$?")
_PERCENT = re.compile(r"([-−]?[\d.,]+)\s*(?:%|\\%|％)")


@dataclass(frozen=True)
class Printed:
    """A number as printed: its exact value and half a unit of its last digit."""

    value: Fraction
    half: Fraction

    @classmethod
    def read(cls, text: str) -> Printed | None:
        """A cell's number: `1,536`, `0.5743`, `−0.4161`, a percentage `27.5 %` (its value
        0.275), a power of ten `$1.75 \\times 10^{-46}$` (or `\\cdot`); None for anything else."""
        text = printed_numbers(text.strip())
        if re.fullmatch(r"\$\s*[-−]?[\d.,]+\s*\$", text):  # a key printed in math: $-2$
            text = text.strip("$ ")
        scaled = _SCALED.fullmatch(text)
        if scaled is not None:
            base = cls.read(scaled.group(1))
            power = Fraction(10) ** int(scaled.group(2))
            return None if base is None else cls(base.value * power, base.half * power)
        percent = _PERCENT.fullmatch(text)
        if percent is not None:
            base = cls.read(percent.group(1))
            return None if base is None else cls(base.value / 100, base.half / 100)
        bare = ungrouped(text).replace("−", "-")
        if not _NUMBER.match(text) and not re.fullmatch(r"-?\d+(?:\.\d+)?", bare):
            return None
        decimals = len(bare.partition(".")[2])
        return cls(Fraction(bare), Fraction(1, 2 * 10**decimals) if decimals else Fraction(0))


@dataclass(frozen=True)
class Column:
    index: int
    header: str
    symbol: str | None  # the header's math when it is one symbol, or names a formula
    formula: str | None  # the header's math when it is a formula, or what it names one
    unit: Fraction  # what a cell is multiplied by: 10^-4 for （$\times 10^{-4}$）
    settings: tuple[tuple[str, Printed], ...] = ()  # 「$m = 100$ での回転数」: for this column
    source: str = ""  # where the formula is stated, for the finding: its header's by default


def columns(table: Table) -> list[Column]:
    """What each column's header says: a symbol, a formula (`$2nd$`, or one it names,
    `$\\lambda_i = 2\\pi/\\theta_i$`), the settings it states for its cells (「$m = 100$
    での」) and the unit of its cells."""
    out = []
    for k, cell in enumerate(table.rows[0]):
        maths = INLINE_MATH.findall(cell)
        unit = Fraction(1)
        named = [m for m in maths if _unit_power(m) is None]
        # 「$H$（$\log n$）」: the bracket says which H (the one of log n scaling), no formula
        outside = INLINE_MATH.findall(_BRACKETED.sub("", cell))
        if outside:
            named = [m for m in named if m in outside]
        else:  # 「重み（$\\tau$ で補正、%）」: a bracket of words says how, names no quantity
            remarks = [b for b in _BRACKETED.findall(cell) if _WORDS.search(INLINE_MATH.sub("", b))]
            named = [
                m
                for m in named
                if _header_setting(m) is not None or not any(m in b for b in remarks)
            ]
        for m in maths:
            power = _unit_power(m)
            if power is not None:
                unit = Fraction(10) ** power
        if _IN_PERCENT.search(INLINE_MATH.sub("", cell)):  # 「$\rho$（%）」: cells in per cent
            unit = Fraction(1, 100)
        # 「$1/\sqrt{2N}$ 倍での最後の枝の比」: a formula the words after it make a condition
        # of the column (scaled by it, at it) is not the column's formula
        named = [m for m in named if _header_setting(m) is not None or not _qualifies(cell, m)]
        set_here = [(m, _header_setting(m)) for m in named]
        settings = tuple(setting for _, setting in set_here if setting is not None)
        rest = [m for m, setting in set_here if setting is None]
        # 「$S$ の成分数 $n^2$」: a symbol naming the object, and the one formula that counts it
        formulas = [m for m in rest if not (_SYMBOL.fullmatch(m) and symbol_name(m))]
        math = rest[0] if len(rest) == 1 else formulas[0] if len(formulas) == 1 else None
        # `ab` is a product, not a symbol: one only when the open notation reads one name
        symbol = math.strip() if math and _SYMBOL.fullmatch(math) and symbol_name(math) else None
        formula = math if math and symbol is None and not split_relations(math)[1] else None
        if math is not None and symbol is None and formula is None:
            members, relations = split_relations(math)
            if relations == ["="] and _SYMBOL.fullmatch(members[0]) and symbol_name(members[0]):
                symbol, formula = members[0].strip(), members[1].strip()  # λ_i = 2π/θ_i
            elif relations == ["="] and re.search(r"[A-Za-z]", members[1]):
                formula = members[1].strip()  # P(D = L) = (1 - q)^{23}: what it is worked from
        out.append(Column(k, cell.strip(), symbol, formula, unit, settings))
    return out


_QUALIFYING = re.compile(r"\s*(?:倍|で|の場合|のとき|とき)")  # 「$x$ 倍での」「$x$ のとき」


def _qualifies(cell: str, math: str) -> bool:
    """Whether the words right after the header's formula `math` make it a condition of
    the column (「$1/\\sqrt{2N}$ 倍での比」「$T = 2$ のとき」) rather than its quantity."""
    at = cell.find(f"${math}$")
    return at >= 0 and _QUALIFYING.match(cell, at + len(math) + 2) is not None


def _unit_power(math: str) -> int | None:
    """k of a header's unit `\\times 10^{k}` (「$E(x)$（$\\times 10^{-4}$）」); None where the
    power of ten is a number's (「$C = 5.88 \\times 10^{23}$ での」)."""
    found = _UNIT.search(math)
    if found is None or re.search(r"[\d.}]\s*$", math[: found.start()]):
        return None
    return int(found.group(1))


def _header_setting(math: str) -> tuple[str, Printed] | None:
    """(name, value) of a header's `m = 100`; None for anything else."""
    members, relations = split_relations(math)
    if relations != ["="] or not _SYMBOL.fullmatch(members[0]):
        return None
    name, value = symbol_name(members[0]), _setting_value(members[1])
    if name is None or value is None:
        return None
    return name, Printed(value.value, Fraction(0))


def settings_before(document: Document, table: Table) -> dict[str, Printed]:
    """The names the lines just before the table set to one number each (exact: the
    chapter sets them, it does not round them), by their names in the open notation: a
    setting `d = 768`, a chain of them `m = d_v = d = 64`, and those the title of the
    element holding the table states (「T = 20、E = 4、k = 2 で…」)."""
    found: dict[str, Printed | None] = {}
    first = max(1, table.line - CONTEXT)
    statements = [  # not what a case of its sentence concludes (「$s \\le 1$ では $\\tau = 1$」)
        s
        for m in document.math_in(first, table.line - 1)
        for s in split_statements(m.tex)
        if not cases_before(document, m.line, s.strip())
    ]
    element = document.element_at(table.line)
    if element is not None:  # the title is words around settings: d = 8、h = 2 の場合
        statements = title_settings(element.title) + statements
    for statement in statements:
        members, relations = split_relations(statement)
        if len(members) < 2 or any(r != "=" for r in relations):
            continue
        value = _setting_value(members[-1])
        names = [symbol_name(m) if _SYMBOL.fullmatch(m) else None for m in members[:-1]]
        # 「$M_1 = 2 \times 32 \times 128 = 8{,}192$」: the names, worked out to a number
        while len(names) > 1 and names[-1] is None and _is_arithmetic(members[len(names) - 1]):
            names.pop()
        if value is None or None in names:
            continue
        value = Printed(value.value, Fraction(0))
        for name in names:
            assert name is not None
            found[name] = None if name in found and found[name] != value else value
    return {name: value for name, value in found.items() if value is not None}


def _is_arithmetic(member: str) -> bool:
    """Whether a member is arithmetic on numbers alone (2 \\times 32 \\times 128)."""
    try:
        evaluate(member, {}, False)
    except (NotNumeric, TooLarge):
        return False
    return True


def paragraph_before(document: Document, table: Table) -> tuple[Math, ...]:
    """The formulas of the paragraph just before the table (its lines up to a blank line,
    a tag, a heading or a display)."""
    last = table.line - 1
    while last > 0 and not document.lines[last - 1].strip():
        last -= 1
    first = last
    while (
        first > 1
        and document.lines[first - 2].strip()
        and not _BREAK.match(document.lines[first - 2])
    ):
        first -= 1
    return document.math_in(first, last)


def formulas_before(document: Document, table: Table) -> dict[str, str]:
    """The names the paragraph just before the table sets to a formula (「$d_k = 128$、$b =
    10{,}000$ では $\\theta_i = 10^{-(i-1)/16}$ です」), by their names in the open
    notation: the last member of a chain of equalities that starts with the name and
    goes on with no bare number; a name set to two formulas there is none. Only that
    paragraph: a proposition's general formula further up may have the table's rows as
    exceptions its proof explains."""
    found: dict[str, str | None] = {}
    for statement in (s for m in paragraph_before(document, table) for s in m.tex.split(",")):
        members, relations = split_relations(statement)
        if len(members) < 2 or any(r != "=" for r in relations):
            continue
        name = symbol_name(members[0]) if _SYMBOL.fullmatch(members[0]) else None
        if name is None or any(_setting_value(m) is not None for m in members[1:]):
            continue
        formula = members[-1].strip()
        found[name] = None if name in found and found[name] != formula else formula
    return {name: formula for name, formula in found.items() if formula is not None}


def _stated(cols: list[Column], formulas: dict[str, str], key: Column) -> list[Column]:
    """The columns, each whose header is a symbol the lines before the table set to a
    formula taking that formula (the key column's keeps none: it labels the rows)."""
    return [
        replace(
            c,
            formula=formulas[name],
            source=f"the formula stated before the table, {c.symbol} = {formulas[name]}",
        )
        if c is not key
        and c.formula is None
        and c.symbol is not None
        and (name := symbol_name(c.symbol)) in formulas
        else c
        for c in cols
    ]


@dataclass(frozen=True)
class _Term:
    """A column that another column's formula names by its header, an application
    (`\\ell(\\boldsymbol{z}^{*}, y)` in `e^{\\ell(\\boldsymbol{z}^{*}, y)}`, `B(r)` in
    `B(r)/B(0)`): read at the row's own cell, or at the row of the key it is applied to
    (`B(0)`: the cell of the row whose key is 0)."""

    name: str  # the name that stands for it in the rewritten formula
    column: int
    row: int | None  # the index of the row it is read at among the table's; None: each row's
    unit: Fraction = Fraction(1)  # its column's: 10^-4 for （$\times 10^{-4}$）
    applied: bool = True  # an application (B(r)); else a norm or a product named by its TeX


def _through_columns(
    column: Column, cols: list[Column], view: Table, key: Column
) -> tuple[Column, list[_Term]]:
    """The column with each application its formula shares with another column's header
    put by a name of its own, and what those names stand for; the column as it is when
    its formula names no other column."""
    if column.formula is None:
        return column, []
    formula, terms = column.formula, []
    keys = [row[key.index].strip() for row in view.rows[1:]]
    # 「3 次：$p^k(\hat\sigma_1)$」「5 次：$p^k(\hat\sigma_1)$」: one formula of two columns,
    # two quantities its words tell apart, neither the other's
    texts = [c.formula.strip() for c in cols if c.formula]
    for other in sorted(cols, key=lambda c: -len(c.formula or "")):  # the longest first
        if other is column or texts.count((other.formula or "").strip()) != 1:
            continue
        call = _CALL.fullmatch(other.formula or "")
        if call is None and not _is_compound(other.formula or ""):
            continue
        whole = re.compile(  # \|\Delta\|_{\max} in \langle A, \Delta\rangle/\|\Delta\|_{\max}
            r"(?<![A-Za-z\\])" + re.escape(other.formula.strip()) + r"(?![A-Za-z0-9_{(])"  # type: ignore[union-attr]
        )
        if whole.search(formula):
            placeholder = f"\\mathrm{{col}}_{{{other.index}}}"
            formula = whole.sub(placeholder.replace("\\", "\\\\"), formula)
            terms.append(_Term(f"col_{other.index}", other.index, None, other.unit, bool(call)))
        if call is None or key.symbol is None or call.group(2).strip() != key.symbol:
            continue
        at = re.compile(r"(?<![A-Za-z\\])" + re.escape(call.group(1)) + r"\(\s*([-−]?[\d.]+)\s*\)")
        for found in {m.group(0): m.group(1) for m in at.finditer(formula)}.items():
            text, value = found
            if value not in keys:
                continue
            row = keys.index(value)
            formula = formula.replace(text, f"\\mathrm{{col}}_{{{other.index}r{row}}}")
            terms.append(_Term(f"col_{other.index}r{row}", other.index, row, other.unit))
    if not terms:
        return column, []
    source = column.source or f"its header's formula {column.formula}"
    return replace(column, formula=formula, source=source), terms


def _is_compound(formula: str) -> bool:
    """Whether a header's formula is one a reader can tell inside another's by its TeX: an
    application, a norm or an inner product (\\|\\Delta\\|_F, \\langle A, \\Delta\\rangle), at
    least four characters of it and not a name alone."""
    text = formula.strip()
    return (
        len(text) >= 4
        and _SYMBOL.fullmatch(text) is None
        and re.search(r"\||\\[lr]?Vert|\\langle|\(|\\mathrm", text) is not None
    )


def _previous_rows(
    view: Table, cols: list[Column], key: Column, rounded: Mapping[int, int]
) -> dict[str, dict[str, Printed]]:
    """For each row's key k (an integer), the cells of the row whose key is k − 1, by the
    names a formula gives them: `m_{t-1}` is the column `m_t` a row up (「係数
    $e^{m_{t-1} - m_t}$」 in a table keyed by t)."""
    name = symbol_name(key.symbol) if key.symbol else None
    if name is None:
        return {}
    rows = {row[key.index].strip(): row for row in view.rows[1:]}
    indexed = [
        (c, n[: -len(name) - 1])
        for c in cols
        if c.symbol and (n := symbol_name(c.symbol)) and n.endswith(f"_{name}")
    ]
    out: dict[str, dict[str, Printed]] = {}
    for text in rows:
        at = Printed.read(text)
        if at is None or at.half or at.value.denominator != 1:
            continue
        before = rows.get(str(at.value - 1))
        if before is None:
            continue
        cells = {
            f"{base}_{name}-1": printed_cell(before[c.index], rounded, c.index)
            for c, base in indexed
        }
        out[text] = {n: v for n, v in cells.items() if v is not None}
    return out


def _previous_names(formula: str | None) -> frozenset[str]:
    """The names of cells of the row before that a formula uses (`m_{t-1}` read as
    m_t-1), once per column."""
    if formula is None or "-1}" not in formula.replace(" ", ""):
        return frozenset()
    try:
        expr = OpenEvaluator()(parse(formula))
    except (TexError, TypeError, ValueError, ArithmeticError):
        return frozenset()
    return frozenset(n for s in getattr(expr, "free_symbols", ()) if (n := str(s)).endswith("-1"))


def _term_values(
    terms: list[_Term], row: tuple[str, ...], view: Table, rounded: Mapping[int, int]
) -> dict[str, Printed]:
    """What each term stands for in the row: its column's cell there, or in its own row,
    in its column's unit."""
    out = {}
    for term in terms:
        cells = row if term.row is None else view.rows[1 + term.row]
        cell = printed_cell(cells[term.column], rounded, term.column)
        if cell is not None:
            out[term.name] = Printed(cell.value * term.unit, cell.half * term.unit)
    return out


def symbol_name(tex: str) -> str | None:
    """A symbol's name in the open notation (\\beta_1 -> beta_1), None for no symbol."""
    try:
        value = OpenEvaluator()(parse(tex))
    except (TexError, TypeError, ValueError, ArithmeticError):
        return None
    return str(value) if isinstance(value, sympy.Symbol) else None


def _setting_value(text: str) -> Printed | None:
    """`0.9`, `768`, `6 \\times 10^{-4}`: a printed number, scaled by its power of ten; `2^{16}`,
    `10^{-4}`: a power, exact."""
    exact = re.fullmatch(r"\s*(\d+)\s*\^\s*\{?\s*(-?\d+)\s*\}?\s*", text)
    if exact and len(exact.group(2)) <= 4:
        return Printed(Fraction(int(exact.group(1))) ** int(exact.group(2)), Fraction(0))
    scaled = re.fullmatch(r"\s*([\d.]+)\s*\\times\s*10\^\{?(-?\d+)\}?\s*", text)
    if scaled:
        base = Printed.read(scaled.group(1))
        if base is None:
            return None
        power = Fraction(10) ** int(scaled.group(2))
        return Printed(base.value * power, base.half * power)
    return Printed.read(text)


def audit_table_content(
    document: Document,
    table: Table,
    notation: Callable[[int], Notation] | None = None,
    uses: list[Use] | None = None,
) -> list[Finding]:
    """The formula columns of a table, row by row; with the chapter's `notation`, the
    columns whose header is a quantity it defines too, each added to `uses` as a use of
    the definitions it reaches (proofs.audit.rules.definitions): one that holds when most
    of its rows agree, one that contradicts them when most of them, two at least, do not.
    """
    across = _is_transposed(table)
    view = _transposed(table) if across else table
    settings = settings_before(document, table)
    cols = columns(view)
    key = next((c for c in cols if c.symbol is not None), None)
    if key is None:
        return []
    cols = _stated(cols, formulas_before(document, table), key)
    rounded = decimal_columns(view)
    earlier = _previous_rows(view, cols, key, rounded)
    out = []
    for column in cols:
        nearest = _nearest_symbols(cols, column.index)
        header = column.formula or (column.symbol if column is not key else None)
        computed, terms = _through_columns(column, cols, view, key)
        previous = _previous_names(computed.formula)
        # what names the table's own cells (another column, the row before) is read from them
        # (a norm or a product of another column's TeX only where no definition computes it)
        own = any(t.applied for t in terms) or (bool(previous) and any(earlier.values()))
        defined = None
        if header is not None and notation is not None and not own:
            defined = _defined(notation(table.line), header)
            if defined is not None and not defined.names & set(nearest):
                defined = None  # what the definition gives does not change with the row
            if defined is not None and defined.names & _shared(cols):
                defined = None  # two columns of one name (Xavier の σ, He の σ): which?
        parts: list[Column] = []
        if defined is not None:
            judge, code = functools.partial(_judge_defined, column, defined), DEFINED_COLUMN.code
        elif column.formula is not None:
            parts = _parts(column, cols, key)
            # the header's own formula where it is computed, else with the columns it names
            named_only = terms and not any(t.applied for t in terms)
            tried = (column, computed) if named_only else (computed,)
            judge = functools.partial(_first_judged, tried, parts=parts)
            code = COMPUTED_COLUMN.code
        else:
            continue
        judged: list[Finding] = []
        for row, row_line in zip(view.rows[1:], view.row_lines[1:], strict=True):
            line = table.row_lines[column.index] if across else row_line
            given = _inputs(row, nearest, {**settings, **dict(column.settings)}, key, rounded)
            given |= _term_values(terms, row, view, rounded)
            given |= _part_values(parts, row, rounded)
            given |= earlier[row[key.index].strip()] if row[key.index].strip() in earlier else {}
            printed = printed_cell(row[column.index], rounded, column.index)
            if printed is None:
                continue
            if previous - given.keys():
                continue  # 「$e^{m_{t-1} - m_t}$」 in the first row: no row t - 1
            if defined is not None and not defined.names & _given_by(row, nearest):
                continue  # the row gives none of what the definition is computed from
            verdict = judge(given, printed)
            if verdict is None and _given_by(row, nearest) != nearest.keys():
                continue  # a column it names holds no number in this row
            if verdict is None:
                break  # the formula names what the table and its paragraph do not set
            status, detail = verdict
            text = f"{column.header}: {row[column.index].strip()} (row {row[0].strip()})"
            judged.append(Finding(Section.TABLE, line, text, status, detail, code=code))
        if defined is not None and uses is not None:
            uses += _column_use(defined, judged)
        out += judged
    return out


def _column_use(defined: _Defined, judged: list[Finding]) -> list[Use]:
    """The column as a use of the definitions its header reaches: holding when most of
    its rows agree with them, contradicting them when most rows, two at least, do not
    (one slipped cell is the cell's finding alone); none when as many agree as not."""
    wrong = [f for f in judged if f.status == Status.MISMATCHED]
    right = [f for f in judged if f.status == Status.CONFIRMED]
    reached = tuple(d for name, d in defined.notation.definitions.items() if name in defined.names)
    if len(right) > len(wrong):
        return [Use(right[0], reached, held=True)]
    if len(wrong) > len(right) and len(wrong) >= 2:
        rows = len(wrong) if not right and len(wrong) >= WHOLE_COLUMN else 1
        return [Use(wrong[0], reached, held=False, rows=rows)]
    return []


def _is_transposed(table: Table) -> bool:
    """Whether the table runs across: its first row a symbol and the values of it (`| $i$ |
    1 | 17 | 33 |`), each row below a quantity at those values."""
    first = table.rows[0]
    numbers = sum(Printed.read(cell) is not None for cell in first[1:])
    return bool(INLINE_MATH.findall(first[0])) and 2 * numbers > len(first) - 1


def _transposed(table: Table) -> Table:
    """The table read down its columns: each row of it a column (its lines stay the
    table's: a cell's line is that of the row it stands in)."""
    rows = tuple(zip(*table.rows, strict=True))
    return Table(table.line, rows, (table.line,) * len(rows))


@dataclass(frozen=True)
class _Defined:
    """A header's quantity as the chapter defines it: the header, the notation, the
    header's tree and the names its definitions reach."""

    header: str
    notation: Notation
    tree: Node
    names: frozenset[str]


def _defined(notation: Notation, header: str) -> _Defined | None:
    """The header's quantity as the chapter's notation defines it (`b` of `b := 2^{e-1} -
    1`, `\\theta_i` of `\\theta_i := b^{-2(i-1)/d}`, `\\mathrm{SiLU}'(x)` of a defined
    SiLU); None when it names nothing the notation defines."""
    try:
        tree = parse(header)
    except TexError:
        return None
    if not tree_names(tree) & set(notation.definitions):
        return None
    return _Defined(header, notation, tree, frozenset(_reaching(tree, notation)))


def _reaching(tree: Node, notation: Notation) -> set[str]:
    """The names the tree uses, and those the definitions and settings it reaches use in
    turn ($u := \\varepsilon/2$ with $\\varepsilon = 2^{-m}$ set: m)."""

    def step(name: str) -> set[str]:
        definition = notation.definitions.get(name)
        if definition is not None:  # and the names of the forms it is worked out to
            return set().union(tree_names(definition.body), *map(tree_names, definition.worked))
        return tree_names(notation.settings[name]) if name in notation.settings else set()

    return closure(tree_names(tree), step)


def _judge_defined(
    column: Column, defined: _Defined, given: dict[str, Printed], printed: Printed
) -> tuple[Status, str] | None:
    """The cell against the chapter's definition of its header, at every corner of the
    printed inputs its definitions reach; None when the definition cannot be computed
    from what is given (a name it reaches that nothing sets)."""
    used = {n: v for n, v in given.items() if n in defined.names}
    inexact = [n for n in used if used[n].half][:CORNERS]
    values = []
    for signs in itertools.product((-1, 1), repeat=len(inexact)):
        at = {n: v.value for n, v in used.items()}
        for n, sign in zip(inexact, signs, strict=True):
            at[n] += sign * used[n].half
        value = _value_defined(defined, at)
        if value is None:
            return None
        values.append(value)
    return _within(values, printed, column, f"the chapter's definitions at {defined.header}")


def _value_defined(defined: _Defined, at: dict[str, Fraction]) -> Fraction | None:
    """The defined quantity with the names set to the values `at`; where a definition's
    body names what nothing sets (φ(k) := (L(kN, D/k) - L_opt)/R = β(k^{-α} - 1) + …), with
    the last form the definition is worked out to instead."""
    number = number_at(defined.notation, defined.tree, at)
    if number is None:
        worked = defined.notation.copy()
        for name in defined.names & set(worked.definitions):
            if worked.definitions[name].worked:
                definition = worked.definitions[name]
                worked.definitions[name] = replace(definition, body=definition.worked[-1])
        number = number_at(worked, defined.tree, at)
    return number


def number_at(notation: Notation, tree: Node, at: Mapping[str, Fraction]) -> Fraction | None:
    """The tree's value in the notation with the names set to the values `at`."""
    here = notation.copy()
    for name, value in at.items():
        here.settings[name] = Node("num", (sympy.Rational(value),))
    return _number(here, tree)


def _number(notation: Notation, tree: Node) -> Fraction | None:
    """The tree's value in the notation with the sizes it sets, if a real number."""
    try:
        value = notation.at(notation.set_sizes(), concrete=True)(tree)
        number = sympy.N(value, 30)
    except (TexError, TypeError, ValueError, ArithmeticError):
        return None
    if not isinstance(number, sympy.Number) or not number.is_real:
        return None
    return Fraction(str(number))


def decimal_columns(table: Table) -> dict[int, int]:
    """The columns with a decimal in some row, each with the fewest significant digits its
    decimals print: an integer among them (2294 beside 1987.3, 628.3) is rounded, not
    exact (printed_cell)."""
    fewest: dict[int, int] = {}
    for row in table.rows[1:]:
        for k, cell in enumerate(row):
            printed = Printed.read(cell)
            if printed is not None and printed.half:
                digits = significant_digits(cell)
                fewest[k] = min(fewest.get(k, digits), digits)
    return fewest


def printed_cell(text: str, rounded: Mapping[int, int], index: int = -1) -> Printed | None:
    """A cell's number; an integer in a column of `rounded`, to half a unit of its last
    digit, or, when it shows fewer significant digits than every decimal of the column,
    of the digit that many places in (1 beside 27.71 and 0.0361 is 1.00 with its zeros
    dropped: 0.995 to 1.005, where a column printed to three figures would have shown
    1.01 as such)."""
    cell = Printed.read(text)
    if cell is None or index not in rounded or cell.half or cell.value.denominator != 1:
        return cell
    digits = len(str(abs(cell.value.numerator)))
    if cell.value and digits < rounded[index]:
        return Printed(cell.value, Fraction(10**digits, 2 * 10 ** rounded[index]))
    return Printed(cell.value, Fraction(1, 2))


def _inputs(
    row: tuple[str, ...],
    nearest: dict[str, Column],
    settings: dict[str, Printed],
    key: Column,
    rounded: Mapping[int, int] = MappingProxyType({}),
) -> dict[str, Printed]:
    """What a header formula is computed from in a row: the settings before the table,
    and each column it names at its printed precision, but the row's key exactly when it
    labels the row, in the first column (the value the row is computed at: 0.99 is no
    0.985 to 0.995), and a name the row's label sets (「倍率なし、$\\sigma = 0.02$」). A name
    whose column holds no number in the row is none of the settings' there."""
    given = dict(settings)
    labelled = dict(_label_settings(row[0]))
    for name, c in nearest.items():
        cell = printed_cell(row[c.index], rounded, c.index)
        if cell is None and c is key:
            cell = _fraction(row[c.index])
        if cell is not None:
            exact = c is key and key.index == 0  # the row's label, not a value computed
            given[name] = Printed(cell.value * c.unit, Fraction(0) if exact else cell.half * c.unit)
        else:  # 「連続確保」 in the column of s: no s of the paragraph's is this row's
            given.pop(name, None)
    return given | labelled


def _label_settings(label: str) -> list[tuple[str, Printed]]:
    """The names a row's label sets to one number each (「倍率なし、$\\sigma = 0.02$（[5]）」)."""
    found = (_header_setting(math) for math in INLINE_MATH.findall(label))
    return [setting for setting in found if setting is not None]


def _fraction(text: str) -> Printed | None:
    """A key written as a fraction (`1/4`, `−1/2`): the exact value the row is at."""
    match = re.fullmatch(r"\s*\$?\s*([-−]?\d+)\s*/\s*([1-9]\d*)\s*\$?\s*", text)
    if match is None:
        return None
    numerator = int(match.group(1).replace("−", "-"))
    return Printed(Fraction(numerator, int(match.group(2))), Fraction(0))


def _shared(cols: list[Column]) -> set[str]:
    """The names two or more columns' headers are."""
    names = [symbol_name(c.symbol) for c in cols if c.symbol is not None]
    return {n for n in names if n is not None and names.count(n) > 1}


def _given_by(row: tuple[str, ...], nearest: dict[str, Column]) -> set[str]:
    """The names whose columns hold a number in the row (a fraction, as a key)."""
    return {
        name
        for name, c in nearest.items()
        if Printed.read(row[c.index]) is not None or _fraction(row[c.index]) is not None
    }


def _nearest_symbols(cols: list[Column], index: int) -> dict[str, Column]:
    """The columns a formula at `index` names, by symbol: of the columns with the same
    symbol, the nearest before it (a formula follows what it is made of), else after."""
    out: dict[str, Column] = {}
    before = sorted((c for c in cols if c.index < index), key=lambda c: -c.index)
    after = [c for c in cols if c.index > index]
    for c in [*before, *after]:
        name = symbol_name(c.symbol) if c.symbol is not None else None
        if name is not None and name not in out:
            out[name] = c
    return out


def _judge(
    column: Column, given: dict[str, Printed], printed: Printed, parts: Sequence[Column] = ()
) -> tuple[Status, str] | None:
    """The cell against the header's formula at every corner of its printed inputs; None
    when the formula cannot be computed from what is given. Where the formula holds
    another column's (`e^{-s^2}` in `ne^{-s^2}`), the cell is judged again with that
    column's cell in its place, rounded as printed: the exact value is within both
    ranges, and the second is often the narrower (`s` printed `1` stands for 0.5 to 1.5,
    `e^{-s^2}` printed 0.3679 for 0.36785 to 0.36795)."""
    assert column.formula is not None
    expr = _expression(column.formula, frozenset(given))
    if expr is None or not {str(s) for s in expr.free_symbols} <= set(given):
        return None
    source = column.source or f"its header's formula {column.formula}"
    verdict = _within(_corners(expr, given), printed, column, source)
    through, headers = expr, []
    for part in sorted(parts, key=lambda p: -len(p.formula or "")):
        shared = _expression(part.formula or "", frozenset(given))
        name = _part_name(part)
        if shared is None or shared.is_Atom or name not in given:
            continue
        replaced = through.subs(shared, sympy.Symbol(name))
        if replaced != through and not replaced.is_Symbol:
            through = replaced
            headers.append(part.header)
    if verdict[0] is Status.MISMATCHED or not headers:
        return verdict
    cells = "、".join(headers)
    return _within(_corners(through, given), printed, column, f"{source} with the cells of {cells}")


def _first_judged(
    columns: Sequence[Column], given: dict[str, Printed], printed: Printed, parts: Sequence[Column]
) -> tuple[Status, str] | None:
    """The first of the column's readings that can be computed from what is given."""
    for column in columns:
        verdict = _judge(column, given, printed, parts)
        if verdict is not None:
            return verdict
    return None


def _part_name(column: Column) -> str:
    """The name a column's cell takes in another column's formula that holds its own."""
    return f"part_{column.index}"


def _parts(column: Column, cols: list[Column], key: Column) -> list[Column]:
    """The columns whose formula another column's may hold: every other column with a
    formula that is no application (those are read through _through_columns)."""
    return [
        c
        for c in cols
        if c is not column and c is not key and c.formula and not _CALL.fullmatch(c.formula)
    ]


def _part_values(
    parts: list[Column], row: tuple[str, ...], rounded: Mapping[int, int]
) -> dict[str, Printed]:
    """Each part's cell in the row, in its column's unit."""
    out = {}
    for part in parts:
        cell = printed_cell(row[part.index], rounded, part.index)
        if cell is not None:
            out[_part_name(part)] = Printed(cell.value * part.unit, cell.half * part.unit)
    return out


@functools.lru_cache(maxsize=1 << 10)
def _expression(formula: str, given: frozenset[str]) -> sympy.Expr | None:
    """A header's formula in the open notation (k(T - C): a product when k is given)."""
    try:
        expr = OpenEvaluator(given)(parse(formula))
    except (TexError, TypeError, ValueError, ArithmeticError):
        return None
    return expr if isinstance(expr, sympy.Expr) else None


def _corners(expr: sympy.Expr, given: dict[str, Printed]) -> list[Fraction]:
    """The expression's values at every corner of its inputs' rounding (the first
    CORNERS inexact ones; the others at their printed values). Each input is a float of
    CORNER_DIGITS digits (exact, 0.999^{10000} under a square root is a rational of tens of
    thousands of digits that SymPy tries to factor), but an exact rational where the
    expression jumps (⌊8d/3⌋ at d = 768 is 2048, which a float a hair below would floor to
    2047)."""
    names = {str(s): s for s in expr.free_symbols}
    inexact = [n for n in names if given[n].half][:CORNERS]
    jumps = bool(expr.atoms(sympy.floor, sympy.ceiling, sympy.frac, sympy.Mod, sympy.Piecewise))
    values = []
    for signs in itertools.product((-1, 1), repeat=len(inexact)):
        at = {names[n]: given[n].value for n in names}
        for n, sign in zip(inexact, signs, strict=True):
            at[names[n]] = given[n].value + sign * given[n].half
        put = {
            s: sympy.Rational(v) if jumps else sympy.Float(sympy.Rational(v), CORNER_DIGITS)
            for s, v in at.items()
        }
        values.append(Fraction(str(sympy.N(expr.xreplace(put), 30))))
    return values


CORNER_DIGITS = 60  # of each input at a corner: an integer to 10^60 stays exact


def _within(
    values: list[Fraction], printed: Printed, column: Column, source: str
) -> tuple[Status, str]:
    """A cell against the values its inputs' corners give: confirmed when its rounding
    meets their range."""
    low, high = min(values), max(values)
    cell = printed.value * column.unit
    half = printed.half * column.unit
    if low - half <= cell <= high + half:
        return Status.CONFIRMED, f"as {source} gives"
    nearest = (low if cell < low else high) / column.unit
    return Status.MISMATCHED, (
        f"{source} gives {shown_value(nearest)} here "
        "(with the table's and its paragraph's printed values)"
    )


def shown_value(value: Fraction) -> str:
    """A computed value as a finding prints it: an integer whole, else six digits."""
    return f"{value.numerator:,}" if value.denominator == 1 else f"{float(value):.6g}"


@dataclass(frozen=True)
class Reproduced:
    """A cell of a table and the number a produced line prints for it."""

    line: int  # the table row's line
    text: str  # `header: cell (row key)`
    printed: Printed
    value: str  # what the produced line prints
    at: int  # the produced line's line in the chapter

    @property
    def agrees(self) -> bool:
        return _agrees(self.printed, self.value)


def reproduced_cells(table: Table, produced: Sequence[tuple[int, str]]) -> list[Reproduced]:
    """Each number of the table's rows that a produced line prints too: the line starting
    with the row's key whose numbers agree with most of the row's."""
    out = []
    for row, line in zip(table.rows[1:], table.row_lines[1:], strict=True):
        # a percentage or a power of ten is printed otherwise by a listing (0.275, 1.75e-46):
        # it holds its place in the line, but is not compared
        numbers = [(k, p) for k, c in enumerate(row) if (p := Printed.read(c)) is not None]
        plain = {k for k, _ in numbers if _as_printed(row[k])}
        if len(plain) < 3 or numbers[0][0] != 0 or 0 not in plain:
            continue
        best = _printing_line(numbers, produced, plain)
        if best is None:
            continue
        at, values = best
        for (k, printed), value in zip(numbers, values, strict=False):
            # a number the row holds in another column: the listing may print its columns
            # in another order (「-beta*Var」 where the table has dH/dτ), so it is not compared
            elsewhere = value is not None and any(
                j != k and j in plain and _agrees(other, value) for j, other in numbers
            )
            if value is not None and k in plain and (_agrees(printed, value) or not elsewhere):
                text = f"{table.rows[0][k].strip()}: {row[k].strip()} (row {row[0].strip()})"
                out.append(Reproduced(line, text, printed, value, at))
    return out


def audit_reproduced_rows(table: Table, produced: Sequence[tuple[int, str]]) -> list[Finding]:
    """The rows of the table that a listing's output line prints, number by number: each
    cell the listing prints otherwise is a mismatch."""
    return [
        Finding(
            Section.TABLE,
            cell.line,
            cell.text,
            Status.MISMATCHED,
            f"the chapter's listing prints {cell.value} here (its output, line {cell.at})",
            code=PRINTED_ROW.code,
        )
        for cell in reproduced_cells(table, produced)
        if not cell.agrees
    ]


def _as_printed(cell: str) -> bool:
    """Whether a cell is a plain number a listing prints as it is."""
    return _PERCENT.fullmatch(cell.strip()) is None and _SCALED.fullmatch(cell.strip()) is None


def _printing_line(
    numbers: list[tuple[int, Printed]], produced: Sequence[tuple[int, str]], plain: set[int]
) -> tuple[int, list[str | None]] | None:
    """The produced line printing the row: its first number the row's key, and more than
    half of the row's other `plain` numbers (the columns compared) agreeing in order; with
    the number printed for each of the row's (None where the line has none left)."""
    key = numbers[0][1]
    for line, text in produced:
        found = _IN_TEXT.findall(text)
        if not found or not _agrees(key, found[0]):
            continue
        values: list[str | None] = [
            found[k] if k < len(found) else None for k in range(len(numbers))
        ]
        agreeing = sum(
            v is not None and k in plain and _agrees(p, v)
            for (k, p), v in zip(numbers[1:], values[1:], strict=True)
        )
        if agreeing * 2 > len(plain) - 1:
            return line, values
    return None


def _agrees(printed: Printed, produced: str) -> bool:
    try:
        value = Fraction(produced)
    except ValueError:
        return False
    return abs(value - printed.value) <= printed.half + _half_of(produced)


def _half_of(text: str) -> Fraction:
    mantissa = text.lower().partition("e")[0]
    decimals = len(mantissa.partition(".")[2])
    return Fraction(1, 2 * 10**decimals) if decimals else Fraction(0)


@dataclass(frozen=True)
class FormulaCell:
    """A cell of a column whose header holds a formula: the formula's value at the row's
    printed inputs taken as printed, and whether the printed cell agrees with the formula
    at some choice of its inputs within their rounding (as the audit judges it)."""

    row: int  # the index of the row in the table's rows (1: the first under the header)
    column: int
    value: Fraction
    agrees: bool


def formula_cells(document: Document, table: Table) -> list[FormulaCell]:
    """Every cell of the table that a column's header formula computes from what the
    table and the paragraphs before it print (see audit_table_content), row by row."""
    cols = columns(table)
    key = next((c for c in cols if c.symbol is not None), None)
    if key is None:
        return []
    cols = _stated(cols, formulas_before(document, table), key)
    settings = settings_before(document, table)
    out = []
    for column in cols:
        if column.formula is None:
            continue
        nearest = _nearest_symbols(cols, column.index)
        for k, row in enumerate(table.rows[1:], 1):
            given = _inputs(row, nearest, {**settings, **dict(column.settings)}, key)
            printed = Printed.read(row[column.index])
            value = _value_at(column, given)
            if printed is None or value is None:
                continue
            verdict = _judge(column, given, printed)
            agrees = verdict is not None and verdict[0] is Status.CONFIRMED
            out.append(FormulaCell(k, column.index, value / column.unit, agrees))
    return out


def _value_at(column: Column, given: dict[str, Printed]) -> Fraction | None:
    """The header's formula at the given values as printed (None when it names anything
    they do not give, or is not a number there)."""
    assert column.formula is not None
    expr = _expression(column.formula, frozenset(given))
    if expr is None or not {str(s) for s in expr.free_symbols} <= set(given):
        return None
    at = {s: sympy.Rational(given[str(s)].value) for s in expr.free_symbols}
    value = expr.subs(at)
    if value.is_Rational:
        return Fraction(int(value.p), int(value.q))
    return Fraction(str(sympy.N(value, 30))) if value.is_real else None
