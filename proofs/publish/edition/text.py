"""A chapter's running text in LaTeX: every character of prose escaped, the formulas set
through the edition's allow-list (proofs.publish.edition.formulas), and the marks of either
form (MDX's **bold**, `code`, links and `<Ref>`s; the rendered text's 命題 3.1 citations)
turned into their LaTeX.

Escaping builds on proofs.typeset.latex.tex_text (& % # _ { }) and adds what prose may
hold besides: a backslash, ~, ^ and a lone $. A character no font of the edition draws (a
subscript digit ₃, a superscript ᵀ, ∎) is written with what draws it. A character that is
no glyph — a control character (C0, DEL, C1), a format character (a soft hyphen, a
zero-width or bidirectional mark, a byte-order mark), a line or paragraph separator, a
private-use, unassigned or surrogate code point — is shown by its code point in a frame
(\\bookchar): TeX reads some of them as commands (U+000C ends a paragraph, U+000D a line,
U+007F stops the run, U+FFFFF starts a comment), and no font of the edition draws the rest.

>>> print(escape(r"100% {a} \\ b~c^d $5 & e_f #1"))
100\\% \\{a\\} \\textbackslash{} b\\textasciitilde{}c\\textasciicircum{}d \\$5 \\& e\\_f \\#1
>>> escape("J₃ σᵀ")
'J\\\\textsubscript{3} σ\\\\textsuperscript{T}'
>>> escape("a\\x7fb")
'a\\\\bookchar{007F}b'
>>> inline_math(r"23.5% \\& x")
'$23.5\\\\% \\\\& x$'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Protocol

from proofs.publish.edition.formulas import Unsettable, formula_tex
from proofs.reader.rendered import REF as CITATION
from proofs.typeset.latex import tex_text
from proofs.typeset.shown import HIDDEN

_OTHERS = {"\\": r"\textbackslash{}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_SYMBOLS = {"∎": r"\ensuremath{\blacksquare}"}  # drawn by no text font of the edition
# Unicode categories of no glyph: what a report never prints as it is, and the private-use
# and unassigned code points besides (U+FFFFF is a comment character in LuaLaTeX)
NOT_GLYPHS = HIDDEN | {"Co", "Cn"}

# What the running text tells of a piece it prints as text: the piece, and why.
Notice = Callable[[str, str], None]


def ignore(piece: str, why: str) -> None:
    """A Notice that keeps nothing."""


def glyphless(ch: str) -> bool:
    """Whether a character is no glyph (see the module's docstring); a TAB is a space."""
    return ch != "\t" and unicodedata.category(ch) in NOT_GLYPHS


def code_point(ch: str) -> str:
    """A glyphless character shown by its code point: \\bookchar{007F} (the preamble's)."""
    return f"\\bookchar{{{ord(ch):04X}}}"


def _character(ch: str) -> str:
    """A character of prose in LaTeX: a subscript or superscript letter or digit (its
    compatibility decomposition says which) as \\textsubscript or \\textsuperscript."""
    if ch in _OTHERS:
        return _OTHERS[ch]
    if ch in _SYMBOLS:
        return _SYMBOLS[ch]
    if ch == "$":
        return r"\$"
    if ch == "\t":
        return " "
    if glyphless(ch):
        return code_point(ch)
    form, _, base = unicodedata.decomposition(ch).partition(" ")
    if form in ("<sub>", "<super>") and base:
        command = "textsubscript" if form == "<sub>" else "textsuperscript"
        return f"\\{command}{{{tex_text(chr(int(base, 16)))}}}"
    return tex_text(ch)


# a run of characters escaped by tex_text alone, when it is all printable (str.isprintable
# is False for every glyphless character, and for a few spaces, which _character keeps)
_PLAIN = re.compile(r"[^\\~^$∎\t\u00b2\u00b3\u00b9\u1d00-\u1dbf\u2070-\u209f]+")


_LIGATURE = re.compile(r"([-`'!?])(?=[-`'])")  # --, ``, '' and !` would print as one sign


def escape(text: str) -> str:
    """Prose with every character LaTeX treats specially escaped, every glyphless one
    shown by its code point, and no two characters joined into one sign (-- would print
    as an en dash)."""
    out, position = [], 0
    for plain in _PLAIN.finditer(text):
        out += [_character(ch) for ch in text[position : plain.start()]]
        run = plain.group()
        out.append(_plain(run) if run.isprintable() else _shown(run))
        position = plain.end()
    out += [_character(ch) for ch in text[position:]]
    return "".join(out)


def _plain(run: str) -> str:
    return _LIGATURE.sub(r"\1{}", tex_text(run))


def _shown(run: str) -> str:
    """A run of plain characters holding glyphless ones, each of those by its code point."""
    parts, start = [], 0
    for i, ch in enumerate(run):
        if glyphless(ch):
            parts += [_plain(run[start:i]), code_point(ch)]
            start = i + 1
    parts.append(_plain(run[start:]))
    return "".join(parts)


def inline_math(tex: str, notice: Notice = ignore, moving: bool = False) -> str:
    """`$…$` as LaTeX: the formula through the allow-list, or, when it has no LaTeX
    there, its text escaped (and `notice` told why)."""
    try:
        return f"${formula_tex(tex, moving)}$"
    except Unsettable as why:
        notice(f"${tex}$", str(why))
        return escape(f"${tex}$")


def display_math(tex: str, notice: Notice = ignore) -> str:
    """A display, scaled down to the line when it is wider (\\fitdisplay, the preamble's),
    or its text escaped."""
    try:
        return f"\\[\\fitdisplay{{{formula_tex(tex.strip())}}}\\]"
    except Unsettable as why:
        notice(f"$${tex}$$", str(why))
        return "\n".join(escape(line) for line in f"$${tex}$$".split("\n"))


class Linking(Protocol):
    """What the running text needs to resolve its references (proofs.publish.edition.links)."""

    def ref(self, target: str) -> str: ...
    def cited(self, label: str, number: str, chapter: str) -> str: ...
    def href(self, url: str, text: str) -> str: ...
    def citation(self, numbers: str) -> str: ...
    def url(self, url: str) -> str: ...


_MATH = r"(?P<display>\$\$(?P<dtex>.+?)\$\$)|\$(?P<tex>[^$\n]+)\$"
_URL = r"(?P<bare>https?://[\x21-\x7e]+?)(?=[\s)\]、。（）」]|[.,;:]?(?:\s|$)|$)"
_MDX = re.compile(
    rf"`(?P<code>[^`\n]+)`|{_MATH}"
    r'|<Ref\s+to="(?P<ref>[^"]*)"\s*/>'
    r"|\[(?P<text>[^\]\n]+)\]\((?P<url>[^)\s]+)\)"
    r"|\*\*(?P<bold>.+?)\*\*"
    r"|\[(?P<cite>\d+(?:\s*,\s*\d+)*)\]"
    rf"|{_URL}"
)
_RENDERED = re.compile(
    rf"{_MATH}|\[(?P<cite>\d+(?:\s*,\s*\d+)*)\]|(?P<cited>{CITATION.pattern})|{_URL}"
)


def inline(
    text: str, links: Linking, form: str, notice: Notice = ignore, moving: bool = False
) -> str:
    """A piece of running text (a paragraph, a cell, a title) of a chapter in `form` ("MDX"
    or "rendered text") as LaTeX; `notice` is told of each formula printed as text, and
    `moving` text is a heading's, which LaTeX also writes to its .aux and .toc files."""
    pattern = _MDX if form == "MDX" else _RENDERED
    out, position = [], 0
    for match in pattern.finditer(text):
        out.append(escape(text[position : match.start()]))
        again = lambda inner: inline(inner, links, form, notice, moving)  # noqa: E731
        token = _token(match, links, again, notice, moving)
        if moving and token.startswith(_LINKS):  # LaTeX would expand a link when writing it
            token = r"\protect" + token
        out.append(token)
        position = match.end()
    out.append(escape(text[position:]))
    return "".join(out)


_LINKS = (r"\href", r"\url", r"\hyperref", r"\hyperlink")


def _token(
    match: re.Match[str],
    links: Linking,
    again: Callable[[str], str],
    notice: Notice,
    moving: bool,
) -> str:
    """One marked piece of text in LaTeX."""
    group = match.groupdict()
    if group.get("display") is not None:
        return (
            inline_math(group["dtex"], notice, moving)
            if moving
            else display_math(group["dtex"], notice)
        )
    if group.get("tex") is not None:
        return inline_math(group["tex"], notice, moving)
    if group.get("code") is not None:
        return f"\\texttt{{{escape(group['code'])}}}"
    if group.get("ref") is not None:
        return links.ref(group["ref"])
    if group.get("url") is not None:
        return links.href(group["url"], again(group["text"]))
    if group.get("bold") is not None:
        return f"\\textbf{{{again(group['bold'])}}}"
    if group.get("cite") is not None:
        return links.citation(group["cite"])
    if group.get("cited") is not None:
        cited = CITATION.fullmatch(group["cited"])
        assert cited is not None  # the same pattern matched it
        label, number, chapter = cited.groups()
        return links.cited(label, number, chapter or "")
    return links.url(group["bare"])
