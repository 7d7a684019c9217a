"""Orders of growth of counts: whether a polynomial is O(·) or Θ(·) of another as its
variables grow, under a regime such as n ≥ d.

A count's variables are sizes (≥ 1). In logarithms u = log x, a monomial is exp(e·u)
and a regime x ≥ y is the half-space u_x ≥ u_y, so the sizes allowed form a cone C in
u ≥ 0. A polynomial p with nonnegative coefficients is O(q) when p/q stays bounded on
C: for each monomial m of p, the exponents e_m - e_j (j over q's monomials) must never
be positive all at once on C, and by homogeneity that is the infeasibility of the
linear program {u ∈ C, (e_m - e_j)·u ≥ 1 for every j}, decided exactly by SymPy's
simplex. Θ is O both ways.
"""

from __future__ import annotations

from collections.abc import Iterable

import sympy
from sympy.solvers.simplex import InfeasibleLPError, lpmax

Regime = Iterable[tuple[sympy.Symbol, sympy.Symbol]]  # (x, y): x ≥ y


def _exponents(p: sympy.Expr, variables: list[sympy.Symbol], name: str) -> list[tuple[int, ...]]:
    """The exponent vectors of p's monomials; p must be a polynomial in `variables` whose
    coefficients are positive numbers once expanded."""
    if not isinstance(p, sympy.Expr):
        raise TypeError(f"{name} must be a SymPy expression, got {type(p).__name__}")
    try:
        poly = sympy.Poly(sympy.expand(p), *variables)
    except sympy.PolynomialError as error:
        raise ValueError(f"{name} must be a polynomial in the sizes, got {p}") from error
    terms = poly.terms()
    if not terms or any(not (c.is_number and c > 0) for _, c in terms):
        raise ValueError(f"{name} must have positive coefficients once expanded, got {p}")
    return [tuple(int(k) for k in e) for e, _ in terms]


def is_big_o(p: sympy.Expr, q: sympy.Expr, regime: Regime = ()) -> bool:
    """Whether p = O(q) as the sizes grow within the regime (pairs (x, y) for x ≥ y)."""
    pairs = list(regime)
    variables = sorted(
        set(sympy.sympify(p).free_symbols)
        | set(sympy.sympify(q).free_symbols)
        | {s for pair in pairs for s in pair},
        key=str,
    )
    if not variables:  # O(1) against O(1)
        variables = [sympy.Symbol("x")]
    mine, theirs = _exponents(p, variables, "p"), _exponents(q, variables, "q")
    u = sympy.symbols(f"u0:{len(variables)}")
    at = {v: k for k, v in enumerate(variables)}
    cone = [x >= 0 for x in u] + [u[at[x]] - u[at[y]] >= 0 for x, y in pairs]
    for m in mine:
        grows = [sum((a - b) * x for a, b, x in zip(m, e, u, strict=True)) >= 1 for e in theirs]
        if any(g is sympy.false for g in grows):
            continue  # some monomial of q has every exponent of m: m/q is bounded
        try:
            lpmax(sympy.Integer(0), cone + grows)
        except InfeasibleLPError:
            continue
        return False
    return True


def same_order(p: sympy.Expr, q: sympy.Expr, regime: Regime = ()) -> bool:
    """Whether p = Θ(q) as the sizes grow within the regime."""
    pairs = list(regime)
    return is_big_o(p, q, pairs) and is_big_o(q, p, pairs)
