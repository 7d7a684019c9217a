"""§4 注意: scaled dot-product and multi-head attention (定義 4.1), convex combinations (命題 4.2),
the worked example (例 4.3)."""

from __future__ import annotations

import math

import numpy as np
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from numeric.attention import attention, causal_mask, multi_head_attention
from numeric.error_bounds import (
    EXP_ULPS,
    attention_error_bound,
    gamma,
    softmax_error_bound,
    unit_roundoff,
)
from proofs.book.claims import Claim
from proofs.book.judge import Verdict, judge_cases, judge_within, require, weigh
from proofs.book.printed import Printed
from proofs.book.profiles import scaled
from proofs.book.stated import divisor, expression, printed_values
from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.chapters.self_attention.strategies import mha_case, qkv_case
from proofs.evidence.anchors import attention_off_definition, mha_off_definition
from symbolic.identities import equal


@CHAPTER.element(
    "def-attention",
    "定義 4.1",
    "スケール付き内積注意・自己注意・マルチヘッド・因果マスク",
    "definition",
    ("numeric", "high precision"),
    claims=(
        Claim(r"j > i"),
        Claim(
            r"A := \sigma\!\left( \frac{Q K^{\mathsf{T}}}{\sqrt{d_k}} \right) \in "
            r"\mathbb{R}^{n \times m}",
        ),
        Claim(r"\mathrm{Attn}(Q, K, V) := A\,V \in \mathbb{R}^{n \times d_v}"),
        Claim(r"A_{ij} = \sigma(\boldsymbol{s}_i)_j"),
        Claim(
            r"s_{ij} = \langle \boldsymbol{q}_i, \boldsymbol{k}_j\rangle/\sqrt{d_k}",
        ),
        Claim(r"Q = XW_Q + \boldsymbol{1}\boldsymbol{b}_Q^{\mathsf{T}}"),
        Claim(r"K = XW_K + \boldsymbol{1}\boldsymbol{b}_K^{\mathsf{T}}"),
        Claim(r"V = XW_V + \boldsymbol{1}\boldsymbol{b}_V^{\mathsf{T}}"),
        Claim(r"d_k = d_v = d/h"),
        Claim(
            r"\mathrm{MHA}(X) := [H^{(1)} \cdots H^{(h)}]\, W_O + "
            r"\boldsymbol{1}\boldsymbol{b}_O^{\mathsf{T}} \in \mathbb{R}^{n \times d}",
        ),
        Claim(r"m = n"),
        Claim(r"A_{ij} = 0"),
    ),
)
def def_attention(
    attention=attention, multi_head_attention=multi_head_attention, causal_mask=causal_mask
) -> list[str]:
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
            require(
                got.shape == want.shape and bool(np.all(got == want)),
                f"causal_mask({n}, {m}) is not j <= i + m - n:\n{got.astype(int)}",
            )
    evidence.append("causal_mask(n, m) = {j <= i + m - n} exactly for n <= 8, m = n..n+3")

    single_cases: list[Verdict] = []

    def single(case):
        q, k, v, mask = case
        single_cases.append(
            weigh(
                *attention_off_definition(attention, q, k, v, mask),
                f"shapes {q.shape}, {k.shape}, mask "
                f"{None if mask is None else mask.astype(int).tolist()}",
            )
        )

    fixed = np.arange(1.0, 13.0).reshape(2, 3, 2) / 6  # (h, n, d_k) = (2, 3, 2)
    single((fixed, fixed[:, ::-1], fixed, None))
    single((fixed, fixed, fixed, np.tri(3, dtype=bool)))
    scaled(0.5)(given(qkv_case())(single))()
    single_judged = judge_cases(single_cases, "attention off the definition")
    multi_cases: list[Verdict] = []

    @scaled(0.5)
    @given(mha_case(), st.booleans())
    def multi(case, causal):
        x, params = case
        _, weights = multi_head_attention(x, params, causal=causal)
        multi_cases.append(
            weigh(
                *mha_off_definition(multi_head_attention, x, params, causal),
                f"x {x.shape}, h = {params['w_q'].shape[0]}, causal = {causal}",
            )
        )
        if causal:
            upper = np.triu(np.ones(weights.shape[-2:], dtype=bool), 1)
            require(
                bool(np.all(np.asarray(weights)[:, upper] == 0)),
                "causal weights are not exactly 0 above the diagonal",
            )

    multi()
    multi_judged = judge_cases(multi_cases, "multi_head_attention off the definition")
    evidence.append(
        f"attention and multi-head attention = the definition at 50 digits within "
        f"the rounding bound (largest error/bound {single_judged.ratio:.2f} and "
        f"{multi_judged.ratio:.2f}); causal weights exactly 0 above the diagonal"
    )
    return evidence


