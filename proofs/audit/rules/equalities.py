"""The audit of a chapter's numeric equalities: each side recomputed at the printed
precision by proofs.tex.arithmetic; they must agree within the printed rounding."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, ClassVar

import mpmath
import sympy
from mpmath import iv

from proofs.audit.deciding.defined import Notation, read_notation, with_bounds, with_cases
from proofs.audit.deciding.instances import try_statement
from proofs.audit.deciding.notation import OpenFacts, decide_open, set_name
from proofs.audit.deciding.readings import DECIMAL, read_exactly, reading
from proofs.audit.deciding.sentence import (
    LARGE_LITERAL,
    cases_before,
    condition_in_sentence,
    condition_of,
    is_assumed,
    is_case,
    is_conjoined,
    is_hypothesis,
    is_label,
    is_premise,
    is_setting,
    is_solved,
    percent_after,
    premised_before,
    regime_before,
    title_settings,
)
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.audit.rules.definitions import Use, audit_definitions
from proofs.audit.rules.statements import notation_at
from proofs.book.claims import normalise_tex
from proofs.reader import Document
from proofs.reader.math import split_relations, statement_lines
from proofs.reader.records import THEORY_KINDS as DECIDED_KINDS
from proofs.reader.records import Element
from proofs.tex.arithmetic import (
    MAX_DIGITS,
    NotNumeric,
    TexArithmetic,
    TooLarge,
    Value,
    evaluate,
    gap,
    meet,
    show,
)
from proofs.tex.decide import decide_once
from proofs.tex.intervals import midpoint
from proofs.tex.symbolic import Evaluator
from proofs.tex.tree import Node, TexError

_PROSE = '# 見本\n\n<Remark id="rem-sum" title="和">\n\n足し算を確かめます。\n\n</Remark>\n\n{}\n'
RECOMPUTED = Rule(
    "EQ001",
    "numeric-equality",
    Section.EQUALITY,
    Severity.ERROR,
    "Each numeric equality of the prose and display math holds: its sides, recomputed in "
    "interval arithmetic from the numbers as printed, meet within the printed precision.",
    Example(_PROSE.format("$2 \\times 384 = 786$ 個です。")),
    Example(_PROSE.format("$2 \\times 384 = 768$ 個です。")),
)
PRINTED_PRECISION = Rule(
    "EQ002",
    "printed-result-at-face-value",
    Section.EQUALITY,
    Severity.WARNING,
    "A printed result is what its printed inputs give at face value, or with the exact "
    "constants they round (1.4142 as √2), or an exact member before it in the chain; else a "
    "printed number's last digit slipped. Under ≈, printed factors beside a product or "
    "quotient of the same shape each round the factor they face.",
    Example(_PROSE.format("$1.1428 + 0.2857 = 1.4286$ です。")),
    Example(_PROSE.format("$1.1429 + 0.2857 = 1.4286$ です。")),
)
NOTATION = Rule(
    "EQ003",
    "equality-in-the-notation",
    Section.EQUALITY,
    Severity.ERROR,
    "An equality of symbols in a definition, proposition, lemma, theorem, corollary or "
    "remark of a chapter with a package holds in the package's notation, with the "
    "definitions made earlier in its element.",
    Example(
        chapter="self-attention",
        line=65,
        old=r"\sum_{j=1}^{n} e^{z_j}",
        new=r"\sum_{j=1}^{n} e^{z_i}",
    ),
    Example(
        chapter="transformer-block",
        line=90,
        old=r"\|\boldsymbol{y}\| = \sqrt{d}",
        new=r"\|\boldsymbol{y}\| = d^{1/2}",
    ),
)
_DEFINED = (
    "# 見本\n\n## 1. 関数\n\n"
    '<Definition id="def-f" title="f">\n\n$f(x) := x^2 + 1$ と定める。\n\n</Definition>\n\n'
    '<Example id="ex-f" title="f の値">\n\n$f(2) = {}$ である。\n\n</Example>\n'
)
AT_POINTS = Rule(
    "EQ004",
    "statement-at-points",
    Section.EQUALITY,
    Severity.ERROR,
    "A statement about what a chapter without a package defines holds when its names take "
    "the chapter's own definitions, tried at points of the space the chapter states; in an "
    "example or an exercise, at the values the text sets, an approximation ≈ within half a "
    "unit of its printed result.",
    Example(_DEFINED.format("6")),
    Example(_DEFINED.format("5")),
)
_STEP = (
    "# 見本\n\n## 1. 展開\n\n"
    '<Proposition id="prop-square" title="和の平方">\n\n$(a + b)^2 = {}$ である。\n\n'
    "</Proposition>\n"
)
OPEN = Rule(
    "EQ005",
    "equality-in-the-open-notation",
    Section.EQUALITY,
    Severity.ERROR,
    "In a chapter without a package, a step of a chain of equalities between the same "
    "quantities is an identity, every name a positive number.",
    Example(_STEP.format("a^2 + b^2")),
    Example(_STEP.format("a^2 + 2ab + b^2")),
)
RULES = (RECOMPUTED, PRINTED_PRECISION, NOTATION, AT_POINTS, OPEN)


_LITERAL = re.compile(
    r"\s*-?\s*\d+(?:\{,\}\d{3})*(?:\.\d+)?\s*(?:\\times\s*10\^\{?-?\d+\}?)?\s*(?:\\%)?\s*"
)
_BARE_SYMBOL = re.compile(r"\s*([A-Za-z])(?:_\{?\\?(?:mathrm\{)?([A-Za-z]+)\}?\}?)?\s*")
# a named quantity the text sets or states (σ = 1.8708, |V| = 10, z = (1, 2, 0.5)):
_NAMED = re.compile(
    r"\s*(?:\\boldsymbol\{[A-Za-z]\}'?|\\[A-Za-z]+|[A-Za-z]|\|[A-Za-z]\||\\\|\\boldsymbol\{[a-z]\}\\\|)"
    r"(?:_\{(?:[^{}]|\{[^{}]*\})*\}|_[A-Za-z0-9])?(?:\^\{(?:[^{}]|\{[^{}]*\})*\}|\^[0-9])?\s*"
)


# a power of a whole number: after ≈, it stands for what rounds to it in the exponent
_POWER = re.compile(r"\s*(\d+)\s*\^\s*\{?\s*(-?\d{1,4})\s*\}?\s*")


def _beside_approx(segment: list[tuple[str, str]], k: int) -> bool:
    """Whether member k of a segment stands right before or after ≈."""
    around = [segment[k][1] if k else "="]
    around += [segment[k + 1][1]] if k + 1 < len(segment) else []
    return any(r in (r"\approx", r"\simeq") for r in around)


def _beside_a_fine_decimal(segment: list[tuple[str, str]], k: int) -> bool:
    """Whether a member next to member k across ≈ is a printed decimal of at least
    FINE_DIGITS significant digits (「$2^{-11} \\approx 4.883 \\times 10^{-4}$」): the power
    is then what the decimal rounds, not a rounded exponent."""
    neighbours = [k - 1] if k and segment[k][1] != "=" else []
    neighbours += [k + 1] if k + 1 < len(segment) and segment[k + 1][1] != "=" else []
    for j in neighbours:
        decimal = DECIMAL.search(segment[j][0]) if _LITERAL.fullmatch(segment[j][0]) else None
        if decimal is not None and len((decimal[1] + decimal[2]).lstrip("0")) >= FINE_DIGITS:
            return True
    return False


FINE_DIGITS = 3  # significant digits of a decimal that rounds a power, not its exponent


def _power_about(member: str) -> Value | None:
    """`2^{30}` beside ≈ (「$1{,}073{,}217{,}536 \\approx 2^{30}$」): the values whose power of 2
    rounds to 30, from 2^{29.5} to 2^{30.5}, as 約 530 stands for 525 to 535; None for another
    member."""
    power = _POWER.fullmatch(member)
    if power is None or int(power.group(1)) < 2:
        return None
    base, exponent = iv.mpf(int(power.group(1))), iv.mpf(int(power.group(2)))
    low, high = base ** (exponent - iv.mpf(0.5)), base ** (exponent + iv.mpf(0.5))
    return Value.scalar(iv.mpf([low.a, high.b]))


def _about_a_power(line: int, pair: str, power: str, other: Value, holds: bool) -> Finding:
    """The finding of 「… ≈ 2^{30}」: the other side within the power's rounding or not."""
    match = _POWER.fullmatch(power)
    assert match is not None
    base, exponent = match.group(1), int(match.group(2))
    where = f"between {base}^{exponent - 0.5:g} and {base}^{exponent + 0.5:g}"
    return Finding(
        Section.EQUALITY,
        line,
        pair,
        Status.CONFIRMED if holds else Status.MISMATCHED,
        f"{show(other)} {'lies' if holds else 'does not lie'} {where}, what ≈ "
        f"{power.strip()} stands for (its exponent rounded)",
        code=RECOMPUTED.code,
    )


