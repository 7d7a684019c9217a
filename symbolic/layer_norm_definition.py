"""LayerNorm as defined (定義 2.1), at an explicit width d: mean, biased variance, LN and
its wrong unbiased variant, SymPy's own Jacobian of it, and the chapter's stated Jacobian in
the chapter's symbols y = LN(x) and sigma.
"""

from __future__ import annotations

from collections.abc import Callable

from sympy import Expr, Matrix, MatrixBase, Symbol, eye, ones, sqrt, symbols

Normalise = Callable[..., Matrix]
JacobianFormula = Callable[[Matrix, Expr], Matrix]


def check_width(d: object, low: int = 2) -> int:
    """d when it is an int >= low (a bool or a float is refused, though 3.0 == 3)."""
    if isinstance(d, bool) or not isinstance(d, int):
        raise TypeError(f"d must be an int, got {type(d).__name__} {d!r}")
    if d < low:
        raise ValueError(f"d must be >= {low}, got {d}")
    return d


def _as_column(x: object, name: str = "x") -> Matrix:
    if not isinstance(x, MatrixBase):
        raise TypeError(f"{name} must be a sympy Matrix, got {type(x).__name__}")
    if x.cols != 1 or x.rows < 2:
        raise ValueError(f"{name} must be a column with at least 2 entries, got shape {x.shape}")
    return Matrix(x)


def variables(d: int) -> Matrix:
    """x_1..x_d as a column of real symbols.

    >>> list(variables(2))
    [x_1, x_2]
    """
    check_width(d)
    return Matrix(symbols(f"x_1:{d + 1}", real=True))


def mean(x: Matrix) -> Expr:
    """mu(x) = (1/d) sum_i x_i.

    >>> mean(Matrix([1, 2, 6]))
    3
    """
    return sum(x) / x.rows


def variance(x: Matrix) -> Expr:
    """sigma^2(x) = (1/d) sum_i (x_i - mu)^2 (the biased variance of 定義 2.1).

    >>> variance(Matrix([1, 2, 6]))
    14/3
    """
    mu = mean(x)
    return sum((xi - mu) ** 2 for xi in x) / x.rows


def layer_norm(
    x: Matrix, eps: Expr = 0, gamma: Matrix | None = None, beta: Matrix | None = None
) -> Matrix:
    """LN(x) = gamma * (x - mu 1) / sqrt(sigma^2 + eps) + beta (定義 2.1).

    >>> list(layer_norm(Matrix([1, 3])))
    [-1, 1]
    """
    x = _as_column(x)
    y = (x - mean(x) * ones(x.rows, 1)) / sqrt(variance(x) + eps)
    if gamma is not None:
        y = y.multiply_elementwise(_as_column(gamma, "gamma"))
    if beta is not None:
        y = y + _as_column(beta, "beta")
    return y


def unbiased_layer_norm(x: Matrix, eps: Expr = 0) -> Matrix:
    """A wrong variant: divides by the unbiased variance sum (x_i - mu)^2 / (d - 1).

    >>> list(unbiased_layer_norm(Matrix([1, 3])))
    [-sqrt(2)/2, sqrt(2)/2]
    """
    x = _as_column(x)
    d = x.rows
    return (x - mean(x) * ones(d, 1)) / sqrt(variance(x) * d / (d - 1) + eps)


def chapter_jacobian(y: Matrix, sigma: Expr) -> Matrix:
    """The chapter's formula: J = (1/sigma)(I - (1/d) 1 1^T - (1/d) y y^T).

    >>> chapter_jacobian(Matrix([1, -1]), 2).is_zero_matrix  # d = 2: J = 0
    True
    """
    d = y.rows
    return (eye(d) - ones(d, d) / d - y * y.T / d) / sigma


def layer_norm_jacobian(
    d: int, eps: Expr = 0, normalise: Normalise = layer_norm
) -> tuple[Matrix, Matrix]:
    """(x, J): the Jacobian of normalise(x, eps) in d explicit variables, by SymPy.

    >>> from symbolic.identities import is_zero
    >>> is_zero(layer_norm_jacobian(2)[1])  # d = 2: LN(x) = +-(1, -1) is locally constant
    True
    """
    x = variables(d)
    return x, normalise(x, eps).jacobian(x)  # (d, d)


def output_symbols(d: int) -> tuple[Matrix, Symbol]:
    """The chapter's own symbols: y_1..y_d (the output LN(x)) and sigma."""
    return Matrix(symbols(f"y_1:{d + 1}", real=True)), Symbol("sigma", positive=True)
