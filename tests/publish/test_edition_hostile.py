"""Hostile text in every place a chapter's text reaches the print edition: Hypothesis builds
strings from a grammar of what TeX would act on (\\directlua, \\input, ^^ caret notation,
\\csname, \\catcode, \\endinput, \\enddocument, \\write18, \\openout, braces that do not
pair, $ % # & ~ ^, control and format characters, environments, …) and puts them in the
title, a heading, an element's title, the prose, a formula inline and displayed, a table
cell, a caption, an aside's title, a list item, a link's text and address, a reference's
target, a listing and its output, a references entry, and a mark's message from a report.

Every example's LaTeX is read as TeX would read it (`read_as_tex`): no command but the
edition's own and the formulas' allow-list, no ^ nor ~ outside a listing, no comment, no
glyphless character, braces and environments that pair, no line LuaTeX could not read.
A few examples are compiled, as a book, with the restrictions the edition documents, in a
folder of their own beside a folder holding a canary file: the compile succeeds, the PDF
holds neither the canary's text nor that of a secret file in the output folder (which the
restrictions would let TeX read), the canary's folder is as it was and the output folder
holds only the files LaTeX writes."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from proofs.publish.edition.files import LUALATEX, RESTRICTIONS, Printed, book, standalone
from proofs.publish.edition.formulas import (
    COMMANDS,
    ENVIRONMENTS,
    LIMITED,
    NAMED_DELIMITERS,
    SIZES,
    SYMBOLS,
    TEXT_COMMANDS,
)
from proofs.publish.edition.marks import Mark
from proofs.publish.edition.parts import MAX_LINE, part_of
from proofs.publish.edition.preamble import preamble
from proofs.publish.edition.text import glyphless
from proofs.reader import parse
from proofs.typeset.shown import visible

OUTSIDE = "OUTSIDE"  # the canary's folder, an absolute path once a compile names it
FRAGMENTS = [
    r"\directlua{io.open('OUTSIDE/lua.txt','w'):write('x')}",
    r"\directlua{tex.print(io.lines('OUTSIDE/canary.txt')())}",
    r"\directlua{tex.print(io.lines('secret.txt')())}",
    r"\luaexec{os.exit(1)}",
    r"\latelua{os.remove('secret.txt')}",
    r"\input{OUTSIDE/canary.txt}",
    r"\input{secret.txt}",
    r"\input secret.txt ",
    r"\InputIfFileExists{secret.txt}{}{}",
    r"\@@input secret.txt ",
    r"\scantokens{\input secret.txt}",
    r"^^5cinput{secret.txt}",
    r"^^5cinput{OUTSIDE/canary.txt}",
    "^^5c^^5c",
    "^^^^005cinput{secret.txt}",
    "^^7b",
    "^^7d",
    "^^M",
    "^^25",
    "x^^2",
    r"\csname input\endcsname{secret.txt}",
    r"\begincsname directlua\endcsname{os.exit(1)}",
    r"\catcode`\^^5c=0",
    r"\catcode`\~=0",
    r"\endinput",
    r"\enddocument",
    r"\end{document}",
    r"\begin{document}",
    r"\immediate\write18{touch OUTSIDE/shell.txt}",
    r"\write18{touch OUTSIDE/shell.txt}",
    r"\ShellEscape{touch OUTSIDE/shell.txt}",
    r"\immediate\openout3=leaked.txt\immediate\write3{x}\immediate\closeout3",
    r"\openout5=OUTSIDE/out.txt",
    r"\ExplSyntaxOn\sys_shell_now:n{touch leaked.txt}\file_input:n{secret.txt}",
    r"\def\x{",
    r"\let\par\relax",
    r"\everypar{\input secret.txt}",
    r"\expandafter\noexpand",
    r"\makeatletter",
    r"\verb|x|",
    r"\begin{luacode}",
    r"\begin{verbatim}",
    r"\end{bookcode}",
    r"\end{bookelement}",
    r"\end{tabular}",
    r"\\",
    r"\par",
    "\\",
    *"{}$%#&_^~'`\"[]()<>|*!?-",
    "$$",
    "**",
    "--",
    "```",
    "x^2",
    r"x^{2}_i'",
    r"\frac{a}{b}",
    r"\sqrt[3]{x}",
    r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
    r"\left(",
    r"\right)",
    r"\alpha",
    r"\text{",
    r"\text{あ}",
    "https://example.com/a_b#c%20d",
    "[1]",
    '<Ref to="prop-a" />',
    "命題 1.1",
    "自己注意",
    "abc",
    " ",
    # glyphless and odd characters (those that end a line are tested by the reader's tests:
    # a chapter's line never holds one)
    *"\x00\x01\x07\x08\x0e\x1b\x1f\x7f\x80\x84\x9f\xad\u200b\u200e\u202e\u3000\ufeff\ue000",
    "\U000fffff",
    "\U0001f600",
    "\t",
]
_LINE_ENDS = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
assert not any(_LINE_ENDS.search(f) for f in FRAGMENTS)

hostile = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=6).map("".join)
SLOTS = (
    "title section element_title statement proof inline display cell head caption "
    "aside_title item link_text url ref code output reference lead message"
).split()

MDX = """\
# 章 {title}

