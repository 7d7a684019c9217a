"""A reader's answer read as an array, and compared with the exact value: every way it can
fail said in one line naming the function (it raised, it changed its argument, it
returned a str or the wrong shape, a NaN, a precision below float32), and a wrong value
as the worst entry beside the exact one and its tolerance.

The working precision is the one the reader computed in: the lowest of its output's and
its float inputs' (a float32 input may be computed on in float32 whatever the output's
dtype; a float32 output of a float64 input was computed in float32). The exact value is
taken at the inputs rounded to that precision, as the reader's code holds them; an input
beyond that precision's range lies outside what such code can compute (`Beyond`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TypeVar, cast

import numpy as np

from proofs.bench.results import Witness
from proofs.bench.session import Reply
from proofs.bench.slips import CLOSE
from proofs.bench.wire import Unsendable

T = TypeVar("T")
JUDGED = (np.dtype(np.float32), np.dtype(np.float64))  # the precisions numeric computes in


class Beyond(Exception):  # noqa: N818 - a case left out, said in the clause's remark
    """The case's inputs lie beyond the range of the reader's working precision."""


class Rejected(Exception):  # noqa: N818 - a verdict, carried to the clause's driver
    """The reader's answer fails the clause; `witness` says how."""

    def __init__(self, witness: Witness) -> None:
        super().__init__(witness.reason)
        self.witness = witness


def short(a: object, limit: int = 240) -> str:
    """An input or output in one line, at most `limit` characters."""
    if isinstance(a, np.ndarray):
        with np.printoptions(precision=17, threshold=40, linewidth=10_000):
            text = np.array2string(a, separator=", ").replace("\n", "")
        kind = "" if a.dtype == np.float64 else f" ({a.dtype})"
        text += kind
    elif isinstance(a, dict):
        text = "{" + ", ".join(f"{k}: {short(v, 60)}" for k, v in a.items()) + "}"
    else:
        text = repr(a)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def as_array(
    reply: Reply, shape: tuple[int, ...], what: str, first: bool = False, inputs: str = ""
) -> np.ndarray:
    """The reader's output as a float array of `shape`, or Rejected with the reason (and
    `inputs`, the case in one line); with `first`, a tuple or list (out, weights) gives
    its first item."""
    try:
        return _read(reply, shape, what, first)
    except Rejected as exc:
        raise Rejected(replace(exc.witness, input=inputs)) from None


def _read(reply: Reply, shape: tuple[int, ...], what: str, first: bool) -> np.ndarray:
    name = reply.name
    if not reply.returned:
        raise Rejected(Witness(reply.problem))
    if reply.mutated:
        which = ", ".join(reply.mutated)
        raise Rejected(Witness(f"{name} changed its argument {which} in place; {what} must not"))
    value = reply.value
    if first and isinstance(value, tuple | list) and len(value) == 2:
        head = value[0]
        if isinstance(head, np.ndarray) or (isinstance(head, list) and np.ndim(head) > 0):
            value = head
    if isinstance(value, Unsendable):
        raise Rejected(Witness(f"{name} returned a {value}, not an array of shape {shape}"))
    if value is None or isinstance(value, bool | str):
        raise Rejected(Witness(f"{name} returned {value!r}, not an array of shape {shape}"))
    try:
        out = np.asarray(value)
    except ValueError:
        raise Rejected(
            Witness(f"{name} returned a ragged list, not an array of shape {shape}")
        ) from None
    if out.dtype == object or out.dtype.kind not in "biuf":
        raise Rejected(Witness(f"{name} returned what is not an array of numbers"))
    if out.shape != shape:
        raise Rejected(Witness(f"{name} returned shape {out.shape} for {what}; expected {shape}"))
    if out.dtype.kind == "f" and out.dtype not in JUDGED:
        raise Rejected(
            Witness(
                f"{name} returned {out.dtype} for {what}: it computes in a precision below "
                "float32's (the bench judges float32 and float64 results)"
            )
        )
    if out.dtype.kind == "f" and np.isnan(out).any():
        where = tuple(int(i) for i in np.argwhere(np.isnan(out))[0])
        raise Rejected(Witness(f"{name} returned NaN at index {where} for {what}"))
    if out.dtype.kind == "f" and np.isinf(out).any():
        where = tuple(int(i) for i in np.argwhere(np.isinf(out))[0])
        raise Rejected(Witness(f"{name} returned {out[where]} at index {where} for {what}"))
    return out


