"""How far a reader's output may lie from the exact value: a first-order bound on the
rounding error of ANY backward-stable implementation of the function at that input, in
the precision of the reader's output (u its unit roundoff, T its smallest subnormal),
never a fixed constant. docs/bench.md derives each one; in brief:

softmax     shift-invariant backward stability, what 命題 3.1's remark asks for: the
            implementation computes, entry by entry, exp of the differences x = z - max z
            to within u|x_i| and 2 EXP_ULPS u, sums n positive terms (any order:
            gamma_{n-1}) and divides (u); a log-sum-exp form on x adds u(|x_i| + 2 log n).
            Twice the sum of those relative errors, times sigma_i, plus (n + EXP_ULPS + 1) T
            for the entries that underflow. An implementation that exponentiates z itself
            is as accurate where nothing overflows, and fails where something does.
layer norm  two-pass or any backward-stable algorithm: the centred row within
            2 gamma_{d+2} max|x| (the mean of d entries and the subtraction: the error
            scales with the row's magnitude, not its spread), the variance, the root,
            the division, gamma and beta each within their roundings.
GELU        t Phi(t) through erf, erfc or ndtr: (2 NDTR_ULPS + 1) u |t| (numeric's
            ACTIVATION_ERRORS), the tanh form likewise.
attention,  every product within gamma_k |A||B| (any order of summation: Higham 3.1),
blocks,     softmax as above, LayerNorm as above, carried to the output through the exact
model       Jacobians of the later stages (numeric.running_error); the attention stage's
            bound is numeric.error_bounds' for the max-shifted softmax, doubled for any
            order of its steps (the generic softmax bound above is at most twice it).
"""

from __future__ import annotations

import math

import numpy as np

from numeric.error_bounds import (
    ACTIVATION_ERRORS,
    EXP_ULPS,
    attention_error_bound,
    gamma,
    mha_error_bound,
)
from numeric.running_error import block_rounding_bound, model_rounding_bound
from spec.config import ModelConfig

ORDER_MARGIN = 2.0  # the steps of one stage in any order: see the module's docstring


def unit_roundoff(dtype: np.dtype) -> float:
    """u of the reader's output dtype (float16, float32 or float64)."""
    return float(np.finfo(dtype).eps) / 2


def tiny(dtype: np.dtype) -> float:
    """T, the smallest subnormal of the reader's output dtype."""
    return float(np.finfo(dtype).smallest_subnormal)


