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
ValueError naming the row; with eps > 0 its centred row is exactly 0 and LN
is exactly beta, however large the row (eps * 2^-2e may underflow to 0 there,
so the reciprocal of its root is never formed).

With gamma and beta near the float limit, gamma * y + beta can overflow on the
way although the result fits: such entries are evaluated again at a scale of
2^-k (exact), and a result that does not fit the dtype is a ValueError naming
gamma and beta, never an inf.
"""

from __future__ import annotations

import math

import numpy as np

from numeric.validation import (
    as_array,
    check_eps,
    require_allocation,
    require_finite_result,
    require_shape,
)


def _scaled_moments(x: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(c, r, inv_s): the centred row scaled by 2^-e, 1/sqrt(sigma^2 + eps) of the scaled
    row, and 1/s = 1/sqrt(sigma^2 + eps) of the row itself (inf where it overflows).

    LN(x) without gamma and beta equals c * r. A constant row with eps = 0 is
    a ValueError naming the row; with eps > 0 its c is exactly 0 and r is set to 0.
    """
    d = x.shape[-1]
    top = np.maximum(x.max(axis=-1, keepdims=True), -x.min(axis=-1, keepdims=True))  # (..., 1)
    _, e = np.frexp(top)  # max |x| = m 2^e with m in [0.5, 1)
    with np.errstate(over="ignore"):
        scale = np.ldexp(np.ones_like(top), -e)  # (..., 1), 2^-e
    if np.all(np.isfinite(scale)):
        y = x * scale  # (..., d), exact up to subnormal tails
    else:  # 2^-e itself overflows for rows of subnormal size
        y = np.ldexp(x, -e)
    # Differences from the first entry, in (-2, 2). The first column is copied: subtracting
    # a view of y from y itself makes NumPy buffer the overlap (0.9 ms more on (1024, 768)).
    y -= y[..., :1].copy()
    y -= y.mean(axis=-1, keepdims=True)
    c = y  # (..., d), centred
    var = np.einsum("...i,...i->...", c, c)[..., None] / d  # (..., 1), 0 iff the row is constant
    constant = var == 0  # (..., 1)
    if eps == 0.0:
        if constant.any():
            row = tuple(int(i) for i in np.argwhere(constant)[0, :-1])  # the first one
            raise ValueError(
                f"x has a constant row {row} and eps = 0: LN is undefined when sigma^2 = 0 "
                "(use eps > 0)"
            )
        r = 1.0 / np.sqrt(var)
        with np.errstate(over="ignore"):
            return c, r, np.ldexp(r, -e)
    dtype = x.dtype.type
    one = dtype(1)
    with np.errstate(over="ignore", under="ignore", divide="ignore"):
        eps_x = dtype(eps)  # in float32, 1e-50 rounds to 0 and 1e300 to inf
        eps_scaled = np.ldexp(eps_x, -2 * e)  # eps 2^-2e: may overflow or underflow
        big = ~np.isfinite(eps_scaled)
        # eps 2^-2e > float max means eps dominates sigma^2 <= 1 completely:
        # 1 / sqrt(var + eps 2^-2e) = 2^e / sqrt(eps) to rounding, and 1/s = 1/sqrt(eps).
        r = np.where(
            big,
            np.ldexp(one / np.sqrt(eps_x), e),
            one / np.sqrt(var + np.where(big, 0, eps_scaled)),
        )
        # 1/s of big and constant rows is 1/sqrt(eps), rounded once to the dtype from float64
        # (from r it would carry r's underflow, and eps itself may not be a float32)
        inv_s = np.where(big | constant, dtype(1 / math.sqrt(eps)), np.ldexp(r, -e))
    r[constant] = 0  # c = 0 there; 1 / sqrt(eps 2^-2e) may be inf after an underflow
    return c, r, inv_s


def layer_norm_kernel(
    x: np.ndarray, gamma: np.ndarray | None, beta: np.ndarray | None, eps: float
) -> np.ndarray:
    """LN of validated arguments (no checks; used inside the model).

    >>> layer_norm_kernel(np.array([1.0, 3.0]), None, np.array([0.5, 0.5]), 0.0)
    array([-0.5,  1.5])
    """
    c, r, _ = _scaled_moments(x, eps)
    out = c
    out *= r  # (..., d)
    if gamma is not None:
        out *= gamma
    if beta is not None:
        out += beta
    return out


