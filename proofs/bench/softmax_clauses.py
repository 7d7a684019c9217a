"""The clauses a reader's softmax and masked softmax answer to: 定義 2.2, 命題 3.1 and its
remark (the maximum subtracted: extreme inputs are part of the judgment), 演習 10.1."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from proofs.bench.clauses import clause
from proofs.bench.reading import (
    Rejected,
    as_array,
    compare,
    lowered,
    rounded,
    short,
    working_dtype,
)
from proofs.bench.results import Witness
from proofs.bench.session import Reply, Session
from proofs.bench.slips import Slip, answer_array, close_to, softmax_rows
from proofs.bench.tolerances import softmax_tolerance
from proofs.chapters.self_attention.strategies import FIXED_SOFTMAX_INPUTS, bounded_floats
from proofs.evidence.reference import mp_softmax

SOURCE = (
    "a bound any max-shifted softmax (e^x / S or e^(x - log S)) meets in {dtype} "
    "(docs/bench.md#softmax)"
)
DEFINITION = "def-softmax 定義 2.2［自己注意］"
BASIC = "prop-softmax-basic 命題 3.1［自己注意］"


def exact_softmax(z: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """sigma (or sigma^U) of every row of z at 50 digits, as float64."""
    rows = z.reshape(-1, z.shape[-1])
    masks = None if mask is None else np.broadcast_to(mask, z.shape).reshape(rows.shape)
    out = [
        [float(v) for v in mp_softmax(r, None if masks is None else list(masks[i]))]
        for i, r in enumerate(rows)
    ]
    return np.array(out).reshape(z.shape)


def rows(bound: float, dtype: type) -> st.SearchStrategy:
    """z of shape (n,) or (r, n), n 1..8, r 1..3, entries within `bound`."""
    width = 32 if dtype == np.float32 else 64
    elements = bounded_floats(bound, width)
    shapes = st.one_of(
        st.tuples(st.integers(1, 8)), st.tuples(st.integers(1, 3), st.integers(1, 8))
    )
    return shapes.flatmap(lambda shape: hnp.arrays(dtype, shape, elements=elements))


def moderate() -> st.SearchStrategy:
    return st.one_of(rows(30.0, np.float64), rows(30.0, np.float32))


def extreme() -> st.SearchStrategy:
    """Entries up to 1e300 in float64 and 1e30 in float32, mixed with moderate ones: where
    e^{z} overflows unless the maximum is subtracted first."""

    def mixed(dtype: type, bound: float) -> st.SearchStrategy:
        width = 32 if dtype == np.float32 else 64
        elements = st.one_of(bounded_floats(30.0, width), bounded_floats(bound, width))
        return st.integers(1, 8).flatmap(lambda n: hnp.arrays(dtype, (n,), elements=elements))

    return st.one_of(mixed(np.float64, 1e300), mixed(np.float32, 1e30))


def judge_softmax(session: Session, z: np.ndarray) -> str:
    reply = session.call("softmax", z)
    dtype = working_dtype(reply, z)
    held = rounded(z, dtype)
    out = as_array(reply, z.shape, f"z of shape {z.shape}", inputs=f"z = {short(z)}")
    exact = exact_softmax(held)
    tolerance = softmax_tolerance(held, exact, dtype)
    compare("softmax", out, exact, tolerance, f"z = {short(z)}", SOURCE.format(dtype=dtype))
    return lowered(dtype, z)


def _overflowed(z: np.ndarray, reply: Reply) -> bool:
    out = answer_array(reply)
    limit = math.log(float(np.finfo(z.dtype).max))
    return (out is None or not np.all(np.isfinite(out))) and bool(np.max(z) > limit)


def _unshifted_underflow(z: np.ndarray, reply: Reply) -> bool:
    out = answer_array(reply)
    low = math.log(float(np.finfo(z.dtype).tiny))
    return (out is None or not np.all(np.isfinite(out))) and bool(np.max(z) < low)


def _other_axis(z: np.ndarray, reply: Reply) -> bool:
    if z.ndim < 2:
        return False
    return close_to(answer_array(reply), softmax_rows(z.T).T)


def _half(z: np.ndarray, reply: Reply) -> bool:
    value = reply.value if reply.returned else None
    return isinstance(value, np.ndarray) and value.dtype == np.float16


HALF = Slip(
    _half,
    "σ is computed in float16, 11 significant bits, where e^t overflows past t ≈ 11.1: "
    "定義 2.2's σ(z)_i = e^{z_i} / Σ_j e^{z_j} is evaluated in the precision of z (NumPy's "
    "float64, as §8's code does) or in float32",
    DEFINITION,
)
OVERFLOW = Slip(
    _overflowed,
    "e^{z_i} overflows the float range: the maximum is not subtracted before the "
    "exponential. 命題 3.1 (2) 平行移動不変 says σ(z − c1) = σ(z); with c = max z every "
    "exponent is at most 0 (the remark after 命題 3.1, and §8's code)",
    BASIC,
)
UNDERFLOW = Slip(
    _unshifted_underflow,
    "every e^{z_i} underflows to 0 and 0/0 is NaN: the maximum is not subtracted before "
    "the exponential (命題 3.1 (2) 平行移動不変 and the remark after it)",
    BASIC,
)
AXIS = Slip(
    _other_axis,
    "the output is the softmax of each column: σ is taken along the last axis, one "
    "distribution per row of scores (定義 2.2; 定義 4.1 applies it row by row)",
    DEFINITION,
)

clause(
    element="def-softmax",
    number="定義 2.2［自己注意］",
    clause="σ(z)_i = e^{z_i} / Σ_j e^{z_j}",
    function="softmax",
    cases=moderate(),
    judge=judge_softmax,
    fixed=(np.array([0.0, 1.0, 2.0]), np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 5.0]])),
    slips=(HALF, AXIS, OVERFLOW),
    examples=60,
)
clause(
    element="prop-softmax-basic",
    number="命題 3.1［自己注意］",
    clause="(2) 平行移動不変: the maximum subtracted, any finite z (the remark after 命題 3.1)",
    function="softmax",
    cases=extreme(),
    judge=judge_softmax,
    fixed=(*FIXED_SOFTMAX_INPUTS, np.array([-800.0, -801.0])),
    slips=(HALF, OVERFLOW, UNDERFLOW, AXIS),
    examples=60,
)


def judge_basic(session: Session, z: np.ndarray) -> str:
    """(1) positive where the exact value is, rows summing to 1; (3) order; (4) P."""
    reply = session.call("softmax", z)
    dtype = working_dtype(reply, z)
    held = rounded(z, dtype)
    out = as_array(reply, z.shape, f"z of shape {z.shape}", inputs=f"z = {short(z)}")
    exact = exact_softmax(held)
    tolerance = softmax_tolerance(held, exact, dtype)
    source = SOURCE.format(dtype=dtype)
    if np.any(out < 0):
        at = tuple(int(i) for i in np.argwhere(out < 0)[0])
        raise Rejected(Witness(f"softmax returned {out[at]!r} < 0 at {at}", f"z = {short(z)}"))
    total = out.astype(np.float64).sum(axis=-1)
    compare(
        "the row sum of softmax",
        total,
        np.ones_like(total),
        tolerance.sum(axis=-1),
        f"z = {short(z)}",
        source,
    )
    flat = z.reshape(-1, z.shape[-1])
    order = np.argsort(np.asarray(held).reshape(flat.shape), axis=-1, kind="stable")
    permuted = np.take_along_axis(flat, order, axis=-1).reshape(z.shape)
    moved = as_array(session.call("softmax", permuted), z.shape, f"z sorted, of shape {z.shape}")
    want = np.take_along_axis(exact.reshape(flat.shape), order, axis=-1).reshape(z.shape)
    compare(
        "softmax of the permuted z (4: σ(Pz) = Pσ(z))",
        moved,
        want,
        np.take_along_axis(tolerance.reshape(flat.shape), order, axis=-1).reshape(z.shape),
        f"Pz = {short(permuted)}",
        source,
    )
    sorted_out = moved.reshape(flat.shape).astype(np.float64)
    slack = np.take_along_axis(tolerance.reshape(flat.shape), order, axis=-1)
    drops = sorted_out[:, :-1] - sorted_out[:, 1:] > slack[:, :-1] + slack[:, 1:]
    if drops.any():
        r, j = (int(i) for i in np.argwhere(drops)[0])
        raise Rejected(
            Witness(
                f"softmax breaks the order (3): for z_i <= z_j it gave σ_i = {sorted_out[r, j]!r} "
                f"> σ_j = {sorted_out[r, j + 1]!r}",
                f"Pz = {short(permuted)}",
            )
        )
    return lowered(dtype, z)


clause(
    element="prop-softmax-basic",
    number="命題 3.1［自己注意］",
    clause="(1) 正で和が 1, (3) 大小を保つ, (4) 置換同変",
    function="softmax",
    cases=moderate(),
    judge=judge_basic,
    slips=(HALF, AXIS),
    examples=40,
)


def judge_exercise(session: Session, z: np.ndarray) -> str:
    return judge_softmax(session, z)


clause(
    element="exr-softmax-compute",
    number="演習 10.1［自己注意］",
    clause="σ(0, log 2, log 3) and σ(100, 100 + log 2, 100 + log 3)",
    function="softmax",
    cases=None,
    judge=judge_exercise,
    fixed=(
        np.log(np.array([1.0, 2.0, 3.0])),
        100.0 + np.log(np.array([1.0, 2.0, 3.0])),
        np.float32(100.0) + np.log(np.array([1.0, 2.0, 3.0], np.float32)),
    ),
    slips=(HALF, OVERFLOW),
    examples=1,
)


def masked_cases() -> st.SearchStrategy:
    def one(n: int) -> st.SearchStrategy:
        z = hnp.arrays(np.float64, (n,), elements=bounded_floats(50.0))
        mask = st.lists(st.booleans(), min_size=n, max_size=n).filter(any).map(np.array)
        return st.tuples(z, mask)

    return st.integers(1, 6).flatmap(one)


def judge_masked(session: Session, case: tuple) -> str:
    z, mask = case
    reply = session.call("masked_softmax", z, mask)
    dtype = working_dtype(reply, z)
    held = rounded(z, dtype)
    out = as_array(
        reply, z.shape, f"z of shape {z.shape}", inputs=f"z = {short(z)}, mask = {short(mask)}"
    )
    exact = exact_softmax(held, mask)
    tolerance = softmax_tolerance(np.where(mask, held, -np.inf), exact, dtype)
    compare(
        "masked_softmax",
        out,
        exact,
        tolerance,
        f"z = {short(z)}, mask = {short(mask)}",
        SOURCE.format(dtype=dtype),
    )
    return lowered(dtype, z)


def _after(case: tuple, reply: Reply) -> bool:
    z, mask = case
    return close_to(answer_array(reply), softmax_rows(z) * mask)


def _inverted(case: tuple, reply: Reply) -> bool:
    z, mask = case
    return close_to(answer_array(reply), exact_softmax(z, ~mask)) if (~mask).any() else False


def _filled(case: tuple, reply: Reply) -> bool:
    z, mask = case
    out = answer_array(reply)
    return any(close_to(out, softmax_rows(np.where(mask, z, c))) for c in (0.0, -1.0))


MASK_FILLED = Slip(
    _filled,
    "the scores off U are set to a finite value, so their e^{z_j} still count in the sum: "
    "σ^U sums over U alone (定義 2.2); σ(z − c m) reaches σ^U only as c → ∞ (命題 3.3), so "
    "the left-out scores are −∞, or the row is normalised over U",
    "def-softmax 定義 2.2［自己注意］",
)
MASK_AFTER = Slip(
    _after,
    "the mask is applied after the softmax: σ^U divides by Σ_{j∈U} e^{z_j}, the sum over U "
    "alone, so the row must be normalised over U (定義 2.2; 命題 3.3 shows σ^U as the limit "
    "of σ(z − c m))",
    "def-softmax 定義 2.2［自己注意］",
)
MASK_INVERTED = Slip(
    _inverted,
    "the output is σ over the positions the mask leaves out: the mask is True on U, the "
    "positions that are kept (定義 2.2)",
    "def-softmax 定義 2.2［自己注意］",
)
clause(
    element="def-softmax",
    number="定義 2.2［自己注意］",
    clause="σ^U(z)_i = e^{z_i} / Σ_{j∈U} e^{z_j} (i ∈ U), 0 (i ∉ U)",
    function="masked_softmax",
    cases=masked_cases(),
    judge=judge_masked,
    fixed=((np.array([1.0, 2.0, 0.5]), np.array([True, True, False])),),
    slips=(MASK_AFTER, MASK_INVERTED, MASK_FILLED),
    examples=40,
)


def judge_empty(session: Session, case: object) -> None:
    z = np.array([[1.0, 2.0, 3.0], [0.5, 0.0, -1.0]])
    mask = np.array([[True, False, True], [False, False, False]])
    reply = session.call("masked_softmax", z, mask)
    if not reply.returned:
        return  # an error: U is empty, σ^U is not defined
    out = answer_array(reply)
    if out is None or out.shape != z.shape or not np.all(np.isfinite(out)):
        raise Rejected(
            Witness(
                "masked_softmax returned NaN or inf for a row with U = ∅, where 定義 2.2 "
                "defines no σ^U (U is non-empty): an error naming the row says so",
                f"z = {short(z)}, mask = {short(mask)}",
                short(out) if out is not None else "",
            )
        )


clause(
    element="def-softmax",
    number="定義 2.2［自己注意］",
    clause="beyond the definition's domain (U ≠ ∅): a fully masked row",
    function="masked_softmax",
    cases=None,
    judge=judge_empty,
    fixed=(None,),
    note_only=True,
    examples=1,
)
