"""The print edition's formulas: a formula reaches the LaTeX only through the allow-list of
proofs.publish.edition.formulas, read as TeX will read it, and every formula of the
chapters passes it as written (a superscript's ^ aside, written \\sp). The compiling test
sets every command, delimiter and environment of the allow-list in each place a formula
goes (running text, a display, a table cell, a heading LaTeX writes to the .toc and reads
back) and compiles it with LuaLaTeX under the edition's restrictions: an allowed command
that did not compile would make the edition write a file that does not."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from places import CORPUS, SAMPLES, SEEDS

from proofs.publish.edition.files import LUALATEX, RESTRICTIONS, Printed, standalone
from proofs.publish.edition.formulas import (
    COMMANDS,
    DELIMITERS,
    ENVIRONMENTS,
    LIMITED,
    NAMED_DELIMITERS,
    ONE_CHARACTER,
    SIZES,
    SYMBOLS,
    Unsettable,
    formula_tex,
)
from proofs.publish.edition.parts import part_of
from proofs.publish.edition.preamble import preamble
from proofs.reader import read_chapter

CHAPTERS = [
    SEEDS / "000_ce182fefa314a82b.txt",
    SEEDS / "002_1f7cf506cffefce0.txt",
    SAMPLES / "chapter.mdx",
    SAMPLES / "chapter.txt",
    CORPUS / "inference.mdx",
    CORPUS / "training.txt",
]
needs_tex = pytest.mark.skipif(
    shutil.which("lualatex") is None, reason="lualatex is not installed (.ci/run installs it)"
)


def chapter(path: Path):
    if not path.is_file():
        pytest.skip(f"{path} is not here")
    return read_chapter(path)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_every_formula_of_the_chapters_is_set_as_written(path):
    for formula in chapter(path).math:
        assert formula_tex(formula.tex) == formula.tex.replace("^", r"\sp "), formula


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_the_chapters_print_with_nothing_said_of_a_line(path):
    notes: list = []
    standalone(Printed(part_of(chapter(path), 1), {}, {}, "test"), notes=notes)
    assert notes == []


@pytest.mark.parametrize(
    ("formula", "why"),
    [
        (r'\directlua{io.open("/tmp/x","w"):write("x")}', r"\directlua is not a command"),
        (r"x^^5cinput{/etc/hostname}", "^^, TeX's caret notation for a character"),
        (r"^^5c^^5c", "^^, TeX's caret notation for a character"),
        (r"x^^^^005c", "^^, TeX's caret notation for a character"),
        (r"\InputIfFileExists{/etc/hostname}{}{}", r"\InputIfFileExists is not a command"),
        (r"a \enddocument", r"\enddocument is not a command"),
        (r"a \endinput", r"\endinput is not a command"),
        (r"\begincsname directlua\endcsname", r"\begincsname is not a command"),
        (r"\csname directlua\endcsname", r"\csname is not a command"),
        (r"\catcode`\^=0", r"\catcode is not a command"),
        (r"\luaexec{x}", r"\luaexec is not a command"),
        (r"\immediate\write18{touch x}", r"\immediate is not a command"),
        (r"\text{\directlua{x}}", r"\directlua is not a command of the edition's text"),
        ("a \x7f b", "the character U+007F"),
        ("a \x00 b", "the character U+0000"),
        ("a ~ b", "the character ~ (U+007E)"),
        ("a \\\x01", "'\\\\\\x01' is not a command"),
        (r"\alpha\\", r"\\ outside the rows of an alignment"),
        (r"x \\ y", r"\\ outside the rows of an alignment"),
        (r"\begin{document}", r"\begin{document} is not an environment"),
        (r"\begin{pmatrix*} a \end{pmatrix*}", r"\begin{pmatrix*…} is not one of"),
        (r"\begin{cases} a & b & c \end{cases}", "more than 2 columns in {cases}"),
        (r"\begin{pmatrix} {a & b} \end{pmatrix}", "& inside a group of an alignment's cell"),
        (r"\begin{array}{c@{}c} a \end{array}", r"\begin{array}{c@{…} is not one of"),
        (r"x^a^b", "a double superscript"),
        (r"x_a_b", "a double subscript"),
        (r"x^2'", "a prime after a superscript"),
        (r"x' ^2", "a double superscript"),
        (r"\frac{a}", r"\frac without its argument"),
        (r"\frac{a}\mathrm{b}", r"\frac without its argument"),
        (r"x_\bmod", "_ without its argument"),
        (r"x^\sum", "^ without its argument"),
        (r"\hat\sin", r"\hat without its argument"),
        (r"x^", "^ without its argument"),
        (r"x^'", "^ without its argument"),
        (r"\left( x", r"\left without its \right"),
        (r"x \right)", r"\right without its \left"),
        (r"\big x", r"\big without its delimiter"),
        (r"\sqrt[\sqrt[3]{x}]{y}", r"\sqrt[..] inside an optional argument [..]"),
        (r"\sqrt[\left[ x \right]]{y}", "[ inside an optional argument [..]"),
        (r"x\limits", r"\limits after no operator"),
        (r"\text{a^b}", r"the character ^ (U+005E) in \text{…}"),
        ("{" * 31 + "}" * 31, "groups nested deeper than 30"),
        ("a } b", "} closes no group"),
        ("a { b", "{ is not closed"),
        (r"a $ b", "$ inside a formula"),
    ],
)
def test_a_formula_outside_the_allow_list_is_refused_saying_why(formula, why):
    with pytest.raises(Unsettable) as refused:
        formula_tex(formula)
    assert why in str(refused.value)


@pytest.mark.parametrize(
    ("formula", "tex"),
    [
        (r"x^2", r"x\sp 2"),
        (r"H'^{(a)}", r"H'\sp {(a)}"),
        (r"\mathrm{GELU}''(t)", r"\mathrm{GELU}''(t)"),
        (r"23.5% \# a & b", r"23.5\% \# a \& b"),
        (
            r"\begin{pmatrix} a & b \\ [c] & d \end{pmatrix}",
            r"\begin{pmatrix} a & b \\ {}[c] & d \end{pmatrix}",
        ),
        (r"\alphaあ", r"\alpha あ"),
        ("a\n\n  b", "a\nb"),
    ],
)
def test_a_formula_is_written_as_the_chapter_writes_it_but_for_what_tex_reads_otherwise(
    formula, tex
):
    assert formula_tex(formula) == tex


def test_a_heading_protects_every_command_and_braces_its_one_token_arguments():
    assert formula_tex(r"\frac1\sigma + \underbrace{x}_{y} \left\langle a \right|", True) == (
        r"\protect\frac {1}{\protect\sigma } + \protect\underbrace {x}_{y} "
        r"\protect\left \langle a \protect\right |"
    )


# Every command of the allow-list, compiled ---------------------------------------------


def every_allowed_formula() -> list[str]:
    """Formulas that use, between them, every command, delimiter, size and environment of
    the allow-list, each in a use TeX accepts."""
    arguments = {"m": "{x}", "t": "{あ x}", "o": "[3]"}
    formulas = [" ".join(f"\\{name}" for name in sorted(SYMBOLS - LIMITED))]
    formulas += [f"x^\\{name}_\\{name} \\hat\\{name}" for name in sorted(ONE_CHARACTER)]
    formulas += [f"\\{name}\\limits_{{i}}^{{n}} x" for name in sorted(LIMITED)]
    formulas.append(r"\sum\nolimits_{i} x")
    formulas += [
        f"\\{name}" + "".join(arguments[kind] for kind in kinds)
        for name, kinds in sorted(COMMANDS.items())
    ]
    delimiters = sorted(DELIMITERS) + [r"\{", r"\}", r"\|"] + [f"\\{d}" for d in NAMED_DELIMITERS]
    formulas += [r"\left" + d + r" x \middle" + d + r" y \right" + d for d in delimiters]
    formulas += [" ".join(f"\\{size}(" for size in sorted(SIZES))]
    for name, columns in sorted(ENVIRONMENTS.items()):
        opening = r"\begin{array}{lcr}" if name == "array" else f"\\begin{{{name}}}"
        row = " & ".join("a_{1}" for _ in range(columns or 3))
        formulas.append(f"{opening} {row} \\\\ {row} \\end{{{name}}}")
    return formulas


def test_the_formulas_of_the_compiling_test_use_every_command_of_the_allow_list():
    used = set(re.findall(r"\\([A-Za-z]+)", " ".join(every_allowed_formula())))
    allowed = SYMBOLS | set(COMMANDS) | NAMED_DELIMITERS | SIZES | {"left", "right", "middle"}
    assert allowed | {"begin", "end", "limits", "nolimits"} == used
    for formula in every_allowed_formula():
        formula_tex(formula)  # each passes


@pytest.mark.slow
@needs_tex
def test_every_command_of_the_allow_list_compiles_in_every_place_a_formula_goes(tmp_path):
    formulas = every_allowed_formula()
    body = [r"\tableofcontents"]
    for start in range(0, len(formulas), 10):  # ten to a heading: the test takes half as long
        chunk = formulas[start : start + 10]
        title = " ".join(f"${formula_tex(f, True)}$" for f in chunk)
        body += [
            f"\\section{{\\texorpdfstring{{{title}}}{{x}}}}",
            " text ".join(f"${formula_tex(f)}$" for f in chunk),
            *(f"\\[\\fitdisplay{{{formula_tex(f)}}}\\]" for f in chunk),
            r"\begin{tabular}{l}",
            *(f"${formula_tex(f)}$ \\\\" for f in chunk),
            r"\end{tabular}",
        ]
    document = "\n".join([preamble(), r"\begin{document}", *body, r"\end{document}", ""])
    (tmp_path / "every.tex").write_text(document, encoding="utf-8")
    for _ in range(2):  # the second run reads the headings back from the .toc and .aux
        run = subprocess.run(
            [*LUALATEX, "-interaction=nonstopmode", "-halt-on-error", "every.tex"],
            cwd=tmp_path,
            env={**os.environ, **RESTRICTIONS, "max_print_line": "100000"},  # unwrapped
            capture_output=True,
            text=True,
            timeout=600,
        )
        log = (tmp_path / "every.log").read_text(encoding="utf-8", errors="replace")
        errors = [line for line in log.splitlines() if line.startswith("! ")]
        assert run.returncode == 0 and errors == [], (errors, run.stdout[-2000:])
