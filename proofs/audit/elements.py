"""The audit of a chapter's structure: every element registered with its number, kind
and title, none missing or duplicated, every reference resolved; and the checks of
its examples and exercises run (they are about printed numbers, and cheap)."""

from __future__ import annotations

import re
from collections.abc import Callable

from proofs.audit.report import Finding
from proofs.book.judge import findings
from proofs.book.registry import (
    CHAPTERS,
    CheckRun,
    Element,
    load_all,
    nearest_ids,
    number_key,
    run_check,
)
from proofs.reader import Document
from proofs.reader.records import Element as Record


def _registered(record: Record, chapter: str, registry: dict[str, Element]) -> Element | None:
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
            out.append(Finding("element", record.line, text, "mismatched",
                               f"duplicated: {key} already stands at line {seen[key]}"))
            continue
        seen[key] = record.line
        e = _registered(record, chapter, registry) or _by_title(record, chapter, registry)
        if e is None:
            if record.id is not None:
                near = nearest_ids(record.id)
                hint = f" (nearest registered: {', '.join(near)})" if near else ""
                detail = f"element id {record.id!r} is not registered{hint}"
                out.append(Finding("element", record.line, text, "mismatched", detail))
            else:
                out.append(Finding("element", record.line, text, "not checkable", "no check"))
            continue
        problems = []
        if e.chapter != chapter:
            problems.append(f"{e.id} belongs to the chapter {e.chapter}")
        if e.number != record.number:
            problems.append(f"renumbered: the chapter numbers it {record.number}, "
                            f"registered as {e.number}")
        if e.kind != record.kind:
            problems.append(f"its kind is {record.kind} here, registered as {e.kind}")
        if record.title and e.title != record.title:
            problems.append(f"retitled: {record.title!r} here, registered as {e.title!r}")
        if problems:
            out.append(Finding("element", record.line, text, "mismatched", "; ".join(problems),
                               ref=e.id))
        else:
            detail = f"check {e.id} ({e.kind}; {', '.join(e.methods) or 'unchecked'})"
            out.append(Finding("element", record.line, text, "confirmed", detail, ref=e.id))
    found = {f.ref for f in out if f.ref}
    for e in registry.values():
        if e.chapter == chapter and e.id not in found:
            out.append(Finding("element", _where_missing(document, e), f"{e.number} {e.id}",
                               "mismatched",
                               f"missing: the chapter no longer has {e.number}（{e.title}）, "
                               "which the package checks"))
    return out


def _by_title(record: Record, chapter: str, registry: dict[str, Element]) -> Element | None:
    """The registered element of the chapter with the record's title (a renumbered one)."""
    if not record.title:
        return None
    return next((e for e in registry.values()
                 if e.chapter == chapter and e.title == record.title), None)


def _where_missing(document: Document, element: Element) -> int:
    """The line where a missing element would stand: that of the first element of the
    document numbered after it, else the last line."""
    after = [r.line for r in document.elements
             if number_key(r.number) > number_key(element.number)]
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
            out.append(Finding("ref", ref.line, ref.target, "external", f"in {ref.chapter}"))
        elif ref.target in ids or ref.target in numbers:
            out.append(Finding("ref", ref.line, ref.target, "confirmed", "resolved"))
        else:
            where = f"{short}: " if short else ""
            out.append(Finding("ref", ref.line, ref.target, "mismatched",
                               f"{where}no element {ref.target} in this chapter"))
    return out


# The checks of examples and exercises ----------------------------------------------

CHECKED_KINDS = ("example", "exercise")

_RUNS: dict[tuple[str, Callable[..., list[str]]], CheckRun] = {}


def _run_once(element: Element) -> CheckRun:
    """An element's check outcome, computed once per process (keyed by the check itself,
    so a check replaced in the registry runs afresh)."""
    key = (element.id, element.check)
    if key not in _RUNS:
        _RUNS[key] = run_check(element)
    return _RUNS[key]


def audit_checks(document: Document, elements: list[Finding]) -> list[Finding]:
    """Run the check of every example and exercise among the elements found; a failure
    or an error is reported at the element's line, each finding at the first line of
    the element's text that prints a number the finding names (else the element's)."""
    registry = load_all()
    lines = document.lines
    starts = sorted(f.line for f in elements) + [len(lines) + 1]
    out = []
    for found in elements:
        e = registry.get(found.ref)
        if e is None or e.kind not in CHECKED_KINDS:
            continue
        run = _run_once(e)
        if run.result == "failed":
            outcomes = [("mismatched", f"the check fails: {run.message}", found.line)]
        elif run.result == "error":
            outcomes = [("not checkable", f"the check raised {run.message}", found.line)]
        elif run.result == "unchecked":
            outcomes = [("not checkable", f"unchecked: {run.message}", found.line)]
        elif slips := findings(list(run.evidence)):
            end = next(start for start in starts if start > found.line)
            outcomes = [("mismatched", m, _printed_at(m, lines, found.line, end)) for m in slips]
        else:
            outcomes = [("confirmed", f"the check passed in {run.seconds:.2f} s", found.line)]
        out += [
            Finding("check", line, f"{e.number} {e.id}", status, detail, ref=e.id)
            for status, detail, line in outcomes
        ]
    return out


def _printed_at(message: str, lines: tuple[str, ...], start: int, end: int) -> int:
    """The first line in [start, end) (1-based) printing a decimal the message names."""
    for number in re.findall(r"\d+\.\d+", message):
        pattern = re.compile(rf"(?<![\d.]){re.escape(number)}(?![\d])")
        for line in range(start, end):
            if pattern.search(lines[line - 1]):
                return line
    return start
