"""Remembering by content: the same contents give the first result, any change in an
array's bytes, dtype or shape, a mapping's items or a scalar gives a new one."""

from __future__ import annotations

import numpy as np
import pytest

from proofs.evidence import remembered
from proofs.evidence.remembered import by_content, digest


def counted():
    calls = []

    @by_content
    def total(x, params, scale=1.0):
        calls.append(1)
        return x.sum() * scale + sum(v.sum() for v in params.values()), np.ones(2)

    return total, calls


def test_the_same_contents_are_computed_once():
    total, calls = counted()
    x, p = np.arange(6.0).reshape(2, 3), {"a": np.ones(3), "b": np.zeros(2)}
    first = total(x, p)
    again = total(x.copy(), {"b": np.zeros(2), "a": np.ones(3)})  # other objects, other order
    assert again is first and len(calls) == 1


@pytest.mark.parametrize(
    "change",
    [
        lambda x, p: (np.nextafter(x, np.inf), p, {}),  # the last bit of each entry
        lambda x, p: (x.astype(np.float32), p, {}),  # the dtype
        lambda x, p: (x.reshape(3, 2), p, {}),  # the shape
        lambda x, p: (x, {**p, "a": p["a"] * 2}, {}),  # an item of the mapping
        lambda x, p: (x, {**p, "c": np.ones(1)}, {}),  # a key more
        lambda x, p: (x, p, {"scale": 2.0}),  # a keyword
    ],
    ids=["bytes", "dtype", "shape", "item", "key", "keyword"],
)
def test_any_change_of_content_is_computed_again(change):
    total, calls = counted()
    x, p = np.arange(1.0, 7.0).reshape(2, 3), {"a": np.ones(3)}
    total(x, p)
    y, q, kwargs = change(x, p)
    total(y, q, **kwargs)
    assert len(calls) == 2


def test_what_is_returned_is_read_only():
    total, _ = counted()
    _, ones = total(np.ones(2), {})
    with pytest.raises(ValueError, match="read-only"):
        ones[0] = 3.0


def test_arrays_of_objects_are_keyed_by_their_values():
    from fractions import Fraction

    a = np.array([Fraction(1, 3), Fraction(2, 3)], dtype=object)
    b = np.array([Fraction(1, 3), Fraction(2, 3)], dtype=object)
    c = np.array([Fraction(1, 3), Fraction(1, 2)], dtype=object)
    assert digest(a) == digest(b) != digest(c)


def test_the_least_recently_used_entry_goes_first(monkeypatch):
    monkeypatch.setattr(remembered, "SIZE", 2)
    total, calls = counted()
    for k in (1.0, 2.0, 1.0, 3.0, 1.0, 2.0):  # 2.0 is dropped when 3.0 comes
        total(np.full(2, k), {})
    assert len(calls) == 4
