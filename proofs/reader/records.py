"""The records a chapter file is read into: plain data with 1-based line numbers.

A `Document` is the one reading of a chapter file that the audit, sync and the
claims all use; nothing else parses chapter text. Records never judge.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate

from proofs.reader.math import Place, statement_places

LABELS = {  # the chapters' element labels and the registry's kinds
    "定義": "definition",
    "命題": "proposition",
    "補題": "lemma",
    "定理": "theorem",
    "系": "corollary",
    "例": "example",
    "注意": "remark",
    "演習": "exercise",
}


ID_PREFIXES = {  # kind -> the prefix of its ids, as the book writes them (prop-softmax-jacobian)
    "definition": "def",
    "proposition": "prop",
    "lemma": "lem",
    "theorem": "thm",
    "corollary": "cor",
    "example": "ex",
    "remark": "rem",
    "exercise": "exr",
}

# the kinds whose formulas state mathematics in general; an example's or an exercise's
# formulas hold settings and computations of their own
THEORY_KINDS = ("definition", "proposition", "lemma", "theorem", "corollary", "remark")


_TAG = re.compile(r"<[^<>]*>")
_SHOWN_ATTRIBUTE = re.compile(r"""\b(?:caption|aria-label|alt|title)\s*=\s*(["'])(.*?)\1""")


def _shown(tag: re.Match[str]) -> str:
    """What the page shows of a tag: its caption and label values, or the citation."""
    if tag.group(0).startswith("<Ref"):
        return tag.group(0)
    return " ".join(m.group(2) for m in _SHOWN_ATTRIBUTE.finditer(tag.group(0))) or " "


class ChapterInputError(ValueError):
    """The file cannot be read as a chapter: the message names the file and the line."""


@dataclass(frozen=True)
class Heading:
    """A section heading: `## 3. softmax の性質` or the rendered `3. 層正規化の性質`."""

    line: int
    number: str  # "3", "4.1", "A" (an appendix)
    title: str


@dataclass(frozen=True)
class Element:
    """A numbered element: its heading or opening tag, statement and proof lines.

    `statement` and `proof` are inclusive (first, last) line ranges of the body
    (tags, headings and the proof's own heading excluded); `proof` is the proof
    or the exercise's solution, None when the element has none.
    """

    kind: str  # a value of LABELS
    number: str  # as printed or as the MDX section numbering gives it: "命題 3.2"
    id: str | None  # the MDX id; None in rendered text
    title: str
    line: int
    statement: tuple[int, int]
    proof: tuple[int, int] | None
    mark: str = ""  # ✓ or ↗ after a rendered heading; an exercise's difficulty


@dataclass(frozen=True)
class Math:
    """A `$…$` (inline) or `$$…$$` (display) formula outside code."""

    line: int  # the line of its first character
    tex: str
    display: bool


@dataclass(frozen=True)
class Table:
    """A table outside code: rows of stripped cells (the header first, the Markdown
    rule row dropped), the line of each row and, for each cell, the (start, end) of its
    text in that line."""

    line: int
    rows: tuple[tuple[str, ...], ...]
    row_lines: tuple[int, ...]
    spans: tuple[tuple[tuple[int, int], ...], ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Listing:
    """A code listing and the output it prints (lines as in the file)."""

    line: int  # the first code line (after an MDX fence)
    code: tuple[str, ...]
    output_line: int | None  # the first output line
    output: tuple[str, ...]


@dataclass(frozen=True)
class Figure:
    """A figure (MDX `<Figure caption=…>`): its lines and caption."""

    line: int
    end: int
    caption: str
    body: str


@dataclass(frozen=True)
class Comment:
    """An MDX comment `{/* … */}`: its first and last lines and its text between the
    markers, stripped. A page shows none of it; the reader blanks it in the lines it
    reads, so that no formula, number or tag of it is read as the chapter's."""

    line: int
    last: int
    text: str


@dataclass(frozen=True)
class Ref:
    """A reference: MDX `<Ref to="…"/>` or a rendered `命題 7.2［自己注意］` / `命題 3.1`.

    `target` is an MDX id or path, or a rendered element number; `chapter` names
    another chapter (the rendered ［…］ or an MDX path), "" for this chapter.
    """

    line: int
    target: str
    chapter: str = ""

    @property
    def external(self) -> bool:
        return bool(self.chapter)


@dataclass(frozen=True)
class Problem:
    """A defect of the file's structure that the reader read past: an element not closed
    by its own tag, a closing tag that closes nothing, a `$` without its pair. The audit
    reports each as a mismatch at its line, and sync does not call the file in sync."""

    line: int
    message: str
    kind: str = ""  # one of PROBLEM_KINDS: what the defect is, for the rule that reports it


# unclosed: an element or proof not closed by its own tag or mark; stray: a closing tag of
# nothing; orphan: a proof of no element; mislabelled: an id naming another kind than its
# tag; unpaired: a `$` or `$$` without its pair; numbering: an element out of sequence
PROBLEM_KINDS = ("unclosed", "stray", "orphan", "mislabelled", "unpaired", "numbering")


@dataclass(frozen=True)
class Document:
    path: str
    form: str  # "MDX" | "rendered text"
    title: str
    lines: tuple[str, ...]
    code: frozenset[int]  # 1-based lines inside listings (fences included)
    headings: tuple[Heading, ...]
    elements: tuple[Element, ...]
    math: tuple[Math, ...]
    tables: tuple[Table, ...]
    listings: tuple[Listing, ...]
    figures: tuple[Figure, ...]
    refs: tuple[Ref, ...]
    problems: tuple[Problem, ...] = ()  # in the order of their lines
    comments: tuple[Comment, ...] = ()  # MDX comments, blanked in `lines`

    def line(self, number: int) -> str:
        """The text of a 1-based line."""
        return self.lines[number - 1]

    # The indexes below are computed once per Document, on first use: each look-up then
    # takes a bisection or a dict access, not a pass over the chapter, so that reading a
    # chapter of n elements costs O(n log n), not O(n^2). They are not fields: a Document
    # compares and hashes as before.

    @cached_property
    def text_lines(self) -> tuple[tuple[int, str], ...]:
        """(number, text) of each line the chapter prints as text: every line outside its
        listings, and the listings' printed output (not their code)."""
        output = {
            line
            for listing in self.listings
            if listing.output_line
            for line in range(listing.output_line, listing.output_line + len(listing.output))
        }
        return tuple(
            (number, text)
            for number, text in enumerate(self.lines, 1)
            if number not in self.code or number in output
        )

    @cached_property
    def shown_lines(self) -> tuple[tuple[int, str], ...]:
        """`text_lines` as a page shows them: each tag replaced by the values of its
        caption and label attributes (a figure's size and geometry are not printed
        numbers); a citation `<Ref …/>`, which prints a link, kept."""
        return tuple((number, _TAG.sub(_shown, text)) for number, text in self.text_lines)

    @cached_property
    def _element_spans(self) -> tuple[list[int], list[int], list[Element]]:
        """The elements by first line (in document order where two share one), their first
        lines, and the running maximum of their last lines in that order."""
        ordered = sorted(self.elements, key=lambda e: e.line)
        ends = accumulate(((e.proof or e.statement)[1] for e in ordered), max)
        return [e.line for e in ordered], list(ends), ordered

    def element_at(self, line: int) -> Element | None:
        """The element whose span (heading to the end of its proof) holds the line; where
        spans overlap (a proof without its end mark runs on), the one that starts first."""
        starts, reach, ordered = self._element_spans
        started = bisect_right(starts, line)  # the elements starting on or before the line
        first = bisect_left(reach, line)  # the first whose span reaches the line
        return ordered[first] if first < started else None

    @cached_property
    def _elements_by_key(self) -> dict[str, Element]:
        keys: dict[str, Element] = {}
        for e in self.elements:
            for key in (e.id, e.number):
                if key is not None:
                    keys.setdefault(key, e)
        return keys

    def element(self, key: str) -> Element | None:
        """The element with this MDX id or number (命題 3.2): the first one with it."""
        return self._elements_by_key.get(key)

    @cached_property
    def _places(self) -> dict[tuple[int, str], Place]:
        first: dict[tuple[int, str], Place] = {}
        for place in statement_places(self.lines, self.math):
            first.setdefault((place.line, place.statement), place)
        return first

    def place(self, line: int, statement: str) -> Place | None:
        """Where a statement (stripped, as statement_lines gives it) first stands on the
        line as a statement of a formula; None when no formula there has it."""
        return self._places.get((line, statement))

    @cached_property
    def _math_lines(self) -> list[int]:
        return [m.line for m in self.math]

    def math_in(self, first: int, last: int) -> tuple[Math, ...]:
        """The formulas starting on lines first..last (`math` is in the order of the text)."""
        lines = self._math_lines
        return self.math[bisect_left(lines, first) : bisect_right(lines, last)]
