"""What an audit reports: one Finding per audited item, gathered in a Report."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Finding:
    """One audited item: an element, a table cell, an equality, a printed line."""

    section: str  # one of SECTIONS
    line: int
    text: str
    status: str  # one of STATUSES
    detail: str
    ref: str = ""  # the element id an element finding resolved to


SECTIONS = {  # section -> its name in the text report
    "structure": "structure",
    "element": "elements",
    "check": "examples and exercises",
    "claim": "claims of the checks",
    "formula": "unbound relations",
    "table": "table cells",
    "equality": "equalities",
    "output": "printed output lines",
    "ref": "references",
}
STATUSES = ("confirmed", "mismatched", "not checkable", "external")  # external: refs only


@dataclass
class Report:
    path: str
    form: str  # "MDX" | "rendered text"
    chapter: str
    findings: list[Finding] = field(default_factory=list)
    elements: list[Any] = field(default_factory=list)  # proofs.audit.tally.ElementTally

    def of(self, status: str, section: str | None = None) -> list[Finding]:
        return [
            f
            for f in self.findings
            if f.status == status and (section is None or f.section == section)
        ]

    @property
    def mismatched(self) -> list[Finding]:
        return self.of("mismatched")

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "form": self.form,
            "chapter": self.chapter,
            "summary": self.summary(),
            "findings": [asdict(f) for f in self.findings],
            "elements": [asdict(e) for e in self.elements],
        }

    def summary(self) -> dict:
        out = {}
        for section in SECTIONS:
            items = [f for f in self.findings if f.section == section]
            out[section] = {
                status: sum(f.status == status for f in items)
                for status in STATUSES
            }
        return out

    def to_text(self, quiet: bool = False, by_element: bool = False) -> str:
        lines = [f"audit of {self.path} ({self.form}, chapter {self.chapter})"]
        for section, tally in self.summary().items():
            external = f", {tally['external']:3d} external" if section == "ref" else ""
            lines.append(
                f"  {SECTIONS[section]:22} {tally['confirmed']:4d} confirmed, "
                f"{tally['mismatched']:3d} mismatched, {tally['not checkable']:3d} not checkable"
                + external
            )
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
