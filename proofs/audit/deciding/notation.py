"""Deciding the formulas of a chapter that brings no notation of its own (no package of
checks registers it): every name a positive number, every application of a name the
chapter does not define a number of its own (P(S), LSE(z)), a sum without its range
taken over 1..SUM_TERMS, the elementary functions what they are.

A step of a chain of equalities is then an identity in those numbers or not. It is
confirmed when SymPy reduces the difference of its sides to zero. It is a mismatch only
when it relates the same quantities on both sides (the same names, after the sides'
numbers are set aside) and still is no identity: a step between different quantities
(Σ_j p_j − Σ_j q_j = 1 − 1) uses a fact of the chapter (the p_j sum to 1) that this
notation does not know, so it is left as not checkable, never reported as wrong. Taking
vectors and matrices as numbers, and every number as positive, are specialisations
(numbers commute; log(p^a) = a log p for p > 0): a relation true in general stays true,
so no true step is reported as a mismatch; some wrong ones pass, and a relation true
only of positive numbers is confirmed where the chapter may have meant it of others.

What the chapter sets is used (OpenFacts): the names an element sets (「$d_k = d/h$
とする」, `u := …`), the quantities the chapter's definitions name, a case its sentence
assumes (「（$p_i = 1/|V|$）では」). A step between the same quantities that an equality
stated elsewhere in its element gives (Σ_i σ_i = 1) is not a mismatch; a step between two
exact numbers that differ (`\\cos\\pi - \\cos 0 = 0`) is one.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import sympy

from proofs.reader.math import split_relations
from proofs.tex.functions import KNOWN
from proofs.tex.symbolic import Evaluator, Value
from proofs.tex.tree import RELATIONS, Node, TexError, parse, tree_names
from proofs.tex.witness import Range, judge, short_folds
from symbolic.identities import is_zero

SUM_TERMS = 4  # the terms of a sum whose range the chapter does not state
MAX_STATED = 200  # statements of an element whose equalities a step of it may use
MAX_STATED_MEMBERS = 8  # members of such a statement, at most
MAX_IMPLYING = 12  # of those naming what a step names, the nearest read for a fact it uses
FUNCTIONS = {  # the elementary functions every notation knows (\\tanh, \\mathrm{erf} too)
    name: entry.value for name, entry in KNOWN.items() if not isinstance(entry.value, sympy.Expr)
}
CONSTANTS = {"pi": sympy.pi}


class OpenEvaluator(Evaluator):
    """An Evaluator under which a name it is not given stands for a positive number, and
    an application of one (P(S)) for a number of its own, unless the name also stands
    alone in the statement (`quantities`): N(N + 1) beside 12Nd^2 is a product."""

    def __init__(
        self,
        quantities: frozenset[str] = frozenset(),
        facts: Mapping[str, Value] | None = None,
        ranges: Mapping[str, tuple[Node, Node]] | None = None,
    ) -> None:
        super().__init__({**FUNCTIONS, **CONSTANTS, **(facts or {})}, {}, {})
        self.quantities = quantities
        self.ranges = dict(ranges or {})

    def bound(self, **values: Value) -> Evaluator:
        copy = OpenEvaluator(self.quantities, ranges=self.ranges)
        copy.names = {**self.names, **values}
        return copy

    def _name(self, name: str) -> Value:
        return self.names[name] if name in self.names else _number(name)

    def _sub(self, base: Node, index: Node) -> Value:
        if base.op == "name" and index.op == "text":
            named = f"{base.args[0]}_{index.args[0]}"  # d_k, d_ff as the chapter set them
            if named in self.names:
                return self.names[named]
        if base.op != "name" or base.args[0] in self.names:
            return super()._sub(base, index)
        if index.op == "text" and _is_label(index.args[0]):  # \eta_{\max}: no x in it
            return _number(f"{base.args[0]}_{index.args[0]}")
        if index.op == "text":  # x_{ij} at i = 2: x_2j
            parts = [str(self.names.get(c, c)) for c in index.args[0]]
            return _number(f"{base.args[0]}_{''.join(parts)}")
        return _number(f"{base.args[0]}_{self(index)}")

    def _call(self, function: Node, args: tuple[Node, ...]) -> Value:
        name = function.args[0] if function.op == "name" else None
        if function.op == "sub" and function.args[0].op == "name" and function.args[1].op == "text":
            name = f"{function.args[0].args[0]}_{function.args[1].args[0]}"  # GELU_{\tanh}(x)
        if name is not None and name not in self.names and name not in self.quantities:
            values = ", ".join(str(self(a)) for a in args)
            return _number(f"{name}({values})")
        return super()._call(function, args)

    def _pow(self, base: Node, exponent: Node) -> Value:
        """A power of a name applied to a group that names no function: an application
        raised to it (P(S)^2) or a product whose group is (K(x/6)^{-g}), which the open
        notation cannot tell apart (K\\,(x/6)^{-g}, spaced, is a product)."""
        name = base.args[0].args[0] if base.op == "call" and base.args[0].op == "name" else None
        if name is not None and name not in self.names and name not in self.quantities:
            raise TexError(
                f"{name}(…)^…: an application raised to a power or a product, not decided"
            )
        return super()._pow(base, exponent)

    def _range(self, index: str, low: Node | None, high: Node | None, over: Node | None) -> list:
        if low is None and high is None and over is None:
            return list(range(1, SUM_TERMS + 1))
        return super()._range(index, low, high, over)

    def _sum(
        self, index: str, low: Node | None, high: Node | None, over: Node | None, body: Node
    ) -> Value:
        """A sum over a..b for symbols a, b: SymPy's closed form, where it has one, in its
        generic case (Σ_{s=1}^t β^{t-s} for β ≠ 1: every name is a number in general
        position, as the identities the chapter states are)."""
        if low is None and high is None and over is None and index in self.ranges:
            low, high = self.ranges[index]  # the range its element states for the index
        if low is not None and high is not None and over is None:
            a, b = self(low), self(high)
            if not (getattr(a, "is_Integer", False) and getattr(b, "is_Integer", False)):
                k = sympy.Symbol(index, integer=True, positive=True)
                term = self.bound(**{index: k})(body)
                if (a.has(sympy.oo) or b.has(sympy.oo)) and term.free_symbols - {k}:
                    raise TexError(  # Σ_k r^k: a value only where |r| < 1, which no point knows
                        "an infinite sum of a term with names converges only for some of "
                        "their values, not decided"
                    )
                return _closed_sum(term, k, a, b)
        return super()._sum(index, low, high, over, body)


@functools.lru_cache(maxsize=1 << 10)
def _closed_sum(term: Value, k: sympy.Symbol, a: Value, b: Value) -> Value:
    """Σ_{k=a}^{b} term in closed form, in its generic case (Piecewise's last branch);
    once per sum, which a chapter's statements and the steps deciding them meet often."""
    term, ratios = _as_powers(term, k)
    total = _geometric_sum(term, k, a, b)
    if total is None:
        total = sympy.summation(term, (k, a, b))
        total = total.replace(lambda e: isinstance(e, sympy.Piecewise), lambda e: e.args[-1].expr)
    return total.xreplace({q: sympy.exp(rate) for rate, q in ratios.items()})


def _geometric_sum(term: Value, k: sympy.Symbol, a: Value, b: Value) -> Value | None:
    """Σ_{k=a}^{b} P(k) q^k for a polynomial P and a q free of k, as (q d/dq)^j applied to
    (q^a - q^{b+1})/(1 - q) for each k^j of P (q ≠ 1); None for a term of another form.
    SymPy's summation takes a tenth to a fifth of a second on each such sum."""
    if a.has(sympy.oo, -sympy.oo) or b.has(sympy.oo, -sympy.oo):
        return None
    term = sympy.expand(term, power_exp=True)  # r^{k+1} = r r^k
    powers = {p for p in term.atoms(sympy.Pow) if k in p.exp.free_symbols}
    if len(powers) != 1:
        return None
    (power,) = powers
    if power.exp != k or k in power.base.free_symbols:
        return None
    z = sympy.Dummy("z")
    linear = term.xreplace({power: z})
    if not linear.is_polynomial(z) or sympy.degree(linear, z) != 1 or linear.coeff(z, 0) != 0:
        return None
    polynomial = linear.coeff(z, 1)
    if not polynomial.is_polynomial(k) or z in polynomial.free_symbols:
        return None
    x = sympy.Dummy("x", positive=True)
    moment = (x**a - x ** (b + 1)) / (1 - x)  # Σ k^0 x^k
    total = sympy.Integer(0)
    for j in range(sympy.degree(polynomial, k) + 1):
        total += polynomial.coeff(k, j) * moment
        moment = x * sympy.diff(moment, x)
    return total.xreplace({x: power.base})


def _as_powers(term: Value, k: sympy.Symbol) -> tuple[Value, dict[Value, sympy.Dummy]]:
    """The term with each e^{c_0 + c_1 k} written e^{c_0} q^k for a fresh q = e^{c_1}: the
    geometric form SymPy sums (Σ_k k e^{-km} it leaves unevaluated, Σ_k k q^k it does not)."""
    ratios: dict[Value, sympy.Dummy] = {}

    def as_power(e: sympy.exp) -> Value:
        exponent = sympy.expand(e.args[0])
        if not exponent.is_polynomial(k) or sympy.degree(exponent, k) != 1:
            return e
        rate = exponent.coeff(k, 1)
        q = ratios.setdefault(rate, sympy.Dummy("q", positive=True))
        return sympy.exp(exponent.coeff(k, 0)) * q**k

    powers = term.replace(lambda e: isinstance(e, sympy.exp) and k in e.free_symbols, as_power)
    return powers, ratios


@functools.cache
def _number(name: str) -> sympy.Symbol:
    return sympy.Symbol(name, positive=True)


class OpenFacts:
    """What an element sets for the rest of it: a name defined (`u := \\pi t/S`) or set
    by a hypothesis (「$d_k = d/h$ とする」) to a formula of other names, and what a
    definition of the chapter names for the rest of the chapter (`\\mathrm{PPL} :=
    \\exp(-\\frac{1}{N}\\sum_{i=1}^{N}\\log p_i)`). A formula with a sum without its range,
    a product, a maximum or a minimum is not taken: over SUM_TERMS terms it would stand
    for a sum the chapter ranges otherwise, and its facts (the p_j sum to 1) are not known
    here."""

    def __init__(self, values: dict[str, Value] | None = None) -> None:
        self.values: dict[str, Value] = dict(values or {})
        # the element's statements, read only when a step needs them, and what they state
        self.statements: list[str] = []
        self._stated: dict[str, list[sympy.Expr]] = {}  # statement -> its steps' a - b
        self.ranges: dict[str, tuple[Node, Node]] = {}  # index -> the range a sum states
        self.bounds: dict[str, Range] = {}  # number -> the range the chapter states for it

    def copy(self, same_element: bool = True) -> OpenFacts:
        """A copy to learn more into; of the same element (sharing its statements and
        what they state, read once) or, `same_element=False`, for another element."""
        copy = OpenFacts(self.values)
        copy.bounds = self.bounds
        if same_element:
            copy.statements, copy._stated, copy.ranges = self.statements, self._stated, self.ranges
        return copy

    def state(self, statement: str) -> None:
        """Keep a statement of the element (Σ_i σ_i = 1), whose equalities a step
        elsewhere in the element may use; the first MAX_STATED of them are kept."""
        if len(self.statements) < MAX_STATED:
            self.statements.append(statement.strip())
            for m in _RANGED_SUM.finditer(statement):
                index, low, high = m.group(1), m.group(2), m.group(3) or m.group(4)
                try:
                    self.ranges.setdefault(index, (parse(low), parse(high)))
                except TexError:
                    continue

    def defined_unread(self) -> set[str]:
        """The names the element's statements define (`y := -1 - x^{*}`) that these facts
        did not learn: what ties them to other names is not known here."""
        names = set()
        for statement in self.statements:
            members, relations = split_relations(statement.rstrip(".,"))
            if relations[:1] == [":="]:
                named = _SET_NAME.fullmatch(members[0].strip())
                if named is not None and _key(named) not in self.values:
                    names.add(_base(_key(named)))
        return names

    def ranges_every_sum(self, statement: str) -> bool:
        """Whether each sum of the statement without its range (\\sum_s) has one its
        element states (\\sum_{s=1}^{t}): over SUM_TERMS terms instead, a step that holds
        for its range (a geometric sum) would be no identity."""
        for m in _SUM_BELOW.finditer(statement):
            below = (m.group(1) or m.group(2)).strip()
            if not re.match(r"[A-Za-z]\s*=", below) and below not in self.ranges:
                return False  # \sum_s, \sum_{j \ne y}: a range the element does not state
        return True

    def _steps(self, statement: str) -> list[sympy.Expr]:
        """The a - b of each equality step the statement states that SymPy does not reduce
        to 0, read once, when a step asks of a statement that names what it names."""
        if statement not in self._stated:
            found = []
            members, relations = split_relations(statement.rstrip(".,"))
            if len(members) <= MAX_STATED_MEMBERS:
                values = [_value(m, frozenset()) for m in members]
                steps = zip(zip(values, values[1:], strict=False), relations, strict=True)
                for (a, b), relation in steps:
                    if relation == "=" and not isinstance(a, str) and not isinstance(b, str):
                        difference = sympy.expand(a - b)
                        if difference.free_symbols and not _zero(difference):
                            found.append(difference)
            self._stated[statement] = found
        return self._stated[statement]

    def implies(self, difference: sympy.Expr, statement: str) -> str | None:
        """The statement of the element (another than `statement`) whose equality makes
        the difference zero, solved for one of its names; None if none does. Only the
        MAX_IMPLYING statements nearest it whose text names one of the difference's names
        are read (each read once: a sum's closed form costs a tenth of a second)."""
        names = {str(s) for s in difference.free_symbols}
        names |= {name.split("_")[0] for name in names}
        here = statement.strip()
        at = self.statements.index(here) if here in self.statements else len(self.statements)
        nearest = sorted(range(len(self.statements)), key=lambda k: abs(k - at))
        sources = [
            self.statements[k]
            for k in nearest
            if self.statements[k] != here
            and names & {word.lstrip("\\") for word in _WORD.findall(self.statements[k])}
        ]
        for source in sources[:MAX_IMPLYING]:
            for relation in self._steps(source):
                for name in relation.free_symbols & difference.free_symbols:
                    if not relation.is_polynomial(name) or sympy.degree(relation, name) != 1:
                        continue  # solved for a name it holds linearly: one solution
                    # linear in the name: its one solution, which sympy.solve finds
                    # at a tenth of a second a relation
                    solved = -relation.subs(name, 0) / sympy.diff(relation, name)
                    try:
                        implied = sympy.expand(difference.subs(name, solved))
                    except (TypeError, ValueError):  # Max(zoo, …): a solution off its domain
                        continue
                    if _zero(implied):
                        return source
        return None

    def learn(self, statement: str, chapter_wide: bool = False) -> bool:
        """Take the statement as a fact when it sets one name; whether it did.
        `chapter_wide`: a definition of the chapter, which names a quantity (PPL, not p_i:
        an indexed name's formula is one of its index) and may sum over a stated range."""
        members, relations = split_relations(statement.strip().rstrip(".,"))
        if len(members) != 2 or relations[0] not in ("=", ":="):
            return False
        function = _FUNCTION.fullmatch(members[0].strip())
        if function is not None and relations[0] == ":=":
            return self._learn_function(function, members[1])
        name = _SET_NAME.fullmatch(members[0].strip())
        unknown = _UNRANGED_SUM if chapter_wide else _UNRANGED
        if name is None or unknown.search(members[1]) or not re.search("[A-Za-z]", members[1]):
            return False
        if chapter_wide and name.group(4):
            return False
        value = _value(members[1], frozenset(), self.values)
        if isinstance(value, str):
            return False
        self.values[_key(name)] = value
        return True

    def learn_number(self, statement: str) -> bool:
        """`n = 2048` that an example or an exercise sets for what follows in it: its name
        stands for the number there (elsewhere a line's settings bind a number for that line
        only); whether it did."""
        members, relations = split_relations(statement.strip().rstrip(".,"))
        name = _SET_NAME.fullmatch(members[0].strip())
        if relations != ["="] or name is None:
            return False
        value = _value(members[1], frozenset())
        if isinstance(value, str) or value.free_symbols:
            return False
        self.values[_key(name)] = value
        return True

    def _learn_function(self, function: re.Match[str], formula: str) -> bool:
        """`f(x) := x + 1`: f the function of its parameters the formula gives (f(0) is
        then 1, an application, not f times 0)."""
        parameters = [p.strip() for p in function.group(2).split(",")]
        value = _value(formula, frozenset(parameters), self.values)
        if isinstance(value, str) or _UNRANGED.search(formula):
            return False
        self.values[function.group(1)] = sympy.Lambda(tuple(map(_number, parameters)), value)
        return True


# a function defined on its parameters: f(x), g(s, t)
_FUNCTION = re.compile(r"([A-Za-z])\s*\(\s*([A-Za-z](?:\s*,\s*[A-Za-z])*)\s*\)")


def set_name(statement: str) -> str | None:
    """The name a statement `X = …` or `X := …` sets, as OpenFacts keys it; else None."""
    members, relations = split_relations(statement.strip().rstrip(".,"))
    if len(members) != 2 or relations[0] not in ("=", ":="):
        return None
    name = _SET_NAME.fullmatch(members[0].strip())
    return _key(name) if name is not None else None


def _key(name: re.Match[str]) -> str:
    base, index = name.group(1) or name.group(2), name.group(3) or name.group(4)
    return f"{base}_{index}" if index else base


_SET_NAME = re.compile(
    r"(?:\\mathrm\{([A-Za-z]+)\}|\\?([A-Za-z]+))(?:_\{\\mathrm\{([A-Za-z]+)\}\}|_([A-Za-z]))?"
)
_UNRANGED = re.compile(r"\\(?:sum|prod|max|min|int)(?![A-Za-z])")
# a sum whose range is not stated (\sum_j, \sum_{j}), a product, a maximum, a minimum
_UNRANGED_SUM = re.compile(r"\\sum(?![A-Za-z])(?!_\{\s*\w+\s*=)|\\(?:prod|max|min|int)(?![A-Za-z])")


def limit_step(a: sympy.Expr, b: sympy.Expr, regime: tuple[str, str]) -> tuple[str, str]:
    """(status, detail) of a step `a \\to b` under the regime (name, where it goes) its
    sentence states (「$c \\to \\infty$ で」): SymPy's limit of a, compared with b."""
    name, where = regime
    symbol = _number(name)
    if a.is_Symbol:  # 「$T \\to \\infty$」: where a name goes, another regime, not a limit
        return "not checkable", "a regime, not a limit"
    if symbol not in a.free_symbols or symbol in b.free_symbols:
        return "not checkable", f"a limit of something other than {name}'s"
    mentions = re.compile(rf"(?<![A-Za-z\\]){re.escape(name)}(?![A-Za-z])")
    if any(s != symbol and mentions.search(s.name) for s in a.free_symbols):
        # φ(x) of a φ not read here, H_n(1) or p_n indexed by n: a number of its own,
        # which does not stay put as x or n moves
        return "not checkable", f"a limit of what depends on {name} in a way not read here"
    point, side = _limit_point(where)
    if point is None:
        return "not checkable", f"{name} \\to {where}: not a point read"
    if point.is_extended_negative or point.is_zero and side == "-":
        # x \to -\infty: the open notation read x as a positive number (√(x^2) as x)
        return (
            "not checkable",
            f"{name} \\to {where}: below 0, where the names are read as positive",
        )
    try:
        derived = sympy.limit(a, symbol, point, side)
    except (NotImplementedError, ValueError, TypeError):
        return "not checkable", "SymPy finds no limit"
    if derived.has(sympy.Limit, sympy.AccumBounds):
        return "not checkable", "SymPy finds no limit"
    if _zero(sympy.expand(derived - b)):
        return "confirmed", f"the limit as {name} \\to {where} is {derived}"
    if derived.free_symbols == b.free_symbols:
        return "mismatched", f"the limit as {name} \\to {where} is {derived}, not {b}"
    return "not checkable", f"the limit as {name} \\to {where} is {derived}, another quantity"


def _limit_point(where: str) -> tuple[sympy.Expr | None, str]:
    """Where a name goes (`\\infty`, `+0`, `1`) as a point and a side for sympy.limit."""
    where = where.strip()
    if where in (r"\infty", r"+\infty"):
        return sympy.oo, "+"
    if where in ("+0", "-0"):
        return sympy.Integer(0), where[0]
    value = _value(where, frozenset())
    return (None, "+") if isinstance(value, str) or value.free_symbols else (value, "+-")


def decide_open(
    tex: str,
    facts: OpenFacts | None = None,
    regime: tuple[str, str] | None = None,
    inequalities: bool = False,
) -> tuple[str, str]:
    """(status, detail) of a statement under the open notation, with the element's facts
    so far, step by step (each member read on its own, so that one the reader cannot read
    leaves the others judged): mismatched at the first step that is no identity between
    the same quantities, or between two exact numbers that differ, confirmed when some
    step is an identity and none is wrong, else not checkable with the reason of its
    first step. With `inequalities`, a step ≤ ≥ < > between expressions of the same names
    is judged at points too (false only where it fails in every region, as witness.judge
    decides): the caller says when no premise of the text bounds its names."""
    members, relations = split_relations(tex.strip().rstrip(".,"))
    quantities = frozenset().union(*(_bare_names(m) for m in members))
    known = facts.values if facts is not None else {}
    ranges = facts.ranges if facts is not None else {}
    counts, counted = summation_limits(members)  # \sum_{j=1}^{t}: t a whole number, t ≥ 1
    bounds = {**counted, **(facts.bounds if facts is not None else {})}  # where a witness lies
    values = [_settled(_value(member, quantities, known, ranges), known) for member in members]
    confirmed, numerically, reasons = 0, 0, []
    pairs = zip(members, members[1:], strict=False)
    steps = zip(zip(values, values[1:], strict=False), pairs, strict=True)
    for ((a, b), pair), relation in zip(steps, relations, strict=True):
        op, step = RELATIONS.get(relation), _shown_step(pair, relation)
        if relation == r"\to" and regime and not isinstance(a, str) and not isinstance(b, str):
            status, detail = limit_step(a, b, regime)
            if status == "mismatched":
                return status, detail
            if status == "confirmed":
                confirmed += 1
            else:
                reasons.append(detail)
        elif op != "=" and not (inequalities and op in _ORDERS):
            reasons.append("only equalities are decided without the chapter's notation")
        elif isinstance(a, str) or isinstance(b, str):
            reasons.append(a if isinstance(a, str) else str(b))
        elif op != "=" and not (_quantities(a) and _quantities(a) == _quantities(b)):
            reasons.append("an inequality is judged only between expressions of the same names")
        elif _zero(sympy.expand(a - b)):
            if op in ("<", ">"):
                reasons.append(f"{step}: the two sides are equal")
            else:
                confirmed += 1
        elif op == "=" and _differ_exactly(a, b, pair):
            return "mismatched", f"{a} = {b} is false: two exact numbers that differ"
        elif _quantities(a) != _quantities(b) or not _quantities(a):
            reasons.append(
                "a step between different quantities uses facts of the chapter "
                "that its own formulas do not state"
            )
        elif facts is not None and (source := facts.implies(sympy.expand(a - b), tex)):
            reasons.append(f"a step that uses ${source}$, which the element states")
        elif starred := sorted(str(n) for n in (a - b).free_symbols if _is_starred(n.name)):
            reasons.append(  # 「零点 $x^{*}$」: a root or an optimum, no point to choose freely
                f"{step}: {', '.join(starred)} names a value the text fixes "
                "(a root, an optimum), which no point drawn may set"
            )
        else:  # SymPy did not reduce it: that proves nothing; a witness would
            judged = judge(op, a, b, counts, bounds)
            constraint = _constraint(facts, pair, tex) if facts is not None else None
            if judged.outcome == "fails" and facts is not None and constraint is not None:
                statement, scaled = constraint
                if scaled.keys() & (a - b).free_symbols:  # Σ_i σ_i = 1: points scaled to it
                    judged = judge(op, a.xreplace(scaled), b.xreplace(scaled), counts, bounds)
                    if judged.outcome == "fails":
                        return "mismatched", (
                            f"{step} is {judged.detail()}, the values scaled to "
                            f"meet ${statement}$, which the element states"
                        )
                elif not _bases(sympy.expand(a - b)) & (
                    _bases(open_value(statement.split("=")[0])) | facts.defined_unread()
                ):  # (E - 1)/E^2 ≠ 0 whatever the f_i that Σ_i f_i = 1 constrains (but y :=
                    # -1 - x^{*}, not read, may tie y to the x that 1 + x + e^x = 0 constrains)
                    return "mismatched", (
                        f"{step} is {judged.detail()}, whatever the names ${statement}$ constrains"
                    )
                else:
                    reasons.append(
                        f"{step}: false at points that need not meet "
                        f"${statement}$, which the element states"
                    )
            elif (
                judged.outcome == "fails"
                and facts is not None
                and (unread := _bases(a - b) & facts.defined_unread())
            ):  # 「$m := \\sum_k p_k v_k$ と置くと」 unread: a point that sets m is no witness
                reasons.append(
                    f"{step}: false at points that set "
                    f"{', '.join(sorted(unread))}, which the element defines"
                )
            elif judged.outcome == "fails" and (family := _as_distribution(a, b, counts, bounds)):
                reasons.append(  # Σ_k p_k v_k^2 - m^2 = Σ_k p_k (v_k - m)^2: true of a p
                    f"{step}: false at some points, but it holds wherever the "
                    f"entries of {family} sum to 1, as a distribution's do"
                )
            elif judged.outcome == "fails":
                return "mismatched", f"{step} is {judged.detail()}"
            if judged.outcome == "holds":
                numerically += 1
            else:
                reasons.append(f"{step}: {judged.detail()}")
    if confirmed or numerically:
        said = (
            [f"{confirmed} step{'s' if confirmed != 1 else ''}, each an identity"]
            if confirmed
            else []
        )
        if numerically:
            said.append(
                f"{numerically} step{'s' if numerically != 1 else ''} confirmed numerically "
                "(SymPy did not reduce the difference; true at every point tried)"
            )
        return "confirmed", "; ".join(said)
    return "not checkable", reasons[0] if reasons else "no relation to judge"


def summation_limits(members: list[str]) -> tuple[frozenset[str], dict[str, Range]]:
    """The names a sum or a product of the members has in a limit, which are whole numbers
    (\\sum_{j=1}^{t}: t), and for a name that is the upper limit itself the range that
    leaves the sum a term at least (t ≥ 1): a point elsewhere is no witness."""
    names: set[str] = set()
    ranges: dict[str, Range] = {}

    def visit(node: object) -> None:
        if isinstance(node, tuple):
            for item in node:
                visit(item)
        elif isinstance(node, Node):
            if node.op in ("sum", "prod") and isinstance(node.args[0], str):
                low, high = node.args[1], node.args[2]
                for limit in (low, high):
                    if isinstance(limit, Node):
                        names.update(tree_names(limit))
                if (
                    isinstance(high, Node)
                    and high.op == "name"
                    and isinstance(low, Node)
                    and low.op == "num"
                ):
                    ranges[high.args[0]] = Range(low=Fraction(low.args[0]) - 1, integer=True)
            for arg in node.args:
                visit(arg)

    for member in members:
        try:
            visit(parse(with_calls(member)))
        except TexError:
            continue
    return frozenset(names), ranges


def _constraint(
    facts: OpenFacts, pair: tuple[str, str], tex: str
) -> tuple[str, dict[sympy.Symbol, sympy.Expr]] | None:
    """A statement of the element that constrains names of the step to an exact number
    (`\\sum_i f_i = 1`, `\\|u\\| = 1`), with the scaling of its names that meets it when
    it is a sum of names (f_k -> f_k / (f_1 + … + f_n)), else an empty one: points drawn
    for those names need not meet it otherwise. None when no statement constrains them."""
    names = _bare_names(pair[0]) | _bare_names(pair[1])
    for statement in facts.statements:
        if statement == tex.strip():
            continue
        members, relations = split_relations(statement.rstrip(".,"))
        if relations != ["="] or not _EXACT_NUMBER.fullmatch(members[1].strip()):
            continue
        if _SET_NAME.fullmatch(members[0].strip()):
            continue  # d = 8: a setting, whose value the facts substitute
        left = open_value(members[0])
        if left is not None and not left.free_symbols:
            continue  # \lambda^0 = 1: true of every value, it constrains nothing
        if _bare_names(members[0]) & names:
            return statement, _scaling(members[0], members[1])
    return None


def _as_distribution(
    a: sympy.Expr, b: sympy.Expr, counts: frozenset[str], bounds: dict[str, Range]
) -> str | None:
    """The name whose entries (p_1, …, p_n, two or more), scaled to sum to 1, make the
    step hold at every point tried: the step is then about a distribution, which the text
    may take p to be without saying so here; None when there is none."""
    families: dict[str, list[sympy.Symbol]] = {}
    for symbol in (a - b).free_symbols:
        entry = re.fullmatch(r"(.+)_(\d+)", symbol.name)
        if entry is not None:
            families.setdefault(entry.group(1), []).append(symbol)
    for base, entries in sorted(families.items()):
        if len(entries) < 2:
            continue
        total = sympy.Add(*entries)
        scaled = {x: x / total for x in entries}
        if judge("=", a.xreplace(scaled), b.xreplace(scaled), counts, bounds).outcome == "holds":
            return base
    return None


def _bases(value: sympy.Expr | None) -> set[str]:
    """The names of a value's symbols without their indices (f of f_1 and of f_i): a
    vector's entries, however a sum over them was read."""
    if value is None:
        return set()
    return {_base(symbol.name) for symbol in value.free_symbols}


def _base(name: str) -> str:
    """A name without its index (f of f_1, f_i, x_{t-1}); a label is part of the name:
    \\eta_{\\max} and \\eta_{\\min} are two quantities, not two entries of one."""
    base, _, subscript = name.partition("_")
    return name if _is_label(subscript) else base


def _is_label(subscript: str) -> bool:
    """Whether a subscript names (\\max, model) rather than indexes (i, ij, 12, t-1): a
    command, or a word of three letters or more."""
    return subscript.startswith("\\") or re.fullmatch(r"[A-Za-z]{3,}", subscript) is not None


def _scaling(total: str, target: str) -> dict[sympy.Symbol, sympy.Expr]:
    """The scaling that makes a sum of positive names equal the target: each name times
    target over the sum; empty when `total` is not such a sum."""
    value = _value(total, frozenset())
    number = _value(target, frozenset())
    if isinstance(value, str) or isinstance(number, str) or not value.is_Add:
        return {}
    if not all(term.is_Symbol for term in value.args):
        return {}
    return {s: s * number / value for s in value.args}


_EXACT_NUMBER = re.compile(r"-?\d+(?:/\d+)?|\\frac\{\d+\}\{\d+\}")


def _shown_step(pair: tuple[str, str], relation: str) -> str:
    """A step as the chapter writes it: `$a = b$`, `$a \\le b$`."""
    return f"${pair[0].strip()} {relation} {pair[1].strip()}$"


def _settled(value: sympy.Expr | str, facts: Mapping[str, Value]) -> sympy.Expr | str:
    """The value with the names set since it was formed set too (a definition read
    before the sentence's 「$p_i = 1/|V|$ では」)."""
    if isinstance(value, str) or not facts:
        return value
    names = {_number(k): v for k, v in facts.items() if isinstance(v, sympy.Expr)}
    return value.subs(names) if names.keys() & value.free_symbols else value


def _differ_exactly(a: sympy.Expr, b: sympy.Expr, members: tuple[str, str]) -> bool:
    """Whether two sides are numbers, no name in them and no printed decimal (whose
    rounding an equality may carry), and differ: the step is false whatever the
    chapter's notation. A side that is π alone (「加速器の $\\pi = 300 \\times 10^{12}$
    FLOP/s」) names a quantity the text sets, not the constant."""
    if a.free_symbols or b.free_symbols or any(_PRINTED_DECIMAL.search(m) for m in members):
        return False
    if any(m.strip() == r"\pi" for m in members):
        return False
    try:
        return bool(abs(sympy.N(a - b, 30)) > sympy.Float(10) ** -20)
    except (TypeError, ValueError):
        return False


def with_calls(tex: str) -> str:
    """The TeX with `\\sin x`, `\\cos\\pi`, `\\tan(u/2)` written as applications
    (`\\mathrm{sin}(x)`), the form the TeX reader takes an elementary function in: the
    argument a bracketed group, a command, or a number or a letter with its subscript."""
    return _TRIG.sub(lambda m: rf"\mathrm{{{m.group(1)}}}({_unbraced(m.group(2))})", tex)


def _unbraced(argument: str) -> str:
    argument = argument.strip()
    if argument[:1] in "({" and argument[-1:] in ")}":
        return argument[1:-1]
    return argument


# a sum with its range: \sum_{s=1}^{t}, \sum_{i=1}^N
_RANGED_SUM = re.compile(r"\\sum_\{\s*([A-Za-z])\s*=\s*([^{}]+?)\s*\}\^(?:\{([^{}]+)\}|(\w))")
# what stands below a sum: s = 1 (then its range follows), s, j \ne y
_SUM_BELOW = re.compile(r"\\sum_(?:\{([^{}]*)\}|([A-Za-z]))")
_BLOCKS = re.compile(r"\[[^\[\]]*\\ [^\[\]]*\]")  # [f(X)\ g(X)]: blocks side by side
_ORDERS = ("<=", ">=", "<", ">")  # the inequalities judged at points

_PRINTED_DECIMAL = re.compile(r"\d\.\d")
_WORD = re.compile(r"\\?[A-Za-z]+")  # the letters and commands a statement's text names
_TRIG = re.compile(
    r"\\(sin|cos|tan)(?![A-Za-z])\s*"
    r"(\((?:[^()]|\([^()]*\))*\)|\{(?:[^{}]|\{[^{}]*\})*\}|\\[A-Za-z]+|\d+|[A-Za-z](?:_\{[^{}]*\}|_\w)?)"
)


def _value(
    member: str,
    quantities: frozenset[str],
    facts: Mapping[str, Value] | None = None,
    ranges: Mapping[str, tuple[Node, Node]] | None = None,
) -> sympy.Expr | str:
    """A member's value in the open notation, or why it has none."""
    if _BLOCKS.search(member):
        return "not read: a block matrix [A\\ B] is no product"
    try:
        return _scalar(OpenEvaluator(quantities, facts, ranges)(parse(with_calls(member))))
    except (TexError, TypeError, ValueError, ArithmeticError, AttributeError) as why:
        return f"not read: {why}"


def open_value(member: str) -> sympy.Expr | None:
    """A formula's value in the open notation (its names positive numbers), or None."""
    value = _value(member, frozenset(_bare_names(member)))
    return None if isinstance(value, str) else value


def _bare_names(member: str) -> set[str]:
    """The names a member uses as quantities: standing alone, not applied to arguments."""
    try:
        tree = parse(with_calls(member))
    except TexError:
        return set()
    found: set[str] = set()

    def walk(node: Any, applied: bool = False) -> None:
        if isinstance(node, tuple):
            for item in node:
                walk(item)
            return
        if not isinstance(node, Node):
            return
        if node.op == "name" and not applied:
            found.add(node.args[0])
        if node.op == "call":
            walk(node.args[0], applied=True)
            walk(node.args[1])
            return
        for arg in node.args:
            walk(arg)

    walk(tree)
    return found


def _scalar(value: Any) -> sympy.Expr:
    if isinstance(value, sympy.MatrixBase) and value.shape == (1, 1):
        return value[0]
    if not isinstance(value, sympy.Expr):
        raise TypeError(f"not a number: {value!r}")
    return value


@functools.lru_cache(maxsize=1 << 12)
def _zero(difference: sympy.Expr) -> bool:
    """Whether SymPy reduces the difference to 0; once per difference, which the rules
    deciding the same step (equalities, citations) ask alike, and not at all when one
    point of the names' space already shows it is not 0."""
    if _nonzero_at_a_point(difference):
        return False
    try:
        return is_zero(difference)
    except (TypeError, ValueError, NotImplementedError):
        return False


def _nonzero_at_a_point(difference: sympy.Expr) -> bool:
    """Whether the difference is a real number clearly away from 0 at one point where its
    names are what they are read as (positive; whole numbers where they count terms):
    then it is no identity, which no simplification need say."""
    point = {
        s: sympy.Integer(k + 2) if s.is_integer else sympy.Rational(2 * k + 3, 7)
        for k, s in enumerate(sorted(difference.free_symbols, key=str))
    }
    try:
        at = difference.xreplace(point)
        if not short_folds(at):
            return False
        value = at.evalf(30)
    except (TypeError, ValueError, ArithmeticError, NotImplementedError, RecursionError):
        return False
    return bool(value.is_Float and abs(value) > sympy.Float(10) ** -20)


def _is_starred(name: str) -> bool:
    """x*, Δ*_G: a name marked as the value some condition fixes."""
    return name.partition("_")[0].endswith("*")


def _quantities(value: sympy.Expr) -> frozenset[sympy.Symbol]:
    return frozenset(value.free_symbols)
