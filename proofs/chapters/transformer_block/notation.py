"""The Transformer-block chapter's notation: what each name of its formulas means, at
explicit sizes, for deciding its formulas (proofs.tex.decide).

Sizes: d = 4, n = 3 rows, d_ff = 2. x is a column of real symbols; mu and sigma^2 are
the mean and the biased variance (division by d, 定義 2.1); LN is the package's
LayerNorm (symbolic.layer_norm) with gamma, beta (columns of symbols) and eps > 0 in
定義 2.1, and gamma = 1, beta = 0, eps = 0 where the statement says so (命題 3.1,
命題 3.3, their proofs); J is LN's Jacobian, sigma the standard deviation and y = LN(x)
there. ReLU and GELU (t Phi(t), Phi the normal distribution function) act entrywise.
"""

from __future__ import annotations

import functools
from typing import Any

import sympy

from proofs.chapters.transformer_block.chapter import CHAPTER
from proofs.tex.symbolic import Evaluator
from symbolic import layer_norm as symbolic_layer_norm

D, N, D_FF = 4, 3, 2
NORMALISED = ("命題 3.1", "命題 3.3", "演習 11.2")  # eps = 0, gamma = 1, beta = 0 stated


def _vector(name: str, size: int) -> sympy.Matrix:
    return sympy.Matrix([sympy.Symbol(f"{name}_{i + 1}", real=True) for i in range(size)])


def _matrix(name: str, rows: int, cols: int) -> sympy.Matrix:
    return sympy.Matrix(rows, cols, lambda i, j: sympy.Symbol(f"{name}_{i + 1}{j + 1}", real=True))


def _entrywise(f: Any) -> Any:
    def apply(v: Any) -> Any:
        return v.applyfunc(f) if isinstance(v, sympy.MatrixBase) else f(v)

    return apply


def _cdf(t: sympy.Expr) -> sympy.Expr:
    return (1 + sympy.erf(t / sympy.sqrt(2))) / 2


@functools.cache
def _names(normalised: bool) -> dict[str, Any]:
    x = _vector("x", D)
    gamma = sympy.ones(D, 1) if normalised else _vector("gamma", D)
    beta = sympy.zeros(D, 1) if normalised else _vector("beta", D)
    eps = sympy.Integer(0) if normalised else sympy.Symbol("epsilon", positive=True)

    def mean(v: sympy.Matrix) -> sympy.Expr:
        return symbolic_layer_norm.mean(v)

    def variance(v: sympy.Matrix) -> sympy.Expr:
        return symbolic_layer_norm.variance(v)

    def normalise(v: sympy.Matrix) -> sympy.Matrix:
        return symbolic_layer_norm.layer_norm(v, eps, gamma, beta)

    names: dict[str, Any] = {
        "d": sympy.Integer(D),
        "n": sympy.Integer(N),
        "d_ff": sympy.Integer(D_FF),
        "bold x": x,
        "mu": mean,
        "sigma^2": variance,
        "LN": normalise,
        "bold gamma": gamma,
        "bold beta": beta,
        "epsilon": eps,
        "bold 1": sympy.ones(D, 1),
        "bold 0": sympy.zeros(D, 1),
        "I": sympy.eye(D),
        "a": sympy.Symbol("a", positive=True),
        "b": sympy.Symbol("b", real=True),
        "g": sympy.Symbol("g", positive=True),
        "ReLU": _entrywise(lambda t: sympy.Max(0, t)),
        "GELU": _entrywise(lambda t: t * _cdf(t)),
        "Phi": _entrywise(_cdf),
        "X": _matrix("x", N, D),
        "W_1": _matrix("w", D, D_FF),
        "W_2": _matrix("v", D_FF, D),
        "bold b_1": _vector("b", D_FF),
        "bold b_2": _vector("c", D),
        "bold v": _vector("v", D),
    }
    if normalised:
        names["J"] = lambda v: normalise(v).jacobian(x)
        names["sigma"] = sympy.sqrt(variance(x))
        names["bold y"] = normalise(x)
    return names


@CHAPTER.notation
def environment(number: str | None = None) -> Evaluator:
    """The names of the chapter at the explicit sizes above, at the element `number`."""
    return Evaluator(
        _names(number in NORMALISED),
        index_ranges={name: (lambda e: range(1, D + 1)) for name in "ijk"},
        entries={"x": "bold x", "y": "bold y", "gamma": "bold gamma", "beta": "bold beta"},
    )
