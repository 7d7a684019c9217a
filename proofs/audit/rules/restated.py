"""Numbers a chapter prints in two places: they must agree.

A value worked out once is printed again: a table cell read in the prose, an example's
result in its exercise's solution, a listing's output quoted in the text, a count in the
chapter's summary. The chapter's decimal numbers and its integers of three digits or more
(in math, prose, tables and printed output, markup aside; in what its listings printed
when they ran) are compared at the coarser of two precisions: 0.62853 and 0.6285 agree.
Which printed numbers are the same quantity the text does not say, so a number is taken
for a restatement when it is another with two neighbouring digits swapped, the commonest
slip of typing (0.8240 for 0.8420, 586 for 568; same number of digits and decimals, at
least SIGNIFICANT of them, INTEGER_SIGNIFICANT for an integer), is printed nowhere else
(at any precision), and the other is printed at least twice, or by a listing that ran:
the number printed once is the slip. A pair each printed once is left alone (either
could be the slip, or neither), and so are numbers one digit apart, which chapters print
side by side on purpose (a probability and its Monte Carlo estimate, 0.6095 and 0.6098).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.book.printed import ungrouped
from proofs.reader import Document
from proofs.reader.records import LABELS
from proofs.tex.tokens import printed_numbers

_TWICE = (
    '# 見本\n\n<Remark id="rem-share" title="割合">\n\n割合は 0.8420 です。\n\n</Remark>\n\n'
    "表にすると 0.8420 です。\n\nまとめ：割合は {} でした。\n"
)
SWAPPED = Rule(
    "RST001",
    "restated-with-digits-swapped",
    Section.RESTATED,
    Severity.WARNING,
    "A number printed once that is another, printed at least twice, with two neighbouring "
    "digits swapped (0.8240 for 0.8420) is that number mistyped.",
    Example(_TWICE.format("0.8240")),
    Example(_TWICE.format("0.8420")),
)
_TUPLED = (
    '# 見本\n\n<Remark id="rem-weights" title="重み">\n\n重みを並べます。\n\n</Remark>\n\n'
    "| 1 | 2 | 3 |\n|---|---|---|\n| 0.6095 | 0.2242 | 0.1360 |\n\n"
    "重みは $({})$ です。\n"
)
TUPLE = Rule(
    "RST002",
    "restated-tuple",
    Section.RESTATED,
    Severity.WARNING,
    "A tuple the prose prints that a table row or an output line prints too, in order, but "
    "for one number: that number is the slip.",
    Example(_TUPLED.format("0.6095,\\ 0.2224,\\ 0.1360")),
    Example(_TUPLED.format("0.6095,\\ 0.2242,\\ 0.1360")),
)
RULES = (SWAPPED, TUPLE)


# a decimal number with a point, its digits grouped or not (12.1239, 1,234.5, 1{,}234.5)
# (a mantissa too: 4.941 of the output's 4.941e-4, which a table prints in units of 10^-4)
_END = r"(?:(?![\w.])|(?=e[-+]?\d))"
_DECIMAL = re.compile(
    rf"(?<![\w.,{{}}])-?\d{{1,3}}(?:(?:,|\{{,\}})\d{{3}})*\.\d+{_END}|(?<![\w.])-?\d+\.\d+{_END}"
)
SIGNIFICANT = 4  # digits a number must have to be compared: shorter ones recur by chance
# an integer, grouped or not (568, 124,439,808, 7{,}087{,}872), not a part of a decimal
# (162 of 162{,}754.8),
# of a name (GPT-2), of a citation (1706.03762) or of a range (1〜4)
_INTEGER = re.compile(
    r"(?<![\w.,{}])\d{1,3}(?:(?:,|\{,\})\d{3})+(?![\w.]|\{,\})|(?<![\w.,{}-])\d+(?![\w.,{])"
)
INTEGER_SIGNIFICANT = 3  # an integer is exact: three digits are enough to be compared
# an element's number after its label (命題 18.21, 演習 18.23): what it is called, not a value
_ELEMENT_NUMBER = re.compile(rf"(?:{'|'.join(LABELS)})\s*\d+(?:\.\d+)+")


@dataclass(frozen=True)
class Occurrence:
    line: int
    text: str  # as printed
    digits: str  # its digits without sign, separators and point
    decimals: int
    produced: bool = False  # printed by a listing that ran, not by the chapter


def occurrences(document: Document, produced: Sequence[tuple[int, str]] = ()) -> list[Occurrence]:
    """Every decimal number the chapter prints (code aside, its printed output kept) and
    every one its listings printed when they ran."""
    out = []
    for where, produced_here in ((document.shown_lines, False), (produced, True)):
        for number, text in where:
            text = _ELEMENT_NUMBER.sub(" ", text)  # 「定義 18.12」: a label, no quantity
            text = printed_numbers(text)  # 2\,005 is 2{,}005
            out += [_occurrence(number, m.group(0), produced_here) for m in _DECIMAL.finditer(text)]
            out += [_occurrence(number, m.group(0), produced_here) for m in _INTEGER.finditer(text)]
    return [
        o
        for o in out
        if len(o.digits.lstrip("0")) >= (SIGNIFICANT if o.decimals else INTEGER_SIGNIFICANT)
        and len(o.digits.strip("0")) > 1  # 0.1000, 2.0000: one digit, shifted as often as not
    ]


def _occurrence(line: int, text: str, produced: bool = False) -> Occurrence:
    bare = ungrouped(text).lstrip("-")
    whole, _, fraction = bare.partition(".")
    return Occurrence(line, text, whole + fraction, len(fraction), produced)


def _at(o: Occurrence, decimals: int) -> str:
    """The digits of the number rounded half up to `decimals` places (fewer than its own)."""
    if decimals >= o.decimals:
        return o.digits
    value = int(o.digits)
    cut = 10 ** (o.decimals - decimals)
    return str((value + cut // 2) // cut).rjust(len(o.digits) - (o.decimals - decimals), "0")


def one_slip(a: str, b: str) -> bool:
    """Whether digit strings of one length differ by two neighbouring digits swapped."""
    if len(a) != len(b) or a == b:
        return False
    differ = [k for k in range(len(a)) if a[k] != b[k]]
    return (
        len(differ) == 2
        and differ[1] == differ[0] + 1
        and a[differ[0]] == b[differ[1]]
        and a[differ[1]] == b[differ[0]]
    )


def audit_restated(
    document: Document,
    produced: Sequence[tuple[int, str]] = (),
    owned: frozenset[tuple[int, str]] = frozenset(),
) -> list[Finding]:
    """A mismatch at each number printed once that one slip away from a number printed
    twice or more (or printed by a listing that ran) at their coarser precision; not at a
    number a check reads (`owned`: (line, text)), which the check judges. The numbers are
    looked up in an index of their roundings, so that the work grows with the chapter,
    not with its square (a chapter repeating its numbers many times included)."""
    found = occurrences(document, produced)
    index = _Roundings(found)
    out = []
    for a in found:
        if a.produced or (a.line, a.text) in owned or index.count(a) > 1:
            continue
        for digits in _swapped(a.digits):
            b = index.first(a, digits)
            if b is None:
                continue
            if b.produced or index.count(b) >= 2:
                lines = index.lines(b)
                where = f"line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}"
                out.append(
                    Finding(
                        Section.RESTATED,
                        a.line,
                        a.text,
                        Status.MISMATCHED,
                        f"printed nowhere else, one slip away from {b.text}, "
                        f"which the chapter prints at {where}"
                        + (" (as its listing prints it)" if b.produced else ""),
                        code=SWAPPED.code,
                    )
                )
                break
    return out


def _swapped(digits: str) -> list[str]:
    """The digit strings one slip from `digits`: two neighbouring digits swapped."""
    return [
        digits[:k] + digits[k + 1] + digits[k] + digits[k + 2 :]
        for k in range(len(digits) - 1)
        if digits[k] != digits[k + 1]
    ]


class _Roundings:
    """The occurrences by magnitude (digits before the point, sign) and by their digits
    at each precision up to their own: who equals whom at the coarser precision is then
    a few look-ups, and who is one slip from a number one more."""

    def __init__(self, found: list[Occurrence]) -> None:
        self._at: dict[tuple, list[Occurrence]] = defaultdict(list)  # rounded to p places
        self._exact: dict[tuple, list[Occurrence]] = defaultdict(list)  # p = its own places
        self._places: dict[tuple, set[int]] = defaultdict(set)  # the precisions printed
        for o in found:
            group = _magnitude(o)
            self._exact[group, o.decimals, o.digits].append(o)
            self._places[group].add(o.decimals)
            for places in range(o.decimals + 1):
                self._at[group, places, _at(o, places)].append(o)

    def _equal_lists(self, a: Occurrence) -> list[list[Occurrence]]:
        """The lists of occurrences equal to a at the coarser precision (a among them):
        those as fine or finer, and those of each coarser precision printed."""
        group = _magnitude(a)
        lists = [self._at.get((group, a.decimals, a.digits), [])]
        for places in self._places[group]:
            if places < a.decimals:
                lists.append(self._exact.get((group, places, _at(a, places)), []))
        return lists

    def count(self, a: Occurrence) -> int:
        """How many occurrences equal a at the coarser precision (a counted)."""
        return sum(map(len, self._equal_lists(a)))

    def lines(self, a: Occurrence, most: int = 3) -> list[int]:
        """The first `most` lines printing a number equal to a (each list is in the order
        of the text, so its first distinct lines are its first lines)."""
        lines: set[int] = set()
        for found in self._equal_lists(a):
            own: set[int] = set()
            for o in found:
                if len(own) == most:
                    break
                own.add(o.line)
            lines |= own
        return sorted(lines)[:most]

    def first(self, a: Occurrence, digits: str) -> Occurrence | None:
        """The first occurrence of a's magnitude and places with these digits, off a's
        line."""
        same = self._exact.get((_magnitude(a), a.decimals, digits), ())
        return next((b for b in same if b.line != a.line), None)


def _magnitude(o: Occurrence) -> tuple[int, bool]:
    return len(o.digits) - o.decimals, o.text.startswith("-")


def _equal(a: Occurrence, b: Occurrence) -> bool:
    coarse = min(a.decimals, b.decimals)
    return _at(a, coarse) == _at(b, coarse)


# A tuple the prose prints, `(0.6095,\ 0.2242,\ 0.1360)`: its numbers, spacing macros aside.
_TUPLE = re.compile(r"\(([^()$]*,[^()$]*)\)")
_ITEM = re.compile(r"^-?\d+(?:\.\d+)?$")


def sequences(
    document: Document, produced: Sequence[tuple[int, str]] = ()
) -> tuple[list[tuple[int, list[str]]], list[tuple[int, list[str]]]]:
    """(the tuples of numbers the formulas print, the rows of numbers the tables, the
    printed outputs and the runs' outputs print), each with its line."""
    tuples = []
    for m in document.math:
        for found in _TUPLE.finditer(m.tex):
            items = [re.sub(r"\\[ ,;:!]|\s", "", item) for item in found.group(1).split(",")]
            if len(items) >= 3 and all(_ITEM.match(i) for i in items):
                line = m.line + m.tex[: found.start()].count("\n")
                tuples.append((line, items))
    rows = []
    for table in document.tables:
        for row, line in zip(table.rows[1:], table.row_lines[1:], strict=True):
            cells = [c.strip().replace(",", "") for c in row]
            rows.append((line, [c for c in cells if _ITEM.match(c)]))
    for listing in document.listings:
        for k, text in enumerate(listing.output):
            if listing.output_line is not None:
                rows.append((listing.output_line + k, _DECIMAL_OR_INTEGER.findall(text)))
    rows += [(line, _DECIMAL_OR_INTEGER.findall(text)) for line, text in produced]
    return tuples, rows


_DECIMAL_OR_INTEGER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")


def audit_restated_tuples(
    document: Document, produced: Sequence[tuple[int, str]] = ()
) -> list[Finding]:
    """A mismatch at each tuple the prose prints that a table row or an output line prints
    too, in order, but for one number: that number is the slip. The rows are found through
    an index of their numbers, and each distinct tuple is looked up once: the work grows
    with the chapter, not with the product of its tuples and rows."""
    tuples, rows = sequences(document, produced)
    lines_of: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for row_line, row in rows:
        lines_of[tuple(row)].append(row_line)
    index = _RowIndex(list(lines_of))
    looked_up: dict[tuple[str, ...], list[tuple[tuple[str, ...], int, str]]] = {}
    out = []
    for line, items in tuples:
        key = tuple(items)
        if key not in looked_up:
            looked_up[key] = index.differing_rows(key)
        for holding, k, theirs in looked_up[key]:
            elsewhere = next((at for at in lines_of[holding] if at != line), None)
            if elsewhere is None:
                continue
            out.append(
                Finding(
                    Section.RESTATED,
                    line,
                    items[k],
                    Status.MISMATCHED,
                    f"line {elsewhere} prints the same numbers but this one, "
                    f"{theirs} where this tuple has {items[k]}",
                    code=TUPLE.code,
                )
            )
            break
    return out


class _RowIndex:
    """The distinct rows by their informative numbers at each precision (as _Roundings
    keeps occurrences): the rows that can hold a tuple are those holding one of its first
    two informative numbers, at most one of which is the slip."""

    def __init__(self, contents: list[tuple[str, ...]]) -> None:
        self.contents = contents
        self._at: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
        self._exact: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
        self._places: set[int] = set()
        for row, cells in enumerate(contents):
            for position, text in enumerate(cells):
                if not _informative(text):
                    continue
                o, negative = _occurrence(0, text), text.startswith("-")
                self._exact[negative, o.decimals, int(o.digits)].append((row, position))
                self._places.add(o.decimals)
                for places in range(o.decimals + 1):
                    self._at[negative, places, int(_at(o, places))].append((row, position))

    def _holding(self, text: str) -> list[tuple[int, int]]:
        """(row, position) of each informative number equal to `text` at the coarser
        precision (_same)."""
        o, negative = _occurrence(0, text), text.startswith("-")
        found = list(self._at.get((negative, o.decimals, int(o.digits)), ()))
        for places in self._places:
            if places < o.decimals:
                found += self._exact.get((negative, places, int(_at(o, places))), ())
        return found

    def differing_rows(self, items: tuple[str, ...]) -> list[tuple[tuple[str, ...], int, str]]:
        """Each distinct row that holds the items but one, in the order of the
        rows: (the row, the index of the item that differs, the row's number there), from
        each row's first window that holds them but one (_window_but_one)."""
        informative = [k for k, item in enumerate(items) if _informative(item)]
        if len(informative) < 3:  # two equal and the differing one must be informative
            return []
        starts = sorted(
            {
                (row, position - k)
                for k in informative[:2]
                for row, position in self._holding(items[k])
                if 0 <= position - k <= len(self.contents[row]) - len(items)
            }
        )
        out: list[tuple[tuple[str, ...], int, str]] = []
        for row, start in starts:
            if out and out[-1][0] is self.contents[row]:
                continue  # the row's first window that holds the tuple but one
            window = self.contents[row][start : start + len(items)]
            differing = _window_but_one(list(items), list(window))
            if differing is not None:
                out.append((self.contents[row], *differing))
        return out


def _window_but_one(items: list[str], window: list[str]) -> tuple[int, str] | None:
    """Whether the window holds the items, equal at the coarser precision but one that a
    slip could have made of the window's: that item's index and the window's number. At
    least two of the equal ones, and the differing pair, have SIGNIFICANT digits, so that
    small numbers common to any two rows (0, 1, 0.5) make no match."""
    n = len(items)
    differ = [k for k in range(n) if not _same(items[k], window[k])]
    if len(differ) != 1:
        return None
    k = differ[0]
    equal = [i for i in range(n) if i != k and _informative(items[i])]
    a, b = _occurrence(0, items[k]), _occurrence(0, window[k])
    if len(equal) >= 2 and _informative(items[k]) and _slip_apart(a, b):
        return k, window[k]
    return None


def _slip_apart(a: Occurrence, b: Occurrence) -> bool:
    """Whether two numbers of one format could be one misprinted as the other: the same
    sign, digits and decimals, and the same first significant digit (a gradient's -0.3715
    beside a probability's 0.6285 is another number, not a slip)."""
    lead_a, lead_b = a.digits.lstrip("0"), b.digits.lstrip("0")
    return (
        a.text.startswith("-") == b.text.startswith("-")
        and a.decimals == b.decimals
        and len(a.digits) == len(b.digits)
        and lead_a[:1] == lead_b[:1]
    )


def _informative(text: str) -> bool:
    return len(_occurrence(0, text).digits.lstrip("0")) >= SIGNIFICANT


def _same(a: str, b: str) -> bool:
    """Two printed numbers equal at the coarser of their precisions."""
    oa, ob = _occurrence(0, a), _occurrence(0, b)
    if a.startswith("-") != b.startswith("-"):
        return False
    coarse = min(oa.decimals, ob.decimals)
    return int(_at(oa, coarse)) == int(_at(ob, coarse))
