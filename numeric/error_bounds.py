"""First-order floating-point error bounds of the forward model's parts.

Every numeric tolerance of the package is one of these bounds evaluated on the
actual operands, never a tuned constant (Higham, Accuracy and Stability of
Numerical Algorithms, §3.1: a length-k inner product computed in any order has
|error| <= gamma_k |x|.|y| with gamma_k = k u / (1 - k u), u the unit roundoff).
Terms of order u² are dropped (at the sizes the checks draw they are below 1e-28
relative). The only assumption beyond IEEE arithmetic is the accuracy of np.exp,
taken as EXP_ULPS units in the last place. Underflow is not assumed away: with
gradual underflow a product or quotient that lands below the normal range is off
by at most half the smallest subnormal T beyond its relative error (a sum that
underflows is exact), so every bound carries an absolute term, T times a count of
the operations that can underflow on the way to an entry (`subnormal`).

Arguments are checked as the forward model checks them, except the arrays being
judged (a computed sigma, weights or Jacobian, an input-error bound dx): those may
hold inf or NaN, and the bound is then not finite either, so that the comparison
of a wrong evaluation with its bound fails instead of raising.

Two kinds of bound, read top to bottom:

entrywise   softmax, its Jacobian, attention, multi-head attention, the MLP (ReLU,
            GELU, tanh GELU: each activation's slope and rounding in
            ACTIVATION_ERRORS), LayerNorm: a bound per entry, for any float dtype,
            which numeric.running_error carries through a block and the whole model;
per row     the largest error of an entry of the LayerNorm Jacobian.

Each check uses the kind its comparison is stated in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
from numpy.typing import DTypeLike

from numeric.layer_norm import layer_norm
from numeric.validation import as_array, float_dtype, require_shape

ROWS = tuple(range(1, 33))  # any array of rows: at least one dimension
EXP_ULPS = 4  # np.exp is taken to be accurate to 4 units in the last place (NumPy's SIMD
# kernels are documented within 4 ULP, glibc's scalar exp within 1); 1 ULP <= 2u relative.


def _float_info(dtype: DTypeLike) -> np.finfo:
    return np.finfo(float_dtype(dtype))


def unit_roundoff(dtype: DTypeLike) -> float:
    """u = eps / 2: the relative error of one correctly rounded operation.

    >>> unit_roundoff(np.float32) == 2.0**-24
    True
    """
    return float(_float_info(dtype).eps) / 2


U = unit_roundoff(np.float64)  # float64's unit roundoff, 2^-53
GELU_SLOPE = 1 + 1 / math.sqrt(2 * math.pi * math.e)
# |GELU'(t)| = |Phi(t) + t phi(t)| <= 1 + max_t t phi(t) = 1 + phi(1); ReLU' <= 1 too.


def gamma(k: int, u: float = U) -> float:
    """gamma_k = k u / (1 - k u): the relative error bound of a length-k sum or dot product
    (float64's u unless another is given); defined while k u < 1.

    >>> gamma(2, 0.25)
    1.0
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"k must be an int >= 0, got {type(k).__name__} {k!r}")
    if not (k >= 0 and 0 <= k * u < 1):
        raise ValueError(f"gamma_k needs 0 <= k u < 1, got k = {k}, u = {u!r}")
    return k * u / (1 - k * u)


def subnormal(dtype: DTypeLike) -> float:
    """The smallest subnormal T: with gradual underflow a product is off by at most T/2
    beyond its relative error (fl(xy) = xy(1 + delta) + eta, |eta| <= T / 2), so a
    length-k dot product gains at most k T / 2 in absolute error; a sum is exact when it
    underflows.

    >>> subnormal(np.float32) == 2.0**-149
    True
    """
    return float(_float_info(dtype).smallest_subnormal)


