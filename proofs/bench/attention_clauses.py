"""The clauses a reader's attention and multi-head attention answer to: 定義 4.1, 命題 4.2,
定理 5.2 (equivariance), 定理 6.3 (the causal mask) and 系 6.4 (prefixes)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from numeric.attention import multi_head_attention
from proofs.bench.clauses import Slip, clause
from proofs.bench.reading import as_array, compare, short, working_dtype
from proofs.bench.session import Reply, Session
from proofs.bench.softmax_clauses import _near, _output
from proofs.bench.tolerances import attention_tolerance, mha_tolerance
from proofs.chapters.self_attention.strategies import mha_case, qkv_case
from proofs.evidence.reference import mp_attention, mp_multi_head_attention

SOURCE = "a bound any backward-stable attention meets in {dtype} (docs/bench.md#attention)"
DEFINITION = "def-attention 定義 4.1［自己注意］"
CAUSAL = "thm-causal-mask 定理 6.3［自己注意］"


def _softmax_rows(s: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)


def model_attention(q, k, v, mask, scale: float | None = None, after: bool = False) -> np.ndarray:
    """Attention with a slip: another scale, or the mask applied after the softmax."""
    s = q @ k.transpose(0, 2, 1) * (1 / math.sqrt(q.shape[-1]) if scale is None else scale)
    if mask is not None and not after:
        s = np.where(mask, s, -np.inf)
    w = _softmax_rows(s)
    if mask is not None and after:
        w = w * mask
    return w @ v


def judge_attention(session: Session, case: tuple) -> None:
    q, k, v, mask = case
    inputs = f"q = {short(q)}, k = {short(k)}, v = {short(v)}, mask = {short(mask)}"
    reply = (
        session.call("attention", q, k, v)
        if mask is None
        else session.call("attention", q, k, v, mask=mask)
    )
    shape = q.shape[:2] + v.shape[-1:]
    out = as_array(
        reply,
        shape,
        "q, k, v of shapes " + f"{q.shape}, {k.shape}, {v.shape}",
        first=True,
        inputs=inputs,
    )
    exact = np.array(mp_attention(q, k, v, mask), dtype=float)
    s = q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])
    weights = _softmax_rows(s if mask is None else np.where(mask, s, -np.inf))
    dtype = working_dtype(out)
    compare(
        "attention",
        out,
        exact,
        attention_tolerance(q, k, v, weights, dtype),
        inputs,
        SOURCE.format(dtype=dtype),
    )


def _attention_slip(**change: object) -> object:
    def matches(case: tuple, reply: Reply) -> bool:
        q, k, v, mask = case
        out = (
            _output(reply)
            if not isinstance(reply.value, tuple | list)
            else np.asarray(reply.value[0], float)
        )
        if change.get("transposed") and mask is not None:
            return _near(
                out,
                model_attention(
                    q,
                    k,
                    v,
                    np.swapaxes(np.broadcast_to(mask, q.shape[:2] + k.shape[1:2]), -1, -2)
                    if q.shape[1] == k.shape[1]
                    else mask,
                ),
            )
        return _near(
            out, model_attention(q, k, v, mask, change.get("scale"), bool(change.get("after")))
        )  # type: ignore[arg-type]

    return matches


ATTENTION_SLIPS = (
    Slip(
        _attention_slip(scale=1.0),
        "the scores are not scaled: 定義 4.1 divides QKᵀ by √d_k (命題 4.4 says why)",
        DEFINITION,
    ),
    Slip(
        _attention_slip(after=True),
        "the mask is applied after the softmax: σ^U normalises over the allowed positions only (定義 2.2, 定義 4.1)",
        DEFINITION,
    ),
)


clause(
    element="def-attention",
    number="定義 4.1［自己注意］",
    clause="Attn(Q, K, V) = σ(QKᵀ/√d_k) V, σ^U under a mask",
    function="attention",
    cases=qkv_case(),
    judge=judge_attention,
    fixed=((np.ones((1, 2, 4)), np.ones((1, 2, 4)), np.eye(2)[None], None),),
    slips=ATTENTION_SLIPS,
    examples=40,
)


def exact_mha(x: np.ndarray, params: dict, causal: bool) -> tuple[np.ndarray, np.ndarray]:
    out = np.array(mp_multi_head_attention(x, params, causal), dtype=float)
    _, weights = multi_head_attention(x, params, causal=causal)
    return out, weights


def _call_mha(session: Session, x: np.ndarray, params: dict, causal: bool) -> Reply:
    return session.call("multi_head_attention", x, params, causal=causal)


def judge_mha(session: Session, case: tuple) -> None:
    (x, params), causal = case
    inputs = f"x = {short(x)}, params = {short(params)}, causal = {causal}"
    out = as_array(
        _call_mha(session, x, params, causal),
        x.shape,
        f"x of shape {x.shape}",
        first=True,
        inputs=inputs,
    )
    exact, weights = exact_mha(x, params, causal)
    dtype = working_dtype(out)
    compare(
        "multi_head_attention",
        out,
        exact,
        mha_tolerance(x, params, weights, dtype),
        inputs,
        SOURCE.format(dtype=dtype),
    )


def _mha_model(
    x: np.ndarray, p: dict, causal: bool, scale: str = "d_k", mask: str = "causal"
) -> np.ndarray:
    h, d, d_k = p["w_q"].shape
    n = x.shape[0]
    q = np.einsum("nd,hdk->hnk", x, p["w_q"]) + p.get("b_q", np.zeros((h, d_k)))[:, None]
    k = np.einsum("nd,hdk->hnk", x, p["w_k"]) + p.get("b_k", np.zeros((h, d_k)))[:, None]
    v = np.einsum("nd,hdk->hnk", x, p["w_v"]) + p.get("b_v", np.zeros((h, d_k)))[:, None]
    s = q @ k.transpose(0, 2, 1) / math.sqrt(d if scale == "d" else d_k)
    if causal:
        allowed = {
            "causal": np.tri(n, dtype=bool),
            "strict": np.tri(n, k=-1, dtype=bool),
            "transposed": np.tri(n, dtype=bool).T,
        }[mask]
        s = np.where(allowed, s, -np.inf)
    heads = _softmax_rows(s) @ v
    return np.einsum("hnk,hkd->nd", heads, p["w_o"]) + p.get("b_o", np.zeros(d))


def _mha_slip(**change: str) -> object:
    def matches(case: tuple, reply: Reply) -> bool:
        (x, params), causal = case
        value = reply.value[0] if isinstance(reply.value, tuple | list) else reply.value
        out = np.asarray(value, dtype=float) if reply.returned else None
        if change.get("ignored"):
            return causal and _near(out, _mha_model(x, params, False))
        return _near(out, _mha_model(x, params, causal, **change))

    return matches


MHA_SLIPS = (
    Slip(
        _mha_slip(scale="d"),
        "the scores are divided by √d: 定義 4.1 divides each head's QKᵀ by √d_k, d_k = d/h the width of a head",
        DEFINITION,
    ),
    Slip(
        _mha_slip(mask="strict"),
        "the causal mask leaves out the diagonal: position i may attend to j ≤ i, itself included (定義 4.1's causal mask; 定理 6.3)",
        CAUSAL,
    ),
    Slip(
        _mha_slip(mask="transposed"),
        "the causal mask is transposed: row i may attend to the keys j ≤ i, not j ≥ i (定義 4.1)",
        CAUSAL,
    ),
    Slip(
        _mha_slip(ignored="yes"),
        "causal=True gives the unmasked output: the causal mask sets the scores of j > i to −∞ before the softmax (定義 4.1)",
        CAUSAL,
    ),
)


@st.composite
def mha_cases(draw: st.DrawFn) -> tuple:
    return draw(mha_case()), draw(st.booleans())


clause(
    element="def-attention",
    number="定義 4.1［自己注意］",
    clause="MHA(X) = [H⁽¹⁾ … H⁽ʰ⁾] W_O + 1b_Oᵀ, H⁽ᵃ⁾ = Attn(XW_Q⁽ᵃ⁾ + 1b_Qᵀ, …), causal or not",
    function="multi_head_attention",
    cases=mha_cases(),
    judge=judge_mha,
    slips=MHA_SLIPS,
    examples=30,
)


def judge_equivariance(session: Session, case: tuple) -> None:
    (x, params), pi = case
    pi = np.array(pi[: x.shape[0]]) if len(pi) >= x.shape[0] else np.arange(x.shape[0])
    order = np.argsort(pi, kind="stable")  # a permutation of the rows
    moved = x[order]
    inputs = f"PX = {short(moved)} (P from the order {order.tolist()}), params = {short(params)}"
    out = as_array(
        _call_mha(session, moved, params, False), x.shape, "PX", first=True, inputs=inputs
    )
    exact, weights = exact_mha(x, params, False)
    dtype = working_dtype(out)
    tolerance = mha_tolerance(moved, params, weights[:, order][:, :, order], dtype)
    compare(
        "multi_head_attention(PX) against P MHA(X)",
        out,
        exact[order],
        tolerance,
        inputs,
        SOURCE.format(dtype=dtype),
    )


clause(
    element="thm-attention-equivariance",
    number="定理 5.2［自己注意］",
    clause="MHA(PX) = P MHA(X) without a mask",
    function="multi_head_attention",
    cases=st.tuples(mha_case(), st.lists(st.floats(0, 1), min_size=5, max_size=5)),
    judge=judge_equivariance,
    slips=MHA_SLIPS,
    examples=20,
)


@st.composite
def causal_cases(draw: st.DrawFn) -> tuple:
    x, params = draw(mha_case())
    n = x.shape[0]
    i = draw(st.integers(0, n - 1))
    later = draw(st.floats(-2, 2))
    return x, params, i, later


def judge_causal(session: Session, case: tuple) -> None:
    """Rows after i changed (or cut off) leave rows 1..i of the causal MHA unchanged."""
    x, params, i, later = case
    changed = x.copy()
    changed[i + 1 :] = later
    exact, weights = exact_mha(x, params, True)
    for what, given, rows in (
        ("X with its rows after i changed", changed, x.shape[0]),
        ("the prefix X_{1:i}", x[: i + 1], i + 1),
    ):
        inputs = f"{what}: {short(given)}, i = {i + 1}, params = {short(params)}"
        out = as_array(
            _call_mha(session, given, params, True), given.shape, what, first=True, inputs=inputs
        )
        _, own_weights = exact_mha(given, params, True)
        dtype = working_dtype(out)
        tolerance = mha_tolerance(given, params, own_weights, dtype)
        compare(
            f"causal multi_head_attention of {what}, rows 1..{i + 1}",
            out[: i + 1],
            exact[: i + 1],
            tolerance[: i + 1],
            inputs,
            SOURCE.format(dtype=dtype),
        )
        del rows


clause(
    element="thm-causal-mask",
    number="定理 6.3［自己注意］",
    clause="causal MHA: row i depends on x_1, …, x_i only; 系 6.4 the prefix gives the same rows",
    function="multi_head_attention",
    cases=causal_cases(),
    judge=judge_causal,
    slips=MHA_SLIPS,
    examples=20,
)
