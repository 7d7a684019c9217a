"""A table's rows against each other and against what the chapter's listings print, for
tables no package regenerates.

- A totals row (its first cell 計, 合計, 総計, total) is the sum of the rows above it:
  a column of integers whose rows do not sum to its total is an error, the sum its
  witness; a column of decimals (a ratio's total need not be a sum) is judged only when
  another column's total is that column's sum, and is then a warning.
- A column that every row but one computes from other columns the same way — a ratio, a
  product, a sum or a difference of two columns, or a fixed multiple of one, a fixed
  number over one or one moved by a fixed number — has a slip in that row (in it, or in
  a cell it is computed from): a warning, since the text states no such relation; judged
  only on tables of at least MIN_ROWS rows, or MIN_NAMED_ROWS when the header says which
  relation (比: a ratio or a multiple; 合計: a sum).
- The columns of one vector's components ($q_1$, $q_2$, …, from 1) that sum to one
  number on every row but one (a distribution's 1): that row is a slip, a warning.
- A column headed by a unit of bytes alone (MiB, GiB, …) right after a column of bytes
  (its header says バイト) is that column over the unit's 1024^k or 1000^k: a row where it
  is not is an error, the quotient its witness, when two other rows at least hold (they
  confirm which column of bytes the unit's is) and no other row fails.
- A row that the chapter's printed output of a listing prints too (the line starting with
  the row's key, most of its other numbers alike), differs from it number by number: two
  printed numbers that cannot both be right, a warning at both lines (a run of the
  listing, `--run-listings`, says which one is).

Two printed numbers agree when the intervals of their printed precision meet.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from fractions import Fraction

from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.audit.rules.prose import UNITS
from proofs.audit.rules.table_content import Printed, reproduced_cells
from proofs.reader import Document
from proofs.reader.math import INLINE_MATH
from proofs.reader.records import Table

_HEAD = '# 見本\n\n<Remark id="rem-parts" title="部分">\n\n部分を数えます。\n\n</Remark>\n\n'
_TOTALS = _HEAD + (
    "| 部分 | 個数 | 割合 |\n|---|---|---|\n| 埋め込み | 40 | 0.40 |\n| ブロック | 52 | 0.52 |\n"
    "| 最後 | 8 | 0.08 |\n| 計 | {} | {} |\n"
)
EXACT_TOTAL = Rule(
    "TAB201",
    "table-total",
    Section.TABLE,
    Severity.ERROR,
    "A totals row (計, 合計, 総計, total) of a column of integers is the sum of the rows "
    "above it (or of all but one, a row the next ones repeat), when another column's total "
    "confirms that the row is a sum; the rows' sum is the witness.",
    Example(_TOTALS.format("101", "1.00")),
    Example(_TOTALS.format("100", "1.00")),
)
UNCONFIRMED_TOTAL = Rule(
    "TAB202",
    "table-total-unconfirmed",
    Section.TABLE,
    Severity.WARNING,
    "A totals row's cell is the sum of the rows above it also where TAB201 cannot tell "
    "the row is a sum (a column of decimals, or no other column's total is its rows' sum): "
    "a warning, since a ratio's total need be no sum.",
    Example(_TOTALS.format("100", "0.80")),
    Example(_TOTALS.format("100", "1.00")),
)
_RATIOS = _HEAD + (
    "| $n$ | 左 | 右 | 比 |\n|---|---|---|---|\n| 1 | 10 | 20 | 0.50 |\n| 2 | 30 | 40 | 0.75 |\n"
    "| 3 | 50 | 40 | 1.25 |\n| 4 | 70 | 80 | 0.88 |\n| 5 | 90 | 60 | {} |\n"
)
COLUMN_RELATION = Rule(
    "TAB203",
    "table-column-relation",
    Section.TABLE,
    Severity.WARNING,
    "A column that every row but one computes from other columns the same way (a ratio, "
    "product, sum or difference of two, a fixed multiple of one, a fixed number over one, "
    "one moved by a fixed number) holds in that row too, in a table of at least MIN_ROWS "
    "rows besides its totals (MIN_NAMED_ROWS when its header says 比 or 合計): a warning, "
    "since the text states no such relation.",
    Example(_RATIOS.format("1.05")),
    Example(_RATIOS.format("1.50")),
)
_PRINTED = _HEAD + (
    "| $n$ | 積 | 和 | 差 |\n|---|---|---|---|\n| 2 | 40 | 22 | 18 |\n| 3 | 60 | {} | 17 |\n\n"
    "```python\nfor n in (2, 3):\n    print(n, 20 * n, 20 + n, 20 - n)\n```\n\n"
    "```text\n2 40 22 18\n3 60 23 17\n```\n"
)
PRINTED_OUTPUT_ROW = Rule(
    "TAB204",
    "table-row-the-printed-output-prints",
    Section.TABLE,
    Severity.WARNING,
    "A table row that the output the chapter prints for a listing prints too (the line "
    "starting with the row's key, most of its other numbers alike) has that line's "
    "numbers; a number that differs is a warning at both lines, one of the two being wrong.",
    Example(_PRINTED.format("32")),
    Example(_PRINTED.format("23")),
)
_COMPONENTS = _HEAD + (
    "| $T$ | $q_1$ | $q_2$ | $q_3$ |\n|---|---|---|---|\n| 0.5 | 0.8420 | 0.1140 | 0.0440 |\n"
    "| 1 | 0.6652 | 0.2447 | 0.0901 |\n| 2 | 0.5065 | 0.3072 | 0.1863 |\n"
    "| 4 | 0.4223 | 0.3289 | 0.2488 |\n| 8 | 0.3809 | {} | 0.2861 |\n"
)
COMPONENTS_SUM = Rule(
    "TAB205",
    "table-components-sum",
    Section.TABLE,
    Severity.WARNING,
    "The columns of one vector's components ($q_1$, $q_2$, …, from 1, three at least) sum "
    "to one number on every row but one, in a table of at least MIN_ROWS rows: that row's "
    "sum is the same number too (a distribution's components sum to 1). A warning, since "
    "the text does not say the rows sum to it.",
    Example(_COMPONENTS.format("0.3303")),
    Example(_COMPONENTS.format("0.3330")),
)
_BYTES = _HEAD + (
    "| 形式 | バイト数 | MiB |\n|---|---|---|\n| float32 | 497,759,232 | 474.7 |\n"
    "| bfloat16 | 248,879,616 | {} |\n| int8 | 124,439,808 | 118.7 |\n"
)
BYTES_COLUMN = Rule(
    "TAB206",
    "table-bytes-in-a-larger-unit",
    Section.TABLE,
    Severity.ERROR,
    "A column headed by a unit of bytes alone (KiB, MiB, GiB, TiB; KB, MB, GB, TB) right "
    "after a column whose header says バイト is that column over 1024^k (or 1000^k) at the "
    "printed precision, in every row: the quotient is the witness. Judged when two other "
    "rows at least hold and no other row fails (which column of bytes it is, they confirm).",
    Example(_BYTES.format("273.4")),
    Example(_BYTES.format("237.4")),
)
RULES = (
    EXACT_TOTAL,
    UNCONFIRMED_TOTAL,
    COLUMN_RELATION,
    PRINTED_OUTPUT_ROW,
    COMPONENTS_SUM,
    BYTES_COLUMN,
)

MIN_ROWS = 4  # rows a relation between columns must hold in before another row is a slip
MIN_OFFSET_DIGITS = 3  # of the integers a column moved by a fixed number is judged on
MIN_NAMED_ROWS = 3  # the same, for a column whose header says which relation it is
TOTALS = ("計", "合計", "総計", "total", "Total", "sum", "Sum")

Relation = tuple[str, Callable[[Fraction, Fraction], Fraction | None]]
_RELATIONS: tuple[Relation, ...] = (
    ("the ratio", lambda a, b: a / b if b else None),
    ("the product", lambda a, b: a * b),
    ("the sum", lambda a, b: a + b),
    ("the difference", lambda a, b: a - b),
)
# the words of a header that say which relation its column is: 比 a ratio, 合計 a sum
NAMED_RELATIONS: tuple[tuple[tuple[str, ...], Relation], ...] = (
    (("比", "倍", "ratio", "Ratio"), _RELATIONS[0]),
    (("合計", "総計", "総和", "の和", "total", "Total", "sum", "Sum"), _RELATIONS[2]),
)


def audit_table_rows(document: Document, table: Table) -> list[Finding]:
    """The totals row, the relations between columns, and the rows a listing's printed
    output prints too."""
    return [
        *_totals(table),
        *_inferred(table),
        *_against_printed_output(document, table),
        *_components_sum(table),
        *_in_larger_units(table),
    ]


def _totals(table: Table) -> list[Finding]:
    body = table.rows[1:]
    if len(body) < 3 or body[-1][0].strip() not in TOTALS:
        return []
    line, last = table.row_lines[-1], body[-1]
    verdicts: dict[int, tuple[Printed, str, str]] = {}  # column -> total, how summed, why not
    for k in range(1, len(table.rows[0])):
        total = Printed.read(last[k])
        rows = [(row[0].strip(), Printed.read(row[k])) for row in body[:-1]]
        numbers = [(key, c) for key, c in rows if c is not None]
        if total is not None and len(numbers) >= 2:
            verdicts[k] = (total, *_summed(total, numbers))
    summing = {k for k, (_, said, _) in verdicts.items() if said}
    out = []
    for k, (total, said, sums) in verdicts.items():
        text = f"{table.rows[0][k].strip()}: {last[k].strip()} (row {last[0].strip()})"
        # an error when the total is exact and another column's total is its rows' sum
        # (this row is a sum's); else a warning: a ratio's total need be no sum
        rule = EXACT_TOTAL if not total.half and summing - {k} else UNCONFIRMED_TOTAL
        status, detail = (
            (Status.CONFIRMED, said)
            if said
            else (Status.MISMATCHED, f"{sums}, not {last[k].strip()}")
        )
        out.append(Finding(Section.TABLE, line, text, status, detail, code=rule.code))
    return out


def _summed(total: Printed, numbers: list[tuple[str, Printed]]) -> tuple[str, str]:
    """(how the total is its rows' sum, "") or ("", what they sum to): the sum of every
    row, or of every row but one (a row the next ones repeat: 「ブロック 1 つ」 before
    「12 ブロック」)."""
    low = sum((c.value - c.half for _, c in numbers), Fraction(0))
    high = sum((c.value + c.half for _, c in numbers), Fraction(0))
    if _within(total, low, high):
        return "the sum of its rows", ""
    for key, c in numbers:
        if _within(total, low - c.value - c.half, high - c.value + c.half):
            return f"the sum of its rows but {key}", ""
    shown = _shown(low) if low == high else f"{_shown(low)} to {_shown(high)}"
    return "", f"the rows above it sum to {shown}"


def _within(total: Printed, low: Fraction, high: Fraction) -> bool:
    return low - total.half <= total.value <= high + total.half


# a header that is a unit of bytes and nothing else: 「MiB」「（GiB）」
_UNIT_HEADER = re.compile(r"[（(]?\s*(?P<unit>[KMGT]i?B)\s*[）)]?")
_OF_BYTES = ("バイト", "bytes", "Bytes")
MIN_UNIT_ROWS = 2  # rows that hold, confirming which column of bytes a unit's column is


def _in_larger_units(table: Table) -> list[Finding]:
    """The row whose amount in a larger unit is not its bytes over the unit."""
    header, out = table.rows[0], []
    for c in range(1, len(header)):
        unit = _UNIT_HEADER.fullmatch(header[c].strip())
        if unit is None or not any(word in header[c - 1] for word in _OF_BYTES):
            continue
        power = UNITS[unit.group("unit")]
        in_unit = _scaled(Fraction(1, power))
        rows = [
            (amount, larger, row, line)
            for row, line in zip(table.rows[1:], table.row_lines[1:], strict=True)
            if (amount := Printed.read(row[c - 1])) is not None
            and (larger := Printed.read(row[c])) is not None
        ]
        failing = [
            (amount, larger, row, line)
            for amount, larger, row, line in rows
            if not _holds(in_unit, amount, amount, larger)
        ]
        if len(failing) != 1 or len(rows) - 1 < MIN_UNIT_ROWS:
            continue
        amount, _, row, line = failing[0]
        low, high = (amount.value - amount.half) / power, (amount.value + amount.half) / power
        shown = _shown(low) if low == high else f"{_shown(low)} to {_shown(high)}"
        out.append(
            Finding(
                Section.TABLE,
                line,
                f"{header[c].strip()}: {row[c].strip()} (row {row[0].strip()})",
                Status.MISMATCHED,
                f"{row[c - 1].strip()} バイト over {power:,} is {shown}, not {row[c].strip()} "
                f"(every other row's {header[c].strip()} is its bytes over {power:,})",
                code=BYTES_COLUMN.code,
            )
        )
    return out


def _rows_but_totals(table: Table) -> tuple[list[tuple[str, ...]], list[int]]:
    """The rows under the header but a totals row, and their lines."""
    kept = [
        (row, line)
        for row, line in zip(table.rows[1:], table.row_lines[1:], strict=True)
        if row[0].strip() not in TOTALS
    ]
    return [row for row, _ in kept], [line for _, line in kept]


def _inferred(table: Table) -> list[Finding]:
    """Each column that a relation with other columns gives in every row but one."""
    body, lines = _rows_but_totals(table)
    if len(body) < MIN_NAMED_ROWS + 1:
        return []
    grid = [[Printed.read(cell) for cell in row] for row in body]
    width = len(table.rows[0])
    slipped: dict[int, tuple[int, str]] = {}  # row -> (column, the relation): one a row
    for c in range(1, width):
        if any(row[c] is None for row in grid):
            continue
        if _constant_but_one([row[c] for row in grid]):  # type: ignore[misc]
            continue  # 100.0 on four rows: any column near 0 is it moved, by nothing it says
        named = _named_relations(table.rows[0][c])
        if len(body) >= MIN_ROWS + 1:
            found = _explained(grid, c, width)
        elif named:  # 「比」「合計」: of which columns, the other rows say
            found = _explained(grid, c, width, named, constants=_RELATIONS[0] in named)
        else:
            continue
        if found is not None:
            what, outlier = found
            slipped.setdefault(outlier, (c, what))
    return [
        Finding(
            Section.TABLE,
            lines[r],
            f"{table.rows[0][c].strip()}: {body[r][c].strip()} (row {body[r][0].strip()})",
            Status.MISMATCHED,
            f"every other row prints {what}; this row does not (this cell, or one it "
            "is computed from, slipped)",
            code=COLUMN_RELATION.code,
        )
        for r, (c, what) in sorted(slipped.items())
    ]


# a header that is one component of a vector: $q_1$, $p_{2}$, $\\pi_3$
_COMPONENT = re.compile(r"\$\s*(?P<base>\\?[A-Za-z]+)_\{?(?P<index>\d+)\}?\s*\$")


def _components_sum(table: Table) -> list[Finding]:
    """The row whose components of one vector do not sum to the number all others do."""
    body, lines = _rows_but_totals(table)
    if len(body) < MIN_ROWS + 1:
        return []
    vectors: dict[str, dict[int, int]] = {}  # base -> index -> column
    for c, header in enumerate(table.rows[0]):
        match = _COMPONENT.fullmatch(header.strip())
        if match is not None:
            vectors.setdefault(match.group("base"), {})[int(match.group("index"))] = c
    out = []
    for base, found in vectors.items():
        if len(found) < 3 or sorted(found) != list(range(1, len(found) + 1)):
            continue
        spans = []
        for row in body:
            cells = [Printed.read(row[c]) for c in found.values()]
            if any(cell is None for cell in cells):
                break
            spans.append(
                (
                    sum((x.value - x.half for x in cells if x is not None), Fraction(0)),
                    sum((x.value + x.half for x in cells if x is not None), Fraction(0)),
                )
            )
        else:
            out += _one_row_off(table, base, len(found), body, lines, spans)
    return out


def _one_row_off(
    table: Table,
    base: str,
    size: int,
    body: list[tuple[str, ...]],
    lines: list[int],
    spans: list[tuple[Fraction, Fraction]],
) -> list[Finding]:
    """A mismatch at the one row whose sum misses the number every other row's admits."""
    for r in range(len(spans)):
        kept = spans[:r] + spans[r + 1 :]
        low, high = max(lo for lo, _ in kept), min(hi for _, hi in kept)
        if low > high:
            continue
        if low <= spans[r][1] and spans[r][0] <= high:
            return []  # every row admits one sum
        total = (low + high) / 2
        return [
            Finding(
                Section.TABLE,
                lines[r],
                f"{base}_1 … {base}_{size} (row {body[r][0].strip()})",
                Status.MISMATCHED,
                f"every other row's components sum to {_shown(total)}; this row's sum to "
                f"{_shown(spans[r][0])} to {_shown(spans[r][1])} (one of them slipped)",
                code=COMPONENTS_SUM.code,
            )
        ]
    return []


def _constant_but_one(cells: list[Printed]) -> bool:
    """Whether every cell but one stands for one value within its rounding."""
    for left_out in range(len(cells)):
        kept = [x for k, x in enumerate(cells) if k != left_out]
        if max(x.value - x.half for x in kept) <= min(x.value + x.half for x in kept):
            return True
    return False


def _named_relations(header: str) -> tuple[Relation, ...]:
    """The relations a header says its column is: a ratio (比, 倍), a sum (合計, 和)."""
    return tuple(
        relation
        for words, relation in NAMED_RELATIONS
        if any(word in INLINE_MATH.sub("", header) for word in words)
    )


def _explained(
    grid: list[list[Printed | None]],
    c: int,
    width: int,
    relations: tuple[Relation, ...] = (),
    constants: bool = True,
) -> tuple[str, int] | None:
    """(what relates column c to others, the one row it fails in) when some relation holds
    in every row but exactly one; None when none does. `relations`: only these, between
    two columns (a header said which kind); by default every relation of two columns.
    With `constants`, a fixed multiple of one column, and by default a column plus a
    fixed number, too."""
    others = [
        k
        for k in range(width)
        if k != c and all(row[k] is not None and row[k].value for row in grid)  # type: ignore[union-attr]
    ]
    if any(row[c].value == 0 for row in grid):  # type: ignore[union-attr]
        return None  # a column with zeros is too easily some relation of others
    candidates: list[tuple[str, Callable[[Fraction, Fraction], Fraction | None], int, int]] = [
        (f"{name} of columns {a + 1} and {b + 1} here", relation, a, b)
        for a, b in itertools.permutations(others, 2)
        for name, relation in relations or _RELATIONS
    ]
    for a in others if constants else ():
        pairs = [(row[a], row[c]) for row in grid]
        factor = _constant(pairs, _RATIO_SPAN)  # type: ignore[arg-type]
        if factor is not None and factor not in (0, 1):
            candidates.append(
                (f"{_shown(factor)} times column {a + 1} here", _scaled(factor), a, a)
            )
        if relations:
            continue
        offset = _constant(pairs, _DIFFERENCE_SPAN)  # type: ignore[arg-type]
        if offset:
            candidates.append((f"column {a + 1} plus {_shown(offset)} here", _moved(offset), a, a))
        product = _constant(pairs, _PRODUCT_SPAN)  # type: ignore[arg-type]
        if product:
            candidates.append((f"{_shown(product)} over column {a + 1} here", _over(product), a, a))
    slip = None
    for what, relation, a, b in candidates:
        failing = list(
            itertools.islice(  # two rows that fail are as many as all: no slip, no relation
                (r for r, row in enumerate(grid) if not _holds(relation, row[a], row[b], row[c])),
                2,
            )
        )
        if not failing:
            return None  # a relation every row holds: the column is what it computes
        if len(failing) == 1 and slip is None:
            slip = what, failing[0]
    return slip


def _scaled(factor: Fraction) -> Callable[[Fraction, Fraction], Fraction | None]:
    return lambda x, _: x * factor


def _moved(offset: Fraction) -> Callable[[Fraction, Fraction], Fraction | None]:
    return lambda x, _: x + offset


def _over(product: Fraction) -> Callable[[Fraction, Fraction], Fraction | None]:
    return lambda x, _: product / x if x else None


Span = Callable[[Printed, Printed], tuple[Fraction, Fraction] | None]


def _ratio_span(x: Printed, y: Printed) -> tuple[Fraction, Fraction] | None:
    """The factors f with y = f x within the printed rounding, for an exact positive x
    and a positive y (a rounded x makes too wide a span to tell a slip)."""
    if x.half or x.value <= 0 or y.value - y.half <= 0:
        return None
    return (y.value - y.half) / x.value, (y.value + y.half) / x.value


def _difference_span(x: Printed, y: Printed) -> tuple[Fraction, Fraction] | None:
    """The numbers k with y = x + k within the printed rounding, unless x or y is a
    small integer (counts 1 to 8 are too easily one another moved) or a decimal of one
    significant digit (0.5 stands for 0.45 to 0.55: 0.53125, 0.5625 and 0.59375 are all
    it moved by 0.048)."""
    if _small_integer(x) or _small_integer(y) or _one_digit(x) or _one_digit(y):
        return None
    return y.value - y.half - x.value - x.half, y.value + y.half - x.value + x.half


def _one_digit(number: Printed) -> bool:
    """A rounded number whose rounding is more than a twentieth of it: one significant
    digit."""
    return bool(number.half) and number.half * 20 > abs(number.value)


def _small_integer(number: Printed) -> bool:
    """An exact integer of fewer than MIN_OFFSET_DIGITS digits besides its trailing zeros."""
    value = number.value
    digits = str(abs(value.numerator)).rstrip("0")
    return not number.half and value.denominator == 1 and len(digits) < MIN_OFFSET_DIGITS


def _product_span(x: Printed, y: Printed) -> tuple[Fraction, Fraction] | None:
    """The numbers k with y = k / x within the printed rounding, for positive x and y
    other than small integers."""
    if _small_integer(x) or _small_integer(y) or x.value - x.half <= 0 or y.value - y.half <= 0:
        return None
    return (x.value - x.half) * (y.value - y.half), (x.value + x.half) * (y.value + y.half)


_RATIO_SPAN: Span = _ratio_span
_PRODUCT_SPAN: Span = _product_span
_DIFFERENCE_SPAN: Span = _difference_span


def _constant(pairs: list[tuple[Printed, Printed]], span: Span) -> Fraction | None:
    """A constant that every pair (x, y) but at most one admits within its printed
    rounding (the exact one most rows give, when every row is exact; else the middle of
    those the rows admit), when x is a column that varies (a constant column makes any
    almost constant one its multiple, or itself moved); None otherwise."""
    if len({x.value for x, _ in pairs}) < MIN_ROWS - 1:
        return None
    spans = [span(x, y) for x, y in pairs]
    if any(s is None for s in spans):
        return None
    exact = [lo for lo, hi in spans if lo == hi]  # type: ignore[misc]
    if len(exact) == len(spans):
        best = max(set(exact), key=exact.count)
        return best if exact.count(best) >= len(exact) - 1 else None
    for left_out in (None, *range(len(spans))):
        kept = [s for k, s in enumerate(spans) if k != left_out]
        low, high = max(lo for lo, _ in kept), min(hi for _, hi in kept)  # type: ignore[misc]
        if low <= high:
            return (low + high) / 2
    return None


def _holds(
    relation: Callable[[Fraction, Fraction], Fraction | None],
    a: Printed | None,
    b: Printed | None,
    c: Printed | None,
) -> bool:
    """Whether c is relation(a, b) for some a, b, c within their printed rounding (the
    corners of a's and b's intervals bound the relation's values; it is monotone in each)."""
    assert a is not None and b is not None and c is not None
    values = []
    for x, y in itertools.product(
        (a.value - a.half, a.value + a.half), (b.value - b.half, b.value + b.half)
    ):
        value = relation(x, y)
        if value is None:
            return True  # undefined at a corner: nothing to judge
        values.append(value)
    return min(values) - c.half <= c.value <= max(values) + c.half


def _against_printed_output(document: Document, table: Table) -> list[Finding]:
    """The table's rows against the output lines the chapter prints for its listings:
    a warning at the table's row and one at the output line, for each number that differs."""
    printed = [
        (listing.output_line + k, text)
        for listing in document.listings
        if listing.output_line
        for k, text in enumerate(listing.output)
    ]
    if not printed:
        return []
    out = []
    for cell in reproduced_cells(table, printed):
        if cell.agrees:
            continue
        out.append(
            Finding(
                Section.TABLE,
                cell.line,
                cell.text,
                Status.MISMATCHED,
                f"the output printed for the chapter's listing has {cell.value} here "
                f"(line {cell.at}): one of the two is wrong",
                code=PRINTED_OUTPUT_ROW.code,
            )
        )
        out.append(
            Finding(
                Section.OUTPUT,
                cell.at,
                cell.value,
                Status.MISMATCHED,
                f"the table's row at line {cell.line} prints {cell.text}: one of the two is wrong",
                code=PRINTED_OUTPUT_ROW.code,
            )
        )
    return out


def _shown(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.6g}"
