"""A chapter's running text in LaTeX: every character of prose escaped, the formulas kept as
the chapter writes them, and the marks of either form (MDX's **bold**, `code`, links and
`<Ref>`s; the rendered text's 命題 3.1 citations) turned into their LaTeX.

Escaping builds on proofs.typeset.latex.tex_text (& % # _ { }) and adds what prose may
hold besides: a backslash, ~, ^ and a lone $. A character no font of the edition draws (a
subscript digit ₃, a superscript ᵀ, ∎) is written with what draws it.

>>> print(escape(r"100% {a} \\ b~c^d $5 & e_f #1"))
100\\% \\{a\\} \\textbackslash{} b\\textasciitilde{}c\\textasciicircum{}d \\$5 \\& e\\_f \\#1
>>> escape("J₃ σᵀ")
'J\\\\textsubscript{3} σ\\\\textsuperscript{T}'
>>> math_tex(r"23.5% \\& x")
'23.5\\\\% \\\\& x'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Protocol

from proofs.reader.rendered import REF as CITATION
from proofs.typeset.latex import tex_text

_OTHERS = {"\\": r"\textbackslash{}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_SYMBOLS = {"∎": r"\ensuremath{\blacksquare}"}  # drawn by no text font of the edition


def _character(ch: str) -> str:
    """A character of prose in LaTeX: a subscript or superscript letter or digit (its
    compatibility decomposition says which) as \\textsubscript or \\textsuperscript."""
    if ch in _OTHERS:
        return _OTHERS[ch]
    if ch in _SYMBOLS:
        return _SYMBOLS[ch]
    if ch == "$":
        return r"\$"
    form, _, base = unicodedata.decomposition(ch).partition(" ")
    if form in ("<sub>", "<super>") and base:
        command = "textsubscript" if form == "<sub>" else "textsuperscript"
        return f"\\{command}{{{tex_text(chr(int(base, 16)))}}}"
    return tex_text(ch)


_PLAIN = re.compile(r"[^\\~^$∎\u00b2\u00b3\u00b9\u1d00-\u1dbf\u2070-\u209f]+")


_LIGATURE = re.compile(r"([-`'!?])(?=[-`'])")  # --, ``, '' and !` would print as one sign


def escape(text: str) -> str:
    """Prose with every character LaTeX treats specially escaped, and no two characters
    joined into one sign (-- would print as an en dash)."""
    out, position = [], 0
    for plain in _PLAIN.finditer(text):
        out += [_character(ch) for ch in text[position : plain.start()]]
        out.append(_LIGATURE.sub(r"\1{}", tex_text(plain.group())))
        position = plain.end()
    out += [_character(ch) for ch in text[position:]]
    return "".join(out)


def math_tex(tex: str) -> str:
    """A formula as the chapter writes it, with the characters that would end or break it
    outside the formula escaped: a bare % (a comment to the end of the line), a bare #,
    and a bare & where no environment aligns."""
    tex = re.sub(r"(?<!\\)([%#])", r"\\\1", tex)
    if "\\begin" not in tex:
        tex = re.sub(r"(?<!\\)&", r"\\&", tex)
    return tex


# the environments a formula may hold, and the commands it may not (they end the formula
# or the document, or define, read or write)
MATH_ENVIRONMENTS = frozenset(
    f"{name}{star}"
    for name in (
        "matrix pmatrix bmatrix Bmatrix vmatrix Vmatrix smallmatrix cases dcases rcases "
        "aligned alignedat gathered split array subarray"
    ).split()
    for star in ("", "*")
)
_FORBIDDEN = re.compile(
    r"\\(?:par|def|edef|gdef|xdef|let|catcode|input|include|write|immediate|openout|openin"
    r"|read|csname|newcommand|renewcommand|providecommand|makeatletter|makeatother|verb"
    r"|chapter|section|subsection|item|documentclass|usepackage)(?![A-Za-z])"
)


def safe_math(tex: str) -> bool:
    """Whether a formula can be set as the chapter writes it: its braces pair up (escaped
    braces aside), its environments are math's and pair up, and it holds no command that
    would end it, end the document, or define, read or write. One that cannot is printed
    as text instead, so that no formula takes the text after it with it."""
    depth = 0
    for brace in re.findall(r"(?<!\\)[{}]", tex):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    if depth or _FORBIDDEN.search(tex):
        return False
    opened: list[str] = []
    for kind, name in re.findall(r"\\(begin|end)\s*\{([^{}]*)\}", tex):
        if name not in MATH_ENVIRONMENTS:
            return False
        if kind == "begin":
            opened.append(name)
        elif not opened or opened.pop() != name:
            return False
    return not opened


def inline_math(tex: str) -> str:
    """`$…$` as LaTeX: the formula, or its text escaped when it cannot be set (safe_math)."""
    return f"${math_tex(tex)}$" if safe_math(tex) else escape(f"${tex}$")


def display_math(tex: str) -> str:
    """A display, scaled down to the line when it is wider (\\fitdisplay, the preamble's)."""
    if not safe_math(tex):
        return escape(f"$${tex}$$")
    return f"\\[\\fitdisplay{{{math_tex(tex.strip())}}}\\]"


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


def inline(text: str, links: Linking, form: str) -> str:
    """A piece of running text (a paragraph, a cell, a title) of a chapter in `form` ("MDX"
    or "rendered text") as LaTeX."""
    pattern = _MDX if form == "MDX" else _RENDERED
    out, position = [], 0
    for match in pattern.finditer(text):
        out.append(escape(text[position : match.start()]))
        out.append(_token(match, links, lambda inner: inline(inner, links, form)))
        position = match.end()
    out.append(escape(text[position:]))
    return "".join(out)


def _token(match: re.Match[str], links: Linking, again: Callable[[str], str]) -> str:
    """One marked piece of text in LaTeX."""
    group = match.groupdict()
    if group.get("display") is not None:
        return display_math(group["dtex"])
    if group.get("tex") is not None:
        return inline_math(group["tex"])
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
