"""The self-attention chapter's notation: what each name of its formulas means, at
explicit sizes, for deciding its formulas (proofs.tex.decide).

Sizes: n = 3 positions (m = 3 keys), d = 4, d_k = d_v = 2, h = 2 heads. Vectors
are columns of real symbols (z, m, q, k, v); matrices (X, Q, K, V, W_Q, ...) are
matrices of real symbols. sigma is the package's softmax (symbolic.softmax,
row by row on a matrix), J its Jacobian, sigma^U the masked softmax, A the
attention weights of Q, K and Attn, MHA the definitions of 定義 4.1 computed
from them; in 命題 4.4, E, Var and Cov are those of independent standard normal q_i,
k_i.
"""

from __future__ import annotations

import functools
from typing import Any

import sympy

from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.tex.symbolic import Evaluator
from symbolic.softmax import softmax

N, D, D_K, H = 3, 4, 2, 2


def _softmax_rows(x: sympy.Matrix) -> sympy.Matrix:
    """sigma of a vector, or of each row of a matrix (a row stays a row)."""
    if x.cols == 1:
        return softmax(x)
    return sympy.Matrix.vstack(*[softmax(x[r, :].T).T for r in range(x.rows)])


def _masked(allowed: frozenset[int]) -> Any:
    def sigma_u(z: sympy.Matrix) -> sympy.Matrix:
        total = sum(sympy.exp(z[j - 1]) for j in allowed)
        return sympy.Matrix(
            [sympy.exp(z[i]) / total if i + 1 in allowed else 0 for i in range(len(z))]
        )

    return sigma_u


def _matrix(name: str, rows: int, cols: int) -> sympy.Matrix:
    return sympy.Matrix(rows, cols, lambda i, j: sympy.Symbol(f"{name}_{i + 1}{j + 1}", real=True))


def _vector(name: str, size: int) -> sympy.Matrix:
    return sympy.Matrix([sympy.Symbol(f"{name}_{i + 1}", real=True) for i in range(size)])


def _attention(q: sympy.Matrix, k: sympy.Matrix, v: sympy.Matrix) -> sympy.Matrix:
    return _softmax_rows(q * k.T / sympy.sqrt(q.cols)) * v


@functools.cache
def _base() -> dict[str, Any]:
    z = _vector("z", N)
    sigma_z = softmax(z)
    q, k = _vector("q", D_K), _vector("k", D_K)
    x = _matrix("x", N, D)
    Q, K, V = _matrix("q", N, D_K), _matrix("k", N, D_K), _matrix("v", N, D_K)
    allowed = frozenset({1, 2})
    permutation = sympy.Matrix([[0, 1, 0], [1, 0, 0], [0, 0, 1]])
    return {
        "n": sympy.Integer(N),
        "m": sympy.Integer(N),
        "d": sympy.Integer(D),
        "d_k": sympy.Integer(D_K),
        "d_v": sympy.Integer(D_K),
        "h": sympy.Integer(H),
        "bold z": z,
        "sigma": _softmax_rows,
        "bold sigma": sigma_z,
        "J": lambda v: softmax(v).jacobian(z),
        "delta": sympy.KroneckerDelta,
        "diag": lambda v: sympy.diag(*v),
        "bold 1": sympy.ones(N, 1),
        "bold 0": sympy.zeros(N, 1),
        "I": sympy.eye(N),
        "P": permutation,
        "P_pi": permutation,
        "c": sympy.Symbol("c", real=True),
        "U": allowed,
        "bold m": sympy.Matrix([0 if i + 1 in allowed else 1 for i in range(N)]),
        "sigma^U": _masked(allowed),
        "bold q": q,
        "bold k": k,
        "X": x,
        "Q": Q,
        "K": K,
        "V": V,
        "A": _softmax_rows(Q * K.T / sympy.sqrt(D_K)),
        "Attn": _attention,
    }


def _indices(evaluator: Evaluator) -> range:
    return range(1, int(evaluator.names["n"]) + 1)


@functools.cache
def _random() -> dict[str, Any]:
    """命題 4.4 and its proof: q_i, k_i independent standard normal variables, with E, Var
    and Cov of polynomials in them by their moments (E[x^m] = (m - 1)!! for even m, 0 for
    odd m), exactly as sympy.stats would integrate them, without integrating."""
    q = _vector("q", D_K)
    k = _vector("k", D_K)
    variables = set(q) | set(k)

    def expectation(x: sympy.Expr) -> sympy.Expr:
        poly = sympy.Poly(sympy.expand(x), *sorted(variables, key=str))
        return sum(
            (
                coefficient * sympy.prod(_normal_moment(m) for m in powers)
                for powers, coefficient in poly.terms()
            ),
            sympy.Integer(0),
        )

    def variance(x: sympy.Expr) -> sympy.Expr:
        return expectation(x**2) - expectation(x) ** 2

    def covariance(x: sympy.Expr, y: sympy.Expr) -> sympy.Expr:
        return expectation(x * y) - expectation(x) * expectation(y)

    return {"bold q": q, "bold k": k, "E": expectation, "Var": variance, "Cov": covariance}


def _normal_moment(m: int) -> sympy.Integer:
    return sympy.Integer(0) if m % 2 else sympy.factorial2(m - 1)


def _causal() -> dict[str, Any]:
    """定義 4.1 and 命題 4.2: U_i = {1, ..., i} the positions row i attends to, S the
    scores s_ij of Q and K."""
    base = _base()
    return {
        "U": lambda i: frozenset(range(1, int(i) + 1)),
        "S": base["Q"] * base["K"].T / sympy.sqrt(D_K),
    }


@CHAPTER.notation
def environment(number: str | None = None) -> Evaluator:
    """The names of the chapter at the explicit sizes above; in 命題 4.4 the coordinates of
    q and k are random."""
    random = number == "命題 4.4"
    names = {
        **_base(),
        **(_random() if random else {}),
        **(_causal() if number in ("定義 4.1", "命題 4.2") else {}),
    }
    indices = (lambda _: range(1, D_K + 1)) if random else _indices
    return Evaluator(
        names,
        index_ranges={name: indices for name in "ijklt"},
        entries={
            "z": "bold z",
            "sigma": "bold sigma",
            "m": "bold m",
            "q": "bold q",
            "k": "bold k",
            "s": "S",
        },
    )
