"""How far a reader's output may lie from the exact value: a first-order bound on the
rounding error of any implementation of the function that evaluates the definition's
steps in one of the orders a reader writes (listed below), at that input, in the
working precision (u its unit roundoff, T its smallest subnormal), never a fixed
constant. docs/bench.md derives each bound; in brief:

softmax     the maximum subtracted (x = z - max z, each |x_i| off by u|x_i|), then either
            e^{x_i} / S (S summed in any order, divided, or multiplied by 1/S) or
            e^{x_i - log S}: `softmax_relative`.
layer norm  two-pass or shifted-data mean, the variance by any sum (np.var, a dot
            product, np.std squared), a division or a product with 1/s, gamma and beta
            in either order: `layer_norm_tolerance`.
GELU        t Phi(t) through ndtr, erf or erfc within (2 NDTR_ULPS + 2) u|t|; the tanh
            form within numeric's ACTIVATION_ERRORS bound (which covers 0.5t(1 + tanh)).
attention   every product within gamma_k |A||B| (any order of summation, Higham 3.1), the
            scaling by 1/sqrt(d_k) on q, k or the scores, the softmax's own rounding
            within the bound above, each carried to the output (`head_bound`).
blocks,     each stage (LayerNorm, attention, the MLP, the residual sums) within its own
model       bound at its computed input, carried through the exact Jacobians of the
            later stages (numeric.running_error with these stage bounds).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from numeric.error_bounds import (
    ACTIVATION_ERRORS,
    EXP_ULPS,
    NDTR_ULPS,
    gamma,
    mlp_error_bound,
    projection_error_bound,
)
from numeric.running_error import StageBounds, block_rounding_bound, model_rounding_bound
from spec.config import ModelConfig

# u times this bounds a GELU evaluation's error over |t|: t ndtr(t) within 2N + 1,
# t (1 + erf(t/sqrt 2)) / 2 within N + 2.5 and t erfc(-t/sqrt 2) / 2 within 2N + 1.5
# (N = NDTR_ULPS; the argument's two roundings move erf or erfc by at most 0.49u|t|);
# the tanh form as numeric derives it (t / (1 + e^w) within 12.2, 0.5t(1 + tanh) within
# 7.4 with tanh to EXP_ULPS).
GELU_ROUNDING = {"gelu": 2 * NDTR_ULPS + 2.0, "gelu_tanh": ACTIVATION_ERRORS["gelu_tanh"][1]}


def unit_roundoff(dtype: np.dtype) -> float:
    """u of the working precision (float32 or float64)."""
    return float(np.finfo(dtype).eps) / 2


def tiny(dtype: np.dtype) -> float:
    """T, the smallest subnormal of the working precision."""
    return float(np.finfo(dtype).smallest_subnormal)


def softmax_relative(x: np.ndarray, mean: np.ndarray, u: float, n: int) -> np.ndarray:
    """The relative error bound of sigma_i at x_i = |z_i - max z|, mean = sum_l sigma_l x_l:
    the larger of the two forms'. e^{x_i} / S: the shift (u x_i), exp (2E u), the sum
    (u mean + 2E u + gamma_{n-1}), the division and a reciprocal (2u). e^{x_i - log S}:
    the shift and the second subtraction (u(2 x_i + log n)), the sum as before, log S
    (2E u log n) and exp (2E u). E = EXP_ULPS, exp and log alike."""
    divided = u * (x + mean + 4 * EXP_ULPS + 2)
    through_log = u * (2 * x + mean + 4 * EXP_ULPS + (2 * EXP_ULPS + 1) * math.log(n))
    return np.maximum(divided, through_log) + gamma(max(n - 1, 0), u)


def softmax_tolerance(z: np.ndarray, exact: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Entrywise bound (z's shape) for sigma along the last axis; `exact` is sigma(z) in
    float64 (masked entries of sigma^U are -inf in z and 0 in exact). An entry that
    underflows errs by at most (n + E + 1) T beyond it (exp's ulps of a subnormal, the
    division).

    >>> z = np.array([0.0, np.log(2.0)])
    >>> bool(np.all(softmax_tolerance(z, np.array([1 / 3, 2 / 3]), np.dtype(np.float64)) < 1e-14))
    True
    """
    u, n = unit_roundoff(dtype), z.shape[-1]
    with np.errstate(invalid="ignore", over="ignore"):
        finite = np.where(np.isfinite(z), z.astype(np.float64), np.nan)
        top = np.nanmax(finite, axis=-1, keepdims=True)
        x = np.where(np.isfinite(z), np.abs(finite - top), 0.0)  # (..., n), |z - max z|
        weighted = np.where(exact > 0, exact * x, 0.0)
        mean = weighted.sum(axis=-1, keepdims=True)  # (..., 1), sum_l sigma_l |x_l|
        relative = softmax_relative(x, mean, u, n)
        bound = np.where(exact > 0, exact * relative, 0.0)
    return bound + (n + EXP_ULPS + 1) * tiny(dtype)


