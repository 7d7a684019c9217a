"""Every element of the self-attention chapter (000_ce182fefa314a82b.txt) as a check.

Read top to bottom: the Hypothesis strategies, then the 26 checks in the chapter's
order (補題 A.1 of the appendix beside 命題 4.4, whose proof uses it). A check
takes what it judges as keyword arguments (the package's functions, the chapter's
stated formulas and printed numbers) and returns one evidence line per fact
established, or raises CheckFailed.

What the checks use: tolerances are first-order rounding-error bounds evaluated on
the actual operands (numeric.error_bounds), never tuned constants; exact values
come from the definitions at 50 digits (proofs.reference); equivariance and
causality defects are measured by proofs.measures and judged here.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from decimal import Decimal

import mpmath
import numpy as np
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from numeric.attention import attention, causal_mask, multi_head_attention
from numeric.contraction import count_multiplications
from numeric.error_bounds import (
    EXP_ULPS,
    attention_error_bound,
    entrywise_model_error_bound,
    gamma,
    mha_error_bound,
    softmax_error_bound,
    softmax_jacobian_error_bound,
    unit_roundoff,
)
from numeric.kv_cache import Decoder
from numeric.mlp import mlp
from numeric.model import forward as model_forward
from numeric.model import init_parameters
from numeric.parameters import parameter_count, sub_parameters
from numeric.softmax import masked_softmax, softmax, softmax_jacobian
from proofs.measures import (
    LAYER_KINDS,
    causal_defect,
    decoded_in_chunks,
    equivariance_defect,
    model_prefix_defect,
    permutation_matrix,
    ratio,
    run_stack,
    stack_equivariance,
)
from proofs.profiles import scaled
from proofs.reference import (
    DIGITS,
    mp_attention,
    mp_central_jacobian,
    mp_error,
    mp_multi_head_attention,
    mp_softmax,
    mp_softmax_exact,
)
from proofs.registry import element, require
from proofs.tables import attention_complexity_table, scaling_table
from spec.config import ModelConfig
from spec.contractions import ATTENTION_WEIGHTS_MEMORY
from symbolic import counts, probability, symbols
from symbolic import mask as sym_mask
from symbolic import softmax as sym
from symbolic.softmax import softmax as symbolic_softmax

CHAPTER = "self-attention"

# --------------------------------------------------------------------------------------
# Strategies (Hypothesis) shared by the checks
# --------------------------------------------------------------------------------------


def _floats(bound: float, width: int = 64) -> st.SearchStrategy[float]:
    """Finite floats in [-bound, bound] (bound rounded to the nearest float of `width`)."""
    if width == 32:
        bound = float(np.float32(bound))
    return st.floats(-bound, bound, allow_nan=False, allow_infinity=False, width=width)


def _array(shape: tuple[int, ...], bound: float = 3.0, dtype=np.float64) -> st.SearchStrategy:
    width = 32 if np.dtype(dtype) == np.float32 else 64
    return hnp.arrays(dtype, shape, elements=_floats(bound, width))


@st.composite
def attention_parameters_strategy(draw, h: int, d: int, bias: bool | None = None) -> dict:
    """w_q, w_k, w_v (h, d, d/h), w_o (h, d/h, d), and with `bias` the four biases."""
    k = d // h
    p = {name: draw(_array((h, d, k), 1.0)) for name in ("w_q", "w_k", "w_v")}
    p["w_o"] = draw(_array((h, k, d), 1.0))
    if draw(st.booleans()) if bias is None else bias:
        p.update({name: draw(_array((h, k), 1.0)) for name in ("b_q", "b_k", "b_v")})
        p["b_o"] = draw(_array((d,), 1.0))
    return p


@st.composite
def mha_case(draw, max_n: int = 5, max_heads: int = 3, max_head_width: int = 3) -> tuple:
    """(x (n, d), params) with h | d drawn: h heads of width d/h."""
    h = draw(st.integers(1, max_heads))
    d = h * draw(st.integers(1, max_head_width))
    n = draw(st.integers(1, max_n))
    return draw(_array((n, d), 2.0)), draw(attention_parameters_strategy(h, d))


def _float_case(dtype) -> tuple[float, int]:
    """(largest |z| drawn, bit width) for a float dtype: float64 draws up to 1e300 (beyond,
    z_i - max z may overflow to -inf, which softmax maps to the exact limit 0; a fixed
    input covers it); float32 up to 1e30."""
    return (1e300, 64) if np.dtype(dtype) == np.float64 else (1e30, 32)


# Inputs every softmax check runs besides the drawn ones: entries far beyond exp's range
# (overflow without the max shift), all-underflow rows, and the float64 extremes.
FIXED_SOFTMAX_INPUTS = (
    np.array([1000.0, 999.0, 0.0]),
    np.array([-1000.0, -1001.0, -1002.0]),
    np.array([1.7e308, -1.7e308, 0.0]),
    np.array([100.0, 0.0], dtype=np.float32),
)


def _softmax_inputs(max_n: int = 8) -> st.SearchStrategy:
    """z of 1..max_n entries, float64 (|z| <= 1e300) or float32 (|z| <= 1e30), mixing
    moderate values with huge ones."""

    def arrays(dtype):
        bound, width = _float_case(dtype)
        elements = st.one_of(_floats(30.0, width), _floats(bound, width))
        return st.integers(1, max_n).flatmap(
            lambda n: hnp.arrays(dtype, (n,), elements=elements))

    return st.one_of(arrays(np.float64), arrays(np.float32))


# --------------------------------------------------------------------------------------
# 2. 準備：置換行列と softmax
# --------------------------------------------------------------------------------------


@element("def-permutation-matrix", "定義 2.1", "置換行列・同変・不変", CHAPTER, "definition",
         ("symbolic", "numeric"))
def def_permutation_matrix(permutation_matrix=permutation_matrix) -> list[str]:
    """(P_pi)_ij = 1 iff j = pi(i): symbolic for every permutation of n = 1..4 (SymPy
    matrices of symbols): P_pi X has row i = x_pi(i), A P_pi^T has column j = a_pi(j),
    P_pi^T P_pi = I, P_pi 1 = 1. Numeric on Hypothesis-drawn permutations (n <= 8) and
    float64 X: the same four facts hold bit for bit (products by 0 and 1 and sums with
    exact zeros are exact). The notions defined: a row-wise map (tanh per row) has zero
    equivariance defect, an invariant map (column sums) f(PX) = f(X), and a map that is
    neither (cumulative row sums) has a defect above 1 on a witness."""
    evidence = []
    count = 0
    for n in range(1, 5):
        x = sp.Matrix(n, 2, lambda i, j: sp.Symbol(f"x_{i}{j}"))
        a = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"a_{i}{j}"))
        for pi in itertools.permutations(range(n)):
            p_num = np.asarray(permutation_matrix(pi))
            require(p_num.shape == (n, n) and set(np.unique(p_num)) <= {0.0, 1.0},
                    f"P_pi for pi = {pi} is not a 0/1 matrix of shape ({n}, {n}): {p_num}")
            p = sp.Matrix(np.rint(p_num).astype(int).tolist())
            require(p * x == x.extract(list(pi), [0, 1]),
                    f"P_pi X does not put row pi(i) in row i for pi = {pi}")
            require(a * p.T == a.extract(list(range(n)), list(pi)),
                    f"A P_pi^T does not put column pi(j) in column j for pi = {pi}")
            require(p.T * p == sp.eye(n), f"P_pi^T P_pi != I for pi = {pi}")
            require(p * sp.ones(n, 1) == sp.ones(n, 1), f"P_pi 1 != 1 for pi = {pi}")
            count += 1
    evidence.append(f"symbolic: P_pi X, A P_pi^T, P_pi^T P_pi = I, P_pi 1 = 1 for all {count} "
                    "permutations of n = 1..4")

    drawn = []

    @given(st.integers(1, 8).flatmap(lambda n: st.tuples(
        st.permutations(list(range(n))), _array((n, 3), 1e3), _array((2, n), 1e3))))
    def numeric(case):
        pi, x, a = case
        p = np.asarray(permutation_matrix(pi))
        require(np.array_equal(p @ x, x[list(pi)]), f"P_pi X != X[pi] for pi = {pi}")
        require(np.array_equal(a @ p.T, a[:, list(pi)]), f"A P_pi^T != A[:, pi] for pi = {pi}")
        require(np.array_equal(p.T @ p, np.eye(len(pi))), f"P^T P != I for pi = {pi}")
        require(np.array_equal(p @ np.ones(len(pi)), np.ones(len(pi))), f"P 1 != 1 for {pi}")
        drawn.append(len(pi))

    numeric()
    evidence.append(f"numeric: the four facts bit for bit on {len(drawn)} drawn permutations "
                    f"(n up to {max(drawn)})")

    x = np.arange(12.0).reshape(4, 3) / 7
    pi = [1, 0, 3, 2]
    row_wise = equivariance_defect(np.tanh, x, pi).max()
    invariant = np.abs(x[pi].sum(axis=0) - x.sum(axis=0)).max()
    neither = equivariance_defect(lambda y: np.cumsum(y, axis=0), x, pi).max()
    require(row_wise == 0.0, f"a row-wise map has equivariance defect {row_wise:.2e}")
    # two sums of the same 4 terms in different orders: each within gamma_3 sum|x| of exact
    sums_bound = 2 * gamma(len(x) - 1) * np.abs(x).sum(axis=0).max()
    require(invariant <= sums_bound,
            f"column sums change by {invariant:.2e} under a row permutation")
    require(neither > sums_bound, f"cumulative sums look equivariant (defect {neither:.2e})")
    evidence.append(f"the notions: row-wise defect 0, invariant map f(PX) = f(X) to "
                    f"{invariant:.1e}, cumulative sums neither (defect {neither:.2f})")
    return evidence


@functools.cache
def symbolic_definition(n: int, allowed: tuple[int, ...] | None = None) -> Callable:
    """SymPy's sigma (symbolic.softmax.softmax) or sigma^U (symbolic.mask.masked_softmax,
    U = allowed, 0-based) of n symbols, as an mpmath function of the n entries."""
    z = sp.symbols(f"z1:{n + 1}", real=True)
    expr = (symbolic_softmax(sp.Matrix(z)) if allowed is None
            else sym_mask.masked_softmax(sp.Matrix(z), allowed))
    return sp.lambdify(z, expr, "mpmath")


@element("def-softmax", "定義 2.2", "softmax とマスクつき softmax", CHAPTER, "definition",
         ("symbolic", "numeric", "high precision"))
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
    worst = [0.0]

    def judge(z: np.ndarray) -> None:
        got = np.asarray(softmax(z))
        require(got.dtype == z.dtype and got.shape == z.shape,
                f"softmax of a {z.dtype} array of shape {z.shape} gave {got.dtype} {got.shape}")
        with mpmath.workdps(DIGITS):
            exact = list(symbolic_definition(z.size)(*[mpmath.mpf(float(t)) for t in z]))
            err = mp_error(got, exact)
        bound = softmax_error_bound(z, got)
        require(bool(np.all(err <= bound)),
                f"softmax({z.tolist()}) = {got.tolist()} is off the definition by "
                f"{np.max(err):.2e} > bound {bound[np.argmax(err - bound)]:.2e}")
        worst[0] = max(worst[0], ratio(err, bound))

    for z in FIXED_SOFTMAX_INPUTS:
        judge(z)
    given(_softmax_inputs())(judge)()
    evidence.append(f"softmax = the SymPy definition at 50 digits within the rounding bound on "
                    f"the fixed and drawn inputs (largest error/bound {worst[0]:.2f})")

    masked_worst = [0.0]

    def masked(case):
        z, allowed = case
        mask = np.array(allowed)
        got = np.asarray(masked_softmax(z, mask))
        require(bool(np.all(got[~mask] == 0.0)),
                f"sigma^U leaves {got[~mask].tolist()} at masked positions of {z.tolist()}")
        with mpmath.workdps(DIGITS):
            definition = symbolic_definition(z.size, tuple(i for i, ok in enumerate(allowed) if ok))
            err = mp_error(got, list(definition(*[mpmath.mpf(float(t)) for t in z])))
        bound = softmax_error_bound(np.where(mask, z, -np.inf)[mask], got[mask])
        require(bool(np.all(err[mask] <= bound)),
                f"sigma^U({z.tolist()}, U = {allowed}) is off by {err.max():.2e}")
        masked_worst[0] = max(masked_worst[0], ratio(err[mask], bound))

    masked((np.array([1.0, 2.0, 0.5]), [True, True, False]))
    given(st.integers(1, 6).flatmap(lambda n: st.tuples(
        _array((n,), 50.0), st.lists(st.booleans(), min_size=n, max_size=n)
        .filter(any))))(masked)()
    evidence.append(f"sigma^U: masked entries exactly 0, the rest = the SymPy sigma^U at "
                    f"50 digits within the bound (largest error/bound {masked_worst[0]:.2f})")

    for bad, what in ((lambda: masked_softmax(np.zeros(3), np.zeros(3, dtype=bool)), "empty U"),
                      (lambda: softmax(np.array([0.0, np.nan])), "a NaN entry")):
        try:
            bad()
        except ValueError:
            continue
        require(False, f"{what} was not rejected with a ValueError")
    evidence.append("an empty U and a NaN entry are ValueErrors")
    return evidence


@element("prop-softmax-basic", "命題 3.1", "softmax の基本性質", CHAPTER, "proposition",
         ("symbolic", "numeric"))
def prop_softmax_basic(softmax=softmax, symbolic=symbolic_softmax) -> list[str]:
    """Symbolic for symbolic n (IndexedBase sums): sum_i sigma_i = 1 and
    sigma(z + c1) = sigma(z); symbolic for n = 1..6, on `symbolic` (symbolic/'s softmax of a
    column of symbols): sum_i sigma_i = 1, every sigma_i is positive, and
    sigma_j - sigma_i = (e^{z_j} - e^{z_i}) / S with S > 0 and exp strictly increasing
    (its derivative is positive); sigma(Pz) = P sigma(z) for every permutation of n <= 4.
    Numeric, as Hypothesis properties of the NumPy softmax on float64 (|z| <= 1e300) and
    float32 (|z| <= 1e30) inputs and the fixed huge ones, tolerances from
    softmax_error_bound: sigma >= 0 everywhere and > 0 wherever e^{z_i - max z} exceeds n
    times the smallest normal float (below that it underflows, the only exception);
    |sum - 1| within the summed bounds; shift by drawn c within the bounds plus the
    rounding of z + c; z_i < z_j gives sigma_i <= sigma_j within the bounds and strictly
    when the exact gap exceeds them; z_i = z_j gives equal weights within the bounds;
    sigma(Pz) = P sigma(z) within the bounds."""
    evidence = []
    n, i, j = sp.symbols("n i j", integer=True, positive=True)
    z = sp.IndexedBase("z", real=True)
    c = sp.Symbol("c", real=True)
    total = sp.Sum(sp.exp(z[j]), (j, 1, n))
    require(sp.factor_terms(sp.Sum(sp.exp(z[j]) / total, (j, 1, n))) == 1,
            "sum_i sigma_i does not reduce to 1 for symbolic n")
    shifted = sp.exp(z[i] + c) / sp.Sum(sp.exp(z[j] + c), (j, 1, n)) - sp.exp(z[i]) / total
    require(sp.simplify(sp.factor_terms(sp.expand(shifted))) == 0,
            "sigma(z + c1) - sigma(z) does not reduce to 0 for symbolic n")
    evidence.append("symbolic n: sum sigma_i = 1 and sigma(z + c1) = sigma(z)")

    t = sp.Symbol("t", real=True)
    require(sp.diff(sp.exp(t), t).is_positive, "exp' is not positive")
    for size in range(1, 7):
        zs = sp.symbols(f"z1:{size + 1}", real=True)
        e = [sp.exp(v) for v in zs]
        s = sum(e)
        sigma = list(symbolic(sp.Matrix(zs)))
        require(sp.simplify(sum(sigma) - 1) == 0, f"sum_i sigma_i != 1 at n = {size}")
        require(all(v.is_positive for v in sigma), f"a sigma_i is not positive at n = {size}")
        require(s.is_positive, "the denominator is not positive")
        for a, b in itertools.combinations(range(size), 2):
            require(sp.expand(sp.together(sigma[b] - sigma[a]) * s - (e[b] - e[a])) == 0,
                    f"sigma_j - sigma_i != (e^z_j - e^z_i)/S at n = {size}")
        if size <= 4:
            for pi in itertools.permutations(range(size)):
                permuted = list(symbolic(sp.Matrix([zs[k] for k in pi])))
                require(all(sp.simplify(permuted[k] - sigma[pi[k]]) == 0
                            for k in range(size)), f"sigma(Pz) != P sigma(z) for pi = {pi}")
    evidence.append("symbolic n = 1..6: sigma_i > 0, order through exp' > 0; sigma(Pz) = "
                    "P sigma(z) for every permutation of n <= 4")

    u64 = unit_roundoff(np.float64)
    stats = {"cases": 0, "underflowed": 0, "strict": 0}

    def judge(z: np.ndarray, c: float, pi: list[int]) -> None:
        got = np.asarray(softmax(z))
        b = softmax_error_bound(z, got)
        require(bool(np.all(got >= 0)), f"softmax({z.tolist()}) has a negative entry")
        with np.errstate(over="ignore"):
            x = z.astype(np.float64) - float(z.max())
        tiny = float(np.finfo(z.dtype).tiny)
        safe = x > math.log(tiny * z.size)
        require(bool(np.all(got[safe] > 0)),
                f"softmax({z.tolist()}) has a zero entry that cannot underflow: {got.tolist()}")
        stats["underflowed"] += int(np.sum(got[~safe] == 0))
        require(abs(math.fsum(got.astype(np.float64)) - 1) <= b.sum() + u64,
                f"softmax({z.tolist()}) sums to {math.fsum(got.astype(np.float64))!r}")
        zc = (z + z.dtype.type(c)).astype(z.dtype)
        gc = np.asarray(softmax(zc))
        u = unit_roundoff(z.dtype)
        shift_err = 2 * u * float(np.max(np.abs(zc.astype(np.float64))))  # 2 max|delta|
        tol = b + softmax_error_bound(zc, gc) + got * shift_err
        require(bool(np.all(np.abs(gc - got) <= tol)),
                f"softmax(z + {c}) != softmax(z) at z = {z.tolist()}: {gc.tolist()} vs "
                f"{got.tolist()}")
        for a, bb in itertools.permutations(range(z.size), 2):
            if z[a] < z[bb]:
                require(got[a] <= got[bb] + b[a] + b[bb],
                        f"z_{a} < z_{bb} but sigma_{a} > sigma_{bb} at z = {z.tolist()}")
                gap = float(got[a]) * math.expm1(min(float(z[bb]) - float(z[a]), 700.0))
                if gap > 2 * (b[a] + b[bb]):
                    require(got[a] < got[bb],
                            f"z_{a} < z_{bb} but sigma_{a} = sigma_{bb} at z = {z.tolist()}")
                    stats["strict"] += 1
            elif z[a] == z[bb]:
                require(abs(got[a] - got[bb]) <= b[a] + b[bb],
                        f"z_{a} = z_{bb} but sigma differs at z = {z.tolist()}")
        gp = np.asarray(softmax(z[pi]))
        require(bool(np.all(np.abs(gp - got[pi]) <= softmax_error_bound(z[pi], gp) + b[pi])),
                f"softmax(Pz) != P softmax(z) at z = {z.tolist()}, pi = {pi}")
        stats["cases"] += 1

    for z in FIXED_SOFTMAX_INPUTS:
        judge(z, 1e3, list(range(z.size))[::-1])

    @given(_softmax_inputs().flatmap(lambda z: st.tuples(
        st.just(z), _floats(1e3), st.permutations(list(range(z.size))))))
    def numeric(case):
        judge(*case)

    numeric()
    evidence.append(f"numeric float64/float32 on {stats['cases']} inputs: positivity "
                    f"({stats['underflowed']} entries underflowed to 0 beyond the normal "
                    f"range), sum 1, shift invariance, {stats['strict']} strict order "
                    "pairs, ties and permutations, all within the rounding bound")
    return evidence


# --------------------------------------------------------------------------------------
# 3. softmax の性質：ヤコビ行列とマスク
# --------------------------------------------------------------------------------------


FD_DIGITS, FD_STEP = 80, "1e-25"
FD_ERROR = 1e-49  # truncation h^2 = 1e-50 plus rounding 10^-80 / h = 1e-55, with margin 10x


def mp_jacobian_fd(z: np.ndarray) -> list:
    """Central differences (sigma(z + h e_j) - sigma(z - h e_j)) / 2h at 80 digits, h = 1e-25.

    Truncation error h^2/6 max|d^3 sigma| <= h^2 (third derivatives of softmax are bounded
    by 6: each derivative multiplies by factors (delta - sigma) of size <= 1, the product
    rule giving at most 6 terms); rounding 10^-80 / h. Together below FD_ERROR.
    """
    return mp_central_jacobian(mp_softmax_exact, [float(t) for t in z], FD_STEP)

@functools.cache
def softmax_jacobian_derivation_failure(stated_entry: Callable, stated_matrix: Callable) -> str:
    """'' when symbolic.softmax derives the stated entry formula for symbolic n and n = 1..4
    and proves the stated matrix symmetric, J1 = 0, PSD and entrywise bounded for n = 1..4;
    else what failed. Derived once per pair of formulas."""
    general = sym.derive_softmax_jacobian_general(stated=stated_entry)
    if not general.holds:
        return f"derived - stated does not vanish for symbolic n: {general.difference}"
    for n in range(1, 5):
        derived = sym.derive_softmax_jacobian(n, stated=stated_entry)
        if not derived.holds:
            return f"n = {n}: derived - stated = {derived.difference}"
        if not sym.is_zero(sym.jacobian_asymmetry(n, stated_matrix)):
            return f"J != J^T at n = {n}"
        if not sym.is_zero(sym.jacobian_times_ones(n, stated_matrix)):
            return f"J1 != 0 at n = {n}"
        cert = sym.psd_certificate(n, stated_matrix)
        if not cert.holds:
            return f"no PSD certificate at n = {n}: {cert.difference}"
        bad = [c.claim for c in sym.entry_bound_certificates(n, stated_matrix) if not c.holds]
        if bad:
            return f"entry bound not certified at n = {n}: {bad}"
    return ""


@element("prop-softmax-jacobian", "命題 3.2", "softmax のヤコビ行列", CHAPTER, "proposition",
         ("symbolic", "numeric", "high precision"))
def prop_softmax_jacobian(jacobian=softmax_jacobian, stated_entry=None,
                          stated_matrix=None) -> list[str]:
    """dsigma_i/dz_j = sigma_i(delta_ij - sigma_j): derived by SymPy for symbolic n
    (IndexedBase, KroneckerDelta) and for n = 1..4 against the stated entry formula;
    for n = 1..4 the stated matrix diag(sigma) - sigma sigma^T is symmetric, has J1 = 0,
    a sigma-weighted sum-of-squares certificate of PSD, and certificates of
    |J_ij| <= 1 - max sigma in every case. Numeric: the NumPy Jacobian against mpmath
    central differences at 80 digits (h = 1e-25, error <= 1e-49) at Hypothesis-drawn
    z (n <= 8, |z_i| <= 30), within jacobian_error_bound (from softmax_error_bound);
    on the same points symmetry, v^T J v >= -|v|^T bound |v| (v the computed lowest
    eigenvector and a drawn v, v^T J v summed at 50 digits), |J1| and the entry bound,
    each within the propagated rounding bound."""

    stated_entry = sym.chapter_entry if stated_entry is None else stated_entry
    stated_matrix = sym.chapter_matrix if stated_matrix is None else stated_matrix
    evidence = []
    failure = softmax_jacobian_derivation_failure(stated_entry, stated_matrix)
    require(not failure, failure)
    evidence.append("symbolic n: J_ij = sigma_i(delta_ij - sigma_j) derived; n = 1..4: derived,"
                    " symmetric, J1 = 0, PSD and entry-bound certificates")

    worst = {"fd": 0.0, "psd": 0.0, "cases": 0}
    u64 = unit_roundoff(np.float64)

    def numeric(case):
        z, w = case
        jac = np.asarray(jacobian(z))
        require(jac.shape == (z.size, z.size), f"jacobian of shape {jac.shape} for n = {z.size}")
        sigma = np.asarray(softmax(z))
        bound = softmax_jacobian_error_bound(sigma, softmax_error_bound(z, sigma), jac)
        with mpmath.workdps(FD_DIGITS):
            err = mp_error(jac, mp_jacobian_fd(z))
        tol = bound + FD_ERROR
        require(bool(np.all(err <= tol)),
                f"J(z) at z = {z.tolist()} differs from the 80-digit finite differences by "
                f"{err.flat[np.argmax(err / tol)]:.2e} > bound "
                f"{tol.flat[np.argmax(err / tol)]:.2e}")
        worst["fd"] = max(worst["fd"], float(np.max(err / tol)))
        require(bool(np.all(np.abs(jac - jac.T) <= 2 * bound)), f"J not symmetric at {z}")
        vectors = [w] + ([np.linalg.eigh(jac)[1][:, 0]] if z.size > 1 else [])
        # v^T J v >= 0 is homogeneous in v: test unit vectors, so that the float slack
        # |v|^T bound |v| cannot underflow where the 50-digit v^T J v does not
        vectors = [v / np.linalg.norm(v) for v in vectors if np.linalg.norm(v) > 0]
        with mpmath.workdps(DIGITS):
            for v in vectors:
                quad = mpmath.fsum(mpmath.mpf(float(v[a])) * mpmath.mpf(float(jac[a, b]))
                                   * mpmath.mpf(float(v[b]))
                                   for a in range(z.size) for b in range(z.size))
                slack = float(np.abs(v) @ bound @ np.abs(v))
                require(quad >= -slack, f"v^T J v = {float(quad):.2e} < -{slack:.2e} at {z}")
                worst["psd"] = min(worst["psd"], float(quad))
        rows = np.array([math.fsum(r) for r in jac])
        require(bool(np.all(np.abs(rows) <= bound.sum(axis=1) + u64)),
                f"|J1| = {np.abs(rows).max():.2e} at z = {z.tolist()}")
        top = float(sigma.max())
        b_top = float(softmax_error_bound(z, sigma).max())
        require(bool(np.all(np.abs(jac) <= 1 - top + bound + b_top + u64)),
                f"|J_ij| > 1 - max sigma at z = {z.tolist()}")
        worst["cases"] += 1

    numeric((np.array([0.0, 1.0, 2.0]), np.array([1.0, -1.0, 0.5])))
    scaled(0.5)(given(st.integers(1, 8).flatmap(
        lambda n: st.tuples(_array((n,), 30.0), _array((n,), 1.0))))(numeric))()
    evidence.append(f"numeric on {worst['cases']} drawn z (n <= 8, |z| <= 30): J against 80-digit"
                    f" central differences (largest error/bound {worst['fd']:.2f}); symmetric, "
                    f"PSD (lowest v^T J v {worst['psd']:.1e}), J1 = 0, |J_ij| <= 1 - max sigma, "
                    "all within the rounding bound")
    return evidence


@functools.cache
def symbolic_mask_results() -> tuple[tuple[int, tuple[int, ...], bool, bool], ...]:
    """(n, U, limit = sigma^U, every masked bound certified) for n = 2..3 and every proper
    non-empty U (0-based), from symbolic.mask; derived once per process (about 3 s)."""
    results = []
    for n in range(2, 4):
        for r in range(1, n):
            for allowed in itertools.combinations(range(n), r):
                limit = sym_mask.mask_limit(n, allowed).holds
                bounds = all(sym_mask.mask_bound(n, allowed, i).holds
                             for i in range(n) if i not in allowed)
                results.append((n, allowed, limit, bounds))
    return tuple(results)


def _chapter_mask_bound(c, z_i, s_u):
    """The stated bound of 命題 3.3: sigma(z - c m)_i <= e^{-c} e^{z_i} / sum_{j in U} e^{z_j}."""
    return mpmath.exp(-c) * mpmath.exp(z_i) / s_u


@element("prop-mask-as-limit", "命題 3.3", "マスクは極限として正当化できる", CHAPTER, "proposition",
         ("symbolic", "numeric", "high precision"))
def prop_mask_as_limit(stated_bound=_chapter_mask_bound, masked_softmax=masked_softmax
                       ) -> list[str]:
    """lim_{c -> oo} sigma(z - c m) = sigma^U(z): SymPy limits for n = 2..3 and every
    proper non-empty U (symbolic.mask.mask_limit), and certificates that bound - sigma_i >= 0
    for i not in U (symbolic.mask.mask_bound). High precision: on Hypothesis-drawn z
    (n <= 6, |z_i| <= 20), U and c in [0, 1000] (float64 underflows e^{-c} past c = 745),
    sigma(z - c m) at 100 + c/ln 10 digits (enough to resolve e^{-c}) satisfies
    0 < sigma_i <= stated bound off U and
    |sigma_i - sigma^U_i| <= sigma^U_i e^{-c} S_notU / S_U on U. The NumPy masked_softmax
    equals the c = 1000 value within softmax_error_bound, with masked entries exactly 0."""
    evidence = []
    for n, allowed, limit_holds, bounds_hold in symbolic_mask_results():
        require(limit_holds, f"lim sigma(z - c m) != sigma^U(z) for n = {n}, U = {allowed}")
        require(bounds_hold, f"the e^(-c) bound is not certified for n = {n}, U = {allowed}")
    evidence.append(f"symbolic: the limit equals sigma^U and the e^(-c) bound is certified "
                    f"for all {len(symbolic_mask_results())} proper non-empty U of n = 2..3")

    stats = {"cases": 0, "max_c": 0.0, "smallest": None}

    def judge(z: np.ndarray, allowed: list[bool], c: float) -> None:
        # enough digits to resolve e^(-c) itself: 100 + c / ln 10, so the working precision's
        # rounding (10^-(digits - 5) allowed below) is 1e-95 e^(-c), far under every rate
        digits = 100 + int(c / math.log(10))
        with mpmath.workdps(digits):
            rounding = mpmath.mpf(10) ** (-(digits - 5))
            cm = mpmath.mpf(c)
            shifted = [mpmath.mpf(float(t)) - (0 if ok else cm) for t, ok in zip(z, allowed,
                                                                                 strict=True)]
            sig = mp_softmax_exact(shifted)
            target = mp_softmax(z, allowed)
            s_u = mpmath.fsum(mpmath.exp(mpmath.mpf(float(t))) for t, ok in zip(z, allowed,
                                                                               strict=True) if ok)
            s_out = mpmath.fsum(mpmath.exp(mpmath.mpf(float(t))) for t, ok in zip(z, allowed,
                                                                                 strict=True)
                                if not ok)
            for i, ok in enumerate(allowed):
                if ok:
                    gap = abs(sig[i] - target[i])
                    require(gap <= target[i] * mpmath.exp(-cm) * s_out / s_u + rounding,
                            f"|sigma_i - sigma^U_i| = {mpmath.nstr(gap, 5)} exceeds the "
                            f"e^(-c) rate at c = {c}, z = {z.tolist()}")
                else:
                    bound = stated_bound(cm, mpmath.mpf(float(z[i])), s_u)
                    require(0 < sig[i] <= bound + rounding,
                            f"sigma_{i} = {mpmath.nstr(sig[i], 5)} not in (0, "
                            f"{mpmath.nstr(bound, 5)}] at c = {c}, z = {z.tolist()}, U = "
                            f"{allowed}")
                    if c >= 745 and (stats["smallest"] is None or sig[i] < stats["smallest"]):
                        stats["smallest"] = sig[i]
        stats["cases"] += 1
        stats["max_c"] = max(stats["max_c"], c)

    judge(np.array([1.0, 2.0, 0.5]), [True, True, False], 10.0)
    for c in (1.0, 100.0, 1000.0):
        judge(np.array([1.0, 2.0, 0.5]), [True, True, False], c)

    @given(st.integers(2, 6).flatmap(lambda n: st.tuples(
        _array((n,), 20.0),
        st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda a: any(a) and not all(a)),
        st.floats(0.0, 1000.0))))
    def limit(case):
        judge(*case)

    limit()
    evidence.append(f"high precision on {stats['cases']} (z, U, c) with c up to "
                    f"{stats['max_c']:.0f}: "
                    "0 < sigma_i <= e^(-c) e^(z_i) / S_U off U, convergence at rate e^(-c) on U"
                    + ("" if stats["smallest"] is None else
                       f"; smallest masked weight {mpmath.nstr(stats['smallest'], 3)}, far "
                       "below float64's range"))

    def numpy_limit(case):
        z, allowed = case
        mask = np.array(allowed)
        got = np.asarray(masked_softmax(z, mask))
        require(bool(np.all(got[~mask] == 0.0)), f"masked entries {got[~mask]} are not 0")
        with mpmath.workdps(DIGITS):
            shifted = [mpmath.mpf(float(t)) - (0 if ok else 1000) for t, ok in zip(z, allowed,
                                                                                  strict=True)]
            err = mp_error(got, mp_softmax_exact(shifted))
        bound = softmax_error_bound(z[mask], got[mask])
        require(bool(np.all(err[mask] <= bound)),
                f"masked_softmax off the c = 1000 limit by {err.max():.2e} at {z.tolist()}")
        # masked entries: exactly 0 (required above), and sigma(z - 1000 m)_i <= e^-1000
        # e^{z_i}/S_U <= e^-960 for |z| <= 20, below the smallest float: 0 is the nearest one

    numpy_limit((np.array([1.0, 2.0, 0.5]), [True, True, False]))
    given(st.integers(1, 6).flatmap(lambda n: st.tuples(
        _array((n,), 20.0), st.lists(st.booleans(), min_size=n, max_size=n).filter(any)))
    )(numpy_limit)()
    evidence.append("NumPy masked_softmax = sigma(z - 1000 m) at 50 digits within the rounding "
                    "bound, masked entries exactly 0")
    return evidence


# --------------------------------------------------------------------------------------
# 4. スケール付き内積注意とマルチヘッド
# --------------------------------------------------------------------------------------


@st.composite
def qkv_case(draw, max_n: int = 5, max_m: int = 5, max_heads: int = 3, max_width: int = 3):
    """(q (h, n, d_k), k (h, m, d_k), v (h, m, d_v), mask (n, m) or None): the mask is
    None, causal (j <= i + m - n, when m >= n) or drawn with a non-empty row each."""
    h, n = draw(st.integers(1, max_heads)), draw(st.integers(1, max_n))
    m = draw(st.integers(1, max_m))
    d_k, d_v = draw(st.integers(1, max_width)), draw(st.integers(1, max_width))
    q, k, v = draw(_array((h, n, d_k))), draw(_array((h, m, d_k))), draw(_array((h, m, d_v), 5.0))
    kind = draw(st.sampled_from(("none", "causal", "drawn")))
    if kind == "causal":
        return q, k, v, causal_mask(n, m) if m >= n else None
    if kind == "drawn":
        rows = [draw(st.lists(st.booleans(), min_size=m, max_size=m).filter(any))
                for _ in range(n)]
        return q, k, v, np.array(rows)
    return q, k, v, None


@element("def-attention", "定義 4.1", "スケール付き内積注意・自己注意・マルチヘッド・因果マスク",
         CHAPTER, "definition", ("numeric", "high precision"))
def def_attention(attention=attention, multi_head_attention=multi_head_attention,
                  causal_mask=causal_mask) -> list[str]:
    """The NumPy functions are the definition. attention(q, k, v, mask) against
    sigma(Q K^T / sqrt(d_k)) V (sigma^U under a mask) evaluated by mpmath at 50 digits, on
    Hypothesis-drawn heads h <= 3, n, m <= 5, d_k, d_v <= 3, entries |.| <= 3 (values
    <= 5), with and without masks, within attention_error_bound. multi_head_attention
    against the definition written out (Q = X W_Q + 1 b_Q^T per head, concatenation, W_O,
    b_O) at 50 digits on drawn x (n <= 5, h | d, d <= 9), parameters with and without
    biases, causal and not, within mha_error_bound. causal_mask(n, m) is exactly
    {j <= i + m - n} for n <= 8, m = n..n+3, and the causal weights vanish exactly for
    j > i."""
    evidence = []
    for n in range(1, 9):
        for m in range(n, n + 4):
            want = np.array([[j <= i + (m - n) for j in range(m)] for i in range(n)])
            got = np.asarray(causal_mask(n, m))
            require(got.shape == want.shape and bool(np.all(got == want)),
                    f"causal_mask({n}, {m}) is not j <= i + m - n:\n{got.astype(int)}")
    evidence.append("causal_mask(n, m) = {j <= i + m - n} exactly for n <= 8, m = n..n+3")

    worst = {"attn": 0.0, "mha": 0.0, "cases": 0}

    def single(case):
        q, k, v, mask = case
        out, weights = attention(q, k, v, mask)
        with mpmath.workdps(DIGITS):
            err = mp_error(out, mp_attention(q, k, v, mask))
        bound = attention_error_bound(q, k, v, np.asarray(weights))
        require(bool(np.all(err <= bound)),
                f"attention off the definition by {err.max():.2e} > bound "
                f"{bound.flat[np.argmax(err - bound)]:.2e} (shapes {q.shape}, {k.shape}, mask "
                f"{None if mask is None else mask.astype(int).tolist()})")
        worst["attn"] = max(worst["attn"], ratio(err, bound))

    fixed = np.arange(1.0, 13.0).reshape(2, 3, 2) / 6  # (h, n, d_k) = (2, 3, 2)
    single((fixed, fixed[:, ::-1], fixed, None))
    single((fixed, fixed, fixed, np.tri(3, dtype=bool)))
    scaled(0.5)(given(qkv_case())(single))()

    @scaled(0.5)
    @given(mha_case(), st.booleans())
    def multi(case, causal):
        x, params = case
        out, weights = multi_head_attention(x, params, causal=causal)
        with mpmath.workdps(DIGITS):
            err = mp_error(out, mp_multi_head_attention(x, params, causal))
        bound = mha_error_bound(x, params, np.asarray(weights))
        require(bool(np.all(err <= bound)),
                f"multi_head_attention off the definition by {err.max():.2e} > bound "
                f"{bound.flat[np.argmax(err - bound)]:.2e} (x {x.shape}, h = "
                f"{params['w_q'].shape[0]}, causal = {causal})")
        if causal:
            upper = np.triu(np.ones(weights.shape[-2:], dtype=bool), 1)
            require(bool(np.all(np.asarray(weights)[:, upper] == 0)),
                    "causal weights are not exactly 0 above the diagonal")
        worst["mha"] = max(worst["mha"], ratio(err, bound))
        worst["cases"] += 1

    multi()
    evidence.append(f"attention and multi-head attention = the definition at 50 digits within "
                    f"the rounding bound (largest error/bound {worst['attn']:.2f} and "
                    f"{worst['mha']:.2f}); causal weights exactly 0 above the diagonal")
    return evidence


def _convexity_violation(out: np.ndarray, v: np.ndarray, weights: np.ndarray,
                         mask: np.ndarray | None, bound: np.ndarray, scores: np.ndarray) -> str:
    """'' when the computed head outputs satisfy 命題 4.2 within the bounds, else a reason.

    Weights: >= 0, exactly 0 where masked, row sums within the summed softmax bounds of
    1. Outputs: the exact output is a convex combination, and the computed one is within
    `bound` of it, so ||out_i|| <= max_j ||v_j|| + ||bound_i|| and each component lies in
    [min_j v_jl - bound_il, max_j v_jl + bound_il]."""
    if np.any(weights < 0):
        return f"a negative weight {weights.min():.2e}"
    if mask is not None and np.any(np.broadcast_to(~mask, weights.shape) & (weights != 0)):
        return "a masked weight is not exactly 0"
    u64 = unit_roundoff(np.float64)
    for index in np.ndindex(weights.shape[:-1]):
        row = weights[index]
        allowed = np.ones(row.shape, bool) if mask is None else np.broadcast_to(
            mask, weights.shape)[index]
        b = softmax_error_bound(scores[index][allowed], row[allowed])
        if abs(math.fsum(row) - 1) > b.sum() + u64:
            return f"weights of row {index} sum to {math.fsum(row)!r}"
    for a in range(out.shape[0]):
        top = np.linalg.norm(v[a], axis=-1).max()
        for i in range(out.shape[1]):
            norm = np.linalg.norm(out[a, i])
            if norm > top * (1 + 2 * u64 * v.shape[-1]) + np.linalg.norm(bound[a, i]):
                return f"||out|| = {norm!r} > max ||v_j|| = {top!r} (head {a}, row {i})"
            low, high = v[a].min(axis=0), v[a].max(axis=0)
            if np.any(out[a, i] < low - bound[a, i]) or np.any(out[a, i] > high + bound[a, i]):
                return f"a component leaves [min v, max v] (head {a}, row {i})"
    return ""


@element("prop-attention-convex-combination", "命題 4.2", "注意の出力は凸結合", CHAPTER,
         "proposition", ("numeric",))
def prop_attention_convex_combination(attention=attention,
                                      multi_head_attention=multi_head_attention) -> list[str]:
    """Output rows are convex combinations of the values: on Hypothesis-drawn heads
    (h <= 3, n, m <= 5, d_k, d_v <= 3, |q|, |k| <= 3, |v| <= 5) with no mask, the causal
    mask or a drawn mask: weights >= 0, exactly 0 where masked, row sums 1 within the
    summed softmax rounding bound; ||out_i|| <= max_j ||v_j|| and
    min_j (v_j)_l <= (out_i)_l <= max_j (v_j)_l within attention_error_bound (the exact
    output satisfies them; the computed one is within the bound of it). Also on a fixed
    input with a large score spread (|q|, |k| = 30), where one weight takes almost all,
    and for the weights multi_head_attention returns on drawn x and parameters (h | d,
    causal and not): >= 0, 0 above the diagonal under the mask, rows summing to 1 within
    2(2 EXP_ULPS + n + 2)u (exp, the length-n sum and the division, for the row of the
    exact softmax of the computed scores)."""
    stats = {"cases": 0, "masked": 0}

    def judge(q, k, v, mask):
        out, weights = attention(q, k, v, mask)
        out, weights = np.asarray(out), np.asarray(weights)
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])
        reason = _convexity_violation(out, v, weights, mask,
                                      attention_error_bound(q, k, v, weights), scores)
        require(not reason, f"命題 4.2 fails: {reason} (q {q.shape}, k {k.shape}, mask "
                            f"{None if mask is None else mask.astype(int).tolist()})")
        stats["cases"] += 1
        stats["masked"] += mask is not None

    rng = np.random.default_rng(7)
    q, k, v = 30 * rng.standard_normal((2, 4, 3)), 30 * rng.standard_normal((2, 4, 3)), \
        rng.standard_normal((2, 4, 2))
    judge(q, k, v, None)
    judge(q, k, v, np.tri(4, dtype=bool))
    given(qkv_case())(lambda case: judge(*case))()
    evidence = [f"weights >= 0 summing to 1, norm and component bounds on {stats['cases']} "
                f"inputs ({stats['masked']} masked), within the rounding bound"]

    @given(mha_case(), st.booleans())
    def multi_head(case, causal):
        x, params = case
        _, weights = multi_head_attention(x, params, causal=causal)
        weights = np.asarray(weights)
        n = x.shape[0]
        if np.any(weights < 0) or (causal and np.any(weights[:, ~np.tri(n, dtype=bool)] != 0)):
            require(False, f"multi-head weights negative or unmasked (causal = {causal})")
        # rows sum to 1 within the summed softmax_error_bound of the exact softmax of the
        # computed scores: sum_j sigma_j (rel_e_j + rel_S + u) with sum_j sigma_j u|x_j| <=
        # n u / e (|x| e^x <= 1/e), i.e. at most (4 EXP_ULPS + 2n/e + n + 1) u, plus u for fsum
        sums = np.array([math.fsum(r) for r in weights.reshape(-1, n)])
        tol = 2 * (2 * EXP_ULPS + n + 2) * unit_roundoff(np.float64)
        require(bool(np.all(np.abs(sums - 1) <= tol)),
                f"multi-head weight rows sum to {sums.tolist()}")
        stats["mha"] += 1

    stats["mha"] = 0
    multi_head()
    evidence.append(f"multi-head attention weights (drawn h | d, parameters, causal and not): "
                    f">= 0, rows summing to 1, on {stats['mha']} cases")
    return evidence


# The worked example as the chapter prints it (例 4.3): the claims this check judges.
EX_ATTENTION_BY_HAND = {
    "scores": [[0.7071, 0, 0.7071], [0, 0.7071, 0.7071], [0.7071, 0.7071, 1.4142]],
    "exp": {"e^0.7071": 2.0281, "e^1.4142": 4.1133},
    "row_sums": [5.0562, 8.1695],
    "weights": [[0.4011, 0.1978, 0.4011], [0.1978, 0.4011, 0.4011], [0.2483, 0.2483, 0.5035]],
    "output": [[0.8022, 0.5989], [0.5989, 0.8022], [0.7517, 0.7517]],
    "swapped_output": [[0.5989, 0.8022], [0.8022, 0.5989], [0.7517, 0.7517]],
    "causal_weights": [[1, 0, 0], [0.3302, 0.6698, 0], [0.2483, 0.2483, 0.5035]],
    "causal_row_sum": 3.0281,
    "causal_output": [[1, 0], [0.3302, 0.6698], [0.7517, 0.7517]],
    "changed_causal_output": [[1, 0], [0.3302, 0.6698], [5.0, -2.0]],
    "changed_unmasked_row_1": [4.6488, -1.8110],
}


def _identity_attention(x: np.ndarray, causal: bool, mha=multi_head_attention):
    """One head with W_Q = W_K = W_V = W_O = I and no biases (the example's layer)."""
    eye = np.eye(x.shape[1])
    params = {"w_q": eye[None], "w_k": eye[None], "w_v": eye[None], "w_o": eye[None]}
    out, weights = mha(x, params, causal=causal)
    return np.asarray(out), np.asarray(weights)[0]


@element("ex-attention-by-hand", "例 4.3", "n = 3, d = 2 の手計算", CHAPTER, "example",
         ("numeric", "symbolic"))
def ex_attention_by_hand(multi_head_attention=multi_head_attention,
                         printed=EX_ATTENTION_BY_HAND,
                         stated_self_score: str = "29/sqrt(2)") -> list[str]:
    """Every printed number of the worked example recomputed with the package's
    multi_head_attention (one head, W = I, no biases) and compared at the printed
    precision (4 decimals: |computed - printed| <= 5e-5): the scaled scores, e^0.7071 and
    e^1.4142, the row sums, A and AX; the output for rows 1 and 2 swapped; the causal
    weights, the causal row sum and output; and row 3 set to (5, -2) (its own score
    29/sqrt 2, exactly by SymPy) with the mask (rows 1, 2 unchanged bit for bit, row 3 =
    (5.0000, -2.0000)) and without it (row 1 = (4.6488, -1.8110))."""
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    scores = x @ x.T / math.sqrt(2)
    out, weights = _identity_attention(x, False, multi_head_attention)
    swapped, _ = _identity_attention(x[[1, 0, 2]], False, multi_head_attention)
    c_out, c_weights = _identity_attention(x, True, multi_head_attention)
    changed = x.copy()
    changed[2] = (5.0, -2.0)
    ch_out, _ = _identity_attention(changed, True, multi_head_attention)
    ch_free, _ = _identity_attention(changed, False, multi_head_attention)
    computed = {
        "scores": scores,
        "exp": {"e^0.7071": math.exp(scores[0, 0]), "e^1.4142": math.exp(scores[2, 2])},
        "row_sums": [np.exp(scores[0]).sum(), np.exp(scores[2]).sum()],
        "weights": weights,
        "output": out,
        "swapped_output": swapped,
        "causal_weights": c_weights,
        "causal_row_sum": np.exp(scores[1, :2]).sum(),
        "causal_output": c_out,
        "changed_causal_output": ch_out,
        "changed_unmasked_row_1": ch_free[0],
    }
    evidence = []
    for key, stated in printed.items():
        got = computed[key]
        if isinstance(stated, dict):
            pairs = [(f"{key}[{name}]", got[name], value) for name, value in stated.items()]
        else:
            pairs = [(key, np.asarray(got, dtype=float), np.asarray(stated, dtype=float))]
        for name, value, want in pairs:
            gap = float(np.max(np.abs(np.asarray(value) - np.asarray(want))))
            # half a unit of the 4th decimal, plus float64 rounding: the computed value
            # (exp to EXP_ULPS ulp, a 3-term sum, a division, a 3-term product: under 16
            # roundings of the largest magnitude involved, max(1, |printed|) since weights
            # are <= 1), the printed decimal's conversion and the subtraction (one u each)
            rounding = gamma(18) * max(1.0, float(np.max(np.abs(want))))
            require(gap <= 5e-5 + rounding,
                    f"{name}: computed {np.round(value, 6).tolist()} but the chapter prints "
                    f"{np.asarray(want).tolist()} (off by {gap:.1e} at 4 decimals)")
        shown = list(got.values()) if isinstance(got, dict) else got
        evidence.append(f"{key}: {np.round(np.asarray(shown, dtype=float), 4).tolist()}")
    row = sp.Matrix(changed[2].astype(int).tolist())
    self_score = row.dot(row) / sp.sqrt(2)
    stated_score = sp.sympify(stated_self_score)
    require(sp.simplify(self_score - stated_score) == 0,
            f"the changed row's own score is {self_score}, not {stated_score}")
    evidence.append(f"the changed row's own score is {self_score} = {stated_score} exactly")
    require(np.array_equal(c_out[:2], ch_out[:2]),
            "changing row 3 changed the causal output rows 1-2")
    evidence.append("changing row 3 leaves causal rows 1-2 bit for bit unchanged")
    evidence.append(f"note: the printed 'e^1.4142 = 4.1133' is e^sqrt(2) = "
                    f"{math.exp(math.sqrt(2)):.6f}; e^1.4142 itself is {math.exp(1.4142):.6f} "
                    f"(4.1132 at 4 decimals); the weights use the exact score sqrt(2)")
    return evidence


# --------------------------------------------------------------------------------------
# 4.1. なぜ sqrt(d_k) で割るのか
# --------------------------------------------------------------------------------------

MONTE_CARLO_SIGMAS = 5  # a fresh seed would miss by 5 standard errors with prob. < 6e-7


def _within(sample_value: float, stated: float, standard_error: float, what: str) -> str:
    gap = abs(sample_value - stated)
    require(gap <= MONTE_CARLO_SIGMAS * standard_error,
            f"{what}: sample {sample_value:.4f} vs stated {stated} differs by {gap:.4f} > "
            f"{MONTE_CARLO_SIGMAS} standard errors ({standard_error:.4f})")
    return f"{what} {sample_value:.3f} (stated {stated}, {gap / standard_error:.1f} SE)"


@functools.cache
def dot_moments() -> tuple:
    """(distribution, d_k, DotMoments) for symbolic d_k and d_k = 1..3 and each of
    symbolic.probability's unit-variance distributions; derived once per process."""
    return tuple((name, size, probability.dot_product_moments(size, distribution))
                 for name, distribution in probability.DISTRIBUTIONS.items()
                 for size in (symbols.d_k, 1, 2, 3))


@functools.cache
def product_expectations() -> tuple:
    """(m, E[X_1...X_m] on the joint distribution, (E[X_1], ..., E[X_m])) for m = 2, 3
    independent normal, exponential and uniform variables; derived once per process."""
    from sympy.stats import E, Exponential, Normal, Uniform

    variables = [Normal("X1", 1, 2), Exponential("X2", 3), Uniform("X3", 0, 2)]
    return tuple((m, probability.product_expectation(variables[:m])[0],
                  tuple(E(x) for x in variables[:m])) for m in (2, 3))


@element("prop-scaling-variance", "命題 4.4", "内積の分散は次元に比例する", CHAPTER, "proposition",
         ("symbolic", "numeric"))
def prop_scaling_variance(stated_variance=lambda d_k: d_k, stated_mean=0,
                          stated_scaled_variance=1) -> list[str]:
    """E<q,k> = 0, Var<q,k> = d_k, Var(<q,k>/sqrt d_k) = 1: symbolic from
    symbolic.probability.dot_product_moments for symbolic d_k and d_k = 1..3 with normal,
    Rademacher and uniform coordinates. Monte Carlo, seeded (default_rng(2024)), 20,000 pairs for
    d_k in (1, 4, 16, 64) and three unit-variance distributions (normal, Rademacher,
    uniform on [-sqrt 3, sqrt 3]): the sample mean within 5 standard errors of 0 (SE =
    sample sd / sqrt N), the sample variances within 5 standard errors of d_k and 1
    (SE = sqrt((m_4 - s^4)/N), m_4 the sample fourth central moment)."""
    evidence = []
    for name, size, moments in dot_moments():
        for what, got, want in (("mean", moments.mean, stated_mean),
                                ("variance", moments.variance, stated_variance(size)),
                                ("scaled variance", moments.scaled_variance,
                                 stated_scaled_variance)):
            require(sp.simplify(got - want) == 0,
                    f"{name}, d_k = {size}: {what} is {got}, the chapter states {want}")
    evidence.append("symbolic: mean 0, variance d_k, scaled variance 1 for symbolic d_k and "
                    "d_k = 1..3, normal, Rademacher and uniform coordinates")
    rng = np.random.default_rng(2024)
    draws = {
        "normal": lambda size: rng.standard_normal(size),
        "Rademacher": lambda size: rng.choice([-1.0, 1.0], size=size),
        "uniform": lambda size: rng.uniform(-math.sqrt(3), math.sqrt(3), size=size),
    }
    count = 20_000
    for name, draw in draws.items():
        for d_k in (1, 4, 16, 64):
            s = (draw((count, d_k)) * draw((count, d_k))).sum(axis=1)
            m4 = float(np.mean((s - s.mean()) ** 4))
            var = float(s.var())
            se_var = math.sqrt(max(m4 - var**2, 0.0) / count)
            scaled = s / math.sqrt(d_k)
            se_scaled = se_var / d_k
            _within(float(s.mean()), stated_mean, math.sqrt(var / count), "mean")
            _within(var, stated_variance(d_k), se_var, "variance")
            _within(float(scaled.var()), stated_scaled_variance, se_scaled, "scaled variance")
        evidence.append(f"{name}: mean, variance and scaled variance within 5 SE for d_k = 1, 4, "
                        "16, 64")
    return evidence


# The table of 例 4.5 as printed: (d_k, Var, scaled Var, raw max weight, scaled max weight).
SCALING_TABLE = (
    ("4", "4.00", "1.001", "0.532", "0.347"),
    ("16", "16.18", "1.011", "0.743", "0.353"),
    ("64", "62.92", "0.983", "0.878", "0.361"),
    ("256", "255.84", "0.999", "0.939", "0.366"),
    ("1024", "1036.38", "1.012", "0.971", "0.361"),
)


@element("ex-scaling-numeric", "例 4.5", "割らないと重みが 1 点に集中する", CHAPTER, "example",
         ("numeric",))
def ex_scaling_numeric(printed=SCALING_TABLE, table=None) -> list[str]:
    """The d_k table regenerated by proofs.tables.scaling_table with the chapter's own
    procedure (default_rng(0), 20,000 pairs, 2,000 trials of one query and 8 keys, d_k
    in turn) equals every printed cell at the printed precision, and the raw mean largest
    weight increases with d_k (the concentration the example shows)."""

    got = scaling_table(dims=tuple(int(r[0]) for r in printed)) if table is None else table
    for row, want in zip(got.rows, printed, strict=True):
        require(tuple(row) == tuple(want), f"row {row} != printed {want}")
    raw = [v[3] for v in got.values]
    require(all(a < b for a, b in itertools.pairwise(raw)), f"raw max weights {raw} not increasing")
    return [f"{len(printed)} rows equal the printed cells: " +
            "; ".join(" ".join(r) for r in got.rows)]


@element("lem-product-expectation", "補題 A.1", "独立な可積分確率変数の積の期待値（m 個）",
         CHAPTER, "lemma", ("symbolic", "numeric"))
def lem_product_expectation(stated=math.prod) -> list[str]:
    """E[X_1...X_m] = prod E[X_i] for independent integrable X_i: symbolic, E of the
    product on the joint distribution (symbolic.probability.product_expectation, m = 2, 3:
    normal, exponential, uniform) against stated(E[X_1], ..., E[X_m]); Monte Carlo,
    seeded (default_rng(7)), 200,000 draws of m = 2..5 independent variables
    (exponential, uniform, normal with non-zero means), the sample mean of the product
    within 5 standard errors of stated(means)."""
    evidence = []
    for m, joint, means in product_expectations():
        require(sp.simplify(joint - stated(means)) == 0,
                f"m = {m}: E[X_1...X_m] = {joint} but the stated value is {stated(means)}")
    evidence.append("symbolic: E[X_1 X_2] and E[X_1 X_2 X_3] on the joint distribution of "
                    "independent normal, exponential and uniform variables = the stated value")
    rng = np.random.default_rng(7)
    count = 200_000
    makers = [
        (lambda: rng.exponential(2.0, count), 2.0),
        (lambda: rng.uniform(0.5, 1.5, count), 1.0),
        (lambda: rng.normal(1.5, 1.0, count), 1.5),
        (lambda: rng.normal(-0.5, 0.5, count), -0.5),
        (lambda: rng.uniform(1.0, 3.0, count), 2.0),
    ]
    for m in range(2, 6):
        product = np.prod([make() for make, _ in makers[:m]], axis=0)
        want = stated([mean for _, mean in makers[:m]])
        evidence.append(f"m = {m}: " + _within(float(product.mean()), want,
                                                float(product.std()) / math.sqrt(count),
                                                "sample mean of the product"))
    return evidence


# --------------------------------------------------------------------------------------
# 5–6. Stacks of layers, with their propagated rounding bounds
# --------------------------------------------------------------------------------------


@st.composite
def stack_case(draw, max_layers: int = 3, max_n: int = 5):
    """(layers, x): 1..max_layers layers of LAYER_KINDS with drawn parameters, h | d."""
    h = draw(st.integers(1, 2))
    d = h * draw(st.integers(1, 2))
    n = draw(st.integers(1, max_n))
    layers = []
    for kind in draw(st.lists(st.sampled_from(LAYER_KINDS), min_size=1, max_size=max_layers)):
        if kind.endswith("attn"):
            layers.append((kind, draw(attention_parameters_strategy(h, d))))
        else:
            f = draw(st.integers(1, 4))
            layers.append((kind, {"w_1": draw(_array((d, f), 1.0)),
                                  "b_1": draw(_array((f,), 1.0)),
                                  "w_2": draw(_array((f, d), 1.0)),
                                  "b_2": draw(_array((d,), 1.0))}))
    return layers, draw(_array((n, d), 2.0))


def _seeded_stack(seed: int, n: int = 6, d: int = 8, h: int = 2, kinds=("attn",)):
    """A fixed stack of the listing's size (n = 6, d = 8, h = 2) drawn from default_rng(seed)."""
    rng = np.random.default_rng(seed)
    layers = []
    for kind in kinds:
        if kind.endswith("attn"):
            p = {name: rng.standard_normal((h, d, d // h)) / math.sqrt(d)
                 for name in ("w_q", "w_k", "w_v")}
            p["w_o"] = rng.standard_normal((h, d // h, d)) / math.sqrt(d)
            p.update({name: 0.1 * rng.standard_normal((h, d // h))
                      for name in ("b_q", "b_k", "b_v")})
            p["b_o"] = 0.1 * rng.standard_normal(d)
        else:
            p = {"w_1": rng.standard_normal((d, 4 * d)) / math.sqrt(d), "b_1": np.zeros(4 * d),
                 "w_2": rng.standard_normal((4 * d, d)) / math.sqrt(4 * d), "b_2": np.zeros(d)}
        layers.append((kind, p))
    return layers, rng.standard_normal((n, d))


@element("lem-equivariant-closure", "補題 5.1", "置換同変な写像の組み立て", CHAPTER, "lemma",
         ("numeric",))
def lem_equivariant_closure(row_wise=None) -> list[str]:
    """Row-wise maps are equivariant, and composition, sum, concatenation and X + f(X)
    keep equivariance: on Hypothesis-drawn integer matrices (entries |.| <= 8, n <= 6,
    d = 3, hidden width 4) and integer parameters, and a fixed case, the row-wise maps
    X W + 1 b^T and the ReLU MLP
    (numeric.mlp) and every composition, sum, concatenation and residual of two of them
    are computed exactly (every intermediate is an integer below 2^53), so f(PX) = P f(X)
    is checked bit for bit for drawn permutations. `row_wise(x, params)` is the row-wise
    map under test (default: the ReLU MLP)."""

    g = (lambda x, p: mlp(x, p, activation="relu")) if row_wise is None else row_wise
    ints = st.integers(-8, 8).map(float)
    stats = {"cases": 0}

    def closure(case):
        x, w1, b1, w2, b2, pi = case
        p = {"w_1": w1, "b_1": b1, "w_2": w2, "b_2": b2}
        w = w1 @ w2  # (3, 3), exact integers

        def affine(y):
            return y @ w + b2

        def f(y):
            return np.asarray(g(y, p))

        maps = {
            "row-wise g": f,
            "affine XW + 1b^T": affine,
            "composition": lambda y: f(affine(y)),
            "sum": lambda y: f(y) + affine(y),
            "concatenation": lambda y: np.concatenate([f(y), affine(y)], axis=1),
            "residual X + g(X)": lambda y: y + f(y),
        }
        for name, fn in maps.items():
            defect = equivariance_defect(fn, x, pi)
            require(bool(np.all(defect == 0)),
                    f"{name}: f(PX) != P f(X) (defect {defect.max():.2e}) for pi = {pi}")
        stats["cases"] += 1

    grid = np.arange(-6.0, 6.0)
    closure((grid.reshape(4, 3), grid.reshape(3, 4), grid[:4], grid.reshape(4, 3), grid[:3],
             [3, 2, 1, 0]))
    given(st.integers(1, 6).flatmap(lambda n: st.tuples(
        hnp.arrays(np.float64, (n, 3), elements=ints),
        hnp.arrays(np.float64, (3, 4), elements=ints), hnp.arrays(np.float64, (4,), elements=ints),
        hnp.arrays(np.float64, (4, 3), elements=ints), hnp.arrays(np.float64, (3,), elements=ints),
        st.permutations(list(range(n))))))(closure)()
    return [f"row-wise maps, composition, sum, concatenation and residual: f(PX) = P f(X) bit "
            f"for bit on {stats['cases']} drawn integer inputs and permutations"]


@element("thm-attention-equivariance", "定理 5.2", "自己注意の置換同変性", CHAPTER, "theorem",
         ("numeric",))
def thm_attention_equivariance(multi_head_attention=multi_head_attention) -> list[str]:
    """MHA(PX) = P MHA(X) without mask or positions, and for stacks of attention, ReLU
    MLPs and residuals: on Hypothesis-drawn permutations, shapes (n <= 5, h | d, d <= 9
    for single layers; up to 3 layers with d <= 4), parameters (with and without biases)
    and inputs (|x| <= 2), |f(PX) - P f(X)| is within the sum of the two propagated
    rounding bounds (run_stack / mha_error_bound); also on the listing's fixed sizes
    (n = 6, d = 8, h = 2, default_rng(0)) with the reversal permutation."""
    mha = multi_head_attention
    layers, x = _seeded_stack(0)
    worst, diff, tol = stack_equivariance(layers, x, list(range(6))[::-1], mha)
    require(bool(np.all(diff <= tol)),
            f"MHA(PX) != P MHA(X) on the listing's sizes: {worst:.2e} > bound {tol.max():.2e}")
    evidence = [f"listing sizes (n = 6, d = 8, h = 2): max |MHA(PX) - P MHA(X)| = {worst:.1e} "
                f"<= bound {tol.max():.1e}"]
    stats = {"cases": 0, "worst": 0.0}

    @given(mha_case(), st.data())
    def single(case, data):
        x, params = case
        pi = data.draw(st.permutations(list(range(x.shape[0]))))
        worst, diff, tol = stack_equivariance([("attn", params)], x, pi, mha)
        require(bool(np.all(diff <= tol)),
                f"MHA(PX) != P MHA(X): {worst:.2e} > bound at pi = {pi}, x {x.shape}")
        stats["cases"] += 1
        stats["worst"] = max(stats["worst"], ratio(diff, tol))

    single()

    @scaled(0.5)
    @given(stack_case(), st.data())
    def stacks(case, data):
        layers, x = case
        pi = data.draw(st.permutations(list(range(x.shape[0]))))
        worst, diff, tol = stack_equivariance(layers, x, pi, mha)
        require(bool(np.all(diff <= tol)),
                f"stack {[k for k, _ in layers]} not equivariant: {worst:.2e} > bound")
        stats["cases"] += 1

    stacks()
    evidence.append(f"{stats['cases']} drawn layers and stacks: f(PX) = P f(X) within the "
                    f"rounding bound (largest difference/bound {stats['worst']:.2f})")
    return evidence


@element("cor-bag-of-tokens", "系 5.3", "位置情報がなければ語順を区別できない", CHAPTER,
         "corollary", ("numeric",))
def cor_bag_of_tokens(multi_head_attention=multi_head_attention) -> list[str]:
    """For an equivariant f and a permutation fixing i, f(P X)_i = f(X)_i: on
    Hypothesis-drawn stacks (attention, ReLU MLP, residuals; n <= 5) and permutations
    fixing a drawn row i, row i changes by at most the two rounding bounds; also the last
    row of a fixed residual stack (listing sizes, default_rng(0)) under a permutation
    fixing it."""
    stats = {"cases": 0}

    def judge(layers, x, i, pi):
        y, b = run_stack(layers, x, False, mha=multi_head_attention)
        yp, bp = run_stack(layers, x[pi], False, mha=multi_head_attention)
        change = np.abs(yp[i] - y[i])
        require(bool(np.all(change <= b[i] + bp[i])),
                f"row {i} changed by {change.max():.2e} under a permutation fixing it: {pi}")
        stats["cases"] += 1

    layers, x = _seeded_stack(0, kinds=("res_attn", "res_mlp"))
    judge(layers, x, 5, [1, 0, 3, 2, 4, 5])

    @given(stack_case(), st.data())
    def fixed_row(case, data):
        layers, x = case
        n = x.shape[0]
        i = data.draw(st.integers(0, n - 1))
        others = data.draw(st.permutations([j for j in range(n) if j != i]))
        judge(layers, x, i, others[:i] + [i] + others[i:])

    fixed_row()
    return [f"row i unchanged (within rounding) under permutations fixing i on "
            f"{stats['cases']} drawn stacks"]


def causal_witness(mha=multi_head_attention, seeds=range(5)) -> list[tuple[int, float, float]]:
    """(seed, max |f(PX) - P f(X)|, its rounding bound) for causal MHA at the listing's sizes,
    P swapping the first two rows."""
    out = []
    for seed in seeds:
        layers, x = _seeded_stack(seed)
        worst, diff, tol = stack_equivariance(layers, x, [1, 0, 2, 3, 4, 5], mha, causal=True)
        out.append((seed, worst, float(tol.max())))
    return out


@element("rem-causal-not-equivariant", "注意 5.4", "因果マスクつきの場合", CHAPTER, "remark",
         ("witness",))
def rem_causal_not_equivariant(multi_head_attention=multi_head_attention) -> list[str]:
    """Causal attention is not equivariant: a witness for each of the seeds 0..4 of
    default_rng at the listing's sizes (n = 6, d = 8, h = 2), swapping rows 1 and 2:
    |f(PX) - P f(X)| exceeds the sum of the two rounding bounds, so the exact values
    differ (the difference cannot be rounding)."""
    evidence = []
    for seed, worst, tol in causal_witness(multi_head_attention):
        require(worst > tol, f"seed {seed}: causal MHA looks equivariant ({worst:.2e} <= "
                             f"bound {tol:.2e})")
        evidence.append(f"seed {seed}: max |f(PX) - P f(X)| = {worst:.2f} > rounding bound "
                        f"{tol:.1e}")
    return evidence


def _causal_judge(layers, x, positions, mha, label: str, stats: dict) -> None:
    defect, tol = causal_defect(layers, x, positions, mha)
    require(bool(np.all(defect <= tol)),
            f"{label}: f_n(X)_(1:i) != f_i(X_(1:i)) by {defect.max():.2e} > bound "
            f"{tol.flat[np.argmax(defect - tol)]:.2e} (n = {x.shape[0]}, layers "
            f"{[k for k, _ in layers]})")
    stats["cases"] += 1
    stats["bitwise"] += bool(np.all(defect == 0))
    # changing the future rows i+1..n leaves rows 1..i unchanged
    n = x.shape[0]
    if n > 1:
        i = n // 2
        changed = x.copy()
        changed[i:] = changed[i:][::-1] * 1.5 + 0.25
        y, b = run_stack(layers, x, True, positions, mha)
        yc, bc = run_stack(layers, changed, True, positions, mha)
        gap = np.abs(yc[:i] - y[:i])
        require(bool(np.all(gap <= b[:i] + bc[:i])),
                f"{label}: changing rows {i + 1}..{n} changed rows 1..{i} by {gap.max():.2e}")
        stats["future_bitwise"] += bool(np.all(gap == 0))


def _causal_stats() -> dict:
    return {"cases": 0, "bitwise": 0, "future_bitwise": 0}


def _causal_summary(stats: dict, what: str) -> str:
    return (f"{what}: prefix consistency f_n(X)_(1:i) = f_i(X_(1:i)) and independence of the "
            f"future rows within the rounding bound on {stats['cases']} drawn cases "
            f"(prefix bit for bit in {stats['bitwise']}, future rows bit for bit in "
            f"{stats['future_bitwise']})")


def _fixed_causal_cases(mha) -> list[str]:
    """The listing's sizes (n = 6, d = 8, h = 2, seeds 0..2): one causal layer and a
    residual stack; raises CheckFailed on a violation."""
    stats = _causal_stats()
    for seed in range(3):
        layers, x = _seeded_stack(seed, kinds=("attn",))
        _causal_judge(layers, x, None, mha, f"seed {seed}", stats)
        layers, x = _seeded_stack(seed, kinds=("res_attn", "res_mlp", "res_attn"))
        _causal_judge(layers, x, None, mha, f"seed {seed} stack", stats)
    return [_causal_summary(stats, "listing sizes")]


@element("def-causal-map", "定義 6.1", "因果的な写像の族", CHAPTER, "definition",
         ("numeric", "witness"))
def def_causal_map(multi_head_attention=multi_head_attention) -> list[str]:
    """The definition f_n(X)_i = f_i(X_{1:i})_i as a measurement (causal_defect, prefix by
    prefix) that separates causal from non-causal families: causal multi-head attention
    meets it within the rounding bound on Hypothesis-drawn inputs (n <= 5, h | d, d <= 9)
    and on the listing's sizes; unmasked attention violates it by far more than the
    bound on a witness (seed 0, n = 6, d = 8, h = 2), so the measurement can fail."""
    evidence = _fixed_causal_cases(multi_head_attention)
    stats = _causal_stats()

    @given(mha_case())
    def drawn(case):
        x, params = case
        _causal_judge([("attn", params)], x, None, multi_head_attention, "causal MHA", stats)

    drawn()
    evidence.append(_causal_summary(stats, "causal MHA"))
    layers, x = _seeded_stack(0)
    full, full_bound = run_stack(layers, x, False)
    part, part_bound = run_stack(layers, x[:3], False)
    excess = np.abs(full[:3] - part) - (full_bound[:3] + part_bound)  # (3, d)
    gap = float(np.abs(full[:3] - part).max())
    require(bool(np.any(excess > 0)),
            f"unmasked attention looks causal (gap {gap:.2e} within the rounding bound)")
    evidence.append(f"unmasked attention is not causal: f_6(X)_(1:3) - f_3(X_(1:3)) = {gap:.2f}")
    return evidence


@element("lem-causal-closure", "補題 6.2", "因果的な写像の組み立て", CHAPTER, "lemma",
         ("numeric",))
def lem_causal_closure(position_wise=None) -> list[str]:
    """Position-wise maps G_n(X)_i = g_i(x_i) are causal, and so are composition, sum,
    concatenation and X + f(X); f_n(X)_{1:i} = f_i(X_{1:i}). Checked bit for bit on
    Hypothesis-drawn integer inputs (|.| <= 8, n <= 6) with integer parameters, where
    every operation is exact: g_i(x) = ReLU MLP(x) + p_i (a position vector per row) and
    the closures of it, for every prefix length. `position_wise(x)` is the map under
    test (default: the ReLU MLP plus position vectors)."""

    ints = st.integers(-8, 8).map(float)
    stats = {"cases": 0}

    def closure(case):
        x, w1, w2, pos = case
        p = {"w_1": w1, "w_2": w2}

        def g(y):
            if position_wise is not None:
                return np.asarray(position_wise(y))
            return np.asarray(mlp(y, p, activation="relu")) + pos[: y.shape[0]]

        maps = {
            "position-wise": g,
            "composition": lambda y: g(g(y)),
            "sum": lambda y: g(y) + y @ w1 @ w2,
            "concatenation": lambda y: np.concatenate([g(y), y], axis=1),
            "residual": lambda y: y + g(y),
        }
        for name, fn in maps.items():
            full = fn(x)
            for t in range(1, x.shape[0] + 1):
                require(np.array_equal(fn(x[:t]), full[:t]),
                        f"{name}: f_n(X)_(1:{t}) != f_{t}(X_(1:{t})) for x = {x.tolist()}")
        stats["cases"] += 1

    grid = np.arange(-6.0, 6.0)
    closure((grid.reshape(4, 3), grid.reshape(3, 4), grid.reshape(4, 3),
             np.arange(18.0).reshape(6, 3)))
    given(st.integers(1, 6).flatmap(lambda n: st.tuples(
        hnp.arrays(np.float64, (n, 3), elements=ints),
        hnp.arrays(np.float64, (3, 4), elements=ints),
        hnp.arrays(np.float64, (4, 3), elements=ints),
        hnp.arrays(np.float64, (6, 3), elements=ints))))(closure)()
    return [f"position-wise maps and their compositions, sums, concatenations, residuals: "
            f"f_n(X)_(1:i) = f_i(X_(1:i)) bit for bit for every i on {stats['cases']} drawn "
            "integer inputs"]


@element("thm-causal-mask", "定理 6.3", "因果マスクつきの自己注意は未来に依存しない", CHAPTER,
         "theorem", ("numeric",))
def thm_causal_mask(multi_head_attention=multi_head_attention) -> list[str]:
    """Causal MHA, and any stack of causal attention, ReLU MLPs, residuals and position
    vectors, is causal: on Hypothesis-drawn stacks (up to 3 layers, n <= 5, d <= 4) with
    drawn position vectors, f_n(X)_{1:i} = f_i(X_{1:i}) for every i and changing rows
    i+1..n leaves rows 1..i unchanged, within the propagated rounding bounds (the
    evidence counts the cases that hold bit for bit); also at the listing's sizes."""
    evidence = _fixed_causal_cases(multi_head_attention)
    stats = _causal_stats()

    @scaled(0.5)
    @given(stack_case(), st.data())
    def drawn(case, data):
        layers, x = case
        pos = data.draw(_array((x.shape[0], x.shape[1]), 1.0)) if data.draw(st.booleans()) \
            else None
        _causal_judge(layers, x, pos, multi_head_attention, "causal stack", stats)

    drawn()
    evidence.append(_causal_summary(stats, "causal stacks with positions"))
    return evidence


@element("cor-parallel-next-token", "系 6.4", "1 回の順伝播で n 個の予測が得られる", CHAPTER,
         "corollary", ("numeric",))
def cor_parallel_next_token(multi_head_attention=multi_head_attention, forward=None,
                            decoder=None) -> list[str]:
    """One pass gives all n prefix predictions. Stacks: for causal stacks (residual
    attention and ReLU MLP with position vectors; the listing's sizes n = 6, d = 8, h = 2,
    seeds 0..2), row t of f_n(X) equals the last row of f_t(X_{1:t}) for every t within
    the propagated rounding bounds. Model: numeric.model.forward of a decoder-only model
    with ReLU MLPs (|V| = 11, d = 8, h = 2, L = 2, d_ff = 16, L_ctx = 8, seeds 0..2 and
    Hypothesis-drawn token sequences) equals, to its first-order rounding bound
    (numeric.error_bounds.entrywise_model_error_bound: LayerNorm, attention, MLP and
    residual bounds propagated), the
    model composed from the chapter's parts, and its row t - 1 equals the last row of
    forward on the prefix of length t for every t, within the sum of the two bounds. The
    KV-cache decoder (numeric.kv_cache.Decoder) fed one token at a time, and in two
    chunks, gives the same logits within twice the bound (both are within it of the
    exact values)."""

    forward = model_forward if forward is None else forward
    decoder = Decoder if decoder is None else decoder
    evidence = _fixed_causal_cases(multi_head_attention)
    stats = _causal_stats()
    for seed in range(3):
        layers, x = _seeded_stack(seed, kinds=("res_attn", "res_mlp"))
        pos = np.random.default_rng(100 + seed).standard_normal(x.shape)
        _causal_judge(layers, x, pos, multi_head_attention, f"seed {seed} with positions", stats)
    evidence.append(_causal_summary(stats, "stacks with position vectors"))

    config = ModelConfig(vocab=11, d=8, n_layer=2, n_head=2, d_ff=16, n_ctx=8,
                         activation="relu")
    models = [init_parameters(config, np.random.default_rng(seed)) for seed in range(3)]
    record = {"cases": 0, "largest": 0.0, "used": 0.0, "cache": 0.0}

    def judge(tokens: np.ndarray, params) -> None:
        defect, tol, gap, gap_tol = model_prefix_defect(tokens, params, config, forward)
        require(bool(np.all(gap <= gap_tol)),
                f"forward differs from the model composed of attention, LN and MLP by "
                f"{gap.max():.2e} > bound {gap_tol.max():.2e} (tokens {tokens.tolist()})")
        require(bool(np.all(defect <= tol)),
                f"forward(tokens)[t-1] != forward(tokens[:t])[-1] by {defect.max():.2e} > "
                f"bound {tol.flat[np.argmax(defect - tol)]:.2e} (tokens {tokens.tolist()})")
        full = np.asarray(forward(tokens, params, config))
        bound = entrywise_model_error_bound(tokens, params, config)[1]
        split = max(1, len(tokens) // 2)
        for sizes in ([1] * len(tokens), [split, len(tokens) - split]):
            fed = decoded_in_chunks(decoder, params, config, tokens, sizes)
            gap = np.abs(fed - full)
            require(fed.shape == full.shape and bool(np.all(gap <= 2 * bound)),
                    f"the KV-cache decoder fed {sizes} tokens differs from "
                    f"forward by {gap.max():.2e} (tokens {tokens.tolist()})")
            record["cache"] = max(record["cache"], float(gap.max()))
        record["cases"] += 1
        record["largest"] = max(record["largest"], float(defect.max()))
        record["used"] = max(record["used"], ratio(defect, tol))

    for params in models:
        judge(np.array([3, 1, 4, 1, 5, 9, 2, 6]), params)

    @scaled(0.3)
    @given(st.lists(st.integers(0, 10), min_size=1, max_size=8), st.integers(0, 2))
    def drawn(tokens, which):
        judge(np.array(tokens), models[which])

    drawn()
    evidence.append(f"decoder-only model: prefix logits = one pass's rows on {record['cases']} "
                    f"token sequences (largest difference {record['largest']:.1e}, "
                    f"{record['used']:.1e} of the rounding bound); the KV-cache decoder, token by "
                    f"token and in two chunks, = forward (largest difference "
                    f"{record['cache']:.1e})")
    return evidence


# --------------------------------------------------------------------------------------
# 7. パラメータ数と計算量
# --------------------------------------------------------------------------------------


@element("prop-attention-parameters", "命題 7.1", "マルチヘッド自己注意のパラメータ数", CHAPTER,
         "proposition", ("symbolic", "numeric"))
def prop_attention_parameters(stated=None, stated_without_bias=None,
                              printed=(1_050_624, 1_048_576)) -> list[str]:
    """4d^2 + 4d (4d^2 without biases), independent of h: symbolic, the polynomial derived
    from spec's parameter declaration (d_head = d/h) minus the stated one is 0 and h does
    not occur in it; numeric, on Hypothesis-drawn (d, h) with h | d (d <= 64), the sizes of
    the arrays numeric.model.init_parameters allocates for one attention layer equal the
    polynomial's value; the printed counts at d = 512 (1,050,624 and 1,048,576) are the
    polynomial's values."""
    d = symbols.d
    stated = 4 * d**2 + 4 * d if stated is None else stated
    stated_without_bias = 4 * d**2 if stated_without_bias is None else stated_without_bias
    evidence = []
    for bias, want in ((True, stated), (False, stated_without_bias)):
        derived = sp.expand(counts.attention_parameters(bias=bias))
        require(sp.expand(derived - want) == 0,
                f"derived {derived} != stated {want} (bias = {bias})")
        require(not any(s.name == "h" for s in derived.free_symbols), f"{derived} depends on h")
        evidence.append(f"bias = {bias}: derived {derived} = stated, no h")

    stats = {"cases": 0}

    @given(st.integers(1, 8).flatmap(lambda h: st.tuples(st.just(h), st.integers(1, 8))),
           st.booleans())
    def arrays(hk, bias):
        h, k = hk
        config = ModelConfig(vocab=3, d=h * k, n_layer=1, n_head=h, d_ff=4, n_ctx=4, bias=bias)
        params = init_parameters(config, np.random.default_rng(0))
        counted = parameter_count(sub_parameters(params, "blocks.0.attn"))
        want = int((stated if bias else stated_without_bias).subs(d, h * k))
        require(counted == want, f"d = {h * k}, h = {h}, bias = {bias}: arrays hold {counted}, "
                                 f"the formula gives {want}")
        stats["cases"] += 1

    arrays()
    evidence.append(f"allocated arrays = the polynomial on {stats['cases']} drawn (d, h, bias)")
    at_512 = (int(stated.subs(d, 512)), int(stated_without_bias.subs(d, 512)))
    require(at_512 == tuple(printed), f"at d = 512 the formulas give {at_512}, the chapter "
                                      f"prints {tuple(printed)}")
    evidence.append(f"d = 512: {at_512[0]:,} and {at_512[1]:,}")
    return evidence


# The chapter's d = 64 table of 命題 7.2 as printed: (n, 4nd^2, 2n^2d, total, ratios).
COMPLEXITY_TABLE = (
    ("64", "1,048,576", "524,288", "1,572,864", "", ""),
    ("128", "2,097,152", "2,097,152", "4,194,304", "4.00", "2.67"),
    ("256", "4,194,304", "8,388,608", "12,582,912", "4.00", "3.00"),
    ("512", "8,388,608", "33,554,432", "41,943,040", "4.00", "3.33"),
    ("1024", "16,777,216", "134,217,728", "150,994,944", "4.00", "3.60"),
)


@element("prop-attention-complexity", "命題 7.2", "自己注意 1 層の計算量", CHAPTER, "proposition",
         ("symbolic", "numeric"))
def prop_attention_complexity(stated=None, multi_head_attention=multi_head_attention,
                              printed_table=COMPLEXITY_TABLE) -> list[str]:
    """4nd^2 + 2n^2 d multiplications, independent of h: symbolic, the polynomial derived
    from spec's declared contractions equals the stated one and has no h; doubling n
    multiplies the quadratic term by 4 and the linear one by 2, the total's ratio tends to
    4, the two terms are equal at n = 2d (solved). Numeric: on Hypothesis-drawn
    (n <= 6, h | d, d <= 9) the multiplications counted from the actual contractions of a
    multi_head_attention pass equal the polynomial; the weights it returns hold h n^2
    numbers, as many as the declared score array (spec ATTENTION_WEIGHTS_MEMORY, the
    entries on which softmax takes one exp and one division each: O(h n^2)). The
    chapter's d = 64 table is regenerated by proofs.tables and equals the printed cells."""

    d, n = symbols.d, symbols.n
    stated = 4 * n * d**2 + 2 * n**2 * d if stated is None else stated
    derived = sp.expand(counts.attention_multiplications())
    require(sp.expand(derived - stated) == 0, f"derived {derived} != stated {stated}")
    require(not any(s.name == "h" for s in derived.free_symbols), f"{derived} depends on h")
    linear, quadratic = counts.linear_quadratic(derived, n)
    ratios = [counts.doubling_ratio(quadratic, n), counts.doubling_ratio(linear, n)]
    require(ratios == [4, 2], f"doubling ratios {ratios}, expected 4 and 2")
    limit = counts.doubling_limit(derived, n)
    require(limit == 4, f"the total's doubling ratio tends to {limit}")
    cross = counts.crossover(derived, n)
    require(sp.expand(cross - 2 * d) == 0, f"the terms are equal at n = {cross}")
    memory = counts.attention_weights_memory()
    require(sp.expand(memory - symbols.h * n**2) == 0, f"weights memory {memory} != h n^2")
    evidence = [f"derived {derived} = stated, no h; doubling ratios 4 and 2, total -> 4; "
                f"terms equal at n = {cross}; weights memory {memory}"]
    stats = {"cases": 0}

    @given(mha_case(max_n=6), st.booleans())
    def counted(case, causal):
        x, params = case
        with count_multiplications() as counter:
            _, weights = multi_head_attention(x, params, causal=causal)
        nn, dd = x.shape
        want = int(stated.subs({n: nn, d: dd}))
        require(counter.total == want, f"n = {nn}, d = {dd}, h = {params['w_q'].shape[0]}: "
                                       f"counted {counter.total}, the formula gives {want}")
        h = params["w_q"].shape[0]
        sizes = {"h": h, "n": nn, "m": nn}
        declared = math.prod(sizes[dim] for dim in ATTENTION_WEIGHTS_MEMORY)
        require(np.asarray(weights).size == declared == h * nn * nn,
                f"weights hold {np.asarray(weights).size}; the declared score array "
                f"{ATTENTION_WEIGHTS_MEMORY} holds {declared}; h n^2 = {h * nn * nn}")
        stats["cases"] += 1

    counted()
    evidence.append(f"counted multiplications of real passes = the polynomial; weights h n^2, "
                    f"on {stats['cases']} drawn sizes")

    table = attention_complexity_table(d=64, ns=tuple(int(r[0]) for r in printed_table))
    for got, want in zip(table.rows, printed_table, strict=True):
        require(tuple(got) == tuple(want), f"table row {got} != printed {want}")
    evidence.append("the d = 64 table regenerated equals the printed cells")
    return evidence


@element("rem-cross-attention", "注意 7.3", "交差注意", CHAPTER, "remark", ("numeric",
                                                                          "high precision"))
def rem_cross_attention(multi_head_attention=multi_head_attention, attention=attention
                        ) -> list[str]:
    """Cross-attention (queries from X (n, d), keys and values from a context (m, d),
    m != n allowed): multi_head_attention with `context` equals the definition at 50
    digits within mha_error_bound on Hypothesis-drawn n <= 4, m <= 5, h | d, d <= 6 (and a
    fixed n = 2, m = 3, d = 4, h = 2 case); and
    命題 4.2 still holds per head: with Q = X W_Q, K = C W_K, V = C W_V drawn, the
    weights are >= 0 with rows summing to 1 and the outputs obey the norm and component
    bounds within the rounding bound."""
    stats = {"cases": 0, "worst": 0.0}

    def cross(x, params, context):
        m = context.shape[0]
        out, weights = multi_head_attention(x, params, context=context)
        weights = np.asarray(weights)
        require(weights.shape == (params["w_q"].shape[0], x.shape[0], m),
                f"cross-attention weights have shape {weights.shape}")
        with mpmath.workdps(DIGITS):
            err = mp_error(out, mp_multi_head_attention(x, params, context=context))
        bound = mha_error_bound(x, params, weights, context=context)
        require(bool(np.all(err <= bound)), f"cross-attention off the definition by "
                                            f"{err.max():.2e} (n = {x.shape[0]}, m = {m})")
        stats["worst"] = max(stats["worst"], ratio(err, bound))
        q = np.einsum("nd,hdk->hnk", x, params["w_q"])
        k = np.einsum("md,hdk->hmk", context, params["w_k"])
        v = np.einsum("md,hdk->hmk", context, params["w_v"])
        o, w = attention(q, k, v)
        o, w = np.asarray(o), np.asarray(w)
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])
        reason = _convexity_violation(o, v, w, None, attention_error_bound(q, k, v, w), scores)
        require(not reason, f"cross-attention breaks 命題 4.2: {reason}")
        stats["cases"] += 1

    layers, x = _seeded_stack(0, n=2, d=4, h=2)
    cross(x, layers[0][1], np.random.default_rng(1).standard_normal((3, 4)))

    @scaled(0.5)
    @given(mha_case(max_n=4, max_heads=2), st.integers(1, 5), st.data())
    def drawn(case, m, data):
        x, params = case
        cross(x, params, data.draw(_array((m, x.shape[1]), 2.0)))

    drawn()
    return [f"cross-attention = the definition at 50 digits (largest error/bound "
            f"{stats['worst']:.2f}) and convex per head on {stats['cases']} drawn (n, m, d, h)"]


# --------------------------------------------------------------------------------------
# 10. 演習
# --------------------------------------------------------------------------------------


@element("exr-softmax-compute", "演習 10.1", "softmax の計算", CHAPTER, "exercise",
         ("symbolic", "numeric"))
def exr_softmax_compute(answer=None, softmax=softmax) -> list[str]:
    """sigma(0, log 2, log 3) = (1/6, 1/3, 1/2) exactly (SymPy, symbolic.softmax.softmax),
    and sigma(100, 100 + log 2, 100 + log 3) is the same exactly; the NumPy softmax gives
    both to within softmax_error_bound (the +100 row without overflow)."""

    answer = (sp.Rational(1, 6), sp.Rational(1, 3), sp.Rational(1, 2)) if answer is None else answer
    evidence = []
    z = sp.Matrix([0, sp.log(2), sp.log(3)])
    for shift in (0, 100):
        got = symbolic_softmax(z + shift * sp.ones(3, 1))
        require(all(sp.simplify(a - b) == 0 for a, b in zip(got, answer, strict=True)),
                f"sigma(z + {shift}) = {list(got)} != {list(answer)}")
        zn = np.array([float(t) for t in z + shift * sp.ones(3, 1)])
        num = np.asarray(softmax(zn))
        want = np.array([float(a) for a in answer])
        # plus the rounding of z to float64, |delta_i| <= u |z_i|, which moves sigma_i by
        # sigma_i (delta_i - sum_j sigma_j delta_j), at most 2 max|delta| sigma_i, and the
        # rounding of the exact answer to float64, u |want|
        u = unit_roundoff(np.float64)
        bound = softmax_error_bound(zn, num) + 2 * u * np.abs(zn).max() * num + u * want
        require(bool(np.all(np.abs(num - want) <= bound)), f"NumPy gives {num} at shift {shift}")
        evidence.append(f"shift {shift}: exact {[str(a) for a in got]}, NumPy {num.tolist()}")
    return evidence


@element("exr-jacobian-two", "演習 10.2", "n = 2 のヤコビ行列", CHAPTER, "exercise", ("symbolic",))
def exr_jacobian_two(jacobian=None) -> list[str]:
    """n = 2, sigma = (s, 1 - s): J = s(1 - s)[[1, -1], [-1, 1]], eigenvalues 0 (vector 1)
    and 2s(1 - s), whose maximum 1/2 is at s = 1/2: symbolic.softmax.two_by_two on the
    stated matrix formula, each compared exactly with the chapter's answer."""

    r = sym.two_by_two(sym.chapter_matrix if jacobian is None else jacobian)
    s = r.s
    closed = s * (1 - s) * sp.Matrix([[1, -1], [-1, 1]])
    require(sym.is_zero(r.jacobian - closed), f"J = {r.jacobian} != s(1-s)[[1,-1],[-1,1]]")
    eig = {sp.factor(k): v for k, v in r.eigenvalues.items()}
    require(set(eig) == {0, sp.factor(2 * s * (1 - s))}, f"eigenvalues {r.eigenvalues}")
    require(sym.is_zero(r.jacobian * sp.ones(2, 1)), "1 is not in the kernel")
    require(tuple(r.maximiser) == (sp.Rational(1, 2),) and r.maximum == sp.Rational(1, 2),
            f"maximum {r.maximum} at {r.maximiser}")
    return ["J = s(1-s)[[1,-1],[-1,1]]; eigenvalues 0 and 2s(1-s); max 1/2 at s = 1/2"]


EXR_MASK_LIMIT = {"sigma_U": ("0.2689", "0.7311", "0"), "e^1": "2.7183", "e^2": "7.3891",
                  "sum": "10.1073", "e^-10": "4.54e-5", "e^0.5": "1.6487", "bound": "7.4e-6"}


def half_unit(printed: str) -> float:
    """Half a unit in the last printed digit: the precision of a printed number."""
    return 0.5 * 10.0 ** Decimal(printed).as_tuple().exponent


@element("exr-mask-limit", "演習 10.3", "マスクの極限の計算", CHAPTER, "exercise",
         ("numeric", "high precision"))
def exr_mask_limit(masked_softmax=masked_softmax, printed=EXR_MASK_LIMIT) -> list[str]:
    """z = (1, 2, 0.5), U = {1, 2}: sigma^U(z) by the NumPy masked_softmax and the bound
    e^{-10} e^{0.5} / (e + e^2) at 50 digits, each compared with the printed value at
    its printed precision (4 decimals; 3 significant digits for 4.54e-5, 2 for 7.4e-6);
    the actual third weight of sigma(z - 10 m) at 50 digits lies in (0, bound]."""
    z = np.array([1.0, 2.0, 0.5])
    got = np.asarray(masked_softmax(z, np.array([True, True, False])))
    with mpmath.workdps(DIGITS):
        e1, e2 = mpmath.e, mpmath.exp(2)
        values = {"e^1": e1, "e^2": e2, "sum": e1 + e2, "e^-10": mpmath.exp(-10),
                  "e^0.5": mpmath.exp(0.5)}
        values["bound"] = values["e^-10"] * values["e^0.5"] / values["sum"]
        third = mp_softmax_exact([mpmath.mpf(1), mpmath.mpf(2), mpmath.mpf(0.5) - 10])[2]
        require(0 < third <= values["bound"], f"sigma_3 = {third} not in (0, bound]")
    for value, want in zip(got, printed["sigma_U"], strict=True):
        require(abs(value - float(want)) <= half_unit(want),
                f"sigma^U = {got.tolist()} != printed {printed['sigma_U']}")
    for key, value in values.items():
        want = printed[key]
        require(abs(float(value) - float(want)) <= half_unit(want),
                f"{key} = {mpmath.nstr(value, 8)} but the chapter prints {want}")
    return [f"sigma^U = {np.round(got, 4).tolist()}; bound = {mpmath.nstr(values['bound'], 4)}; "
            f"sigma_3 at c = 10 is {mpmath.nstr(third, 4)}"]


@element("exr-causal-last-row", "演習 10.4", "因果マスクと最後の行", CHAPTER, "exercise",
         ("numeric", "witness"))
def exr_causal_last_row(multi_head_attention=multi_head_attention) -> list[str]:
    """One causal layer (no positions): f_n(P_pi X)_n = f_n(X)_n for permutations with
    pi(n) = n, within the two rounding bounds, on Hypothesis-drawn x, parameters and
    permutations (n <= 5, h | d, one head and several) and at the listing's sizes. Two
    layers: a witness for each of the seeds 0..4 (n = 6, d = 8, h = 2, rows 1 and 2
    swapped) where the last row changes by more than the rounding bounds."""
    stats = {"cases": 0}

    def one_layer(layers, x, pi):
        y, b = run_stack(layers, x, True, mha=multi_head_attention)
        yp, bp = run_stack(layers, x[pi], True, mha=multi_head_attention)
        gap = np.abs(yp[-1] - y[-1])
        require(bool(np.all(gap <= b[-1] + bp[-1])),
                f"one causal layer: last row changed by {gap.max():.2e} under {pi}")
        stats["cases"] += 1

    for seed in range(3):
        layers, x = _seeded_stack(seed)
        one_layer(layers, x, [1, 0, 2, 3, 4, 5])

    @given(mha_case(), st.data())
    def drawn(case, data):
        x, params = case
        n = x.shape[0]
        pi = data.draw(st.permutations(list(range(n - 1)))) + [n - 1]
        one_layer([("attn", params)], x, pi)

    drawn()
    evidence = [f"one layer: last row unchanged within rounding on {stats['cases']} cases"]
    for seed in range(5):
        layers, x = _seeded_stack(seed, kinds=("attn", "attn"))
        pi = [1, 0, 2, 3, 4, 5]
        y, b = run_stack(layers, x, True, mha=multi_head_attention)
        yp, bp = run_stack(layers, x[pi], True, mha=multi_head_attention)
        gap = float(np.abs(yp[-1] - y[-1]).max())
        tol = float((b[-1] + bp[-1]).max())
        require(gap > tol, f"seed {seed}: two layers left the last row unchanged ({gap:.2e})")
        evidence.append(f"two layers, seed {seed}: last row changes by {gap:.2f} > bound "
                        f"{tol:.1e}")
    return evidence
