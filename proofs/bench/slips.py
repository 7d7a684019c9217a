"""A known slip and what recognises it: `Slip.matches(case, reply)` says whether the
reader's answer on a failing case is what the slip's model computes there (within a
loose relative 1e-5: a slip is told by its shape, not its last digits), so that the
failure's hint can say so in the book's words and name the element to reread."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from proofs.bench.session import Reply

CLOSE = 1e-5  # relative: the reader's output is the slip's model, not an accident near it


@dataclass(frozen=True)
class Slip:
    """A known slip: `matches(case, reply)`; `hint` in the book's words; `reread` the
    element (its id and number)."""

    matches: Callable[[Any, Reply], bool]  # (the failing case, the reader's reply)
    hint: str
    reread: str


def answer_array(reply: Reply) -> np.ndarray | None:
    """The reader's answer as a float64 array (the first item of an (out, weights) pair),
    None when it returned nothing readable as one."""
    if not reply.returned:
        return None
    value = reply.value
    if isinstance(value, tuple | list) and len(value) == 2 and np.ndim(value[0]) > 0:
        value = value[0]
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return None


def close_to(out: np.ndarray | None, model: np.ndarray) -> bool:
    """Whether `out` is the slip's `model` output: the same shape, each entry within
    CLOSE relatively, and non-finite exactly where the model's is."""
    if out is None or out.shape != model.shape:
        return False
    both_bad = ~np.isfinite(out) & ~np.isfinite(model)
    with np.errstate(invalid="ignore"):
        close = np.abs(out - model) <= CLOSE * (1 + np.abs(model))
    return bool(np.all(both_bad | (np.isfinite(out) & close)))


def softmax_rows(s: np.ndarray) -> np.ndarray:
    """sigma along the last axis, the maximum subtracted, for the slips' models (-inf
    entries give 0)."""
    with np.errstate(invalid="ignore"):
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)
