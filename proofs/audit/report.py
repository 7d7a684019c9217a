"""What an audit reports: one Finding per audited item, gathered in a Report."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any


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


@dataclass
class Finding:
    """One audited item: an element, a table cell, an equality, a printed line."""

    section: Section
    line: int
    text: str
    status: Status
    detail: str
    ref: str = ""  # the element id an element finding resolved to


SECTIONS = {  # section -> its name in the text report
    Section.STRUCTURE: "structure",
    Section.ELEMENT: "elements",
    Section.CHECK: "examples and exercises",
    Section.CLAIM: "claims of the checks",
    Section.FORMULA: "unbound relations",
    Section.TABLE: "table cells",
    Section.EQUALITY: "equalities",
    Section.OUTPUT: "printed output lines",
    Section.RESTATED: "numbers printed twice",
    Section.PROSE: "relations in words",
    Section.REF: "references",
}
STATUSES = tuple(Status)


@dataclass
class Report:
    path: str
    form: str  # "MDX" | "rendered text"
    chapter: str
    findings: list[Finding] = field(default_factory=list)
    elements: list[Any] = field(default_factory=list)  # proofs.audit.tally.ElementTally
    listings: int = 0  # the chapter's listings with code
    listings_run: bool = False  # whether they ran (audit --run-listings)
    coverage: Any = None  # proofs.audit.coverage.Coverage

    def of(self, status: Status, section: Section | None = None) -> list[Finding]:
        return [
            f
            for f in self.findings
            if f.status == status and (section is None or f.section == section)
        ]

    @property
    def mismatched(self) -> list[Finding]:
        return self.of(Status.MISMATCHED)

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "form": self.form,
            "chapter": self.chapter,
            "summary": self.summary(),
            "listings": {"with code": self.listings, "run": self.listings_run},
            "coverage": self.coverage.to_dict() if self.coverage else None,
            "findings": [asdict(f) for f in self.findings],
            "elements": [asdict(e) for e in self.elements],
        }

    def summary(self) -> dict:
        out = {}
        for section in SECTIONS:
            items = [f for f in self.findings if f.section == section]
            out[section] = {status: sum(f.status == status for f in items) for status in STATUSES}
        return out

    def to_text(
        self, quiet: bool = False, by_element: bool = False, uncovered: bool = False
    ) -> str:
        chapter = f"chapter {self.chapter}" if self.chapter else "a chapter without checks"
        lines = [f"audit of {self.path} ({self.form}, {chapter})"]
        for section, tally in self.summary().items():
            external = f", {tally['external']:3d} external" if section == "ref" else ""
            lines.append(
                f"  {SECTIONS[section]:22} {tally['confirmed']:4d} confirmed, "
                f"{tally['mismatched']:3d} mismatched, {tally['not checkable']:3d} not checkable"
                + external
            )
        if self.listings:
            ran = "run" if self.listings_run else "not run (audit --run-listings runs them)"
            lines.append(f"  {'listings':22} {self.listings:4d} {ran}")
        if self.coverage is not None:
            lines.append(f"  {'coverage':22} {self.coverage.to_text()}")
        if uncovered and self.coverage is not None:
            left = self.coverage.unexamined
            lines += ["", f"numbers not examined ({len(left)}):"]
            lines += [f"  line {line:4d}  {text}  —  {why}" for line, text, why in left]
        if by_element:
            lines += ["", f"by element ({len(self.elements)}):"]
            lines += [e.to_text() for e in self.elements]
        headings = (
            ("elements", "element", None),
            ("confirmed", None, "confirmed"),
            ("external references", None, "external"),
            ("mismatched", None, "mismatched"),
            ("not checkable", None, "not checkable"),
        )
        for title, section, status in headings:
            if quiet and title in ("elements", "confirmed", "external references"):
                continue
            if section == "element":
                items = [f for f in self.findings if f.section == "element"]
            elif status == "confirmed":  # confirmed elements are listed under "elements"
                items = [f for f in self.findings if f.section != "element" and f.status == status]
            else:
                items = [f for f in self.findings if f.status == status]
            lines.append("")
            lines.append(f"{title} ({len(items)}):")
            for f in items:
                lines.append(f"  line {f.line:4d}  [{f.section}] {f.text}  —  {f.detail}")
        return "\n".join(lines)
