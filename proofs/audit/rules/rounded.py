"""A number restated at a coarser precision: it must be the finer one rounded.

A chapter works a value out with many digits and then says it in fewer: 「… ≈ 709.78
なので、成分が 710 を超えると」, a table's ratio 0.7750 read in the prose as 「最大値の
77.5 %」. Which number restates which the text does not say; the slip shows it: a number
that agrees with no other of the chapter, one digit away from the rounding of a finer
number it would restate, is that number with its last digit slipped (truncated, rounded
the wrong way). The finer numbers looked
at are those of its own line (a value and its rounding stand together), the cells of a
table row its line names by the table's key (「$t = 10$ で最大の約 6.57」 after a table
whose first column is $t$: the row t = 10, in the table before the line and in its
section), and for a percentage the ratios printed anywhere in the chapter (a table's
column and the prose that reads it). Only numbers of at least SIGNIFICANT digits are
judged: shorter ones (a count, 3 倍) are a last digit from many numbers by chance; a number
of NAMED_ROW_SIGNIFICANT digits in the prose is judged against the named row's cells alone
(「$d_k = 1024$ では最大の重みが平均 0.97」), unless the text says it is approximate (前後,
程度).

Two printed numbers agree when the intervals their printed precision stands for meet
(0.62853 and 0.6285; 0.125 and 0.13 or 0.12).

A number the text says it rounds (RND002): 「A を丸めると B」, 「A を切り上げて B」.

A worked example rounds by hand: 「$W/s = (127,\\ 31.4,\\ -60.6,\\ 8.3)$ を丸めると
$(127,\\ 31,\\ -61,\\ 8)$」, 「$10 \\times 1.25 = 12.5$ を切り上げて $C = 13$」. The sentence
names both numbers and the operation, so the second is the first rounded (丸める,
四捨五入), rounded up (切り上げる) or down (切り捨てる) to the second's own precision,
component by component for a tuple. Read only when B stands right after the verb: 「…
を bfloat16 に丸めると」 or 「256 の倍数に切り上げ」 round to a grid the words name,
which is not read.

The first number stands for what its printed precision allows (31.4: 31.35 to 31.45), so
a rounding that could go either way within it (a tie at 12.5 included, rounded half up
or half to even) accepts either result; a result outside every rounding of it is wrong,
and the two printed numbers are the witness.
"""

from __future__ import annotations

import math
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.book.printed import ungrouped
from proofs.reader import Document
from proofs.reader.math import INLINE_MATH, split_relations
from proofs.reader.spans import Spans
from proofs.tex.arithmetic import MAX_DIGITS, NotNumeric, TooLarge, evaluate

_COARSER = (
    '# 見本\n\n<Remark id="rem-overflow" title="あふれ">\n\n'
    "$\\log(1.8 \\times 10^{{308}}) \\approx 709.78$ なので、成分が {} を超えると"
    "あふれます。\n\n</Remark>\n"
)
ROUNDED = Rule(
    "RND001",
    "restated-coarser-with-a-slip",
    Section.RESTATED,
    Severity.WARNING,
    "A number restated at a coarser precision is the finer one rounded: one that agrees "
    "with no other number and is its last digit away from a finer one's rounding slipped.",
    Example(_COARSER.format("709.7")),
    Example(_COARSER.format("709.8")),
)
_EXAMPLE = (
    '# 見本\n\n<Example id="ex-round" title="丸め">\n\n'
    "$\\boldsymbol{{w}}/s = (7,\\ -3.3,\\ 1.6)$ を丸めると $({})$ です。\n\n</Example>\n"
)
ROUNDED_IN_WORDS = Rule(
    "RND002",
    "rounded-in-words",
    Section.PROSE,
    Severity.ERROR,
    "「A を丸めると B」「A を切り上げて B」「A を切り捨てて B」: B is A rounded (up, down) to "
    "B's precision, component by component; A stands for its printed interval, so a rounding "
    "either way within it is accepted.",
    Example(_EXAMPLE.format("7,\\ -4,\\ 2")),
    Example(_EXAMPLE.format("7,\\ -3,\\ 2")),
)
RULES = (ROUNDED, ROUNDED_IN_WORDS)


SIGNIFICANT = 3  # digits a restating number must have (710, 77.5 %)
# digits enough for a number of the prose read off the table row its line names (0.97
# of the row d_k = 1024's 0.971), compared with that row's cells only, unless the text
# says it is approximate (「0.35 前後」 speaks of every row); not one in a formula, where
# a two-digit number is as often a coefficient (0.75 (η_max - η_min))
NAMED_ROW_SIGNIFICANT = 2
_APPROXIMATE = re.compile(r"\s*(?:前後|程度|ほど|くらい|ぐらい|付近)")
# 「倍率が 1.01 以下になるのは」: a threshold the text chooses, which rounds no value of a row
# it names (a bound worked on its own line, 「709.78 なので 710 を超えると」, does)
_THRESHOLD = re.compile(r"\s*(?:倍|\\?%)?\s*(?:以下|以上|未満|を超え|を下回|を上回)")

