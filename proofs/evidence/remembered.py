"""Values remembered by the content of their arguments: a reference computation (a
rounding bound, an mpmath value) that a check makes on the same drawn arrays in every
test that feeds it a wrong implementation is computed once per process.

The key is a digest of the arguments' contents (`digest`): an array by its dtype, shape
and bytes, a sequence or mapping item by item, anything else by its type and repr. What
is returned is shared between calls, so its arrays are made read-only; a caller that
needs to write copies.
"""

from __future__ import annotations

import functools
import hashlib
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

SIZE = 4096  # entries kept per function, the least recently used dropped first


def digest(*parts: Any) -> bytes:
    """A digest of the parts' contents (arrays by dtype, shape and bytes, an array of
    objects by its elements' reprs; tuples and lists item by item; mappings by their items
    in key order; anything else by its type and repr)."""
    h = hashlib.blake2b(digest_size=16)

    def feed(part: Any) -> None:
        if isinstance(part, np.ndarray):
            h.update(f"array {part.dtype.str} {part.shape}".encode())
            if part.dtype == object:  # references, not values: each element's repr
                h.update(repr(part.tolist()).encode())
            else:
                h.update(np.ascontiguousarray(part).tobytes())
        elif isinstance(part, tuple | list):
            h.update(f"{type(part).__name__} {len(part)}".encode())
            for item in part:
                feed(item)
        elif isinstance(part, Mapping):
            h.update(f"mapping {len(part)}".encode())
            for key in sorted(part, key=repr):
                feed(key)
                feed(part[key])
        else:
            h.update(f"{type(part).__name__} {part!r}".encode())

    for part in parts:
        feed(part)
    return h.digest()


def by_content(function: Callable[..., T]) -> Callable[..., T]:
    """`function` remembering its last SIZE results by the content of its arguments."""
    kept: OrderedDict[bytes, T] = OrderedDict()

    @functools.wraps(function)
    def remembered(*args: Any, **kwargs: Any) -> T:
        key = digest(args, kwargs)
        if key in kept:
            kept.move_to_end(key)
            return kept[key]
        value = _read_only(function(*args, **kwargs))
        kept[key] = value
        if len(kept) > SIZE:
            kept.popitem(last=False)
        return value

    return remembered


def _read_only(value: Any) -> Any:
    """The value with its arrays (alone or in a tuple) made read-only."""
    if isinstance(value, np.ndarray):
        value.setflags(write=False)
    elif isinstance(value, tuple):
        for item in value:
            _read_only(item)
    return value
