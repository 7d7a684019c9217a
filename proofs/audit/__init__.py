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

from proofs.audit.cited import audit_cited
from proofs.audit.claims import audit_claims, judge_elements, registered_pairs
from proofs.audit.conclusions import audit_conclusions
from proofs.audit.counted import audit_counted
from proofs.audit.coverage import coverage
from proofs.audit.elements import audit_checks, audit_elements, audit_refs
from proofs.audit.equalities import audit_equalities
from proofs.audit.listings import ListingRun, OutputComparison, compare_run, run_listings
from proofs.audit.outputs import audit_outputs
from proofs.audit.owned import one_verdict, owned_numbers, owned_relations
from proofs.audit.prose import audit_prose
from proofs.audit.report import SECTIONS, Finding, Report, Section, Status, warned
from proofs.audit.restated import audit_restated, audit_restated_tuples
from proofs.audit.rounded import audit_rounded
from proofs.audit.tables import audit_tables
from proofs.audit.tally import tally_elements
from proofs.book.claims import normalise_tex
from proofs.book.printed import ungrouped
from proofs.reader import Document, read_chapter
from proofs.typeset.shown import shortened

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
    cells = audit_tables(
        document,
        chapter,
        {f.line: f.ref for f in claims if f.section == "claim" and f.line in tables},
        produced,
    )
    owned = owned_relations(judged)
    bound = frozenset(
        (f.line, normalise_tex(f.text.strip("$"))) for f in claims if f.section == "claim"
    ) | frozenset(owned)
    environment = CHAPTERS[chapter].environment if chapter in CHAPTERS else None
    equalities = audit_equalities(
        document, environment, bound, open_notation=environment is None, owned=frozenset(owned)
    )
    claims, equalities = one_verdict(claims, equalities, owned)
    report.findings += _not_again(claims, cells, document)
    report.findings += cells
    report.findings += equalities
    report.findings += _with_runs(audit_outputs(document, chapter), document, runs)
    read = owned_numbers(judged)
    restated = [
        *audit_restated(document, produced, read),
        *audit_restated_tuples(document, produced),
        *audit_rounded(document, produced, read),
    ]
    # the rules that read which numbers or formulas a sentence relates by where they stand,
    # or take a digit slip between two numbers the text does not say are one quantity:
    # heuristics, whose mismatches are warnings (report.Severity)
    heuristic = [
        *_said_once(restated, report.findings),
        *audit_prose(document),
        *audit_counted(document),
        *audit_cited(document),
        *audit_conclusions(document),
    ]
    report.findings += [warned(f) for f in heuristic]
    report.listings = sum(bool(listing.code) for listing in document.listings)
    report.listings_run = run
    if runs:
        report.listings_contained = runs[0].contained
        report.listings_containment = runs[0].containment
    _place(report.findings, document)
    report.coverage = coverage(document, report.findings)
    report.elements = tally_elements(document, registered_pairs(document, chapter), report.findings)
    return report


def _with_runs(outputs: list[Finding], document: Document, runs: list[ListingRun]) -> list[Finding]:
    """The printed output lines as the package computes them, and, when the listings
    ran, as the chapter's own code prints them: each line no computation of the package
    prints takes the run's verdict, a line the run contradicts is a mismatch whatever
    the package says, and a listing that does not run is a mismatch at its first line."""
    if not runs:
        return outputs
    compared: dict[int, OutputComparison] = {}
    problems = []
    for listing_run in runs:
        if not listing_run.ran:
            line = listing_run.listing.line
            problems.append(
                Finding(
                    Section.OUTPUT,
                    line,
                    document.line(line).strip(),
                    Status.MISMATCHED,
                    f"the listing does not run: {listing_run.problem}",
                )
            )
        for c in compare_run(listing_run):
            compared[c.line] = c
    out = []
    for f in outputs:
        ran = compared.pop(f.line) if f.line in compared else None
        if ran is not None and (f.status == Status.NOT_CHECKABLE or ran.status == "mismatched"):
            f = Finding(
                Section.OUTPUT,
                f.line,
                f.text,
                Status(ran.status),
                ran.detail or "printed by the chapter's listing",
            )
        out.append(f)
    out += [
        Finding(
            Section.OUTPUT,
            c.line,
            c.printed or c.produced,
            Status(c.status),
            c.detail or "printed by the chapter's listing",
        )
        for c in compared.values()
    ]
    return problems + out


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


def audit_structure(document: Document) -> list[Finding]:
    """Each defect of the file's structure the reader read past, a mismatch at its line."""
    return [
        Finding(
            Section.STRUCTURE,
            p.line,
            shortened(document.line(p.line).strip()),
            Status.MISMATCHED,
            p.message,
        )
        for p in document.problems
    ]


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
    mismatched at its line: one slip, one finding, the one that knows the right value."""
    said = {(f.line, ungrouped(f.text)) for f in before if f.status == Status.MISMATCHED}
    return [
        f
        for f in restated
        if not (
            f.status == Status.MISMATCHED
            and any(line == f.line and ungrouped(f.text) in text for line, text in said)
        )
    ]


def audit_file(path: Path | str) -> Report:
    """Audit one chapter file (read only)."""
    return audit_document(read_chapter(path))
