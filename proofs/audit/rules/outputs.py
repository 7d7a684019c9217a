"""The audit of the lines a chapter's listings print, against the package's lines."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.audit.listings import ListingRun, OutputComparison, compare_run
from proofs.book.registry import CHAPTERS
from proofs.reader import Document
from proofs.typeset.tables import ListingLine

PACKAGE_OUTPUT = Rule(
    "OUT001",
    "listing-output",
    Section.OUTPUT,
    Severity.ERROR,
    "Each printed output line of a listing is the line the package prints for the same "
    "quantity (a line no computation of the package prints is listed).",
    Example(chapter="self-attention", line=667, old="params: 288", new="params: 289"),
    Example(chapter="self-attention", line=668, old="= 2.2e-16", new="= 4.4e-16"),
)
_LISTING = (
    '# 見本\n\n<Remark id="rem-run" title="実行">\n\n実行します。\n\n</Remark>\n\n'
    "```python\n{}\n```\n\n```text\n4\n```\n"
)
NOT_RUN = Rule(
    "OUT002",
    "listing-does-not-run",
    Section.OUTPUT,
    Severity.ERROR,
    "With the listings run, each listing runs to its end. One stopped at a limit of its "
    "sandbox (its time, memory, output or folder size) is not checkable, and so are the "
    "lines it did not print: another machine might print them.",
    Example(_LISTING.format("print(2 + 2)\nraise SystemExit(3)"), run_listings=True),
    Example(_LISTING.format("print(2 + 2)"), run_listings=True),
)
LISTING_OUTPUT = Rule(
    "OUT003",
    "listing-prints-otherwise",
    Section.OUTPUT,
    Severity.ERROR,
    "With the listings run, each printed output line is what the chapter's own listing "
    "prints, at the precision the chapter prints it with.",
    Example(_LISTING.format("print(2 + 3)"), run_listings=True),
    Example(_LISTING.format("print(2 + 2)"), run_listings=True),
)
RULES = (PACKAGE_OUTPUT, NOT_RUN, LISTING_OUTPUT)


_OUT_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])")


def _template(line: str) -> re.Pattern:
    """A pattern matching the line with any numbers in the places of its numbers."""
    parts = _OUT_NUMBER.split(line.strip())
    number = r"([-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)"
    pieces = []
    for k, part in enumerate(parts):
        words = part.split()
        inner = 0 < k < len(parts) - 1
        if words:
            pieces.append(r"\s*" + r"\s+".join(re.escape(w) for w in words) + r"\s*")
        else:
            pieces.append(r"\s+" if inner and part else r"\s*")
        if k < len(parts) - 1:
            pieces.append(number)
    return re.compile("".join(pieces))


@functools.cache
def listing_lines(chapter: str) -> tuple[ListingLine, ...]:
    """Every listing line the package reproduces for a chapter, computed once."""
    if chapter not in CHAPTERS:
        return ()
    return tuple(line for lines in CHAPTERS[chapter].listings for line in lines())


def _agreement(expected: ListingLine, match: re.Match) -> tuple[int, ...]:
    ours = _OUT_NUMBER.findall(expected.text.strip())
    return tuple(int(a == b) for a, b in zip(match.groups(), ours, strict=True))


@dataclass(frozen=True)
class PrintedLine:
    """A printed output line of a listing and the package's line for the same quantity
    (None when no computation in the package prints it), with the printed line matched
    against that line's template: its numbers are the match's groups."""

    line: int
    text: str  # as in the file
    expected: ListingLine | None
    match: re.Match | None

    def differing(self) -> list[tuple[int, str, str, bool]]:
        """(group, printed, the package's, whether both are at rounding level) for each
        number printed otherwise than the package prints it."""
        if self.expected is None or self.match is None:
            return []
        ours = _OUT_NUMBER.findall(self.expected.text.strip())
        level = self.expected.rounding
        return [
            (k, a, b, abs(float(a)) <= level and abs(float(b)) <= level)
            for k, (a, b) in enumerate(zip(self.match.groups(), ours, strict=True), 1)
            if a != b
        ]


def printed_lines(document: Document, chapter: str) -> list[PrintedLine]:
    """Every non-blank printed output line of the document's listings with the package's
    line it matches (the one agreeing in the most numbers, the row's own key first)."""
    templates = [(p, _template(p.text)) for p in listing_lines(chapter)]
    out = []
    for listing in document.listings:
        if listing.output_line is None:
            continue
        for k, raw in enumerate(listing.output):
            if not raw.strip():
                continue
            matches = [(e, m) for e, t in templates if (m := t.fullmatch(raw)) is not None]
            expected, match = (
                max(matches, key=lambda em: _agreement(em[0], em[1])) if matches else (None, None)
            )
            out.append(PrintedLine(listing.output_line + k, raw, expected, match))
    return out


def audit_outputs(document: Document, chapter: str) -> list[Finding]:
    """Every printed output line of the document's listings, against the line the package
    prints for the same quantity."""
    findings = []
    for printed in printed_lines(document, chapter):
        text = printed.text.strip()
        if printed.expected is None:
            findings.append(
                Finding(
                    Section.OUTPUT,
                    printed.line,
                    text,
                    Status.NOT_CHECKABLE,
                    "no computation in the package prints this line",
                    code=PACKAGE_OUTPUT.code,
                )
            )
            continue
        source = printed.expected.source
        rounding = printed.expected.rounding
        differing = printed.differing()
        bad = [
            f"printed {a}, the package gives {b} (off by {float(a) - float(b):+.3g})"
            for _, a, b, level in differing
            if not level
        ]
        if bad:
            findings.append(
                Finding(
                    Section.OUTPUT,
                    printed.line,
                    text,
                    Status.MISMATCHED,
                    "; ".join(bad) + f" [{source}]",
                    code=PACKAGE_OUTPUT.code,
                )
            )
            continue
        notes = [
            f"{a} vs {b}: both at rounding level (≤ {rounding:.1e})"
            for _, a, b, level in differing
            if level
        ]
        detail = "; ".join([f"reproduced by {source}", *notes])
        findings.append(
            Finding(
                Section.OUTPUT,
                printed.line,
                text,
                Status.CONFIRMED,
                detail,
                code=PACKAGE_OUTPUT.code,
            )
        )
    return findings


def with_runs(outputs: list[Finding], document: Document, runs: list[ListingRun]) -> list[Finding]:
    """The printed output lines as the package computes them, and, when the listings
    ran, as the chapter's own code prints them: each line no computation of the package
    prints takes the run's verdict, a line the run contradicts is a mismatch whatever
    the package says, and a listing that does not run is a mismatch at its first line;
    one that needs a file the text names but no chapter given holds (attention.py of the
    chapter before) is not checkable, its printed lines left as the package reads them;
    one stopped at a limit of its sandbox (its time, its memory) is not checkable, and so
    are the lines it did not print, while those it printed are compared."""
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
                    Status.NOT_CHECKABLE
                    if listing_run.wanting or listing_run.limited
                    else Status.MISMATCHED,
                    f"the listing does not run: {listing_run.problem}",
                    code=NOT_RUN.code,
                )
            )
        if listing_run.wanting:  # another chapter's file, not given: nothing to compare
            continue
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
                code=LISTING_OUTPUT.code,
            )
        out.append(f)
    out += [
        Finding(
            Section.OUTPUT,
            c.line,
            c.printed or c.produced,
            Status(c.status),
            c.detail or "printed by the chapter's listing",
            code=LISTING_OUTPUT.code,
        )
        for c in compared.values()
    ]
    return problems + out
