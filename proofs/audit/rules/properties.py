"""Properties a sentence states in words of the formula written just before them: that it
increases or decreases in one of its names, does not depend on it, or is proportional to it.

- 「$F$ は $v$ について狭義減少で」「$\\sum_j … = F$ で、$v$ について増加し」: F at v + h
  against F at v for h > 0 (h = 1 where v counts the terms of a sum: an integer);
- 「$t \\mapsto F$ が増加関数」: the same, of the function the arrow writes;
- 「$F$ … $v$ によらない」: F at v + h equals F at v;
- 「$F$ は $v$ に比例し」: F at 2v is twice F at v.

The formula is the last one of the sentence before the words (its last member), read in the
open notation (proofs.audit.deciding.notation): its names positive numbers, each in the range
the chapter states for it (`0 < \\lambda < 1`). A property is judged only when v is one of
the formula's names, so that words about something else (「比 $\\rho$ は $r$ に比例し」, whose
formula comes after them) are left alone. The property is tried at points drawn in every
region (proofs.tex.witness); false at points of every region where the formula has a value,
it is a mismatch with two values a reader can recompute. A warning: which formula the words
are of is read from their order in the sentence, which a second source does not confirm.
"""

from __future__ import annotations

import re
import unicodedata

import sympy

from proofs.audit.deciding.defined import read_notation
from proofs.audit.deciding.notation import open_value, summation_limits, with_calls
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.reader import Document
from proofs.reader.math import split_relations
from proofs.tex.witness import Range, judge

_HEAD = '# 見本\n\n<Remark id="rem-words" title="言葉">\n\n言葉で述べます。\n\n</Remark>\n\n{}\n'
MONOTONE = Rule(
    "PRP001",
    "monotone-in-words",
    Section.PROSE,
    Severity.WARNING,
    "「$F$ は $v$ について増加（減少）」「$v \\mapsto F$ が増加関数」: F at v + h against F at "
    "v, for h > 0, in the range the chapter states; a pair of values where F goes the other "
    "way is the witness.",
    Example(_HEAD.format("比 $(4d + 3)/(7d + 3)$ は $d$ について狭義増加です。")),
    Example(_HEAD.format("比 $(4d + 3)/(7d + 3)$ は $d$ について狭義減少です。")),
)
INDEPENDENT = Rule(
    "PRP002",
    "independent-in-words",
    Section.PROSE,
    Severity.WARNING,
    "「$F$ … $v$ によらない」: F at v + h equals F at v; 「$F$ は $v$ に比例し」: F at 2v is "
    "twice F at v. Judged only when v is a name of F.",
    Example(_HEAD.format("記憶する数は $md_v + t$ 個で、位置 $t$ によりません。")),
    Example(_HEAD.format("和 $\\sin^2 t + \\cos^2 t + m$ は $t$ によりません。")),
)
RULES = (MONOTONE, INDEPENDENT)

_NAME = r"\$\s*(?P<v>\\?[A-Za-z]+(?:_\{?\\?[A-Za-z0-9]+\}?)?)\s*\$"
_DIRECTION = re.compile(
    _NAME + r"\s*について\s*(?P<strict>狭義)?\s*(?:単調)?\s*(?P<way>増加|減少)(?!関数)"
)
_FUNCTION = re.compile(
    r"\$(?P<f>[^$]*\\mapsto[^$]*)\$\s*(?:は|が)\s*(?P<strict>狭義)?\s*(?:単調)?\s*"
    r"(?P<way>増加|減少)関数"
)
# 「$L$ によらない定数で抑えられ」: said of a bound the text does not write, not of F
_OF_A_NOUN = r"(?!\s*(?:定数|値|上界|下界|量|数))"
_INDEPENDENT = re.compile(
    _NAME
    + r"\s*(?:の値)?\s*(?P<how>によらない"
    + _OF_A_NOUN
    + r"|によりません|に依存しない"
    + _OF_A_NOUN
    + r"|に比例)"
)
_FORMULA = re.compile(r"\$([^$]+)\$")


def audit_properties(document: Document) -> list[Finding]:
    """Each property in words of the formula before it, confirmed or mismatched at its line."""
    notation = None
    out: list[Finding] = []
    for number, line in document.text_lines:
        text = unicodedata.normalize("NFKC", line)
        claims = [
            *((m, "monotone") for m in _DIRECTION.finditer(text)),
            *((m, "function") for m in _FUNCTION.finditer(text)),
            *((m, "independent") for m in _INDEPENDENT.finditer(text)),
        ]
        for match, kind in claims:
            if notation is None:
                notation = read_notation(document)
            found = _judged(number, text, match, kind, notation(number).ranges)
            if found is not None:
                out.append(found)
    return out


def _judged(
    line: int, text: str, match: re.Match[str], kind: str, ranges: dict[str, Range]
) -> Finding | None:
    """The property's finding, or None when the formula or the name is not read."""
    if kind == "function":
        variable, _, formula = match.group("f").partition(r"\mapsto")
        members = [formula]
    else:
        variable = match.group("v")
        sentence = text[: match.start()]
        sentence = sentence[sentence.rfind("。") + 1 :]
        formulas = [f for f in _FORMULA.findall(sentence) if f.strip() != variable.strip()]
        if not formulas:
            return None
        members, _ = split_relations(re.split(r"\\\\|,\s|、", formulas[-1])[-1])
    value, v = open_value(with_calls(members[-1])), open_value(variable.strip())
    if value is None or not isinstance(v, sympy.Symbol) or v not in value.free_symbols:
        return None
    counts, counted = summation_limits(members)
    integer = v.name in counts or ranges.get(v.name, Range()).integer
    step = sympy.Symbol("h", positive=True, integer=integer)
    later = value.xreplace({v: v + step})
    if kind == "independent" and match.group("how") == "に比例":
        rule, op, left, right = INDEPENDENT, "=", value.xreplace({v: 2 * v}), 2 * value
        said = f"${match.group('v')}$ に比例: F at 2{v.name} is twice F"
    elif kind == "independent":
        rule, op, left, right = INDEPENDENT, "=", later, value
        said = f"${match.group('v')}$ によらない: F at {v.name} + h equals F"
    else:
        increasing = match.group("way") == "増加"
        op = (
            (">" if increasing else "<")
            if match.group("strict")
            else (">=" if increasing else "<=")
        )
        rule, left, right = MONOTONE, later, value
        said = f"{match.group('way')}: F at {v.name} + h {op} F at {v.name}"
    bounds = {**counted, **ranges}
    judged = judge(op, left, right, counts | {step.name}, bounds)
    if judged.outcome not in ("fails", "holds"):
        return None
    return Finding(
        Section.PROSE,
        line,
        match.group(0),
        Status.MISMATCHED if judged.outcome == "fails" else Status.CONFIRMED,
        f"of F = {members[-1].strip()}, {said}: {judged.detail()}",
        code=rule.code,
    )
