"""The LaTeX files `python -m proofs latex` writes, each opening with what it needs.

- `equations`: every formula as a numbered equation labelled eq:NAME, to \\input in a
  document that loads the packages its first lines name;
- `macros`: a package with one macro per formula (\\SoftmaxJacobian, …), to \\usepackage;
- `standalone`: a document of formulas and tables that compiles as it is.

The formulas come as (Formula, TeX) pairs, printed by symbolic.printing; the tables
render themselves (Table.to_latex), so every file sets the same TeX.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from proofs.typeset.latex import header, packages, tex_cell

if TYPE_CHECKING:  # the command line imports this module before NumPy and SymPy
    from proofs.book.formulas import Formula
    from proofs.typeset.tables import Table

Rendered = Sequence[tuple["Formula", str]]

PAPERS = {"a4": "a4paper", "b5": "b5paper"}  # article's options: A4, ISO B5 (176 x 250 mm)


def macro_name(name: str) -> str:
    """The LaTeX macro of a formula: softmax-jacobian-two -> SoftmaxJacobianTwo."""
    return "".join(word.capitalize() for word in name.split("-"))


def _equation(formula: Formula, tex: str) -> str:
    return f"\\begin{{equation}}\n{tex}\n\\label{{eq:{formula.name}}}\n\\end{{equation}}"


def equations(rendered: Rendered) -> str:
    """Each formula as an equation after a comment naming it; no blank lines, which
    would put a paragraph between two displays."""
    body = "\n".join(
        f"% {formula.name}: {formula.title}\n{_equation(formula, tex)}" for formula, tex in rendered
    )
    what = r"the formulas as numbered equations (\label{eq:NAME}), to \input"
    return header(body, what) + body + "\n"


def macros(rendered: Rendered, package: str | None = None) -> str:
    """A package of one \\newcommand per formula (in math or text: \\ensuremath); it loads
    what the formulas need itself. `package` is the file's name without .sty, which
    \\ProvidesPackage must repeat."""
    body = "\n".join(
        f"% {formula.name}: {formula.title}\n"
        f"\\newcommand{{\\{macro_name(formula.name)}}}{{\\ensuremath{{{tex}}}}}"
        for formula, tex in rendered
    )
    preamble = ["\\NeedsTeXFormat{LaTeX2e}"]
    if package is not None:
        preamble.append(f"\\ProvidesPackage{{{package}}}")  # no [info]: it must open with a date
    preamble += [f"\\RequirePackage{{{p}}}" for p in packages(body)]
    what = r"one macro per formula (\SoftmaxJacobian, ...), to \usepackage"
    return header(body, what) + "\n".join([*preamble, body, "\\endinput"]) + "\n"


def standalone(rendered: Rendered, tables: Sequence[Table] = (), paper: str = "a4") -> str:
    """A document holding the formulas, each under its title as a numbered equation, and
    the tables; it loads exactly the packages its body uses, luatexja when any Japanese
    appears (then it needs LuaLaTeX)."""
    # ragged right: a title that mixes Japanese and English overflows a justified line
    parts = [r"\raggedright", r"\section*{Formulas}"]
    for formula, tex in rendered:
        # the name first: a \texttt word cannot break, at the end of a line it would overflow
        title = rf"\noindent\texttt{{{formula.name}}}\quad {tex_cell(formula.title)}"
        parts.append(f"{title}\n{_equation(formula, tex)}")
    if tables:
        parts.append(r"\section*{Tables}")
        parts += [table.to_latex() for table in tables]
    body = "\n\n".join(parts)
    preamble = [f"\\documentclass[{PAPERS[paper]}]{{article}}"]
    preamble += [f"\\usepackage{{{p}}}" for p in packages(body)]
    what = "formulas and tables in a document to compile as it is"
    document = [*preamble, r"\begin{document}", body, r"\end{document}"]
    return header(body, what) + "\n".join(document) + "\n"
