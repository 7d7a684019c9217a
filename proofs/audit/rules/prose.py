"""Relations a chapter states in words between the numbers of a paragraph.

These forms are read, each about the numbers that come before it in its paragraph (a
number of the prose, or the value a formula ends with):

- 「…、パラメータ数 124,439,808 の約 15.2 %」: the number before 「の」 is the whole and
  the one before it the part: part / whole = 15.2 % at the printed precision;
- 「…で、約 530 倍」「ちょうど 4 倍」 (not 「倍にする」, not 「以上」): the last two numbers,
  the later over the earlier;
- 「ちょうど前者の $i$ 倍」: of the last two formulas that are more than a symbol, the later
  is the earlier times the formula, decided in the open notation (proofs.audit.deciding.notation);
- 「平均は $\\beta/(1 - \\beta)$ ステップ前です。$\\beta_1 = 0.9$ なら 9 ステップ前」: a
  formula of one name followed by its unit, then worked at a value of that name (or of
  the name with a subscript) with the same unit after the number: the number is the
  formula's value there; 「$(n - 1)/(2n)$、$n = 1024$ では約 49.95 %」: a formula with no
  unit, then with only 「、」「で」 (and values worked before) between, its value at a
  setting of its name, in per cent when a percent sign follows;
- 「$2r/d = 0.0078125$、すなわち約 0.78 %」「$\\phi(k) \\approx 0.0277$、つまり可約な損失の約
  2.8 %」: the percentage is the number before it times 100;
- 「$e^{0} = 1$、$e^{\\log 2} = 2$、$e^{\\log 3} = 3$ で和は 6」: a clause of nothing but
  formulas ending with numbers (each perhaps after an ordinal, 「第 2 組が $1.2509$」), then
  「で和は」「の合計は」「で、合計」「、和は」: the number (or formula) after it is their sum,
  where the sum of rounded values may lie anywhere in the sum of their rounding intervals.

A number printed with 約 stands for itself rounded to its significant digits (530: 525 to
535; 15.2: 15.15 to 15.25); without it, to its printed precision. A paragraph without the
numbers the form needs is left alone.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy

from proofs.audit.deciding.notation import decide_open, open_value
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.book.printed import ungrouped
from proofs.reader import Document
from proofs.reader.math import INLINE_MATH, split_relations
from proofs.tex.arithmetic import MAX_DIGITS, NotNumeric, TooLarge, evaluate

_WORDS = '# 見本\n\n<Remark id="rem-words" title="言葉">\n\n言葉で述べます。\n\n</Remark>\n\n{}\n'
SHARE = Rule(
    "PRO001",
    "percentage-of-a-whole",
    Section.PROSE,
    Severity.WARNING,
    "「…、全体 W の約 p %」: the number before it over the whole W is p % at the printed "
    "precision.",
    Example(_WORDS.format("埋め込みは 38,597,376 個で、全体 124,439,808 の約 13.0 % です。")),
    Example(_WORDS.format("埋め込みは 38,597,376 個で、全体 124,439,808 の約 31.0 % です。")),
)
TIMES_RULE = Rule(
    "PRO002",
    "ratio-in-words",
    Section.PROSE,
    Severity.WARNING,
    "「約 k 倍」「ちょうど k 倍」 after two numbers: the later over the earlier is k at the "
    "printed precision (約: of its last significant digit); 「約 k 分の 1」: the earlier over "
    "the later is.",
    Example(_WORDS.format("1,024 から 4,096 に増え、約 5 倍です。")),
    Example(_WORDS.format("1,024 から 4,096 に増え、約 4 倍です。")),
)
FORMER_RULE = Rule(
    "PRO003",
    "formula-times-the-former",
    Section.PROSE,
    Severity.WARNING,
    "「前者の $x$ 倍」: of the last two formulas, the later is the earlier times x, decided "
    "in the open notation.",
    Example(_WORDS.format("$2n^2d$ と $4n^2d$ で、後者はちょうど前者の $3$ 倍です。")),
    Example(_WORDS.format("$2n^2d$ と $4n^2d$ で、後者はちょうど前者の $2$ 倍です。")),
)
INSTANCE_RULE = Rule(
    "PRO004",
    "formula-worked-in-words",
    Section.PROSE,
    Severity.WARNING,
    "A formula of one name followed by its unit, then worked at a value of that name in "
    "words with the same unit, or with no unit and its value right after (「$(n - 1)/(2n)$、"
    "$n = 1024$ では約 49.95 %」): the number is the formula's value there.",
    Example(
        _WORDS.format(
            "平均は $\\beta/(1 - \\beta)$ ステップ前です。$\\beta = 0.9$ なら 8 ステップ前です。"
        )
    ),
    Example(
        _WORDS.format(
            "平均は $\\beta/(1 - \\beta)$ ステップ前です。$\\beta = 0.9$ なら 9 ステップ前です。"
        )
    ),
)
SUM_RULE = Rule(
    "PRO005",
    "sum-in-words",
    Section.PROSE,
    Severity.WARNING,
    "「$…= a$、$…= b$ で和は s」: the numbers the formulas end with sum to s.",
    Example(_WORDS.format("$2^2 = 4$、$3^2 = 9$ で和は 14 です。")),
    Example(_WORDS.format("$2^2 = 4$、$3^2 = 9$ で和は 13 です。")),
)
CHANGE_RULE = Rule(
    "PRO007",
    "change-in-percent",
    Section.PROSE,
    Severity.WARNING,
    "「A から B へ約 p % 増え（減り）」: the change from A to B over A is p % at the printed "
    "precision.",
    Example(_WORDS.format("乗算は 9,444,864 回から 9,487,872 回へ約 0.64 % しか増えません。")),
    Example(_WORDS.format("乗算は 9,444,864 回から 9,487,872 回へ約 0.46 % しか増えません。")),
)
BYTES_RULE = Rule(
    "PRO006",
    "bytes-in-larger-units",
    Section.PROSE,
    Severity.ERROR,
    "「N バイト、約 X GiB」「N バイト（約 X MiB）」「N バイト、つまり X MiB」: the same amount "
    "in a larger unit is N over 1024^k (KiB, MiB, GiB, TiB) or 1000^k (KB, MB, GB, TB) at the "
    "printed precision; the quotient is the witness.",
    Example(
        _WORDS.format(
            "重みは $7 \\times 10^{9} \\times 2 = 1.4 \\times 10^{10}$ バイト、約 14.04 GiB です。"
        )
    ),
    Example(
        _WORDS.format(
            "重みは $7 \\times 10^{9} \\times 2 = 1.4 \\times 10^{10}$ バイト、約 13.04 GiB です。"
        )
    ),
)
IN_PERCENT_RULE = Rule(
    "PRO008",
    "ratio-restated-in-percent",
    Section.PROSE,
    Severity.WARNING,
    "「$2r/d = 0.0078125$、すなわち約 0.78 %」「$\\phi(k) \\approx 0.0277$、つまり損失の"
    "約 2.8 %」: the percentage is the number before it times 100, at the printed precision.",
    Example(_WORDS.format("比は $32/4096 = 0.0078125$、すなわち約 0.078 % です。")),
    Example(_WORDS.format("比は $32/4096 = 0.0078125$、すなわち約 0.78 % です。")),
)
RANGE_RULE = Rule(
    "PRO009",
    "count-of-a-range",
    Section.PROSE,
    Severity.WARNING,
    "「$i = a$ から b までの N 個」 (a and b integers, N followed by its counter, 個 通り ブロック "
    "…): the integers from a to b are b - a + 1.",
    Example(_WORDS.format("条件は $i = 361$ から 511 までの 115 ブロックです。")),
    Example(_WORDS.format("条件は $i = 361$ から 511 までの 151 ブロックです。")),
)
RULES = (
    SHARE,
    TIMES_RULE,
    FORMER_RULE,
    INSTANCE_RULE,
    SUM_RULE,
    BYTES_RULE,
    CHANGE_RULE,
    IN_PERCENT_RULE,
    RANGE_RULE,
)


_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
PERCENT = re.compile(
    rf"(?P<whole>{_NUMBER}|\$[^$]+\$)\s*の(?P<about>約|ちょうど)?\s*(?P<p>{_NUMBER})\s*%"
)
# 「$i = 361$ から 511 までの 151 ブロック」: integers (the first perhaps a name's value, in
# prose or a formula), and the count with its counter, not a part of what is counted
# (「12 個の 2 の累乗」)
_WHOLE = r"-?\d{1,3}(?:(?:,|\{,\})\d{3})+|-?\d+"


def _range_end(name: str) -> str:
    """An end of a range: `$i = 361$`, `$361$` or 361, its integer in the group `name`
    (in a formula) or `name_` (in prose)."""
    setting = r"(?:\\?[A-Za-z]+(?:_\{?\w+\}?)?\s*=\s*)?"
    return rf"(?:\$\s*{setting}(?P<{name}>{_WHOLE})\s*\$|(?P<{name}_>{_WHOLE}))"


RANGE = re.compile(
    rf"(?<![\d.,$]){_range_end('a')}\s*から\s*{_range_end('b')}\s*までの\s*"
    rf"(?P<n>{_WHOLE})\s*(?:個|通り|ブロック|層|行|列|位置|トークン|成分|つ)(?!の)"
)
_A_PERCENTAGE = re.compile(rf"(?:\$[^$]+\$|{_NUMBER})\s*%")  # a number, then a per-cent sign
TIMES = re.compile(rf"(?P<about>約|ちょうど)\s*(?P<n>{_NUMBER})\s*倍(?!にす|にし|を|以|未|近|ほど)")
# a clause that is only formulas, each ending with a number (each perhaps after an ordinal,
# 「第 2 組が」), then their sum in words, in prose or in a formula of its own
_ITEM = r"(?:第\s*\d+\s*[^\s\d$、。]{1,3}\s*(?:が|は)\s*)?\$[^$]+\$"
SUM = re.compile(
    rf"(?:^|(?<=[。：:（(])|(?<=で、)|(?<=は、))\s*"
    rf"(?P<items>{_ITEM}(?:\s*(?:、|,|と)\s*{_ITEM})+)\s*"
    rf"(?:(?:で|の)(?:和|合計)は|で、?\s*合計|、\s*(?:和|合計)は)\s*(?P<about>約)?\s*"
    rf"(?P<math>\$\s*)?(?P<n>-?(?:{_NUMBER}))(?(math)\s*\$|(?![\d.]))"
)
_ORDINAL = re.compile(r"^第\s*\d+\s*[^\s\d$、。]{1,3}\s*(?:が|は)\s*")
# a number right before 「の約 k 倍」 is what the one before it is k times
_OF = re.compile(rf"(?<!第)(?<!第\s)(?:{_NUMBER})\$?\s*[^\s\d$、。]{{0,3}}\s*の\s*\Z")
# 「A 回から B 回へ約 p % 増え」: the change from A to B over A
CHANGE = re.compile(
    rf"(?P<a>{_NUMBER})\s*[^\s\d$、。]{{0,4}}\s*から\s*(?P<b>{_NUMBER})\s*[^\s\d$、。]{{0,4}}"
    rf"\s*(?:へ|に)\s*(?P<about>約|ちょうど)?\s*(?P<p>{_NUMBER})\s*%\s*(?:しか|ほど)?\s*(?P<way>増|減)"
)
# a number, then 「、すなわち」「、つまり」 and the same number in per cent, perhaps after a few
# words that end in 「の」 (「つまり可約な損失の約 2.8 %」)
IN_PERCENT = re.compile(
    rf"(?P<x>{_NUMBER}|\$[^$]+\$)\s*、\s*(?:すなわち|つまり)\s*(?:[^\s\d$、。]{{1,12}}の)?\s*"
    rf"(?P<about>約|ちょうど)?\s*(?P<p>{_NUMBER})\s*%"
)
FRACTION = re.compile(rf"(?P<about>約|ちょうど)\s*(?P<n>{_NUMBER})\s*分の\s*1(?![\d.])")
# an amount of bytes, then the same amount in a larger unit: 「… バイト、約 13.10 GiB で」
UNITS = {"KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "TiB": 1024**4}
UNITS |= {"KB": 1000, "MB": 1000**2, "GB": 1000**3, "TB": 1000**4}
BYTES = re.compile(
    rf"(?P<amount>{_NUMBER}|\$[^$]+\$)\s*バイト\s*(?:、|（|\()\s*"
    # 「$2^{20}$ で割って約 147.24 MiB」: the divisor named on the way
    r"(?:\$\s*2\s*\^\s*\{?(?P<power>\d+)\}?\s*\$\s*で割(?:って|ると)、?\s*)?"
    rf"(?:(?:すなわち|つまり)\s*)?(?P<about>約)?\s*"
    rf"(?P<x>{_NUMBER})\s*(?P<unit>[KMGT]i?B)(?=\s*(?:です|で|）|\)|、|。|に|と))"
)
FORMER = re.compile(r"(?:ちょうど|約)?前者の\s*\$(?P<x>[^$]+)\$\s*倍")
# a formula and the unit words after it, up to the copula or the punctuation that ends them,
# looked for in the FORMULA_REACH characters before its worked value (a line of thousands of
# values costs time linear in its length)
FORMULA_REACH = 1000
_FORMULA_UNIT = re.compile(
    r"\$(?P<f>[^$]+)\$\s*(?P<unit>[^\s$、。,.()（）\d]{1,8}?)(?:です|である|となる|になる|[、。がでとは])"
)
# a name set to a number, then 「なら」 and a number with its unit: 「$\beta_1 = 0.9$ なら 9 …」
_INSTANCE = re.compile(
    rf"\$\s*\\?(?P<name>[A-Za-z]+)(?:_\{{?\w+\}}?)?\s*=\s*(?P<at>{_NUMBER})\s*\$\s*(?:なら|では|のとき)"
    rf"(?P<words>[^$。\d]{{0,12}}?)(?P<n>{_NUMBER})\s*"
)
# a name set to a number, then 「では」「で」「なら」 and the value right after it, perhaps 約,
# perhaps in a formula, perhaps a percentage: 「$n = 1024$ では約 49.95 %」「$i = 1$ で $0.1111$」
_BARE_INSTANCE = re.compile(
    rf"\$\s*\\?(?P<name>[A-Za-z]+)\s*=\s*(?P<at>{_NUMBER})\s*\$\s*(?:なら|では|で)\s*"
    rf"(?P<about>約)?\s*(?P<math>\$\s*)?(?P<n>{_NUMBER})(?(math)\s*\$|(?![\d.]))(?P<percent>\s*%)?"
)
_SETTING_OR_NUMBER = re.compile(rf"\s*(?:\\?[A-Za-z]+\s*=\s*)?-?(?:{_NUMBER})\s*")
# an ordinal (「第 3 成分」) counts nothing
# a number of the prose, not a part of a name: 第 2 (an ordinal), 2:4 (a pattern, a ratio)
_PROSE_NUMBER = re.compile(rf"(?<![\w.$,{{}}])(?<!第\s)(?<!第)(?<!\d:){_NUMBER}(?![\w.]|:\d)")
_SYMBOL = re.compile(r"\s*\\?[A-Za-z]+(?:_\{?\\?[A-Za-z0-9]+\}?)?\s*")  # i, d_k: no quantity


@dataclass(frozen=True)
class Stated:
    """A number of a sentence: where it starts on the line and its value."""

    start: int
    value: Fraction


def audit_prose(document: Document) -> list[Finding]:
    """Every relation of the three forms, confirmed or mismatched at its line; the
    numbers before a relation are those of its line (its paragraph) up to it."""
    out = []
    for number, line in enumerate(document.lines, 1):
        if number not in document.code:  # full-width digits and signs read as ASCII ones
            out += _relations(number, unicodedata.normalize("NFKC", line))
    return out


def _relations(line: int, text: str) -> list[Finding]:
    out = []
    for match in PERCENT.finditer(text):
        before = _numbers(text[: match.start()])
        whole = _value(match.group("whole"))
        if not before or whole is None or whole == 0:
            continue
        if _A_PERCENTAGE.match(text, before[-1].start):  # 「… \approx 0.632$ %、W の約 2.04 %」:
            continue  # a share, not the part; the part is further back, which words say
        share = before[-1].value / whole * 100
        out.append(
            _judged(
                line,
                match.group(0),
                share,
                match.group("p"),
                bool(match.group("about")),
                "the part before it of the whole",
                SHARE,
            )
        )
    ratios = [
        *((m, False) for m in TIMES.finditer(text)),
        *((m, True) for m in FRACTION.finditer(text)),
    ]
    for match, fraction in ratios:
        before = _numbers(sentence_before(text, match.start()))
        if len(before) < 2 or before[-2].value == 0 or before[-1].value == 0:
            continue
        # 「約 422 分の 1」, 「… 124,439,808 個の約 4.19 倍」: the earlier number over the later
        inverse = fraction or _OF.search(text, 0, match.start()) is not None
        earlier, later = before[-2].value, before[-1].value
        ratio = earlier / later if inverse else later / earlier
        printed = _value(match.group("n"))
        if printed is None or not _same_magnitude(ratio, printed):
            continue  # 約 5.66 倍 after numbers whose ratio is 7 × 10^6: not the numbers it relates
        out.append(
            _judged(
                line,
                match.group(0),
                ratio,
                match.group("n"),
                match.group("about") == "約",
                f"the {'earlier' if inverse else 'later'} number over the "
                f"{'later' if inverse else 'earlier'}",
                TIMES_RULE,
            )
        )
    for match in CHANGE.finditer(text):
        start, end = _value(match.group("a")), _value(match.group("b"))
        if (
            start is None
            or end is None
            or start == 0
            or (end > start) != (match.group("way") == "増")
        ):
            continue
        out.append(
            _judged(
                line,
                match.group(0),
                abs(end - start) / start * 100,
                match.group("p"),
                match.group("about") == "約",
                "the change over the number it starts from, in per cent",
                CHANGE_RULE,
            )
        )
    for match in IN_PERCENT.finditer(text):
        value = _value(match.group("x"))
        if value is None or value == 0:
            continue
        out.append(
            _judged(
                line,
                match.group(0),
                value * 100,
                match.group("p"),
                match.group("about") == "約",
                "the number before it in per cent",
                IN_PERCENT_RULE,
            )
        )
    for match in BYTES.finditer(text):
        amount = _value(match.group("amount"))
        if amount is None or amount <= 0:
            continue
        power = match.group("power")
        if power is not None and 2 ** int(power) != UNITS[match.group("unit")]:
            continue  # 「$2^{10}$ で割って … MiB」: which the text means, it does not say
        out.append(
            _judged(
                line,
                match.group(0),
                amount / UNITS[match.group("unit")],
                match.group("x"),
                bool(match.group("about")),
                f"{float(amount):.6g} バイト over {UNITS[match.group('unit')]:,}",
                BYTES_RULE,
            )
        )
    for match in FORMER.finditer(text):
        formulas = [
            m.group(1)
            for m in INLINE_MATH.finditer(text[: match.start()])
            if not _SYMBOL.fullmatch(m.group(1))
        ]
        if len(formulas) < 2:
            continue
        a, b = _last_member(formulas[-2]), _last_member(formulas[-1])
        status, detail = decide_open(f"{b} = ({match.group('x')})({a})")
        if status != "not checkable":
            out.append(
                Finding(
                    Section.PROSE,
                    line,
                    match.group(0),
                    Status(status),
                    f"the later formula over the earlier: {detail}",
                    code=FORMER_RULE.code,
                )
            )
    for match in RANGE.finditer(text):
        low, high, count = (
            int(ungrouped(match.group(k) or match.group(f"{k}_"))) for k in ("a", "b", "n")
        )
        if high < low:
            continue
        out.append(
            _judged(
                line,
                match.group(0),
                Fraction(high - low + 1),
                match.group("n"),
                False,
                "the integers from the first to the last",
                RANGE_RULE,
            )
        )
    out += _instances(line, text)
    out += _bare_instances(line, text)
    out += _sums(line, text)
    return out


def _sums(line: int, text: str) -> list[Finding]:
    """「$e^{0} = 1$、$e^{\\log 2} = 2$、$e^{\\log 3} = 3$ で和は 6」: a list of two or more
    formulas that end with numbers, the whole clause before 「で和は」/「の合計は」, sums to
    the number after it. Each value printed rounded stands for its rounding interval, so
    the sum may lie anywhere in theirs: a mismatch is a sum whose interval misses the
    printed total's."""
    out = []
    for match in SUM.finditer(text):
        items = re.split(r"\s*(?:、|,|と)\s*", match.group("items").strip())
        spans = [formula_span(_ORDINAL.sub("", item)) for item in items]
        if len(spans) < 2 or any(span is None for span in spans):
            continue
        low = sum((span[0] for span in spans if span is not None), Fraction(0))
        high = sum((span[1] for span in spans if span is not None), Fraction(0))
        printed = match.group("n")
        about = bool(match.group("about"))
        total_low, total_high = printed_span(printed.lstrip("-"), about)
        if printed.startswith("-"):
            total_low, total_high = -total_high, -total_low
        what = f"the sum of the {len(spans)} values before it"
        if low == high:
            out.append(_judged(line, match.group(0).strip(), low, printed, about, what, SUM_RULE))
            continue
        shown = f"{float(low):.6g} to {float(high):.6g}, at their printed precision"
        holds = high >= total_low and low <= total_high
        out.append(
            Finding(
                Section.PROSE,
                line,
                match.group(0).strip(),
                Status.CONFIRMED if holds else Status.MISMATCHED,
                f"{what}: {shown}" if holds else f"{what} is {shown}, not {printed}",
                code=SUM_RULE.code,
            )
        )
    return out


