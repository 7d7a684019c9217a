"""The checks of a chapter's examples and exercises, run on what the chapter states (they
are about printed numbers, and cheap): a check that fails, or that reports a finding (the
chapter prints a wrong value while the statement holds), is a mismatch at the line that
prints the number it names."""

from __future__ import annotations

import re
from collections.abc import Mapping

from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.book.registry import CheckRun, load_all
from proofs.reader import Document

CHECKED_KINDS = ("example", "exercise")
FAILS = Rule(
    "CHK001",
    "check-of-an-example",
    Section.CHECK,
    Severity.ERROR,
    "The check of each example and exercise passes on the numbers the chapter prints, "
    "and finds no printed value wrong.",
    Example(chapter="transformer-block", line=114),  # as it is: 1.1428 printed for 8/7
    Example(
        chapter="transformer-block",
        line=235,
        old="同じ 568 になります",
        new="同じ ５６８ になります",
    ),
)
RULES = (FAILS,)


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
            Finding(
                Section.CHECK, line, f"{e.number} {e.id}", status, detail, ref=e.id, code=FAILS.code
            )
            for status, detail, line in outcomes
        ]
    return out


def _printed_at(printed: str, lines: tuple[str, ...], start: int, end: int) -> int:
    """The first line in [start, end) (1-based) printing the number `printed` (not as a
    part of a longer one), else `start`."""
    pattern = re.compile(rf"(?<![\d.]){re.escape(printed)}(?![\d])")
    return next((line for line in range(start, end) if pattern.search(lines[line - 1])), start)