def _affine_halved(y: np.ndarray, gamma: np.ndarray, beta: np.ndarray | None) -> np.ndarray:
    """gamma * y + beta evaluated as 2 (y (gamma / 2) + beta / 2): the same roundings
    (halving is exact above the subnormals), and when the result is finite,
    |gamma_j y_j| <= |result_j| + |beta_j| <= 2 max, so no halved term leaves the range."""
    out = y * (gamma / 2)
    if beta is not None:
        out += beta / 2
    return out * 2


def layer_norm(
    x: object, gamma: object = None, beta: object = None, eps: float = 1e-5
) -> np.ndarray:
    """LN over the last axis of x (..., d); gamma and beta of shape (d,), default 1 and 0.

    >>> layer_norm([1.0, 2.0, 3.0], eps=0.0) ** 2 * 2 / 3  # y = (-1, 0, 1) sqrt(3/2)
    array([1., 0., 1.])
    >>> layer_norm(np.full(3, 1e300), beta=[1.0, 2.0, 3.0])  # a constant row gives beta
    array([1., 2., 3.])
    """
    arr = as_array(x, "x", ndim=tuple(range(1, 33)))
    d = arr.shape[-1]
    if d == 0:
        raise ValueError(f"x must have at least one entry along the last axis, got {arr.shape}")
    eps = check_eps(eps)
    g = b = None
    if gamma is not None:
        g = as_array(gamma, "gamma", ndim=1, dtype=arr.dtype)
        require_shape(g, "gamma", (d,))
    if beta is not None:
        b = as_array(beta, "beta", ndim=1, dtype=arr.dtype)
        require_shape(b, "beta", (d,))
    with np.errstate(over="ignore", invalid="ignore"):  # overflows are handled below
        out = layer_norm_kernel(arr, g, b, eps)
        if g is not None:  # |y| < sqrt d: without gamma, y + beta cannot overflow
            bad = ~np.isfinite(out).all(axis=-1)  # (...,) rows where gamma y + beta overflowed
            if bad.any():
                out[bad] = _affine_halved(layer_norm_kernel(arr[bad], None, None, eps), g, b)
    if not np.isfinite(out).all():
        where = tuple(int(i) for i in np.argwhere(~np.isfinite(out))[0])
        j = where[-1]
        raise ValueError(
            f"layer_norm: the result gamma * LN(x) + beta overflows the {arr.dtype} range "
            f"(max {np.finfo(arr.dtype).max:.4g}) at index {where}, with "
            f"gamma[{j}] = {1.0 if g is None else g[j]:.4g} and "
            f"beta[{j}] = {0.0 if b is None else b[j]:.4g}; scale gamma and beta down"
        )
    return out


def layer_norm_jacobian(x: object, eps: float = 0.0) -> np.ndarray:
    """d LN(x) / d x for gamma = 1, beta = 0, shape (..., d, d).

    With c = x - mu 1 and s = sqrt(sigma^2 + eps):
    J = (I - 1 1^T / d - c c^T / (d s^2)) / s.

    >>> layer_norm_jacobian([1.0, 1.0], eps=0.25)  # a constant row: (I - 1 1^T / d) / sqrt(eps)
    array([[ 1., -1.],
           [-1.,  1.]])
    """
    arr = as_array(x, "x", ndim=tuple(range(1, 32)))
    d = arr.shape[-1]
    if d == 0:
        raise ValueError(f"x must have at least one entry along the last axis, got {arr.shape}")
    eps = check_eps(eps)
    require_allocation(arr.shape + (d,), arr.dtype, "layer_norm_jacobian(x)")
    c, r, inv_s = _scaled_moments(arr, eps)  # scaled: c_s = c 2^-e, r_s = 2^e / s
    u = c * r  # (..., d), c / s
    jac = -(u[..., :, None] * u[..., None, :]) / d  # (..., d, d)
    jac += np.eye(d, dtype=arr.dtype) - 1.0 / d
    with np.errstate(over="ignore", invalid="ignore"):  # reported below, naming the cause
        jac *= inv_s[..., None]  # (..., 1, 1), 1/s is inf for s < 1 / the largest float
    return require_finite_result(
        jac, "layer_norm_jacobian(x) (a row of x with sigma below 1 / the largest float)"
    )
