"""Accepted mismatches: an audit that fails only on what is new, so that it can gate CI.

`audit --write-baseline FILE` records the mismatches of the audited chapters; `audit
--baseline FILE` accepts them, fails only on a mismatch the file does not record, and
lists the recorded ones it no longer finds (stale). A mismatch is recorded by what it
is, not by where it stands, so that lines added above it do not make it new: the
chapter's key, the code of the rule that found it, the element it stands in (its id, else
its number; "" outside every element) and what was found — the audited text (an equality,
a table cell, a printed line), or for the check of an example or exercise, whose text
only names its element, the check's finding. The same mismatch found twice counts twice.
A baseline written before the codes, its entries keyed by the audit's section instead,
still reads: such an entry accepts a mismatch of any rule of that section.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from proofs.audit.findings import Finding
from proofs.audit.reports.github import workflow_command
from proofs.audit.reports.report import Report, finding_text
from proofs.files import InputError, read_json, write_atomically
from proofs.reader import Document
from proofs.typeset.shown import visible

FIELDS = ("chapter", "code", "element", "found")
BY_SECTION = ("chapter", "section", "element", "found")  # a baseline written before the codes
Entry = tuple[str, str, str, str]  # by FIELDS (by BY_SECTION: a section, lower-case, for a code)


class BaselineError(ValueError):
    """The baseline file cannot be read: the message names the file."""


def entry(report: Report, document: Document, finding: Finding) -> Entry:
    """What a mismatch is, wherever it stands."""
    element = document.element_at(finding.line)
    where = "" if element is None else element.id or element.number
    found = finding.detail if finding.section == "check" else finding.text
    return (report.chapter, finding.code, where, found)


def entries(audited: list[tuple[Report, Document]]) -> list[Entry]:
    """The mismatches of the audited chapters, sorted."""
    return sorted(entry(r, d, f) for r, d in audited for f in r.mismatched)


def write_baseline(path: Path, audited: list[tuple[Report, Document]], force: bool) -> int:
    """Record the mismatches in `path` (JSON, sorted, written atomically; an existing file
    replaced only with `force`); the number recorded."""
    accepted = entries(audited)
    write_atomically(path, baseline_text(accepted), force)
    return len(accepted)


def baseline_text(accepted: list[Entry]) -> str:
    """A baseline file's text: the entries sorted, as JSON."""
    rows = [dict(zip(FIELDS, e, strict=True)) for e in sorted(accepted)]
    return json.dumps({"accepted": rows}, ensure_ascii=False, indent=2) + "\n"


def read_baseline(path: Path) -> Counter[Entry]:
    """The mismatches a baseline file accepts; BaselineError names the file and what is
    wrong with it."""
    try:
        data = read_json(path, "a baseline file")
    except InputError as exc:
        raise BaselineError(str(exc)) from exc
    return accepted_entries(data, path)


def accepted_entries(data: object, path: Path) -> Counter[Entry]:
    """The entries of a baseline file's JSON value; BaselineError naming the file when it
    is not of the baseline's shape."""
    accepted = data.get("accepted") if isinstance(data, dict) else None
    if not isinstance(accepted, list) or not all(
        isinstance(e, dict)
        and set(e) in (set(FIELDS), set(BY_SECTION))
        and all(isinstance(v, str) for v in e.values())
        for e in accepted
    ):
        raise BaselineError(
            f'{path}: expected {{"accepted": [...]}}, each entry with the strings '
            f"{', '.join(FIELDS)} (as audit --write-baseline writes it)"
        )
    return Counter(
        (e["chapter"], e.get("code", e.get("section", "")), e["element"], e["found"])
        for e in accepted
    )


@dataclass(frozen=True)
class Comparison:
    """An audit against a baseline: its mismatches the baseline does not accept, and the
    baseline's entries for the chapter that the audit no longer finds."""

    accepted: int
    new: tuple[Finding, ...]
    stale: tuple[Entry, ...]

    def to_dict(self, path: Path) -> dict:
        return {
            "file": str(path),
            "accepted": self.accepted,
            "new": [asdict(f) for f in self.new],
            "stale": [dict(zip(FIELDS, e, strict=True)) for e in self.stale],
        }

    def counts(self, path: Path) -> str:
        return (
            f"baseline {visible(str(path))}: {self.accepted} accepted, {len(self.new)} new, "
            f"{len(self.stale)} stale"
        )

    def to_text(self, path: Path) -> str:
        lines = [self.counts(path)]
        if self.new:
            lines.append(f"new ({len(self.new)}):")
            lines += [f"  line {f.line:4d}  {finding_text(f)}" for f in self.new]
        if self.stale:
            lines.append(f"stale, no longer found ({len(self.stale)}):")
            lines += [f"  {_stale(e)}" for e in self.stale]
        return "\n".join(lines)

    def to_github(self, path: Path, chapter: str) -> str:
        """GitHub workflow commands for what the report's own annotations do not say: a
        warning on the baseline file per stale entry (one the audit of `chapter`, a file,
        no longer finds), and a notice of the counts."""
        lines = [
            workflow_command(
                "warning",
                str(path),
                None,
                "baseline entry stale",
                f"{_stale(e)} — no longer found in {chapter}; audit --write-baseline "
                "records the mismatches found now",
            )
            for e in self.stale
        ]
        return "\n".join(
            [*lines, workflow_command("notice", str(path), None, "baseline", self.counts(path))]
        )


def _stale(entry: Entry) -> str:
    """A baseline entry on one line: `[CODE] element: found`."""
    _, code, element, found = entry
    return f"[{visible(code)}] {visible(element) or '(outside the elements)'}: {visible(found)}"


def compare(report: Report, document: Document, baseline: Counter[Entry]) -> Comparison:
    """The report's mismatches against what the baseline accepts for its chapter."""
    left = Counter({e: k for e, k in baseline.items() if e[0] == report.chapter})
    new = []
    for finding in report.mismatched:
        key = entry(report, document, finding)
        by_section = (key[0], str(finding.section), *key[2:])
        held = next((k for k in (key, by_section) if left[k] > 0), None)
        if held is not None:
            left[held] -= 1
        else:
            new.append(finding)
    accepted = len(report.mismatched) - len(new)
    return Comparison(accepted, tuple(new), tuple(sorted(left.elements())))
