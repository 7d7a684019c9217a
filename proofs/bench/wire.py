"""The messages between the judge and the harness that runs a reader's functions: the
judge's arguments written as JSON, and the harness's answers read strictly, as data from
code the judge does not trust (no pickle; exact field names and types; arrays only of
numeric dtypes, their bytes matching their shape, within a size limit)."""

from __future__ import annotations

import base64
import json
import math
import struct
from collections.abc import Mapping
from types import SimpleNamespace

import numpy as np

LARGEST = 64 * 2**20  # bytes of one message from the harness
DEPTH = 20  # nesting of a returned value
DTYPES = frozenset("?bBhHiIlLqQefd")  # bool, integers, float16/32/64 (numpy type codes)


class Garbled(ValueError):
    """A message from the harness that is not of the form it sends."""


def encode(value: object) -> object:
    """One of the judge's arguments as the harness decodes it."""
    if isinstance(value, np.ndarray):
        data = np.ascontiguousarray(value)
        return {
            "array": {
                "dtype": data.dtype.str,
                "shape": list(data.shape),
                "data": base64.b64encode(data.tobytes()).decode(),
            }
        }
    if isinstance(value, SimpleNamespace):
        return {"config": {k: encode(v) for k, v in vars(value).items()}}
    if isinstance(value, bool | str) or value is None:
        return {
            "bool" if isinstance(value, bool) else "str" if value is not None else "none": value
        }
    if isinstance(value, int | np.integer):
        return {"int": str(int(value))}
    if isinstance(value, float | np.floating):
        return {"float": repr(float(value))}
    if isinstance(value, Mapping):
        return {"dict": {str(k): encode(v) for k, v in value.items()}}
    if isinstance(value, list | tuple):
        return {"list" if isinstance(value, list) else "tuple": [encode(v) for v in value]}
    raise TypeError(f"cannot send a {type(value).__name__} to the harness")


def frame(message: object) -> bytes:
    """A message as the harness reads it: its length (8 bytes) and its JSON."""
    data = json.dumps(message).encode()
    return struct.pack(">Q", len(data)) + data


def _array(data: object) -> np.ndarray:
    if not isinstance(data, dict) or set(data) != {"dtype", "shape", "data"}:
        raise Garbled("an array without exactly dtype, shape and data")
    dtype, shape, text = data["dtype"], data["shape"], data["data"]
    if not isinstance(dtype, str) or not isinstance(text, str) or not isinstance(shape, list):
        raise Garbled("an array's fields of the wrong types")
    try:
        kind = np.dtype(dtype)
    except TypeError:
        raise Garbled(f"an array of an unknown dtype {dtype[:20]!r}") from None
    if kind.char not in DTYPES or len(shape) > 32:
        raise Garbled(f"an array of dtype {kind} or of {len(shape)} dimensions")
    if not all(type(s) is int and s >= 0 for s in shape):
        raise Garbled("an array whose shape is not of sizes")
    raw = base64.b64decode(text, validate=True)
    if len(raw) != math.prod(shape) * kind.itemsize:
        raise Garbled("an array whose bytes do not fill its shape")
    return np.frombuffer(raw, dtype=kind).reshape(shape).copy()


def decode(data: object, depth: int = 0) -> object:
    """A value the reader's function returned, as the harness wrote it; an object of a
    kind it cannot send comes back as Unsendable (its type's name)."""
    if depth > DEPTH:
        raise Garbled(f"a value nested more than {DEPTH} deep")
    if not isinstance(data, dict) or len(data) != 1:
        raise Garbled("a value that is not one tagged field")
    ((kind, value),) = data.items()
    if kind == "array":
        return _array(value)
    if kind == "float" and isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            raise Garbled("a float that is not a number") from None
    if (
        kind == "int"
        and isinstance(value, str)
        and value.lstrip("-").isdigit()
        and len(value) < 400
    ):
        return int(value)
    if kind == "bool" and isinstance(value, bool):
        return value
    if kind == "none" and value is None:
        return None
    if kind in ("list", "tuple") and isinstance(value, list):
        items = [decode(v, depth + 1) for v in value]
        return items if kind == "list" else tuple(items)
    if kind == "other" and isinstance(value, str):
        return Unsendable(value[:100])
    raise Garbled(f"a value tagged {str(kind)[:20]!r} of the wrong type")


class Unsendable(str):
    """What the harness says of a returned object it does not send: its type's name."""
