"""The shapes a chapter declares for its names: `X \\in \\mathbb{R}^{n \\times d}` makes X an
n × d matrix, `\\boldsymbol{z} \\in \\mathbb{R}^{|V|}` a vector, `c \\in \\mathbb{R}` a number.

A notation decides a chapter's formulas with its names as SymPy values; the declarations
are where the chapter says what each name is. new-chapter writes them into the notation
module it pre-fills, at small sizes of its own choosing. Only plain names are read (`X`,
`W_Q`, `\\boldsymbol{b}_Q`), not families indexed by a variable (`\\boldsymbol{x}_i`,
`H^{(a)}`), and only sizes that are names or numbers (`n`, `d_k`, `|V|`, `4`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from proofs.reader import Document
from proofs.tex.tree import TexError, parse

_DECLARATION = re.compile(
    r"(?P<names>.+?)\s*\\in\s*\\mathbb\{R\}"
    r"(?:\^(?:\{(?P<braced>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\}|(?P<bare>[A-Za-z0-9])))?"
    r"\s*[.,。、]?"
)
_INDEX_LETTERS = frozenset("ijt")  # subscripts that index a family (x_i), not name one (W_Q)


@dataclass(frozen=True)
class Declaration:
    """A name the chapter declares (as a notation names it: `X`, `W_Q`, `bold z`), its
    shape as sizes (names or numbers; none for a number) and where it is declared."""

    name: str
    shape: tuple[str | int, ...]
    line: int
    tex: str


def _plain_name(tex: str) -> tuple[str, str | None] | None:
    """(name, subscript) of a name as a notation keys it, None when it is not one."""
    try:
        node = parse(tex)
    except TexError:
        return None
    if node.op == "name":
        return str(node.args[0]), None
    if node.op == "sub":
        base, index = node.args
        if base.op == "name" and index.op == "text":
            return str(base.args[0]), str(index.args[0])
    return None


def declared_name(tex: str) -> str | None:
    """The notation's name of a declared symbol (`W_Q`, `bold z`), None when it is not a
    plain name or names a family by its index (`\\boldsymbol{x}_i`)."""
    plain = _plain_name(tex)
    if plain is None or plain[1] in _INDEX_LETTERS:
        return None
    if plain[1] is not None and not re.fullmatch(r"\w+", plain[1]):
        return None  # X_{1:i}, a slice
    name, subscript = plain
    return name if subscript is None else f"{name}_{subscript}"


def _size(tex: str) -> str | int | None:
    """A size as written: a number, or a name (`n`, `d_k`, `|V|`); None otherwise."""
    tex = tex.strip()
    if tex.isdigit():
        return int(tex)
    plain = _plain_name(tex)
    if plain is None or not re.fullmatch(r"[^\s()]+", plain[0]):
        return None
    name, subscript = plain
    return name if subscript is None else f"{name}_{subscript}"


def _names(text: str) -> list[str]:
    """The comma-separated symbols of a declaration's left side, commas in braces kept."""
    parts, depth, start = [], 0, 0
    for position, ch in enumerate(text):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(text[start:position])
            start = position + 1
    return [*parts, text[start:]]


def declarations(document: Document) -> list[Declaration]:
    """Each name the chapter declares, at its first declaration, in the chapter's order."""
    found: dict[str, Declaration] = {}
    for formula in document.math:
        match = _DECLARATION.fullmatch(formula.tex.strip())
        if match is None:
            continue
        exponent = match.group("braced") or match.group("bare") or ""
        sizes = [_size(part) for part in exponent.split(r"\times")] if exponent else []
        if any(size is None for size in sizes) or len(sizes) > 2:
            continue  # a size that is not a name or a number, or a tensor
        shape = tuple(size for size in sizes if size is not None)
        for part in _names(match.group("names")):
            name = declared_name(part)
            if name is not None and name not in found:
                found[name] = Declaration(name, shape, formula.line, formula.tex.strip())
    return list(found.values())


def sizes(found: list[Declaration], first: int = 2) -> dict[str, int]:
    """Small distinct values for the named sizes, in the order the chapter first uses
    them: distinct, so that a product of mismatched shapes fails instead of passing."""
    named: list[str] = []
    for declaration in found:
        named += [s for s in declaration.shape if isinstance(s, str) and s not in named]
    return {name: first + position for position, name in enumerate(named)}