def convexity_violations(
    out: np.ndarray,
    v: np.ndarray,
    weights: np.ndarray,
    mask: np.ndarray | None,
    bound: np.ndarray,
    scores: np.ndarray,
) -> list[str]:
    """How the computed head outputs break 命題 4.2 beyond the bounds, each way once (at
    its first place); none when they satisfy it.

    Weights: >= 0, exactly 0 where masked, row sums within the summed softmax bounds of
    1. Outputs: the exact output is a convex combination, and the computed one is within
    `bound` of it, so ||out_i|| <= max_j ||v_j|| + ||bound_i|| and each component lies in
    [min_j v_jl - bound_il, max_j v_jl + bound_il]."""
    found: dict[str, str] = {}  # the first violation of each kind
    if np.any(weights < 0):
        found["negative"] = f"a negative weight {weights.min():.2e}"
    if mask is not None and np.any(np.broadcast_to(~mask, weights.shape) & (weights != 0)):
        found["masked"] = "a masked weight is not exactly 0"
    u64 = unit_roundoff(np.float64)
    for index in np.ndindex(weights.shape[:-1]):
        row = weights[index]
        allowed = (
            np.ones(row.shape, bool)
            if mask is None
            else np.broadcast_to(mask, weights.shape)[index]
        )
        b = softmax_error_bound(scores[index][allowed], row[allowed])
        if abs(math.fsum(row) - 1) > b.sum() + u64:
            found.setdefault("sum", f"weights of row {index} sum to {math.fsum(row)!r}")
    for a in range(out.shape[0]):
        top = np.linalg.norm(v[a], axis=-1).max()
        low, high = v[a].min(axis=0), v[a].max(axis=0)
        for i in range(out.shape[1]):
            norm = np.linalg.norm(out[a, i])
            if norm > top * (1 + 2 * u64 * v.shape[-1]) + np.linalg.norm(bound[a, i]):
                found.setdefault(
                    "norm",
                    f"||out|| = {float(norm)!r} > max ||v_j|| = {float(top)!r} (head {a}, row {i})",
                )
            if np.any(out[a, i] < low - bound[a, i]) or np.any(out[a, i] > high + bound[a, i]):
                found.setdefault(
                    "component", f"a component leaves [min v, max v] (head {a}, row {i})"
                )
    return list(found.values())