def _instances(line: int, text: str) -> list[Finding]:
    """The values of a formula of one name that its paragraph works out in words."""
    out = []
    for match in _INSTANCE.finditer(text):
        if max(len(match.group("at")), len(match.group("n"))) > MAX_DIGITS:
            continue  # too large to be read (proofs.tex.arithmetic's bound)
        unit_here = text[match.end() :]
        before = text[max(0, match.start() - FORMULA_REACH) : match.start()]
        formulas = [
            m for m in _FORMULA_UNIT.finditer(before) if unit_here.startswith(m.group("unit"))
        ]
        if not formulas:
            continue
        formula = formulas[-1].group("f")
        value = open_value(formula)
        if value is None or {str(x) for x in value.free_symbols} != {match.group("name")}:
            continue
        (name,) = value.free_symbols
        at = Fraction(match.group("at").replace(",", ""))
        worked = value.subs(name, sympy.Rational(at.numerator, at.denominator))
        if not worked.is_number:
            continue
        out.append(
            _judged(
                line,
                match.group(0).strip() + " " + formulas[-1].group("unit"),
                _fraction(worked),
                match.group("n"),
                False,
                f"${formula}$ at {match.group('name')} = {match.group('at')}",
                INSTANCE_RULE,
            )
        )
    return out


