"""The LayerNorm Jacobian for symbolic d (命題 3.3): x an IndexedBase, indices i, j in 1..d.

SymPy differentiates the sums; sum x_k and sum (x_k - mu)^2 are named S and Q, and the
sums that remain are linear in x_k and evaluated. From the derived entry come
`proved_entry`, written in y_i, y_j and sigma, which the explicit widths put at every
(i, j), and the properties of 命題 3.3 (1), (2) for every d.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from sympy import (
    Add,
    Expr,
    IndexedBase,
    KroneckerDelta,
    Poly,
    S,
    Sum,
    Symbol,
    Tuple,
    diff,
    expand,
    sqrt,
    symbols,
)
from sympy.polys.polyerrors import PolynomialError

from cache.remembered import remembered
from symbolic.identities import Derivation, compare
from symbolic.kept import EXPRESSION
from symbolic.sums import indices_in_range, normalise_sums
from symbolic.symbols import d as d_symbol

EntryFormula = Callable[[Expr, Expr, Expr, Expr, Expr], Expr]  # (y_i, y_j, delta, sigma, d)


def chapter_entry(y_i: Expr, y_j: Expr, delta: Expr, sigma: Expr, d: Expr) -> Expr:
    """The chapter's entry formula: J_ij = (delta_ij - 1/d - y_i y_j / d) / sigma.

    >>> chapter_entry(y_i, y_j, 0, sigma_symbol, d_symbol)
    (-y_i*y_j/d - 1/d)/sigma
    """
    return (delta - 1 / d - y_i * y_j / d) / sigma


@dataclass(frozen=True)
class IndexedSums:
    """Symbolic d: x_k for k over `k_range` = (k, 1, d), with S = sum x_k and
    Q = sum (x_k - S/d)^2 named, the two sums LayerNorm is built from."""

    x: IndexedBase
    S: Symbol
    Q: Symbol
    k_range: tuple[Symbol, Expr, Expr]

    def evaluate(self, expr: Expr) -> Expr:
        """Evaluate every sum over k_range of a polynomial of degree <= 2 in x_k whose
        coefficients are free of k, from N = high - low + 1 terms, S and Q:
        sum 1 = N, sum x_k = S, sum x_k^2 = Q + 2 S mu - N mu^2 (mu = S/d, expanding Q).
        Other sums are left as they are."""
        k, low, high = self.k_range
        terms = high - low + 1
        mu = self.S / d_symbol
        power_sums = (terms, self.S, self.Q + 2 * self.S * mu - terms * mu**2)

        def evaluate(s: Sum) -> Expr:
            if s.limits != (Tuple(*self.k_range),):
                return s
            try:
                poly = Poly(expand(s.function), self.x[k])
            except PolynomialError:
                return s
            if poly.degree() > 2 or any(c.has(k) for c in poly.coeffs()):
                return s
            return Add(*(c * power_sums[p] for (p,), c in poly.terms()))

        return expr.replace(lambda e: isinstance(e, Sum), evaluate)


IndexedNormalise = Callable[[IndexedBase, Symbol, Expr, Expr], Expr]  # (x, k, S, Q) -> y_k


def indexed_layer_norm(x: IndexedBase, k: Symbol, total: Expr, spread: Expr) -> Expr:
    """y_k = (x_k - mu) / sigma for symbolic d (定義 2.1, eps = 0), given total = sum x_j
    and spread = sum (x_j - mu)^2, as Sums to differentiate or as named symbols S and Q:
    mu = S/d, sigma = sqrt(Q/d).

    >>> S, Q = symbols("S Q", positive=True)
    >>> indexed_layer_norm(IndexedBase("x"), Symbol("k"), S, Q)
    sqrt(d)*(-S/d + x[k])/sqrt(Q)
    """
    return (x[k] - total / d_symbol) / sqrt(spread / d_symbol)


def indexed_sums() -> IndexedSums:
    """The sums of symbolic d: x a real IndexedBase, k over 1..d, S and Q positive symbols."""
    k = Symbol("k", integer=True, positive=True)
    total, spread = symbols("S Q", positive=True)
    return IndexedSums(IndexedBase("x", real=True), total, spread, (k, S.One, d_symbol))


@dataclass(frozen=True)
class GeneralEntry:
    """dLN(x)_i/dx_j for symbolic d, in the named sums S = sum x_k, Q = sum (x_k - mu)^2."""

    derived: Expr
    i: Symbol
    j: Symbol
    sums: IndexedSums


def _entry_indices() -> tuple[Symbol, Symbol]:
    """The indices i, j of the entry for symbolic d: positive integers."""
    i, j = symbols("i j", integer=True, positive=True)
    return i, j


@lru_cache(maxsize=1)
def general_entry() -> GeneralEntry:
    """dLN(x)_i/dx_j differentiated by SymPy once per process (and, where the command
    line keeps derivations, once per version: `cache`, the expression alone, its indices
    and sums made again), for indices i, j in 1..d."""
    i, j = _entry_indices()
    derived = remembered(
        "general_entry", "", lambda: _differentiate_general_entry().derived, EXPRESSION
    )
    return GeneralEntry(derived, i, j, indexed_sums())


def _differentiate_general_entry() -> GeneralEntry:
    d = d_symbol
    i, j = _entry_indices()
    sums = indexed_sums()
    x, k = sums.x, sums.k_range[0]
    total = Sum(x[k], sums.k_range)
    spread = Sum((x[k] - total / d) ** 2, sums.k_range)
    derived = diff(indexed_layer_norm(x, i, total, spread), x[j]).doit()
    derived = derived.xreplace({total: sums.S}).xreplace({spread.xreplace({total: sums.S}): sums.Q})
    derived = indices_in_range(sums.evaluate(derived), (i, j), d)
    return GeneralEntry(derived, i, j, sums)


def derive_layer_norm_jacobian_general(stated_entry: EntryFormula = chapter_entry) -> Derivation:
    """The Jacobian for symbolic d: x an IndexedBase, indices i, j in 1..d.

    SymPy differentiates the sums; sum x_k is named S (so mu = S/d) and
    sum (x_k - mu)^2 is named Q (so sigma = sqrt(Q/d)); the remaining sums are linear
    in x_k and are evaluated by linearity (that is where sum_k c_k = 0 enters).

    >>> derive_layer_norm_jacobian_general().holds
    True
    """
    g = general_entry()
    d = d_symbol
    sigma = sqrt(g.sums.Q / d)
    y = {t: indexed_layer_norm(g.sums.x, t, g.sums.S, g.sums.Q) for t in (g.i, g.j)}
    stated = stated_entry(y[g.i], y[g.j], KroneckerDelta(g.i, g.j), sigma, d)
    return compare("LayerNorm Jacobian, symbolic d", g.derived, stated)


y_i, y_j = symbols("y_i y_j", real=True)
sigma_symbol = Symbol("sigma", positive=True)


@lru_cache(maxsize=1)
def proved_entry() -> Expr:
    """dLN(x)_i/dx_j as derived for symbolic d, written in y_i, y_j, KroneckerDelta(i, j),
    sigma and d: x_t = sigma y_t + S/d and Q = d sigma^2, after which S must cancel.

    >>> proved_entry()
    KroneckerDelta(i, j)/sigma - y_i*y_j/(d*sigma) - 1/(d*sigma)
    """
    g = general_entry()
    x, total, sigma = g.sums.x, g.sums.S, sigma_symbol
    entry = g.derived.xreplace(
        {x[g.i]: sigma * y_i + total / d_symbol, x[g.j]: sigma * y_j + total / d_symbol}
    )
    entry = expand(entry.subs(g.sums.Q, d_symbol * sigma**2))
    if not entry.free_symbols <= {y_i, y_j, sigma, d_symbol, g.i, g.j}:
        raise ValueError(f"the derived entry is not a function of y_i, y_j, sigma: {entry}")
    return entry


def output_sums(indexed: IndexedNormalise = indexed_layer_norm) -> tuple[Expr, Expr]:
    """(sum_k y_k, sum_k y_k^2) for y = `indexed`(x) (LN by default) and symbolic d, from
    the definition: sum_k (x_k - S/d)/sigma by linearity, and
    sum_k (x_k - S/d)^2 / sigma^2 = Q / (Q/d). 命題 3.1 (2) says they are 0 and d.

    >>> output_sums()
    (0, d)
    """
    sums = indexed_sums()
    y = indexed(sums.x, sums.k_range[0], sums.S, sums.Q)
    ones_sum, squares_sum = (sums.evaluate(Sum(y**p, sums.k_range)) for p in (1, 2))
    return expand(ones_sum), expand(squares_sum)


def general_jacobian_properties(
    stated_entry: EntryFormula = chapter_entry,
) -> dict[str, Expr]:
    """命題 3.3 (1), (2) for symbolic d, on the entry formula: each value is 0 when the
    property holds. P = sigma J; the facts sum_k y_k = 0 and sum_k y_k^2 = d come from
    `output_sums` (and are checked there). Trace d - 2 with P idempotent gives rank d - 2.

    >>> set(general_jacobian_properties().values())
    {0}
    """
    d = d_symbol
    i, j, k, t = symbols("i j k t", integer=True, positive=True)
    y = IndexedBase("y", real=True)
    sigma = Symbol("sigma", positive=True)
    ones_sum, squares_sum = output_sums()
    facts = {Sum(y[k], (k, 1, d)): ones_sum, Sum(y[k] ** 2, (k, 1, d)): squares_sum}

    def P(a: Symbol, b: Symbol) -> Expr:
        return sigma * stated_entry(y[a], y[b], KroneckerDelta(a, b), sigma, d)

    def reduce(e: Expr) -> Expr:
        return normalise_sums(e, d, facts, (i, j, k, t))

    return {
        "J 1 = 0": reduce(Sum(P(i, j) / sigma, (j, 1, d))),
        "J y = 0": reduce(Sum(P(i, j) / sigma * y[j], (j, 1, d))),
        "s J symmetric": reduce(P(i, j) - P(j, i)),
        "s J idempotent": reduce(Sum(P(i, t) * P(t, j), (t, 1, d)) - P(i, j)),
        "tr(s J) = d - 2": reduce(Sum(P(i, i), (i, 1, d)) - (d - 2)),
    }
