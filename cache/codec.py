"""How a kept value becomes JSON and back: a pair of plain functions per kind of value.

`encode` turns a value into lists, dicts, strings, ints, floats and booleans (or raises
NotKept: the value is then computed each time and never written); `decode` turns that
back into the value, checking every type and shape it reads, and raises ValueError or
TypeError on anything else. Decoding builds objects from an allow-list of their kinds:
nothing read from a file is ever called, imported or evaluated as code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class NotKept(ValueError):
    """A value its codec cannot write (a kind of node outside its allow-list)."""


@dataclass(frozen=True)
class Codec(Generic[T]):
    """`encode(value)` -> JSON data, `decode(data)` -> value (checked)."""

    encode: Callable[[T], Any]
    decode: Callable[[Any], T]


def _boolean(data: Any) -> bool:
    if type(data) is not bool:
        raise TypeError(f"expected a boolean, got {type(data).__name__}")
    return data


BOOL: Codec[bool] = Codec(_boolean, _boolean)
"""A verdict: True or False, nothing else (not 1, not "true").

>>> BOOL.decode(BOOL.encode(True))
True
"""
