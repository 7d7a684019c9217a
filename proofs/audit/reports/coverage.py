"""How much of a chapter the audit examined: its printed numbers and its relations.

A number the chapter prints (in prose, math, tables, figure labels and printed output;
code and markup attributes aside) is examined when a finding that judged it (confirmed
or mismatched, not "not checkable") stands at its line and quotes it. A relation (a
statement of a formula with =, ≈, <, ≤, …) is examined when such a finding quotes it.
Every number left is listed with why: a finding's reason it could not be judged, or
what the number is where it stands — notation (an index or exponent of a symbol), a
name of a section, an item or a cited work, an ordinal, a figure's label, or a quantity
no relation reads — so that the list can only shrink as the audit learns to read more.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from proofs.audit.findings import Finding, Status
from proofs.book.printed import ungrouped
from proofs.reader import Document
from proofs.reader.math import split_relations, statement_lines
from proofs.reader.records import LABELS
from proofs.reader.spans import Spans

# what numbers the book's elements rather than printing a quantity: 命題 3.1, <Ref to="…"/>
_CITATION = re.compile(r"(?:" + "|".join(LABELS) + r")\s?[\dA-Z]+\.\d+|<Ref\s[^>]*/>|第\s?\d+\s?章")
_NUMBER = re.compile(
    r"(?<![\w.,{}])\d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?(?![\w.])"
    r"|(?<![\w.])\d+(?:\.\d+)?(?![\w.])"
)

# why a number was not examined, when no finding said why
NOTATION = "notation: an index, exponent or range bound of a formula's symbols"
NAMES = "names a section, an item, an output line or a cited work"
ORDINAL = "an ordinal: a position, not an amount"
BIBLIOGRAPHY = "in a bibliography entry: its number, year or identifier"
FIGURE_LABEL = "a label of a figure"
IN_FORMULA = "a quantity in a formula no relation of it is judged"
IN_PROSE = "a quantity in prose, where no relation reads it"

_CITED = "\x00"  # stands for a citation removed from a line, so that 「<Ref/> の 2」 reads
_NAMES = re.compile(
    r"\d+(?:\.\d+)*(?:\s?[・〜~,、-]\s?\d+(?:\.\d+)*)*\s?(?:節|章|行目|項)"
    r"|\[\d+\]|(?:" + _CITED + r"|証明|命題|定理|補題)\s?の\s?\d+(?:\s?[・、と]\s?\d+)*"
    r"|^\s*\d+\s?は(?=[^\d\s])"  # 「2 は実装で重要です」: the item of the statement above
)
_ORDINAL = re.compile(r"第\s?\d+|\d+(?:\s?[・〜~]\s?\d+)*\s?(?:番目|つ目|段目)")
_BIBLIOGRAPHY = re.compile(r"^\s*(?:[-*•]\s*)?\[\d+\]\s")
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)(.+?)(?<!\\)\$")
_DOTS = r"\\(?:l|c)?dots"
_RANGE = re.compile(rf"\d+\s*,\s*{_DOTS}|{_DOTS}\s*,\s*\d+")


@dataclass(frozen=True)
class Coverage:
    """Counts of a chapter's numbers and relations, and those not examined (line, text,
    why)."""

    numbers: int
    numbers_examined: int
    relations: int
    relations_examined: int
    unexamined: tuple[tuple[int, str, str], ...]  # line, number, why not

    def to_text(self) -> str:
        return (
            f"{self.numbers_examined} of {self.numbers} numbers and "
            f"{self.relations_examined} of {self.relations} relations examined"
        )

    def reasons(self) -> Counter[str]:
        """How many numbers were left for each reason."""
        return Counter(why for _, _, why in self.unexamined)

    def to_dict(self) -> dict:
        return {
            "numbers": self.numbers,
            "numbers examined": self.numbers_examined,
            "relations": self.relations,
            "relations examined": self.relations_examined,
            "not examined": [
                {"line": line, "text": text, "why": why} for line, text, why in self.unexamined
            ],
        }


def coverage(document: Document, findings: list[Finding]) -> Coverage:
    """The chapter's numbers and relations against the findings that judged them."""
    judged: dict[int, str] = {}
    unjudged: dict[int, list[Finding]] = {}
    for f in findings:
        if f.status in (Status.CONFIRMED, Status.MISMATCHED):
            judged[f.line] = judged.get(f.line, "") + " " + ungrouped(f.text)
        elif f.status == Status.NOT_CHECKABLE:
            unjudged.setdefault(f.line, []).append(f)
    numbers, missing = 0, []
    for line, number, role in numbers_and_roles(document):
        numbers += 1
        digits = ungrouped(number)
        if not _quotes(judged.get(line, ""), digits):
            said = next(
                (f.detail for f in unjudged.get(line, []) if _quotes(ungrouped(f.text), digits)),
                None,
            )
            missing.append((line, number, said or role))
    relations = examined = 0
    quoted: dict[int, list[str]] = {}
    for f in findings:
        if f.status in (Status.CONFIRMED, Status.MISMATCHED):
            quoted.setdefault(f.line, []).append(re.sub(r"\s+", "", f.text))
    exact = {line: set(texts) for line, texts in quoted.items()}  # a relation judged whole
    for formula in document.math:
        for line, statement in statement_lines(formula.line, formula.tex):
            if not split_relations(statement)[1]:
                continue
            relations += 1
            bare = re.sub(r"\s+", "", statement)
            texts = quoted.get(line, ())
            examined += bare in exact.get(line, ()) or any(
                bare in text or text in bare for text in texts
            )
    return Coverage(numbers, numbers - len(missing), relations, examined, tuple(missing))