# a printed number: digits grouped by , or {,} or not, a decimal part or not
_NUMBER = re.compile(
    r"(?<![\w.,{}\\^_])-?\d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?(?![\w.])"
    r"|(?<![\w.\\^_])-?\d+(?:\.\d+)?(?![\w.])"
)
_PERCENT = re.compile(r"\s*\\?%")
# the words for powers of ten a number may be printed with: 約 43.3 億個 is 4.33 × 10^9
_POWER_WORDS = {"万": Fraction(10**4), "億": Fraction(10**8), "兆": Fraction(10**12)}
_POWER_WORD = re.compile(r"\s*(万|億|兆)")


@dataclass(frozen=True)
class Printed:
    """A number as printed: its line, text, exact value and its unit in the last place
    (a percentage's taken as the fraction it stands for: 77.5 % is 0.775 ± 0.0005; 約 344
    億 as 3.44 × 10^10 ± 10^8)."""

    line: int
    text: str
    value: Fraction
    unit: Fraction
    percent: bool
    approximate: bool = False  # 「0.35 前後」
    threshold: bool = False  # 「1.01 以下」
    in_math: bool = False  # inside $…$: a coefficient (0.75\,(η_max - η_min)) as often as a value
    scale: Fraction = Fraction(1)  # what the printed digits are multiplied by: 1/100, 10^8 (億)

    def meets(self, other: Printed) -> bool:
        return abs(self.value - other.value) <= (self.unit + other.unit) / 2

    @property
    def significant(self) -> int:
        return len(_digits(self.value, self.unit).lstrip("0"))


def printed_numbers(document: Document, produced: Sequence[tuple[int, str]] = ()) -> list[Printed]:
    """Every number the chapter prints outside its code (its printed output kept), and
    every number its listings printed when they ran."""
    return [
        p
        for number, text in [*document.shown_lines, *produced]
        for p in _numbers(number, unicodedata.normalize("NFKC", text))  # １０２４ is 1024
    ]


def _numbers(line: int, text: str) -> list[Printed]:
    out = []
    maths = Spans(m.span() for m in INLINE_MATH.finditer(text))
    for m in _NUMBER.finditer(text):
        bare = ungrouped(m.group(0))
        if len(bare) > MAX_DIGITS:  # not a number a chapter restates: too large to read
            continue
        decimals = len(bare.partition(".")[2])
        value, unit = Fraction(bare), Fraction(1, 10**decimals)
        percent = _PERCENT.match(text, m.end()) is not None
        word = _POWER_WORD.match(text, m.end())
        scale = Fraction(1, 100) if percent else _POWER_WORDS[word.group(1)] if word else 1
        value, unit = value * scale, unit * scale
        approximate = _APPROXIMATE.match(text, m.end()) is not None
        threshold = _THRESHOLD.match(text, m.end()) is not None
        in_math = m.start() in maths
        out.append(
            Printed(
                line,
                m.group(0),
                value,
                unit,
                percent,
                approximate,
                threshold,
                in_math,
                Fraction(scale),
            )
        )
    return out


_KEY = re.compile(r"\$\s*(\\?[A-Za-z]+(?:_\{?\w+\}?)?)\s*\$")  # a table's first header cell


def named_rows(document: Document) -> dict[int, list[Printed]]:
    """For each line that names a row of the table before it by the table's key
    (「$t = 10$」 when the table's first column is $t$ and has a row 10), the numbers of
    that row; the table and the line in one section."""
    out: dict[int, list[Printed]] = defaultdict(list)
    headings = sorted(h.line for h in document.headings)
    for k, table in enumerate(document.tables):
        key = _KEY.fullmatch(table.rows[0][0].strip())
        if key is None:
            continue
        cells = {
            ungrouped(row[0].strip()): [p for cell in row[1:] for p in _numbers(line, cell)]
            for row, line in zip(table.rows[1:], table.row_lines[1:], strict=True)
        }
        following = [t.line for t in document.tables[k + 1 :]]
        end = min([h for h in headings if h > table.line] + following + [len(document.lines) + 1])
        naming = re.compile(r"\$\s*" + re.escape(key.group(1)) + r"\s*=\s*([\d,{}]+)\s*\$")
        last = table.row_lines[-1]
        for line in range(last + 1, end):
            for m in naming.finditer(document.line(line)):
                out[line] += cells.get(ungrouped(m.group(1).strip()), [])
    return out


