"""Audit a chapter file against the package.

Reads a chapter in either form found among the seeds — MDX with
`<Proposition id="…">` elements, or rendered text with `命題 3.3（…）✓`
headings — and reports:

- every element, with the registered check that covers it ("no check" when a
  rendered number has none; an MDX id the registry does not know is bad input);
- every table, compared cell by cell with the package's regenerated table;
- every numeric equality of the prose and display math (`a = b = c`,
  `\\approx`), recomputed at the printed precision by `TexArithmetic`, a small
  evaluator of TeX arithmetic (no `eval`);
- every printed output line of the code listings, compared with the line the
  package prints for the same quantity (`proofs.typeset.tables`' listings and
  re-run experiments);
- the check of every example and exercise found (they are about printed
  numbers, and cheap): a check that fails, or that reports a finding (the
  chapter prints a wrong value while the statement holds), is a mismatch (a
  finding at the line printing the number it names). Each check runs once per
  process.

Printed precision: a decimal printed with k digits after the point stands for
the interval of half a unit in its last place around it; an integer in a
computation is exact, and an integer printed as the result of `\\approx` stands
for ±0.5 of its last digit. Both sides of an equality are evaluated as
intervals (mpmath's interval arithmetic) and agree when the intervals meet:
an equality is mismatched only when no choice of its printed inputs within
their rounding makes it hold. A confirmed equality that holds only thanks to
that rounding (√(1.1428 + 0.2857 + 0 + 2.5714) = √4) says so, with both sides
at face value. The chapter files are only ever read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from proofs.audit.findings import Finding, Section, Status
from proofs.audit.listings import compare_run, run_listings
from proofs.audit.owned import one_verdict, owned_numbers, owned_relations
from proofs.audit.reports.coverage import coverage
from proofs.audit.reports.report import SECTIONS, Report
from proofs.audit.reports.tally import tally_elements
from proofs.audit.rules.cited import audit_cited
from proofs.audit.rules.claims import audit_claims, judge_elements, registered_pairs
from proofs.audit.rules.compared import audit_compared
from proofs.audit.rules.conclusions import audit_conclusions, audit_proved_formulas
from proofs.audit.rules.counted import audit_counted
from proofs.audit.rules.definitions import Use
from proofs.audit.rules.elements import audit_elements
from proofs.audit.rules.equalities import audit_equalities
from proofs.audit.rules.examples import audit_checks
from proofs.audit.rules.outputs import audit_outputs, with_runs
from proofs.audit.rules.properties import audit_properties
from proofs.audit.rules.prose import audit_prose
from proofs.audit.rules.references import audit_refs
from proofs.audit.rules.restated import audit_restated, audit_restated_tuples
from proofs.audit.rules.rounded import audit_rounded, audit_rounded_in_words
from proofs.audit.rules.structure import audit_structure
from proofs.audit.rules.tables import audit_tables
from proofs.audit.running import set_aside, weighed
from proofs.book.claims import normalise_tex
from proofs.book.printed import ungrouped
from proofs.reader import Document, read_chapter

__all__ = [
    "SECTIONS",
    "UNREGISTERED",
    "Finding",
    "Report",
    "audit_document",
    "audit_file",
    "identify",
]


UNREGISTERED = ""  # the key of a chapter no package registers: checked without checks


def identify(document: Document) -> str:
    """The key of the chapter the document is: by its title, or (MDX) by the chapter of
    its registered ids; UNREGISTERED when neither tells, a chapter the package has no
    checks for, which the audit still reads and checks from its own text."""
    from proofs.book.registry import CHAPTERS, load_all

    registry = load_all()
    for key, chapter in CHAPTERS.items():
        if document.title == chapter.title:
            return key
    ids = {e.id for e in document.elements if e.id in registry}
    chapters = {registry[i].chapter for i in ids}
    if document.form == "MDX" and len(chapters) == 1:
        return chapters.pop()
    return UNREGISTERED


def audit_document(
    document: Document,
    run: bool = False,
    earlier: Sequence[Document] = (),
    with_checks: bool = True,
) -> Report:
    """Audit one chapter, read into its Document; `run`: run its listings too (the files
    the text of `earlier` chapters names are given to them) and compare what they print
    with what the chapter prints. `with_checks=False` audits it as a chapter no package
    registers, with what needs no hand-written check (what a new chapter gets)."""
    from proofs.book.registry import CHAPTERS

    chapter = identify(document) if with_checks else UNREGISTERED
    report = Report(document.path, document.form, chapter)
    report.findings += audit_structure(document)
    report.findings += audit_elements(document, chapter)
    report.findings += audit_refs(document, chapter)
    judged = judge_elements(document, chapter)
    checked = {  # a failure on what the chapter changed is said by the changed claims
        j.element.id: j.run if j.run is not None else j.why_not_run()
        for j in judged
        if not j.fails_on_changes
    }
    report.findings += audit_checks(document, report.findings, checked)
    claims = audit_claims(document, judged, chapter)
    tables = {t.line for t in document.tables}
    runs = run_listings(document, earlier_chapters=earlier) if run else []
    produced = [(c.line, c.produced) for r in runs for c in compare_run(r) if c.produced]
    columns: list[Use] = []  # table columns a definition computes, for DEF001
    cells = audit_tables(
        document,
        chapter,
        {f.line: f.ref for f in claims if f.section == "claim" and f.line in tables},
        produced,
        columns,
    )
    owned = owned_relations(judged)
    bound = frozenset(
        (f.line, normalise_tex(f.text.strip("$"))) for f in claims if f.section == "claim"
    ) | frozenset(owned)
    environment = CHAPTERS[chapter].environment if chapter in CHAPTERS else None
    equalities = audit_equalities(
        document,
        environment,
        bound,
        open_notation=environment is None,
        owned=frozenset(owned),
        table_uses=columns,
    )
    claims, equalities = one_verdict(claims, equalities, owned)
    report.findings += _not_again(claims, cells, document)
    report.findings += cells
    report.findings += equalities
    report.findings += with_runs(audit_outputs(document, chapter), document, runs)
    read = owned_numbers(judged)
    restated = [
        *audit_restated(document, produced, read),
        *audit_restated_tuples(document, produced),
        *audit_rounded(document, produced, read),
    ]
    prose = audit_prose(document)
    report.findings += _said_once(restated, report.findings + prose)
    report.findings += prose
    report.findings += audit_rounded_in_words(document)
    report.findings += audit_properties(document)
    report.findings += audit_compared(document)
    report.findings += audit_counted(document)
    confirmed = frozenset(  # lines where a statement holds: a restatement cannot outweigh it
        f.line
        for f in report.findings
        if f.section == Section.EQUALITY and f.status == Status.CONFIRMED
    )
    report.findings += audit_cited(document, confirmed)
    report.findings += audit_conclusions(document)
    report.findings += audit_proved_formulas(document)
    weighed(report.findings)  # a heuristic's mismatch is a warning (its rule's severity)
    report.listings = sum(bool(listing.code) for listing in document.listings)
    report.listings_run = run
    if runs:
        report.listings_contained = runs[0].contained
        report.listings_containment = runs[0].containment
    _place(report.findings, document)
    report.coverage = coverage(document, report.findings)
    report.elements = tally_elements(document, registered_pairs(document, chapter), report.findings)
    return set_aside(report, document)


def _place(findings: list[Finding], document: Document) -> None:
    """Each finding's column: where its text, or the first number or formula of it,
    stands on its line."""
    for f in findings:
        if not 1 <= f.line <= len(document.lines):
            continue
        text = document.line(f.line)
        keys = [
            f.text.strip().strip("$"),
            f.text.rsplit(": ", 1)[-1].strip(),
            *re.findall(r"[\d.,]+\d|\S+", f.text)[:1],
        ]
        at = next((text.find(k) for k in keys if k and text.find(k) >= 0), -1)
        f.column = at + 1 if at >= 0 else 1


def _not_again(claims: list[Finding], cells: list[Finding], document: Document) -> list[Finding]:
    """The claims' findings but a table claim's mismatch where the cells audit already
    reports that table's wrong cells, one by one and with the regenerated values."""
    wrong = {
        line
        for f in cells
        if f.status == Status.MISMATCHED
        for line in [t.line for t in document.tables if f.line in t.row_lines]
    }
    return [f for f in claims if not (f.status == Status.MISMATCHED and f.line in wrong)]