def softmax_tolerance(z: np.ndarray, exact: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Entrywise bound (z's shape) for sigma along the last axis; `exact` is sigma(z) in
    float64 (masked entries of sigma^U are -inf in z and 0 in exact).

    >>> z = np.array([0.0, np.log(2.0)])
    >>> bool(np.all(softmax_tolerance(z, np.array([1 / 3, 2 / 3]), np.dtype(np.float64)) < 1e-14))
    True
    """
    u, n = unit_roundoff(dtype), z.shape[-1]
    with np.errstate(invalid="ignore", over="ignore"):
        finite = np.where(np.isfinite(z), z.astype(np.float64), np.nan)
        top = np.nanmax(finite, axis=-1, keepdims=True)
        x = np.where(np.isfinite(z), np.abs(finite - top), 0.0)  # (..., n), |z - max z|
    with np.errstate(invalid="ignore", over="ignore"):  # 0 * inf where an entry is 0
        weighted = np.where(exact > 0, exact * x, 0.0)
        mean = weighted.sum(axis=-1, keepdims=True)  # (..., 1), sum_l sigma_l |x_l|
        relative = u * (x + mean + 2 * math.log(n) + 2 * EXP_ULPS + 2) + gamma(max(n - 1, 0), u)
        scaled = np.where(exact > 0, np.abs(exact) * relative, 0.0)
    return ORDER_MARGIN * scaled + (n + EXP_ULPS + 1) * tiny(dtype)


def layer_norm_tolerance(
    x: np.ndarray, gain: np.ndarray, shift: np.ndarray, eps: float, dtype: np.dtype
) -> np.ndarray:
    """Entrywise bound (x's shape) for gamma (x - mu) / sqrt(sigma^2 + eps) + beta over the
    last axis, x (..., d) given exactly (float64 values of the reader's inputs).

    >>> x = np.array([1.0, 2.0, 3.0, 6.0])
    >>> bound = layer_norm_tolerance(x, np.ones(4), np.zeros(4), 0.0, np.dtype(np.float32))
    >>> bool(np.all(bound < 1e-5))
    True
    """
    u, t, d = unit_roundoff(dtype), tiny(dtype), x.shape[-1]
    x = x.astype(np.float64)
    _, e = np.frexp(np.abs(x).max(axis=-1, keepdims=True))  # every quantity below at 2^-e
    x = np.ldexp(
        x, -e
    )  # the row scaled exactly, so that its squares neither overflow nor underflow
    eps = np.ldexp(float(eps), -2 * e)
    t = np.ldexp(t, -e)  # the subnormal spacing in the same units (y itself is unscaled)
    top = np.abs(x).max(axis=-1, keepdims=True)  # (..., 1)
    c = x - x.mean(axis=-1, keepdims=True)
    var = (c * c).mean(axis=-1, keepdims=True)
    s2 = var + eps
    with np.errstate(divide="ignore", invalid="ignore"):
        dc = 2 * gamma(d + 2, u) * top + (d + 3) * t  # (..., 1)
        dvar = 2 * np.abs(c).mean(axis=-1, keepdims=True) * dc + gamma(d + 1, u) * var
        rel_s = (dvar + u * (var + 2 * eps)) / (2 * s2) + 2 * u
        inv_s = 1 / np.sqrt(s2)
        y = c * inv_s
        dy = dc * inv_s + np.abs(y) * (rel_s + 2 * u) + 2 * t * inv_s
    t = tiny(dtype)
    g, b = np.abs(gain.astype(np.float64)), shift.astype(np.float64)
    out = np.abs(g * y + b)
    return g * dy + u * g * np.abs(y) + u * out + t


def gelu_tolerance(t: np.ndarray, form: str, dtype: np.dtype) -> np.ndarray:
    """Entrywise bound for GELU(t) = t Phi(t) (form "gelu") or its tanh approximation
    ("gelu_tanh"): numeric.error_bounds' rounding of that form, doubled (any order).

    >>> bool(gelu_tolerance(np.array([1.0]), "gelu", np.dtype(np.float64))[0] < 1e-14)
    True
    """
    _, rounding = ACTIVATION_ERRORS[form]
    u = unit_roundoff(dtype)
    return ORDER_MARGIN * rounding * u * np.abs(t.astype(np.float64)) + 2 * tiny(dtype)


def attention_tolerance(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, weights: np.ndarray, dtype: np.dtype
) -> np.ndarray:
    """Entrywise bound (h, n, d_v) for Attn(q, k, v) per head, at the exact weights
    (h, n, m) (0 where masked), the arrays cast to the reader's dtype as it computes."""
    low = [a.astype(dtype) for a in (q, k, v)]
    return ORDER_MARGIN * attention_error_bound(*low, weights)


def mha_tolerance(x: np.ndarray, params: dict, weights: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Entrywise bound (n, d) for MHA(x) at the exact weights (h, n, n)."""
    low = {key: value.astype(dtype) for key, value in params.items()}
    return ORDER_MARGIN * mha_error_bound(x.astype(dtype), low, weights)


def _layer_norm_stage(x: np.ndarray, gain: np.ndarray, shift: np.ndarray, eps: float) -> np.ndarray:
    return layer_norm_tolerance(x, gain, shift, eps, x.dtype)


def block_tolerance(
    x: np.ndarray, params: dict, post: bool, causal: bool, activation: str, eps: float, dtype
) -> np.ndarray:
    """Entrywise bound (n, d) for a Pre-LN (or Post-LN) block evaluated in `dtype`."""
    low = {key: value.astype(dtype) for key, value in params.items()}
    _, bound = block_rounding_bound(
        x.astype(dtype), low, post, causal, activation, eps, _layer_norm_stage
    )
    return ORDER_MARGIN * bound


def model_tolerance(tokens: np.ndarray, params: dict, config: ModelConfig, dtype) -> np.ndarray:
    """Entrywise bound (n, |V|) for the logits of the decoder-only model in `dtype`."""
    low = {key: value.astype(dtype) for key, value in params.items()}
    _, bound = model_rounding_bound(tokens, low, config, _layer_norm_stage)
    return ORDER_MARGIN * bound