def _digits(value: Fraction, unit: Fraction) -> str:
    """The digits of |value| in units of `unit`, rounded to the nearest (half up)."""
    return str(int(abs(value) / unit + Fraction(1, 2)))


def _one_digit_away(digits: str) -> list[str]:
    """The digit strings of the same length that differ from `digits` in its last digit:
    what a rounding slips to (truncated, rounded the wrong way, the last digit mistyped).
    A digit elsewhere that differs is no rounding of the finer number: two numbers of a
    chapter one digit apart somewhere are common by chance (1.60 and 1.20, 47.2 and 37.2)."""
    return [digits[:-1] + d for d in "0123456789" if d != digits[-1]]


class _Rounded:
    """The numbers of a pool by their rounding to a unit (the finer ones only), built once
    per unit asked: a number then finds the finer numbers one digit away from it in time
    independent of the pool's size (a line of thousands of numbers stays linear)."""

    def __init__(self, pool: list[Printed]) -> None:
        self.pool = pool
        self._by_unit: dict[Fraction, dict[tuple[bool, str], Printed]] = {}

    def one_digit_from(self, a: Printed) -> Printed | None:
        """A finer number of the pool whose rounding to a's unit is one digit from a."""
        if a.unit not in self._by_unit:
            index: dict[tuple[bool, str], Printed] = {}
            for b in self.pool:
                if b.unit < a.unit:
                    index.setdefault((b.value < 0, _digits(b.value, a.unit)), b)
            self._by_unit[a.unit] = index
        index = self._by_unit[a.unit]
        negative = a.value < 0
        for digits in _one_digit_away(_digits(a.value, a.unit)):
            if (negative, digits) in index:
                return index[negative, digits]
        return None


def audit_rounded(
    document: Document,
    produced: Sequence[tuple[int, str]] = (),
    owned: frozenset[tuple[int, str]] = frozenset(),
) -> list[Finding]:
    """A mismatch at each number that agrees with no other of the chapter and is one digit
    away from a finer number of its line (a ratio of its section, for a percentage) rounded to
    its precision; not at a number a check reads (`owned`: (line, text)), which the check
    judges against its exact value."""
    found = printed_numbers(document, produced)
    rows = named_rows(document)
    by_line: dict[int, list[Printed]] = defaultdict(list)
    for p in found:
        by_line[p.line].append(p)
    pools = {line: _Rounded([*numbers, *rows.get(line, [])]) for line, numbers in by_line.items()}
    own = {line: _Rounded(numbers) for line, numbers in by_line.items()}  # for a threshold
    # a percentage rounds a ratio of its own section: one a section away is another quantity
    starts = sorted(h.line for h in document.headings)
    sections: dict[int, list[Printed]] = defaultdict(list)
    for p in found:
        if not p.percent:
            sections[bisect_right(starts, p.line)].append(p)
    ratios = {k: _Rounded(numbers) for k, numbers in sections.items()}
    no_ratios = _Rounded([])
    printed = Counter((p.value, p.unit) for p in found)  # each number as printed, how often
    ordered = sorted(printed)
    values = [value for value, _ in ordered]

    def agrees(a: Printed) -> bool:  # with a number as fine or finer, printed elsewhere
        if printed[a.value, a.unit] > 1:
            return True
        low, high = bisect_left(values, a.value - a.unit), bisect_right(values, a.value + a.unit)
        return any(
            (value, unit) != (a.value, a.unit)
            and unit <= a.unit
            and abs(a.value - value) <= (a.unit + unit) / 2
            for value, unit in ordered[low:high]
        )

    named = {line: _Rounded(cells) for line, cells in rows.items()}
    out = []
    for a in found:
        if a.line in document.code or (a.line, a.text) in owned:
            continue
        if a.percent and a.value == 1:
            continue  # 100 %: the whole, which no ratio rounds to
        if a.significant >= SIGNIFICANT:
            pool = (
                ratios.get(bisect_right(starts, a.line), no_ratios)
                if a.percent
                else own[a.line]
                if a.threshold
                else pools[a.line]
            )
        elif (
            a.significant >= NAMED_ROW_SIGNIFICANT
            and a.line in named
            and not (a.approximate or a.in_math or a.threshold)
        ):
            pool = named[a.line]
        else:
            continue
        b = pool.one_digit_from(a)
        if b is None or agrees(a):
            continue
        if a.unit == 1 and b.unit < 1 and abs(a.value - b.value) < 1:
            continue  # 「$\\approx 11552.11$ なので 11,553 ステップ目」: a count may be its ceiling
        rounded = _digits(b.value, a.unit)
        shown = f"{Fraction(int(rounded)) * a.unit / a.scale}"
        out.append(
            Finding(
                Section.RESTATED,
                a.line,
                a.text,
                Status.MISMATCHED,
                f"agrees with no other number of the chapter, and its last digit away from "
                f"{b.text} (line {b.line}) at its precision, which rounds to "
                f"{_decimal(shown, a)}: a digit slipped",
                code=ROUNDED.code,
            )
        )
    return out


