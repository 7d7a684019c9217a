"""LaTeX text in the chapters' notation: cells with TeX in `$…$`, their rough widths, and
what a LaTeX text needs to compile (its packages and engine), stated in its first lines.

Every LaTeX file the package writes starts with `header(...)`, so that a reader of the
file knows what to load and which engine to run without compiling it first; the needs
are read off the text itself (a Japanese character needs luatexja and LuaLaTeX, a
`\\toprule` booktabs, …), so the comment cannot drift from what the file uses.

>>> tex_cell("最大の重み_1 $d_{k}$")
'最大の重み\\\\_1 $d_{k}$'
>>> packages(r"\\begin{tabularx}{\\linewidth}{rX} \\toprule 分散 \\\\ \\bottomrule")
('luatexja', 'booktabs', 'tabularx')
"""

from __future__ import annotations

import re
import unicodedata

import proofs

_SPECIALS = {"&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}"}


def tex_text(s: str) -> str:
    """Text with LaTeX's special characters escaped."""
    return "".join(_SPECIALS.get(ch, ch) for ch in s)


def tex_cell(cell: str) -> str:
    """A cell, caption or title as the package writes them: the `$…$` spans kept as TeX,
    the text around them escaped."""
    parts = cell.split("$")
    return "".join(f"${p}$" if i % 2 else tex_text(p) for i, p in enumerate(parts))


def is_wide(ch: str) -> bool:
    """A full-width character (kana, kanji, 、（）［］): one zw wide, set by luatexja."""
    return unicodedata.east_asian_width(ch) in ("W", "F")


_COMMAND = re.compile(r"\\[A-Za-z]+|\\.")
_NO_GLYPH = {r"\boldsymbol", r"\mathrm", r"\mathsf", r"\left", r"\right", r"\,", r"\ "}
_NARROW = set(",.")  # Latin Modern's comma and point: 0.28 em; its digits are 0.5 em


def estimated_width(cell: str) -> float:
    """The width of a cell in em at the body size, roughly: 0.96 em per full-width
    character (1 zw of luatexja at 10 pt), 0.28 em per comma or point, 0.5 em per other
    character; in `$…$` a command that draws a symbol counts as one character and braces,
    ^ and _ as none. Enough to tell a header that must wrap from its column's numbers."""
    width = 0.0
    for i, part in enumerate(cell.split("$")):
        if i % 2:
            part = _COMMAND.sub(lambda m: "" if m.group() in _NO_GLYPH else "x", part)
            part = re.sub(r"[{}^_]", "", part)
        width += sum(0.96 if is_wide(ch) else 0.28 if ch in _NARROW else 0.5 for ch in part)
    return width


# What a text needs, in the order a preamble loads it: a package and what in a text uses it.
_NEEDS = (
    ("luatexja", None),  # any full-width character outside comments
    (
        "amsmath",
        re.compile(
            r"\\(?:boldsymbol|operatorname|text|binom|dfrac|tfrac|eqref)(?![A-Za-z])"
            r"|\\begin\{(?:[pbvVB]?matrix|cases|align|gather|multline)\*?\}"
        ),
    ),
    ("amssymb", re.compile(r"\\(?:mathbb|mathfrak|varnothing)(?![A-Za-z])")),
    ("bm", re.compile(r"\\bm(?![A-Za-z])")),
    ("booktabs", re.compile(r"\\(?:top|mid|bottom)rule(?![A-Za-z])")),
    ("tabularx", re.compile(r"\\begin\{tabularx\}")),
    ("caption", re.compile(r"\\caption\*")),
)
_COMMENT = re.compile(r"(?<!\\)%.*$", re.M)


def packages(text: str) -> tuple[str, ...]:
    """The packages `text` uses (comments aside), in loading order."""
    body = _COMMENT.sub("", text)
    return tuple(
        name
        for name, uses in _NEEDS
        if (any(map(is_wide, body)) if uses is None else uses.search(body))
    )


def engine(text: str) -> str:
    """LuaLaTeX when the text needs luatexja (without it LuaLaTeX drops the Japanese with
    only a log line); any engine otherwise."""
    if "luatexja" in packages(text):
        return "LuaLaTeX (lualatex), for luatexja"
    return "any LaTeX engine (pdflatex, xelatex, lualatex)"


def header(text: str, what: str) -> str:
    """The comment lines a LaTeX file of the package starts with: what it is, the engine
    and the packages its body needs.

    >>> print(header(r"\\boldsymbol{\\sigma}", "formulas"), end="")  # doctest: +ELLIPSIS
    % transformer-proofs ...: formulas
    % Engine: any LaTeX engine (pdflatex, xelatex, lualatex)
    % Packages: amsmath
    """
    needed = ", ".join(packages(text)) or "none"
    return (
        f"% transformer-proofs {proofs.__version__}: {what}\n"
        f"% Engine: {engine(text)}\n"
        f"% Packages: {needed}\n"
    )
