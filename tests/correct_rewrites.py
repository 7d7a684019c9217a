"""Correct rewrites of the numbers the checks read: one-edit copies of a chapter that
change how a number is written, never what it says.

Every printed number a check reads is found through the claims machinery: each claim that
feeds an argument is located in the chapter (proofs.book.claims), and a number of its
located text is read by the check when changing that number changes the value the claim
reads. Each such number is then written another correct way:

- an integer of four digits or more with its digits grouped otherwise (`38,597,376`,
  `38{,}597{,}376`, `38\\,597\\,376`, `38597376`; in prose `,` or none);
- a decimal of two places or more one digit shorter, unless its last digit is 5 (then
  the rounding to fewer digits is not determined by the printed digits alone);
- a decimal whose exact value is known (an exact rational computed by the member before
  it, 3.5 for (4 + 1 + 0 + 9)/4, or the simple constant proofs.audit.deciding.readings finds,
  1.8708 as √(7/2)) with one digit more, and written as that constant (`\\frac{7}{2}`);
- a fraction whose decimal ends (`1/2`, `\\frac{1}{2}`) as that decimal;
- a number the check itself reports misprinted, whose neighbour one unit away in the last
  place reads a simple constant: that neighbour, its correct rounding (1.1428 -> 1.1429).

The copies must be audited without a finding: tests/audit/test_correct_rewrites.py audits a
sample, benchmarks/correct_rewrites.py all of them. The chapters are only read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import sympy

from proofs.audit import Report, identify
from proofs.audit.deciding.readings import reading
from proofs.audit.rules.claims import registered_pairs
from proofs.book.claims import Claim, locate, table_text
from proofs.book.registry import run_check
from proofs.reader import Document
from proofs.reader.math import split_relations
from proofs.tex.symbolic import Evaluator
from proofs.tex.tree import TexError, parse


@dataclass(frozen=True)
class Rewrite:
    """One number written another correct way: on `line`, the text from `column` (0-based)
    that reads `old` becomes `new`."""

    name: str
    line: int
    column: int
    old: str
    new: str
    kind: str  # grouping, shorter, longer, constant, decimal, rounding

    def apply(self, lines: list[str]) -> list[str]:
        text = lines[self.line - 1]
        if text[self.column : self.column + len(self.old)] != self.old:
            raise ValueError(f"{self.name}: {self.old!r} is not at column {self.column}")
        edited = text[: self.column] + self.new + text[self.column + len(self.old) :]
        return [*lines[: self.line - 1], edited, *lines[self.line :]]


# a printed number: digits grouped by `,`, `{,}` or a thin space, or not; a decimal part
_NUMBER = re.compile(
    r"(?<![\d.{])(?<!\\,)(?<!\{,\})\d{1,3}(?:(?:\{,\}|,|\\,)\d{3})+(?:\.\d+)?(?![\d])"
    r"|(?<![\d.])(?<!\\,)(?<!\{,\})\d+(?:\.\d+)?(?![\d])"
)
_FRACTION = re.compile(r"\\frac\{(\d+)\}\{(\d+)\}|(?<![\d.}])(\d+)/(\d+)(?![\d.])")


@dataclass(frozen=True)
class _Read:
    """A span of a claim's located text that the check reads, and where the text stands."""

    claim: Claim
    text: str  # the located text
    start: int  # of the number in `text`
    end: int
    line: int
    column: int  # of `text` on its line
    prose: bool  # outside math: digits grouped by `,`


def rewrites(document: Document) -> list[Rewrite]:
    """Every correct rewrite of every printed number a check reads in the document."""
    chapter = identify(document)
    misprinted = _misprinted(document, chapter)
    seen: set[tuple[int, int, str]] = set()
    out: list[Rewrite] = []
    for record, element in registered_pairs(document, chapter):
        for claim in element.claims:
            for read in _read_numbers(claim, document, record):
                number = read.text[read.start : read.end]
                line, at = read.line, read.column + read.start
                broken = read.text.rfind("\n", 0, read.start)
                if broken >= 0:  # a display's statement runs on over lines
                    line += read.text.count("\n", 0, read.start)
                    at = read.start - broken - 1
                for kind, new in _forms(read, number, misprinted):
                    key = (line, at, new)
                    if key in seen or new == number:
                        continue
                    seen.add(key)
                    name = f"{element.id} {line}:{at + 1}: {number} -> {new}"
                    out.append(Rewrite(name, line, at, number, new, kind))
    return out