def _decimal(fraction: str, a: Printed) -> str:
    """The rounded value written with a's decimals."""
    value = Fraction(fraction)
    decimals = len(ungrouped(a.text).partition(".")[2])
    return f"{float(value):.{decimals}f}"


_WRITTEN = r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?"
_AMOUNT = rf"\$[^$]+\$|{_WRITTEN}"
_HOW = {
    "丸め": "rounded",
    "四捨五入し": "rounded",
    "切り上げ": "rounded up",
    "切り捨て": "rounded down",
}
_IN_WORDS = re.compile(
    rf"(?P<a>{_AMOUNT})\s*(?:を|で、?)\s*(?P<how>{'|'.join(_HOW)})(?:ると|て|れば)\s*、?\s*"
    rf"(?P<b>{_AMOUNT})(?![\d.])"
)


def audit_rounded_in_words(document: Document) -> list[Finding]:
    """A finding at each rounding in words whose two numbers the rule can read."""
    out = []
    for number, line in enumerate(document.lines, 1):
        if number in document.code:
            continue
        for match in _IN_WORDS.finditer(unicodedata.normalize("NFKC", line)):
            finding = _judged(number, match)
            if finding is not None:
                out.append(finding)
    return out


def _judged(line: int, match: re.Match[str]) -> Finding | None:
    before = _intervals(match.group("a"))
    printed = _printed(match.group("b"))
    if before is None or printed is None or len(before) != len(printed):
        return None
    how = _HOW[match.group("how")]
    wrong = []
    for (low, high), (text, value) in zip(before, printed, strict=True):
        unit = Fraction(1, 10 ** len(text.partition(".")[2]))
        first, last = _results(low / unit, high / unit, how)
        if not first <= value / unit <= last:
            shown = _shown(first * unit, last * unit, unit)
            wrong.append(f"{float(low + high) / 2:.6g} {how} is {shown}, not {text}")
    what = match.group(0)
    if wrong:
        return Finding(
            Section.PROSE,
            line,
            what,
            Status.MISMATCHED,
            "; ".join(wrong),
            code=ROUNDED_IN_WORDS.code,
        )
    return Finding(
        Section.PROSE,
        line,
        what,
        Status.CONFIRMED,
        f"each of {len(printed)} {how} to its precision",
        code=ROUNDED_IN_WORDS.code,
    )


def _results(low: Fraction, high: Fraction, how: str) -> tuple[int, int]:
    """The integers a number in [low, high] rounds to: half-way either way for 丸める."""
    if how == "rounded up":
        return math.ceil(low), math.ceil(high)
    if how == "rounded down":
        return math.floor(low), math.floor(high)
    return math.ceil(low - Fraction(1, 2)), math.floor(high + Fraction(1, 2))


def _shown(first: Fraction, last: Fraction, unit: Fraction) -> str:
    places = len(str(unit.denominator)) - 1
    if first == last:
        return f"{float(first):.{places}f}"
    return f"{float(first):.{places}f} or {float(last):.{places}f}"


def _intervals(text: str) -> list[tuple[Fraction, Fraction]] | None:
    """What each component of the number or formula's last member stands for at its
    printed precision, or None when it is not arithmetic on numbers."""
    if text.startswith("$"):
        member = split_relations(text.strip("$"))[0][-1].strip()
    else:
        member = text.replace(",", "")
    try:
        value = evaluate(member, {}, False)
    except (NotNumeric, TooLarge, ValueError, ArithmeticError):
        return None
    out = []
    for item in value.items:
        low, high = (Fraction(mpmath.nstr(mpmath.mpf(end), 30)) for end in item._mpi_)
        out.append((low, high))
    return out


_PRINTED = re.compile(
    rf"(?:\\?[A-Za-z]+(?:_\{{?\w+\}}?)?\s*=\s*)?\(?\s*(?P<n>(?:{_WRITTEN})(?:\s*,\s*(?:{_WRITTEN}))*)\s*\)?"
)


def _printed(text: str) -> list[tuple[str, Fraction]] | None:
    """The printed numbers of B, a number, a tuple `$(127,\\ 31)$` or a setting `$C = 13$`,
    each as printed and as a value; None for anything else."""
    bare = text.strip("$").replace("\\ ", " ").replace("\\,", " ").replace("{,}", "")
    match = _PRINTED.fullmatch(bare.strip())
    if match is None:
        return None
    if not text.startswith("$"):
        return [(text.replace(",", ""), Fraction(text.replace(",", "")))]
    numbers = [n.strip() for n in match.group("n").split(",")]
    return [(n, Fraction(n)) for n in numbers]
