"""What the audit's rules find: one Finding per audited item, with its section, its
verdict (Status), how much it weighs (Severity) and the code of the rule that made it; and
the Rule itself, its code beside what it checks and the two texts it is shown on."""

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
    """One audited item: an element, a table cell, an equality, a printed line, with the
    `code` of the rule that judged it (Rule). Its severity follows from its status (a
    mismatch an error, an item not checkable a notice) until the audit weighs it by its
    rule (a heuristic's mismatch a warning)."""

    section: Section
    line: int
    text: str
    status: Status
    detail: str
    ref: str = ""  # the element id an element finding resolved to
    column: int = 1  # where its text stands on the line, 1-based (1 when not found)
    severity: Severity = Severity.NONE
    code: str = ""  # the Rule's code, EQ001

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


@dataclass(frozen=True)
class Example:
    """A chapter text a rule is shown on, which the rules page prints and its test audits:
    `text`, a small chapter of its own; or an edit of a registered chapter's file (its key
    `chapter`, `old` replaced by `new` on `line`), one of the one-edit copies the tests
    audit (tests/seed_slips.py). `run_listings`: audited with its listings run."""

    text: str = ""
    chapter: str = ""
    line: int = 0
    old: str = ""
    new: str = ""
    run_listings: bool = False


@dataclass(frozen=True)
class Rule:
    """What one rule of the audit checks, under its code: a family's prefix and a number
    (EQ001), stable once published, so that a suppression, a selection or a baseline can
    name it. `severity` is that of its mismatch: an error where the rule has a witness, a
    warning where only a heuristic sees it. `slip` is a text it reports, `neutral` a
    rewrite it leaves alone."""

    code: str
    name: str
    section: Section
    severity: Severity
    checks: str
    slip: Example
    neutral: Example

    @property
    def family(self) -> str:
        """The code's letters: what a selection of the whole family names (EQ)."""
        return self.code.rstrip("0123456789")