def _read_numbers(claim: Claim, document: Document, record) -> Iterator[_Read]:
    """The numbers (and fractions) of the claim's located text that the check reads."""
    if claim.read is None:
        return
    located = locate(claim, document, record)
    if located.status != "found":
        return
    if claim.table:
        yield from _read_cells(claim, document, located.line)
        return
    text = located.text
    line_text = document.line(located.line)
    if claim.phrase:
        column = line_text.find(text)
    else:
        place = document.place(located.line, text)
        column = place.column if place is not None else -1
    if column < 0:
        return
    try:
        base = repr(claim.value(text))
    except (TexError, ValueError, TypeError, ArithmeticError):
        return
    spans = [(m.start(), m.end()) for m in _FRACTION.finditer(text)]
    spans += [
        (m.start(), m.end())
        for m in _NUMBER.finditer(text)
        if not any(a <= m.start() < b for a, b in spans)
    ]
    for start, end in sorted(spans):
        if _changes(claim, text, start, end, base):
            prose = claim.phrase and text[:start].count("$") % 2 == 0
            yield _Read(claim, text, start, end, located.line, column, prose)


def _read_cells(claim: Claim, document: Document, line: int) -> Iterator[_Read]:
    """The numbers of a table claim's cells that the check reads."""
    table = next(t for t in document.tables if t.line == line)
    base = repr(claim.value(table_text(table.rows)))
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row):
            for m in _NUMBER.finditer(cell):
                edited = [list(x) for x in table.rows]
                edited[r][c] = cell[: m.end() - 1] + ("1" if m.group(0)[-1] != "1" else "2")
                edited[r][c] += cell[m.end() :]
                try:
                    changed = repr(claim.value(table_text(tuple(map(tuple, edited)))))
                except (TexError, ValueError, TypeError, ArithmeticError):
                    changed = ""
                if changed != base:
                    start = table.spans[r][c][0] if table.spans else -1
                    if start >= 0:
                        yield _Read(
                            claim, cell, m.start(), m.end(), table.row_lines[r], start, False
                        )


def _changes(claim: Claim, text: str, start: int, end: int, base: str) -> bool:
    """Whether the claim reads another value when the number's last digit changes."""
    last = text[end - 1]
    other = "1" if last != "1" else "2"
    try:
        changed = repr(claim.value(text[: end - 1] + other + text[end:]))
    except (TexError, ValueError, TypeError, ArithmeticError):
        return True
    return changed != base


def _forms(read: _Read, number: str, misprinted: set[str]) -> Iterator[tuple[str, str]]:
    """The other correct ways of writing the number, each with its kind."""
    fraction = _FRACTION.fullmatch(number)
    if fraction is not None:
        top, bottom = (int(g) for g in fraction.groups() if g is not None)
        decimal = _ending_decimal(Fraction(top, bottom))
        if decimal is not None:
            yield "decimal", decimal
        return
    digits = re.sub(r"\{,\}|,|\\,", "", number)
    if "." not in digits:
        if len(digits) >= 4:
            groups = _grouped(digits)
            forms = [digits, ",".join(groups)] if read.prose else [digits]
            if not read.prose:
                forms += ["{,}".join(groups), "\\,".join(groups)]
            for form in forms:
                yield "grouping", form
        return
    places = len(digits.split(".")[1])
    if places >= 2 and digits[-1] != "5":
        yield "shorter", _rounded(Fraction(digits), places - 1)
    if number in misprinted:
        fixed = _fix(digits)
        if fixed is not None:
            yield "rounding", fixed
        return
    exact = _exact(read, digits)
    if exact is None:
        return
    yield "longer", _rounded_exact(exact, places + 1)
    if not read.prose:
        yield "constant", _tex(exact)


def _grouped(digits: str) -> list[str]:
    head = len(digits) % 3 or 3
    return [digits[:head]] + [digits[k : k + 3] for k in range(head, len(digits), 3)]