def _integer_literals(members: list[str]) -> list[str]:
    """The members that are one integer as printed (768, 1{,}024) of at most MAX_DIGITS
    digits: what a setting `d = 768` binds."""
    return [
        m
        for m in members
        if re.fullmatch(r"\s*\d+(?:\{,\}\d{3})*\s*", m) and sum(map(str.isdigit, m)) <= MAX_DIGITS
    ]


def audit_equalities(
    document: Document,
    environment: Callable[[str], Evaluator] | None = None,
    bound: frozenset[tuple[int, str]] = frozenset(),
    open_notation: bool = False,
    owned: frozenset[tuple[int, str]] = frozenset(),
    table_uses: Sequence[Use] = (),
) -> list[Finding]:
    """Every numeric equality of the document's formulas; a setting such as `d = 768`
    binds d for the rest of its line. An equality of symbols that is not arithmetic on
    numbers, in the statement or proof of a definition, proposition, lemma, theorem,
    corollary or remark, is decided in the chapter's notation (proofs.tex.decide) with the
    definitions `S := …` made earlier in the same element, when it relates no printed
    number to symbols (a number the text sets elsewhere, `4d^2 + 4d = 288`, cannot be
    judged alone); an example's or exercise's settings are its check's. A chapter with
    no notation (`open_notation`: none registered) has the chains of equalities of its
    elements, examples and exercises included, decided in the open notation
    (proofs.audit.deciding.notation).

    `bound`: the (line, statement) of the relations a claim of a check states; `owned`:
    those whose printed numbers the check reads and judges against their exact values. A
    printed number of an owned relation is the check's to judge: the rule still says when
    no choice of its printed inputs within their rounding makes the relation hold (a
    witness), but not that a last digit slipped because the relation fails at face value
    (1.143 for 8/7 in a sum that must be 4 is a correct rounding, which the check knows)."""
    findings: list[Finding] = []
    settings_by_line: dict[int, Settings] = {}
    recomputed: dict[tuple[str, int, bool], list[Finding]] = {}
    defined: dict[int, Definitions] = {}  # element line -> names it defines
    facts: dict[int, OpenFacts] = {}  # element line -> names it sets (the open notation)
    defined_in_chapter = OpenFacts()  # what the chapter's definitions name, for what follows
    chapter_notation = functools.cache(lambda: read_notation(document))  # read once, if asked
    uses = list(table_uses)  # the statements (and table columns) tried with the definitions
    for formula in document.math:
        settings = settings_by_line.setdefault(formula.line, Settings())
        element = document.element_at(formula.line)
        names = defined.setdefault(element.line if element else 0, Definitions())
        in_example = element is not None and element.kind in ("example", "exercise")
        statements = statement_lines(formula.line, formula.tex)
        # 「$t = 8 - j = 4, 3, 2, 1, 0$ に対する」: the values a name runs over, no claim
        listed = any(_LITERAL.fullmatch(st.rstrip(".,")) for _, st in statements[1:])
        for line, statement in statements:
            hypothesis = (
                listed
                or is_label(document, line, statement.strip())
                or is_premise(document, line, statement.strip())
                or is_assumed(document, line, statement.strip())
                or (
                    not formula.display
                    and is_hypothesis(document, line, statement.strip())
                    and not _is_numeric_setting(statement)
                )
            )
            relation = (line, normalise_tex(statement))
            # 「$… \\approx 0.79$ %」: the percent sign after the formula is its last number's
            printed = statement + r"\%" if percent_after(document, line, statement) else statement
            found = _audit_once(recomputed, line, printed, settings, relation in owned)
            key = element.line if element else 0
            if key not in facts:
                facts[key] = _element_facts(document, element, defined_in_chapter, open_notation)
            known = facts[key]
            if open_notation and (
                ":=" in statement or (hypothesis and is_setting(document, line, statement.strip()))
            ):
                known.learn(statement)
                if element is not None and element.kind == "definition":
                    defined_in_chapter.learn(statement, chapter_wide=True)
            if (
                hypothesis
                and open_notation
                and len(split_relations(statement)[1]) >= 2
                and is_conjoined(document, line, statement.strip())
                and known.ranges_every_sum(statement)
            ):
                hypothesis = False  # 「$A = B = C$ で、」: a derivation, decided as one
            if (
                hypothesis
                and open_notation
                and element is not None
                and element.kind in ("example", "exercise")
                and _is_result(statement)
                and is_conjoined(document, line, statement.strip())
            ):
                hypothesis = False  # 「$2B(A\boldsymbol{x}) = (-1, 0, -2)^T$ で、」: a result
            if (
                hypothesis
                and open_notation
                and is_conjoined(document, line, statement.strip())
                and _in_a_case(document, line, statement, chapter_notation)
            ):
                hypothesis = False  # 「（$d_{\\mathrm{in}} = d$）では $\\rho = 2r/d$ で、」
            if listed:  # the values of a name as it runs, no relation of one value
                continue
            if hypothesis:  # a setting or a hypothesis (「$\\pi(1) = 2$ … とすると」) claims
                # nothing of its symbols, but its arithmetic on numbers (「… = 0.30 で、」) holds;
                # an equation solved holds at no value the line set before (「$x = 3$ では
                # …、$x\\tanh(x/2) = 2$ の正の解」)
                if not is_solved(document, line, statement.strip()):
                    findings.extend(f for f in found if f.status != Status.NOT_CHECKABLE)
                # 「$t = W + N/2 = 5{,}250$ では」 in an example: its working holds, with
                # the values the example sets
                worked = _worked_value(statement)
                if worked is not None and open_notation and in_example:
                    found = _decided_open(line, worked, [], known)
                    findings.extend(f for f in found if f.status != Status.NOT_CHECKABLE)
                continue
            if relation in bound:  # a claim of a check, which the
                findings.extend(f for f in found if f.status != Status.NOT_CHECKABLE)  # claims'
                continue  # audit judged; its arithmetic is still recomputed here
            too_large = any(f.detail.startswith("too large") for f in found)
            symbolic = any(f.status == Status.NOT_CHECKABLE for f in found)
            worked_out = symbolic and r"\approx" in statement
            between = element is None  # the prose between elements
            claimed = _after_definition(statement)
            if open_notation and between and not too_large and worked_out:
                # there, a value worked out to a printed number only
                notation = chapter_notation()(line)
                found = _tried(line, statement, found, notation, None, uses) or found
            elif open_notation and between and not too_large and claimed not in (None, statement):
                # and what a definition written there claims of it: 「$E_\gamma(\alpha) :=
                # \sum_{k=0}^{\gamma}\alpha^k = \frac{1 - \alpha^{\gamma+1}}{1 - \alpha}$」
                assert claimed is not None
                notation = chapter_notation()(line)
                found = _tried(line, claimed, found, notation, None, uses) or _decided_open(
                    line, claimed, found, known
                )
            elif open_notation and not too_large and (symbolic or not found):
                conditional, _ = condition_of(document, line, statement.strip())
                case = known.copy()
                notation = chapter_notation()(line)
                case.bounds = notation.ranges
                cases = cases_before(document, line, statement.strip())
                # 「$\\lambda = 0.1$ なら」: the number a case sets, for the rest of its sentence
                learned = [c for c in cases if case.learn(c) or case.learn_number(c)]
                assumed = {set_name(c) for c in learned}
                # 「$u = \pi$ では …、$u = \pi/2$ で」: another case, not a claim about u
                cased = assumed | {set_name(c) for c in cases}
                another_case = set_name(statement) in cased - {None}
                regime = regime_before(document, line, statement.strip())
                limit = regime is not None and r"\to" in split_relations(statement)[1]
                # 「$\\boldsymbol{m} = (1, 0, 1, 1)$ のとき $D_p(\\boldsymbol{x}) = (…)$」: worked
                # at the values the sentence's cases set
                in_case = with_cases(notation, cases) if cases and not limit else None
                # 「$x > 0$ のとき $0 < x - \mathrm{SiLU}(x) < x\,e^{-x}$」: tried where the
                # case holds, when the sentence's own condition is one of its cases
                bounded = (
                    with_bounds(notation, cases)
                    if cases and not limit and in_case is None and not assumed
                    else None
                )
                if conditional and bounded is not None:
                    own = condition_in_sentence(document, line, statement.strip())
                    bounded = bounded if own is not None and own in cases else None
                if (
                    not conditional or assumed or limit or in_case or bounded is not None
                ) and not another_case:
                    tried = (
                        _tried(line, claimed, found, in_case[0], element, uses, in_case[1])
                        if in_case is not None and claimed is not None
                        else None
                        if assumed or limit or claimed is None
                        else _tried(line, claimed, found, notation, element, uses)
                        if bounded is None
                        else _tried(
                            line, claimed, found, bounded[0], element, uses, bounded=bounded[1]
                        )
                    )
                    if tried is not None:
                        found = tried
                    elif not conditional or bounded is None:  # the open notation knows no
                        # an inline inequality no premise of its sentence bounds is judged
                        ordered = not formula.display and not premised_before(
                            document, line, statement.strip()
                        )
                        found = _decided_open(
                            line, statement, found, case, regime, learned, ordered
                        )

            elif (
                environment is not None
                and element is not None
                and element.kind in DECIDED_KINDS
                and not too_large
                and (symbolic or ":=" in statement)
            ):
                conditional, given = condition_of(document, line, statement.strip())
                if not conditional or given is not None:
                    found = _decided(
                        line, statement, found, environment, element.number, names, given
                    )
            findings.extend(found)
    return findings + audit_definitions(uses, document)


