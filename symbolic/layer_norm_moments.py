"""LayerNorm's invariance and moments (命題 3.1, 演習 11.2): LN(a x + b 1) = LN(x), and the
mean, variance and norm of g LN(x) + b, at an explicit width and for symbolic d.
"""

from __future__ import annotations

from dataclasses import dataclass

from sympy import Expr, Matrix, Sum, Symbol, expand, ones, sqrt, symbols

from symbolic.layer_norm_definition import Normalise, layer_norm, mean, variables, variance
from symbolic.layer_norm_general import IndexedNormalise, indexed_layer_norm, indexed_sums
from symbolic.symbols import d as d_symbol


def invariance_difference(d: int, normalise: Normalise = layer_norm) -> Matrix:
    """LN(a x + b 1) - LN(x) for a > 0 and any b (命題 3.1 (1), gamma = 1, beta = 0).

    >>> from symbolic.identities import is_zero
    >>> is_zero(invariance_difference(2))
    True
    """
    x = variables(d)
    a = Symbol("a", positive=True)
    b = Symbol("b", real=True)
    return normalise(a * x + b * ones(d, 1)) - normalise(x)


@dataclass(frozen=True)
class Moments:
    """Mean, variance and Euclidean norm of a LayerNorm output.

    >>> from symbolic.identities import is_zero
    >>> is_zero(moments(2, 1, 0).mean)
    True
    """

    mean: Expr
    variance: Expr
    norm: Expr


def moments(
    d: int, g: Expr | None = None, b: Expr | None = None, normalise: Normalise = layer_norm
) -> Moments:
    """Moments of `normalise`(x) (LN, 定義 2.1, by default) with gamma = g 1, beta = b 1 in
    d explicit variables (演習 11.2; g = 1, b = 0 gives 命題 3.1 (2): 0, 1, sqrt(d)).

    >>> from symbolic.identities import is_zero
    >>> is_zero(moments(2, 3, 5).variance - 9)
    True
    """
    x = variables(d)
    g = Symbol("g", real=True) if g is None else g
    b = Symbol("b", real=True) if b is None else b
    z = normalise(x, 0, g * ones(d, 1), b * ones(d, 1))
    return Moments(mean(z), variance(z), sqrt(sum(zi**2 for zi in z)))


def moments_general(indexed: IndexedNormalise = indexed_layer_norm) -> Moments:
    """The same for symbolic d and y = `indexed`(x) (LN by default), z = g y + b summed
    from the definition over k = 1..d (sum y_k = 0 and sum y_k^2 = d for LN, 命題 3.1 (2)).

    >>> moments_general().mean
    b
    """
    d = d_symbol
    g, b = symbols("g b", real=True)
    sums = indexed_sums()
    k = sums.k_range[0]
    z = g * indexed(sums.x, k, sums.S, sums.Q) + b
    z_sum, squares_sum = (expand(sums.evaluate(Sum(z**p, sums.k_range))) for p in (1, 2))
    z_mean = z_sum / d
    return Moments(z_mean, expand(squares_sum / d - z_mean**2), sqrt(squares_sum))
