"""What the audit does with the rules' findings, apart from the rules themselves: every
rule by its code (RULES), each mismatch weighed by its rule's severity, and the findings
an author's suppressions keep out set aside (proofs.audit.suppressions).

The rules live one family to a module under proofs.audit.rules, each with its codes; a
code is a family's letters and a number, and stays the rule's once published. Which
rules a run reports (select, ignore) is proofs.audit.selection's.
"""

from __future__ import annotations

from proofs.audit import suppressions
from proofs.audit.findings import Finding, Rule, Status
from proofs.audit.reports.report import Report
from proofs.audit.rules import (
    cited,
    claims,
    compared,
    conclusions,
    counted,
    definitions,
    elements,
    equalities,
    examples,
    outputs,
    properties,
    prose,
    references,
    restated,
    rounded,
    statements,
    structure,
    table_content,
    table_grid,
    table_rows,
    tables,
)
from proofs.reader import Document

FAMILIES = (  # in the order of the report's sections
    structure,
    elements,
    references,
    examples,
    claims,
    statements,
    conclusions,
    tables,
    table_content,
    table_grid,
    table_rows,
    equalities,
    definitions,
    outputs,
    restated,
    rounded,
    cited,
    prose,
    compared,
    properties,
    counted,
    suppressions,
)
RULES: dict[str, Rule] = {rule.code: rule for family in FAMILIES for rule in family.RULES}


def weighed(findings: list[Finding]) -> list[Finding]:
    """The findings, each mismatch with its rule's severity: a heuristic's a warning."""
    for f in findings:
        if f.status == Status.MISMATCHED and f.code in RULES:
            f.severity = RULES[f.code].severity
    return findings


def set_aside(report: Report, document: Document) -> Report:
    """The report without the findings the document's suppressions keep out (kept in
    `report.suppressed`, with the line of the suppression and its reason), with the
    findings about the suppressions themselves."""
    kept, out, about = suppressions.suppressed(report.findings, document, RULES)
    report.findings = kept + weighed(about)
    report.suppressed = [(f, s.line, s.reason) for f, s in out]
    return report