def _element_facts(
    document: Document, element: Element | None, chapter: OpenFacts, open_notation: bool
) -> OpenFacts:
    """An element's facts to start from: what the chapter's definitions so far name and,
    under the open notation, the equalities its statements state (Σ_i σ_i = 1 in its
    proof), which a step elsewhere in it may use."""
    facts = chapter.copy(same_element=False)
    if open_notation and element is not None:
        last = element.proof[1] if element.proof else element.statement[1]
        for m in document.math_in(element.line, last):
            for _, statement in statement_lines(m.line, m.tex):
                facts.state(statement)
        if element.kind in ("example", "exercise"):
            for name, value in _set_once(document, element, last).items():
                facts.learn_number(f"{name} = {value}")
    return facts


def _set_once(document: Document, element: Element, last: int) -> dict[str, int]:
    """The names an example or an exercise sets to an integer (「$n = 2048$、$m = d = 128$
    のとき」 in its statement, for its solution; 「T = 20、E = 4 で…」 in its title), each
    set to one value only in it: a name
    set to two (「$d = 512$ と $d = 768$ で」) or in a case of one sentence (「$T = 1$ では」)
    is no setting of the element."""
    values: dict[str, set[int]] = {}
    for statement in title_settings(element.title):  # 「T = 20、E = 4、k = 2 で…」
        setting = _setting(*split_relations(statement))
        if setting is not None:
            for name in setting[0]:
                values.setdefault(name, set()).add(setting[1])
    for m in document.math_in(element.line, last):
        if m.display:
            continue
        for line, statement in statement_lines(m.line, m.tex):
            setting = _setting(*split_relations(statement))
            if setting is None:
                continue
            names, value = setting
            for name in names:
                chosen = values.setdefault(name, set())
                chosen.add(value)
                if is_case(document, line, statement.strip()):
                    chosen.add(-1)  # a case of its sentence: not one value for the element
    return {name: chosen.pop() for name, chosen in values.items() if len(chosen) == 1}


