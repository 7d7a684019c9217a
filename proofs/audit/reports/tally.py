"""The audit seen element by element: what of each element's statement the checks bind,
what was decided without a check, and how many of the chapter's values the checks read.

A tally only counts the findings the audit already made (proofs.audit.reports.report); it
judges nothing itself.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass

from proofs.audit.findings import Finding
from proofs.book.claims import normalise_tex
from proofs.book.registry import RegisteredElement
from proofs.reader import Document
from proofs.reader.math import statement_lines
from proofs.reader.records import Element as Record
from proofs.typeset.shown import visible


@dataclass(frozen=True)
class ElementTally:
    """One element's counts. `relations`: the relations of its statement; `bound`: those a
    claim of its check states; `claims`: its check's claims by status; `unbound`: the
    statement's other relations by status (decided in the notation, or why not);
    `read`: the claims whose value the check takes from the chapter's text (numbers,
    formulas, tables); `equalities`: the numeric equalities recomputed in its lines."""

    number: str
    id: str
    line: int
    relations: int
    bound: int
    claims: dict[str, int]
    unbound: dict[str, int]
    read: int
    equalities: dict[str, int]

    def to_text(self) -> str:
        def counts(tally: dict[str, int]) -> str:
            said = [f"{n} {status}" for status, n in tally.items() if n]
            return ", ".join(said) if said else "none"

        return "\n".join(
            (
                f"  line {self.line:4d}  {visible(self.number)} {visible(self.id)}",
                f"      statement relations {self.relations}: {self.bound} bound to the check, "
                f"the others {counts(self.unbound)}",
                f"      claims of the check: {counts(self.claims)}; {self.read} fed to the check "
                f"from the chapter's text",
                f"      numeric equalities: {counts(self.equalities)}",
            )
        )


def tally_elements(
    document: Document, pairs: list[tuple[Record, RegisteredElement]], findings: list[Finding]
) -> list[ElementTally]:
    """The tally of each (chapter record, registered element) pair from the findings."""
    from proofs.audit.rules.statements import kind_of

    claimed: dict[str, Counter[str]] = {}  # the claims' findings by element id, by status
    for f in findings:
        if f.section == "claim":
            claimed.setdefault(f.ref, Counter())[f.status] += 1
    formulas = _lines_by_status(findings, "formula")
    equalities = _lines_by_status(findings, "equality")
    out = []
    for record, element in pairs:
        first, last = record.line, _last_line(record)
        claim_texts = {normalise_tex(c.text) for c in element.claims}
        relations = [
            s
            for m in document.math_in(*record.statement)
            for _, s in statement_lines(m.line, m.tex)
            if kind_of(s) == "relation"
        ]
        out.append(
            ElementTally(
                number=record.number,
                id=element.id,
                line=record.line,
                relations=len(relations),
                bound=sum(normalise_tex(s) in claim_texts for s in relations),
                claims={status: claimed.get(element.id, Counter())[status] for status in STATUSES},
                unbound=_within(formulas, first, last),
                read=sum(c.argument is not None for c in element.claims),
                equalities=_within(equalities, first, last),
            )
        )
    return out


def _last_line(record: Record) -> int:
    return max(span[1] for span in (record.statement, record.proof) if span is not None)


STATUSES = ("confirmed", "mismatched", "not checkable")


def _lines_by_status(findings: list[Finding], section: str) -> dict[str, list[int]]:
    """The sorted lines of the section's findings, by status: the findings of an element's
    span are then counted by bisection, however long the span and however many overlap."""
    lines: dict[str, list[int]] = {status: [] for status in STATUSES}
    for f in findings:
        if f.section == section and f.status in lines:
            lines[f.status].append(f.line)
    return {status: sorted(found) for status, found in lines.items()}


def _within(lines: dict[str, list[int]], first: int, last: int) -> dict[str, int]:
    """How many of the lines, by status, are first..last."""
    return {
        status: bisect_right(found, last) - bisect_left(found, first)
        for status, found in lines.items()
    }
