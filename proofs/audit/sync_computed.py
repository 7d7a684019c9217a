"""The regions of a chapter that its own text computes, for `sync` on any chapter, with or
without a package of checks: the columns of a table whose header holds a formula, and
the printed output of its listings as they print it when run.

A column such as 「学習率 $\\eta_0 \\gamma^t$」 is computed in each row from the table and
the paragraphs before it (proofs.audit.rules.table_content.formula_cells); a cell the audit
finds wrong (no choice of the printed inputs within their rounding gives it) is
rewritten with the formula's value at the printed inputs, in the cell's own form. A
printed output line whose listing, run (`sync --run-listings`), prints the same words
and as many numbers is rewritten number by number where the two do not agree at the
chapter's printed precision (proofs.audit.listings.agree: two measured rounding errors
agree whatever their digits), each number in its printed form. A line the listing does
not print, or prints otherwise than in the same words, is left alone. Only where the
package regenerates nothing: a table or a line the chapter's package computes is its.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from proofs.audit.listings import ListingRun, agree, compare_run
from proofs.audit.rules.table_content import formula_cells
from proofs.audit.sync import Region, spliced
from proofs.reader import Document
from proofs.reader.records import Table
from proofs.typeset.reprint import reprinted

# a number as the listings' output prints it (proofs.audit.listings.comparing reads the same)
NUMBER = re.compile(r"(?<![A-Za-z_\d.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
LISTING = "the chapter's listing, run"


def table_region(document: Document, table: Table, region: Region) -> Region | None:
    """The table's region with its formula columns computed: each cell the audit finds
    wrong rewritten in place; None when no column's header holds a formula the table and
    its paragraphs give the values of."""
    cells = formula_cells(document, table)
    if not cells:
        return None
    new = list(region.old)
    for cell in cells:
        if cell.agrees:
            continue
        line = table.row_lines[cell.row]
        span = table.spans[cell.row][cell.column]
        text = document.line(line)[span[0] : span[1]]
        written = reprinted(cell.value, text)
        new[line - region.line] = spliced(new[line - region.line], [(span, written)])
    return replace(region, new=tuple(new), why="")


def output_lines(runs: Sequence[ListingRun]) -> dict[int, str]:
    """The line each printed output line of the runs' listings becomes: where it and the
    line the listing printed have the same words and as many numbers, each number that
    does not agree written as the listing printed it, in the chapter's form."""
    out = {}
    for run in runs:
        for compared in compare_run(run):
            if not compared.printed or not compared.produced:
                continue
            rewritten = _line(compared.printed, compared.produced)
            if rewritten is not None:
                out[compared.line] = rewritten
    return out


def _line(printed: str, produced: str) -> str | None:
    ours, theirs = list(NUMBER.finditer(printed)), list(NUMBER.finditer(produced))
    if len(ours) != len(theirs) or _words(printed) != _words(produced):
        return None
    edits = []
    for a, b in zip(ours, theirs, strict=True):
        if not agree(a.group(), b.group())[0]:
            edits.append((a.span(), reprinted(Fraction(b.group()), a.group())))
    return spliced(printed, edits)


def _words(line: str) -> list[str]:
    """What a line says besides its numbers, spaces aside."""
    return NUMBER.sub("#", line).split()


def computed(
    document: Document, found: list[Region], runs: Sequence[ListingRun] = ()
) -> list[Region]:
    """`found` with each region the package leaves alone computed by the chapter's own
    text where it can be: a table from its header formulas, an output line from its
    listing's run."""
    tables = {t.row_lines[0]: t for t in document.tables}
    lines = output_lines(runs)
    out = []
    for region in found:
        if region.new is None and region.kind == "table" and region.line in tables:
            region = table_region(document, tables[region.line], region) or region
        elif region.new is None and region.kind == "output" and region.line in lines:
            region = replace(region, new=(lines[region.line],), why="")
        out.append(region)
    return out