def _bare_instances(line: int, text: str) -> list[Finding]:
    """「残りの割合は $(n - 1)/(2n)$、$n = 1024$ では約 49.95 %」, 「$\\frac{1}{9i}$ で、$i = 1$
    で $0.1111$、$i = 10$ で $0.0111$」: a formula of one name with no unit after it, then,
    with nothing but 「、」「で」 and earlier such values between, its value at a setting of
    that name; a percentage is the formula's value in per cent."""
    out = []
    for match in _BARE_INSTANCE.finditer(text):
        formula = _formula_before(sentence_before(text, match.start()))
        value = open_value(formula) if formula else None
        if value is None or {str(x) for x in value.free_symbols} != {match.group("name")}:
            continue
        (name,) = value.free_symbols
        at = Fraction(match.group("at").replace(",", ""))
        worked = value.subs(name, sympy.Rational(at.numerator, at.denominator))
        if not worked.is_number or not worked.is_real:
            continue
        scale = 100 if match.group("percent") else 1
        out.append(
            _judged(
                line,
                match.group(0).strip(),
                _fraction(worked) * scale,
                match.group("n"),
                bool(match.group("about")),
                f"${formula}$ at {match.group('name')} = {match.group('at')}"
                + (", in per cent" if scale != 1 else ""),
                INSTANCE_RULE,
            )
        )
    return out


