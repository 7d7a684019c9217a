"""A definition and what the chapter computes from it: when every statement tried with a
definition (proofs.audit.deciding.instances) is false and none holds, the definition and
those statements cannot all hold, and the definition's own line says so.

A slip in 「$L(N, D) := E + A/N^{\\alpha} + B/D^{\\alpha}$」 shows first where the chapter
uses L: each step and each example worked from it is false at the definition's meaning.
Those statements are reported at their lines (EQ004); a reader fixing them one by one
would fix the wrong lines. The definition is named at its line, with the lines whose
statements contradict it and their witnesses: two or more, an error (they cannot all be
slips that agree with one another against it, short of the definition being wrong or
every use slipped); one, a warning (which of the two slipped, nothing tells).

A definition that a tried equality confirms is left alone, however many others are
false: those are the statements' slips. An inequality that holds (「$1 - b \\le 0 \\le b$」)
holds of many meanings and confirms none; nor does an equality that holds whatever the
name means (「$2^{b}(2 - 2^{-m}) = 2^{b+1} - 2^{b-m}$」, true of any b): a number defined
by a formula is decided in the open notation, every name a free number, and an identity
there is no support.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from proofs.audit.deciding.defined import Definition
from proofs.audit.deciding.notation import decide_open
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.reader.math import split_relations

_USED = (
    "# 見本\n\n## 1. 関数\n\n"
    '<Definition id="def-f" title="f">\n\n$f(x) := {}$ と定める。\n\n</Definition>\n\n'
    '<Example id="ex-f" title="f の値">\n\n$f(2) = 5$、$f(3) = 10$ である。\n\n</Example>\n'
)
CONTRADICTED = Rule(
    "DEF001",
    "definition-contradicted-by-its-uses",
    Section.FORMULA,
    Severity.ERROR,
    "A definition the chapter computes with agrees with what it computes: when two or more "
    "statements tried with it are false and none holds, the definition's line is named.",
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
    "definition-contradicted-by-its-one-use",
    Section.FORMULA,
    Severity.WARNING,
    "A definition the chapter computes with once agrees with what it computes there: when "
    "the one statement tried with it is false, the definition's line is named too (either "
    "may have slipped).",
    Example(_ONCE.format("x^2 - 1")),
    Example(_ONCE.format("x^2 + 1")),
)
RULES = (CONTRADICTED, CONTRADICTED_ONCE)

SHOWN = 3  # the contradicting lines a finding names, at most


@dataclass(frozen=True)
class Use:
    """A statement tried with the chapter's definitions: its verdict, and the definitions
    its names reached."""

    finding: Finding
    definitions: tuple[Definition, ...]

    @property
    def supports(self) -> bool:
        """Whether it holds by what its names mean: a confirmed equality that is no
        identity of its names, each a free positive number (the open notation). An
        inequality that holds (「$1 - b \\le 0 \\le b$」) holds of many meanings."""
        if self.finding.status != Status.CONFIRMED:
            return False
        if set(split_relations(self.finding.text)[1]) - {"=", r"\approx"}:
            return False
        return decide_open(self.finding.text)[0] != "confirmed"


def audit_definitions(tried: Iterable[Use]) -> list[Finding]:
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
    by_line: dict[int, tuple[list[str], list[Finding]]] = {}
    for definition, findings in sorted(false.items(), key=lambda d: (d[0].line, d[0].name)):
        if definition in held:
            continue
        line, name = definition.line, definition.name
        names, uses = by_line.setdefault(line, ([], []))
        names.append(name)
        uses += [f for f in findings if f not in uses]
    return [_finding(line, names, uses) for line, (names, uses) in by_line.items()]


def _finding(line: int, names: list[str], uses: list[Finding]) -> Finding:
    statements = {(f.line, f.text) for f in uses}
    rule = CONTRADICTED if len(statements) >= 2 else CONTRADICTED_ONCE
    shown = "; ".join(
        f"line {f.line}, ${f.text}$: {f.detail}" for f in sorted(uses, key=lambda f: f.line)[:SHOWN]
    )
    more = f" (and {len(uses) - SHOWN} more)" if len(uses) > SHOWN else ""
    said = (
        "every statement tried with it is false, none holds"
        if rule is CONTRADICTED
        else "the one statement tried with it is false; one of the two slipped"
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
