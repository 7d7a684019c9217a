"""§3 softmax の性質: basic properties (命題 3.1), the Jacobian (命題 3.2), the mask as a limit
(命題
3.3)."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from numeric.error_bounds import (
    softmax_error_bound,
    softmax_jacobian_error_bound,
    unit_roundoff,
)
from numeric.softmax import masked_softmax, softmax, softmax_jacobian
from proofs.book.claims import Claim
from proofs.book.judge import Verdict, judge_cases, judge_within, require, weigh
from proofs.book.profiles import scaled
from proofs.book.stated import (
    entry_formula,
    matrix_formula,
    prose_integer,
)
from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.chapters.self_attention.strategies import (
    FIXED_SOFTMAX_INPUTS,
    bounded_floats,
    float_arrays,
    softmax_inputs,
)
from proofs.evidence.reference import (
    DIGITS,
    mp_central_jacobian,
    mp_error,
    mp_softmax_exact,
)
from symbolic import mask as sym_mask
from symbolic import softmax as sym
from symbolic.identities import equal, is_zero
from symbolic.softmax import indexed_softmax
from symbolic.softmax import softmax as symbolic_softmax
from symbolic.sums import normalise_sums


class _Shifted:
    """z + c1 for symbolic indices: (z + c1)[k] = z[k] + c."""

    def __init__(self, z: sp.IndexedBase, c: sp.Symbol) -> None:
        self.z, self.c = z, c

    def __getitem__(self, k: sp.Expr) -> sp.Expr:
        return self.z[k] + self.c


@CHAPTER.element(
    "prop-softmax-basic",
    "命題 3.1",
    "softmax の基本性質",
    "proposition",
    ("symbolic", "numeric"),
    claims=(
        Claim(r"\sigma(\boldsymbol{z})_i > 0"),
        Claim(r"\sum_{i=1}^{n} \sigma(\boldsymbol{z})_i = 1"),
        Claim(r"\sigma(\boldsymbol{z} + c\boldsymbol{1}) = \sigma(\boldsymbol{z})"),
        Claim(r"z_i < z_j"),
        Claim(r"\sigma(\boldsymbol{z})_i < \sigma(\boldsymbol{z})_j"),
        Claim(r"z_i = z_j"),
        Claim(r"\sigma(\boldsymbol{z})_i = \sigma(\boldsymbol{z})_j"),
        Claim(r"\sigma(P\boldsymbol{z}) = P\sigma(\boldsymbol{z})"),
        Claim("（平行移動不変）任意の", phrase=True),
        Claim("（大小を保つ）", phrase=True),
        Claim("（置換同変）任意の置換行列", phrase=True),
        Claim(
            "すべての指数が 1 以下になり",
            phrase=True,
            where="text",
            argument="shifted_bound",
            read=prose_integer,
        ),
    ),
)
def prop_softmax_basic(
    shifted_bound: int, softmax=softmax, symbolic=symbolic_softmax, indexed=indexed_softmax
) -> list[str]:
    """Symbolic for symbolic n, on `indexed` (the softmax of an IndexedBase that the
    Jacobian's derivation differentiates): sum_i sigma_i = 1 and sigma(z + c1) = sigma(z);
    symbolic for n = 1..6, on `symbolic` (symbolic/'s softmax of a
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
    sigma(Pz) = P sigma(z) within the bounds; e^(z - max z) is at most `shifted_bound` and
    reaches it (the remark after the proof: 「すべての指数が 1 以下」)."""
    evidence = []
    n, i, j, k = sp.symbols("n i j k", integer=True, positive=True)
    z = sp.IndexedBase("z", real=True)
    c = sp.Symbol("c", real=True)
    total = sp.Sum(indexed(z, j, n), (j, 1, n))
    require(
        is_zero(normalise_sums(total - 1, n, {}, (i, j, k))),
        f"sum_i sigma_i = {total} does not reduce to 1 for symbolic n",
    )
    shifted = indexed(_Shifted(z, c), i, n) - indexed(z, i, n)
    require(
        is_zero(sp.factor_terms(sp.expand(shifted))),
        f"sigma(z + c1)_i - sigma(z)_i = {shifted} does not reduce to 0 for symbolic n",
    )
    evidence.append("symbolic n: sum sigma_i = 1 and sigma(z + c1) = sigma(z)")

    t = sp.Symbol("t", real=True)
    increasing = bool(sp.diff(sp.exp(t), t).is_positive)  # exp' > 0
    for size in range(1, 7):
        zs = sp.symbols(f"z1:{size + 1}", real=True)
        e = [sp.exp(v) for v in zs]
        s = sum(e)
        sigma = list(symbolic(sp.Matrix(zs)))
        require(equal(sum(sigma), 1), f"sum_i sigma_i != 1 at n = {size}")
        require(all(v.is_positive for v in sigma), f"a sigma_i is not positive at n = {size}")
        # equivariance before the order, whose differences with sum 1 pin sigma = e^z / S
        # and so imply it: a softmax weighting positions fails here, one reversing the
        # order (e^-z / S, equivariant) fails there
        if size <= 4:
            for pi in itertools.permutations(range(size)):
                permuted = list(symbolic(sp.Matrix([zs[k] for k in pi])))
                require(
                    all(equal(permuted[k], sigma[pi[k]]) for k in range(size)),
                    f"sigma(Pz) != P sigma(z) for pi = {pi}",
                )
        # the order: sigma_j - sigma_i = (e^z_j - e^z_i) / S, S > 0 and exp increasing, so
        # sigma_j - sigma_i has the sign of z_j - z_i (one clause: the facts are its steps)
        for a, b in itertools.combinations(range(size), 2):
            require(
                equal(sp.together(sigma[b] - sigma[a]) * s, e[b] - e[a])
                and bool(s.is_positive)
                and increasing,
                f"sigma_j - sigma_i != (e^z_j - e^z_i)/S with S > 0 and exp increasing at "
                f"n = {size}",
            )
    evidence.append(
        "symbolic n = 1..6: sigma_i > 0, order through exp' > 0; sigma(Pz) = "
        "P sigma(z) for every permutation of n <= 4"
    )

    u64 = unit_roundoff(np.float64)
    stats = {"cases": 0, "underflowed": 0, "strict": 0}

    def judge(z: np.ndarray, c: float, pi: list[int]) -> None:
        got = np.asarray(softmax(z))
        b = softmax_error_bound(z, got)
        require(bool(np.all(got >= 0)), f"softmax({z.tolist()}) has a negative entry")
        with np.errstate(over="ignore"):
            x = z.astype(np.float64) - float(z.max())
        top = np.exp(x)  # the remark after the proof: every exponent at most shifted_bound
        require(
            bool(np.all(top <= shifted_bound)) and float(top.max()) == shifted_bound,
            f"e^(z - max z) at z = {z.tolist()} reaches {float(top.max())!r}, "
            f"the text says at most {shifted_bound}",
        )
        tiny = float(np.finfo(z.dtype).tiny)
        safe = x > math.log(tiny * z.size)
        require(
            bool(np.all(got[safe] > 0)),
            f"softmax({z.tolist()}) has a zero entry that cannot underflow: {got.tolist()}",
        )
        stats["underflowed"] += int(np.sum(got[~safe] == 0))
        total = math.fsum(got.astype(np.float64))
        judge_within(total - 1, b.sum() + u64, f"softmax({z.tolist()}) sums to {total!r}")
        zc = (z + z.dtype.type(c)).astype(z.dtype)
        gc = np.asarray(softmax(zc))
        u = unit_roundoff(z.dtype)
        shift_err = 2 * u * float(np.max(np.abs(zc.astype(np.float64))))  # 2 max|delta|
        tol = b + softmax_error_bound(zc, gc) + got * shift_err
        judge_within(gc - got, tol, f"softmax(z + {c}) != softmax(z) at z = {z.tolist()}")
        # every ordered pair [a, b] at once: sigma_a - sigma_b against b_a + b_b
        rise = got.astype(np.float64)[:, None] - got.astype(np.float64)[None, :]
        pair_bound = b[:, None] + b[None, :]
        judge_within(
            np.where(z[:, None] < z[None, :], np.maximum(rise, 0.0), 0.0),
            pair_bound,
            f"z_a < z_b but sigma_a > sigma_b (at [a, b]) for z = {z.tolist()}",
        )
        for a, bb in itertools.permutations(range(z.size), 2):
            if z[a] < z[bb]:
                gap = float(got[a]) * math.expm1(min(float(z[bb]) - float(z[a]), 700.0))
                if gap > 2 * (b[a] + b[bb]):
                    require(
                        got[a] < got[bb],
                        f"z_{a} < z_{bb} but sigma_{a} = sigma_{bb} at z = {z.tolist()}",
                    )
                    stats["strict"] += 1
        judge_within(
            np.where(z[:, None] == z[None, :], rise, 0.0),
            pair_bound,
            f"z_a = z_b but sigma differs (at [a, b]) for z = {z.tolist()}",
        )
        gp = np.asarray(softmax(z[pi]))
        judge_within(
            gp - got[pi],
            softmax_error_bound(z[pi], gp) + b[pi],
            f"softmax(Pz) != P softmax(z) at z = {z.tolist()}, pi = {pi}",
        )
        stats["cases"] += 1

    for z in FIXED_SOFTMAX_INPUTS:
        judge(z, 1e3, list(range(z.size))[::-1])

    @given(
        softmax_inputs().flatmap(
            lambda z: st.tuples(
                st.just(z), bounded_floats(1e3), st.permutations(list(range(z.size)))
            )
        )
    )
    def numeric(case):
        judge(*case)

    numeric()
    evidence.append(
        f"numeric float64/float32 on {stats['cases']} inputs: positivity "
        f"({stats['underflowed']} entries underflowed to 0 beyond the normal "
        f"range), sum 1, shift invariance, {stats['strict']} strict order "
        "pairs, ties and permutations, all within the rounding bound"
    )
    return evidence


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
def softmax_jacobian_derivation_failures(
    stated_entry: Callable, stated_matrix: Callable
) -> tuple[str, ...]:
    """What fails of the derivation, none when symbolic.softmax derives the stated entry
    formula for symbolic n and n = 1..4, certifies |J_ij| <= 1 - max sigma for the stated
    entry for symbolic n (case by case), and proves the stated matrix symmetric, J1 = 0,
    PSD and entrywise bounded for n = 1..4. Derived once per pair of formulas."""
    failures = []
    general = sym.derive_softmax_jacobian_general(stated=stated_entry)
    if not general.holds:
        failures.append(f"derived - stated does not vanish for symbolic n: {general.difference}")
    bound = sym.entry_bound_general(stated_entry)
    if not bound.holds:
        failing = [
            (case.pattern, cert.claim)
            for case in bound.cases
            for cert in case.certificates
            if not cert.holds
        ]
        failures.append(f"|J_ij| <= 1 - max sigma not certified for symbolic n: {failing}")
    for n in range(1, 5):
        derived = sym.derive_softmax_jacobian(n, stated=stated_entry)
        if not derived.holds:
            failures.append(f"n = {n}: derived - stated = {derived.difference}")
        if not sym.is_zero(sym.jacobian_asymmetry(n, stated_matrix)):
            failures.append(f"J != J^T at n = {n}")
        if not sym.is_zero(sym.jacobian_times_ones(n, stated_matrix)):
            failures.append(f"J1 != 0 at n = {n}")
        cert = sym.psd_certificate(n, stated_matrix)
        if not cert.holds:
            failures.append(f"no PSD certificate at n = {n}: {cert.difference}")
        bad = [c.claim for c in sym.entry_bound_certificates(n, stated_matrix) if not c.holds]
        if bad:
            failures.append(f"entry bound not certified at n = {n}: {bad}")
    return tuple(failures)


@CHAPTER.element(
    "prop-softmax-jacobian",
    "命題 3.2",
    "softmax のヤコビ行列",
    "proposition",
    ("symbolic", "numeric", "high precision"),
    claims=(
        Claim(r"i = j"),
        Claim(r"\boldsymbol{\sigma} := \sigma(\boldsymbol{z})"),
        Claim(
            r"\frac{\partial \sigma_i}{\partial z_j} = \sigma_i(\delta_{ij} - "
            r"\sigma_j)",
            lhs=r"\frac{\partial \sigma_i}{\partial z_j}",
            argument="stated_entry",
            read=entry_formula("bold sigma", "i", "j"),
        ),
        Claim(
            r"J(\boldsymbol{z}) = \mathrm{diag}(\boldsymbol{\sigma}) - "
            r"\boldsymbol{\sigma}\boldsymbol{\sigma}^{\mathsf{T}}",
            lhs=r"J(\boldsymbol{z})",
            argument="stated_matrix",
            read=matrix_formula(sigma="bold sigma"),
        ),
        Claim(r"J(\boldsymbol{z})\boldsymbol{1} = \boldsymbol{0}"),
        Claim(r"|J(\boldsymbol{z})_{ij}| \le 1 - \max_k \sigma_k"),
        Claim("は対称で半正定値である", phrase=True),
    ),
)
def prop_softmax_jacobian(
    jacobian=softmax_jacobian, stated_entry=None, stated_matrix=None
) -> list[str]:
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
    failures = softmax_jacobian_derivation_failures(stated_entry, stated_matrix)
    require(not failures, "; ".join(failures))
    evidence.append(
        "symbolic n: J_ij = sigma_i(delta_ij - sigma_j) derived; n = 1..4: derived,"
        " symmetric, J1 = 0, PSD and entry-bound certificates"
    )

    # every property weighed on every case, then judged in this order, so that each can fail
    # on its own: the derivative (last) implies the others within its bound
    symmetric: list[Verdict] = []
    semidefinite: list[Verdict] = []
    rows_zero: list[Verdict] = []
    entries: list[Verdict] = []
    derivative: list[Verdict] = []
    u64 = unit_roundoff(np.float64)

    def numeric(case):
        z, w = case
        jac = np.asarray(jacobian(z))
        require(jac.shape == (z.size, z.size), f"jacobian of shape {jac.shape} for n = {z.size}")
        sigma = np.asarray(softmax(z))
        bound = softmax_jacobian_error_bound(sigma, softmax_error_bound(z, sigma), jac)
        at = f"z = {z.tolist()}"
        symmetric.append(weigh(jac - jac.T, 2 * bound, at))
        vectors = [w] + ([np.linalg.eigh(jac)[1][:, 0]] if z.size > 1 else [])
        # v^T J v >= 0 is homogeneous in v: test unit vectors, so that the float slack
        # |v|^T bound |v| cannot underflow where the 50-digit v^T J v does not
        vectors = [v / np.linalg.norm(v) for v in vectors if np.linalg.norm(v) > 0]
        with mpmath.workdps(DIGITS):
            for v in vectors:
                quad = mpmath.fsum(
                    mpmath.mpf(float(v[a])) * mpmath.mpf(float(jac[a, b])) * mpmath.mpf(float(v[b]))
                    for a in range(z.size)
                    for b in range(z.size)
                )
                slack = float(np.abs(v) @ bound @ np.abs(v))
                # only a negative v^T J v is a defect
                semidefinite.append(
                    weigh(min(float(quad), 0.0), slack, f"v^T J v = {float(quad):.2e} at {at}")
                )
        rows = np.array([math.fsum(r) for r in jac])
        rows_zero.append(weigh(rows, bound.sum(axis=1) + u64, at))
        top = float(sigma.max())
        b_top = float(softmax_error_bound(z, sigma).max())
        entries.append(weigh(jac, 1 - top + bound + b_top + u64, at))
        with mpmath.workdps(FD_DIGITS):
            err = mp_error(jac, mp_jacobian_fd(z))
        derivative.append(weigh(err, bound + FD_ERROR, at))

    numeric((np.array([0.0, 1.0, 2.0]), np.array([1.0, -1.0, 0.5])))
    scaled(0.5)(
        given(
            st.integers(1, 8).flatmap(
                lambda n: st.tuples(float_arrays((n,), 30.0), float_arrays((n,), 1.0))
            )
        )(numeric)
    )()
    judge_cases(symmetric, "J not symmetric")
    psd = judge_cases(semidefinite, "v^T J v < 0 beyond its rounding slack")
    judge_cases(rows_zero, "J1 != 0")
    judge_cases(entries, "|J_ij| > 1 - max sigma")
    fd = judge_cases(derivative, "J(z) against the 80-digit finite differences")
    evidence.append(
        f"numeric on {len(fd.verdicts)} drawn z (n <= 8, |z| <= 30): J against "
        f"80-digit central differences (largest error/bound {fd.ratio:.2f}); "
        f"symmetric, PSD (lowest v^T J v {-psd.largest:.1e}), J1 = 0, |J_ij| <= 1 - "
        "max sigma, all within the rounding bound"
    )
    return evidence


@functools.cache
def symbolic_mask_results(
    target: Callable = sym_mask.masked_softmax, bound: Callable = sym_mask.chapter_bound
) -> tuple[tuple[int, tuple[int, ...], bool, bool], ...]:
    """(n, U, limit = target, every masked bound certified) for n = 2..3 and every proper
    non-empty U (0-based), from symbolic.mask; derived once per process and pair of
    formulas (about 3 s)."""
    results = []
    for n in range(2, 4):
        for r in range(1, n):
            for allowed in itertools.combinations(range(n), r):
                limit = sym_mask.mask_limit(n, allowed, target).holds
                bounds = all(
                    sym_mask.mask_bound(n, allowed, i, bound).holds
                    for i in range(n)
                    if i not in allowed
                )
                results.append((n, allowed, limit, bounds))
    return tuple(results)


@CHAPTER.element(
    "prop-mask-as-limit",
    "命題 3.3",
    "マスクは極限として正当化できる",
    "proposition",
    ("symbolic", "numeric", "high precision"),
    claims=(
        Claim(r"m_i = 1"),
        Claim(r"m_i = 0"),
        Claim(
            r"\lim_{c \to \infty} \sigma(\boldsymbol{z} - c\,\boldsymbol{m}) = "
            r"\sigma^{U}(\boldsymbol{z})",
        ),
        Claim(
            r"0 < \sigma(\boldsymbol{z} - c\boldsymbol{m})_i \le e^{-c}\, e^{z_i} "
            r"\big/ \sum_{j \in U} e^{z_j}",
        ),
    ),
)
def prop_mask_as_limit(
    stated_bound: Callable = sym_mask.chapter_bound,
    masked_softmax: Callable = masked_softmax,
    stated_masked: Callable = sym_mask.masked_softmax,
) -> list[str]:
    """lim_{c -> oo} sigma(z - c m) = sigma^U(z): SymPy limits for n = 2..3 and every
    proper non-empty U equal `stated_masked` (symbolic.mask.mask_limit), and certificates
    that stated_bound - sigma_i >= 0 for i not in U (symbolic.mask.mask_bound; the bound
    is a SymPy formula bound(z, U, i, c), the chapter's e^{-c} e^{z_i} / sum_{j in U}
    e^{z_j} by default). High precision: on Hypothesis-drawn z
    (n <= 6, |z_i| <= 20), U and c in [0, 1000] (float64 underflows e^{-c} past c = 745),
    sigma(z - c m) at 100 + c/ln 10 digits (enough to resolve e^{-c}) satisfies
    0 < sigma_i <= stated bound (evaluated in mpmath at the same digits) off U and
    |sigma_i - sigma^U_i| <= sigma^U_i e^{-c} S_notU / S_U on U, sigma^U being
    `stated_masked` at the same digits (so judged for n = 4..6 too). The NumPy masked_softmax
    equals the c = 1000 value within softmax_error_bound, with masked entries exactly 0."""
    evidence = []
    symbolic = symbolic_mask_results(stated_masked, stated_bound)
    for n, allowed, limit_holds, bounds_hold in symbolic:
        require(limit_holds, f"lim sigma(z - c m) != sigma^U(z) for n = {n}, U = {allowed}")
        require(bounds_hold, f"the e^(-c) bound is not certified for n = {n}, U = {allowed}")
    evidence.append(
        f"symbolic: the limit equals sigma^U and the e^(-c) bound is certified "
        f"for all {len(symbolic)} proper non-empty U of n = 2..3"
    )
    bounds: dict[tuple[int, frozenset[int], int], Callable] = {}

    def bound_at(n: int, allowed: frozenset[int], i: int) -> Callable:
        """The stated bound as an mpmath function of (c, z_1, ..., z_n)."""
        if (n, allowed, i) not in bounds:
            z, c = sym_mask.logits(n), sp.Symbol("c", positive=True)
            bounds[n, allowed, i] = sp.lambdify((c, *z), stated_bound(z, allowed, i, c), "mpmath")
        return bounds[n, allowed, i]

    limits: dict[tuple[int, frozenset[int]], Callable] = {}

    def limit_at(n: int, allowed: frozenset[int]) -> Callable:
        """stated_masked as an mpmath function of (z_1, ..., z_n): the limit the draws
        approach, for n beyond the symbolic limits' sizes too."""
        if (n, allowed) not in limits:
            z = sym_mask.logits(n)
            limits[n, allowed] = sp.lambdify(z, list(stated_masked(z, allowed)), "mpmath")
        return limits[n, allowed]

    stats: dict[str, Any] = {"cases": 0, "max_c": 0.0, "smallest": None}

    def judge(z: np.ndarray, allowed: list[bool], c: float) -> None:
        # enough digits to resolve e^(-c) itself: 100 + c / ln 10, so the working precision's
        # rounding (10^-(digits - 5) allowed below) is 1e-95 e^(-c), far under every rate
        digits = 100 + int(c / math.log(10))
        with mpmath.workdps(digits):
            rounding = mpmath.mpf(10) ** (-(digits - 5))
            cm = mpmath.mpf(c)
            shifted = [
                mpmath.mpf(float(t)) - (0 if ok else cm) for t, ok in zip(z, allowed, strict=True)
            ]
            sig = mp_softmax_exact(shifted)
            inside = frozenset(j for j, on in enumerate(allowed) if on)
            at = [mpmath.mpf(float(t)) for t in z]
            target = limit_at(len(z), inside)(*at)
            s_u = mpmath.fsum(
                mpmath.exp(mpmath.mpf(float(t))) for t, ok in zip(z, allowed, strict=True) if ok
            )
            s_out = mpmath.fsum(
                mpmath.exp(mpmath.mpf(float(t))) for t, ok in zip(z, allowed, strict=True) if not ok
            )
            for i, ok in enumerate(allowed):
                if ok:
                    gap = abs(sig[i] - target[i])
                    require(
                        gap <= target[i] * mpmath.exp(-cm) * s_out / s_u + rounding,
                        f"|sigma_i - sigma^U_i| = {mpmath.nstr(gap, 5)} exceeds the "
                        f"e^(-c) rate at c = {c}, z = {z.tolist()}",
                    )
                else:
                    bound = bound_at(len(z), inside, i)(cm, *at)
                    require(
                        0 < sig[i] <= bound + rounding,
                        f"sigma_{i} = {mpmath.nstr(sig[i], 5)} not in (0, "
                        f"{mpmath.nstr(bound, 5)}] at c = {c}, z = {z.tolist()}, U = "
                        f"{allowed}",
                    )
                    if c >= 745 and (stats["smallest"] is None or sig[i] < stats["smallest"]):
                        stats["smallest"] = sig[i]
        stats["cases"] += 1
        stats["max_c"] = max(stats["max_c"], c)

    judge(np.array([1.0, 2.0, 0.5]), [True, True, False], 10.0)
    for c in (1.0, 100.0, 1000.0):
        judge(np.array([1.0, 2.0, 0.5]), [True, True, False], c)
    # one fixed case beyond the symbolic limits' n = 2..3, whatever the draws
    judge(np.array([1.0, 2.0, 0.5, -1.0]), [True, False, True, False], 10.0)

    @given(
        st.integers(2, 6).flatmap(
            lambda n: st.tuples(
                float_arrays((n,), 20.0),
                st.lists(st.booleans(), min_size=n, max_size=n).filter(
                    lambda a: any(a) and not all(a)
                ),
                st.floats(0.0, 1000.0),
            )
        )
    )
    def limit(case):
        judge(*case)

    limit()
    evidence.append(
        f"high precision on {stats['cases']} (z, U, c) with c up to "
        f"{stats['max_c']:.0f}: "
        "0 < sigma_i <= e^(-c) e^(z_i) / S_U off U, convergence at rate e^(-c) on U"
        + (
            ""
            if stats["smallest"] is None
            else f"; smallest masked weight {mpmath.nstr(stats['smallest'], 3)}, far "
            "below float64's range"
        )
    )

    def numpy_limit(case):
        z, allowed = case
        mask = np.array(allowed)
        got = np.asarray(masked_softmax(z, mask))
        require(bool(np.all(got[~mask] == 0.0)), f"masked entries {got[~mask]} are not 0")
        with mpmath.workdps(DIGITS):
            shifted = [
                mpmath.mpf(float(t)) - (0 if ok else 1000) for t, ok in zip(z, allowed, strict=True)
            ]
            err = mp_error(got, mp_softmax_exact(shifted))
        bound = softmax_error_bound(z[mask], got[mask])
        judge_within(err[mask], bound, f"masked_softmax off the c = 1000 limit at {z.tolist()}")
        # masked entries: exactly 0 (required above), and sigma(z - 1000 m)_i <= e^-1000
        # e^{z_i}/S_U <= e^-960 for |z| <= 20, below the smallest float: 0 is the nearest one

    numpy_limit((np.array([1.0, 2.0, 0.5]), [True, True, False]))
    given(
        st.integers(1, 6).flatmap(
            lambda n: st.tuples(
                float_arrays((n,), 20.0),
                st.lists(st.booleans(), min_size=n, max_size=n).filter(any),
            )
        )
    )(numpy_limit)()
    evidence.append(
        "NumPy masked_softmax = sigma(z - 1000 m) at 50 digits within the rounding "
        "bound, masked entries exactly 0"
    )
    return evidence