def layer_norm_tolerance(
    x: np.ndarray, gain: np.ndarray, shift: np.ndarray, eps: float, dtype: np.dtype
) -> np.ndarray:
    """Entrywise bound (x's shape) for gamma (x - mu) / sqrt(sigma^2 + eps) + beta over the
    last axis, x (..., d) the values the reader computes on.

    Each row is scaled by 2^-e (max|x| = m 2^e, m in [0.5, 1)), exactly, so that its
    squares neither overflow nor underflow; T in those units is T 2^-e. The centred row
    is off by dc = max(gamma_{d+3} max|x|, gamma_{2d+7} max|c|) (two-pass: the d-term
    mean, its division and the subtraction; shifted data: x - x_1 within 2u max|c|,
    its mean and the centring, the first error centred again); the variance by
    2 mean(|c|) dc + gamma_{d+4} var (d squares summed in any order and divided; np.std
    squared adds 3u); sigma^2 + eps by u(var + 2 eps) (the sum, and eps rounded to the
    working precision); the root and the reciprocal or the division by 2u; y = c/s by
    dc/s + |y|(rel_s + 2u); then gamma y + beta by u|gamma y| + u|out|.

    >>> x = np.array([1.0, 2.0, 3.0, 6.0])
    >>> bound = layer_norm_tolerance(x, np.ones(4), np.zeros(4), 0.0, np.dtype(np.float32))
    >>> bool(np.all(bound < 1e-5))
    True
    """
    u, d = unit_roundoff(dtype), x.shape[-1]
    x = x.astype(np.float64)
    _, e = np.frexp(np.abs(x).max(axis=-1, keepdims=True))  # (..., 1)
    if eps > 0:  # eps 2^-2e must stay finite: a row below eps's scale is scaled less
        e = np.maximum(e, (math.frexp(eps)[1] - 1000) // 2)
    x = np.ldexp(x, -e)
    eps_scaled = np.ldexp(float(eps), -2 * e)
    t = np.ldexp(tiny(dtype), -e)  # an underflow's error in the scaled units
    t2 = np.ldexp(tiny(dtype), -2 * e)  # and a square's
    top = np.abs(x).max(axis=-1, keepdims=True)
    c = x - x.mean(axis=-1, keepdims=True)
    var = (c * c).mean(axis=-1, keepdims=True)
    s2 = var + eps_scaled
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = np.abs(c).max(axis=-1, keepdims=True)
        dc = np.maximum(gamma(d + 3, u) * top, gamma(2 * d + 7, u) * spread) + (d + 3) * t
        dvar = 2 * np.abs(c).mean(axis=-1, keepdims=True) * dc + gamma(d + 4, u) * var
        dvar = dvar + (d + 2) * t2
        rel_s = (dvar + u * (var + 2 * eps_scaled)) / (2 * s2) + 2 * u
        inv_s = 1 / np.sqrt(s2)
        y = c * inv_s
        dy = dc * inv_s + np.abs(y) * (rel_s + 2 * u) + 2 * t * inv_s
    g, b = np.abs(gain.astype(np.float64)), shift.astype(np.float64)
    out = np.abs(g * y + b)
    return g * dy + u * g * np.abs(y) + u * out + tiny(dtype)


def gelu_tolerance(t: np.ndarray, form: str, dtype: np.dtype) -> np.ndarray:
    """Entrywise bound for GELU(t) = t Phi(t) (form "gelu") or its tanh approximation
    ("gelu_tanh"), evaluated by any of the forms GELU_ROUNDING covers.

    >>> bool(gelu_tolerance(np.array([1.0]), "gelu", np.dtype(np.float64))[0] < 1e-14)
    True
    """
    u = unit_roundoff(dtype)
    return GELU_ROUNDING[form] * u * np.abs(t.astype(np.float64)) + 2 * tiny(dtype)


def head_bound(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    errors: tuple[np.ndarray, np.ndarray, np.ndarray],
    mask: np.ndarray | None,
    dtype: np.dtype,
) -> tuple[np.ndarray, np.ndarray]:
    """(H, bound on its error) for H = sigma(q k^T / sqrt(d_k)) v per head: q (h, n, d_k),
    k (h, m, d_k), v (h, m, d_v) as float64 values, `errors` bounds on their errors,
    `mask` (n, m) True where allowed.

    A score error D_ij (the inputs' errors, the length-d_k product and the scaling: 1/
    sqrt(d_k) rounded twice and applied to q, k or the scores, gamma_{d_k+3}) moves H_i
    by sum_j sigma_ij D_ij |v_j - H_i| (the softmax's Jacobian); the softmax's own
    rounding, within `softmax_tolerance` at the scores, by sum_j that bound times |v_j|;
    the weighted sum adds gamma_m sigma|v| and the values' errors sigma dv; each product
    that underflows T.
    """
    u, t = unit_roundoff(dtype), tiny(dtype)
    dq, dk, dv = errors
    d_k, m = q.shape[-1], k.shape[-2]
    root = 1 / math.sqrt(d_k)
    kt, akt = k.transpose(0, 2, 1), np.abs(k).transpose(0, 2, 1)
    scores = (q @ kt) * root  # (h, n, m)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    aq = np.abs(q)
    ds = (dq @ akt + aq @ dk.transpose(0, 2, 1) + gamma(d_k + 3, u) * (aq @ akt)) * root
    ds = ds + (d_k + 3) * t  # (h, n, m)
    out = weights @ v  # (h, n, d_v)
    moved = np.abs(v[:, None, :, :] - out[:, :, None, :])  # (h, n, m, d_v)
    av = np.abs(v)
    own = softmax_tolerance(scores, weights, dtype)  # (h, n, m)
    bound = (
        np.einsum("hnm,hnmk->hnk", weights * ds, moved)
        + own @ av
        + gamma(m, u) * (weights @ av)
        + weights @ dv
        + m * t
    )
    return out, bound


def attention_tolerance(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None, dtype: np.dtype
) -> np.ndarray:
    """Entrywise bound (h, n, d_v) for Attn(q, k, v) per head at inputs given exactly.

    >>> q = k = v = np.array([[[1.0, 0.5], [0.25, 2.0]]])
    >>> bool(np.all(attention_tolerance(q, k, v, None, np.dtype(np.float64)) < 1e-14))
    True
    """
    q, k, v = (a.astype(np.float64) for a in (q, k, v))
    errors = (np.zeros_like(q), np.zeros_like(k), np.zeros_like(v))
    return head_bound(q, k, v, errors, mask, dtype)[1]


def mha_tolerance(
    x: np.ndarray, params: Mapping[str, np.ndarray], causal: bool, dtype: np.dtype
) -> np.ndarray:
    """Entrywise bound (n, d) for MHA(x) at x and params given exactly: the projections
    within gamma_{d+1}(|x||W| + |b|) (numeric.error_bounds.projection_error_bound), each
    head by `head_bound`, the merge sum_a H_a W_O,a + b_O within |dH||W_O| +
    gamma_{d+1}(|H||W_O| + |b_O|), one sum of d + 1 terms in any order (the heads
    joined, or added one by one)."""
    u, t = unit_roundoff(dtype), tiny(dtype)
    z = x.astype(dtype)
    zero = np.zeros(x.shape)
    q, dq = projection_error_bound(z, zero, params["w_q"], params.get("b_q"), u)
    k, dk = projection_error_bound(z, zero, params["w_k"], params.get("b_k"), u)
    v, dv = projection_error_bound(z, zero, params["w_v"], params.get("b_v"), u)
    n, d = x.shape
    mask = np.tri(n, dtype=bool) if causal else None
    heads, d_heads = head_bound(q, k, v, (dq, dk, dv), mask, dtype)
    w_o = np.abs(params["w_o"].astype(np.float64))  # (h, d_k, d)
    size = np.einsum("hnk,hkd->nd", np.abs(heads), w_o)
    if params.get("b_o") is not None:
        size = size + np.abs(params["b_o"].astype(np.float64))
    return np.einsum("hnk,hkd->nd", d_heads, w_o) + gamma(d + 1, u) * size + (d + 1) * t


def mlp_tolerance(x: np.ndarray, params: Mapping[str, np.ndarray], activation: str) -> np.ndarray:
    """Entrywise bound (n, d) for phi(x W_1 + b_1) W_2 + b_2 in x's dtype, x given exactly:
    numeric's bound (each product within gamma_k, the activation's slope and rounding),
    with a GELU evaluated in any of GELU_ROUNDING's forms."""
    u = unit_roundoff(x.dtype)
    bound = mlp_error_bound(x, np.zeros(x.shape), params, u, activation)
    if activation not in GELU_ROUNDING:
        return bound
    more = GELU_ROUNDING[activation] - ACTIVATION_ERRORS[activation][1]
    pre = np.abs(x.astype(np.float64) @ params["w_1"] + params.get("b_1", 0.0))  # (n, d_ff)
    return bound + max(more, 0.0) * u * pre @ np.abs(params["w_2"].astype(np.float64))


READER = StageBounds(
    layer_norm=lambda x, gain, shift, eps: layer_norm_tolerance(x, gain, shift, eps, x.dtype),
    attention=lambda z, p, causal: mha_tolerance(z, p, causal, z.dtype),
    mlp=mlp_tolerance,
)  # every stage as a reader may evaluate it


def block_tolerance(
    x: np.ndarray, params: dict, post: bool, causal: bool, activation: str, eps: float
) -> np.ndarray:
    """Entrywise bound (n, d) for a Pre-LN (or Post-LN) block evaluated in x's dtype."""
    return block_rounding_bound(x, params, post, causal, activation, eps, READER)[1]


def model_tolerance(tokens: np.ndarray, params: dict, config: ModelConfig) -> np.ndarray:
    """Entrywise bound (n, |V|) for the logits of the decoder-only model in the
    parameters' dtype."""
    return model_rounding_bound(tokens, params, config, READER)[1]
