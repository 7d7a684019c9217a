"""Formulas split as the chapters write them: a math span into statements (at a line
break, a quad, a text insert and top-level commas), a statement into members and the
relations between them."""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Protocol

from proofs.tex.tokens import SLANTED, printed_numbers

RELATION = re.compile(
    r"(\\approx|\\simeq|:=|=|\\leq?|\\geq?|\\[lg]eqslant|\\neq?|<|>|\\to|\\in|\\mapsto)"
    r"(?![A-Za-z])"
)


# environments that only lay statements out: read as a space
INLINE_MATH = re.compile(r"\$([^$]+)\$")  # `$…$` on a line, its TeX the group
LAYOUT = re.compile(r"\\(begin|end)\{(aligned|align\*?|gathered|cases)\}")
# a run of characters that split nothing and open or close nothing
PLAIN = re.compile(r"[^\\(){}\[\],;&]+")


def split_statements(math: str) -> list[str]:
    """Split a math span into statements: at \\\\, \\qquad/\\quad, \\text{…} and
    top-level commas; pmatrix bodies are kept whole."""
    return [piece for _, piece in statement_offsets(math)]


@functools.lru_cache(maxsize=1 << 10)
def statement_offsets(math: str) -> tuple[tuple[int, str], ...]:
    """split_statements' statements, each with the index in `math` of its first character
    that is not a space: one pass over the span, whatever the number of statements, and
    remembered for a formula met again (every claim of an element looks at its formulas).
    Each statement's numbers are in the one form the readers take (`1\\,024` as `1{,}024`:
    proofs.tex.tokens.printed_numbers)."""
    layouts = list(LAYOUT.finditer(math))
    text = LAYOUT.sub(" ", math)
    pieces: list[tuple[int, str]] = []  # (where in text its first non-space stands, piece)
    depth, current, start, i = 0, "", -1, 0
    while i < len(text):
        plain = PLAIN.match(text, i)
        if plain is not None:
            run = plain.group()
            current += run
            if start < 0 and not run.isspace():
                start = i + len(run) - len(run.lstrip())
            i = plain.end()
            continue
        if text.startswith(r"\begin{pmatrix}", i):
            depth += 1
        if text.startswith(r"\end{pmatrix}", i):
            depth -= 1
        ch = text[i]
        if depth == 0 and (text.startswith(r"\\", i) or text.startswith(r"\qquad", i)):
            pieces.append((start, current))
            current, start = "", -1
            i += 2 if text.startswith(r"\\", i) else 6
            continue
        insert = next((c for c in (r"\textbf{", r"\text{") if text.startswith(c, i)), None)
        if depth == 0 and insert is not None:
            j, level = i + len(insert), 1
            while j < len(text) and level:
                level += text[j] == "{"
                level -= text[j] == "}"
                j += 1
            pieces.append((start, current))
            current, start = "", -1
            i = j
            continue
        if ch in "({[" or text.startswith(r"\langle", i):
            depth += 1
        elif ch in ")}]" or text.startswith(r"\rangle", i):
            depth -= 1
        if ch == "\\" and i + 1 < len(text) and not text[i + 1].isalpha():
            depth += {"{": 1, "}": -1}.get(text[i + 1], 0)  # \{ \} group like { }
            current += text[i : i + 2]  # \, \; \! \  are spaces, not separators
            start = i if start < 0 else start
            i += 2
            continue
        if (
            depth == 0
            and ch in ",;"
            and not text.startswith("{,}", i - 1)
            and not _grouping(text, i)
        ):
            pieces.append((start, current))
            current, start = "", -1
        elif depth == 0 and ch == "&":
            pass
        else:
            current += ch
            start = i if start < 0 and not ch.isspace() else start
        i += 1
    pieces.append((start, current))
    # an index of text is one of math once the layouts replaced before it are put back
    spaces = list(accumulate(m.end() - m.start() - 1 for m in layouts))
    at = [m.start() - (spaces[k - 1] if k else 0) for k, m in enumerate(layouts)]
    kept = [
        (first + (spaces[k - 1] if (k := bisect_left(at, first)) else 0), piece)
        for first, piece in pieces
        if first >= 0
    ]
    return tuple((first, printed_numbers(piece)) for first, piece in _ranges_kept(kept))


_GROUP_AFTER = re.compile(r"\d{3}(?!\d)")


