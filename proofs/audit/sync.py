"""Write the package's regions back into a chapter file: `python -m proofs sync FILE...`.

A region is a part of a chapter that the package produces: a table the audit
regenerates (`proofs.audit.rules.tables`), a printed output line of a listing the audit
compares (`proofs.audit.rules.outputs`), a figure the chapter's package registers
(`@CHAPTER.figure`). Each is regenerated in the chapter's own syntax: a drifted table
cell is rewritten in place in its row (the pipes, TABs and spacing around it kept),
with the rows the package has and the chapter lacks added as the package prints them;
a drifted number of an output line is rewritten in place in its line (two numbers
that are both measured rounding errors are not a drift); a figure's SVG is rewritten
whole. Where the package produces nothing, the chapter's own text may: a table column
its header's formula computes, an output line its listing prints when run with
`--run-listings` (proofs.audit.sync_computed). A region neither can produce (a table of
words, a line no computation prints) is left alone. Every byte outside the drifted
regions is kept: a byte-order mark, each line's own end (LF, CRLF), the rest of the text.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from proofs.audit import identify
from proofs.audit.listings import ListingRun, run_listings
from proofs.audit.rules.outputs import printed_lines
from proofs.audit.rules.tables import (
    EMPTY,
    NO_COLUMNS,
    NotRegenerated,
    normalise_cell,
    regenerate,
    require_rectangular,
)
from proofs.book.registry import CHAPTERS
from proofs.files import write_atomically
from proofs.reader import BOM, Document, decode, parse, read_bytes
from proofs.reader.records import Problem
from proofs.typeset.shown import visible
from proofs.typeset.tables import Table
from proofs.typeset.words import counted

KINDS = ("table", "output", "figure")
RULE = re.compile(r"\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*")  # a Markdown table's rule row


@dataclass(frozen=True)
class Region:
    """Lines of a chapter file the package produces, as the file has them and as the
    package regenerates them (None when the package cannot, `why` saying so)."""

    kind: str  # one of KINDS
    line: int  # its first line, 1-based
    name: str
    old: tuple[str, ...]
    new: tuple[str, ...] | None
    why: str = ""

    @property
    def drifted(self) -> bool:
        return self.new is not None and self.new != self.old


def spliced(line: str, edits: list[tuple[tuple[int, int], str]]) -> str:
    """The line with each (start, end) span replaced by its text."""
    for (start, end), text in sorted(edits, reverse=True):
        line = line[:start] + text + line[end:]
    return line


def _package_rows(table: Table, form: str) -> list[str]:
    """The rows of a regenerated table as the package prints them in the form: the
    header (and MDX's rule row), then the body."""
    return (table.to_markdown() if form == "MDX" else table.to_text()).split("\n")


def _table_end(document: Document, first: int, last: int) -> int:
    """The table's last line: its last row, or the MDX rule rows after it (a table
    with a header and no rows ends with its rule)."""
    while last < len(document.lines) and RULE.fullmatch(document.line(last + 1).strip()):
        last += 1
    return last


def table_regions(document: Document, chapter: str) -> list[Region]:
    """Each table, its drifted cells rewritten in place and its rows made the package's;
    a table shaped otherwise than the package's (a column more or less, no rows) is
    rewritten whole."""
    out = []
    header_rows = 2 if document.form == "MDX" else 1
    for printed in document.tables:
        require_rectangular(document.path, printed)
        first = printed.row_lines[0]
        last = _table_end(document, first, printed.row_lines[-1])
        old = document.lines[first - 1 : last]
        name = "(" + " | ".join(printed.rows[0]).strip(" |") + ")"
        try:
            regenerated = regenerate(chapter, printed)
        except NotRegenerated as refused:
            out.append(Region("table", first, name, old, None, str(refused)))
            continue
        if regenerated is None:
            why = EMPTY if len(printed.rows) == 1 else NO_COLUMNS
            out.append(Region("table", first, name, old, None, why))
            continue
        ours = regenerated.table
        if regenerated.shape:
            out.append(
                Region("table", first, ours.name, old, tuple(_package_rows(ours, document.form)))
            )
            continue
        new = list(old)
        body = list(
            zip(printed.row_lines[1:], printed.spans[1:], printed.rows[1:], ours.rows, strict=False)
        )
        for line, spans, cells, row in body:
            edits = [
                (span, theirs)
                for span, cell, theirs in zip(spans, cells, row, strict=True)
                if normalise_cell(cell) != normalise_cell(theirs)
            ]
            new[line - first] = spliced(new[line - first], edits)
        if len(printed.rows) - 1 > len(body):  # rows the package does not have
            del new[printed.row_lines[1 + len(body)] - first :]
        new += _package_rows(ours, document.form)[header_rows + len(body) :]
        out.append(Region("table", first, ours.name, old, tuple(new)))
    return out


def output_regions(document: Document, chapter: str) -> list[Region]:
    """Each printed output line of the listings, its drifted numbers rewritten in place."""
    out = []
    for printed in printed_lines(document, chapter):
        old = (printed.text,)
        name = printed.text.strip()
        if printed.match is None:
            why = "no computation in the package prints this line"
            out.append(Region("output", printed.line, name, old, None, why))
            continue
        edits = [
            (printed.match.span(group), ours)
            for group, _, ours, rounding in printed.differing()
            if not rounding
        ]
        out.append(Region("output", printed.line, name, old, (spliced(printed.text, edits),)))
    return out


def figure_regions(document: Document, chapter: str) -> list[Region]:
    """Each figure: the SVG between its tags, from the figure its caption names."""
    entries = CHAPTERS[chapter].figures.values() if chapter in CHAPTERS else ()
    out = []
    for figure in document.figures:
        old = document.lines[figure.line : figure.end - 1]
        entry = next((e for e in entries if figure.caption.startswith(e.caption)), None)
        if entry is None:
            why = "no figure the chapter registers has this caption"
            out.append(Region("figure", figure.line + 1, figure.caption, old, None, why))
            continue
        new = tuple(entry.build().split("\n"))
        out.append(Region("figure", figure.line + 1, entry.name, old, new))
    return out


def regions(document: Document, chapter: str, runs: Sequence[ListingRun] = ()) -> list[Region]:
    """Every region of the document, in the order of its lines: the package's, and where
    the package regenerates nothing, what the chapter's own text computes (its tables'
    header formulas, and its listings' output from `runs`: proofs.audit.sync_computed)."""
    from proofs.audit.sync_computed import computed

    found = [
        *table_regions(document, chapter),
        *output_regions(document, chapter),
        *figure_regions(document, chapter),
    ]
    return sorted(computed(document, found, runs), key=lambda r: r.line)


def _ending(line: str) -> str:
    """The line break a line of str.splitlines(keepends=True) ends with ("" at the end)."""
    return line[len(line.splitlines()[0]) :]


def rewrite(text: str, found: list[Region]) -> str:
    """The text with each drifted region replaced; a replaced line keeps its own line
    break, and a line added takes the break of the region's first line."""
    lines = text.splitlines(keepends=True)
    for region in sorted((r for r in found if r.drifted), key=lambda r: r.line, reverse=True):
        assert region.new is not None
        start = region.line - 1
        stop = start + len(region.old)
        ends = [_ending(line) for line in lines[start:stop]] or [_ending(lines[start - 1])]
        breaks = [ends[k] if k < len(ends) - 1 else ends[0] for k in range(len(region.new) - 1)]
        lines[start:stop] = [t + e for t, e in zip(region.new, [*breaks, ends[-1]], strict=True)]
    return "".join(lines)


@dataclass(frozen=True)
class Sync:
    """A chapter file, its regions, and its text with the drifted regions regenerated;
    `problems`: what makes the file wrong that no region can repair (an element not
    closed, an unpaired `$`, a table with no rows the package does not make), so that
    the file is not in sync until its author fixes them."""

    path: Path
    data: bytes  # as read, to replace only that version of the file
    text: str  # as read, without its byte-order mark
    bom: str
    regions: tuple[Region, ...]
    synced: str  # the text with the package's regions, without its byte-order mark
    problems: tuple[Problem, ...] = ()

    @property
    def drifted(self) -> list[Region]:
        return [r for r in self.regions if r.drifted]

    @property
    def shown_path(self) -> str:
        """The file's name as a report prints it: every character it shows as it is."""
        return visible(str(self.path))

    @property
    def in_sync(self) -> bool:
        return not self.drifted and not self.problems

    def listing(self) -> str:
        """Every region on a line: in sync, drifted, or left alone and why."""
        lines = [f"{self.shown_path}:"]
        for r in self.regions:
            state = (
                ("drifted" if r.drifted else "in sync")
                if r.new is not None
                else (f"left alone: {visible(r.why)}")
            )
            lines.append(f"  line {r.line:4d}  {r.kind:6}  {visible(r.name)}: {state}")
        return "\n".join(lines)

    def summary(self, written: bool) -> str:
        """One line: the regions drifted (where) and the problems left to the author, or
        the regions regenerated by kind."""
        if self.drifted or self.problems:
            said = []
            if self.drifted:
                verb = "rewrote" if written else "would rewrite"
                where = ", ".join(
                    f"output line {r.line}"
                    if r.kind == "output"
                    else f"{r.kind} {visible(r.name)} (line {r.line})"
                    for r in self.drifted
                )
                said.append(
                    f"{verb} {self.shown_path}: {counted(len(self.drifted), 'region')} "
                    f"drifted: {where}"
                )
            if self.problems:
                problems = "; ".join(f"line {p.line}: {visible(p.message)}" for p in self.problems)
                said.append(
                    f"{'' if said else f'{self.shown_path}: '}not in sync, "
                    f"{counted(len(self.problems), 'problem')} to fix by hand: {problems}"
                )
            return "; ".join(said)
        made = {
            kind: sum(r.kind == kind and r.new is not None for r in self.regions) for kind in KINDS
        }
        alone = sum(r.new is None for r in self.regions)
        made_by_kind = ", ".join(
            counted(made[kind], noun)
            for kind, noun in (("table", "table"), ("output", "output line"), ("figure", "figure"))
        )
        return f"{self.shown_path}: in sync ({made_by_kind} regenerated; {alone} left alone)"

    def to_github(self, written: bool) -> str:
        """GitHub workflow commands: an error at each drifted region (a notice once it is
        rewritten) and at each problem to fix by hand, so that a pull request shows them."""
        from proofs.audit.reports.github import workflow_command

        path = str(self.path)
        level, verb = ("notice", "rewritten") if written else ("error", "drifted")
        lines = [
            workflow_command(
                level,
                path,
                r.line,
                f"sync: {r.kind} {verb}",
                f"{r.kind} {visible(r.name)} {verb}"
                + (
                    ""
                    if written
                    else f": python -m proofs sync {visible(path)} --write regenerates it"
                ),
            )
            for r in self.drifted
        ]
        lines += [
            workflow_command("error", path, p.line, "sync: not in sync", p.message)
            for p in self.problems
        ]
        return "\n".join(lines)

    def diff(self) -> str:
        """A unified diff from the file to the synced text (three lines of context)."""
        lines = difflib.unified_diff(
            self.text.splitlines(),
            self.synced.splitlines(),
            self.shown_path,
            self.shown_path,
            "(chapter)",
            "(regenerated)",
            lineterm="",
        )
        return "\n".join(lines)

    def write(self) -> None:
        """Replace the file by the synced text atomically, keeping its mode, if it still
        holds the bytes it was read with (files.Changed otherwise); nothing is written
        when nothing drifted."""
        if self.drifted:
            write_atomically(self.path, self.bom + self.synced, force=True, expected=self.data)


def sync_file(path: Path, run: bool = False) -> Sync:
    """Read a chapter file (either form) and regenerate its regions; `run`: run the
    chapter's listings (proofs.audit.listings) for the output lines no package computes.
    ChapterInputError names the file and line of bad input."""
    data = read_bytes(path)
    text = decode(data, str(path))
    document = parse(text, str(path))
    runs = run_listings(document) if run else []
    found = regions(document, identify(document), runs)
    bom = BOM if data.startswith(BOM.encode()) else ""
    empty = [Problem(r.line, r.why) for r in found if r.kind == "table" and r.why == EMPTY]
    problems = sorted([*document.problems, *empty], key=lambda p: p.line)
    return Sync(path, data, text, bom, tuple(found), rewrite(text, found), tuple(problems))