class Settings:
    """A line's sizes set so far (`d = 768` binds d for the rest of the line) and a key
    for them: two lines that set the same sizes in the same order have the same key. Each
    setting moves the key through one table, so keeping it costs O(1) per setting, where
    spelling the settings out for each statement would cost O(settings) per statement.

    A name set again to another value (「$T = 1$ で …、$T = 0.5$ で …」) takes several
    values on the line: it is bound to none of them from then on, so that a relation
    using it (an equation to solve for it) is not judged at whichever value came last.
    Set again after a relation used it (「$b = 10{,}000$ では $\\log b \\approx 9.2103$、
    $b = 500{,}000$ では $\\log b \\approx 13.1224$」), it is bound to the new value: the
    line takes its cases one after the other."""

    _steps: ClassVar[dict[tuple[int, str, int | None, bool], int]] = {}

    def __init__(self) -> None:
        self.values: dict[str, int] = {}
        self.varying: set[str] = set()
        self.used: set[str] = set()  # bound names a relation used since they were set
        self.key = 0

    def set(self, name: str, value: int | None) -> None:
        """Bind `name` to `value`; a second value (None: one not an integer) leaves it
        varying and unbound, unless a relation used the first one."""
        if name in self.varying:
            return
        again = name in self.values and self.values[name] != value
        if value is None or again and name not in self.used:
            self.values.pop(name, None)
            self.varying.add(name)
        else:
            self.values[name] = value
        self.used.discard(name)
        step = (self.key, name, value, again and name in self.values)
        self.key = self._steps.setdefault(step, len(self._steps) + 1)

    def use(self, statement: str) -> None:
        """Note the bound names a relation uses."""
        for name in self.values.keys() - self.used:
            base, _, below = name.partition("_")
            written = re.escape(base) + (rf"_\{{?{re.escape(below)}\}}?" if below else "")
            if re.search(rf"(?<![A-Za-z\\]){written}(?![A-Za-z])", statement):
                self.used.add(name)

    def bound(self, name: str) -> bool:
        return name in self.values or name in self.varying


class Definitions:
    """An element's definitions so far (`S := …` names a value for what follows) and a
    key for them, equal for equal definitions however they were made: the formulas of an
    element met again under the same definitions (a chapter repeated) are decided once.
    The key is made once per definition, not once per formula decided."""

    _keys: ClassVar[dict[frozenset[tuple[str, str]], int]] = {}

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self._shown: dict[str, str] = {}
        self.key = self._keys.setdefault(frozenset(), len(self._keys))

    def define(self, name: str, value: Any) -> None:
        self.values[name] = value
        self._shown[name] = str(value)
        self.key = self._keys.setdefault(frozenset(self._shown.items()), len(self._keys))


def _audit_once(
    recomputed: dict[tuple[str, int, bool], list[Finding]],
    line: int,
    statement: str,
    settings: Settings,
    owned: bool = False,
) -> list[Finding]:
    """audit_statement, computed once for a statement met again under the same settings
    (a chapter repeating a line thousands of times is audited in the time of one)."""
    setting = _setting_of(statement)
    if setting is not None:  # binds its symbols; audit_statement would find nothing
        names, value = setting
        for name in names:
            settings.set(name, value)
        return []
    named = _named_value_of(statement)
    if named is not None and any(settings.bound(name) for name in named):
        for name in named:  # set again, to a value that is not an integer: now varying
            settings.set(name, None)
        return []
    again = _set_again(statement, settings)
    if again is not None:  # 「$C = 2$ …、$C = \lceil 1 \rceil = 1$」: another case of C
        settings.set(again, None)
    settings.use(statement)
    key = (statement, settings.key, owned)
    if key not in recomputed:
        recomputed[key] = audit_statement(line, statement, settings.values, owned)
        return recomputed[key]
    return [replace(f, line=line) for f in recomputed[key]]


def _worked_value(statement: str) -> str | None:
    """What a case or a setting works out for its name (`W + N/2 = 5{,}250` of `t = W +
    N/2 = 5{,}250`): the chain after the name, of equalities only; None for any other."""
    members, relations = split_relations(statement)
    if len(members) < 3 or any(r != "=" for r in relations) or not _NAMED.fullmatch(members[0]):
        return None
    return " = ".join(m.strip() for m in members[1:])


