"""Runs the forward pass's declared contractions (spec.contractions) and counts them.

`contract(c, *operands)` evaluates c.subscripts on the operands. A contraction
multiplies once for every assignment of all its index letters, so inside
`with count_multiplications() as counter:` each call adds the product of its
letters' sizes, read from the actual operands, to `counter.total` and to
`counter.by_name[c.name]`. A real pass's count can then be compared with the
symbolic polynomial evaluated at the same sizes. What the pass actually multiplies
is tallied apart in `counter.executed`: a computation that skips work (causal
attention never forms the masked scores) records the definition's count with
`record` and runs its pieces uncounted, which `executed` still sees.

The declared patterns run as BLAS matrix products (one per head for the
per-head scores and weighted sums); anything else falls back to
np.einsum(optimize=True).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from numeric.validation import require_allocation
from spec.contractions import Contraction


def _heads_projection(x: np.ndarray, w: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """nd,hdk->hnk as a single (n, d) x (d, h k) product. Without `out`, the result is an
    (h, n, k) view of the (n, h k) product, not copied: each head's (n, k) rows are a
    strided matrix that BLAS reads as it is."""
    h, d, k = w.shape
    flat = w.transpose(1, 0, 2).reshape(d, h * k)  # (d, h k)
    heads = (x @ flat).reshape(x.shape[0], h, k).transpose(1, 0, 2)  # (h, n, k)
    if out is None:
        return heads
    np.copyto(out, heads)
    return out


def _heads_merge(o: np.ndarray, w: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """hnk,hkd->nd as a single (n, h k) x (h k, d) product."""
    h, n, k = o.shape
    flat = o.transpose(1, 0, 2).reshape(n, h * k)  # (n, h k)
    return np.matmul(flat, w.reshape(h * k, w.shape[2]), out=out)  # (n, d)


def _per_head(transpose_b: bool) -> Callable[..., np.ndarray]:
    """A product over a leading head axis, one 2-D BLAS call per head.

    Measured on the benchmark's causal attention blocks, interleaved on an idle
    machine, a loop of 2-D products beat NumPy's stacked matmul (whole forward
    pass 2.3 s against 3.0 s, best of 6); h is small and each call is large.
    """

    def product(a: np.ndarray, b: np.ndarray, out: np.ndarray | None) -> np.ndarray:
        rows = b.shape[1] if transpose_b else b.shape[2]
        if out is None:
            out = np.empty((a.shape[0], a.shape[1], rows), dtype=np.result_type(a, b))
        for head in range(a.shape[0]):
            np.matmul(a[head], b[head].T if transpose_b else b[head], out=out[head])
        return out

    return product


def _matmul(a: np.ndarray, b: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    return np.matmul(a, b, out=out)


def _matmul_transposed(a: np.ndarray, b: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    return np.matmul(a, b.T, out=out)


_FAST: dict[str, Callable[..., np.ndarray]] = {
    "nd,hdk->hnk": _heads_projection,
    "md,hdk->hmk": _heads_projection,
    "hnk,hmk->hnm": _per_head(transpose_b=True),
    "hnm,hmk->hnk": _per_head(transpose_b=False),
    "hnk,hkd->nd": _heads_merge,
    "nd,df->nf": _matmul,
    "nf,fd->nd": _matmul,
    "nd,vd->nv": _matmul_transposed,
}


@dataclass
class MultiplicationCounter:
    """Scalar multiplications of the contractions run while it is active: the
    definitions' counts by name, and the products actually executed by name.

    >>> counter = MultiplicationCounter(Counter(scores=150, mlp_in=24))
    >>> counter.total
    174
    """

    by_name: Counter[str] = field(default_factory=Counter)
    executed: Counter[str] = field(default_factory=Counter)

    @property
    def total(self) -> int:
        """Every contraction's count added up.

        >>> MultiplicationCounter().total
        0
        """
        return sum(self.by_name.values())

    @property
    def executed_total(self) -> int:
        """Every contraction's executed products added up (pieces included).

        >>> MultiplicationCounter(executed=Counter(scores=90)).executed_total
        90
        """
        return sum(self.executed.values())


_ACTIVE: list[MultiplicationCounter] = []


@contextmanager
def count_multiplications() -> Iterator[MultiplicationCounter]:
    """Count every `contract` call in the block (nested counters all count).

    >>> from spec.contractions import MLP_IN
    >>> with count_multiplications() as counter:
    ...     _ = contract(MLP_IN, np.ones((2, 3)), np.ones((3, 4)))
    >>> counter.total  # n d f = 2 * 3 * 4
    24
    """
    counter = MultiplicationCounter()
    _ACTIVE.append(counter)
    try:
        yield counter
    finally:
        _ACTIVE.remove(counter)


def _letter_sizes(c: Contraction, operands: tuple[np.ndarray, ...]) -> dict[str, int]:
    """Each letter's size, checked to agree across operands."""
    inputs = c.subscripts.split("->")[0].split(",")
    if len(operands) != len(inputs):
        raise ValueError(
            f"{c.name} ({c.subscripts}) takes {len(inputs)} operands, got {len(operands)}"
        )
    sizes: dict[str, int] = {}
    for position, (letters, arr) in enumerate(zip(inputs, operands, strict=True)):
        if arr.ndim != len(letters):
            raise ValueError(
                f"{c.name} ({c.subscripts}): operand {position} must have {len(letters)} "
                f"dimensions ({letters}), got shape {arr.shape}"
            )
        for letter, size in zip(letters, arr.shape, strict=True):
            if sizes.setdefault(letter, size) != size:
                raise ValueError(
                    f"{c.name} ({c.subscripts}): index {letter} has size {sizes[letter]} in "
                    f"one operand and {size} in operand {position} (shapes "
                    f"{[a.shape for a in operands]})"
                )
    return sizes


