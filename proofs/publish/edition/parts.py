"""The chapters of a print edition, each with what the edition needs to know of it beyond
its Document: the prefix of its labels, the name citations give it, its address on the
web, its references list and the figures the package draws for it. A chapter with a line
too long to set (MAX_LINE) has none: LuaTeX stops at a line of more than 200,000 bytes."""

from __future__ import annotations

import re
from dataclasses import dataclass

from proofs.reader import Document
from proofs.reader.rendered import REFERENCES

_ADDRESS = re.compile(r"^>\s*(https?://\S+)\s*$")
_REFERENCES_HEADING = re.compile(rf"^(?:#+\s*)?{REFERENCES}\s*$")
_ENTRY = re.compile(r"^\s*(?:[-*•]\s*)?\[(\d+)\]")
# characters of a chapter's line the edition sets: escaped (a backslash is written in 16
# characters, a glyphless one in 17) and written twice (a heading's text for the page and
# for the PDF's bookmarks), a line stays under the 200,000 bytes LuaTeX reads of one line
# of its input; the chapters' longest is under 1,000
MAX_LINE = 5_000


class Unprintable(ValueError):
    """A chapter the print edition cannot set, and the line that says why."""


@dataclass(frozen=True)
class FigureSpot:
    """A figure of the chapter: its lines, its caption, and the name of the registered
    figure that draws it ("" when the package draws none)."""

    line: int
    end: int
    caption: str
    name: str


@dataclass(frozen=True)
class Part:
    """One chapter of the edition."""

    document: Document
    label: str  # the prefix of its LaTeX labels: c1, c2, …
    key: str  # its registered chapter key; "" for a chapter without checks
    short: str  # the name a citation gives it: 命題 7.2［自己注意］
    address: str  # the URL the chapter states under its title, "" when none
    references: frozenset[str]  # the numbers of its references list: [1], [2], …
    figures: tuple[FigureSpot, ...]

    @property
    def site(self) -> str:
        """The root of the chapter's web address (scheme and host), "" without one: the
        site-relative links of an MDX chapter lead there."""
        match = re.match(r"https?://[^/]+", self.address)
        return match.group() if match else ""


def part_of(document: Document, number: int) -> Part:
    """The `number`-th chapter (from 1) of an edition, read from its Document and, for a
    registered chapter, the figures its package draws; Unprintable when a line is longer
    than MAX_LINE."""
    from proofs.audit import identify

    for line, text in enumerate(document.lines, 1):
        if len(text) > MAX_LINE:
            raise Unprintable(
                f"{document.path}:{line}: a line of {len(text):,} characters; the print "
                f"edition sets lines of up to {MAX_LINE:,} (LuaTeX reads at most 200,000 "
                "bytes of a line)"
            )

    key = identify(document)
    return Part(
        document=document,
        label=f"c{number}",
        key=key,
        short=document.title.split("：")[0].strip(),
        address=next(
            (m.group(1) for line in document.lines[:12] if (m := _ADDRESS.match(line))), ""
        ),
        references=_references(document),
        figures=_figures(document, key),
    )


def references_start(document: Document) -> int | None:
    """The line of the references heading (`## 参考文献`, or 参考文献 alone), None without one."""
    return next(
        (
            i
            for i, line in enumerate(document.lines, 1)
            if i not in document.code and _REFERENCES_HEADING.match(line)
        ),
        None,
    )


def reference_number(line: str) -> str | None:
    """The number of a references list entry (`- [3] …`, `• [3] …`), None for another line."""
    match = _ENTRY.match(line)
    return match.group(1) if match else None


def _references(document: Document) -> frozenset[str]:
    start = references_start(document)
    if start is None:
        return frozenset()
    found = (reference_number(line) for line in document.lines[start:])
    return frozenset(n for n in found if n is not None)


def _figures(document: Document, key: str) -> tuple[FigureSpot, ...]:
    """The MDX `<Figure>`s; in rendered text, a paragraph of one line that opens with the
    caption of a figure the chapter's package registers (rendered text keeps only the
    caption of a figure)."""
    from proofs.book.registry import CHAPTERS

    registered = CHAPTERS[key].figures.values() if key else ()

    def drawn(caption: str) -> str:
        return next((f.name for f in registered if caption.startswith(f.caption)), "")

    if document.form == "MDX":
        return tuple(
            FigureSpot(f.line, f.end, f.caption, drawn(f.caption)) for f in document.figures
        )
    lines = document.lines
    out = []
    for i, line in enumerate(lines, 1):
        alone = (i == 1 or not lines[i - 2].strip()) and (i == len(lines) or not lines[i].strip())
        name = drawn(line.strip()) if alone and i not in document.code else ""
        if name:
            out.append(FigureSpot(i, i, line.strip(), name))
    return tuple(out)