def _set_again(statement: str, settings: Settings) -> str | None:
    """The name a statement gives a value again, computed from numbers alone
    (`C = \\lceil 1 \\rceil = 1` after `C = 2` on the line), printed first (`n = 1024 =
    2w` after `n = 8192`) or last (`m = 4p = 32` after `m = 63`); None for any other
    statement."""
    members, relations = split_relations(statement)
    first = _BARE_SYMBOL.fullmatch(members[0]) if members else None
    if first is None or not relations or any(r != "=" for r in relations):
        return None
    name = first.group(1) + (f"_{first.group(2)}" if first.group(2) else "")
    if name not in settings.values:
        return None
    if _LITERAL.fullmatch(members[1]) or (len(members) > 2 and _LITERAL.fullmatch(members[-1])):
        return name  # 「$n = 1024 = 2w$ では」「$m = 4p = 32$ でも」: another case of n, m
    names = [re.sub(r"\\[A-Za-z]+", "", m) for m in members[1:]]
    return None if any(re.search("[A-Za-z]", m) for m in names) else name


@functools.lru_cache(maxsize=1 << 12)
def _setting_of(statement: str) -> tuple[tuple[str, ...], int] | None:
    return _setting(*split_relations(statement))


@functools.lru_cache(maxsize=1 << 12)
def _named_value_of(statement: str) -> tuple[str, ...] | None:
    """The symbols a statement gives one printed number (`T = 0.5`, `T = 1/2`, `x \\approx
    2.3994`): every member a bare symbol but one literal; None for any other statement."""
    members, relations = split_relations(statement)
    symbols = [_BARE_SYMBOL.fullmatch(m) for m in members]
    literals = [m for m in members if _LITERAL.fullmatch(m)]
    if not (
        relations
        and all(r in ("=", r"\approx") for r in relations)
        and len(literals) == 1
        and sum(s is not None for s in symbols) == len(members) - 1
    ):
        return None
    return tuple(s.group(1) + (f"_{s.group(2)}" if s.group(2) else "") for s in symbols if s)


def _setting(members: list[str], relations: list[str]) -> tuple[tuple[str, ...], int] | None:
    """The symbols a setting binds and their value: every member a bare symbol but one
    integer literal (`d = d_k = 64`); None for any other statement."""
    symbols = [_BARE_SYMBOL.fullmatch(m) for m in members]
    integers = _integer_literals(members)
    if not (
        relations
        and all(r == "=" for r in relations)
        and len(integers) == 1
        and sum(s is not None for s in symbols) == len(members) - 1
    ):
        return None
    names = tuple(
        s.group(1) + (f"_{s.group(2)}" if s.group(2) else "") for s in symbols if s is not None
    )
    return names, int(integers[0].replace("{,}", ""))


def _is_numeric_setting(statement: str) -> bool:
    """`d = 768`, `|V| = 10`: a size set to an integer, which the evaluator binds for the
    rest of its line (audit_statement's bindings)."""
    members, relations = split_relations(statement)
    integers = _integer_literals(members)
    symbols = [m for m in members if _BARE_SYMBOL.fullmatch(m)]
    return bool(relations) and len(integers) == 1 and len(symbols) == len(members) - 1


def _decided(
    line: int,
    statement: str,
    found: list[Finding],
    environment: Callable[[str], Evaluator],
    number: str,
    names: Definitions,
    given: Node | None,
) -> list[Finding]:
    """The not-checkable findings of a statement replaced by its decision in the notation."""
    if LARGE_LITERAL.search(statement):
        return found
    verdict = decide_once(
        (id(environment), notation_at(number), names.key),
        statement.strip(),
        lambda: environment(number).bound(**names.values),
        given,
    )
    if verdict.binds is not None:  # a definition: it names a value for what follows
        name, value = verdict.binds
        current = names.values.get(name, environment(number).names.get(name))
        if callable(current):  # μ := μ(x): μ the value, μ(y) still the function
            names.define(f"{name}()", current)
        names.define(name, value)
        return [f for f in found if f.status != Status.NOT_CHECKABLE]
    if verdict.status == "not checkable":
        return [
            replace(f, detail=f"{f.detail}; in the notation: {verdict.detail}")
            if f.status == Status.NOT_CHECKABLE
            else f
            for f in found
        ]
    kept = [f for f in found if f.status != Status.NOT_CHECKABLE]
    return kept + [
        Finding(
            Section.EQUALITY,
            line,
            statement.strip(),
            Status(verdict.status),
            f"decided in the notation: {verdict.detail}",
            code=NOTATION.code,
        )
    ]


_TRANSPOSE = re.compile(r"\^\{?\\mathsf\{T\}\}?")  # (1, 0, 2)^T: the column it prints


def _in_a_case(
    document: Document,
    line: int,
    statement: str,
    chapter_notation: Callable[[], Callable[[int], Notation]],
) -> bool:
    """Whether the statement's sentence assumes a case before it that sets values or makes
    names one: what it says with 「で、」 then is a claim in that case, not a setting."""
    cases = cases_before(document, line, statement.strip())
    return bool(cases) and with_cases(chapter_notation()(line), cases) is not None


def _is_result(statement: str) -> bool:
    """A computation worked to a printed value (`2B(A\\boldsymbol{x}) = (-1, 0, -2)`,
    `g(x + c) \\approx 11.31`): one relation, = or ≈, whose left side is no bare name
    (`d = 8` sets d) and whose right side is printed numbers."""
    members, relations = split_relations(statement)
    return (
        relations in (["="], [r"\approx"])
        and _BARE_SYMBOL.fullmatch(members[0].strip()) is None
        and _is_printed(_TRANSPOSE.sub("", members[1]).strip())
    )


def _after_definition(statement: str) -> str | None:
    """What a statement claims: all of it, or what follows its definition (`f(x) :=
    \\sqrt{…} = \\|x\\|/\\sqrt{d}` claims the equality after it); None when it claims
    nothing but the definition."""
    members, relations = split_relations(statement)
    if ":=" not in relations:
        return statement
    if relations[0] != ":=" or len(relations) < 2 or ":=" in relations[1:]:
        return None
    tail = [members[1].strip()]
    for relation, member in zip(relations[1:], members[2:], strict=True):
        tail += [relation, member.strip()]
    return " ".join(tail)


