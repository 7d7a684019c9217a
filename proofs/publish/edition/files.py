"""The files of the print edition: a chapter as a document that compiles as it is, or a
book, whose main file holds the one preamble and the table of contents and \\includes a
file per chapter. Each opens with what it is and how to build it
(proofs.typeset.latex.header): with LuaTeX's restrictions (LUALATEX, RESTRICTIONS), since
the text in it is a chapter's, which the package did not write."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from proofs.publish.edition.blocks import Note, chapter_body
from proofs.publish.edition.links import Links
from proofs.publish.edition.marks import Mark, tally
from proofs.publish.edition.parts import Part
from proofs.publish.edition.preamble import line_em, preamble
from proofs.publish.edition.text import escape
from proofs.typeset.latex import header
from proofs.typeset.shown import shortened, visible

# The compile every file of the edition states and every test runs (docs/print-edition.md
# says why): no Lua socket library, no shell command (not even texmf.cnf's list), and
# kpathsea's paranoid file access, by which TeX opens for reading or writing no absolute
# path, no .. and no dot file. LuaTeX's --safer would take Lua's io.open, os.rename, lfs
# .mkdir besides, but luaotfload refuses to run under it, and luatexja needs luaotfload.
LUALATEX = ("lualatex", "--nosocket", "--no-shell-escape")
RESTRICTIONS = {"openin_any": "p", "openout_any": "p"}
BUILD = (
    "% Build: "
    + " ".join(f"{name}={value}" for name, value in RESTRICTIONS.items())
    + f" {' '.join(LUALATEX)} FILE, twice (for the references)\n"
)
MAIN = "book"  # the book's main file: book.tex


@dataclass(frozen=True)
class Printed:
    """A chapter to print: its part, each element's mark (by its heading's line), the PDF
    file of each figure drawn (by name) and where the marks come from."""

    part: Part
    marks: Mapping[int, Mark]
    pictures: Mapping[str, str]
    source: str  # how the results were had: "checks run here", "report.json"


def _named(title: str) -> str:
    """A chapter's title as a comment line of a file names it: one line, cut short."""
    return shortened(visible(title))


def results_line(printed: Printed) -> str:
    """The line under the chapter's title: how many elements have each result, and where
    the results come from."""
    if not printed.part.key:
        return r"\bookresults{" + escape("検証：この章の検査は登録されていない（no check）") + "}"
    counts = "、".join(f"{result} {n}" for result, n in tally(printed.marks).items())
    return r"\bookresults{" + escape(f"検証（{printed.source}）：{counts}") + "}"


def chapter_tex(
    printed: Printed, parts: Sequence[Part], paper: str, notes: list[Note] | None = None
) -> str:
    """A chapter's body (\\chapter … its references); `parts` are the chapters printed with
    it, which its citations may lead to; what it does not print as written, in `notes`."""
    links = Links(printed.part, parts)
    return chapter_body(
        printed.part,
        links,
        printed.marks,
        printed.pictures,
        line_em(paper),
        results_line(printed),
        notes,
    )


def standalone(printed: Printed, paper: str = "a4", notes: list[Note] | None = None) -> str:
    """A chapter as a document that compiles as it is (LuaLaTeX); what it does not print
    as written, in `notes`."""
    body = chapter_tex(printed, [printed.part], paper, notes)
    text = "\n".join([preamble(paper), r"\begin{document}", body, r"\end{document}"]) + "\n"
    what = f"the print edition of the chapter {_named(printed.part.document.title)}"
    return header(text, what) + BUILD + text


def figure_file_name(stem: str, name: str) -> str:
    """The PDF of a figure beside the chapter's file `stem`.tex (or in a book's folder, with
    no stem): STEM-NAME.pdf, every character of the stem but letters, digits, _ . and -
    written -, so that \\includegraphics reads the name as it is.

    >>> figure_file_name("第 1 章 100%", "residual-paths")
    '第-1-章-100--residual-paths.pdf'
    """
    kept = re.sub(r"[^\w.-]", "-", stem)
    return f"{kept}-{name}.pdf" if kept else f"{name}.pdf"


def chapter_file_name(part: Part, index: int) -> str:
    """The name (without .tex) of a chapter's file in a book: 01-self-attention, or
    01-chapter for a chapter without a key; \\include takes no spaces nor specials."""
    return f"{index:02d}-{part.key or 'chapter'}"


def book(
    printed: Sequence[Printed], paper: str = "a4", notes: list[Note] | None = None
) -> dict[str, str]:
    """The files of a book of the chapters, by name: the main file (book.tex) and one file
    per chapter, which the main file \\includes in order; what they do not print as
    written, in `notes`."""
    parts = [p.part for p in printed]
    names = [chapter_file_name(p.part, k) for k, p in enumerate(printed, 1)]
    files: dict[str, str] = {}
    for name, chapter in zip(names, printed, strict=True):
        body = chapter_tex(chapter, parts, paper, notes)
        what = f"chapter {_named(chapter.part.document.title)}, \\include'd by {MAIN}.tex"
        files[f"{name}.tex"] = header(body, what) + body
    main = (
        "\n".join(
            [
                preamble(paper),
                r"\begin{document}",
                r"\tableofcontents",
                *(f"\\include{{{name}}}" for name in names),
                r"\end{document}",
            ]
        )
        + "\n"
    )
    titles = "; ".join(_named(p.document.title) for p in parts)
    what = f"the print edition of {len(parts)} chapters ({titles})"
    files[f"{MAIN}.tex"] = header(main, what) + BUILD.replace("FILE", f"{MAIN}.tex") + main
    return files