def _ending_decimal(value: Fraction) -> str | None:
    """The decimal of a fraction whose expansion ends, else None: 1/2 -> 0.5."""
    bottom = value.denominator
    for p in (2, 5):
        while bottom % p == 0:
            bottom //= p
    if bottom != 1 or value.denominator == 1:
        return None
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
    return _rounded(value, places)


def _rounded(value: Fraction, places: int) -> str:
    """The value rounded half to even at `places` decimals, written out."""
    scaled = round(value * 10**places)
    sign = "-" if scaled < 0 else ""
    text = str(abs(scaled)).rjust(places + 1, "0")
    return f"{sign}{text[:-places]}.{text[-places:]}" if places else f"{sign}{text}"


def _rounded_exact(value: sympy.Expr, places: int) -> str:
    return _rounded(Fraction(str(sympy.N(value, places + 30))), places)


def _exact(read: _Read, digits: str) -> sympy.Expr | None:
    """The exact value of a printed decimal: what the member before it computes exactly, or
    the simple constant proofs.audit.deciding.readings reads it as; None when neither is known."""
    computed = _computed_before(read)
    if computed is not None and _agrees(computed, digits):
        return computed
    found = reading(digits)
    if found is None:
        return None
    try:
        value = Evaluator({})(parse(found.tex))
    except (TexError, ValueError, TypeError, KeyError):
        return None
    return value if isinstance(value, sympy.Expr) and _agrees(value, digits) else None


def _computed_before(read: _Read) -> sympy.Expr | None:
    """The exact value of the member before the number, when the number is a whole member
    and that member is exact arithmetic (no printed decimal)."""
    if read.prose:
        return None
    members, _ = split_relations(read.text)
    offset = 0
    for k, member in enumerate(members):
        begin = read.text.index(member, offset)
        offset = begin + len(member)
        if begin <= read.start and read.end <= offset:
            if k == 0 or member.strip() != read.text[read.start : read.end]:
                return None
            before = members[k - 1]
            if "." in before:
                return None
            try:
                value = Evaluator({})(parse(before))
            except (TexError, ValueError, TypeError, KeyError, AttributeError):
                return None
            return value if isinstance(value, sympy.Rational) else None
    return None


def _agrees(value: sympy.Expr, digits: str) -> bool:
    places = len(digits.split(".")[1])
    return _rounded_exact(value, places) == digits


def _tex(value: sympy.Expr) -> str:
    """An exact constant in the chapters' TeX: \\frac{7}{2}, \\sqrt{\\frac{7}{2}}, e^{...}."""
    return sympy.latex(value, fold_short_frac=False, root_notation=True).replace(r"\left", "")


def _fix(digits: str) -> str | None:
    """The neighbour one unit away in the last place that reads a simple constant."""
    places = len(digits.split(".")[1])
    unit = Fraction(1, 10**places)
    fixes = [
        _rounded(Fraction(digits) + step, places)
        for step in (unit, -unit)
        if reading(_rounded(Fraction(digits) + step, places)) is not None
    ]
    return fixes[0] if len(fixes) == 1 else None


def _misprinted(document: Document, chapter: str) -> set[str]:
    """The printed numbers the checks of the document's elements report misprinted."""
    return {
        finding.printed
        for _, element in registered_pairs(document, chapter)
        for finding in run_check(element).findings
    }


def mismatches(report: Report) -> set[tuple[str, int, str]]:
    """(section, line, text) of every mismatch of an audit."""
    return {(str(f.section), f.line, f.text) for f in report.mismatched}


def new_mismatches(
    report: Report, before: set[tuple[str, int, str]], rewrite: Rewrite
) -> list[str]:
    """The mismatches of a rewritten copy's audit that the chapter's own audit does not
    report, each as `line: section: text — detail`: with the rewrite's number read back as
    the original, a mismatch found before is not new."""
    out = []
    for f in report.mismatched:
        text = f.text.replace(rewrite.new, rewrite.old) if f.line == rewrite.line else f.text
        if (str(f.section), f.line, text) not in before and (
            str(f.section),
            f.line,
            f.text,
        ) not in before:
            out.append(f"{f.line}: {f.section}: {f.text} — {f.detail}")
    return out
