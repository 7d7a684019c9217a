"""Moments of the dot product <q, k> (命題 4.4) and E of a product (補題 A.1), with sympy.stats.

Coordinates are independent with mean 0 and variance 1. For explicit d_k the
square of <q, k> is expanded into monomials and each monomial's expectation is
the product of one-variable moments (that factorisation is 補題 A.1, itself
checked by `product_expectation` on joint distributions). For symbolic d_k,
`dot_product_variance` derives Var<q, k> step by step from generic moments
E[X] = mu, E[X^2] = nu: the square as a double sum, its i != j terms split off,
補題 A.1 on each monomial, the sums evaluated by `normalise_sums`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from sympy import (
    Add,
    Expr,
    Function,
    Indexed,
    IndexedBase,
    KroneckerDelta,
    Mul,
    Ne,
    Poly,
    Rational,
    S,
    Sum,
    Symbol,
    cancel,
    expand,
    simplify,
    sqrt,
    srepr,
    symbols,
    sympify,
)
from sympy.stats import E, Normal, Rademacher, Uniform

from cache.remembered import remembered
from symbolic.identities import is_zero
from symbolic.kept import EXPRESSION
from symbolic.sums import normalise_sums
from symbolic.symbols import d_k as d_k_symbol

Distribution = Callable[[str], Expr]  # name -> a sympy.stats random variable


def standard_normal(name: str) -> Expr:
    """N(0, 1) named `name`.

    >>> E(standard_normal("X") ** 2)
    1
    """
    return Normal(name, 0, 1)


def rademacher(name: str) -> Expr:
    """+-1 with probability 1/2 each, named `name`.

    >>> E(rademacher("X")), E(rademacher("X") ** 2)
    (0, 1)
    """
    return Rademacher(name)


def centred_uniform(name: str) -> Expr:
    """Uniform on [-sqrt 3, sqrt 3]: mean 0, variance 1.

    >>> E(centred_uniform("X") ** 2)
    1
    """
    return Uniform(name, -sqrt(3), sqrt(3))


DISTRIBUTIONS = {"normal": standard_normal, "rademacher": rademacher, "uniform": centred_uniform}


@dataclass(frozen=True)
class DotMoments:
    """E<q, k>, Var<q, k> and Var(<q, k> / sqrt(d_k)).

    >>> dot_product_moments(3).variance
    3
    """

    mean: Expr  # E<q, k>
    variance: Expr  # Var<q, k>
    scaled_variance: Expr  # Var(<q, k> / sqrt(d_k))


@lru_cache(maxsize=64)
def _moment(distribution: Distribution, power: int) -> Expr:
    """E[X^power] for one coordinate (cached, and kept where the command line keeps
    derivations, `cache`: sympy.stats integrates each time)."""
    if not power:
        return 1
    x = distribution("X")
    return remembered("moment", f"{srepr(x)}\n{power}", lambda: E(x**power), EXPRESSION)


def dot_product_moments(
    d_k: int | Symbol, distribution: Distribution = standard_normal
) -> DotMoments:
    """E, Var of <q, k> and Var of <q, k>/sqrt(d_k) for independent coordinates; for a
    symbolic d_k through `dot_product_variance` with the distribution's two moments.

    >>> dot_product_moments(2, rademacher)
    DotMoments(mean=0, variance=2, scaled_variance=1)
    """
    m1, m2 = _moment(distribution, 1), _moment(distribution, 2)
    if isinstance(d_k, Symbol):
        derivation = dot_product_variance(d_k, m1, m2)
        return DotMoments(derivation.mean, derivation.variance, derivation.scaled_variance)
    if isinstance(d_k, bool) or not isinstance(d_k, int) or d_k < 1:
        raise ValueError(f"d_k must be a positive int or a Symbol, got {d_k!r}")
    q = symbols(f"q_1:{d_k + 1}")
    k = symbols(f"k_1:{d_k + 1}")
    dot = sum(qi * ki for qi, ki in zip(q, k, strict=True))
    moments = {p: _moment(distribution, p) for p in range(3)}  # dot^2 has powers <= 2

    def expectation(poly: Expr) -> Expr:
        # independent coordinates: E of a monomial is the product of its moments
        P = Poly(expand(poly), *q, *k)
        return sum((c * Mul(*(moments[p] for p in monom)) for monom, c in P.terms()), Rational(0))

    mean = expectation(dot)
    variance = expectation(dot**2) - mean**2
    return DotMoments(mean, variance, expand(variance / d_k))


# ------------------------------------------- Var<q, k> from generic moments

Expectation = Function("E")  # E[.], left unevaluated where a step states it
mu, nu = symbols("mu nu", real=True)  # the generic moments E[X] and E[X^2] of a coordinate


@dataclass(frozen=True)
class Step:
    """lhs = rhs, for `reason`, with `difference` zero when the step's algebra holds.

    A step applying 補題 A.1 has the monomial minus the product of its `factors` as
    difference, and its factors must be independent: each a function of one coordinate,
    no two of the same one (`conditions` state the index relations this relies on,
    e.g. i != j, under which q_i and q_j are different coordinates).

    >>> q = IndexedBase("q")
    >>> Step("E[q_1 q_2]", Expectation(q[1] * q[2]), mu**2, "補題 A.1", 0, (q[1], q[2])).holds
    True
    """

    claim: str
    lhs: Expr
    rhs: Expr
    reason: str
    difference: Expr
    factors: tuple[Expr, ...] = ()
    conditions: tuple[Expr, ...] = ()

    @property
    def independent(self) -> bool:
        """Each factor holds exactly one coordinate, and no two factors the same one: two
        entries of one vector are different coordinates when some pair of their
        subscripts are different integers or are stated different in `conditions`."""
        held = [f.atoms(Indexed) for f in self.factors]
        if any(len(c) != 1 for c in held):
            return False
        coordinates = [c.pop() for c in held]
        return all(self._different(a, b) for a, b in combinations(coordinates, 2))

    def _different(self, a: Indexed, b: Indexed) -> bool:
        if a.base != b.base:
            return True
        return any(
            (x.is_Integer and y.is_Integer and x != y)
            or Ne(x, y) in self.conditions
            or Ne(y, x) in self.conditions
            for x, y in zip(a.indices, b.indices, strict=True)
        )

    @property
    def holds(self) -> bool:
        return is_zero(self.difference) and self.independent


@dataclass(frozen=True)
class VarianceDerivation:
    """Var(sum_{i=1}^{d_k} q_i k_i) derived from the generic moments mu = E[X], nu = E[X^2]
    of independent coordinates: the steps, then E[S], Var S and Var(S / sqrt(d_k)) with
    the hypotheses {mu: ..., nu: ...} substituted.

    >>> dot_product_variance(second_moment=2).variance
    4*d_k
    """

    steps: tuple[Step, ...]
    hypotheses: dict[Symbol, Expr]
    mean: Expr
    variance: Expr
    scaled_variance: Expr

    @property
    def holds(self) -> bool:
        return all(step.holds for step in self.steps)


def _generic_moment(power: int) -> Expr:
    """E[X^power] of one coordinate: 1, mu, nu, or a symbol for a higher power."""
    return {0: S.One, 1: mu, 2: nu}.get(power, Symbol(f"E[X^{power}]"))


def independent_expectation(monomial: Expr, conditions: tuple[Expr, ...] = ()) -> Step:
    """E[monomial] by 補題 A.1: its factors, one per coordinate (q_i^a, k_i^b, ...), are
    independent, so E of their product is the product of their expectations, each a
    generic moment of one identically distributed coordinate (mu, nu, ...).

    >>> i = Symbol("i", integer=True, positive=True)
    >>> q, k = IndexedBase("q", real=True), IndexedBase("k", real=True)
    >>> step = independent_expectation(q[i] ** 2 * k[i] ** 2)
    >>> step.rhs, step.holds
    (nu**2, True)
    """
    powers = monomial.as_powers_dict()
    factors = tuple(base**power for base, power in powers.items())
    return Step(
        f"E[{monomial}] = the product of the expectations of its factors",
        Expectation(monomial),
        Mul(*(_generic_moment(int(power)) for power in powers.values())),
        "補題 A.1 (independent factors); coordinates identically distributed",
        monomial - Mul(*factors),
        factors,
        conditions,
    )


def _random(f: Expr, bases: tuple[IndexedBase, ...]) -> bool:
    return any(a.base in bases for a in f.atoms(Indexed))


def linear_expectation(expr: Expr, bases: tuple[IndexedBase, ...]) -> Expr:
    """E[expr] pushed through sums, + and factors that are not random (hold no entry of
    `bases`): linearity of E, leaving E of each random monomial.

    >>> i, n = symbols("i n", integer=True, positive=True)
    >>> q = IndexedBase("q")
    >>> linear_expectation(Sum(2 * q[i], (i, 1, n)), (q,))
    Sum(2*E(q[i]), (i, 1, n))
    """
    if isinstance(expr, Sum):
        return Sum(linear_expectation(expr.function, bases), *expr.limits)
    if isinstance(expr, Add):
        return Add(*(linear_expectation(t, bases) for t in expr.args))
    factors = Mul.make_args(expr)
    fixed = [f for f in factors if not _random(f, bases)]
    random = [f for f in factors if _random(f, bases)]
    return Mul(*fixed) * (Expectation(Mul(*random)) if random else S.One)


def dot_product_variance(
    d_k: Symbol = d_k_symbol, mean: Expr = 0, second_moment: Expr = 1
) -> VarianceDerivation:
    """命題 4.4 from generic moments. S = sum_i q_i k_i over d_k coordinates, all
    independent with E[X] = mu and E[X^2] = nu. S^2 is expanded into a double sum and
    split into its i = j terms and its i != j terms (with the factor 1 - delta_ij);
    E is pushed through the sums (linearity); each monomial's expectation comes from
    補題 A.1: E[q_i k_i] = mu^2, E[q_i^2 k_i^2] = nu^2 and, for i != j (four different
    coordinates), E[q_i k_i q_j k_j] = mu^4; the sums are evaluated by `normalise_sums`;
    Var S = E[S^2] - E[S]^2 = d_k (nu^2 - mu^4). The hypotheses (mu, nu) = (mean,
    second_moment) then give E[S], Var S and Var(S / sqrt(d_k)) = Var S / d_k.

    >>> result = dot_product_variance()
    >>> result.mean, result.variance, result.scaled_variance, result.holds
    (0, d_k, 1, True)
    """
    i, j = symbols("i j", integer=True, positive=True)
    q, k = IndexedBase("q", real=True), IndexedBase("k", real=True)

    def sums(expr: Expr) -> Expr:
        return normalise_sums(expr, d_k, {}, (i, j))

    def expectation(expr: Expr) -> Expr:
        return linear_expectation(expr, (q, k))

    dot = Sum(q[i] * k[i], (i, 1, d_k))
    square = Sum(Sum(q[i] * k[i] * q[j] * k[j], (j, 1, d_k)), (i, 1, d_k))
    diagonal_term, cross_term = q[i] ** 2 * k[i] ** 2, q[i] * k[i] * q[j] * k[j]
    apart = 1 - KroneckerDelta(i, j)  # zero when i = j
    split = Sum(diagonal_term, (i, 1, d_k)) + Sum(Sum(apart * cross_term, (j, 1, d_k)), (i, 1, d_k))
    lemma = (
        independent_expectation(q[i] * k[i]),
        independent_expectation(diagonal_term),
        independent_expectation(cross_term, (Ne(i, j),)),  # used only where 1 - delta_ij != 0
    )
    values = {step.lhs: step.rhs for step in lemma}
    first, second = expectation(dot), expectation(split)
    first_value, second_value = sums(first.xreplace(values)), sums(second.xreplace(values))
    variance = expand(second_value - first_value**2)
    steps = (
        Step(
            "S^2 = sum_i sum_j q_i k_i q_j k_j",
            dot**2,
            square,
            "expanding the square",
            sums(dot**2 - square),
        ),
        Step(
            "sum_i sum_j = (i = j terms) + (i != j terms)",
            square,
            split,
            "splitting off the diagonal",
            sums(square - split),
        ),
        Step(
            "E[S] = sum_i E[q_i k_i]",
            Expectation(dot),
            first,
            "linearity of E",
            expectation(dot) - first,
        ),
        Step(
            "E[S^2] = sum_i E[q_i^2 k_i^2] + sum_i sum_j (1 - delta_ij) E[q_i k_i q_j k_j]",
            Expectation(split),
            second,
            "linearity of E",
            expectation(split) - second,
        ),
        *lemma,
        Step(
            "E[S] = d_k mu^2",
            first,
            first_value,
            "補題 A.1's values, the sum",
            sums(first.xreplace(values)) - first_value,
        ),
        Step(
            "E[S^2] = d_k nu^2 + d_k (d_k - 1) mu^4",
            second,
            second_value,
            "補題 A.1's values, the sums",
            sums(second.xreplace(values)) - second_value,
        ),
        Step(
            "Var S = E[S^2] - E[S]^2",
            second_value - first_value**2,
            variance,
            "definition of the variance",
            second_value - first_value**2 - variance,
        ),
    )
    hypotheses = {mu: sympify(mean), nu: sympify(second_moment)}
    value = expand(variance.xreplace(hypotheses))
    return VarianceDerivation(
        steps, hypotheses, expand(first_value.xreplace(hypotheses)), value, cancel(value / d_k)
    )


def product_expectation(variables: Sequence[Expr]) -> tuple[Expr, Expr]:
    """(E[X_1 ... X_m] computed on the joint distribution, E[X_1] ... E[X_m]).

    >>> product_expectation([Normal("A", 1, 1), Normal("B", 2, 1)])
    (2, 2)
    """
    return simplify(E(Mul(*variables))), Mul(*(E(X) for X in variables))
