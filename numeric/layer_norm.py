"""Layer normalisation (定義 2.1［Transformer ブロック］) over the last axis.

LN(x) = gamma * (x - mu 1) / sqrt(sigma^2 + eps) + beta, with the biased
variance sigma^2 = mean((x - mu)^2). Every row is first scaled by a power of
two (exact) so that its largest entry lies in [0.5, 1): squares can then
neither overflow (rows near 1e308, or 1e19 in float32) nor underflow, and eps
is scaled by the same factor squared, which leaves LN unchanged. The row is
then shifted by its first entry before the mean is taken (the shifted-data
variance algorithm): a constant row gives exactly 0 deviations, and a row whose
entries differ by a few ulps has exact differences (Sterbenz), so its variance
is the true variance of the floats given. For such a near-constant row that
variance is usually rounding noise from upstream, and LN amplifies it by
1/sqrt(sigma^2 + eps): with eps = 0 the output is the normalised noise pattern
(correct for the input as given), with eps > 0 the gain is at most 1/sqrt(eps).
Only an exactly constant row with eps = 0 is undefined, and that is a
ValueError naming the row.
"""

from __future__ import annotations

import numpy as np

from numeric.validation import as_array, check_eps, require_finite_result, require_shape


def _scaled_moments(x: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(c, r, e): the centred row scaled by 2^-e, and 1/sqrt(sigma^2 + eps) of the scaled row.

    LN(x) without gamma and beta equals c * r. A constant row with eps = 0 is
    a ValueError naming the row.
    """
    d = x.shape[-1]
    top = np.maximum(x.max(axis=-1, keepdims=True), -x.min(axis=-1, keepdims=True))  # (..., 1)
    _, e = np.frexp(top)  # max |x_j| = m 2^e with m in [0.5, 1)
    with np.errstate(over="ignore"):
        scale = np.ldexp(np.ones_like(top), -e)  # (..., 1), 2^-e
    if np.all(np.isfinite(scale)):
        y = x * scale  # (..., d), exact up to subnormal tails
    else:  # 2^-e itself overflows for rows of subnormal size
        y = np.ldexp(x, -e)
    y -= y[..., :1]  # entries in (-2, 2): differences from the first entry
    y -= y.mean(axis=-1, keepdims=True)
    c = y  # (..., d), centred
    var = np.einsum("...i,...i->...", c, c)[..., None] / d  # (..., 1), 0 iff the row is constant
    if eps == 0.0:
        if not var.all():
            row = tuple(int(i) for i in np.argwhere(var[..., 0] == 0)[0])
            raise ValueError(
                f"x has a constant row {row} and eps = 0: LN is undefined when sigma^2 = 0 "
                "(use eps > 0)"
            )
        return c, 1.0 / np.sqrt(var), e
    with np.errstate(over="ignore"):
        eps_scaled = np.ldexp(x.dtype.type(eps), -2 * e)  # eps * 2^(-2e), may overflow
        big = ~np.isfinite(eps_scaled)
        # eps * 2^(-2e) > float max means eps dominates sigma^2 <= 1 completely:
        # sqrt(var + eps 2^(-2e)) = 2^(-e) sqrt(eps) to rounding.
        denom = np.where(
            big,
            np.ldexp(np.sqrt(x.dtype.type(eps)), -e),
            np.sqrt(var + np.where(big, 0, eps_scaled)),
        )
    return c, 1.0 / denom, e


def layer_norm(
    x: object, gamma: object = None, beta: object = None, eps: float = 1e-5
) -> np.ndarray:
    """LN over the last axis of x (..., d); gamma and beta of shape (d,), default 1 and 0."""
    x = as_array(x, "x", ndim=tuple(range(1, 33)))
    d = x.shape[-1]
    if d == 0:
        raise ValueError(f"x must have at least one entry along the last axis, got {x.shape}")
    eps = check_eps(eps)
    if gamma is not None:
        gamma = as_array(gamma, "gamma", ndim=1, dtype=x.dtype)
        require_shape(gamma, "gamma", (d,))
    if beta is not None:
        beta = as_array(beta, "beta", ndim=1, dtype=x.dtype)
        require_shape(beta, "beta", (d,))
    return _layer_norm(x, gamma, beta, eps)


def _layer_norm(
    x: np.ndarray, gamma: np.ndarray | None, beta: np.ndarray | None, eps: float
) -> np.ndarray:
    """LN of validated arguments (no checks; used inside the model)."""
    c, r, _ = _scaled_moments(x, eps)
    out = c
    out *= r  # (..., d)
    if gamma is not None:
        out *= gamma
    if beta is not None:
        out += beta
    return out


def layer_norm_jacobian(x: object, eps: float = 0.0) -> np.ndarray:
    """d LN(x) / d x for gamma = 1, beta = 0, shape (..., d, d).

    With c = x - mu 1 and s = sqrt(sigma^2 + eps):
    J = (I - 1 1^T / d - c c^T / (d s^2)) / s.
    """
    x = as_array(x, "x", ndim=tuple(range(1, 32)))
    d = x.shape[-1]
    if d == 0:
        raise ValueError(f"x must have at least one entry along the last axis, got {x.shape}")
    eps = check_eps(eps)
    c, r, e = _scaled_moments(x, eps)  # scaled: c_s = c 2^-e, r_s = 2^e / s
    u = c * r  # (..., d), c / s
    jac = -(u[..., :, None] * u[..., None, :]) / d  # (..., d, d)
    jac += np.eye(d, dtype=x.dtype) - 1.0 / d
    with np.errstate(over="ignore", invalid="ignore"):  # reported below, naming the cause
        scale = np.ldexp(r, -e)[..., None]  # (..., 1, 1), 1 / s; overflows for s < 1 / max
        jac *= scale
    return require_finite_result(
        jac, "layer_norm_jacobian(x) (a row of x with sigma below 1 / the largest float)")
