"""A chapter's Document as the body of its LaTeX chapter, read line by line.

The records say what each line is (proofs.reader): the title, the numbered headings, the
elements with their statements and proofs, the tables, the listings with their outputs,
the figures. What the records leave is running text, cut into paragraphs at blank lines;
in a paragraph, a line opening with a list marker (-, •, 1.) starts an item and a `$$`
display stays in the flow (the blank lines around a display cut no paragraph: the text
after it goes on, unindented, as a printed book sets it). The tags and marks of either
form (`</Proposition>`, ∎, 証明（命題 3.3）, 解答) make no text of their own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from proofs.publish.edition.links import Links, label, reference_label
from proofs.publish.edition.marks import Mark
from proofs.publish.edition.parts import FigureSpot, Part, reference_number, references_start
from proofs.publish.edition.tables import table_tex
from proofs.publish.edition.text import (
    Notice,
    code_point,
    display_math,
    escape,
    glyphless,
    inline,
)
from proofs.reader import mdx, rendered
from proofs.reader.records import Element, Listing
from proofs.typeset.shown import shortened, visible

# a list item; its number fits LaTeX's counters (below 2^31)
_ITEM = re.compile(r"^\s*(?:(?P<bullet>[-*•])|(?P<number>\d{1,9})\.)\s+")
_ASIDE = re.compile(r"^<Aside\b([^>]*)>\s*$")
_HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*$")
PROOF, SOLUTION = "証明", "解答"
ASIDE = "補足"  # the title of an <Aside> that has none
MAX_MESSAGE = 1000  # characters of a mark's message printed (a report's may be any length)


@dataclass(frozen=True)
class Note:
    """What the edition tells of a line of a chapter it does not print as written."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


_VERBATIM = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}"}


def verbatim(line: str) -> str:
    """A line of a listing as bookcode and bookoutput take it: every character as it is
    but the three their commandchars make commands, so that no line of the chapter's
    code (not even one holding \\end{bookcode}) can end the listing early, and the
    glyphless ones, shown by their code points (TeX would read U+007F as an error, U+000C
    as the end of a paragraph).

    >>> verbatim(r'print("\\end{bookcode}")  # 注釈')
    'print("\\\\textbackslash{}end\\\\{bookcode\\\\}")  # 注釈'
    """
    return "".join(_VERBATIM.get(ch) or (code_point(ch) if glyphless(ch) else ch) for ch in line)


def mark_tex(mark: Mark) -> str:
    """The line under an element's heading: its result, then the check's methods, or the
    message of a finding, a failure or a stub."""
    methods = ", ".join(mark.methods)
    detail = {"passed": methods, "not run": methods, "no check": ""}.get(mark.result, mark.message)
    detail = " ".join(detail.split())
    if len(detail) > MAX_MESSAGE:
        detail = detail[: MAX_MESSAGE - 1] + "…"
    key = mark.result.replace(" ", "-")
    return f"\\bookcheck{{{key}}}{{{mark.result}}}{{{escape(detail)}}}"


def element_heading(element: Element, title: str) -> str:
    """命題 3.2（title）, an exercise's difficulty in ［］ after its number; `title` is the
    element's title in LaTeX."""
    heading = escape(element.number)
    if element.kind == "exercise" and element.mark:
        heading += escape(f"［{element.mark}］")
    return heading + (f"（{title}）" if title else "")


