"""What the print edition says under each element's heading: its check's result.

The result comes from running the checks (`run_marks`: the cheap ones, those of the
examples and exercises that the audit runs too, or every one) or from a report of
`verify --json` (`report_marks`). An element is

- passed: its check passed; the mark names the check's methods;
- finding: its check passed but found a number the chapter prints wrong (the message);
- failed: its check failed or raised (the message);
- unchecked: its check is a stub not yet written (run or not: a stub declares no methods);
- not run: it has a check that was not run here (nor found in the report);
- no check: the registry has no check for it (a chapter without checks, or an element
  the chapter's package does not register).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from proofs.audit.rules.elements import registered
from proofs.audit.rules.examples import CHECKED_KINDS
from proofs.book.registry import RegisteredElement, load_all, run_check
from proofs.publish.edition.parts import Part
from proofs.publish.maps import results_from_report

RESULTS = ("passed", "finding", "failed", "unchecked", "not run", "no check")


@dataclass(frozen=True)
class Mark:
    """The result an element's mark shows: one of RESULTS, the check's methods, and the
    message of a finding, a failure or a stub."""

    result: str
    methods: tuple[str, ...] = ()
    message: str = ""

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, got {self.result!r}")


def _mark(result: str, methods: tuple[str, ...], message: str, findings: list[str]) -> Mark:
    """A registry result (passed, failed, error, unchecked) and its findings as a mark."""
    if result == "passed":
        return Mark("finding", methods, "; ".join(findings)) if findings else Mark(result, methods)
    if result in ("failed", "error"):
        return Mark("failed", methods, message)
    if result == "unchecked":
        return Mark(result, methods, message)
    raise ValueError(f"result must be passed, failed, error or unchecked, got {result!r}")


def _registered(part: Part) -> dict[int, RegisteredElement]:
    """The registered element of each of the chapter's elements that has one, by line."""
    if not part.key:
        return {}
    registry = load_all()
    found = {e.line: registered(e, part.key, registry) for e in part.document.elements}
    return {line: e for line, e in found.items() if e is not None}


def run_marks(part: Part, every: bool = False) -> dict[int, Mark]:
    """Each element's mark (by the line of its heading), from running the checks of the
    examples and exercises, or with `every` all of the chapter's checks."""
    checks = _registered(part)
    out = {}
    for element in part.document.elements:
        check = checks.get(element.line)
        if check is None:
            out[element.line] = Mark("no check")
        elif not check.methods:  # a stub: unchecked, as verify says, whether it runs or not
            out[element.line] = Mark("unchecked", (), f"{check.number} has no check yet")
        elif every or check.kind in CHECKED_KINDS:
            run = run_check(check)
            findings = [f.message for f in run.findings]
            out[element.line] = _mark(run.result, check.methods, run.message, findings)
        else:
            out[element.line] = Mark("not run", check.methods)
    return out


def report_marks(part: Part, report: object) -> dict[int, Mark]:
    """Each element's mark (by the line of its heading) from a report of `verify --json`;
    ValueError when `report` is not one."""
    results_from_report(report, part.key)  # the report's shape, checked
    assert isinstance(report, dict)
    entries = {e["number"]: e for e in report["elements"] if e["chapter"] == part.key}
    checks = _registered(part)
    out = {}
    for element in part.document.elements:
        check = checks.get(element.line)
        if check is None:
            out[element.line] = Mark("no check")
            continue
        entry = entries.get(check.number)
        if entry is None:
            out[element.line] = (
                Mark("not run", check.methods)
                if check.methods
                else Mark("unchecked", (), f"{check.number} has no check yet")
            )
            continue
        findings = [str(f) for f in entry["findings"]]
        message = str(entry.get("message", ""))
        out[element.line] = _mark(entry["result"], check.methods, message, findings)
    return out


def tally(marks: Mapping[int, Mark]) -> dict[str, int]:
    """How many elements have each result, in the order of RESULTS (those with none left out)."""
    counted = Counter(m.result for m in marks.values())
    return {result: counted[result] for result in RESULTS if counted[result]}
