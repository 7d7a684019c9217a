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

from numeric.validation import as_array, describe, refuse_masked, require_allocation


def shifted_exponentials(
    z: np.ndarray, out: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(e, S) of a validated array: e = exp(z - max z) along the last axis and its row sums
    S (..., 1), so that softmax(z) = e / S; `out` may be z.

    Entries equal to -inf (masked) give e exactly 0, provided each row has a finite entry;
    S >= 1, the row maximum contributing exp(0) = 1.

    >>> shifted_exponentials(np.array([np.log(3.0), 0.0, -np.inf]))
    (array([1.        , 0.33333333, 0.        ]), array([1.33333333]))
    """
    with np.errstate(over="ignore"):
        shifted = np.subtract(z, z.max(axis=-1, keepdims=True), out=out)  # (..., n), <= 0
    e = np.exp(shifted, out=shifted)
    return e, e.sum(axis=-1, keepdims=True)


def softmax_kernel(z: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """softmax of a validated array (no checks; used inside the model); `out` may be z.

    >>> softmax_kernel(np.array([0.0, -np.inf]))
    array([1., 0.])
    """
    e, total = shifted_exponentials(z, out)
    e /= total
    return e


def masked_softmax_kernel(z: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """sigma^U of a validated z with a boolean mask whose every row meets U (no checks).

    >>> masked_softmax_kernel(np.array([5.0, 0.0, 0.0]), np.array([False, True, True]))
    array([0. , 0.5, 0.5])
    """
    masked = np.where(mask, z, -np.inf)  # (..., n)
    with np.errstate(over="ignore"):
        masked -= masked.max(axis=-1, keepdims=True)  # -inf - finite = -inf outside U
    e = np.exp(masked, out=masked)  # exactly 0 outside U
    e /= e.sum(axis=-1, keepdims=True)
    return e


def _check_last_axis(z: np.ndarray, name: str) -> None:
    if z.shape[-1] == 0:
        raise ValueError(
            f"{name} must have at least one entry along the last axis, got shape {z.shape}"
        )


def softmax(z: object) -> np.ndarray:
    """sigma(z)_i = e^{z_i} / sum_j e^{z_j} along the last axis (rows of a matrix).

    A numpy.ma masked array is a TypeError: its mask would be ignored, and
    masked_softmax takes the allowed positions explicitly.

    >>> np.round(softmax([0.0, np.log(3.0)]), 4)
    array([0.25, 0.75])
    >>> softmax(np.array([[1e308, -1e308]]))  # no overflow at the float limit
    array([[1., 0.]])
    """
    refuse_masked(z, "z", "use masked_softmax(z.data, ~z.mask) with True at the allowed positions")
    arr = as_array(z, "z", ndim=tuple(range(1, 33)))
    _check_last_axis(arr, "z")
    return softmax_kernel(arr)


def check_mask(mask: object, shape: tuple[int, ...], name: str = "mask") -> np.ndarray:
    """A boolean mask broadcastable to `shape` whose every row has a True entry.

    >>> check_mask([[True, False]], (3, 2)).shape
    (1, 2)
    """
    refuse_masked(mask, name, f"pass a plain boolean array ({name}.filled(False))")
    try:
        arr = np.asarray(mask)
    except (TypeError, ValueError) as err:  # ragged nested lists
        raise TypeError(
            f"{name} must be a boolean array (True = position in U), got {describe(mask)}"
        ) from err
    if arr.dtype != np.bool_:
        raise TypeError(
            f"{name} must be a boolean array (True = position in U), got dtype {arr.dtype}"
        )
    try:
        full = np.broadcast_shapes(arr.shape, shape)
    except ValueError:
        full = None
    if full != tuple(shape):
        raise ValueError(
            f"{name} of shape {arr.shape} does not broadcast to the scores' shape {tuple(shape)}"
        )
    empty = np.logical_not(arr.any(axis=-1) if arr.ndim else arr)  # (...), rows without U
    if empty.any():
        row = np.argwhere(np.broadcast_to(empty, tuple(shape)[:-1]))[0]
        raise ValueError(
            f"{name} leaves row {tuple(int(i) for i in row)} with no unmasked position; "
            "sigma^U needs a non-empty U"
        )
    return arr


def masked_softmax(z: object, mask: object) -> np.ndarray:
    """sigma^U(z): softmax over the positions where `mask` is True, exactly 0 elsewhere.

    `mask` is boolean (True = position in U) and broadcasts against z; a row
    with nothing in U is a ValueError naming the row.

    >>> masked_softmax([1.0, 7.0, 1.0], [True, False, True])
    array([0.5, 0. , 0.5])
    """
    refuse_masked(z, "z", "pass z.data and put the allowed positions in mask (mask & ~z.mask)")
    arr = as_array(z, "z", ndim=tuple(range(1, 33)))
    _check_last_axis(arr, "z")
    return masked_softmax_kernel(arr, check_mask(mask, arr.shape))


def softmax_jacobian(z: object) -> np.ndarray:
    """d sigma / d z = diag(sigma) - sigma sigma^T, shape (..., n, n) (命題 3.2).

    >>> softmax_jacobian([0.0, 0.0])
    array([[ 0.25, -0.25],
           [-0.25,  0.25]])
    """
    arr = as_array(z, "z", ndim=tuple(range(1, 32)))
    _check_last_axis(arr, "z")
    require_allocation(arr.shape + arr.shape[-1:], arr.dtype, "softmax_jacobian(z)")
    s = softmax_kernel(arr)  # (..., n)
    jac = -s[..., :, None] * s[..., None, :]  # (..., n, n)
    idx = np.arange(s.shape[-1])
    jac[..., idx, idx] += s
    return jac
