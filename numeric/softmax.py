"""softmax and masked softmax sigma^U (定義 2.2［自己注意］) along the last axis.

Stable for every finite input: the row maximum is subtracted first, so the
largest exponent is exp(0) = 1 and nothing overflows. When entries of opposite
signs lie near the float limit, z - max(z) itself overflows to -inf; exp(-inf)
= 0 is then the correct limit (the true difference is below -1.7e308, so its
exponential is far below the smallest float), so no NaN can appear and each row
still sums to 1 to rounding.
"""

from __future__ import annotations

import numpy as np

from numeric.validation import as_array


def _softmax(z: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """softmax of a validated array (no checks; used inside the model); `out` may be z.

    Entries equal to -inf (masked) give exactly 0, provided each row has a finite entry.
    """
    with np.errstate(over="ignore"):
        shifted = np.subtract(z, z.max(axis=-1, keepdims=True), out=out)  # (..., n), <= 0
    e = np.exp(shifted, out=shifted)
    e /= e.sum(axis=-1, keepdims=True)
    return e


def _masked_softmax(z: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """sigma^U of a validated z with a boolean mask whose every row meets U (no checks)."""
    masked = np.where(mask, z, -np.inf)  # (..., n)
    with np.errstate(over="ignore"):
        masked -= masked.max(axis=-1, keepdims=True)  # -inf - finite = -inf outside U
    e = np.exp(masked, out=masked)  # exactly 0 outside U
    e /= e.sum(axis=-1, keepdims=True)
    return e


def _check_last_axis(z: np.ndarray, name: str) -> None:
    if z.shape[-1] == 0:
        raise ValueError(f"{name} must have at least one entry along the last axis, got shape "
                         f"{z.shape}")


def softmax(z: object) -> np.ndarray:
    """sigma(z)_i = e^{z_i} / sum_j e^{z_j} along the last axis (rows of a matrix)."""
    z = as_array(z, "z", ndim=tuple(range(1, 33)))
    _check_last_axis(z, "z")
    return _softmax(z)


def check_mask(mask: object, shape: tuple[int, ...], name: str = "mask") -> np.ndarray:
    """A boolean mask broadcastable to `shape` whose every row has a True entry."""
    mask = np.asarray(mask)
    if mask.dtype != np.bool_:
        raise TypeError(f"{name} must be a boolean array (True = position in U), got dtype "
                        f"{mask.dtype}")
    try:
        full = np.broadcast_shapes(mask.shape, shape)
    except ValueError:
        full = None
    if full != tuple(shape):
        raise ValueError(f"{name} of shape {mask.shape} does not broadcast to the scores' "
                         f"shape {tuple(shape)}")
    if mask.ndim == 0 or mask.shape[-1] == 1:
        empty = ~mask if mask.ndim == 0 else ~mask[..., 0]
    else:
        empty = ~mask.any(axis=-1)
    if empty.any():
        row = np.argwhere(np.broadcast_to(empty, tuple(shape)[:-1]))[0]
        raise ValueError(
            f"{name} leaves row {tuple(int(i) for i in row)} with no unmasked position; "
            "sigma^U needs a non-empty U"
        )
    return mask


def masked_softmax(z: object, mask: object) -> np.ndarray:
    """sigma^U(z): softmax over the positions where `mask` is True, exactly 0 elsewhere.

    `mask` is boolean (True = position in U) and broadcasts against z; a row
    with nothing in U is a ValueError naming the row.
    """
    z = as_array(z, "z", ndim=tuple(range(1, 33)))
    _check_last_axis(z, "z")
    mask = check_mask(mask, z.shape)
    return _masked_softmax(z, mask)


def softmax_jacobian(z: object) -> np.ndarray:
    """d sigma / d z = diag(sigma) - sigma sigma^T, shape (..., n, n) (命題 3.2)."""
    z = as_array(z, "z", ndim=tuple(range(1, 32)))
    _check_last_axis(z, "z")
    s = _softmax(z)  # (..., n)
    jac = -s[..., :, None] * s[..., None, :]  # (..., n, n)
    idx = np.arange(s.shape[-1])
    jac[..., idx, idx] += s
    return jac
