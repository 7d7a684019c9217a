"""Moments of the dot product <q, k> (命題 4.4) and E of a product (補題 A.1), with sympy.stats.

Coordinates are independent with mean 0 and variance 1. For explicit d_k the
square of <q, k> is expanded into monomials and each monomial's expectation is
the product of one-variable moments (that factorisation is 補題 A.1, itself
checked by `product_expectation` on joint distributions). For symbolic d_k the
same sums are written with Sum over the coordinate index and evaluated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from sympy import Expr, Mul, Poly, Rational, Sum, Symbol, expand, simplify, sqrt, symbols
from sympy.stats import E, Normal, Rademacher, Uniform

Distribution = Callable[[str], Expr]  # name -> a sympy.stats random variable


def standard_normal(name: str) -> Expr:
    return Normal(name, 0, 1)


def rademacher(name: str) -> Expr:
    return Rademacher(name)


def centred_uniform(name: str) -> Expr:
    """Uniform on [-sqrt 3, sqrt 3]: mean 0, variance 1."""
    return Uniform(name, -sqrt(3), sqrt(3))


DISTRIBUTIONS = {"normal": standard_normal, "rademacher": rademacher, "uniform": centred_uniform}


@dataclass(frozen=True)
class DotMoments:
    mean: Expr  # E<q, k>
    variance: Expr  # Var<q, k>
    scaled_variance: Expr  # Var(<q, k> / sqrt(d_k))


@lru_cache(maxsize=64)
def _moment(distribution: Distribution, power: int) -> Expr:
    """E[X^power] for one coordinate (cached: sympy.stats integrates each time)."""
    return E(distribution("X") ** power) if power else 1


def dot_product_moments(
    d_k: int | Symbol, distribution: Distribution = standard_normal
) -> DotMoments:
    """E, Var of <q, k> and Var of <q, k>/sqrt(d_k) for independent coordinates."""
    m1, m2 = _moment(distribution, 1), _moment(distribution, 2)
    if isinstance(d_k, Symbol):
        i = Symbol("i", integer=True, positive=True)
        mean = Sum(m1 * m1, (i, 1, d_k)).doit()
        # Var = sum_i Var(q_i k_i) + sum_{i != j} Cov(q_i k_i, q_j k_j), the latter
        # E[q_i]E[k_i]E[q_j]E[k_j] - (E[q_i]E[k_i])(E[q_j]E[k_j]) = 0 term by term
        variance = Sum(m2 * m2 - (m1 * m1) ** 2, (i, 1, d_k)).doit()
        return DotMoments(simplify(mean), simplify(variance), simplify(variance / d_k))
    if isinstance(d_k, bool) or not isinstance(d_k, int) or d_k < 1:
        raise ValueError(f"d_k must be a positive int or a Symbol, got {d_k!r}")
    q = symbols(f"q_1:{d_k + 1}")
    k = symbols(f"k_1:{d_k + 1}")
    dot = sum(qi * ki for qi, ki in zip(q, k, strict=True))
    moments = {p: _moment(distribution, p) for p in range(3)}  # dot^2 has powers <= 2

    def expectation(poly: Expr) -> Expr:
        # independent coordinates: E of a monomial is the product of its moments
        P = Poly(expand(poly), *q, *k)
        return sum(
            (c * Mul(*(moments[p] for p in monom)) for monom, c in P.terms()), Rational(0)
        )

    mean = expectation(dot)
    variance = expectation(dot**2) - mean**2
    return DotMoments(mean, variance, expand(variance / d_k))


def product_expectation(variables: Sequence[Expr]) -> tuple[Expr, Expr]:
    """(E[X_1 ... X_m] computed on the joint distribution, E[X_1] ... E[X_m])."""
    return simplify(E(Mul(*variables))), Mul(*(E(X) for X in variables))