def _formula_before(sentence: str) -> str | None:
    """The formula the sentence ends with, read back over 「、」「で」 and formulas that are a
    setting or a number (the values worked before): None when words stand between."""
    rest = sentence
    while True:
        rest = re.sub(r"[\s、で]*\Z", "", rest)
        if not rest.endswith("$"):
            return None
        start = rest.rfind("$", 0, len(rest) - 1)
        if start < 0:
            return None
        formula = rest[start + 1 : -1]
        if not _SETTING_OR_NUMBER.fullmatch(formula):
            return formula
        rest = rest[:start]


def _fraction(value: sympy.Expr) -> Fraction:
    """An exact value as a Fraction; any other to 30 digits, far past a printed one's."""
    if value.is_Rational:
        return Fraction(int(value.p), int(value.q))
    return Fraction(str(sympy.N(value, 30)))


def _judged(
    line: int, text: str, value: Fraction, printed: str, about: bool, what: str, rule: Rule
) -> Finding:
    low, high = printed_span(printed, about)
    shown = f"{float(value):.6g}"
    if low <= value <= high:
        return Finding(
            Section.PROSE, line, text, Status.CONFIRMED, f"{what}: {shown}", code=rule.code
        )
    return Finding(
        Section.PROSE,
        line,
        text,
        Status.MISMATCHED,
        f"{what} is {shown}, not {printed}{' (about)' if about else ''}",
        code=rule.code,
    )


