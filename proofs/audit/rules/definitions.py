"""A definition and what the chapter computes from it: when every statement tried with a
definition (proofs.audit.deciding.instances) is false and none holds, the definition and
those statements cannot all hold, and the definition's own line says so.

A slip in 「$L(N, D) := E + A/N^{\\alpha} + B/D^{\\alpha}$」 shows first where the chapter
uses L: each step and each example worked from it is false at the definition's meaning.
Those statements are reported at their lines (EQ004); a reader fixing them one by one
would fix the wrong lines. The definition is named at its line, with the lines whose
statements contradict it and their witnesses: in two elements or more, an error (they
cannot all be slips that agree with one another against it, short of the definition
being wrong or every use slipped); in one example or exercise, a warning (one element's
slipped setting would make all its lines false alike, so which slipped, nothing tells).
A proposition's one statement about it is that statement's finding alone.

A table's column that a definition computes (TAB103: `$b$` beside `$e$` under `b :=
2^{e-1} - 1`) is one use: it contradicts the definition when most of its rows, two at
least, disagree with it, and holds when most agree (one slipped cell is that cell's). A
column false at every row, three at least, counts as that many false uses, and alone names
the definition with a warning (DEF002): its header's formula or the definition slipped.

A definition that a tried equality confirms is left alone, however many others are
false: those are the statements' slips, unless every false statement of the chapter reaches
it and they outnumber twice over those that hold (a holding use may be true whatever the
definition says: GELU' = Φ + xφ of a slipped φ). An inequality that holds
(「$1 - b \\le 0 \\le b$」) holds of many meanings and confirms none; nor does an equality
that holds whatever the name means (「$2^{b}(2 - 2^{-m}) = 2^{b+1} - 2^{b-m}$」, true of
any b): a number defined by a formula is decided in the open notation, every name a
free number, and an identity there is no support.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from proofs.audit.deciding.defined import Definition
from proofs.audit.deciding.notation import decide_open
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.reader import Document
from proofs.reader.math import split_relations

_USED = (
    "# 見本\n\n## 1. 関数\n\n"
    '<Definition id="def-f" title="f">\n\n$f(x) := {}$ と定める。\n\n</Definition>\n\n'
    '<Example id="ex-f2" title="f(2)">\n\n$f(2) = 5$ である。\n\n</Example>\n\n'
    '<Example id="ex-f3" title="f(3)">\n\n$f(3) = 10$ である。\n\n</Example>\n'
)
CONTRADICTED = Rule(
    "DEF001",
    "definition-contradicted-by-its-uses",
    Section.FORMULA,
    Severity.ERROR,
    "A definition the chapter computes with agrees with what it computes: when statements "
    "tried with it in two elements or more are false and none holds (or every false one "
    "reaches it and they outnumber twice over those that hold), the definition's line is "
    "named.",
    Example(_USED.format("x^2 - 1")),
    Example(_USED.format("x^2 + 1")),
)
_ONCE = (
    "# 見本\n\n## 1. 関数\n\n"
    '<Definition id="def-f" title="f">\n\n$f(x) := {}$ と定める。\n\n</Definition>\n\n'
    '<Example id="ex-f" title="f の値">\n\n$f(2) = 5$ である。\n\n</Example>\n'
)
CONTRADICTED_ONCE = Rule(
    "DEF002",
    "definition-contradicted-in-one-element",
    Section.FORMULA,
    Severity.WARNING,
    "A definition the chapter computes with in one example or exercise, or in a table's "
    "column, agrees with what it computes there: when the statements tried with it there are "
    "false and none holds anywhere (or the column is false at every row, three at least), "
    "the definition's line is named too (either may have slipped).",
    Example(_ONCE.format("x^2 - 1")),
    Example(_ONCE.format("x^2 + 1")),
)
RULES = (CONTRADICTED, CONTRADICTED_ONCE)

SHOWN = 3  # the contradicting lines a finding names, at most
MIN_FALSE = 3  # false uses a definition some uses hold needs to be named
MAJORITY = 2  # how many times its holding uses its false ones must outnumber
WHOLE_COLUMN = 3  # rows of a table column, all false, that count as that many false uses
_COMPUTING = ("example", "exercise")  # elements that compute from a definition at values


@dataclass(frozen=True)
class Use:
    """A statement tried with the chapter's definitions: its verdict, and the definitions
    its names reached."""

    finding: Finding
    definitions: tuple[Definition, ...]
    held: bool | None = None  # said by the use itself: a table column's rows, on the whole
    rows: int = 1  # the false statements it stands for: each row of a column false at all

    @property
    def supports(self) -> bool:
        """Whether it holds by what its names mean: a confirmed equality that is no
        identity of its names, each a free positive number (the open notation). An
        inequality that holds (「$1 - b \\le 0 \\le b$」) holds of many meanings. A
        table column says so itself (most of its rows agree with the definition)."""
        if self.held is not None:
            return self.held
        if self.finding.status != Status.CONFIRMED:
            return False
        if set(split_relations(self.finding.text)[1]) - {"=", r"\approx"}:
            return False
        return decide_open(self.finding.text)[0] != "confirmed"


def audit_definitions(tried: Iterable[Use], document: Document) -> list[Finding]:
    """The definitions every statement tried with them contradicts and none needing them
    confirms."""
    tried = list(tried)
    false: dict[Definition, list[Finding]] = {}
    for use in tried:
        if use.finding.status == Status.MISMATCHED:
            for definition in use.definitions:
                if use.finding.line != definition.line:
                    false.setdefault(definition, []).append(use.finding)
    held = {  # asked only of the uses of a contradicted definition: a correct chapter has none
        definition
        for use in tried
        if any(d in false for d in use.definitions) and use.supports
        for definition in use.definitions
    }
    shared = _shared_by_every_false_use(tried)
    by_line: dict[int, tuple[list[str], list[Finding]]] = {}
    for definition, findings in sorted(false.items(), key=lambda d: (d[0].line, d[0].name)):
        if definition in held and definition not in shared:
            continue
        line, name = definition.line, definition.name
        names, uses = by_line.setdefault(line, ([], []))
        names.append(name)
        uses += [f for f in findings if f not in uses]
    columns = {(use.finding.line, use.finding.text) for use in tried if use.rows > 1}
    found = (
        _finding(line, names, uses, document, columns) for line, (names, uses) in by_line.items()
    )
    return [f for f in found if f is not None]


def _shared_by_every_false_use(tried: list[Use]) -> set[Definition]:
    """The definition that every false statement reaches, when some statements tried with
    it hold too: it is named when its false uses are MIN_FALSE at least and more than
    MAJORITY times those that hold, and no other definition they all reach holds fewer
    (φ := … slipped: φ(3) reaches φ alone, Φ(1) and GELU(1) reach φ through Φ, and
    GELU' = Φ + xφ, true whatever φ is, holds). One slipped statement makes false uses
    in one element only, which DEF001 does not name."""
    false_uses = [u for u in tried if u.finding.status == Status.MISMATCHED and u.definitions]
    if sum(u.rows for u in false_uses) < MIN_FALSE:
        return set()
    common = set(false_uses[0].definitions).intersection(*(u.definitions for u in false_uses))
    holding = {d: sum(d in u.definitions and u.supports for u in tried) for d in common}
    falsified = {
        d: sum(u.rows for u in false_uses if d in u.definitions and u.finding.line != d.line)
        for d in common
    }
    named = {d for d in common if falsified[d] > MAJORITY * holding[d]}
    least = min((holding[d] for d in named), default=0)
    return {d for d in named if holding[d] == least}


def _finding(
    line: int,
    names: list[str],
    uses: list[Finding],
    document: Document,
    columns: set[tuple[int, str]],
) -> Finding | None:
    # uses in two elements at least: not one example's slipped setting that all its lines use
    elements = {document.element_at(f.line) for f in uses}
    if len(elements) >= 2:
        rule = CONTRADICTED
    elif all(e is not None and e.kind in _COMPUTING for e in elements) or any(
        (f.line, f.text) in columns for f in uses
    ):
        # in one element, or a table's column false at every row: its header's formula or
        # the definition slipped, which nothing tells
        rule = CONTRADICTED_ONCE
    else:
        return None  # one statement's claim about it: the statement's finding says it
    shown = "; ".join(
        f"line {f.line}, {f.text if f.section == Section.TABLE else f'${f.text}$'}: {f.detail}"
        for f in sorted(uses, key=lambda f: f.line)[:SHOWN]
    )
    more = f" (and {len(uses) - SHOWN} more)" if len(uses) > SHOWN else ""
    said = (
        "every statement tried with it is false, none holds"
        if rule is CONTRADICTED
        else "the statements tried with it, in one element, are false; either slipped"
    )
    return Finding(
        Section.FORMULA,
        line,
        ", ".join(names),
        Status.MISMATCHED,
        f"the definition of {', '.join(names)} and what the chapter computes from it cannot "
        f"all hold: {said}. {shown}{more}",
        code=rule.code,
    )
