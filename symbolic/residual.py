"""The residual identity path (命題 4.1) and the 8 terms of 演習 11.3, with
non-commutative symbols (Jacobians do not commute; the identity is the scalar 1).

Pre-LN: d x_M / d x_l = (I + J_M) ... (I + J_{l+1}) expands into 2^(M - l)
distinct products with exactly one bare I. Post-LN: K_M (I + D_M) ... K_{l+1}
(I + D_{l+1}) has no bare I, and its D-free term is K_M ... K_{l+1}.
"""

from __future__ import annotations

from dataclasses import dataclass

from sympy import Add, Expr, Mul, Symbol, expand


def jacobians(name: str, M: int, start: int) -> list[Symbol]:
    """name_M, ..., name_{start+1}: non-commutative symbols, outermost first.

    >>> jacobians("J", 3, 1)
    [J_3, J_2]
    """
    if not (isinstance(M, int) and isinstance(start, int)) or not 0 <= start < M:
        raise ValueError(f"need integers 0 <= start < M, got M = {M!r}, start = {start!r}")
    return [Symbol(f"{name}_{k}", commutative=False) for k in range(M, start, -1)]


def pre_ln_product(M: int, start: int) -> Expr:
    """(I + J_M)(I + J_{M-1}) ... (I + J_{start+1}), unexpanded.

    >>> pre_ln_product(2, 0)
    (1 + J_2)*(1 + J_1)
    """
    return Mul(*(1 + J for J in jacobians("J", M, start)))


def post_ln_product(M: int, start: int) -> Expr:
    """K_M (I + D_M) ... K_{start+1} (I + D_{start+1}), unexpanded.

    >>> post_ln_product(1, 0)
    K_1*(1 + D_1)
    """
    K, D = jacobians("K", M, start), jacobians("D", M, start)
    return Mul(*(k * (1 + dd) for k, dd in zip(K, D, strict=True)))


@dataclass(frozen=True)
class ResidualExpansion:
    """The terms of an expanded product of Jacobians (命題 4.1): how many are I alone,
    and whether they are all different.

    >>> expand_product(pre_ln_product(2, 0)).bare_identity_count
    1
    """

    terms: tuple[Expr, ...]  # the expanded products, each with coefficient 1
    bare_identity_count: int  # how many terms are the identity alone
    distinct: bool  # no two terms are equal (no coefficient > 1 after expansion)


def expand_product(expr: Expr) -> ResidualExpansion:
    """The product expanded into its terms, each counted once.

    >>> len(expand_product(pre_ln_product(3, 0)).terms)
    8
    """
    terms = Add.make_args(expand(expr))
    coefficients_one = all(t.as_coeff_Mul()[0] == 1 for t in terms)
    return ResidualExpansion(
        tuple(terms),
        sum(1 for t in terms if t == 1),
        coefficients_one and len(set(terms)) == len(terms),
    )


def d_free_term(expr: Expr) -> Expr:
    """The terms with no D factor (every D_k set to 0).

    >>> d_free_term(post_ln_product(2, 0))
    K_2*K_1
    """
    ds = {s: 0 for s in expr.free_symbols if s.name.startswith("D_")}
    return expand(expr).xreplace(ds) if ds else expand(expr)
