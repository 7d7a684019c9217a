"""Claims: what a check proves, as the chapter states it, and where.

A check declares its claims when it is registered. A `Claim` holds the chapter's
own text (a formula's TeX, a printed number in its formula, or a phrase of the
prose) transcribed as the default, where to find it (the element's statement,
its proof, or its text up to the next element), and, when the check judges the
chapter's version, the keyword argument that receives it and how to read it
(`read`: the chapter's text -> the argument's value).

Run without a chapter file (verify, pytest), a check receives its claims' read
transcriptions. Run by the audit on a chapter file, each claim is located in the
file: found as transcribed, it is the transcription; found changed (a formula
with the same left side, a number with the same context), the check receives
the chapter's version and judges it; not found, the chapter no longer states
what the check proves, which is a mismatch.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from proofs.book.printed import ungrouped
from proofs.reader import Document
from proofs.reader.math import split_relations, statement_lines
from proofs.reader.records import Element as Record
from proofs.tex.tree import TexError
from symbolic.identities import equal

WHERE = ("statement", "proof", "text", "section")
_RELATION = r"(=|:=|\\approx|\\le|\\ge|<|>)"


@functools.lru_cache(maxsize=8192)
def normalise_tex(tex: str) -> str:
    """TeX compared without spacing, sizing and bold-font noise: `\\sigma_i(\\delta_{ij} -
    \\sigma_j)` equals `\\sigma_i (\\delta_{ij}-\\sigma_j)`; a trailing period is dropped."""
    tex = re.sub(
        r"\\(?:left|right|big|Big|bigg|Bigg|bigl|bigr|Bigl|Bigr|displaystyle)(?![A-Za-z])", "", tex
    )
    tex = re.sub(r"\\[,;:! ]|\\q?quad(?![A-Za-z])|~", "", tex)
    tex = re.sub(r"\s+", "", tex)
    tex = re.sub(r"\\dfrac|\\tfrac", r"\\frac", tex)
    return tex.rstrip(".。")


def normalise_text(text: str) -> str:
    return re.sub(r"\s+", "", text)


@dataclass(frozen=True)
class Claim:
    """One thing a check proves, as the chapter states it.

    `text`: a formula's TeX (without $), or words when `phrase`. `lhs`: for a formula
    whose right side the check judges, the left side that finds the formula when the
    right side has changed. `argument` and `read`: the check's keyword argument that
    receives the chapter's version, and how to read it from the located TeX or words.

    >>> from proofs.book.stated import polynomial
    >>> claim = Claim("T = 4nd^2 + 2n^2 d", lhs="T", argument="stated", read=polynomial)
    >>> claim.value(), claim.value("T = 4nd^2 + 3n^2 d")
    (4*d**2*n + 2*d*n**2, 4*d**2*n + 3*d*n**2)
    """

    text: str
    where: str = "statement"
    lhs: str | None = None
    argument: str | None = None
    read: Callable[[str], Any] | None = None
    phrase: bool = False
    table: bool = False  # text: a table's rows, cells joined by " | ", the header first
    occurrence: int = 1  # the k-th formula with `lhs` in the region (μ = 3, then μ = 14)

    def __post_init__(self) -> None:
        if self.where not in WHERE:
            raise ValueError(f"where must be one of {WHERE}, got {self.where!r}")
        if (self.argument is None) != (self.read is None):
            raise ValueError(f"claim {self.text!r}: argument and read go together")
        if self.lhs is not None and not re.match(
            re.escape(normalise_tex(self.lhs)) + _RELATION, normalise_tex(self.text)
        ):
            raise ValueError(f"claim {self.text!r} does not start with its left side {self.lhs!r}")

    @property
    def label(self) -> str:
        if self.table:
            return f"the table {self.text.splitlines()[0]}"
        return f"「{self.text}」" if self.phrase else f"${self.text}$"

    def quote(self, text: str) -> str:
        """The chapter's version `text` as a report shows it: a formula in $…$, words in
        「…」, of a table only the rows that differ from the transcription."""
        if self.table:
            ours = set(self.text.splitlines())
            rows = [row for row in text.splitlines()[1:] if row not in ours]
            return (
                "the rows " + "; ".join(f"「{row}」" for row in rows)
                if rows
                else "the table, its rows reordered"
            )
        return f"「{text}」" if self.phrase else f"${text}$"

    def value(self, text: str | None = None) -> Any:
        """The argument's value read from the chapter's text (the transcription by
        default); read once per text, so a check judging it caches by identity."""
        if self.read is None:
            raise ValueError(f"claim {self.text!r} feeds no argument")
        return _read(self, self.text if text is None else text)


@functools.cache
def _read(claim: Claim, text: str) -> Any:
    assert claim.read is not None
    return claim.read(text)


@dataclass(frozen=True)
class Located:
    """Where a claim stands in a document: `status` found (as transcribed), changed (the
    chapter's version is `text`) or missing; `line` is where it stands or where it is
    most like the transcription."""

    claim: Claim
    status: str  # "found" | "changed" | "missing"
    line: int
    text: str


def region(document: Document, record: Record, where: str) -> tuple[int, int]:
    """The lines of an element a claim is looked for in."""
    if where == "statement":
        return record.statement
    if where == "proof":
        if record.proof is None:
            return record.statement
        return record.proof
    if where == "section":  # to the next section heading: what the section goes on to say
        starts = [h.line for h in document.headings if h.line > record.line]
    else:  # "text": to the next element
        starts = [e.line for e in document.elements if e.line > record.line]
    end = (min(starts) - 1) if starts else len(document.lines)
    return record.statement[0], end


def statements_in(document: Document, first: int, last: int) -> list[tuple[int, str]]:
    """(line, statement) for every statement of every formula starting in the lines, each at
    the line it stands on (a display spans several)."""
    return [pair for m in document.math_in(first, last) for pair in statement_lines(m.line, m.tex)]


def locate(
    claim: Claim, document: Document, record: Record, others: frozenset[str] = frozenset()
) -> Located:
    """Find the claim in the element's region of the document. `others`: the texts of the
    element's other claims (normalised), which a changed version of this one is never
    taken to be; a rewriting of the same value (4d(d + 1) for 4d^2 + 4d) is preferred to
    a formula only written alike."""
    first, last = region(document, record, claim.where)
    if claim.phrase:
        return _locate_phrase(claim, document, first, last, others)
    if claim.table:
        return _locate_table(claim, document, first, last)
    want = normalise_tex(claim.text)
    found = statements_in(document, first, last)
    exact = [(ln, s) for ln, s in found if normalise_tex(s) == want]
    if exact:
        line, statement = exact[0]
        return Located(claim, "found", line, statement)
    found = [(ln, s) for ln, s in found if normalise_tex(s) not in others]
    rewritten = _same_value(claim, found)
    if rewritten is not None:
        return Located(claim, "changed", *rewritten)
    if claim.lhs is not None:  # the k-th formula with this left side and relation
        same = _same_left_side(claim.lhs, want, found)
        if len(same) >= claim.occurrence:
            line, statement = same[claim.occurrence - 1]
            return Located(claim, "changed", line, statement)
    if claim.read is not None and claim.lhs is not None:
        # the value the check reads stands on the right of its own left side, its numbers
        # perhaps rewritten ((1, 2.0281)/3.028 for (1, 2.0281)/3.0281), never another's
        alike = [(ln, st) for ln, st in found if _same_but_numbers(_left_side(st), claim.lhs)]
        line, closest, likeness = _closest(want, alike or found, first)
        if alike and likeness >= LIKE:
            return Located(claim, "changed", line, closest)
        return Located(claim, "missing", line, normalise_tex(closest))
    lhs = _left_side(claim.text)
    same = _same_left_side(lhs, want, found) if lhs is not None else []
    line, closest, likeness = _closest(want, same or found, first)
    if likeness >= LIKE:  # the claim, changed: the chapter's version is judged
        return Located(claim, "changed", line, closest)
    return Located(claim, "missing", line, normalise_tex(closest))


def _same_value(claim: Claim, found: list[tuple[int, str]]) -> tuple[int, str] | None:
    """The first statement with the claim's relations whose value, read as the claim reads
    its own, equals the transcription's (decided, not compared as text); None when the
    claim reads nothing."""
    if claim.read is None:
        return None
    ours, relations = claim.value(), split_relations(claim.text)[1]
    for line, statement in found:
        if split_relations(statement)[1] != relations:
            continue  # 2s(1-s) = 1/2 - 2(s - 1/2)^2 restates a value, it is not 2s(1-s)
        try:
            theirs = claim.value(statement)
        except (TexError, ValueError, TypeError, ArithmeticError):
            continue
        if _equal_values(ours, theirs):
            return line, statement
    return None


def _equal_values(a: Any, b: Any) -> bool:
    """Whether two values a claim reads are equal: SymPy's decided by
    symbolic.identities, numbers and strings by ==; anything else is not compared."""
    if isinstance(a, sympy.Basic) and isinstance(b, sympy.Basic):
        try:
            return equal(a, b)
        except (TypeError, ValueError):
            return False
    if isinstance(a, int | float | Fraction | str) and type(a) is type(b):
        return bool(a == b)
    return False


def _same_left_side(lhs: str, want: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The statements with the claim's left side and relation; none when the claim does
    not start with its left side and one of the relations compared (_RELATION: a claim
    `i \\ne j` is then located by its likeness alone)."""
    own = re.match(re.escape(normalise_tex(lhs)) + _RELATION, want)
    if own is None:
        return []
    relation = re.compile(re.escape(normalise_tex(lhs)) + re.escape(own.group(1)))
    return [(ln, s) for ln, s in found if relation.match(normalise_tex(s))]


def _same_but_numbers(side: str | None, lhs: str) -> bool:
    """Whether a left side is the claim's but perhaps for its printed numbers."""
    if side is None:
        return False
    masked = [_DIGITS.sub("#", normalise_tex(x)) for x in (side, lhs)]
    return masked[0] == masked[1]


def table_text(rows: tuple[tuple[str, ...], ...]) -> str:
    """A table's rows as a table claim writes them: cells joined by " | ", one row a line."""
    return "\n".join(" | ".join(cell.strip() for cell in row) for row in rows)


def _locate_table(claim: Claim, document: Document, first: int, last: int) -> Located:
    """The table of the region with the claim's header: found, changed (its cells, or its
    header, when it is the region's one table with the claim's first column), or
    missing."""
    header = claim.text.splitlines()[0]
    tables = [t for t in document.tables if first <= t.line <= last]
    for table in tables:
        if table_text(table.rows[:1]) == header:
            text = table_text(table.rows)
            return Located(claim, "found" if text == claim.text else "changed", table.line, text)
    corner = header.split(" | ")[0]  # a column added or renamed: the same first column
    near = [t for t in tables if t.rows[0][0].strip() == corner]
    if len(near) == 1:
        return Located(claim, "changed", near[0].line, table_text(near[0].rows))
    return Located(claim, "missing", first, "")


def _locate_phrase(
    claim: Claim, document: Document, first: int, last: int, others: frozenset[str] = frozenset()
) -> Located:
    """A phrase is found as transcribed; a phrase whose numbers the check reads is also
    found reworded (「高々 7 個」 for 「多くても 7 個」): its numbers, the same, in their
    places among most of its words. A number changed is never a rewording: the phrase
    with its words as they were and other numbers or formulas in their places, in one
    place of the region (not inside another claim of the check), is the claim changed,
    the chapter's version judged."""
    want = normalise_text(claim.text)
    lines = [(i, normalise_text(document.line(i))) for i in range(first, last + 1)]
    for i, text in lines:
        if want in text:
            return Located(claim, "found", i, claim.text)
    if claim.read is not None:
        reworded = [i for i, text in lines if _reworded(want, text)]
        if len(reworded) == 1:  # one line only: two would leave the choice to chance
            return Located(claim, "found", reworded[0], claim.text)
        renumbered = _renumbered(want)
        changed = [
            (i, m.group(0))
            for i, text in lines
            for m in renumbered.finditer(text)
            if not _within_another(m, text, others)
        ]
        if len(changed) == 1:  # its words as they were, its numbers not: the chapter's version
            return Located(claim, "changed", *changed[0])
    best, line = 0, first  # the line holding most of the phrase, in order
    for i, text in lines:
        blocks = difflib.SequenceMatcher(None, want, text, autojunk=False)
        matched = sum(b.size for b in blocks.get_matching_blocks())
        if matched > best:
            best, line = matched, i
    return Located(claim, "missing", line, document.line(line).strip())


_DIGITS = re.compile(r"\d(?:[\d,.]*\d)?")
_NEGATION = re.compile(r"ない|ません|ず[、。に]|なく")
# the share of a phrase's words (its characters other than numbers) a reworded version keeps
KEPT_WORDS = 0.5


def _reworded(want: str, text: str) -> bool:
    """Whether `text` (without spaces) rewords the phrase `want`: a window of it holds the
    phrase's numbers, the same and in order, at least KEPT_WORDS of the phrase's other
    characters matched in order, and a negation where the phrase has one only."""
    words = _DIGITS.sub("#", want)
    line = _DIGITS.sub(lambda m: "#" * len(m.group(0)), text)  # positions kept
    matcher = difflib.SequenceMatcher(None, words, line, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    if not blocks:
        return False
    kept = sum(b.size for b in blocks) - sum(line[b.b : b.b + b.size].count("#") for b in blocks)
    start, end = blocks[0].b, blocks[-1].b + blocks[-1].size
    while start > 0 and line[start - 1] == "#":  # a number cut at either end is taken whole
        start -= 1
    while end < len(line) and line[end] == "#":
        end += 1
    window = text[start:end]
    return (
        kept >= KEPT_WORDS * len(words.replace("#", ""))
        and _numbers(window) == _numbers(want)
        and bool(_NEGATION.search(window)) == bool(_NEGATION.search(want))
    )


_MATH_OR_DIGITS = re.compile(r"\$[^$]*\$|\d(?:[\d,.]*\d)?")


def _renumbered(want: str) -> re.Pattern[str]:
    """The phrase (without spaces) with each of its numbers any number and each of its
    formulas any formula: its words as they were, its numbers perhaps not
    (「領域は多くても8個」 for 「領域は多くても 7 個」, 「$n$が$4d$より」 for 「$n$が$d$より」)."""
    pattern, at = [], 0
    for m in _MATH_OR_DIGITS.finditer(want):
        pattern.append(re.escape(want[at : m.start()]))
        pattern.append(r"\$[^$]*\$" if m.group(0).startswith("$") else r"\d(?:[\d,.]*\d)?")
        at = m.end()
    pattern.append(re.escape(want[at:]))
    return re.compile("".join(pattern))


def _within_another(match: re.Match[str], text: str, others: frozenset[str]) -> bool:
    """Whether the match stands inside another claim of the check, as that states it
    (「層正規化：$8$」 inside 「最後の層正規化：$8$」)."""
    for other in others:
        start = text.find(other)
        while start >= 0:
            if start <= match.start() and match.end() <= start + len(other):
                return True
            start = text.find(other, start + 1)
    return False


def _numbers(text: str) -> list[str]:
    return [ungrouped(n) for n in _DIGITS.findall(text)]


# A statement at least this like the transcription (difflib's ratio) is taken as the claim,
# changed, and judged (the check on it, or its equivalence to the transcription): an
# unrelated one is then a mismatch as a missing claim would be, a rewritten one confirmed.
LIKE = 0.3


def _left_side(text: str) -> str | None:
    """The left member of a relation, when the claim states one."""
    members, relations = split_relations(text)
    return members[0].strip() if relations and members[0].strip() else None


def _closest(want: str, candidates: list[tuple[int, str]], default: int) -> tuple[int, str, float]:
    """(line, statement, likeness) of the statement most like the normalised
    transcription `want` (difflib's ratio; the first on ties)."""
    best, line, text = 0.0, default, ""
    for i, candidate in candidates:
        ratio = difflib.SequenceMatcher(
            None, want, normalise_tex(candidate), autojunk=False
        ).ratio()
        if ratio > best:
            best, line, text = ratio, i, candidate
    return line, text, best