def numbers_and_roles(document: Document) -> list[tuple[int, str, str]]:
    """(line, number, what it is where it stands) of every number the chapter
    prints: every line of text (headings and element tags aside, whose numbers are the
    chapter's numbering; markup attributes aside, which are not printed) and of printed
    output."""
    numbering = {h.line for h in document.headings} | {e.line for e in document.elements}
    display = {
        line
        for m in document.math
        if m.display
        for line in range(m.line, m.line + m.tex.strip().count("\n") + 1)
    }
    figures = {line for f in document.figures for line in range(f.line, f.end + 1)}
    out = []
    for line, shown in document.shown_lines:
        if line in numbering:
            continue
        text = _CITATION.sub(_CITED, shown)
        roles = _roles(text, line in display, line in figures)
        for m in _NUMBER.finditer(text):
            out.append((line, m.group(0), roles(m.start())))
    return out


def _roles(text: str, display: bool, figure: bool) -> Callable[[int], str]:
    """A function from a number's position in `text` to what the number is there."""
    maths = Spans([(0, len(text))] if display else (m.span(1) for m in _INLINE_MATH.finditer(text)))
    names = Spans(m.span() for m in _NAMES.finditer(text))
    ordinals = Spans(m.span() for m in _ORDINAL.finditer(text))
    cited = _BIBLIOGRAPHY.match(text) is not None

    def role(at: int) -> str:
        inside = maths.holding(at)
        if cited:
            return BIBLIOGRAPHY
        if inside is not None:
            return (
                NOTATION if _notation(text[inside[0] : inside[1]], at - inside[0]) else IN_FORMULA
            )
        if at in names:
            return NAMES
        if at in ordinals:
            return ORDINAL
        return FIGURE_LABEL if figure else IN_PROSE

    return role


def _notation(tex: str, at: int) -> bool:
    """Whether the number at `at` in `tex` is notation: a subscript or superscript, the
    argument of \\boldsymbol/\\mathbf (the all-ones vector), or a bound of a range written
    with dots (1, \\ldots, n)."""
    before = tex[:at].rstrip()
    if before.endswith(("_", "^")):
        return True
    depth = 0
    for k in range(at - 1, -1, -1):  # the groups the number stands in, innermost first
        if tex[k] == "}":
            depth += 1
        elif tex[k] == "{":
            if depth:
                depth -= 1
                continue
            opener = tex[:k].rstrip()
            if opener.endswith(("_", "^", "\\boldsymbol", "\\mathbf")):
                return True
    return any(m.start() <= at < m.end() for m in _RANGE.finditer(tex))


def _quotes(text: str, digits: str) -> bool:
    """Whether `text` quotes the number `digits` with no digit either side of it."""
    if _NUMBER_DIGITS.fullmatch(digits):
        return digits in _quoted(text)
    return re.search(rf"(?<!\d){re.escape(digits)}(?!\d)", text) is not None


_NUMBER_DIGITS = re.compile(r"\d+(?:\.\d+)?")
_DIGIT_RUN = re.compile(r"\d+(?:\.\d+)*")


@functools.lru_cache(maxsize=64)
def _quoted(text: str) -> frozenset[str]:
    """The numbers of at most one point that `text` quotes with no digit either side: of
    each run of digits and points, each part between points and each two neighbouring
    parts (21.53 quotes 21, 53 and 21.53). Read once per text, however many numbers of a
    long line ask."""
    out = set()
    for run in _DIGIT_RUN.findall(text):
        parts = run.split(".")
        out.update(parts)
        out.update(f"{a}.{b}" for a, b in zip(parts, parts[1:], strict=False))
    return frozenset(out)