def _tried(
    line: int,
    statement: str,
    found: list[Finding],
    notation: Notation,
    element: Element | None,
    uses: list[Use],
    concrete: bool = False,
    bounded: frozenset[str] = frozenset(),
) -> list[Finding] | None:
    """The statement tried at points with the chapter's own definitions
    (proofs.audit.deciding.instances), at the values the text sets in an example or an exercise:
    a mismatch with its witness, or confirmed numerically; None when it was not tried or
    nothing was decided, for the open notation to decide. `bounded`: the names whose range
    the statement's sentence states (「$x > 0$ のとき」), drawn in it; a point there where
    the statement is false is a witness, though it holds at others (for small x, say),
    when the witness is made of them only."""
    # an example's statement, or a value worked out to a printed number anywhere
    # (「$\\varphi(3) \\approx 0.004432$」): at the values the text sets, nothing left free
    concrete = (
        concrete
        or element is None
        or element.kind in ("example", "exercise")
        or r"\approx" in statement
    )
    tried = try_statement(statement.strip(), notation, concrete=concrete, cased=bounded)
    if isinstance(tried, str):
        return None
    witness = tried.judgement.witness
    if (
        tried.judgement.outcome == "partly"
        and witness is not None
        and {name for name, _ in witness.values} <= bounded
    ):
        tried = replace(tried, judgement=replace(tried.judgement, outcome="fails"))
        said = f"{tried.detail()}, where the case its sentence states holds"
    else:
        said = tried.detail()
    if tried.judgement.outcome not in ("fails", "holds"):
        return None
    status = Status.MISMATCHED if tried.judgement.outcome == "fails" else Status.CONFIRMED
    kept = [f for f in found if f.status != Status.NOT_CHECKABLE]
    verdict = Finding(Section.EQUALITY, line, statement.strip(), status, said, code=AT_POINTS.code)
    uses.append(Use(verdict, tried.uses))
    return [*kept, verdict]


def _decided_open(
    line: int,
    statement: str,
    found: list[Finding],
    facts: OpenFacts,
    regime: tuple[str, str] | None = None,
    cases: Sequence[str] = (),
    inequalities: bool = False,
) -> list[Finding]:
    """The not-checkable findings of a statement replaced by its decision in the open
    notation with its element's facts (and the regime 「$c \\to \\infty$ で」 its sentence
    states for a limit, the `cases` it assumes, named in the finding), when it is decided
    (a step it cannot judge keeps the reasons it had)."""
    status, detail = decide_open(statement, facts, regime, inequalities)
    if status == "not checkable":
        return found
    if cases:
        detail += f" (with {', '.join(c.strip() for c in cases)}, as its sentence assumes)"
    kept = [f for f in found if f.status != Status.NOT_CHECKABLE]
    return kept + [
        Finding(
            Section.EQUALITY,
            line,
            statement.strip(),
            Status(status),
            f"decided without the chapter's notation: {detail}",
            code=OPEN.code,
        )
    ]


def _is_printed(member: str) -> bool:
    """A printed result: a number, or a tuple of numbers, with nothing computed."""
    bare = re.sub(r"(?<!\\)\\[,;:! ]", " ", member).strip()
    matrix = re.fullmatch(r"\\begin\{pmatrix\}(.*)\\end\{pmatrix\}", bare, flags=re.S)
    if matrix:
        pieces = re.split(r"&|\\\\", matrix.group(1))
    elif bare.startswith("(") and bare.endswith(")"):
        pieces = bare[1:-1].split(",")
    else:
        pieces = [bare]
    return all(_LITERAL.fullmatch(piece) for piece in pieces)


def _at_printed_precision(
    m1: str,
    m2: str,
    v1: Value,
    v2: Value,
    bindings: dict[str, int],
    approximate: bool,
    exact_before: Sequence[tuple[str, Value]] = (),
) -> tuple[Status, str]:
    """The status and detail of a pair whose values meet within the rounding of every
    printed number, judged as the author meant it. A printed result (a number, a
    tuple) or an exact one (no decimal in it) must be what the other side gives with
    its printed inputs at face value, or else with the exact constants they round
    (proofs.audit.deciding.readings: 1.4142 as √2); if neither, the last digit of a printed
    number slipped. Under `≈` the side with decimals may stand off by half a unit of its
    finest decimal for each decimal it prints (2/16 + 4/7000 ≈ 0.125 + 0.000571: its
    terms are the exact side's, rounded), and so under `=` beside an exact side that no
    decimal can equal (`\\cos 3 + \\sin 3 = -0.9900 + 0.1411`). Two computed sides with
    decimals need only meet. `exact_before`: the members with no decimal before the pair in
    its chain; a printed result one of them gives is that member rounded."""

    def face(member: str) -> Value:
        return evaluate(member, bindings, False, face=True)

    by_factor = _factor_by_factor(m1, m2, bindings) if approximate else None
    if by_factor is not None:
        return by_factor
    rounded_terms = False
    if _is_printed(m2):
        computed, result, target = m1, m2, v2
    elif _is_printed(m1):
        computed, result, target = m2, m1, v1
    elif DECIMAL.search(m2) is None:  # an exact side: under ≈, decimals round its terms
        computed, result, target = m1, m2, face(m2)
        rounded_terms = approximate or _irrational(m2, bindings)
    elif DECIMAL.search(m1) is None:
        computed, result, target = m2, m1, face(m1)
        rounded_terms = approximate or _irrational(m1, bindings)
    else:
        f1, f2 = face(m1), face(m2)
        if meet(f1, f2):
            return Status.CONFIRMED, f"recomputed {show(f1)}"
        return Status.CONFIRMED, (
            f"holds only within the rounding of the printed inputs: at face "
            f"value the left side is {show(f1)}, the right side {show(f2)}"
        )
    at_face = face(computed)
    interval = v1 if computed is m1 else v2  # at the printed precision of its inputs
    # one rounded term (10{,}000 \times 8.2685 of 10{,}000 \times 8^{64/63}): its rounding,
    # scaled as the member scales it, is all the room there is
    alone = rounded_terms and len(DECIMAL.findall(computed)) == 1
    widened = interval if alone else _finest_rounding(computed, at_face)
    if meet(widened if rounded_terms else at_face, target):
        return Status.CONFIRMED, f"recomputed {show(at_face)}"
    said = f"with its printed inputs at face value ${computed.strip()}$ is {show(at_face)}"
    exact, readings = read_exactly(computed)
    if readings:
        value = face(exact)
        shown = ", ".join(f"{r.printed} as {r.shown}" for r in readings)
        if meet(value, target):
            return Status.CONFIRMED, f"holds with {shown} ({said})"
        said += f", and with {shown} it is {show(value)}"
    # 10{,}000 \times 8^{64/63} \approx 10{,}000 \times 8.2685 = 82{,}684.6: the result is
    # the chain's exact member rounded, worked from more digits than 8.2685 shows
    source = next((m for m, v in exact_before if meet(v, target)), None)
    if source is not None and _is_printed(result):
        return Status.CONFIRMED, f"{said}, but it is ${source.strip()}$ of the same chain, rounded"
    slip = _last_digit_slip(computed, target, face)
    return Status.MISMATCHED, (
        f"{said}; neither is the printed {result.strip()}: a printed "
        f"number's last digit slipped{slip}"
    )


