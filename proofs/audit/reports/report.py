"""What an audit reports: its findings gathered in a Report, and the formats it is printed in:
the linter's lines, the text by section, JSON, GitHub's workflow commands."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from proofs.audit.findings import Finding, Section, Severity, Status
from proofs.audit.reports.github import workflow_command, workflow_notice
from proofs.typeset.shown import visible
from proofs.typeset.words import counted

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
    elements: list[Any] = field(default_factory=list)  # proofs.audit.reports.tally.ElementTally
    listings: int = 0  # the chapter's listings with code
    listings_run: bool = False  # whether they ran (audit --run-listings)
    listings_contained: bool = False  # whether they ran in a sandbox
    listings_containment: str = ""  # where they ran, in one line ("" when they did not run)
    coverage: Any = None  # proofs.audit.reports.coverage.Coverage
    # the findings an author's suppressions keep out, each with the suppression's line
    # and reason (proofs.audit.suppressions)
    suppressed: list[tuple[Finding, int, str]] = field(default_factory=list)

    def of(self, status: Status, section: Section | None = None) -> list[Finding]:
        return [
            f
            for f in self.findings
            if f.status == status and (section is None or f.section == section)
        ]

    @property
    def mismatched(self) -> list[Finding]:
        return self.of(Status.MISMATCHED)

    @property
    def errors(self) -> list[Finding]:
        """The mismatches with a witness: what fails a run."""
        return [f for f in self.findings if f.severity == Severity.ERROR]

    @property
    def warnings(self) -> list[Finding]:
        """The mismatches only a heuristic sees."""
        return [f for f in self.findings if f.severity == Severity.WARNING]

    def to_dict(self) -> dict:
        kept_out = {
            "suppressed": [
                {**asdict(f), "suppressed at": line, "reason": reason}
                for f, line, reason in self.suppressed
            ]
        }
        return {
            "path": self.path,
            "form": self.form,
            "chapter": self.chapter,
            "summary": self.summary(),
            "listings": {
                "with code": self.listings,
                "run": self.listings_run,
                "contained": self.listings_contained,
                "containment": self.listings_containment,
            },
            "coverage": self.coverage.to_dict() if self.coverage else None,
            "findings": [asdict(f) for f in self.findings],
            "elements": [asdict(e) for e in self.elements],
        } | (kept_out if self.suppressed else {})

    def summary(self) -> dict:
        out: dict[str, dict[str, int]] = {}
        for section in SECTIONS:
            items = [f for f in self.findings if f.section == section]
            tally = {str(status): sum(f.status == status for f in items) for status in STATUSES}
            tally["warnings"] = sum(f.severity == Severity.WARNING for f in items)
            out[section] = tally
        return out

    def counts(self) -> str:
        """One line: the errors, warnings, not checkable and confirmed items, and the
        coverage."""
        tally = {status: len(self.of(status)) for status in STATUSES}
        said = [
            counted(len(self.errors), "error"),
            counted(len(self.warnings), "warning"),
            f"{tally[Status.NOT_CHECKABLE]} not checkable",
            f"{tally[Status.CONFIRMED]} confirmed",
        ]
        if self.suppressed:
            said.append(f"{len(self.suppressed)} suppressed")
        if self.listings and not self.listings_run:
            said.append(f"{counted(self.listings, 'listing')} not run (--run-listings)")
        if self.coverage is not None:
            said.append(self.coverage.to_text())
        return f"{visible(self.path)}: " + ", ".join(said)

    def to_lint(self, quiet: bool = False) -> str:
        """The report an author reads first: one line per mismatch, `path:line:column:
        severity[CODE]: kind: what the chapter says — what it should say`, errors first,
        then (unless `quiet`) what is not checkable, then the counts."""
        lines = [self._lint(f, str(f.severity)) for f in (*self.errors, *self.warnings)]
        if not quiet:
            lines += [self._lint(f, "not checkable") for f in self.of(Status.NOT_CHECKABLE)]
        lines.append(self.counts())
        if self.listings_containment:
            lines.append(f"{visible(self.path)}: {self.listings_containment}")
        return "\n".join(lines)

    def _lint(self, f: Finding, verdict: str) -> str:
        where = f"{visible(self.path)}:{f.line}:{f.column}"
        said = f"{verdict}[{f.code}]" if f.code else verdict
        return f"{where}: {said}: {f.section}: {visible(f.text)} — {visible(f.detail)}"

    def to_github(self, new: Sequence[Finding] | None = None) -> str:
        """GitHub workflow commands: an error or a warning annotation per mismatch (its
        severity), a notice per item not checkable, so that a pull request shows them at
        their lines. With `new` (the audit compared with a baseline), only the mismatches
        among `new` are annotated so; the others, which the baseline accepts, are notices
        that say so."""
        fresh = {id(f) for f in (self.mismatched if new is None else new)}
        lines = [
            _annotation(str(f.severity), self.path, f) for f in self.mismatched if id(f) in fresh
        ]
        lines += [
            _annotation("notice", self.path, f, " (accepted by the baseline)")
            for f in self.mismatched
            if id(f) not in fresh
        ]
        lines += [_annotation("notice", self.path, f) for f in self.of(Status.NOT_CHECKABLE)]
        lines.append(workflow_notice(self.path, self.counts()))
        if self.listings_containment:
            level = "notice" if self.listings_contained else "warning"
            lines.append(workflow_notice(self.path, self.listings_containment, level))
        return "\n".join(lines)

    def lists(self, by_element: bool, uncovered: bool) -> list[str]:
        """The lines of the numbers not examined (`uncovered`) and of the elements'
        tallies (`by_element`), each list after a blank line."""
        lines = []
        if uncovered and self.coverage is not None:
            left = self.coverage.unexamined
            lines += ["", f"numbers not examined ({len(left)}), by why:"]
            lines += [
                f"  {n:4d}  {visible(why)}" for why, n in self.coverage.reasons().most_common()
            ]
            lines += [
                f"  line {line:4d}  {visible(text)}  —  {visible(why)}" for line, text, why in left
            ]
        if by_element:
            lines += ["", f"by element ({len(self.elements)}):"]
            lines += [e.to_text() for e in self.elements]
        return lines

    def to_text(
        self, quiet: bool = False, by_element: bool = False, uncovered: bool = False
    ) -> str:
        chapter = f"chapter {self.chapter}" if self.chapter else "a chapter without checks"
        lines = [f"audit of {visible(self.path)} ({self.form}, {chapter})"]
        for section, tally in self.summary().items():
            external = f", {tally['external']:3d} external" if section == "ref" else ""
            warnings = f" ({tally['warnings']} warnings)" if tally["warnings"] else ""
            lines.append(
                f"  {SECTIONS[section]:22} {tally['confirmed']:4d} confirmed, "
                f"{tally['mismatched']:3d} mismatched{warnings}, "
                f"{tally['not checkable']:3d} not checkable" + external
            )
        if self.listings:
            ran = "run" if self.listings_run else "not run (audit --run-listings runs them)"
            ran += f": {self.listings_containment}" if self.listings_containment else ""
            lines.append(f"  {'listings':22} {self.listings:4d} {ran}")
        if self.coverage is not None:
            lines.append(f"  {'coverage':22} {self.coverage.to_text()}")
        lines += self.lists(by_element, uncovered)
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
                lines.append(f"  line {f.line:4d}  {finding_text(f)}")
        if self.suppressed:
            lines += ["", f"suppressed ({len(self.suppressed)}):"]
            lines += [
                f"  line {f.line:4d}  {finding_text(f)}  (suppressed at line {at}"
                + (f": {visible(reason)})" if reason else ")")
                for f, at, reason in self.suppressed
            ]
        return "\n".join(lines)


def finding_text(f: Finding) -> str:
    """A finding on one line of a text report, after its line: `CODE [section] text —
    detail`, a warning said so."""
    warning = "warning: " if f.severity == Severity.WARNING else ""
    code = f"{f.code} " if f.code else ""
    return f"{code}[{f.section}] {warning}{visible(f.text)}  —  {visible(f.detail)}"


def _annotation(level: str, path: str, f: Finding, said: str = "") -> str:
    title = f"{f.code} {f.section} {f.status}{said}".strip()
    return workflow_command(level, path, f.line, title, f"{f.text} — {f.detail}", f.column)
