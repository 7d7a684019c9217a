"""Formulas a line restates from the elements it cites: 「パラメータ数は $4d^2 + 4d$ …
（<Ref to="prop-attention-parameters"/>）」 must be what 命題 7.1 states.

A chapter's summary, remarks and later sections repeat an element's formula beside a
citation of it. Each formula of a line that cites elements of the same chapter (by MDX
`<Ref>` or by a printed number, 命題 6.1) is compared with the formulas of those elements'
statements it can restate — a relation with the same left side, or a sum; each member of
a chain, and the relation whole when it is one; sizing and \\underbrace labels aside.
Decided equal in the open notation to any of them, it is confirmed; else decided
different from the most alike (difflib's ratio at least ALIKE, or the one relation of its
left side whatever its likeness), a mismatch; undecided (an O(·) term, a symbol the open
notation cannot read), or like none, it is another quantity and is left alone.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from proofs.audit.deciding.notation import decide_open
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.book.claims import normalise_tex
from proofs.reader import Document
from proofs.reader.math import split_relations, statement_lines
from proofs.reader.records import Element
from proofs.tex.tokens import group_end

_CITING = (
    "# 見本\n\n## 1. 数\n\n"
    '<Proposition id="prop-count" title="パラメータ数">\n\nパラメータ数は $4d^2 + 4d$ '
    "である。\n\n</Proposition>\n\n"
    'まとめると、パラメータ数は ${}$ です（<Ref to="prop-count" />）。\n'
)
CITED = Rule(
    "CIT001",
    "cited-formula-restated",
    Section.RESTATED,
    Severity.WARNING,
    "A formula on a line that cites an element of the chapter, restating one of that "
    "element's statement (the same left side, or alike), is equal to it.",
    Example(_CITING.format("4d^2 + 3d")),
    Example(_CITING.format("4d(d + 1)")),
)
RESTATED_ELSEWHERE = Rule(
    "CIT002",
    "statement-restated-otherwise",
    Section.FORMULA,
    Severity.WARNING,
    "An element's formula that a line citing it restates otherwise (CIT001) is named at its "
    "own line too, unless something there confirms it: which of the two slipped, the "
    "citation alone does not tell.",
    Example(_CITING.format("4d^2 + 3d")),
    Example(_CITING.format("4d(d + 1)")),
)
RULES = (CITED, RESTATED_ELSEWHERE)


ALIKE = 0.8  # a restatement with one slip stays this like its original
_UNDERBRACE = "\\underbrace"
_INLINE = re.compile(r"(?<![\\$])\$([^$]+)\$")
_NUMBER = re.compile(r"\s*-?(?:\d{1,3}(?:(?:\{,\}|,)\d{3})+|\d+)(?:\.\d+)?\s*")  # 1{,}024
_SUM = re.compile(r"[\w})]\s*[+-]\s*[\w\\(|]")  # a term (x, \frac{a}{b}, (x)), a sign, a term


def audit_cited(document: Document, confirmed: frozenset[int] = frozenset()) -> list[Finding]:
    """Each formula restated beside a citation of its element, judged against it; a
    mismatch named at the element's formula too, unless its line is among `confirmed`
    (the lines where a statement was confirmed)."""
    cited: dict[int, list[Element]] = {}
    for ref in document.refs:
        element = None if ref.external else document.element(ref.target)
        if element is not None and not element.line <= ref.line <= _end(element):
            cited.setdefault(ref.line, []).append(element)
    parts: dict[int, list[_Formula]] = {}  # each element's, read once
    out = []
    for line, elements in sorted(cited.items()):
        originals = [
            g for e in elements for g in parts.setdefault(e.line, _statement_parts(document, e))
        ]
        for tex in _INLINE.findall(document.line(line)):
            judged = _judged(line, tex, originals)
            if judged is None:
                continue
            finding, original, witness = judged
            out.append(finding)
            if finding.status == Status.MISMATCHED and original.line not in confirmed:
                out.append(
                    Finding(
                        Section.FORMULA,
                        original.line,
                        original.tex,
                        Status.MISMATCHED,
                        f"line {line} restates it otherwise: ${tex}$; {witness}",
                        code=RESTATED_ELSEWHERE.code,
                    )
                )
    return out


def _end(element: Element) -> int:
    return (element.proof or element.statement)[1]


def _plain(tex: str) -> str:
    """A formula compared: each \\underbrace{X}_{label} read as X, normalised."""
    out, at = [], 0
    while (start := tex.find(_UNDERBRACE + "{", at)) >= 0:
        body = group_end(tex, start + len(_UNDERBRACE))
        if body is None:
            break  # unclosed: the rest is kept as written
        label = group_end(tex, body + 1) if tex.startswith("_{", body) else body
        label = len(tex) if label is None else label
        out += [tex[at:start], tex[start + len(_UNDERBRACE) + 1 : body - 1]]  # X without braces
        at = label
    return normalise_tex("".join(out) + tex[at:])


def _parts(tex: str) -> list[str]:
    """A statement's relation whole (when it is one relation) and each of its members."""
    members, relations = split_relations(tex)
    whole = [tex] if len(relations) == 1 else []
    return whole + [m for m in members if m.strip()]