def _floats(value: object) -> list[np.dtype]:
    """The float dtypes of the arrays in an argument (nested in dicts and tuples)."""
    if isinstance(value, np.ndarray):
        return [value.dtype] if value.dtype.kind == "f" else []
    if isinstance(value, Mapping):
        return [t for v in value.values() for t in _floats(v)]
    if isinstance(value, tuple | list):
        return [t for v in value for t in _floats(v)]
    return []


def working_dtype(reply: Reply, *given: object, first: bool = False) -> np.dtype:
    """The precision the reader computed in: the lowest of its output's (a float32 or
    float64 array; anything else counts as float64) and its float inputs'."""
    value = reply.value if reply.returned else None
    if first and isinstance(value, tuple | list) and len(value) == 2 and np.ndim(value[0]) > 0:
        value = value[0]
    found = [value.dtype] if isinstance(value, np.ndarray) and value.dtype in JUDGED else []
    found += [t for g in given for t in _floats(g) if t in JUDGED]
    return min(found, key=lambda t: t.itemsize, default=np.dtype(np.float64))


def rounded(value: T, dtype: np.dtype) -> T:
    """An argument's float arrays rounded to `dtype` (held as float64), or Beyond when one
    of them leaves its range."""
    return cast(T, _rounded(value, dtype))


def _rounded(value: object, dtype: np.dtype) -> object:
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        with np.errstate(over="ignore"):
            low = value.astype(dtype)
        if not np.all(np.isfinite(low) | ~np.isfinite(value)):
            raise Beyond(f"inputs beyond {dtype}'s range (the precision it computes in) left out")
        return low.astype(np.float64) if value.dtype == np.float64 else low
    if isinstance(value, Mapping):
        return {k: _rounded(v, dtype) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_rounded(v, dtype) for v in value)
    return value


def lowered(dtype: np.dtype, *given: object) -> str:
    """The remark when the reader computed in a lower precision than it was given."""
    if any(t.itemsize > dtype.itemsize for g in given for t in _floats(g)):
        return f"computed in {dtype}: judged at its inputs rounded to {dtype}"
    return ""


def compare(
    name: str,
    out: np.ndarray,
    exact: np.ndarray,
    tolerance: np.ndarray,
    inputs: str,
    source: str,
) -> float:
    """The largest error/tolerance ratio, or Rejected naming the worst entry."""
    error = np.abs(out.astype(np.float64) - exact)
    bound = np.broadcast_to(tolerance, error.shape)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ratio = np.where(error == 0, 0.0, error / bound)
    if error.size == 0:
        return 0.0
    worst = np.unravel_index(int(np.argmax(ratio)), error.shape)
    if ratio[worst] <= 1:
        return float(ratio[worst])
    at = tuple(int(i) for i in worst)
    raise Rejected(
        Witness(
            reason=f"{name} is off the exact value by {error[worst]:.3e} at index {at}, "
            f"beyond its tolerance {bound[worst]:.3e}",
            input=inputs,
            output=f"{float(out[worst])!r} at {at} (all: {short(out, 160)})",
            exact=f"{float(exact[worst])!r} (mpmath, 50 digits)",
            tolerance=f"{bound[worst]:.3e}",
            source=source,
            slight=bool(np.all(error <= CLOSE * (1 + np.abs(exact)))),
        )
    )
