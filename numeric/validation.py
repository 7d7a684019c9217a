"""Argument checks shared by every numeric module.

Each check raises ValueError or TypeError whose message names the argument,
says what was expected and what came, so that bad input never surfaces as a
silent NaN or as an IndexError from inside NumPy. Arrays that a function would
allocate are measured first (`require_allocation`): a size beyond the machine's
memory is a ValueError naming it, not a MemoryError or a swapping machine.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping

import numpy as np

from spec.checks import nonnegative_float

FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # a system that does not say
        return 1 << 36


MEMORY_LIMIT = _physical_memory()  # bytes: no single array may exceed the machine's memory


def describe(x: object) -> str:
    """A short description of a value for an error message: its type, or dtype and shape.

    >>> describe(np.zeros((2, 3)))
    'an array of dtype float64 and shape (2, 3)'
    """
    if isinstance(x, np.ndarray):
        return f"an array of dtype {x.dtype} and shape {x.shape}"
    return f"{type(x).__name__} {x!r}"[:120]


def refuse_masked(x: object, name: str, instead: str) -> None:
    """A TypeError for a numpy.ma masked array, whose mask NumPy's functions drop silently.

    >>> refuse_masked(np.ma.masked_array([1.0, 2.0], mask=[0, 1]), "z", "pass z.data")
    Traceback (most recent call last):
    TypeError: z is a numpy.ma masked array, whose mask would be ignored: pass z.data
    """
    if isinstance(x, np.ma.MaskedArray):
        raise TypeError(
            f"{name} is a numpy.ma masked array, whose mask would be ignored: {instead}"
        )


def _check_ndim(arr: np.ndarray, name: str, ndim: int | tuple[int, ...] | None) -> None:
    if ndim is None:
        return
    allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
    if arr.ndim not in allowed:
        if len(allowed) > 3 and allowed == tuple(range(min(allowed), max(allowed) + 1)):
            wanted = f"an array of {min(allowed)} to {max(allowed)} dimensions"
        else:
            wanted = "a " + " or ".join(f"{k}-D" for k in allowed) + " array"
        raise ValueError(f"{name} must be {wanted}, got shape {arr.shape}")


def _first_non_finite(arr: np.ndarray) -> tuple[tuple[int, ...], object]:
    where = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
    return where, arr[where] if where else arr[()]


def as_array(
    x: object,
    name: str,
    ndim: int | tuple[int, ...] | None = None,
    dtype: np.dtype | type | None = None,
    finite: bool = True,
) -> np.ndarray:
    """`x` as a finite float array (float32 stays float32, integers become float64).

    `ndim` is the required number of dimensions (an int or a tuple of allowed
    ones); `dtype` forces a float dtype (a finite value beyond its range is a
    ValueError, not an inf). Booleans, complex numbers, strings, objects and
    masked arrays are a TypeError; NaN or inf is a ValueError unless `finite`
    is False (for large parameter arrays whose finiteness the model checks
    through its output instead).

    >>> as_array([1, 2], "x")
    array([1., 2.])
    >>> as_array([1.0, float("nan")], "x")
    Traceback (most recent call last):
    ValueError: x must be finite, got nan at index (1,)
    """
    refuse_masked(x, name, f"pass a plain array ({name}.filled(value) or {name}.data)")
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError) as err:  # ragged nested lists
        raise TypeError(f"{name} must be a float32 or float64 array, got {describe(x)}") from err
    kind = arr.dtype.kind
    if kind not in "fiu" or arr.dtype == np.float16 or arr.dtype.itemsize > 8:
        raise TypeError(f"{name} must be a float32 or float64 array, got {describe(x)}")
    _check_ndim(arr, name, ndim)
    if finite and kind == "f" and not np.isfinite(arr).all():
        where, value = _first_non_finite(arr)
        raise ValueError(f"{name} must be finite, got {value} at index {where}")
    if dtype is not None:
        target = float_dtype(dtype)
        with np.errstate(over="ignore"):  # an overflow is reported below, naming the entry
            cast = arr.astype(target, copy=False)
        if cast is not arr and not np.isfinite(cast[np.isfinite(arr)]).all():
            where, _ = _first_non_finite(np.where(np.isfinite(arr), cast, 0))
            raise ValueError(
                f"{name} must fit in {target} (the dtype of the computation, up to "
                f"{np.finfo(target).max:.4g}), got {arr[where]} at index {where}"
            )
        arr = cast
    elif kind in "iu":
        arr = arr.astype(np.float64)
    return arr


def require_finite_result(result: np.ndarray, name: str) -> np.ndarray:
    """`result` unchanged if every entry is finite; otherwise a ValueError: the inputs
    were checked finite, so an inf or NaN here is an overflow of the float range,
    reported rather than returned as a silent NaN.

    >>> require_finite_result(np.array([1.0, np.inf]), "f(x)")
    Traceback (most recent call last):
    ValueError: f(x) overflowed the float64 range although its inputs are finite
    """
    if not np.isfinite(result).all():
        raise ValueError(
            f"{name} overflowed the {result.dtype} range although its inputs are finite"
        )
    return result


def require_shape(arr: np.ndarray, name: str, shape: tuple[int, ...]) -> None:
    """A ValueError naming `name` unless `arr.shape == shape`.

    >>> require_shape(np.zeros(3), "gamma", (4,))
    Traceback (most recent call last):
    ValueError: gamma must have shape (4,), got (3,)
    """
    if arr.shape != tuple(shape):
        raise ValueError(f"{name} must have shape {tuple(shape)}, got {arr.shape}")


def _bytes(count: int) -> str:
    size, unit = float(count), "B"
    for larger in ("KiB", "MiB", "GiB", "TiB", "PiB"):
        if size < 1024:
            break
        size, unit = size / 1024, larger
    return f"{size:.4g} {unit}"


def float_dtype(dtype: object) -> np.dtype:
    """The dtype `dtype` names, which must be float32 or float64.

    >>> float_dtype("float32")
    dtype('float32')
    """
    try:
        chosen = np.dtype(dtype)  # type: ignore[call-overload]
    except TypeError as err:
        raise TypeError(f"dtype must be float32 or float64, got {dtype!r}") from err
    if chosen not in FLOAT_DTYPES:
        raise TypeError(f"dtype must be float32 or float64, got {chosen}")
    return chosen


def require_allocation(shape: Iterable[int], dtype: np.dtype | type, what: str) -> None:
    """A ValueError, before anything is allocated, when an array of `shape` and `dtype`
    would not fit in the machine's memory (MEMORY_LIMIT bytes).

    >>> require_allocation((10**6, 10**6), np.float64, "the weights")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the weights would need 7.276 TiB (shape (1000000, 1000000), float64), more ...
    """
    shape = tuple(int(s) for s in shape)
    size = math.prod(shape) * np.dtype(dtype).itemsize
    if size > MEMORY_LIMIT:
        raise ValueError(
            f"{what} would need {_bytes(size)} (shape {shape}, {np.dtype(dtype)}), "
            f"more than this machine's memory ({_bytes(MEMORY_LIMIT)})"
        )


def as_tokens(tokens: object, name: str, vocab: int, max_length: int) -> np.ndarray:
    """A non-empty 1-D array of integer ids in [0, vocab), at most `max_length` long.

    >>> as_tokens([3, 1, 4], "tokens", vocab=5, max_length=8)
    array([3, 1, 4])
    """
    refuse_masked(tokens, name, "pass the ids to keep as a plain sequence")
    if isinstance(tokens, (int, np.integer)) and not isinstance(tokens, bool):
        tokens = [tokens]
    try:
        arr = np.asarray(tokens)
    except (TypeError, ValueError) as err:  # ragged nested lists
        raise TypeError(f"{name} must be integer token ids, got {describe(tokens)}") from err
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got an empty sequence")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must be integer token ids, got {describe(tokens)}")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D sequence of ids, got shape {arr.shape}")
    if arr.size > max_length:
        raise ValueError(
            f"{name} has length {arr.size}, longer than the context length {max_length}"
        )
    out_of_range = (arr < 0) | (arr >= vocab)
    if out_of_range.any():
        i = int(np.argmax(out_of_range))
        raise ValueError(f"{name} must be ids in [0, {vocab}), got {int(arr[i])} at position {i}")
    return arr.astype(np.intp, copy=False)


def require_mapping(params: object, name: str) -> Mapping[str, object]:
    """`params` if it is a mapping whose keys are all str (the dotted array names).

    >>> require_mapping({1: np.zeros(2)}, "params")
    Traceback (most recent call last):
    TypeError: params has the key 1 of type int; keys must be str array names such as 'attn.w_q'
    """
    if not isinstance(params, Mapping):
        raise TypeError(f"{name} must be a dict of arrays, got {describe(params)}")
    for key in params:
        if not isinstance(key, str):
            raise TypeError(
                f"{name} has the key {key!r} of type {type(key).__name__}; keys must "
                f"be str array names such as 'attn.w_q'"
            )
    return params


def require_one_float_dtype(params: Mapping[str, object], name: str) -> None:
    """A TypeError naming the keys when `params` holds both float32 and float64 arrays.

    Casting the float64 arrays down would lose their precision without a word,
    and casting up would hide a float32 model that was meant to run in float32;
    the caller says which with astype. Lists and integer arrays carry no float
    precision of their own and take the others' dtype.

    >>> require_one_float_dtype({"w_1": np.zeros(2, np.float32), "w_2": np.zeros(2)},
    ...                         "params")
    Traceback (most recent call last):
    TypeError: params mixes float32 arrays ('w_1') and float64 arrays ('w_2'); convert them \
to one dtype with astype
    """
    keys: dict[np.dtype, list[str]] = {}
    for key, value in params.items():
        dtype = getattr(value, "dtype", None)
        if dtype in FLOAT_DTYPES:
            keys.setdefault(np.dtype(dtype), []).append(key)
    if len(keys) > 1:
        single, double = (
            ", ".join(repr(k) for k in keys[np.dtype(t)][:3]) for t in (np.float32, np.float64)
        )
        raise TypeError(
            f"{name} mixes float32 arrays ({single}) and float64 arrays "
            f"({double}); convert them to one dtype with astype"
        )


def check_eps(eps: object) -> float:
    """eps as a finite float >= 0.

    >>> check_eps(-1e-5)
    Traceback (most recent call last):
    ValueError: eps must be a finite float >= 0, got -1e-05
    """
    return nonnegative_float("eps", eps)