@CHAPTER.element(
    "prop-attention-convex-combination",
    "命題 4.2",
    "注意の出力は凸結合",
    "proposition",
    ("numeric",),
    claims=(
        Claim(r"A_{ij} \ge 0"),
        Claim(r"\sum_{j=1}^{m} A_{ij} = 1"),
        Claim(
            r"\Big\| \sum_{j} A_{ij}\boldsymbol{v}_j \Big\| \le \max_{1 \le j \le m} "
            r"\|\boldsymbol{v}_j\|",
        ),
        Claim(
            r"\min_j (\boldsymbol{v}_j)_l \le \big(\sum_j "
            r"A_{ij}\boldsymbol{v}_j\big)_l \le \max_j (\boldsymbol{v}_j)_l",
        ),
        Claim("すなわちバリュー", phrase=True),
        Claim("の凸結合である", phrase=True),
    ),
)
def prop_attention_convex_combination(
    attention=attention, multi_head_attention=multi_head_attention
) -> list[str]:
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
    exact softmax of the computed scores). On the same inputs attention and
    multi_head_attention are 定義 4.1's maps at 50 digits within their rounding bounds, so
    the properties are shown of the defined maps."""
    stats = {"cases": 0, "masked": 0}

    def judge(q, k, v, mask):
        out, weights = attention(q, k, v, mask)
        out, weights = np.asarray(out), np.asarray(weights)
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])
        violations = convexity_violations(
            out, v, weights, mask, attention_error_bound(q, k, v, weights), scores
        )
        require(
            not violations,
            f"命題 4.2 fails: {'; '.join(violations)} (q {q.shape}, k {k.shape}, mask "
            f"{None if mask is None else mask.astype(int).tolist()})",
        )
        judge_within(
            *attention_off_definition(attention, q, k, v, mask),
            f"the attention is not 定義 4.1's Attn at 50 digits (q {q.shape}, k {k.shape})",
        )
        stats["cases"] += 1
        stats["masked"] += mask is not None

    rng = np.random.default_rng(7)
    q, k, v = (
        30 * rng.standard_normal((2, 4, 3)),
        30 * rng.standard_normal((2, 4, 3)),
        rng.standard_normal((2, 4, 2)),
    )
    judge(q, k, v, None)
    judge(q, k, v, np.tri(4, dtype=bool))
    given(qkv_case())(lambda case: judge(*case))()
    evidence = [
        f"weights >= 0 summing to 1, norm and component bounds on {stats['cases']} "
        f"inputs ({stats['masked']} masked), within the rounding bound"
    ]

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
        judge_within(sums - 1, tol, f"multi-head weight rows sum to {sums.tolist()}")
        judge_within(
            *mha_off_definition(multi_head_attention, x, params, causal),
            f"the attention is not 定義 4.1's MHA at 50 digits (x {x.shape}, causal = {causal})",
        )
        stats["mha"] += 1

    stats["mha"] = 0
    multi_head()
    evidence.append(
        f"multi-head attention weights (drawn h | d, parameters, causal and not): "
        f">= 0, rows summing to 1, on {stats['mha']} cases"
    )
    return evidence


def _identity_attention(x: np.ndarray, causal: bool, mha=multi_head_attention):
    """One head with W_Q = W_K = W_V = W_O = I and no biases (the example's layer)."""
    eye = np.eye(x.shape[1])
    params = {"w_q": eye[None], "w_k": eye[None], "w_v": eye[None], "w_o": eye[None]}
    out, weights = mha(x, params, causal=causal)
    return np.asarray(out), np.asarray(weights)[0]


@CHAPTER.element(
    "ex-attention-by-hand",
    "例 4.3",
    "n = 3, d = 2 の手計算",
    "example",
    ("numeric", "symbolic"),
    claims=(
        Claim(r"d = d_k = d_v = 2"),
        Claim(r"W_Q = W_K = W_V = I"),
        Claim(r"X = \begin{pmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{pmatrix}"),
        Claim(r"Q = K = V = X"),
        Claim(
            r"\frac{1}{\sqrt2}\begin{pmatrix} 1 & 0 & 1 \\ 0 & 1 & 1 \\ 1 & 1 & 2 "
            r"\end{pmatrix} = \begin{pmatrix} 0.7071 & 0 & 0.7071 \\ 0 & 0.7071 & 0.7071 "
            r"\\ 0.7071 & 0.7071 & 1.4142 \end{pmatrix}",
            lhs=r"\frac{1}{\sqrt2}\begin{pmatrix} 1 & 0 & 1 \\ 0 & 1 & 1 \\ 1 & 1 & 2 "
            r"\end{pmatrix}",
            argument="printed.scores",
            read=printed_values,
        ),
        Claim(
            r"e^{0.7071} = 2.0281",
            lhs=r"e^{0.7071}",
            argument="printed.exp_score_1_1",
            read=printed_values,
        ),
        Claim(
            r"e^{1.4142} = 4.1133",
            lhs=r"e^{1.4142}",
            argument="printed.exp_score_3_3",
            read=printed_values,
        ),
        Claim(
            r"(2.0281,\ 1,\ 2.0281)/5.0562 = (0.4011,\ 0.1978,\ 0.4011)",
            argument="printed.row_sum_1",
            read=divisor,
        ),
        Claim(
            r"(2.0281,\ 2.0281,\ 4.1133)/8.1695 = (0.2483,\ 0.2483,\ 0.5035)",
            argument="printed.row_sum_3",
            read=divisor,
        ),
        Claim(
            r"A = \begin{pmatrix} 0.4011 & 0.1978 & 0.4011 \\ 0.1978 & 0.4011 & 0.4011 \\ "
            r"0.2483 & 0.2483 & 0.5035 \end{pmatrix}",
            lhs="A",
            argument="printed.weights",
            read=printed_values,
        ),
        Claim(
            r"AX = \begin{pmatrix} 0.8022 & 0.5989 \\ 0.5989 & 0.8022 \\ 0.7517 & 0.7517 "
            r"\end{pmatrix}",
            lhs="AX",
            argument="printed.output",
            read=printed_values,
        ),
        Claim(
            r"0.4011\,(1, 0) + 0.1978\,(0, 1) + 0.4011\,(1, 1) = (0.8022,\ 0.5989)",
            lhs=r"0.4011\,(1, 0) + 0.1978\,(0, 1) + 0.4011\,(1, 1)",
            argument="printed.output_row_1",
            read=printed_values,
        ),
        Claim(
            r"\big((0.5989, 0.8022),\ (0.8022, 0.5989),\ (0.7517, 0.7517)\big)",
            argument="printed.swapped_output",
            read=printed_values,
        ),
        Claim(r"(1, 0, 0)", argument="printed.causal_row_1", read=printed_values),
        Claim(
            r"(1,\ 2.0281)/3.0281 = (0.3302,\ 0.6698)",
            lhs=r"(1,\ 2.0281)/3.0281",
            argument="printed.causal_row_2",
            read=printed_values,
        ),
        Claim(
            r"(1,\ 2.0281)/3.0281 = (0.3302,\ 0.6698)",
            lhs=r"(1,\ 2.0281)/3.0281",
            argument="printed.causal_row_sum",
            read=divisor,
        ),
        Claim(
            r"\big((1, 0),\ (0.3302, 0.6698),\ (0.7517, 0.7517)\big)",
            argument="printed.causal_output",
            read=printed_values,
        ),
        Claim(
            r"\big((1, 0),\ (0.3302, 0.6698),\ (5.0000, -2.0000)\big)",
            argument="printed.changed_causal_output",
            read=printed_values,
        ),
        Claim(r"(4.6488, -1.8110)", argument="printed.changed_unmasked_row_1", read=printed_values),
        Claim(r"29/\sqrt2", argument="stated_self_score", read=expression),
    ),
)
def ex_attention_by_hand(
    printed: dict, stated_self_score: sp.Expr, multi_head_attention=multi_head_attention
) -> list[str]:
    """Every printed number of the worked example recomputed with the package's
    multi_head_attention (one head, W = I, no biases) and compared at its own printed
    precision (|computed - printed| within half a unit of its last place; a printed
    integer exactly): the scaled scores, e^0.7071 and
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
        "exp_score_1_1": math.exp(scores[0, 0]),
        "exp_score_3_3": math.exp(scores[2, 2]),
        "row_sum_1": np.exp(scores[0]).sum(),
        "row_sum_3": np.exp(scores[2]).sum(),
        "weights": weights,
        "output": out,
        "output_row_1": out[0],
        "swapped_output": swapped,
        "causal_row_1": c_weights[0],
        "causal_row_2": c_weights[1, :2],
        "causal_row_sum": np.exp(scores[1, :2]).sum(),
        "causal_output": c_out,
        "changed_causal_output": ch_out,
        "changed_unmasked_row_1": ch_free[0],
    }
    require(
        np.array_equal(c_weights[1:, :][0, 2:], [0.0]) and np.array_equal(c_weights[2], weights[2]),
        "the causal weights' row 2 ends in 0 and row 3 is the unmasked one",
    )
    evidence = []
    for key, stated in printed.items():
        want, half = _printed_arrays(stated)
        value = np.asarray(computed[key], dtype=float)
        # half a unit of each number's last printed place (0 for a printed integer, exact),
        # plus float64 rounding: the computed value (exp to EXP_ULPS ulp, a 3-term sum, a
        # division, a 3-term product: under 16 roundings of the largest magnitude involved,
        # max(1, |printed|) since weights are <= 1), the printed decimal's conversion and
        # the subtraction (one u each)
        rounding = gamma(18) * max(1.0, float(np.max(np.abs(want))))
        judge_within(
            value - want,
            half + rounding,
            f"{key}: computed {np.round(value, 6).tolist()} but the chapter prints "
            f"{want.tolist()} (at its printed precision)",
        )
        evidence.append(f"{key}: {np.round(value, 4).tolist()}")
    row = sp.Matrix(changed[2].astype(int).tolist())
    self_score = row.dot(row) / sp.sqrt(2)
    stated_score = stated_self_score
    require(
        equal(self_score, stated_score),
        f"the changed row's own score is {self_score}, not {stated_score}",
    )
    evidence.append(f"the changed row's own score is {self_score} = {stated_score} exactly")
    require(
        np.array_equal(c_out[:2], ch_out[:2]), "changing row 3 changed the causal output rows 1-2"
    )
    evidence.append("changing row 3 leaves causal rows 1-2 bit for bit unchanged")
    evidence.append(
        f"note: the printed 'e^1.4142 = 4.1133' is e^sqrt(2) = "
        f"{math.exp(math.sqrt(2)):.6f}; e^1.4142 itself is {math.exp(1.4142):.6f} "
        f"(4.1132 at 4 decimals); the weights use the exact score sqrt(2)"
    )
    return evidence


def _printed_arrays(stated: Printed | list) -> tuple[np.ndarray, np.ndarray]:
    """The printed numbers (nested as written) as an array of values and an array of
    half units of their last printed places (0 for an integer, which is exact)."""
    if isinstance(stated, Printed):
        return np.array(stated.value), np.array(stated.half_unit())
    pairs = [_printed_arrays(item) for item in stated]
    return np.array([v for v, _ in pairs]), np.array([h for _, h in pairs])
