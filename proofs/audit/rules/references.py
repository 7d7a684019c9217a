"""The references of a chapter: every `<Ref>` (in the rendered form, every cited number,
命題 7.2［自己注意］) names an element the chapter has; one to another chapter or book is
external."""

from __future__ import annotations

from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.book.registry import CHAPTERS
from proofs.reader import Document

_CITING = (
    '# 見本\n\n<Lemma id="lem-f" title="f">\n\n$f(0) = 0$。\n\n</Lemma>\n\n'
    '<Ref to="{}" /> より $f$ は原点を通ります。\n'
)
UNRESOLVED = Rule(
    "REF001",
    "reference-to-nothing",
    Section.REF,
    Severity.ERROR,
    'Every reference names an element the chapter has (`<Ref to="…" />`, a cited '
    "命題 3.1); one to another chapter or book is external.",
    Example(_CITING.format("lem-g")),
    Example(_CITING.format("lem-f")),
)
RULES = (UNRESOLVED,)


def audit_refs(document: Document, chapter: str) -> list[Finding]:
    """Every reference: to an element of this chapter (resolved, or a mismatch when the
    document has no such element), or external (another chapter or page)."""
    ids = {e.id for e in document.elements if e.id}
    numbers = {e.number for e in document.elements}
    short = CHAPTERS[chapter].short if chapter in CHAPTERS else ""
    out = []
    for ref in document.refs:
        if ref.external:
            out.append(
                Finding(
                    Section.REF,
                    ref.line,
                    ref.target,
                    Status.EXTERNAL,
                    f"in {ref.chapter}",
                    code=UNRESOLVED.code,
                )
            )
        elif ref.target in ids or ref.target in numbers:
            out.append(
                Finding(
                    Section.REF,
                    ref.line,
                    ref.target,
                    Status.CONFIRMED,
                    "resolved",
                    code=UNRESOLVED.code,
                )
            )
        else:
            where = f"{short}: " if short else ""
            out.append(
                Finding(
                    Section.REF,
                    ref.line,
                    ref.target,
                    Status.MISMATCHED,
                    f"{where}no element {ref.target} in this chapter",
                    code=UNRESOLVED.code,
                )
            )
    return out
