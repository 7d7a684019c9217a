"""The audit of a chapter's structure: every element registered with its number, kind
and title, none missing or duplicated, every reference resolved; and the checks of
its examples and exercises run (they are about printed numbers, and cheap)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from proofs.audit.report import Finding, Section, Status
from proofs.book.registry import (
    CHAPTERS,
    CheckRun,
    RegisteredElement,
    load_all,
    nearest_ids,
    number_key,
)
from proofs.reader import Document
from proofs.reader.records import Element as Record


def registered(
    record: Record, chapter: str, registry: dict[str, RegisteredElement]
) -> RegisteredElement | None:
    """The registered element a record is: by its MDX id, else by its number."""
    if record.id is not None:
        return registry.get(record.id)
    return next(
        (e for e in registry.values() if e.chapter == chapter and e.number == record.number),
        None,
    )


def audit_elements(document: Document, chapter: str) -> list[Finding]:
    """One finding per element of the document, then one per registered element the
    document lacks; a duplicated id or number, a number or kind that differs from the
    registered one, and an id nobody registered are mismatches."""
    registry = load_all()
    out: list[Finding] = []
    seen: dict[str, int] = {}
    for record in document.elements:
        text = f"{record.number} {record.id or record.title}".strip()
        key = record.id or record.number
        if key in seen:
            out.append(
                Finding(
                    Section.ELEMENT,
                    record.line,
                    text,
                    Status.MISMATCHED,
                    f"duplicated: {key} already stands at line {seen[key]}",
                )
            )
            continue
        seen[key] = record.line
        e = registered(record, chapter, registry) or by_title(record, chapter, registry)
        if e is None and not chapter:  # a chapter without a package: nothing registered
            out.append(
                Finding(
                    Section.ELEMENT,
                    record.line,
                    text,
                    Status.NOT_CHECKABLE,
                    "no check: no package of checks registers this chapter",
                )
            )
            continue
        if e is None:
            if record.id is not None:
                near = nearest_ids(record.id)
                hint = f" (nearest registered: {', '.join(near)})" if near else ""
                detail = f"element id {record.id!r} is not registered{hint}"
                out.append(Finding(Section.ELEMENT, record.line, text, Status.MISMATCHED, detail))
            else:
                out.append(
                    Finding(Section.ELEMENT, record.line, text, Status.NOT_CHECKABLE, "no check")
                )
            continue
        problems = []
        if e.chapter != chapter:
            problems.append(f"{e.id} belongs to the chapter {e.chapter}")
        if e.number != record.number:
            problems.append(
                f"renumbered: the chapter numbers it {record.number}, registered as {e.number}"
            )
        if e.kind != record.kind:
            problems.append(f"its kind is {record.kind} here, registered as {e.kind}")
        if record.title and e.title != record.title:
            problems.append(f"retitled: {record.title!r} here, registered as {e.title!r}")
        if problems:
            out.append(
                Finding(
                    Section.ELEMENT,
                    record.line,
                    text,
                    Status.MISMATCHED,
                    "; ".join(problems),
                    ref=e.id,
                )
            )
        else:
            detail = f"check {e.id} ({e.kind}; {', '.join(e.methods) or 'unchecked'})"
            out.append(
                Finding(Section.ELEMENT, record.line, text, Status.CONFIRMED, detail, ref=e.id)
            )
    found = {f.ref for f in out if f.ref}
    for e in registry.values():
        if e.chapter == chapter and e.id not in found:
            out.append(
                Finding(
                    Section.ELEMENT,
                    _where_missing(document, e),
                    f"{e.number} {e.id}",
                    Status.MISMATCHED,
                    f"missing: the chapter no longer has {e.number}（{e.title}）, "
                    "which the package checks",
                )
            )
    return out


def by_title(
    record: Record, chapter: str, registry: dict[str, RegisteredElement]
) -> RegisteredElement | None:
    """The registered element of the chapter with the record's title (a renumbered one)."""
    if not record.title:
        return None
    return next(
        (e for e in registry.values() if e.chapter == chapter and e.title == record.title), None
    )


def _where_missing(document: Document, element: RegisteredElement) -> int:
    """The line where a missing element would stand: that of the first element of the
    document numbered after it, else the last line."""
    after = [r.line for r in document.elements if number_key(r.number) > number_key(element.number)]
    return min(after) if after else len(document.lines)


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


# The checks of examples and exercises ----------------------------------------------

CHECKED_KINDS = ("example", "exercise")


def audit_checks(
    document: Document, elements: list[Finding], runs: Mapping[str, CheckRun | str]
) -> list[Finding]:
    """The check of every example and exercise among the elements found, as run on what the
    chapter states (`runs`: by element id, the run, or why the check was not run: a claim
    it reads that the chapter no longer states or that cannot be read); a failure or an
    error is reported at the element's line, each finding at the first line of the
    element's text that prints a number the finding names (else the element's)."""
    registry = load_all()
    lines = document.lines
    starts = sorted(f.line for f in elements) + [len(lines) + 1]
    out = []
    for found in elements:
        e = registry.get(found.ref)
        if e is None or e.kind not in CHECKED_KINDS or found.ref not in runs:
            continue
        run = runs[found.ref]
        if isinstance(run, str):
            outcomes = [(Status.NOT_CHECKABLE, f"not run on the chapter: {run}", found.line)]
        elif run.result == "failed":
            outcomes = [(Status.MISMATCHED, f"the check fails: {run.message}", found.line)]
        elif run.result == "error":
            outcomes = [(Status.NOT_CHECKABLE, f"the check raised {run.message}", found.line)]
        elif run.result == "unchecked":
            outcomes = [(Status.NOT_CHECKABLE, f"unchecked: {run.message}", found.line)]
        elif run.findings:
            end = next(start for start in starts if start > found.line)
            outcomes = [
                (Status.MISMATCHED, f.message, _printed_at(f.printed, lines, found.line, end))
                for f in run.findings
            ]
        else:
            outcomes = [(Status.CONFIRMED, f"the check passed in {run.seconds:.2f} s", found.line)]
        out += [
            Finding(Section.CHECK, line, f"{e.number} {e.id}", status, detail, ref=e.id)
            for status, detail, line in outcomes
        ]
    return out


def _printed_at(printed: str, lines: tuple[str, ...], start: int, end: int) -> int:
    """The first line in [start, end) (1-based) printing the number `printed` (not as a
    part of a longer one), else `start`."""
    pattern = re.compile(rf"(?<![\d.]){re.escape(printed)}(?![\d])")
    return next((line for line in range(start, end) if pattern.search(lines[line - 1])), start)