def _same_magnitude(a: Fraction, b: Fraction) -> bool:
    """Whether two positive ratios are within a factor of 3 of each other: a slipped digit
    of a ratio keeps its magnitude, a sentence read with the wrong numbers does not."""
    return a > 0 and b > 0 and Fraction(1, 3) <= a / b <= 3


def printed_span(printed: str, about: bool) -> tuple[Fraction, Fraction]:
    """What a printed number stands for: half a unit of its last digit around it, of its
    last significant digit under 約 (530: 525 to 535)."""
    bare = printed.replace(",", "")
    value = Fraction(bare)
    decimals = len(bare.partition(".")[2])
    unit = Fraction(1, 10**decimals)
    if about and not decimals:
        digits = bare.rstrip("0")
        unit = Fraction(10 ** (len(bare) - len(digits))) if digits else Fraction(1)
    return value - unit / 2, value + unit / 2


# a number that names an element, a section or a table (例 4.4, 3 節), not an amount
_NAMING = re.compile(
    rf"(?:例|命題|定義|定理|補題|系|注意|演習|表|図|式)\s*(?:{_NUMBER})|(?:{_NUMBER})\s*(?:節|章|行目)"
)


def sentence_before(text: str, end: int) -> str:
    """The sentence the text up to `end` ends in, with the numbers that name elements,
    sections and tables blanked, and those of a remark in brackets (「（$|x| \\approx
    2.27$）」, where a value is taken): the numbers a ratio in words relates are its own."""
    sentence = _without_remarks(text[text.rfind("。", 0, end) + 1 : end])
    return _NAMING.sub(lambda m: " " * len(m.group(0)), sentence)