def _grouping(text: str, i: int) -> bool:
    """Whether the comma at i groups the digits of one number (262,144), not statements."""
    return (
        text[i] == "," and text[i - 1 : i].isdigit() and _GROUP_AFTER.match(text, i + 1) is not None
    )


def _ranges_kept(pieces: list[tuple[int, str]]) -> tuple[tuple[int, str], ...]:
    """`l = 1, \\ldots, L` stays one statement (a range), not three."""
    out: list[tuple[int, list[str]]] = []  # a range's parts, joined once at the end
    for first, piece in pieces:
        if out and (
            piece.strip() in (r"\ldots", r"\cdots")
            or out[-1][1][-1].strip().endswith((r"\ldots", r"\cdots"))
        ):
            out[-1][1].append(piece)
        else:
            out.append((first, [piece]))
    return tuple((first, ",".join(parts)) for first, parts in out)


def split_relations(statement: str) -> tuple[list[str], list[str]]:
    """Members and the relations between them, splitting only outside braces."""
    members, relations = _split_relations(statement)
    return list(members), list(relations)


@functools.lru_cache(maxsize=4096)
def _split_relations(statement: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """split_relations, kept per statement: the audit's rules split the same formulas
    again and again, and a chapter's formulas are the same from one audit to the next."""
    members, relations, current, depth, i = [], [], "", 0, 0
    while i < len(statement):
        ch = statement[i]
        depth += ch in "{([" and not statement.startswith("\\{", i - 1)
        depth -= ch in "})]" and not statement.startswith("\\}", i - 1)
        match = RELATION.match(statement, i) if depth == 0 else None
        if match:
            members.append(current)
            relations.append(SLANTED.get(match.group(1), match.group(1)))
            current, i = "", match.end()
            continue
        current += ch
        i += 1
    members.append(current)
    return tuple(members), tuple(relations)


def statement_lines(line: int, tex: str) -> list[tuple[int, str]]:
    """(line, statement) for each statement of a formula whose first character stands on
    `line`: a display's statements on the lines their first characters stand on."""
    body = len(tex) - len(tex.lstrip())  # the formula's first character
    out, counted = [], body
    for first, statement in statement_offsets(tex):
        line += tex.count("\n", counted, first)
        counted = first
        out.append((line, statement.strip()))
    return out


@dataclass(frozen=True)
class Place:
    """Where a statement of a formula stands: its line, the column of its first character
    and, in an inline formula, the column of the `$` closing the formula."""

    line: int
    column: int
    statement: str
    closing: int | None  # None in a display


class Formula(Protocol):
    """What the places are read from: a formula's line, TeX and form (records.Math)."""

    @property
    def line(self) -> int: ...

    @property
    def tex(self) -> str: ...

    @property
    def display(self) -> bool: ...


def statement_places(lines: Sequence[str], formulas: Iterable[Formula]) -> list[Place]:
    """The place of every statement of the formulas (given in the order of the text): one
    pass over them, each formula looked for after the one before it on its line."""
    out: list[Place] = []
    after: dict[int, int] = {}  # per line, where the next formula is looked for
    for m in formulas:
        text = lines[m.line - 1]
        mark = "$$" if m.display else "$"
        if "\n" not in m.tex:  # inline, or a display on one line
            opened = text.find(f"{mark}{m.tex}{mark}", after.get(m.line, 0))
            if opened < 0:
                continue
            column = opened + len(mark)
            after[m.line] = column + len(m.tex) + len(mark)
            closing = None if m.display else column + len(m.tex)
            for first, statement in statement_offsets(m.tex):
                out.append(Place(m.line, column + first, statement.strip(), closing))
            continue
        line, counted = m.line, len(m.tex) - len(m.tex.lstrip())
        start = len(text) - m.tex.index("\n")  # the display runs to the end of its first line
        for first, statement in statement_offsets(m.tex):
            line += m.tex.count("\n", counted, first)
            counted = first
            broken = m.tex.rfind("\n", 0, first)
            column = first - broken - 1 if broken >= 0 else start + first
            out.append(Place(line, column, statement.strip(), None))
        last = m.tex.rsplit("\n", 1)[1]  # the display closes on its last line, after this
        after[line + m.tex.count("\n", counted)] = len(last) + len(mark)
    return out
