"""Comparisons a sentence states in words between two numbers it prints.

- 「学習するパラメータは $r(d_{\\mathrm{in}} + d_{\\mathrm{out}}) = 6$ 個で、$W_0$ の 9 個より
  少なく」: the number the sentence spoke of last (6) against the number before より (9);
- 「相対誤差は $0.0625$ です。これは $u = 2^{-5} = 0.03125$ を超えています」: the same with
  を超え, を上回り, を下回り, across the sentence before when the comparison's own sentence
  prints no number before it (「これは」);
- 「差は 0.01 未満（約 0.007）」: a bound and, in brackets, the value it bounds.

大きく, 多く, を超え, を上回り say the first is the larger; 小さく, 少なく, を下回り, 未満 the
smaller; 「…ません」「…ない」 right after turn that round. Only a predicate is read: 「1 より
大きい最小の数」 names a number, 「1 より大きく取ると」 is an action, 「3 を超えると」 a
condition. Each number stands for its rounding interval; a mismatch is a pair of intervals
wholly on the wrong side of each other, the two printed numbers its witness. A warning:
which number the words compare is read from its place in the sentence. The first number
must be the sentence's last before the comparison, with no formula in between that could be
the subject (one followed by 「の」, 「$W_0$ の 9 個」, names whose number it is), and not a
value set for a case (「$s = 0.2048$ では」).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.audit.rules.prose import formula_span, printed_span, sentence_before
from proofs.reader import Document
from proofs.reader.math import INLINE_MATH, split_relations

_HEAD = '# 見本\n\n<Remark id="rem-words" title="言葉">\n\n言葉で述べます。\n\n</Remark>\n\n{}\n'
COMPARED = Rule(
    "CMP001",
    "comparison-in-words",
    Section.PROSE,
    Severity.WARNING,
    "「A … B より大きく（小さく、多く、少なく）」「A … B を超え（上回り、下回り）」「B 未満"
    "（約 A）」: the number A the sentence speaks of lies on the side of B the words say, at "
    "the printed precision of both.",
    Example(_HEAD.format("学習する数は $2 \\times 3 = 6$ 個で、$W_0$ の 9 個より多くなります。")),
    Example(_HEAD.format("学習する数は $2 \\times 3 = 6$ 個で、$W_0$ の 9 個より少なくなります。")),
)
RULES = (COMPARED,)

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_UNIT = r"\s*(?:個|回|倍|%|バイト|トークン|ステップ|台|日|秒)?\s*"
# a predicate, not a noun phrase (「大きい最小の」), an action (「大きく取る」) or a condition
_THAN = re.compile(
    rf"(?P<b>\$[^$]+\$|(?<![\d.,]){_NUMBER}){_UNIT}より\s*(?P<way>大き|小さ|多|少な)"
    r"(?P<tail>く(?=[、。（(]|な[りっるくい]|収ま|あり|保)|い(?=[。、（(]|です|ので|から|こと))"
)
_BEYOND = re.compile(
    rf"(?P<b>\$[^$]+\$|(?<![\d.,]){_NUMBER}){_UNIT}を\s*(?P<way>超え|上回|下回)"
    r"(?P<tail>(?:て|ます|ず|ない|る(?=[。、]|ので|から))|[りっ](?=[、。てま]))"
)
_BRACKETED = re.compile(
    rf"(?P<b>(?<![\d.,]){_NUMBER}){_UNIT}(?P<way>未満|以下|以上)\s*[（(]\s*(?P<about>約)?\s*"
    rf"(?P<a>{_NUMBER}){_UNIT}[）)]"
)
_NEGATED = re.compile(r"^[くいえてっりまんなしせ]{0,6}(?:ない|ません|ず)")
_LARGER = ("大き", "多", "超え", "上回", "以上")
# after a number that labels what follows (「2 の評価」) or what it speaks of (「3 については」)
_LABELLING = r"\s*(?:の|について|に対し)"
_SETTING = re.compile(r"^\s*\\?[A-Za-z]+(?:_\{?[^{}]*\}?)?\s*=\s*-?[\d.{},]+\s*$")


@dataclass(frozen=True)
class _Number:
    """A number the sentence prints: where it ends, and the interval it stands for."""

    end: int
    low: Fraction
    high: Fraction


def audit_compared(document: Document) -> list[Finding]:
    """Each comparison in words between two printed numbers, confirmed or mismatched at
    its line."""
    out = []
    for number, line in document.text_lines:
        text = unicodedata.normalize("NFKC", line)
        for match in (*_THAN.finditer(text), *_BEYOND.finditer(text)):
            found = _judged(number, text, match)
            if found is not None:
                out.append(found)
        for match in _BRACKETED.finditer(text):
            a = printed_span(match.group("a"), bool(match.group("about")))
            b = printed_span(match.group("b"), False)
            out.append(_finding(number, match.group(0), a, b, match.group("way"), False))
    return out


def _judged(line: int, text: str, match: re.Match[str]) -> Finding | None:
    """The comparison of the sentence's last number before B with B, or None when the
    sentence gives no such number or B is no number."""
    b = _span(match.group("b"))
    if b is None:
        return None
    before = sentence_before(text, match.start())
    numbers = _numbers(before)
    if not numbers and re.match(r"\s*(?:これ|この値)は", before):
        earlier = text[: text.rfind("。", 0, match.start())]
        numbers = _numbers(sentence_before(earlier, len(earlier)))
        before = ""
    if not numbers:
        return None
    a = numbers[-1]
    for formula in INLINE_MATH.finditer(before[a.end :]):  # a subject between the two
        after = before[a.end + formula.end() :].lstrip()
        if formula_span(formula.group(0)) is None and not after.startswith("の"):
            return None
    negated = bool(_NEGATED.match(text[match.end("way") :]))
    return _finding(line, match.group(0), (a.low, a.high), b, match.group("way"), negated)


def _finding(
    line: int,
    text: str,
    a: tuple[Fraction, Fraction],
    b: tuple[Fraction, Fraction],
    way: str,
    negated: bool,
) -> Finding:
    """The words' order between A and B against the numbers: mismatched only when every
    value A and B stand for is on the wrong side."""
    larger = (way in _LARGER) != negated
    strict = way not in ("以上", "以下")
    if larger:
        wrong = a[1] < b[0] if not strict else a[1] <= b[0]
    else:
        wrong = a[0] > b[1] if not strict else a[0] >= b[1]
    said = f"{'larger' if larger else 'smaller'}: {_shown(a)} against {_shown(b)}"
    return Finding(
        Section.PROSE,
        line,
        text,
        Status.MISMATCHED if wrong else Status.CONFIRMED,
        f"the words say the first number is {said}",
        code=COMPARED.code,
    )


def _numbers(sentence: str) -> list[_Number]:
    """The numbers a sentence prints, in order: prose numbers and the values formulas end
    with, but not a value set for a case (「$s = 0.2048$ では」), a condition (「$t > 0$
    で」) or a number that labels what follows it (「2 の評価」「3 については」)."""
    found = []
    for m in INLINE_MATH.finditer(sentence):
        members, relations = split_relations(m.group(0).strip("$"))
        if set(relations) - {"=", "\\approx"} or (
            len(members) == 2 and _SETTING.match(members[0] + "=" + members[1])
        ):
            continue  # a condition (「$t > 0$ で」) or a case (「$s = 0.2048$ では」)
        span = formula_span(m.group(0))
        if span is not None:
            found.append(_Number(m.end(), *span))
    prose = INLINE_MATH.sub(lambda m: " " * len(m.group(0)), sentence)
    for m in re.finditer(rf"(?<![\w.$,{{}}])(?:{_NUMBER})(?![\w.])(?!{_LABELLING})", prose):
        found.append(_Number(m.end(), *printed_span(m.group(0), False)))
    return sorted(found, key=lambda n: n.end)


def _span(printed: str) -> tuple[Fraction, Fraction] | None:
    if printed.startswith("$"):
        return formula_span(printed)
    return printed_span(printed, False)


def _shown(span: tuple[Fraction, Fraction]) -> str:
    low, high = span
    if low == high:
        return f"{float(low):.6g}"
    return f"{float((low + high) / 2):.6g} (from {float(low):.6g} to {float(high):.6g})"