def record(c: Contraction, *operands: np.ndarray) -> None:
    """Add c's multiplication count on operands of these shapes to the active counters.

    For a computation that evaluates c in pieces (causal attention skipping the
    masked blocks): the count stays the definition's, every index assignment
    of the full operands, which is what the chapters count.

    >>> from spec.contractions import SCORES
    >>> with count_multiplications() as counter:
    ...     record(SCORES, np.ones((2, 5, 3)), np.ones((2, 5, 3)))
    >>> counter.by_name["scores"]  # h n m d_k = 2 * 5 * 5 * 3
    150
    """
    _count(c, _letter_sizes(c, operands))


def _count(c: Contraction, sizes: dict[str, int], tally: str = "by_name") -> None:
    if _ACTIVE:
        count = math.prod(sizes.values())
        for counter in _ACTIVE:
            getattr(counter, tally)[c.name] += count


def contract(
    c: Contraction, *operands: np.ndarray, counted: bool = True, out: np.ndarray | None = None
) -> np.ndarray:
    """Evaluate the declared contraction `c` on `operands` (into `out` when given).

    Counted when a counter is active, unless `counted` is False (a piece of a
    contraction whose full count `record` has already added); executed products are
    tallied either way. A result that would
    not fit in the machine's memory is a ValueError before anything is computed.

    >>> from spec.contractions import MLP_IN
    >>> contract(MLP_IN, np.ones((1, 2)), np.arange(6.0).reshape(2, 3))
    array([[3., 5., 7.]])
    """
    if not isinstance(c, Contraction):
        raise TypeError(f"c must be a spec.contractions.Contraction, got {type(c).__name__}")
    arrays = tuple(np.asarray(a) for a in operands)
    for position, arr in enumerate(arrays):
        if arr.dtype.kind not in "fiu":  # strings, objects, booleans and complex numbers
            raise TypeError(
                f"{c.name} ({c.subscripts}): operand {position} must be a real "
                f"float or integer array, got dtype {arr.dtype}"
            )
    sizes = _letter_sizes(c, arrays)
    if out is None:
        shape = tuple(sizes[letter] for letter in c.subscripts.split("->")[1])
        require_allocation(shape, np.result_type(*arrays), f"{c.name} ({c.subscripts})")
    if counted:
        _count(c, sizes)
    _count(c, sizes, "executed")
    fast = _FAST.get(c.subscripts)
    if fast is not None:
        return fast(*arrays, out=out)
    return np.einsum(c.subscripts, *arrays, out=out, optimize=True)