@dataclass(frozen=True)
class _Formula:
    """A formula read for comparison: the element it is of, its normalised TeX, its
    members and relations."""

    number: str
    tex: str
    members: tuple[str, ...]
    relations: tuple[str, ...]
    line: int = 0  # where the element states it

    @classmethod
    def read(cls, number: str, tex: str, line: int = 0) -> _Formula:
        members, relations = split_relations(tex)
        return cls(number, tex, tuple(members), tuple(relations), line)

    def restates(self, other: _Formula) -> bool:
        """Whether the two can restate each other: two relations with the same left side
        and relations, or two sums (a lone symbol or product is too short to tell a slip
        from another quantity: 1/σ is not σ slipped)."""
        if r"\to" in self.relations or r"\to" in other.relations:
            return False  # 「$T \to \infty$ では」: where a name goes, no formula to restate
        if self.relations or other.relations:
            return self.relations == other.relations and self.members[0] == other.members[0]
        return bool(_SUM.search(self.tex) and _SUM.search(other.tex))


def _statement_parts(document: Document, element: Element) -> list[_Formula]:
    """Every formula of the element's statement, each of its parts read."""
    first, last = element.statement
    return [
        _Formula.read(element.number, _plain(part), line)
        for m in document.math_in(first, last)
        for line, statement in statement_lines(m.line, m.tex)
        for part in _parts(statement)
    ]


def _judged(line: int, tex: str, originals: list[_Formula]) -> tuple[Finding, _Formula, str] | None:
    """Confirmed when the formula is, or is decided equal to, any formula of the cited
    statements it can restate; a mismatch when the most alike of them is decided different
    and none is equal; else nothing. With the finding, the formula it was judged against
    and the witness of a mismatch."""
    mine = _Formula.read("", _plain(tex))
    if not mine.relations and not _SUM.search(mine.tex):
        return None  # a lone symbol or product restates nothing it could be told from
    alike = sorted(
        (
            (difflib.SequenceMatcher(None, mine.tex, g.tex, autojunk=False).ratio(), k, g)
            for k, g in enumerate(originals)
            if mine.restates(g)
        ),
        key=lambda x: (-x[0], x[1]),
    )
    if not alike:
        return None
    same = next((g for _, _, g in alike if g.tex == mine.tex), None)
    verdicts = [] if same is not None else [(g, _decided(mine.tex, g.tex)) for _, _, g in alike]
    same = same or next((g for g, (status, _) in verdicts if status == "confirmed"), None)
    if same is not None:
        said = "as {} states it" if same.tex == mine.tex else "{} states ${}$"
        confirmed = Finding(
            Section.RESTATED,
            line,
            tex,
            Status.CONFIRMED,
            said.format(same.number, same.tex),
            code=CITED.code,
        )
        return confirmed, same, ""
    likeness = alike[0][0]
    original, (status, detail) = verdicts[0]
    if _is_setting(mine.tex) and _is_setting(original.tex):
        return None  # k = 2 (k > 1) here, k = 1 (k > 0) in the cited element: another case
    one_relation = len(alike) == 1 and mine.relations
    if status != "mismatched" or (likeness < ALIKE and not one_relation):
        return None  # the one relation of its left side is it, whatever its likeness
    mismatched = Finding(
        Section.RESTATED,
        line,
        tex,
        Status.MISMATCHED,
        f"{original.number} states ${original.tex}$; restated here otherwise: {detail}",
        code=CITED.code,
    )
    return mismatched, original, detail


def _is_setting(tex: str) -> bool:
    """`k = 2`, `\\mu = 0`, `k > 1`, `p = 1{,}024`, `\\varepsilon = 10^{-8}`: a name given a
    number (arithmetic on numbers alone), or a range of one."""
    members, relations = split_relations(tex)
    return (
        len(relations) == 1
        and relations[0] in ("=", "<", ">", r"\le", r"\ge", r"\leq", r"\geq", r"\ne", "<=", ">=")
        and re.fullmatch(r"\s*\\?[A-Za-z]+(?:_\{?\w+\}?)?\s*", members[0]) is not None
        and (_NUMBER.fullmatch(members[1]) or _ARITHMETIC.fullmatch(members[1])) is not None
    )


# numbers alone, as a setting gives one: 10^{-8}, 6 \times 10^{-4}, \frac{1}{2}
_ON_NUMBERS = r"(?:[\d\s.,{}^+\-*/()]|\\(?:times|cdot|frac|dfrac|tfrac))"
_ARITHMETIC = re.compile(rf"{_ON_NUMBERS}*\d{_ON_NUMBERS}*")


def _decided(mine: str, original: str) -> tuple[str, str]:
    """Whether two formulas say the same: members decided equal, a relation's sides
    decided pairwise under the same relation."""
    a, relations_a = split_relations(mine)
    b, relations_b = split_relations(original)
    if relations_a != relations_b or len(a) != len(b):
        return "not checkable", "not the same relations"
    if not relations_a:
        return decide_open(f"{mine} = {original}")
    verdicts = [decide_open(f"{x} = {y}") for x, y in zip(a, b, strict=True)]
    wrong = next((v for v in verdicts if v[0] == "mismatched"), None)
    if wrong is not None:
        return wrong
    if all(v[0] == "confirmed" for v in verdicts):
        return "confirmed", ""
    return "not checkable", "a side undecided"