# a printed factor stands for the exact factor it faces only this close (relatively): farther,
# the two sides are factored otherwise (12.4 \times 2 for 2 \times 12.4, a factor moved)
FACING = mpmath.mpf("0.01")


def _factor_by_factor(m1: str, m2: str, bindings: dict[str, int]) -> tuple[Status, str] | None:
    """Under `≈`, a product or quotient beside the same shape of printed numbers (`(e - 1)(e^2
    - 1) \\approx 1.7183 \\times 6.3891`, `\\log a/\\log 2 \\approx 0.09995/0.69315`): each
    printed factor is the rounding of the factor it faces, confirmed so (their product at face
    value may stand off by more than one rounding); one that is not, beside the others within
    FACING of theirs, is the slip, the value it faces the witness. None where the sides are
    not so shaped."""
    try:
        sides = [TexArithmetic(m, bindings) for m in (m1, m2)]
        factors = [_factors(side.tree()) for side in sides]
    except (NotNumeric, TooLarge):
        return None
    printed = [all(node.op == "num" for node, _ in f) for f in factors]
    if printed[0] == printed[1] or DECIMAL.search(m2 if printed[1] else m1) is None:
        return None  # neither side, or both, printed numbers only
    at = 1 if printed[1] else 0  # the side of printed numbers
    worked, shown = sides[1 - at], sides[at]
    left, right = factors[1 - at], factors[at]
    if len(left) < 2 or [p for _, p in left] != [p for _, p in right]:
        return None
    try:
        pairs = [
            (worked.arithmetic(a), b, shown.arithmetic(b))
            for (a, _), (b, _) in zip(left, right, strict=True)
        ]
    except (NotNumeric, TooLarge, TexError, TypeError, ValueError, ArithmeticError):
        return None
    if any(a.vector or b.vector for a, _, b in pairs):
        return None
    for a, _, b in pairs:
        x, y = mpmath.mpf(midpoint(a.items[0])), mpmath.mpf(midpoint(b.items[0]))
        if not x or abs(y / x - 1) > FACING:
            return None
    wrong = [(a, node) for a, node, b in pairs if not meet(a, b)]
    if not wrong:
        return Status.CONFIRMED, "each printed factor is the rounding of the one it faces"
    a, node = wrong[0]
    return Status.MISMATCHED, (
        f"the factor printed {node.token} stands for {show(a)}, which it does not round to "
        "(each other printed factor rounds the one it faces)"
    )


def _factors(node: Node, power: int = 1) -> list[tuple[Node, int]]:
    """The factors of a product or quotient, each with its power: 1 over, -1 under."""
    if node.op == "mul":
        return [f for arg in node.args for f in _factors(arg, power)]
    if node.op == "div":
        return _factors(node.args[0], power) + _factors(node.args[1], -power)
    return [(node, power)]


def _irrational(member: str, bindings: dict[str, int]) -> bool:
    """Whether an exact member is no rational number (`\\cos 3 + \\sin 3`, `\\sqrt{2}`; not
    `\\sqrt{4}`): no sum of decimals equals it, so decimals after it are its terms rounded."""
    try:
        value = TexArithmetic(member, bindings, symbolic=True).evaluate()
    except (NotNumeric, TooLarge):
        return False
    return any(not isinstance(item, sympy.Rational) for item in value.items)


def _finest_rounding(member: str, value: Value) -> Value:
    """The member's value at face value widened by half a unit of its finest printed
    decimal for each decimal it prints: what `≈` allows when each term is the exact
    side's own term rounded (2/16 + 4/7000 ≈ 0.125 + 0.000571), without taking a coarse
    term (0.125, ±0.0005) as room for a slip of a fine one (0.000517)."""
    places = [len(m.group(2)) for m in DECIMAL.finditer(member)]
    if not places:
        return value
    room = mpmath.mpf(len(places)) / (2 * mpmath.mpf(10) ** max(places))
    return Value(tuple(mpmath.iv.mpf([x.a - room, x.b + room]) for x in value.items), value.vector)


def _last_digit_slip(member: str, target: Value, face: Callable[[str], Value]) -> str:
    """Which printed decimal of the member, one unit up or down in its last place, makes
    it the target at face value: ' (with 1.1429 for 1.1428 it holds)', or ''. When
    several would, the one without an exact reading is the suspect (0.2857 rounds 2/7
    correctly; 1.1428 rounds nothing)."""
    fixes: list[tuple[str, bool]] = []
    for match in DECIMAL.finditer(member):
        whole, places = match.group(1), match.group(2)
        unit = Fraction(1, 10 ** len(places))
        for step in (unit, -unit):
            moved = Fraction(f"{whole}.{places}") + step
            if moved < 0:
                continue
            text = f"{moved.numerator * 10 ** len(places) // moved.denominator}"
            text = f"{text[: -len(places)] or '0'}.{text[-len(places) :].rjust(len(places), '0')}"
            trial = member[: match.start(1)] + text + member[match.end(2) :]
            try:
                if meet(face(trial), target):
                    fixes.append((f"{text} for {match.group(0)}", reading(match.group(0)) is None))
            except NotNumeric:
                continue
    suspects = (
        [fix for fix, unread in fixes if unread] if len(fixes) > 1 else [fix for fix, _ in fixes]
    )
    return f" (with {suspects[0]} it holds)" if len(suspects) == 1 else ""


