"""A numbered item of a statement and the same item of its proof: the count the proof
arrives at is the count the statement states.

A proposition says 「2. … キャッシュは $2Lid$ 個の数からなる。」 and its proof's item 2 counts
its way to 「… $L$ 層で $2Lid$ 個です。」. When an item of the proof ends with a formula
followed by a counter word (個, 回, 本, バイト), and the statement's item of the same number
states a formula followed by the same counter, the two are one quantity written twice:
they are decided equal in the open notation (proofs.audit.deciding.notation) with the element's
settings. Two formulas of other quantities (different names) are left alone; the same
names and no identity is a mismatch at the statement's line.
"""

from __future__ import annotations

import re

from proofs.audit.deciding.notation import OpenFacts, decide_open
from proofs.audit.deciding.sentence import is_setting
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.reader import Document
from proofs.reader.math import INLINE_MATH
from proofs.reader.records import Element

_ITEMS = (
    "# 見本\n\n## 1. キャッシュ\n\n"
    '<Proposition id="prop-cache" title="キャッシュの大きさ">\n\n'
    "1. 1 層のキャッシュは $2id$ 個の数からなる。\n"
    "2. $L$ 層のキャッシュは $2Lid$ 個の数からなる。\n\n</Proposition>\n\n"
    '<Proof of="prop-cache">\n\n'
    "1. 位置ごとに $K$ と $V$ の 2 行で、$i$ 位置ぶん $2id$ 個です。\n"
    "2. 層ごとに 1. の数で、$L$ 層で {} 個です。\n\n</Proof>\n"
)
PROVED_COUNT = Rule(
    "PRF001",
    "proof-arrives-elsewhere",
    Section.FORMULA,
    Severity.WARNING,
    "The count a proof's numbered item arrives at (a formula before 個, 回, 本, バイト) is "
    "the count the statement's item of the same number states.",
    Example(_ITEMS.format("$Lid$")),
    Example(_ITEMS.format("$2dLi$")),
)
RULES = (PROVED_COUNT,)


COUNTERS = ("個", "回", "本", "バイト")
_COUNTED = re.compile(r"\$([^$]+)\$\s*(" + "|".join(COUNTERS) + ")")
_ITEM = re.compile(r"^\s*(\d+)\.\s")


def audit_conclusions(document: Document) -> list[Finding]:
    """Each statement item's count against the count its proof's item ends with."""
    out = []
    for element in document.elements:
        if element.proof is None:
            continue
        stated = _items(document, *element.statement)
        proved = _items(document, *element.proof)
        facts = _settings(document, element)
        for number, (line, text) in stated.items():
            if number not in proved:
                continue
            out += _compared(line, text, proved[number], facts)
    return out


def _items(document: Document, first: int, last: int) -> dict[str, tuple[int, str]]:
    """The numbered items of the lines, by their number: (line, text)."""
    found = {}
    for line in range(first, last + 1):
        item = _ITEM.match(document.line(line))
        if item is not None and item.group(1) not in found:
            found[item.group(1)] = (line, document.line(line))
    return found


def _settings(document: Document, element: Element) -> OpenFacts:
    """The element's settings 「$d_k = d/h$ とする」 (its statement's lines before an item)."""
    facts = OpenFacts()
    first, last = element.statement
    for line in range(first, last + 1):
        text = document.line(line)
        if _ITEM.match(text):
            break
        for m in INLINE_MATH.finditer(text):
            if is_setting(document, line, m.group(1).strip()):
                facts.learn(m.group(1))
    return facts


def _compared(line: int, stated: str, proved: tuple[int, str], facts: OpenFacts) -> list[Finding]:
    """The statement item's count against the proof item's, when the proof item ends
    with a count."""
    proof_line, proof = proved
    formulas = list(INLINE_MATH.finditer(proof))
    ending = list(_COUNTED.finditer(proof))
    if not formulas or not ending or ending[-1].start() != formulas[-1].start():
        return []  # the proof's item does not end with a count
    derived, counter = _last_member(ending[-1].group(1)), ending[-1].group(2)
    claims = [m for m in _COUNTED.finditer(stated) if m.group(2) == counter]
    if not claims:
        return []
    claim = _last_member(claims[-1].group(1))
    status, detail = decide_open(f"{claim} = {derived}", facts)
    if status == "not checkable":
        return []
    return [
        Finding(
            Section.FORMULA,
            line,
            f"${claim}$ {counter}",
            Status(status),
            f"the count its proof arrives at (line {proof_line}: ${derived}$ {counter}): {detail}",
            code=PROVED_COUNT.code,
        )
    ]


def _last_member(tex: str) -> str:
    return re.split(r"=|\\approx", tex)[-1].strip()
