"""§2 準備: the permutation matrix (定義 2.1) and softmax with its masked form (定義 2.2)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable

import mpmath
import numpy as np
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from numeric.error_bounds import (
    gamma,
    softmax_error_bound,
)
from numeric.softmax import masked_softmax, softmax
from proofs.book.claims import Claim
from proofs.book.judge import Verdict, judge_cases, judge_within, require, weigh
from proofs.book.stated import prose_integers
from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.chapters.self_attention.strategies import (
    FIXED_SOFTMAX_INPUTS,
    float_arrays,
    softmax_inputs,
)
from proofs.evidence.measures import (
    equivariance_defect,
    permutation_matrix,
)
from proofs.evidence.reference import (
    DIGITS,
    mp_error,
)
from symbolic import mask as sym_mask
from symbolic.softmax import softmax as symbolic_softmax


def _require_facts(pi: tuple[int, ...], facts: dict[str, bool], numeric: bool = False) -> None:
    """One judgement of the four facts of 定義 2.1 at pi, naming every one that fails: the
    first implies the others (P is then the permutation matrix), so judged one after
    another only the first could ever fail."""
    failing = [name for name, holds in facts.items() if not holds]
    require(
        not failing, f"{'numeric' if numeric else 'symbolic'}, pi = {pi}: {', '.join(failing)} fail"
    )


NOTION_EXAMPLES = {
    "row-wise": np.tanh,
    "invariant": lambda y: np.sum(y, axis=0),
    "neither": lambda y: np.cumsum(y, axis=0),
}
"""A map of each kind 定義 2.1 names: row-wise (so equivariant), invariant, neither."""


@CHAPTER.element(
    "def-permutation-matrix",
    "定義 2.1",
    "置換行列・同変・不変",
    "definition",
    ("symbolic", "numeric"),
    claims=(
        Claim(r"(P_\pi)_{ij} := 1"),
        Claim(r"j = \pi(i)"),
        Claim(r"f(PX) = P f(X)"),
        Claim(r"f(PX) = f(X)"),
        Claim(r"G(X)_i := g(\boldsymbol{x}_i)"),
        Claim(
            r"(P_\pi X)_{ij} = \sum_l (P_\pi)_{il} X_{lj} = X_{\pi(i) j}",
            where="text",
        ),
        Claim(
            r"(A P_\pi^{\mathsf{T}})_{ij} = \sum_l A_{il}(P_\pi)_{jl} = A_{i\pi(j)}",
            where="text",
        ),
        Claim(r"P_\pi^{\mathsf{T}} P_\pi = I", where="text"),
        Claim(r"P_\pi \boldsymbol{1} = \boldsymbol{1}", where="text"),
        Claim(
            "各行に 1 がちょうど 1 個ある",
            phrase=True,
            where="text",
            argument="ones_per_row",
            read=prose_integers,
        ),
    ),
)
def def_permutation_matrix(
    ones_per_row: tuple[int, ...],
    permutation_matrix=permutation_matrix,
    examples: dict = NOTION_EXAMPLES,
) -> list[str]:
    """(P_pi)_ij = 1 iff j = pi(i): symbolic for every permutation of n = 1..4 (SymPy matrices
    of symbols): P_pi X has row i = x_pi(i), A P_pi^T has column j = a_pi(j), P_pi^T P_pi =
    I, P_pi 1 = 1, and each row holds as many 1s as the text says (`ones_per_row`, 「各行に 1
    がちょうど 1 個」). Numeric on Hypothesis-drawn permutations (n <= 8) and float64 X: the same
    four facts hold bit for bit (products by 0 and 1 and sums with exact zeros are exact).
    The notions defined, on `examples`: a row-wise map (tanh per row) has zero equivariance
    defect, an invariant map (column sums) f(PX) = f(X) within the rounding of two sums, and
    a map that is neither (cumulative row sums) has a defect above that bound, on a witness
    (4 x 3, rows swapped in pairs)."""
    entry, count_per_row = ones_per_row  # 「各行に 1 がちょうど 1 個」
    evidence = []
    count = 0
    for n in range(1, 5):
        x = sp.Matrix(n, 2, lambda i, j: sp.Symbol(f"x_{i}{j}"))
        a = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"a_{i}{j}"))
        for pi in itertools.permutations(range(n)):
            p_num = np.asarray(permutation_matrix(pi))
            require(
                p_num.shape == (n, n) and set(np.unique(p_num)) <= {0.0, 1.0},
                f"P_pi for pi = {pi} is not a 0/1 matrix of shape ({n}, {n}): {p_num}",
            )
            p = sp.Matrix(np.rint(p_num).astype(int).tolist())
            _require_facts(
                pi,
                {
                    "P_pi X = X[pi]": p * x == x.extract(list(pi), [0, 1]),
                    "A P_pi^T = A[:, pi]": a * p.T == a.extract(list(range(n)), list(pi)),
                    "P_pi^T P_pi = I": p.T * p == sp.eye(n),
                    "P_pi 1 = 1": p * sp.ones(n, 1) == sp.ones(n, 1),
                    f"each row holds {count_per_row} entries {entry}": all(
                        list(p.row(i)).count(entry) == count_per_row for i in range(n)
                    ),
                },
            )
            count += 1
    evidence.append(
        f"symbolic: P_pi X, A P_pi^T, P_pi^T P_pi = I, P_pi 1 = 1 for all {count} "
        "permutations of n = 1..4"
    )

    drawn = []

    @given(
        st.integers(1, 8).flatmap(
            lambda n: st.tuples(
                st.permutations(list(range(n))),
                float_arrays((n, 3), 1e3),
                float_arrays((2, n), 1e3),
            )
        )
    )
    def numeric(case):
        pi, x, a = case
        p = np.asarray(permutation_matrix(pi))
        _require_facts(
            pi,
            {
                "P_pi X = X[pi]": np.array_equal(p @ x, x[list(pi)]),
                "A P_pi^T = A[:, pi]": np.array_equal(a @ p.T, a[:, list(pi)]),
                "P_pi^T P_pi = I": np.array_equal(p.T @ p, np.eye(len(pi))),
                "P_pi 1 = 1": np.array_equal(p @ np.ones(len(pi)), np.ones(len(pi))),
            },
            numeric=True,
        )
        drawn.append(len(pi))

    numeric()
    evidence.append(
        f"numeric: the four facts bit for bit on {len(drawn)} drawn permutations "
        f"(n up to {max(drawn)})"
    )

    x = np.arange(12.0).reshape(4, 3) / 7
    swap = [1, 0, 3, 2]
    row_wise = equivariance_defect(examples["row-wise"], x, swap).max()
    neither = equivariance_defect(examples["neither"], x, swap).max()
    require(row_wise == 0.0, f"the row-wise example has equivariance defect {row_wise:.2e}")
    # two sums of the same 4 terms in different orders: each within gamma_3 sum|x| of exact
    sums_bound = 2 * gamma(len(x) - 1) * np.abs(x).sum(axis=0).max()
    invariant = judge_within(
        examples["invariant"](x[swap]) - examples["invariant"](x),
        sums_bound,
        "the invariant example changes under a row permutation",
    )
    require(
        neither > sums_bound, f"the example of neither looks equivariant (defect {neither:.2e})"
    )
    evidence.append(
        f"the notions: row-wise defect 0, invariant map f(PX) = f(X) to "
        f"{invariant.largest:.1e}, cumulative sums neither (defect {neither:.2f})"
    )
    return evidence


@functools.cache
def symbolic_definition(n: int, allowed: tuple[int, ...] | None = None) -> Callable:
    """SymPy's sigma (symbolic.softmax.softmax) or sigma^U (symbolic.mask.masked_softmax,
    U = allowed, 0-based) of n symbols, as an mpmath function of the n entries."""
    z = sp.symbols(f"z1:{n + 1}", real=True)
    expr = (
        symbolic_softmax(sp.Matrix(z))
        if allowed is None
        else sym_mask.masked_softmax(sp.Matrix(z), allowed)
    )
    return sp.lambdify(z, expr, "mpmath")


@CHAPTER.element(
    "def-softmax",
    "定義 2.2",
    "softmax とマスクつき softmax",
    "definition",
    ("symbolic", "numeric", "high precision"),
    claims=(
        Claim(r"\sigma(\boldsymbol{z})_i := \frac{e^{z_i}}{\sum_{j=1}^{n} e^{z_j}}"),
        Claim(
            r"\sigma^{U}(\boldsymbol{z})_i := \frac{e^{z_i}}{\sum_{j \in U} e^{z_j}} "
            r"\quad (i \in U)",
        ),
        Claim(r"\sigma^{U}(\boldsymbol{z})_i := 0 \quad (i \notin U)"),
    ),
)
def def_softmax(softmax=softmax, masked_softmax=masked_softmax) -> list[str]:
    """The NumPy softmax is the definition e^{z_i} / sum_j e^{z_j}: the SymPy definition
    (symbolic.softmax.softmax, n = 1..8) is evaluated by mpmath at 50 digits on
    Hypothesis-drawn z (float64 up to 1e300, float32 up to 1e30, and fixed inputs with
    entries up to ±1.7e308), and every entry of the NumPy result lies within the
    softmax_error_bound of it; float32 in gives float32 out. sigma^U: masked entries are
    exactly 0 and the others within the same bound of the SymPy sigma^U
    (symbolic.mask.masked_softmax) at 50 digits; an empty U and a non-finite z are
    ValueErrors."""

    evidence = []
    plain: list[Verdict] = []

    def judge(z: np.ndarray) -> None:
        got = np.asarray(softmax(z))
        require(
            got.dtype == z.dtype and got.shape == z.shape,
            f"softmax of a {z.dtype} array of shape {z.shape} gave {got.dtype} {got.shape}",
        )
        with mpmath.workdps(DIGITS):
            exact = list(symbolic_definition(z.size)(*[mpmath.mpf(float(t)) for t in z]))
            err = mp_error(got, exact)
        plain.append(
            weigh(err, softmax_error_bound(z, got), f"softmax({z.tolist()}) = {got.tolist()}")
        )

    for z in FIXED_SOFTMAX_INPUTS:
        judge(z)
    given(softmax_inputs())(judge)()
    judged = judge_cases(plain, "softmax off the definition")
    evidence.append(
        f"softmax = the SymPy definition at 50 digits within the rounding bound on "
        f"the fixed and drawn inputs (largest error/bound {judged.ratio:.2f})"
    )

    masked_cases: list[Verdict] = []

    def masked(case):
        z, allowed = case
        mask = np.array(allowed)
        got = np.asarray(masked_softmax(z, mask))
        require(
            bool(np.all(got[~mask] == 0.0)),
            f"sigma^U leaves {got[~mask].tolist()} at masked positions of {z.tolist()}",
        )
        with mpmath.workdps(DIGITS):
            definition = symbolic_definition(z.size, tuple(i for i, ok in enumerate(allowed) if ok))
            err = mp_error(got, list(definition(*[mpmath.mpf(float(t)) for t in z])))
        bound = softmax_error_bound(np.where(mask, z, -np.inf)[mask], got[mask])
        masked_cases.append(weigh(err[mask], bound, f"sigma^U({z.tolist()}, U = {allowed})"))

    masked((np.array([1.0, 2.0, 0.5]), [True, True, False]))
    given(
        st.integers(1, 6).flatmap(
            lambda n: st.tuples(
                float_arrays((n,), 50.0),
                st.lists(st.booleans(), min_size=n, max_size=n).filter(any),
            )
        )
    )(masked)()
    judged = judge_cases(masked_cases, "sigma^U off the definition")
    evidence.append(
        f"sigma^U: masked entries exactly 0, the rest = the SymPy sigma^U at "
        f"50 digits within the bound (largest error/bound {judged.ratio:.2f})"
    )

    for bad, what in (
        (lambda: masked_softmax(np.zeros(3), np.zeros(3, dtype=bool)), "empty U"),
        (lambda: softmax(np.array([0.0, np.nan])), "a NaN entry"),
    ):
        try:
            bad()
        except ValueError:
            continue
        require(False, f"{what} was not rejected with a ValueError")
    evidence.append("an empty U and a NaN entry are ValueErrors")
    return evidence
