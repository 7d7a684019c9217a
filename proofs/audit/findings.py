"""What the audit's rules find: one Finding per audited item, with its section, its
verdict (Status), how much it weighs (Severity) and the code of the rule that made it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Section(StrEnum):
    """What an audited item is; its value names it in JSON, SECTIONS in the text report."""

    STRUCTURE = "structure"
    ELEMENT = "element"
    CHECK = "check"
    CLAIM = "claim"
    FORMULA = "formula"
    TABLE = "table"
    EQUALITY = "equality"
    OUTPUT = "output"
    RESTATED = "restated"
    PROSE = "prose"
    REF = "ref"


class Status(StrEnum):
    """The verdict on an audited item (EXTERNAL: a reference to another chapter)."""

    CONFIRMED = "confirmed"
    MISMATCHED = "mismatched"
    NOT_CHECKABLE = "not checkable"
    EXTERNAL = "external"


class Severity(StrEnum):
    """How much a finding weighs. An error is a mismatch with a witness a reader can check
    by hand (a recomputed value, two printed numbers that cannot both hold, a point where
    two sides differ): it fails the run. A warning is a mismatch only a heuristic sees (a
    digit slip between two numbers the text does not say are the same, an announced count,
    a result that holds only within its inputs' rounding): reported, failing the run only
    under --strict. A notice is an item that could not be checked. Confirmed and external
    items weigh nothing."""

    ERROR = "error"
    WARNING = "warning"
    NOTICE = "notice"
    NONE = ""


@dataclass
class Finding:
    """One audited item: an element, a table cell, an equality, a printed line. Its
    severity, unless a rule gives one, follows from its status: a mismatch is an error,
    an item not checkable a notice."""

    section: Section
    line: int
    text: str
    status: Status
    detail: str
    ref: str = ""  # the element id an element finding resolved to
    column: int = 1  # where its text stands on the line, 1-based (1 when not found)
    severity: Severity = Severity.NONE

    def __post_init__(self) -> None:
        if self.severity == Severity.NONE or self.status != Status.MISMATCHED:
            self.severity = _SEVERITIES[self.status]

    @property
    def fails(self) -> bool:
        """Whether it fails a run: an error."""
        return self.severity == Severity.ERROR


_SEVERITIES = {
    Status.MISMATCHED: Severity.ERROR,
    Status.NOT_CHECKABLE: Severity.NOTICE,
    Status.CONFIRMED: Severity.NONE,
    Status.EXTERNAL: Severity.NONE,
}


def warned(finding: Finding) -> Finding:
    """The finding as a heuristic's: a mismatch only a warning (Severity)."""
    if finding.status == Status.MISMATCHED:
        finding.severity = Severity.WARNING
    return finding