def _without_remarks(sentence: str) -> str:
    """The sentence with each remark in brackets of its prose blanked, the formulas in it
    included; a bracket inside a formula is the formula's."""
    out, depth = [], 0
    pieces = re.split(r"(\$[^$]*\$)", sentence)
    for piece in pieces:
        if piece.startswith("$") and piece.endswith("$") and len(piece) > 1:
            out.append(" " * len(piece) if depth else piece)
            continue
        for character in piece:
            depth += character == "("
            out.append(" " if depth else character)
            depth -= character == ")" and depth > 0
    return "".join(out)


def _numbers(text: str) -> list[Stated]:
    """The numbers of a sentence's beginning, in order: each prose number, and each
    formula's last member when it is a number."""
    found: list[Stated] = []
    for m in INLINE_MATH.finditer(text):
        value = _value(m.group(0))
        if value is not None:
            found.append(Stated(m.start(), value))
    prose = INLINE_MATH.sub(lambda m: " " * len(m.group(0)), text)
    for m in _PROSE_NUMBER.finditer(prose):
        found.append(Stated(m.start(), Fraction(m.group(0).replace(",", ""))))
    return sorted(found, key=lambda s: s.start)


def _value(text: str) -> Fraction | None:
    """A prose number's value, or the value a formula `$…$` ends with when its last member
    is arithmetic on numbers."""
    if not text.startswith("$"):
        return Fraction(text.replace(",", ""))
    member = _last_member(text.strip("$"))
    try:
        value = evaluate(member, {}, False, face=True)
    except (NotNumeric, TooLarge, ValueError, ArithmeticError):
        return None
    if value.vector or len(value.items) != 1:
        return None
    low, high = (mpmath.mpf(end) for end in value.items[0]._mpi_)
    return Fraction(mpmath.nstr((low + high) / 2, 30))


def formula_span(text: str) -> tuple[Fraction, Fraction] | None:
    """The values a formula's last member may stand for, at its numbers' printed precision
    (`$… = 0.5488$`: 0.54875 to 0.54885; `$e^{0} = 1$`: exactly 1), or None when the member
    is not arithmetic on numbers."""
    member = _last_member(text.strip("$"))
    try:
        value = evaluate(member, {}, False)
    except (NotNumeric, TooLarge, ValueError, ArithmeticError):
        return None
    if value.vector or len(value.items) != 1:
        return None
    low, high = (Fraction(mpmath.nstr(mpmath.mpf(end), 30)) for end in value.items[0]._mpi_)
    return low, high


def _last_member(tex: str) -> str:
    statement = re.split(r"\\\\|,\s|、", tex)[-1]
    return split_relations(statement)[0][-1].strip()