def softmax_error_bound(z: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """Entrywise bound on |sigma_computed - sigma(z)| for the max-shifted softmax.

    With x = z - max z: the shift rounds once, so e^{x_j} is off by u|x_j| relatively
    (first order); exp adds 2·EXP_ULPS·u; the sum S is off by sum_l sigma_l·rel(e_l) plus
    gamma_{n-1}; the division adds u. Entries that underflow carry an absolute error of
    at most (EXP_ULPS + 1) subnormal spacings each (S >= 1 after the shift).

    >>> from numeric.softmax import softmax
    >>> z = np.array([1.0, 2.0, 3.0], np.float32)
    >>> sigma = softmax(z)  # float32, against the float64 evaluation
    >>> bool(np.all(np.abs(sigma - softmax(z.astype(np.float64))) <= softmax_error_bound(z, sigma)))
    True
    """
    z, sigma = as_array(z, "z", ndim=ROWS), as_array(sigma, "sigma", ndim=ROWS, finite=False)
    require_shape(sigma, "sigma", z.shape)
    u = unit_roundoff(sigma.dtype)
    tiny = subnormal(sigma.dtype)
    z64 = z.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        x = np.abs(z64 - z64.max(axis=-1, keepdims=True))  # (..., n), may be inf
        s = np.abs(sigma.astype(np.float64))
        rel_e = np.where(s > 0, u * x, 0.0) + 2 * EXP_ULPS * u  # (..., n)
        rel_sum = (s * rel_e).sum(axis=-1, keepdims=True) + gamma(z.shape[-1] - 1, u)
    n = z.shape[-1]
    return s * (rel_e + rel_sum + u) + (EXP_ULPS + 1) * n * tiny


def _head_bound(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    dq: np.ndarray,
    dk: np.ndarray,
    dv: np.ndarray,
    weights: np.ndarray,
    u: float,
    tiny: float,
) -> tuple[np.ndarray, np.ndarray]:
    """(H, error bound of H) for H = softmax(q k^T / sqrt(d_k)) v per head, first order.

    q, k, v are the heads' values (h, n|m, d_k|d_v), dq, dk, dv bounds on their errors,
    weights the computed attention weights (h, n, m) (masked entries 0).
    Scores: an input error moves s_ij by (dq|k| + |q|dk)/sqrt(d_k); the dot product and
    the scaling by 1/sqrt(d_k) (a rounded square root, a division and a product) add
    gamma_{d_k + 3}|q||k|/sqrt(d_k). The max-shift adds u|s_ij - max_l s_il| and exp a
    relative 2·EXP_ULPS·u, which is a score error too. A score error D_ij moves the
    weights by sigma_j (D_j - sum_l sigma_l D_l) (the softmax Jacobian diag(sigma) -
    sigma sigma^T), so H_i by sum_j sigma_ij D_ij (v_j - H_i): at most
    sum_j sigma_ij D_ij |v_j - H_i|. The sum of the exponentials scales a row by one
    factor (gamma_{m-1}), the division each weight by u and the weighted sum adds
    gamma_m, together at most (gamma_{m-1} + u + gamma_m) sigma|v|; then sigma dv. An
    underflowed weight is off by at most (EXP_ULPS + 1)·m·tiny, and each length-k
    product gains k·tiny for the products that underflow (`subnormal`).
    """
    d_k, m = q.shape[-1], k.shape[-2]
    root = 1.0 / math.sqrt(d_k)
    aq, ak, av = np.abs(q), np.abs(k), np.abs(v)
    kt, akt = k.transpose(0, 2, 1), ak.transpose(0, 2, 1)
    with np.errstate(invalid="ignore"):  # non-finite judged weights give a non-finite bound
        s = (q @ kt) * root  # (h, n, m)
        top = np.where(weights > 0, s, -np.inf).max(axis=-1, keepdims=True)  # (h, n, 1)
        ds = (dq @ akt + aq @ dk.transpose(0, 2, 1) + gamma(d_k + 3, u) * (aq @ akt)) * root
        ds = ds + (d_k + 3) * tiny + u * np.abs(s - top) + 2 * EXP_ULPS * u  # (h, n, m)
        out = weights @ v  # (h, n, d_v)
        moved = np.abs(v[:, None, :, :] - out[:, :, None, :])  # (h, n, m, d_v)
        d_h = (
            np.einsum("hnm,hnmk->hnk", weights * ds, moved)
            + weights @ dv
            + (gamma(m - 1, u) + u + gamma(m, u)) * (weights @ av)
            + (EXP_ULPS + 1) * m * tiny * av.sum(axis=-2, keepdims=True)
            + m * tiny
        )
    return out, d_h


def attention_error_bound(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, weights: np.ndarray
) -> np.ndarray:
    """Entrywise bound on |Attn_computed - Attn(q, k, v)| for exact inputs (h, n, d_v).

    >>> from numeric.attention import attention
    >>> q = k = v = np.array([[[1.0, 0.5], [0.25, 2.0]]], np.float32)  # (1, 2, 2)
    >>> out, weights = attention(q, k, v)
    >>> exact, _ = attention(*(a.astype(np.float64) for a in (q, k, v)))
    >>> bool(np.all(np.abs(out - exact) <= attention_error_bound(q, k, v, weights)))
    True
    """
    q, k, v = (as_array(a, name, ndim=3) for a, name in ((q, "q"), (k, "k"), (v, "v")))
    weights = as_array(weights, "weights", ndim=3, finite=False).astype(np.float64)
    u = unit_roundoff(q.dtype)
    q, k, v = (a.astype(np.float64) for a in (q, k, v))
    zero = np.zeros_like(q), np.zeros_like(k), np.zeros_like(v)
    return _head_bound(q, k, v, *zero, weights, u, subnormal(q.dtype))[1]


def projection_error_bound(
    x: np.ndarray, dx: np.ndarray, w: np.ndarray, b: np.ndarray | None, u: float
) -> tuple[np.ndarray, np.ndarray]:
    """(y, error bound) of y = x w + b per head: w (h, d, k), b (h, k) or None; y in float64.

    dx propagates as |dx||w|; the length-d product plus the bias add gamma_{d+1}(|x||w|+|b|).
    """
    w64 = w.astype(np.float64)
    y = np.einsum("nd,hdk->hnk", x.astype(np.float64), w64)  # (h, n, k)
    mag = np.einsum("nd,hdk->hnk", np.abs(x), np.abs(w64))
    if b is not None:
        y, mag = y + b[:, None, :], mag + np.abs(b)[:, None, :]
    k = x.shape[-1] + 1
    err = np.einsum("nd,hdk->hnk", dx, np.abs(w64)) + gamma(k, u) * mag + k * subnormal(x.dtype)
    return y, err


def mha_error_bound(
    x: np.ndarray,
    params: Mapping[str, np.ndarray],
    weights: np.ndarray,
    dx: np.ndarray | None = None,
    context: np.ndarray | None = None,
    d_context: np.ndarray | None = None,
) -> np.ndarray:
    """Entrywise bound (n, d) on |MHA_computed(x) - MHA(x_exact)| where |x - x_exact| <= dx.

    Projections by `projection_error_bound`, each head by `_head_bound`, then the merge
    sum_h H_h W_O,h + b_O: |dH||W_O| + gamma_{d+1}(|H||W_O| + |b_O|).

    >>> from numeric.attention import multi_head_attention
    >>> p = {w: np.full((1, 2, 2), 0.75, np.float32) for w in ("w_q", "w_k", "w_v", "w_o")}
    >>> x = np.array([[1.0, 0.5], [0.25, 2.0]], np.float32)
    >>> out, weights = multi_head_attention(x, p)
    >>> exact, _ = multi_head_attention(x.astype(np.float64),
    ...                                 {k: v.astype(np.float64) for k, v in p.items()})
    >>> bool(np.all(np.abs(out - exact) <= mha_error_bound(x, p, weights)))
    True
    """
    x, weights = as_array(x, "x", ndim=2), as_array(weights, "weights", ndim=3, finite=False)
    u = unit_roundoff(x.dtype)
    dx = np.zeros(x.shape) if dx is None else dx
    c, dc = (
        (x, dx)
        if context is None
        else (context, np.zeros(context.shape) if d_context is None else d_context)
    )
    q, dq = projection_error_bound(x, dx, params["w_q"], params.get("b_q"), u)
    k, dk = projection_error_bound(c, dc, params["w_k"], params.get("b_k"), u)
    v, dv = projection_error_bound(c, dc, params["w_v"], params.get("b_v"), u)
    tiny = subnormal(x.dtype)
    heads, d_h = _head_bound(q, k, v, dq, dk, dv, weights.astype(np.float64), u, tiny)
    w_o = np.abs(params["w_o"].astype(np.float64))  # (h, k, d)
    mag = np.einsum("hnk,hkd->nd", np.abs(heads), w_o)
    if params.get("b_o") is not None:
        mag = mag + np.abs(params["b_o"])
    k = x.shape[-1] + 1
    return np.einsum("hnk,hkd->nd", d_h, w_o) + gamma(k, u) * mag + k * tiny


def softmax_jacobian_error_bound(sigma: np.ndarray, b: np.ndarray, jac: np.ndarray) -> np.ndarray:
    """Bound on |J_computed - J| for J = diag(sigma) - sigma sigma^T from a computed sigma
    off by at most b: diag(b) + b sigma^T + sigma b^T, plus 2u sigma sigma^T for the
    product and u|J| for the subtraction, and two subnormal spacings for underflow.

    >>> from numeric.softmax import softmax, softmax_jacobian
    >>> z = np.array([0.5, -1.0], np.float32)
    >>> sigma, jac = softmax(z), softmax_jacobian(z)
    >>> bound = softmax_jacobian_error_bound(sigma, softmax_error_bound(z, sigma), jac)
    >>> bool(np.all(np.abs(jac - softmax_jacobian(z.astype(np.float64))) <= bound))
    True
    """
    sigma, b = (as_array(a, name, ndim=1, finite=False) for a, name in ((sigma, "sigma"), (b, "b")))
    jac = as_array(jac, "jac", ndim=2, finite=False)
    u = unit_roundoff(jac.dtype)
    s = np.abs(sigma.astype(np.float64))
    outer = s[:, None] * s[None, :]
    return (
        np.diag(b)
        + b[:, None] * s[None, :]
        + s[:, None] * b[None, :]
        + 2 * u * outer
        + u * np.abs(jac)
        + 2 * subnormal(jac.dtype)
    )


NDTR_ULPS = 3  # scipy.special.ndtr (Phi) is taken to be accurate to 3 units in the last
# place; the checks hold the resulting GELU bound against mpmath.

# (slope, rounding) of each activation: |phi'(t)| <= slope everywhere, and one float
# evaluation of phi at t is off by at most rounding * u * |t| (plus a subnormal spacing).
# ReLU: exact, 1-Lipschitz. GELU = t Phi(t): slope GELU_SLOPE; Phi to NDTR_ULPS ulps
# (2 NDTR_ULPS u relative) and the product (u), so (2 NDTR_ULPS + 1) u |t Phi(t)| <=
# (2 NDTR_ULPS + 1) u |t|. tanh GELU = t / (1 + e^w), w = -k(t + c t^3), k = 2 sqrt(2/pi),
# c = 0.044715: f'(t) = s + t s'(w) w' with s = 1 / (1 + e^w) in (0, 1), s' <= e^-|w| and
# |t w'| = k|t|(1 + 3ct^2) <= 3|w|, so |f'| <= 1 + 3 max |w| e^-|w| = 1 + 3/e. Rounding:
# w is computed in five roundings, with the two rounded constants and their rounded
# product, to within 6u|w| (both of its terms have the sign of t); exp adds
# 2 EXP_ULPS u, 1 + e^w and the division u each; the w error moves the output by
# |f| 6u|w| e^w / (1 + e^w) <= |t| 6u max |w| e^-|w| = 6u|t| / e (for either sign of w).
ACTIVATION_ERRORS = {
    "relu": (1.0, 0.0),
    "gelu": (GELU_SLOPE, 2 * NDTR_ULPS + 1.0),
    "gelu_tanh": (1 + 3 / math.e, 6 / math.e + 2 * EXP_ULPS + 2),
}


def activation_rounding(t: np.ndarray, activation: str) -> np.ndarray:
    """Entrywise bound on |fl(phi(t)) - phi(t)| for the named activation at float t.

    >>> from numeric.activations import gelu
    >>> t = np.linspace(-3.0, 3.0, 7, dtype=np.float32)
    >>> bool(np.all(np.abs(gelu(t) - gelu(t.astype(np.float64))) <= activation_rounding(t, "gelu")))
    True
    """
    t = as_array(t, "t")
    _, rounding = _activation_errors(activation)
    return rounding * unit_roundoff(t.dtype) * np.abs(t) + subnormal(t.dtype)


def _activation_errors(activation: str) -> tuple[float, float]:
    if activation not in ACTIVATION_ERRORS:
        raise ValueError(
            f"activation must be one of {tuple(ACTIVATION_ERRORS)}, got {activation!r}"
        )
    return ACTIVATION_ERRORS[activation]


def mlp_error_bound(
    x: np.ndarray, dx: np.ndarray, p: Mapping[str, np.ndarray], u: float, activation: str = "relu"
) -> np.ndarray:
    """Bound for phi(x W_1 + b_1) W_2 + b_2 with |x - x_exact| <= dx: the first product as
    in `projection_error_bound`; phi moves an error by at most its slope and adds its own
    rounding (ACTIVATION_ERRORS) at the pre-activation t, and |phi(t)| <= |t| for all three
    activations, so the second product adds gamma_{f+1}(|t||W_2| + |b_2|) (t taken at the
    computed input: first order). For ReLU (slope 1, exact) this is the plain product
    bound.

    >>> from numeric.mlp import mlp
    >>> p = {"w_1": np.full((2, 3), 0.3, np.float32), "w_2": np.full((3, 2), 0.7, np.float32)}
    >>> x = np.array([[1.0, 2.0]], np.float32)
    >>> exact = mlp(x.astype(np.float64), {k: v.astype(np.float64) for k, v in p.items()})
    >>> bound = mlp_error_bound(x, np.zeros(x.shape), p, unit_roundoff(np.float32), "gelu")
    >>> bool(np.all(np.abs(mlp(x, p) - exact) <= bound))
    True
    """
    x, dx = as_array(x, "x", ndim=2), as_array(dx, "dx", ndim=2, finite=False)
    require_shape(dx, "dx", x.shape)
    slope, rounding = _activation_errors(activation)
    ax, w1, w2 = np.abs(x), np.abs(p["w_1"]), np.abs(p["w_2"])
    mag = ax @ w1 + (np.abs(p["b_1"]) if "b_1" in p else 0)
    pre = np.abs(x.astype(np.float64) @ p["w_1"] + (p["b_1"] if "b_1" in p else 0))  # (n, f)
    tiny = subnormal(x.dtype)
    dh = dx @ w1 + gamma(x.shape[1] + 1, u) * mag + (x.shape[1] + 1) * tiny
    if rounding:
        dh = slope * dh + rounding * u * pre + tiny
    out_mag = pre @ w2 + (np.abs(p["b_2"]) if "b_2" in p else 0)
    return dh @ w2 + gamma(w1.shape[1] + 1, u) * out_mag + (w1.shape[1] + 1) * tiny


def layer_norm_rounding(
    x: np.ndarray, eps: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(y, dy, rel_s, inv_s) for rows x (..., d) as numeric.layer_norm evaluates them, in
    float64: y = (x - mu 1) / s with s = sqrt(sigma^2 + eps), the entrywise bound dy on the
    rounding error of y, the bound rel_s (..., 1) on the relative error of 1/s, and 1/s.

    The algorithm scales a row by 2^-e (max|x| = m 2^e, m in [0.5, 1)), so every quantity
    below is taken in those units, where T, the smallest subnormal of x's dtype, is the
    spacing of an underflowing result: each operation that underflows errs by at most T/2
    absolutely, beyond its relative rounding. The centred c is off by at most
    gamma_{d+3} 2 max|c| (the shift by x_0, the d-term mean and the centring), plus T for
    each of those d + 3 roundings; var = sum c^2 / d by 2 mean(|c| dc) + gamma_{d+1} var,
    plus T for each of the d products and the division and T for eps 2^-2e; the root s
    by half of (dvar + u(var + 2 eps)) / (var + eps) (the sum, and eps's rounding to the
    dtype), then 2u for the root and the reciprocal; y = c (1/s) by dc / s + |y|(rel_s +
    2u), plus 3T/2 (1/s itself may underflow, which |c| < 2 doubles, and so may the
    product). When eps 2^-2e exceeds the float range the algorithm takes 2^e / sqrt(eps)
    for 1/s in the scaled units and 1/sqrt(eps) for 1/s itself, whose neglected
    var / eps 2^-2e < 1e-308 is far inside the 2u. A constant row is centred to exactly
    0, so its y = 0 is exact and 1/s = 1/sqrt(eps) rounds twice.
    """
    u, tiny = unit_roundoff(x.dtype), subnormal(x.dtype)
    d = x.shape[-1]
    x64 = x.astype(np.float64)
    _, e = np.frexp(np.abs(x64).max(axis=-1, keepdims=True))  # (..., 1)
    xs = np.ldexp(x64, -e)  # (..., d), the scaled row
    c = xs - xs.mean(axis=-1, keepdims=True)  # (..., d), only for magnitudes
    var = (c * c).mean(axis=-1, keepdims=True)  # (..., 1)
    constant = x.max(axis=-1, keepdims=True) == x.min(axis=-1, keepdims=True)  # (..., 1)
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        eps_s = np.ldexp(float(eps), -2 * e)  # (..., 1), eps in the scaled units
        big = np.isinf(eps_s)
        r = 1 / np.sqrt(var + np.where(big, 0.0, eps_s))  # (..., 1), 1/s scaled
        if eps > 0:
            r = np.where(big, np.ldexp(1 / math.sqrt(eps), e), r)
        share = np.where(big, 1.0, eps_s * r * r)  # eps / (var + eps), in [0, 1]
        inv_s = np.where(constant | big, 1 / math.sqrt(eps) if eps > 0 else np.inf, np.ldexp(r, -e))
        r = np.where(constant, 0.0, r)
        y = c * r  # (..., d)
        dc = gamma(d + 3, u) * 2 * np.abs(c).max(axis=-1, keepdims=True) + (d + 3) * tiny
        dvar = 2 * (np.abs(c) * dc).mean(axis=-1, keepdims=True) + gamma(d + 1, u) * var
        dvar = dvar + (d + 2) * tiny
        rel_s = np.where(
            constant, 3 * u, (dvar * r * r + u * (var * r * r + 2 * share)) / 2 + 2 * u
        )
        dy = np.where(constant, 0.0, dc * r + np.abs(y) * (rel_s + 2 * u) + 1.5 * tiny)
    return y, dy, rel_s, inv_s


def layer_norm_error_bound(
    x: np.ndarray,
    gain: np.ndarray | None = None,
    shift: np.ndarray | None = None,
    eps: float = 0.0,
) -> np.ndarray:
    """Entrywise bound on |fl(LN(x)) - LN(x)| for exact rows x (..., d), as numeric.layer_norm
    evaluates them (gain 1 and shift 0 when not given).

    Rounding of y = (x - mu 1) / s, underflow included: `layer_norm_rounding`. Then
    gamma y + beta adds u|gamma y| + u|out|, and T/2 if the product underflows (a sum
    that underflows is exact). First order in u.

    >>> x = np.array([3.0, 1.0, 2.0], np.float32)
    >>> err = np.abs(layer_norm(x, eps=0.0) - layer_norm(x.astype(np.float64), eps=0.0))
    >>> bool(np.all(err <= layer_norm_error_bound(x)))
    True
    """
    x = as_array(x, "x", ndim=ROWS)
    d = x.shape[-1]
    gain = np.ones(d, dtype=x.dtype) if gain is None else gain
    shift = np.zeros(d, dtype=x.dtype) if shift is None else shift
    u = unit_roundoff(x.dtype)
    y, dy, _, _ = layer_norm_rounding(x, eps)
    out = np.asarray(layer_norm(x, gain, shift, eps))  # gain = gamma, shift = beta
    ag = np.abs(np.asarray(gain, dtype=np.float64))
    return (
        ag * dy + u * ag * np.abs(y) + u * np.abs(out.astype(np.float64)) + subnormal(x.dtype) / 2
    )


def layer_norm_jacobian_error_bound(x: np.ndarray, eps: float = 0.0) -> np.ndarray:
    """Bound on max_ij |fl(J)_ij - J_ij| per row for J = (I - 11^T/d - yy^T/d) / s.

    With dy the largest rounding error of a y_j (`layer_norm_rounding`): |y_i y_j| <= d,
    so s |J_ij| <= 3; the yy^T/d term errs by (2 sqrt(d) dy + dy^2) / d; the factor 1/s by
    rel_s + 2u, and the sums and products by 4u. Underflow: the product y_i y_j and its
    division by d may each lose T/2 before the scaling by 1/s, and the scaling T/2.

    >>> from numeric.layer_norm import layer_norm_jacobian
    >>> x = np.array([3.0, 1.0, 2.0], np.float32)
    >>> err = np.abs(layer_norm_jacobian(x) - layer_norm_jacobian(x.astype(np.float64))).max()
    >>> bool(err <= layer_norm_jacobian_error_bound(x))
    True
    """
    x = as_array(x, "x", ndim=ROWS)
    d = x.shape[-1]
    u, tiny = unit_roundoff(x.dtype), subnormal(x.dtype)
    _, dy, rel_s, inv_s = layer_norm_rounding(x, eps)
    dy = dy.max(axis=-1, keepdims=True)  # (..., 1)
    bound = ((2 * math.sqrt(d) * dy + dy * dy) / d + 3 * (rel_s + 6 * u)) * inv_s
    return (bound + tiny * (inv_s + 0.5))[..., 0]
