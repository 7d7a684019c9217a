"""Parameter dictionaries: checked against spec's declarations, counted, split by prefix.

Arrays are keyed by the dotted names of `spec.parameters` ("attn.w_q",
"blocks.3.mlp.w_1", "ln_f.gamma"); their shapes are the declared dimension
names evaluated at the model's sizes, so the arrays and the parameter-count
polynomial come from one declaration.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

import numpy as np

from numeric.validation import as_array, require_mapping, require_one_float_dtype

V = TypeVar("V")  # the value type of a params mapping, kept by sub_parameters


def parameter_count(params: Mapping[str, object]) -> int:
    """The number of scalars in all the arrays of `params`.

    >>> parameter_count({"w": np.zeros((3, 4)), "b": np.zeros(4)})
    16
    """
    mapping = require_mapping(params, "params")
    return sum(as_array(a, f"params[{key!r}]", finite=False).size for key, a in mapping.items())


def sub_parameters(params: Mapping[str, V], prefix: str) -> dict[str, V]:
    """The entries of `params` under `prefix.`, with the prefix removed ("attn" -> "w_q").

    >>> sub_parameters({"attn.w_q": 1, "attn.w_k": 2, "mlp.w_1": 3}, "attn")
    {'w_q': 1, 'w_k': 2}
    """
    require_mapping(params, "params")
    if not isinstance(prefix, str):
        raise TypeError(f"prefix must be a str such as 'blocks.0', got {type(prefix).__name__}")
    head = prefix.rstrip(".") + "."
    return {key[len(head) :]: value for key, value in params.items() if key.startswith(head)}


def check_parameters(
    params: object,
    shapes: Mapping[str, tuple[int, ...]],
    optional: Iterable[str] = (),
    name: str = "params",
    dtype: np.dtype | None = None,
    finite: bool = True,
) -> dict[str, np.ndarray]:
    """`params` as arrays of the expected `shapes` (cast to `dtype` when given).

    Every name of `shapes` not in `optional` must be present; a name outside
    `shapes` is a ValueError (a misspelt bias would otherwise be silently
    dropped), and so is a dict mixing float32 and float64 arrays (a TypeError:
    `require_one_float_dtype`). Messages name the key.

    >>> check_parameters({"w": [[1, 2]]}, {"w": (1, 2)})["w"]
    array([[1., 2.]])
    >>> check_parameters({"w": np.zeros(3)}, {"w": (1, 2)})
    Traceback (most recent call last):
    ValueError: params['w'] must have shape (1, 2), got (3,)
    """
    mapping = require_mapping(params, name)
    require_one_float_dtype(mapping, name)
    allowed = set(optional)
    unexpected = sorted(set(mapping) - set(shapes))
    if unexpected:
        raise ValueError(
            f"{name} has unexpected key {unexpected[0]!r}; expected keys among {sorted(shapes)}"
        )
    checked: dict[str, np.ndarray] = {}
    for key, shape in shapes.items():
        if key not in mapping:
            if key in allowed:
                continue
            raise ValueError(f"{name} is missing the key {key!r} (an array of shape {shape})")
        arr = as_array(mapping[key], f"{name}[{key!r}]", dtype=dtype, finite=finite)
        if arr.shape != shape:
            raise ValueError(f"{name}[{key!r}] must have shape {shape}, got {arr.shape}")
        checked[key] = arr
    return checked
