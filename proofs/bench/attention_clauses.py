"""The clauses a reader's attention and multi-head attention answer to: 定義 4.1, 命題 4.2,
定理 5.2 (equivariance), 定理 6.3 (the causal mask) and 系 6.4 (prefixes)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from hypothesis import strategies as st

from proofs.bench.clauses import clause
from proofs.bench.reading import as_array, compare, lowered, rounded, short, working_dtype
from proofs.bench.session import Reply, Session
from proofs.bench.slips import Slip, answer_array, close_to, softmax_rows
from proofs.bench.tolerances import attention_tolerance, mha_tolerance
from proofs.chapters.self_attention.strategies import mha_case, qkv_case
from proofs.evidence.reference import mp_attention, mp_multi_head_attention

SOURCE = (
    "a bound any attention meets in {dtype}, its products in any order and its softmax in "
    "either form (docs/bench.md#attention)"
)
DEFINITION = "def-attention 定義 4.1［自己注意］"
CAUSAL = "thm-causal-mask 定理 6.3［自己注意］"


def model_attention(q, k, v, mask, scale: float | None = None, after: bool = False) -> np.ndarray:
    """Attention with a slip: another scale, or the mask applied after the softmax."""
    s = q @ k.transpose(0, 2, 1) * (1 / math.sqrt(q.shape[-1]) if scale is None else scale)
    if mask is not None and not after:
        s = np.where(mask, s, -np.inf)
    w = softmax_rows(s)
    if mask is not None and after:
        w = w * mask
    return w @ v


def judge_attention(session: Session, case: tuple) -> str:
    q, k, v, mask = case
    inputs = f"q = {short(q)}, k = {short(k)}, v = {short(v)}, mask = {short(mask)}"
    reply = (
        session.call("attention", q, k, v)
        if mask is None
        else session.call("attention", q, k, v, mask=mask)
    )
    dtype = working_dtype(reply, q, k, v, first=True)
    held = rounded((q, k, v), dtype)
    shape = q.shape[:2] + v.shape[-1:]
    out = as_array(
        reply,
        shape,
        f"q, k, v of shapes {q.shape}, {k.shape}, {v.shape}",
        first=True,
        inputs=inputs,
    )
    exact = np.array(mp_attention(*held, mask), dtype=float)
    tolerance = attention_tolerance(*held, mask, dtype)
    compare("attention", out, exact, tolerance, inputs, SOURCE.format(dtype=dtype))
    return lowered(dtype, q, k, v)


def _attention_slip(**change: object) -> Callable[[tuple, Reply], bool]:
    def matches(case: tuple, reply: Reply) -> bool:
        q, k, v, mask = case
        out = answer_array(reply)
        if change.get("transposed") and mask is not None:
            return close_to(
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
        scale = change.get("scale")
        return close_to(
            out,
            model_attention(q, k, v, mask, scale, bool(change.get("after"))),  # type: ignore[arg-type]
        )

    return matches


ATTENTION_SLIPS = (
    Slip(
        _attention_slip(scale=1.0),
        "the scores are not scaled: 定義 4.1 divides QKᵀ by √d_k (命題 4.4 says why)",
        DEFINITION,
    ),
    Slip(
        _attention_slip(after=True),
        "the mask is applied after the softmax: σ^U normalises over the allowed positions only "
        "(定義 2.2, 定義 4.1)",
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


def exact_mha(x: np.ndarray, params: dict, causal: bool) -> np.ndarray:
    return np.array(mp_multi_head_attention(x, params, causal), dtype=float)


def judged_mha(
    session: Session, x: np.ndarray, params: dict, causal: bool, what: str, inputs: str
) -> tuple[np.ndarray, np.ndarray, dict, np.dtype, str]:
    """The reader's MHA(x) read as an array, the inputs as it holds them (x, params), its
    working precision and the remark on it."""
    reply = session.call("multi_head_attention", x, params, causal=causal)
    dtype = working_dtype(reply, x, params, first=True)
    held_x, held_params = rounded((x, params), dtype)
    out = as_array(reply, x.shape, what, first=True, inputs=inputs)
    return out, held_x, held_params, dtype, lowered(dtype, x, params)


def judge_mha(session: Session, case: tuple) -> str:
    (x, params), causal = case
    inputs = f"x = {short(x)}, params = {short(params)}, causal = {causal}"
    out, held_x, held, dtype, remark = judged_mha(
        session, x, params, causal, f"x of shape {x.shape}", inputs
    )
    compare(
        "multi_head_attention",
        out,
        exact_mha(held_x, held, causal),
        mha_tolerance(held_x, held, causal, dtype),
        inputs,
        SOURCE.format(dtype=dtype),
    )
    return remark


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
    heads = softmax_rows(s) @ v
    return np.einsum("hnk,hkd->nd", heads, p["w_o"]) + p.get("b_o", np.zeros(d))


def _mha_slip(**change: str) -> Callable[[tuple, Reply], bool]:
    def matches(case: tuple, reply: Reply) -> bool:
        (x, params), causal = case
        out = answer_array(reply)
        if change.get("ignored"):
            return causal and close_to(out, _mha_model(x, params, False))
        return close_to(out, _mha_model(x, params, causal, **change))

    return matches


MHA_SLIPS = (
    Slip(
        _mha_slip(scale="d"),
        "the scores are divided by √d: 定義 4.1 divides each head's QKᵀ by √d_k, d_k = d/h the "
        "width of a head",
        DEFINITION,
    ),
    Slip(
        _mha_slip(mask="strict"),
        "the causal mask leaves out the diagonal: position i may attend to j ≤ i, itself "
        "included (定義 4.1's causal mask; 定理 6.3)",
        CAUSAL,
    ),
    Slip(
        _mha_slip(mask="transposed"),
        "the causal mask is transposed: row i may attend to the keys j ≤ i, not j ≥ i (定義 4.1)",
        CAUSAL,
    ),
    Slip(
        _mha_slip(ignored="yes"),
        "causal=True gives the unmasked output: the causal mask sets the scores of j > i to −∞ "
        "before the softmax (定義 4.1)",
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


def judge_equivariance(session: Session, case: tuple) -> str:
    (x, params), pi = case
    pi = np.array(pi[: x.shape[0]]) if len(pi) >= x.shape[0] else np.arange(x.shape[0])
    order = np.argsort(pi, kind="stable")  # a permutation of the rows
    moved = x[order]
    inputs = f"PX = {short(moved)} (P from the order {order.tolist()}), params = {short(params)}"
    out, held_x, held, dtype, remark = judged_mha(session, moved, params, False, "PX", inputs)
    compare(
        "multi_head_attention(PX) against P MHA(X)",
        out,
        exact_mha(held_x[np.argsort(order)], held, False)[order],
        mha_tolerance(held_x, held, False, dtype),
        inputs,
        SOURCE.format(dtype=dtype),
    )
    return remark


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


def judge_causal(session: Session, case: tuple) -> str:
    """Rows after i changed (or cut off) leave rows 1..i of the causal MHA unchanged: each
    is judged against the exact causal MHA of X itself, rows 1..i."""
    x, params, i, later = case
    changed = x.copy()
    changed[i + 1 :] = later
    remarks = []
    for what, given in (
        ("X with its rows after i changed", changed),
        ("the prefix X_{1:i}", x[: i + 1]),
    ):
        inputs = f"{what}: {short(given)}, i = {i + 1}, params = {short(params)}"
        out, held_given, held, dtype, remark = judged_mha(
            session, given, params, True, what, inputs
        )
        exact = exact_mha(rounded(x, dtype)[: i + 1], held, True)
        compare(
            f"causal multi_head_attention of {what}, rows 1..{i + 1}",
            out[: i + 1],
            exact,
            mha_tolerance(held_given, held, True, dtype)[: i + 1],
            inputs,
            SOURCE.format(dtype=dtype),
        )
        remarks.append(remark)
    return remarks[0]


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
