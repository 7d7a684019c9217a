"""The structure of a chapter file: each defect the reader read past (an element not
closed or closed by another, a closing tag of nothing, a `$` without its pair, `$$` never
closed, a proof of no element, an element numbered out of sequence) is a mismatch at its
line."""

from __future__ import annotations

from proofs.audit.findings import Finding, Section, Status
from proofs.reader import Document
from proofs.typeset.shown import shortened


def audit_structure(document: Document) -> list[Finding]:
    """Each defect of the file's structure the reader read past, a mismatch at its line."""
    return [
        Finding(
            Section.STRUCTURE,
            p.line,
            shortened(document.line(p.line).strip()),
            Status.MISMATCHED,
            p.message,
        )
        for p in document.problems
    ]