# a number times a name, the name last: 「$\sqrt{128}\,c \approx 11.31\,c$」
_TIMES_A_NAME = re.compile(
    r"^(?P<number>.*?[\d})])\s*(?:\\[,;: ]|~)?\s*(?P<name>[A-Za-z]|\\[A-Za-z]+)\s*$"
)


def _without_common_factor(
    seg: list[tuple[str, str]], bindings: dict[str, int]
) -> list[tuple[str, str]]:
    r"""The members of a chain of = and ≈ without the name each is a number times
    (「$\sqrt{128}\,c \approx 11.31\,c$」: √128 ≈ 11.31, whatever c other than 0 is), when
    every member is one and the numbers are arithmetic; else the members as they are."""
    found = [_TIMES_A_NAME.match(m.strip()) for m, _ in seg]
    names = {f.group("name") for f in found if f is not None}
    if None in found or len(names) != 1 or next(iter(names)).lstrip("\\") in bindings:
        return seg
    numbers = [f.group("number") for f in found if f is not None]
    try:
        for number in numbers:
            evaluate(number, bindings, loose=False)
    except (NotNumeric, TooLarge):
        return seg
    try:
        evaluate(seg[0][0], bindings, loose=False)
    except NotNumeric:  # the name is no number the line sets or knows (2\pi is one)
        return [(n, r) for n, (_, r) in zip(numbers, seg, strict=True)]
    except TooLarge:
        pass
    return seg


def audit_statement(
    line: int, statement: str, bindings: dict[str, int], owned: bool = False
) -> list[Finding]:
    """The findings of each pair of neighbouring members joined by = or \\approx; `owned`:
    its printed numbers are a check's to judge (no face-value slip is said of them)."""
    members, relations = split_relations(statement)
    setting = _setting(members, relations)
    if setting is not None:
        names, value = setting
        bindings.update(dict.fromkeys(names, value))
        return []
    findings: list[Finding] = []
    # segments of members joined by = or \approx
    segment: list[tuple[str, str]] = [(members[0], "=")]
    segments = []
    for relation, member in zip(relations, members[1:], strict=True):
        if relation in ("=", r"\approx", r"\simeq"):
            segment.append((member, relation))
        else:
            segments.append(segment)
            segment = [(member, "=")]
    segments.append(segment)
    for seg in segments:
        if len(seg) < 2:
            continue
        text = "".join(
            (f" {'=' if r == '=' else '≈'} " if k else "") + m.strip()
            for k, (m, r) in enumerate(seg)
        )
        seg = _without_common_factor(seg, bindings)
        values: list[tuple[str, Value | None, str]] = []
        powers: set[str] = set()  # the members read as a power after ≈
        for k, (member, _) in enumerate(seg):
            approximate = _beside_approx(seg, k)
            loose = _LITERAL.fullmatch(member) is not None and approximate
            about_a_power = (
                _power_about(member) if approximate and not _beside_a_fine_decimal(seg, k) else None
            )
            if about_a_power is not None:
                values.append((member.strip(), about_a_power, ""))
                powers.add(member.strip())
                continue
            try:
                values.append((member.strip(), evaluate(member, bindings, loose), ""))
            except TooLarge as why:  # not evaluated, whatever the other members are
                findings.append(
                    Finding(
                        Section.EQUALITY,
                        line,
                        text,
                        Status.NOT_CHECKABLE,
                        str(why),
                        code=RECOMPUTED.code,
                    )
                )
            except NotNumeric as why:
                values.append((member.strip(), None, str(why)))
        numeric = [(m, v) for m, v, _ in values if v is not None]
        if len(numeric) < 2:
            symbolic = [m for m, v, _ in values if v is None and m.strip()]
            if numeric and any(not _NAMED.fullmatch(m) for m in symbolic):
                reasons = sorted({w for _, v, w in values if v is None})
                findings.append(
                    Finding(
                        Section.EQUALITY,
                        line,
                        text,
                        Status.NOT_CHECKABLE,
                        f"one side is not arithmetic on numbers ({'; '.join(reasons)})",
                        code=RECOMPUTED.code,
                    )
                )
            continue
        for k, ((m1, v1), (m2, v2)) in enumerate(zip(numeric, numeric[1:], strict=False)):
            relation = "≈" if any(r != "=" for m, r in seg[1:] if m.strip() == m2) else "="
            pair = f"{m1} {relation} {m2}"
            if {m1, m2} & powers:  # 「≈ 2^{30}」: its exponent rounded, no face value to compare
                power, other = (m2, v1) if m2 in powers else (m1, v2)
                findings.append(_about_a_power(line, pair, power, other, meet(v1, v2)))
                continue
            if not meet(v1, v2):
                findings.append(
                    Finding(
                        Section.EQUALITY,
                        line,
                        pair,
                        Status.MISMATCHED,
                        f"left side recomputes to {show(v1)}, right side to {show(v2)}; "
                        f"they differ by {gap(v1, v2)} beyond the printed precision",
                        code=RECOMPUTED.code,
                    )
                )
                continue
            # the sides meet within their rounding: a result that holds only so is a
            # heuristic's finding (the author may have worked with more digits than printed)
            exact = [(m, v) for m, v in numeric[:k] if DECIMAL.search(m) is None]
            status, detail = _at_printed_precision(m1, m2, v1, v2, bindings, relation == "≈", exact)
            if not (owned and status == Status.MISMATCHED):
                findings.append(
                    Finding(
                        Section.EQUALITY, line, pair, status, detail, code=PRINTED_PRECISION.code
                    )
                )
    return findings
