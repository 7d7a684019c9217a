"""The structure of a chapter file: each defect the reader read past (an element not
closed or closed by another, a closing tag of nothing, a `$` without its pair, `$$` never
closed, a proof of no element, an element numbered out of sequence) is a mismatch at its
line."""

from __future__ import annotations

from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.reader import Document
from proofs.reader.records import PROBLEM_KINDS
from proofs.typeset.shown import shortened

UNCLOSED = Rule(
    "STR001",
    "element-not-closed",
    Section.STRUCTURE,
    Severity.ERROR,
    "An element or a proof is closed by its own tag (MDX) or its ∎ (rendered text), "
    "before the next element opens.",
    Example(
        '# 見本\n\n<Definition id="def-f" title="f">\n\n$f(x) := 2x$ と定める。\n\n'
        '<Definition id="def-g" title="g">\n\n$g(x) := 3x$ と定める。\n\n</Definition>\n'
    ),
    Example(
        '# 見本\n\n<Definition id="def-f" title="f">\n\n$f(x) := 2x$ と定める。\n\n'
        '</Definition>\n\n<Definition id="def-g" title="g">\n\n$g(x) := 3x$ と定める。\n\n'
        "</Definition>\n"
    ),
)
STRAY = Rule(
    "STR002",
    "stray-closing-tag",
    Section.STRUCTURE,
    Severity.ERROR,
    "Every closing tag closes an element that is open.",
    Example(
        '# 見本\n\n<Definition id="def-f" title="f">\n\n$f(x) := 2x$ と定める。\n\n'
        "</Definition>\n\n</Theorem>\n"
    ),
    Example(
        '# 見本\n\n<Definition id="def-f" title="f">\n\n$f(x) := 2x$ と定める。\n\n</Definition>\n'
    ),
)
ORPHAN = Rule(
    "STR003",
    "proof-of-no-element",
    Section.STRUCTURE,
    Severity.ERROR,
    'A proof names an element of the chapter: `<Proof of="…">` an id it has, a rendered '
    "証明 the element just before it.",
    Example(
        '# 見本\n\n<Lemma id="lem-f" title="f">\n\n$f(0) = 0$。\n\n</Lemma>\n\n'
        '<Proof of="lem-g">\n\n$f(0) = 2 \\cdot 0 = 0$。\n\n</Proof>\n'
    ),
    Example(
        '# 見本\n\n<Lemma id="lem-f" title="f">\n\n$f(0) = 0$。\n\n</Lemma>\n\n'
        '<Proof of="lem-f">\n\n$f(0) = 2 \\cdot 0 = 0$。\n\n</Proof>\n'
    ),
)
MISLABELLED = Rule(
    "STR004",
    "id-of-another-kind",
    Section.STRUCTURE,
    Severity.ERROR,
    "An MDX id's prefix (def-, prop-, thm-, …) names the kind of its tag.",
    Example('# 見本\n\n<Lemma id="def-f" title="f">\n\n$f(0) = 0$。\n\n</Lemma>\n'),
    Example('# 見本\n\n<Lemma id="lem-f" title="f">\n\n$f(0) = 0$。\n\n</Lemma>\n'),
)
UNPAIRED = Rule(
    "STR005",
    "unpaired-dollar",
    Section.STRUCTURE,
    Severity.ERROR,
    "A `$` has its closing `$` on its line, a `$$` before its paragraph ends.",
    Example(
        '# 見本\n\n<Definition id="def-f" title="f">\n\n$f(x) := 2x と定める。\n\n</Definition>\n'
    ),
    Example(
        '# 見本\n\n<Definition id="def-f" title="f">\n\n$f(x) := 2x$ と定める。\n\n</Definition>\n'
    ),
)
NUMBERING = Rule(
    "STR006",
    "element-out-of-sequence",
    Section.STRUCTURE,
    Severity.ERROR,
    "A rendered element's number is the next of its section's (命題 2.1, then 2.2), in the "
    "section it stands in.",
    Example(
        "見本：章\n\n1. 節\n\n定義 1.1（f）\n$f(x) := 2x$ と定める。\n\n"
        "定義 1.3（g）\n$g(x) := 3x$ と定める。\n"
    ),
    Example(
        "見本：章\n\n1. 節\n\n定義 1.1（f）\n$f(x) := 2x$ と定める。\n\n"
        "定義 1.2（g）\n$g(x) := 3x$ と定める。\n"
    ),
)
RULES = (UNCLOSED, STRAY, ORPHAN, MISLABELLED, UNPAIRED, NUMBERING)
_BY_KIND = dict(zip(PROBLEM_KINDS, RULES, strict=True))  # the reader's kind of defect


def audit_structure(document: Document) -> list[Finding]:
    """Each defect of the file's structure the reader read past, a mismatch at its line."""
    return [
        Finding(
            Section.STRUCTURE,
            p.line,
            shortened(document.line(p.line).strip()),
            Status.MISMATCHED,
            p.message,
            code=_BY_KIND[p.kind].code,
        )
        for p in document.problems
    ]
