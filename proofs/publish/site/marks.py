"""What the annotated site shows of an audit, as plain records: each line of the chapter
with its mark and the notes that explain it, each element with its anchor and its result.

Marks only sort the Report's findings and its coverage by line; they judge nothing. A
line takes the mark of its most pressing finding (mismatched, then not checkable, then
confirmed); a line no finding judged but holding a number the coverage lists is "not
examined"; a reference to another chapter marks nothing but is noted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from proofs.audit.findings import Finding, Section, Status
from proofs.audit.reports.report import Report
from proofs.reader import Document
from proofs.typeset.shown import visible

NOT_EXAMINED = "not examined"  # a note's status for a number coverage.unexamined lists
MARKS = ("mismatched", "not checkable", "confirmed", NOT_EXAMINED, "plain")


@dataclass(frozen=True)
class Note:
    """A finding (or a number not examined) at its line, as the page prints it."""

    status: str  # a Status value, or NOT_EXAMINED
    section: str  # a Section value; "" for a number not examined
    text: str
    detail: str
    column: int = 1
    severity: str = ""  # a Severity value: a mismatch an error or a warning
    code: str = ""  # the code of the rule that made the finding (EQ001)


@dataclass(frozen=True)
class LineMark:
    number: int
    text: str
    mark: str  # one of MARKS
    notes: tuple[Note, ...]


@dataclass(frozen=True)
class ElementMark:
    """An element of the chapter: its anchor in the page, and its result in the words of
    the chapter's map (proofs.publish.maps.RESULTS): `failed` when the element is not the
    one registered (renumbered, retitled, duplicated, an unknown id), `finding` when a
    claim of its check or its example's check disagrees with the chapter, `unchecked`
    when no check covers it (or its check could not run), else `passed`."""

    number: str
    title: str
    line: int
    anchor: str  # the MDX or registered id, else the number (例-3.2), made visible
    check: str  # the registered id, "" when none
    result: str
    mismatches: tuple[int, ...]  # the lines of the mismatches of its check and claims


def line_marks(document: Document, report: Report) -> list[LineMark]:
    """Every line of the document with its mark and notes, in order."""
    notes: dict[int, list[Note]] = {}
    for f in report.findings:
        note = Note(
            str(f.status), str(f.section), f.text, f.detail, f.column, str(f.severity), f.code
        )
        notes.setdefault(f.line, []).append(note)
    left = report.coverage.unexamined if report.coverage is not None else ()
    for line, text, why in left:
        notes.setdefault(line, []).append(Note(NOT_EXAMINED, "", text, why))
    return [
        LineMark(k, text, _mark(notes.get(k, [])), tuple(notes.get(k, ())))
        for k, text in enumerate(document.lines, 1)
    ]


def _mark(notes: list[Note]) -> str:
    statuses = {n.status for n in notes}
    return next((m for m in MARKS if m in statuses), "plain")


def element_marks(document: Document, report: Report) -> list[ElementMark]:
    """Every element of the document, in order, with a unique anchor and its result. An
    element's own finding is the first element finding at its line (the audit lists the
    document's elements before the registered ones it lacks)."""
    own: dict[int, Finding] = {}
    by_check: dict[str, list[Finding]] = {}  # the findings of each check and its claims
    for f in report.findings:
        if f.section == Section.ELEMENT:
            own.setdefault(f.line, f)
        elif f.ref and f.section in (Section.CHECK, Section.CLAIM):
            by_check.setdefault(f.ref, []).append(f)
    taken = {f"L{k}" for k in range(1, len(document.lines) + 1)}
    out = []
    for record in document.elements:
        found = own.get(record.line)
        check = found.ref if found is not None else ""
        judged = by_check.get(check, []) if check else []
        named = visible(record.id or check or record.number)
        anchor = _unique(re.sub(r"\s+", "-", named), taken)
        out.append(
            ElementMark(
                record.number,
                record.title,
                record.line,
                anchor,
                check,
                _result(found, check, judged),
                tuple(sorted({f.line for f in judged if f.status == Status.MISMATCHED})),
            )
        )
    return out


def _unique(anchor: str, taken: set[str]) -> str:
    """The anchor, or with -2, -3, … appended when a line or an earlier element has it
    (a duplicated element, an id like L12); taken from now on."""
    chosen, k = anchor, 1
    while chosen in taken:
        k += 1
        chosen = f"{anchor}-{k}"
    taken.add(chosen)
    return chosen


def _result(found: Finding | None, check: str, judged: list[Finding]) -> str:
    if found is not None and found.status == Status.MISMATCHED:
        return "failed"
    if not check:
        return "unchecked"
    if any(f.status == Status.MISMATCHED for f in judged):
        return "finding"
    if any(f.section == Section.CHECK and f.status == Status.NOT_CHECKABLE for f in judged):
        return "unchecked"
    return "passed"