def _said_once(restated: list[Finding], before: list[Finding]) -> list[Finding]:
    """The restatement rules' findings but a mismatch at a number that a finding before
    (a table cell against its regenerated value, a claim, an equality) already reports
    mismatched at its line: one slip, one finding, the one that knows the right value;
    nor at a number of a relation recomputed and confirmed at its line, which a guess
    of a slipped digit cannot outweigh, nor at a table cell its column's formula gives
    (「$(1 - q)^{23}$: 0.6283 (row 0.02)」, the row's key aside) or at a number of a
    relation of the prose that holds (「$i = 361$ から 511 までの 151 ブロック」)."""
    judged = {
        (f.line, ungrouped(f.text))
        for f in before
        if f.status == Status.MISMATCHED
        or (f.status == Status.CONFIRMED and f.section in (Section.EQUALITY, Section.PROSE))
    } | {
        (f.line, ungrouped(f.text.rpartition(" (row ")[0] or f.text))
        for f in before
        if f.status == Status.CONFIRMED and f.section == Section.TABLE
    }

    def stands_in(number: str, text: str) -> bool:
        return re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text) is not None

    return [
        f
        for f in restated
        if not (
            f.status == Status.MISMATCHED
            and any(line == f.line and stands_in(ungrouped(f.text), text) for line, text in judged)
        )
    ]


def audit_file(path: Path | str) -> Report:
    """Audit one chapter file (read only)."""
    return audit_document(read_chapter(path))
