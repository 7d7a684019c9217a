"""Argument checks shared by every numeric module.

Each check raises ValueError or TypeError whose message names the argument,
says what was expected and what came, so that bad input never surfaces as a
silent NaN or as an IndexError from inside NumPy.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _describe(x: object) -> str:
    if isinstance(x, np.ndarray):
        return f"an array of dtype {x.dtype} and shape {x.shape}"
    return f"{type(x).__name__} {x!r}"[:120]


def _check_ndim(arr: np.ndarray, name: str, ndim: int | tuple[int, ...] | None) -> None:
    if ndim is None:
        return
    allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
    if arr.ndim not in allowed:
        if len(allowed) > 3:
            wanted = f"an array of at least {min(allowed)} dimensions"
        else:
            wanted = "a " + " or ".join(f"{k}-D" for k in allowed) + " array"
        raise ValueError(f"{name} must be {wanted}, got shape {arr.shape}")


def as_array(
    x: object,
    name: str,
    ndim: int | tuple[int, ...] | None = None,
    dtype: np.dtype | type | None = None,
    finite: bool = True,
) -> np.ndarray:
    """`x` as a finite float array (float32 stays float32, integers become float64).

    `ndim` is the required number of dimensions (an int or a tuple of allowed
    ones); `dtype` forces a float dtype. Booleans, complex numbers and
    non-numeric objects are a TypeError; NaN or inf is a ValueError unless
    `finite` is False (for large parameter arrays whose finiteness the model
    checks through its output instead).
    """
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError) as err:  # ragged nested lists
        raise TypeError(f"{name} must be a float32 or float64 array, got {_describe(x)}") from err
    kind = arr.dtype.kind
    if kind not in "fiu" or arr.dtype == np.float16 or arr.dtype.itemsize > 8:
        raise TypeError(f"{name} must be a float32 or float64 array, got {_describe(x)}")
    if dtype is not None:
        target = np.dtype(dtype)
        if target not in FLOAT_DTYPES:
            raise TypeError(f"dtype must be float32 or float64, got {target}")
        arr = arr.astype(target, copy=False)
    elif kind in "iu":
        arr = arr.astype(np.float64)
    _check_ndim(arr, name, ndim)
    if finite and not np.isfinite(arr).all():
        bad = np.argwhere(~np.isfinite(arr))[0]
        where = tuple(int(i) for i in bad)
        raise ValueError(
            f"{name} must be finite, got {arr[where] if where else arr[()]} at index {where}"
        )
    return arr


def require_finite_result(result: np.ndarray, name: str) -> np.ndarray:
    """`result` unchanged if every entry is finite; otherwise a ValueError: the inputs
    were checked finite, so an inf or NaN here is an overflow of the float range,
    reported rather than returned as a silent NaN."""
    if not np.isfinite(result).all():
        raise ValueError(f"{name} overflowed the {result.dtype} range although its inputs "
                         f"are finite")
    return result


def require_shape(arr: np.ndarray, name: str, shape: tuple[int, ...]) -> None:
    """A ValueError naming `name` unless `arr.shape == shape`."""
    if arr.shape != tuple(shape):
        raise ValueError(f"{name} must have shape {tuple(shape)}, got {arr.shape}")


def as_tokens(tokens: object, name: str, vocab: int, max_length: int) -> np.ndarray:
    """A non-empty 1-D array of integer ids in [0, vocab), at most `max_length` long."""
    if isinstance(tokens, (int, np.integer)) and not isinstance(tokens, bool):
        tokens = [tokens]
    arr = np.asarray(tokens)
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got an empty sequence")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must be integer token ids, got {_describe(tokens)}")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D sequence of ids, got shape {arr.shape}")
    if arr.size > max_length:
        raise ValueError(
            f"{name} has length {arr.size}, longer than the context length {max_length}"
        )
    out_of_range = (arr < 0) | (arr >= vocab)
    if out_of_range.any():
        i = int(np.argmax(out_of_range))
        raise ValueError(
            f"{name} must be ids in [0, {vocab}), got {int(arr[i])} at position {i}"
        )
    return arr.astype(np.intp, copy=False)


def require_mapping(params: object, name: str) -> Mapping:
    if not isinstance(params, Mapping):
        raise TypeError(f"{name} must be a dict of arrays, got {_describe(params)}")
    return params


def check_eps(eps: object) -> float:
    """eps as a float >= 0."""
    if isinstance(eps, bool) or not isinstance(eps, (int, float, np.floating, np.integer)):
        raise TypeError(f"eps must be a float >= 0, got {_describe(eps)}")
    if not (np.isfinite(eps) and eps >= 0):
        raise ValueError(f"eps must be a finite float >= 0, got {eps!r}")
    return float(eps)
