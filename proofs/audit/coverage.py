"""How much of a chapter the audit examined: its printed numbers and its relations.

A number the chapter prints (in prose, math, tables and printed output; code aside) is
examined when a finding that judged it (confirmed or mismatched, not "not checkable")
stands at its line and quotes it. A relation (a statement of a formula with =, ≈, <, ≤,
…) is examined when such a finding quotes it. What is left is listed, so that the list
can only shrink as the audit learns to read more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from proofs.audit.report import Finding, Status
from proofs.reader import Document
from proofs.reader.math import split_relations, statement_lines
from proofs.reader.records import LABELS

# what numbers the book's elements rather than printing a quantity: 命題 3.1, <Ref to="…"/>
_CITATION = re.compile(r"(?:" + "|".join(LABELS) + r")\s?[\dA-Z]+\.\d+|<Ref\s[^>]*/>|第\s?\d+\s?章")
_NUMBER = re.compile(
    r"(?<![\w.,{}])\d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?(?![\w.])"
    r"|(?<![\w.])\d+(?:\.\d+)?(?![\w.])"
)


@dataclass(frozen=True)
class Coverage:
    """Counts of a chapter's numbers and relations, and those not examined (line, text)."""

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
            judged[f.line] = judged.get(f.line, "") + " " + _digits(f.text)
        elif f.status == Status.NOT_CHECKABLE:
            unjudged.setdefault(f.line, []).append(f)
    maths = {m.line for m in document.math}
    numbers, missing = 0, []
    for line, text in _number_lines(document):
        for m in _NUMBER.finditer(text):
            numbers += 1
            digits = _digits(m.group(0))
            if not _quotes(judged.get(line, ""), digits):
                missing.append(
                    (line, m.group(0), _why(unjudged.get(line, []), digits, line in maths))
                )
    relations = examined = 0
    quoted: dict[int, list[str]] = {}
    for f in findings:
        if f.status in (Status.CONFIRMED, Status.MISMATCHED):
            quoted.setdefault(f.line, []).append(re.sub(r"\s+", "", f.text))
    for formula in document.math:
        for line, statement in statement_lines(formula.line, formula.tex):
            if not split_relations(statement)[1]:
                continue
            relations += 1
            bare = re.sub(r"\s+", "", statement)
            examined += any(bare in text or text in bare for text in quoted.get(line, ()))
    return Coverage(numbers, numbers - len(missing), relations, examined, tuple(missing))


def _number_lines(document: Document) -> list[tuple[int, str]]:
    """The lines whose numbers count: every line of text (headings and element tags
    aside, whose numbers are the chapter's numbering) and of printed output."""
    numbering = {h.line for h in document.headings} | {e.line for e in document.elements}
    return [(k, _CITATION.sub(" ", text)) for k, text in document.text_lines if k not in numbering]


def _quotes(text: str, digits: str) -> bool:
    return re.search(rf"(?<!\d){re.escape(digits)}(?!\d)", text) is not None


def _why(unjudged: list[Finding], digits: str, math: bool) -> str:
    """Why a number was not examined: the reason of a finding that read it and could not
    judge it, else where it stands."""
    said = next((f.detail for f in unjudged if _quotes(_digits(f.text), digits)), None)
    if said is not None:
        return said
    return (
        "in a formula no relation of it is judged"
        if math
        else "in prose, where no relation reads it"
    )


def _digits(text: str) -> str:
    return text.replace("{,}", "").replace(",", "")