> {lead}
> https://example.com/{url}

## 1. 節 {section}

本文 {statement}、式 ${inline}$
と [{link_text}](https://example.com/{url})
と **{item}** と `{code}`
と <Ref to="{ref}" /> と https://example.com/{url} 。

$$
d {display}
$$

<Definition id="def-b" title="固定">

定義。

</Definition>

<Proposition id="prop-a" title="{element_title}">

命題 {statement} ${inline}$。

</Proposition>

<Proof of="prop-a">

証明 {proof}

</Proof>

| {head} | 列 |
|---|---|
| {cell} | ${inline}$ |

<Figure caption="{caption}">
</Figure>

<Aside title="{aside_title}">

補足 {proof}

</Aside>

- {item}
1. 項 {item}

```python
x = "{code}"
```

```text
出力 {output}
```

## 参考文献

- [1] {reference}
"""

RENDERED = """\
章 {title}

1. 節 {section}

本文 {statement}、式 ${inline}$
と 命題 1.1［{ref}］と https://example.com/{url} 。

定義 1.1（固定）

定義。

命題 1.2（{element_title}）

命題 {statement} ${inline}$。

証明 {proof} ∎

表

{head}\t列
{cell}\t${inline}$

# Python 3.12
x = "{code}"

{output}

本文のおわり。
"""


def chapter_text(form: str, text: dict[str, str]) -> str:
    """A chapter of the form ("MDX" or "rendered text") with each slot's text in place."""
    template = MDX if form == "MDX" else RENDERED
    return template.format(**{slot: text[slot] for slot in SLOTS})


def printed(form: str, text: dict[str, str]) -> Printed:
    """The chapter as the edition prints it, each element marked failed with the slot
    `message` as its message (a report's, which the edition reads as it does a chapter)."""
    part = part_of(parse(chapter_text(form, text), f"hostile.{form[0]}"), 1)
    marks = {e.line: Mark("failed", ("symbolic",), text["message"]) for e in part.document.elements}
    return Printed(part, marks, {}, text["message"])


# Reading the LaTeX as TeX would -----------------------------------------------------------

EDITION_WORDS = frozenset(
    "chapter bookresults booksection booksubsection bookunnumbered texorpdfstring begin end "
    "booklabel bookcheck hyperref href url hyperlink hypertarget item setcounter textbf "
    "texttt textbackslash textasciitilde textasciicircum textsubscript textsuperscript "
    "ensuremath bookchar fitdisplay bookfigure bookplaceholder toprule midrule bottomrule "
    "linewidth raggedleft raggedright arraybackslash par protect sp left right middle "
    "tableofcontents include limits nolimits".split()
)
MATH_WORDS = SYMBOLS | LIMITED | set(COMMANDS) | set(TEXT_COMMANDS) | NAMED_DELIMITERS | SIZES
SYMBOL_COMMANDS = frozenset("\\{}%#&_$,;:! |[]")
ENVIRONMENT_NAMES = frozenset(
    "document bookelement bookproof booksolution bookaside booksummary booktable tabular "
    "tabularx adjustbox itemize enumerate bookreferences bookcode bookoutput".split()
) | set(ENVIRONMENTS)
VERBATIM = {r"\begin{bookcode}": r"\end{bookcode}", r"\begin{bookoutput}": r"\end{bookoutput}"}
_TEX = re.compile(r"\\([A-Za-z]+|.)|([{}$%^~])", re.S)
MAX_LINE_BYTES = 200_000  # what LuaTeX reads of a line (buf_size)


def read_as_tex(tex: str) -> None:
    """Assert that the LaTeX holds the chapter's text as data (the module's docstring)."""
    lines = tex.split("\n")
    header = list(itertools.takewhile(lambda line: line.startswith("%"), lines))
    # comment lines, each one line as a terminal shows it (TeX skips the rest of a line
    # after %, but not a line break in it)
    assert header and all(visible(line) == line for line in header), f"header {header}"
    opened = []
    if r"\begin{document}" in lines:  # the preamble, the edition's own, is not read
        first = lines.index(r"\begin{document}") + 1
        opened.append("document")
    else:
        first = len(header)
    depth, ending = 0, None
    for number, line in enumerate(lines[first:], first + 1):
        assert len(line.encode("utf-8")) < MAX_LINE_BYTES, f"line {number}: too long"
        if ending is not None:  # a line of a listing: the three commandchars of bookcode
            if line == ending:
                ending = None
                continue
            said = f"line {number} (listing): {line}"
            assert not any(glyphless(ch) for ch in line if ch != "\t"), f"glyphless, {said}"
            for word, special in _TEX.findall(line):
                assert special or word in ("textbackslash", "bookchar", "{", "}"), (
                    f"\\{word}, {said}"
                )
            opens = line.count("{") - line.count(r"\{")
            assert opens == line.count("}") - line.count(r"\}"), f"braces, {said}"
            continue
        said = f"line {number}: {line}"
        assert not any(glyphless(ch) for ch in line), f"glyphless, {said}"
        dollars = 0
        for word, special in _TEX.findall(line):
            if special in ("^", "~", "%"):
                raise AssertionError(f"a bare {special}, {said}")
            if special == "$":
                dollars += 1
            elif special:
                depth += 1 if special == "{" else -1
                assert depth >= 0, f"}} closes no group, {said}"
            elif len(word) > 1:
                assert word in EDITION_WORDS | MATH_WORDS, f"\\{word}, {said}"
            else:
                assert word in SYMBOL_COMMANDS, f"\\{word}, {said}"
        assert dollars % 2 == 0, f"$ without its pair, {said}"
        for kind, name in re.findall(r"\\(begin|end)\{([^{}]*)\}", line):
            assert name in ENVIRONMENT_NAMES, f"{{{name}}}, {said}"
            if kind == "begin":
                opened.append(name)
            else:
                assert opened and opened.pop() == name, f"\\end{{{name}}} unpaired, {said}"
        ending = VERBATIM.get(line)
        if ending is not None:
            opened.pop()  # its \end is read with the listing
    assert depth == 0 and opened == [] and ending is None, f"left open: {depth} {opened} {ending}"


texts = st.fixed_dictionaries({slot: hostile for slot in SLOTS})
forms = st.sampled_from(["MDX", "rendered text"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(forms, texts)
def test_hostile_text_in_every_place_stays_text_in_the_latex(form, text):
    chapter = printed(form, text)
    notes: list = []
    read_as_tex(standalone(chapter, notes=notes))
    for tex in book([chapter]).values():
        read_as_tex(tex)
    lines = len(chapter.part.document.lines)
    assert all(1 <= note.line <= lines for note in notes)


def test_the_reading_finds_a_command_a_caret_and_a_comment_that_slipped_through():
    body = "% header\n\\begin{document}\n{}\n\\end{document}"
    read_as_tex(body)
    for slipped in (r"\directlua{x}", "^^5c", "a % b", r"\begin{luacode}", "\x7f", "{"):
        with pytest.raises(AssertionError):
            read_as_tex(body.replace("{}", slipped))


# Compiled ---------------------------------------------------------------------------------

needs_tex = pytest.mark.skipif(
    shutil.which("lualatex") is None or shutil.which("pdftotext") is None,
    reason="lualatex or pdftotext is not installed (.ci/run installs both)",
)
EVERY_FRAGMENT = "".join(FRAGMENTS)
WRITTEN_BY_LATEX = {"book.aux", "book.log", "book.out", "book.pdf", "book.toc"} | {
    "01-chapter.aux",
    "02-chapter.aux",
}


def compile_book(texts: tuple[dict[str, str], dict[str, str]]) -> tuple[float, str]:
    """Write the book of two hostile chapters (an MDX one and a rendered one, each slot
    its text), compile it twice (the second run reads the .aux and .toc back) and check
    what it read and wrote; the seconds the compiles took, and the PDF's text."""
    with tempfile.TemporaryDirectory(prefix="hostile-") as folder:
        outside, out = Path(folder, "outside"), Path(folder, "out")
        outside.mkdir()
        out.mkdir()
        canary = f"CANARY-{os.getpid()}-{time.time_ns()}"
        secret = f"SECRET-{os.getpid()}-{time.time_ns()}"
        (outside / "canary.txt").write_text(canary, encoding="utf-8")
        (out / "secret.txt").write_text(secret, encoding="utf-8")
        chapters = [
            printed(
                form, {slot: value.replace(OUTSIDE, str(outside)) for slot, value in text.items()}
            )
            for form, text in zip(("MDX", "rendered text"), texts, strict=True)
        ]
        files = book(chapters)
        for name, tex in files.items():
            read_as_tex(tex)
            (out / name).write_text(tex, encoding="utf-8")
        start = time.perf_counter()
        for _ in range(2):
            run = subprocess.run(
                [*LUALATEX, "-interaction=nonstopmode", "-halt-on-error", "book.tex"],
                cwd=out,
                env={**os.environ, **RESTRICTIONS, "max_print_line": "100000"},  # unwrapped
                capture_output=True,
                text=True,
                timeout=600,
            )
            log = (out / "book.log").read_text(encoding="utf-8", errors="replace")
            errors = [line for line in log.splitlines() if line.startswith("! ")]
            assert run.returncode == 0 and errors == [], (errors, run.stdout[-3000:])
        seconds = time.perf_counter() - start
        pdf = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", "book.pdf", "-"],
            cwd=out,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert canary not in pdf and secret not in pdf
        assert sorted(p.name for p in outside.iterdir()) == ["canary.txt"]
        assert (outside / "canary.txt").read_text(encoding="utf-8") == canary
        written = {p.name for p in out.iterdir()} - set(files) - {"secret.txt"}
        assert written <= WRITTEN_BY_LATEX, written
        assert (out / "secret.txt").read_text(encoding="utf-8") == secret
        return seconds, pdf


EVERY_SLOT_EVERY_FRAGMENT = dict.fromkeys(SLOTS, EVERY_FRAGMENT)  # two to a line at most


@pytest.mark.slow
@needs_tex
@settings(
    max_examples=2,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # a shrink would compile hundreds of times
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@example((EVERY_SLOT_EVERY_FRAGMENT, EVERY_SLOT_EVERY_FRAGMENT))
@given(st.tuples(texts, texts))
def test_hostile_text_compiles_and_reads_and_writes_nothing_outside_the_output(texts):
    seconds, pdf = compile_book(texts)
    print(f"a book of two hostile chapters: two runs of lualatex in {seconds:.1f} s")
    if texts == (EVERY_SLOT_EVERY_FRAGMENT, EVERY_SLOT_EVERY_FRAGMENT):
        # the hostile text is there, as text (a text drawn at random need hold no
        # \directlua, nor print it where the PDF shows it whole)
        assert "directlua" in pdf


def compiled_text(folder: Path, body: str) -> str:
    """The PDF's text of a document of the edition's preamble and `body`, compiled once as
    the edition documents in `folder`."""
    (folder / "caret.tex").write_text(
        "\n".join([preamble(), r"\begin{document}", body, r"\end{document}", ""]),
        encoding="utf-8",
    )
    run = subprocess.run(
        [*LUALATEX, "-interaction=nonstopmode", "-halt-on-error", "caret.tex"],
        cwd=folder,
        env={**os.environ, **RESTRICTIONS},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    return subprocess.run(
        ["pdftotext", "-enc", "UTF-8", "caret.pdf", "-"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


@pytest.mark.slow
@needs_tex
def test_a_caret_that_slipped_into_the_body_is_no_caret_notation(tmp_path):
    """The preamble makes ^ an ordinary character in the body: ^^5c there is no backslash,
    and \\input does not read the file beside it; with ^ the superscript character again,
    the same line reads it (the reason for the catcode)."""
    secret = f"SECRET-{time.time_ns()}"
    (tmp_path / "secret.txt").write_text(secret, encoding="utf-8")
    line = "a ^^5cinput{secret.txt} b"
    text = compiled_text(tmp_path, line)
    assert secret not in text and "^^5cinput" in text
    assert secret in compiled_text(tmp_path, "\\catcode`\\^=7 " + line)


def longest(slot: str, unit: str, around: str = "") -> str:
    """The slot's text: `unit` repeated, between the halves of `around`, as often as the
    slot's longest line allows (MAX_LINE)."""
    marker = "\x00"
    chapter = chapter_text("MDX", {**dict.fromkeys(SLOTS, "x"), slot: marker})
    width = max(len(line) for line in chapter.splitlines() if marker in line) - len(marker)
    half = len(around) // 2
    count = (MAX_LINE - width - len(around)) // len(unit)
    return around[:half] + unit * count + around[half:]


@pytest.mark.parametrize(
    ("slot", "unit", "around"),
    [
        ("title", "\x7f", ""),  # on the page and in the bookmarks
        ("section", "\U000fffff", ""),
        ("title", "\\,", "$$"),  # a formula, each command protected
        ("title", "\\", "$$"),  # a formula refused: its text, twice
        ("cell", "\\", ""),
        ("code", "\\", ""),
        ("output", "\x7f", ""),
    ],
)
def test_the_longest_line_of_the_costliest_characters_stays_a_line_luatex_reads(slot, unit, around):
    text = longest(slot, unit, around)
    chapter = chapter_text("MDX", {**dict.fromkeys(SLOTS, "x"), slot: text})
    assert MAX_LINE - len(unit) < max(map(len, chapter.splitlines())) <= MAX_LINE
    read_as_tex(standalone(Printed(part_of(parse(chapter, "c.mdx"), 1), {}, {}, "test")))
