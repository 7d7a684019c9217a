"""Orders of growth of counts: whether a polynomial is O(·) or Θ(·) of another as its
variables grow, under a regime such as n ≥ d.

A count's variables are sizes (≥ 1). In logarithms u = log x, a monomial is exp(e·u)
and a regime x ≥ y is the half-space u_x ≥ u_y, so the sizes allowed form a cone C in
u ≥ 0. A polynomial p with nonnegative coefficients is O(q) when p/q stays bounded on
C: for each monomial m of p, the exponents e_m - e_j (j over q's monomials) must never
be positive all at once on C, and by homogeneity that is the infeasibility of the
linear system {u ∈ C, (e_m - e_j)·u ≥ 1 for every j}, decided exactly by Fourier-Motzkin
elimination in rationals (a count has a handful of sizes, so the elimination stays small;
SymPy's simplex returns points outside such systems once every variable is bounded at 0).
Θ is O both ways.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import sympy

Regime = Iterable[tuple[sympy.Symbol, sympy.Symbol]]  # (x, y): x ≥ y
Inequality = tuple[tuple[Fraction, ...], Fraction]  # (a, b): a·u ≥ b


def feasible(system: list[Inequality]) -> bool:
    """Whether some real u satisfies every a·u ≥ b: Fourier-Motzkin elimination, one
    variable at a time, exact."""
    while system and len(system[0][0]):
        k = len(system[0][0]) - 1  # the last variable goes
        rest = [(a[:k], b) for a, b in system if a[k] == 0]
        upper = [(a, b) for a, b in system if a[k] < 0]
        lower = [(a, b) for a, b in system if a[k] > 0]
        for a, b in lower:
            for c, e in upper:
                p, q = -c[k], a[k]  # p·(a·u ≥ b) + q·(c·u ≥ e) has no u_k
                rest.append(
                    (tuple(p * x + q * y for x, y in zip(a[:k], c[:k], strict=True)), p * b + q * e)
                )
        system = rest
    return all(b <= 0 for _, b in system)


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
    at = {v: k for k, v in enumerate(variables)}

    def unit(k: int, sign: int = 1) -> tuple[Fraction, ...]:
        return tuple(Fraction(sign * (j == k)) for j in range(len(variables)))

    cone = [(unit(k), Fraction(0)) for k in range(len(variables))]  # sizes ≥ 1
    cone += [  # x ≥ y
        (tuple(a + b for a, b in zip(unit(at[x]), unit(at[y], -1), strict=True)), Fraction(0))
        for x, y in pairs
    ]
    for m in mine:
        grows = [
            (tuple(Fraction(a - b) for a, b in zip(m, e, strict=True)), Fraction(1)) for e in theirs
        ]
        if feasible(cone + grows):
            return False  # along some direction m outgrows every monomial of q
    return True


def same_order(p: sympy.Expr, q: sympy.Expr, regime: Regime = ()) -> bool:
    """Whether p = Θ(q) as the sizes grow within the regime."""
    pairs = list(regime)
    return is_big_o(p, q, pairs) and is_big_o(q, p, pairs)
