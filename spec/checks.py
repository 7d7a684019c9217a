"""Argument checks of the declarations: plain Python (spec imports no NumPy), shared with
numeric/ so that a size or a switch is judged the same way everywhere."""

from __future__ import annotations

import math
import numbers


def is_bool(value: object) -> bool:
    """True for Python's and NumPy's booleans (spec imports no NumPy, so by type name).

    >>> is_bool(True), is_bool(1)
    (True, False)
    """
    return isinstance(value, bool) or type(value).__name__ in ("bool_", "bool")


def positive_int(name: str, value: object) -> int:
    """`value` as an int >= 1; NumPy integers are accepted, booleans and floats are not.

    >>> positive_int("d", 8)
    8
    >>> positive_int("d", 2.5)
    Traceback (most recent call last):
    TypeError: d must be an int, got float 2.5
    """
    if is_bool(value) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}"[:160])
    size = int(value)
    if size < 1:
        raise ValueError(f"{name} must be >= 1, got {size}")
    return size


def _finite_float(name: str, value: object, wanted: str, positive: bool) -> float:
    if is_bool(value) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a float {wanted}, got {type(value).__name__} {value!r}"[:160]
        )
    number = float(value)
    if not (math.isfinite(number) and (number > 0 if positive else number >= 0)):
        raise ValueError(f"{name} must be a finite float {wanted}, got {value!r}")
    return number


def nonnegative_float(name: str, value: object) -> float:
    """`value` as a finite float >= 0 (an int or a NumPy float too; not a bool or a str).

    >>> nonnegative_float("layer_norm_eps", 1e-5)
    1e-05
    """
    return _finite_float(name, value, ">= 0", positive=False)


def positive_float(name: str, value: object) -> float:
    """`value` as a finite float > 0 (an int or a NumPy float too; not a bool or a str).

    >>> positive_float("step", 0.0)
    Traceback (most recent call last):
    ValueError: step must be a finite float > 0, got 0.0
    """
    return _finite_float(name, value, "> 0", positive=True)


def require_bool(name: str, value: object) -> bool:
    """`value` as a bool (NumPy's bool too); anything else, "false" included, is a TypeError.

    >>> require_bool("tied", "false")
    Traceback (most recent call last):
    TypeError: tied must be a bool, got str 'false'
    """
    if not is_bool(value):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__} {value!r}"[:160])
    return bool(value)