class _Walk:
    """One pass over a chapter's lines, writing its LaTeX to `out`."""

    def __init__(
        self,
        part: Part,
        links: Links,
        marks: Mapping[int, Mark],
        pictures: Mapping[str, str],
        line: float,
        lead: str,
        notes: list[Note],
    ) -> None:
        self.part = part
        self.notes = notes
        self.links = links
        self.marks = marks
        self.pictures = pictures
        self.line = line  # the length of the page's line, in em
        self.lead = lead
        self.current = 0  # the line the walk is at
        self.document = part.document
        self.form = self.document.form
        self.out: list[str] = []
        # ("line", text, its line) or ("display", TeX, its first line)
        self.paragraph: list[tuple[str, str, int]] = []
        self.quote: list[tuple[str, int]] = []
        self.references = references_start(self.document)
        self.before: dict[int, list[tuple[str, str]]] = {}  # (environment, its \\begin)
        self.after: dict[int, list[str]] = {}  # the environments that end there
        self.opened: list[str] = []  # the environments open across lines, innermost last
        self.elements = {e.line: e for e in self.document.elements}
        for element in self.document.elements:
            self._bracket(element)
        self.headings = {h.line: h for h in self.document.headings}
        self.tables = {t.line: t for t in self.document.tables}
        self.figures = {f.line: f for f in part.figures}
        self.listings = {self._anchor(listing): listing for listing in self.document.listings}

    def _bracket(self, element: Element) -> None:
        """The environments an element opens and closes, at the lines of its statement
        and its proof or solution."""
        last = element.statement[1]
        self.after.setdefault(max(last, element.line), []).append("bookelement")
        if element.proof is None:
            return
        start, end = element.proof
        solution = element.kind == "exercise"
        name = SOLUTION if solution else PROOF
        between = range(max(last, element.line) + 1, start)
        if any(self._content(i) for i in between):  # the proof stands apart: name its element
            name += f"（{element.number}）"
        environment = "booksolution" if solution else "bookproof"
        opening = f"\\begin{{{environment}}}{{{escape(name)}}}"
        self.before.setdefault(start, []).append((environment, opening))
        self.after.setdefault(max(start, end), []).append(environment)

    def _anchor(self, listing: Listing) -> int:
        """The first line a listing takes: its opening fence or its `# Python` line."""
        return listing.line - 1 if listing.line - 1 in self.document.code else listing.line

    def _structural(self, number: int) -> bool:
        """A tag or a mark of the form that makes no text: an element's opening or closing
        tag or heading, a proof's, a solution's, ∎."""
        text = self.document.line(number).strip()
        if number in self.elements:
            return True
        if self.form == "MDX":
            return bool(mdx.BOUNDARY.match(text))
        return bool(rendered.PROOF.match(text)) or text in ("∎", rendered.SOLUTION)

    def _content(self, number: int) -> bool:
        return bool(self.document.line(number).strip()) and not self._structural(number)

    # Running text ------------------------------------------------------------------------

    def inline(self, text: str, line: int, moving: bool = False) -> str:
        """Running text of the line in LaTeX; `moving`, a heading's."""
        return inline(text, self.links, self.form, self.notice(line), moving)

    def heading(self, text: str, line: int) -> str:
        """A heading's text as \\chapter and \\section take it: what LaTeX writes to the
        .aux and .toc files too, and, for the PDF's bookmarks, the text alone (hyperref
        cannot read a formula or a link into one)."""
        title = self.inline(text, line, moving=True)
        plain = escape(text.replace("$", ""))
        return title if title == plain else f"\\texorpdfstring{{{title}}}{{{plain}}}"

    def notice(self, line: int) -> Notice:
        def printed_as_text(piece: str, why: str) -> None:
            said = f"{shortened(visible(piece))} is printed as text: {why}"
            self.notes.append(Note(self.document.path, line, said))

        return printed_as_text

    def display(self, tex: str, line: int) -> str:
        return display_math(tex, self.notice(line))

    def flush(self) -> None:
        """Write the paragraph and the quotation gathered so far."""
        if self.quote:
            lines = "\\par\n".join(self.inline(q, number) for q, number in self.quote)
            self.out.append(f"\\begin{{booksummary}}\n{lines}\n\\end{{booksummary}}")
            self.quote = []
        if not self.paragraph:
            return
        entries, self.paragraph = self.paragraph, []
        opening: list[tuple[str, str, int]] = []
        items: list[tuple[str, list[tuple[str, str, int]]]] = []  # (marker, its lines)
        for kind, text, number in entries:
            item = _ITEM.match(text) if kind == "line" else None
            if item is not None:
                items.append((item.group("number") or "", [(kind, text[item.end() :], number)]))
            elif items:
                items[-1][1].append((kind, text, number))
            else:
                opening.append((kind, text, number))
        if opening:
            self.out.append(self._flow(opening))
        if items:
            self.out.append(self._list(items))

    def _flow(self, entries: list[tuple[str, str, int]]) -> str:
        return "\n".join(
            self.inline(text, number) if kind == "line" else self.display(text, number)
            for kind, text, number in entries
        )

    def _list(self, items: list[tuple[str, list[tuple[str, str, int]]]]) -> str:
        """Items, each kind of marker in its list (numbers kept as the chapter prints them);
        in the references, each entry [n] an anchor its citations link to."""
        out, open_kind = [], ""
        for number, entries in items:
            kind = "enumerate" if number else "itemize"
            first, line = entries[0][1], entries[0][2]
            entry = reference_number(first) if self._in_references() else None
            if entry is not None:
                kind = "bookreferences"
                text = first[first.index("]") + 1 :].lstrip()
                entries = [("line", text, line), *entries[1:]]
            if kind != open_kind:
                if open_kind:
                    out.append(f"\\end{{{open_kind}}}")
                out.append(f"\\begin{{{kind}}}")
                open_kind = kind
            if entry is not None:
                anchor = reference_label(self.part, entry)
                out.append(
                    f"\\item[{{[{entry}]}}]\\hypertarget{{{anchor}}}{{}}{self._flow(entries)}"
                )
            elif number:  # the chapter's own number: an item of the chapter may be cited by it
                counter = int(number) - 1
                out.append(f"\\setcounter{{enumi}}{{{counter}}}\\item{{}}{self._flow(entries)}")
            else:
                out.append(f"\\item{{}}{self._flow(entries)}")
        out.append(f"\\end{{{open_kind}}}")
        return "\n".join(out)

    def _in_references(self) -> bool:
        return self.references is not None and self.current > self.references

    # Blocks ---------------------------------------------------------------------------------

    def _heading(self, number: int) -> str:
        heading = self.headings[number]
        command = "booksubsection" if "." in heading.number else "booksection"
        return f"\\{command}{{{escape(heading.number)}}}{{{self.heading(heading.title, number)}}}"

    def _element(self, element: Element) -> str:
        kind = element.kind
        parts = [
            f"\\begin{{bookelement}}{{{kind}}}"
            f"{{{element_heading(element, self.inline(element.title, element.line))}}}",
            f"\\booklabel{{{label(self.part, element)}}}{{{escape(element.number.split()[-1])}}}"
            + mark_tex(self.marks.get(element.line, Mark("no check"))),
        ]
        return "\n".join(parts)

    def _listing(self, listing: Listing) -> str:
        code = list(listing.code)
        while code and not code[-1].strip():
            code.pop()
        out = []
        if code:
            out += [r"\begin{bookcode}", *map(verbatim, code), r"\end{bookcode}"]
        if listing.output:
            out += [r"\begin{bookoutput}", *map(verbatim, listing.output), r"\end{bookoutput}"]
        return "\n".join(out)

    def _figure(self, figure: FigureSpot) -> str:
        caption = "図　" + self.inline(figure.caption, figure.line)
        path = self.pictures.get(figure.name) if figure.name else None
        if path is None:
            return f"\\bookplaceholder{{{caption}}}"
        return f"\\bookfigure{{{path}}}{{{caption}}}"

    def _display(self, number: int) -> int | None:
        """The last line of a `$$` display starting at the line, its TeX gathered into the
        paragraph; None when the line opens no display that closes in its paragraph."""
        lines = self.document.lines
        text = lines[number - 1].strip()
        if text != "$$":
            if len(text) > 4 and text.endswith("$$") and text.count("$$") == 2:
                self.paragraph.append(("display", text[2:-2], number))
                return number
            return None
        for end in range(number + 1, len(lines) + 1):
            closing = lines[end - 1].strip()
            if not closing:
                return None
            if closing.endswith("$$"):
                tex = "\n".join([*lines[number : end - 1], closing[:-2]])
                self.paragraph.append(("display", tex, number))
                return end
        return None

    def _display_around(self, blank: int) -> bool:
        """Whether a blank line only sets a display apart from the text around it: a display
        and the text before and after it are one paragraph, the text after it no new one."""
        if not self.paragraph:
            return False
        if self.paragraph[-1][0] == "display":
            return True
        following = next((line.strip() for line in self.document.lines[blank:] if line.strip()), "")
        return following.startswith("$$")

    # The walk ------------------------------------------------------------------------------

    def walk(self) -> str:
        lines = self.document.lines
        title = next((i for i, line in enumerate(lines, 1) if line.strip()), 1)
        skip_to = 0
        for number in range(1, len(lines) + 1):
            self.current = number
            if number in self.before:
                self.flush()
                for environment, opening in self.before[number]:
                    self.out.append(opening)
                    self.opened.append(environment)
            if number > skip_to:
                skip_to = self._line(number, title)
            if number in self.after:  # in the paragraph it ends: ■ at the end of its line
                self.flush()
                for environment in self.after[number]:
                    self.close(environment)
        self.flush()
        while self.opened:
            self.close(self.opened[-1])
        return "\n\n".join(self.out) + "\n"

    def close(self, environment: str) -> None:
        """End an open environment, and first those opened inside it and left open (an
        <Aside> whose closing tag is missing, or comes after its element's end): the
        environments of the LaTeX nest, whatever the chapter's tags do."""
        if environment not in self.opened:
            return
        while self.opened:
            inner = self.opened.pop()
            self.out[-1:] = ["\n".join([*self.out[-1:], f"\\end{{{inner}}}"])]
            if inner == environment:
                return

    def _line(self, number: int, title: int) -> int:
        """Write what the line starts; the last line it takes (itself, or the end of its
        block)."""
        text = self.document.line(number)
        stripped = text.strip()
        block: str | None = None
        last = number
        if number == title:
            block = f"\\chapter{{{self.heading(self.document.title, number)}}}\n{self.lead}"
        elif number in self.elements:
            block = self._element(self.elements[number])
            self.opened.append("bookelement")
        elif number in self.headings:
            block = self._heading(number)
        elif number in self.listings:
            block = self._listing(self.listings[number])
        elif number in self.document.code:
            return number
        elif number in self.tables:
            table = self.tables[number]
            rows = table.row_lines
            block = table_tex(table.rows, lambda text, row: self.inline(text, rows[row]), self.line)
            last = table.row_lines[-1]
        elif number in self.figures:
            block = self._figure(self.figures[number])
            last = self.figures[number].end
        elif not stripped and self._display_around(number):
            return number
        elif self._structural(number) or not stripped:
            self.flush()
            return number
        elif self.form == "MDX" and (aside := _ASIDE.match(stripped)) is not None:
            named = dict(mdx.ATTRIBUTE.findall(aside.group(1))).get("title") or ASIDE
            block = f"\\begin{{bookaside}}{{{self.inline(named, number)}}}"
            self.opened.append("bookaside")
        elif self.form == "MDX" and stripped == "</Aside>":
            self.flush()
            if self.opened[-1:] == ["bookaside"]:
                self.close("bookaside")
            return number
        elif number == self.references:
            block = f"\\bookunnumbered{{{self.heading(stripped.lstrip('#').strip(), number)}}}"
        elif self.form == "MDX" and (heading := _HEADING.match(stripped)) is not None:
            block = f"\\bookunnumbered{{{self.heading(heading.group('title'), number)}}}"
        elif self.form == "MDX" and stripped.startswith(">"):
            if self.paragraph:
                self.flush()
            self.quote.append((stripped.lstrip(">").strip(), number))
            return number
        else:
            if self.quote:
                self.flush()
            end = self._display(number) if stripped.startswith("$$") else None
            if end is None:
                self.paragraph.append(("line", text, number))
                return number
            return end
        self.flush()
        self.out.append(block)
        return last


def chapter_body(
    part: Part,
    links: Links,
    marks: Mapping[int, Mark],
    pictures: Mapping[str, str],
    line: float,
    lead: str = "",
    notes: list[Note] | None = None,
) -> str:
    """The LaTeX of a chapter, from its \\chapter to its references, on a line of `line` em;
    `marks` by the line of each element's heading, `pictures` the PDF file of each figure
    drawn (by name), `lead` what follows the \\chapter (the results' tally). Each line it
    does not print as written gets a Note in `notes`."""
    found = []
    for number, text in enumerate(part.document.lines, 1):
        shown = sorted({f"U+{ord(ch):04X}" for ch in text if glyphless(ch)})
        if shown:
            said = f"{', '.join(shown)}: no glyph, printed as code point"
            found.append(Note(part.document.path, number, said))
    body = _Walk(part, links, marks, pictures, line, lead, found).walk()
    if notes is not None:
        notes += sorted(found, key=lambda note: note.line)
    return body
