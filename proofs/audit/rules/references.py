"""The references of a chapter: every `<Ref>` (in the rendered form, every cited number,
命題 7.2［自己注意］) names an element the chapter has; one to another chapter or book is
external."""

from __future__ import annotations

from proofs.audit.findings import Finding, Section, Status
from proofs.book.registry import CHAPTERS
from proofs.reader import Document


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
                Finding(Section.REF, ref.line, ref.target, Status.EXTERNAL, f"in {ref.chapter}")
            )
        elif ref.target in ids or ref.target in numbers:
            out.append(Finding(Section.REF, ref.line, ref.target, Status.CONFIRMED, "resolved"))
        else:
            where = f"{short}: " if short else ""
            out.append(
                Finding(
                    Section.REF,
                    ref.line,
                    ref.target,
                    Status.MISMATCHED,
                    f"{where}no element {ref.target} in this chapter",
                )
            )
    return out
