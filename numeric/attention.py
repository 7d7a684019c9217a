"""Scaled dot-product attention and multi-head attention (定義 4.1［自己注意］).

Attn(Q, K, V) = sigma(Q K^T / sqrt(d_k)) V row by row, with sigma^U under a
mask. Multi-head attention keeps its parameters head-first as spec declares
them: W_Q, W_K, W_V of shape (h, d, d_k), W_O of shape (h, d_k, d) (the rows
of the chapter's W_O split by head), so the concatenation [H^(1) ... H^(h)] W_O
is the contraction hnk,hkd->nd. Every product runs through `contract` with the
declared contractions, so a multiplication count of a real pass is exact.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from numeric.contraction import contract, record
from numeric.parameters import check_parameters
from numeric.softmax import (
    check_mask,
    masked_softmax_kernel,
    shifted_exponentials,
    softmax_kernel,
)
from numeric.validation import (
    as_array,
    require_allocation,
    require_finite_result,
    require_mapping,
)
from spec.checks import positive_int, require_bool
from spec.contractions import (
    K_PROJECTION,
    OUTPUT_PROJECTION,
    Q_PROJECTION,
    SCORES,
    V_PROJECTION,
    WEIGHTED_SUM,
    Contraction,
)
from spec.parameters import attention_parameters

ATTENTION_BIASES = ("b_q", "b_k", "b_v", "b_o")
CAUSAL_BLOCK = 128  # query rows per block of causal attention


def causal_mask(n: int, m: int | None = None) -> np.ndarray:
    """Boolean (n, m), True where key j <= query i + (m - n) (m = n: j <= i).

    With m > n the n queries are the last n positions of a sequence of m keys
    (incremental decoding with a cache).

    >>> causal_mask(2, 3).astype(int)
    array([[1, 1, 0],
           [1, 1, 1]])
    """
    n = positive_int("n", n)
    m = n if m is None else positive_int("m", m)
    if m < n:
        raise ValueError(
            f"m must be >= n (queries are the last n of m positions), got n = {n}, m = {m}"
        )
    require_allocation((n, m), np.bool_, "causal_mask(n, m)")
    return np.tri(n, m, m - n, dtype=bool)


def attention_kernel(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """(out (h, n, d_v), weights (h, n, m)) for validated head-first arrays.

    >>> out, weights = attention_kernel(np.ones((1, 2, 4)), np.ones((1, 2, 4)),
    ...                                 np.eye(2)[None], None)
    >>> out
    array([[[0.5, 0.5],
            [0.5, 0.5]]])
    """
    scale = 1.0 / math.sqrt(q.shape[-1])
    scores = contract(SCORES, q * scale, k)  # (h, n, m)
    if mask is None:
        weights = softmax_kernel(scores, out=scores)
    else:
        weights = masked_softmax_kernel(scores, mask)
    return contract(WEIGHTED_SUM, weights, v), weights  # (h, n, d_v), (h, n, m)


def causal_attention_kernel(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, need_weights: bool = True
) -> tuple[np.ndarray, np.ndarray | None]:
    """attention_kernel under the causal mask (key j <= query i + m - n), skipping the
    masked blocks.

    Query rows are taken CAUSAL_BLOCK at a time; a block of rows [r0, r1) needs
    only the keys before r1 + m - n, and only its last square of keys needs
    masking. About half of the n x m scores are never computed (they would be
    masked to 0); the returned weights hold those zeros (None unless
    need_weights). The multiplication count recorded is the definition's, for
    the full (h, n, m) products.

    The weighted sum divides e V by the row sums S of the exponentials
    e = exp(s - max s) (`shifted_exponentials`) rather than e itself:
    sigma V = (e V) / S, one division per output entry instead of one per
    weight, with the same rounding terms (S scales a row by one factor, the
    division adds u, the sum of products gamma_m). The output's heads lie side
    by side in one (n, h d_v) array, which merge_heads multiplies by W_O
    without a copy.

    >>> out, weights = causal_attention_kernel(np.ones((1, 2, 4)), np.ones((1, 2, 4)),
    ...                                        np.eye(2)[None])
    >>> weights
    array([[[1. , 0. ],
            [0.5, 0.5]]])
    >>> out
    array([[[1. , 0. ],
            [0.5, 0.5]]])
    """
    h, n, d_k = q.shape
    m = k.shape[1]
    offset = m - n
    out = np.empty((n, h, v.shape[2]), dtype=q.dtype).transpose(1, 0, 2)  # (h, n, d_v)
    weights = np.zeros((h, n, m), dtype=q.dtype) if need_weights else None  # (h, n, m)
    record(SCORES, q, k)
    record(WEIGHTED_SUM, np.broadcast_to(q.dtype.type(0), (h, n, m)), v)
    scaled = q * (1.0 / math.sqrt(d_k))  # (h, n, d_k)
    k_t = np.ascontiguousarray(k.transpose(0, 2, 1))  # (h, d_k, m): k_t[a] is K_a^T in C order
    scratch = np.empty(h * min(n, CAUSAL_BLOCK) * m, dtype=q.dtype)  # contiguous for BLAS
    for r0 in range(0, n, CAUSAL_BLOCK):
        r1 = min(n, r0 + CAUSAL_BLOCK)
        end = r1 + offset
        block = scratch[: h * (r1 - r0) * end].reshape(h, r1 - r0, end)  # (h, b, end)
        keys = k_t[:, :, :end].transpose(0, 2, 1)  # (h, end, d_k), a view of K^T's columns
        contract(SCORES, scaled[:, r0:r1], keys, counted=False, out=block)
        future = ~np.tri(r1 - r0, dtype=bool)  # (b, b), key after the query in the last square
        np.copyto(block[:, :, r0 + offset :], -np.inf, where=future)
        e, total = shifted_exponentials(block, out=block)  # (h, b, end), (h, b, 1)
        if weights is not None:
            np.divide(e, total, out=weights[:, r0:r1, :end])
        rows = out[:, r0:r1]  # (h, b, d_v)
        contract(WEIGHTED_SUM, e, v[:, :end], counted=False, out=rows)
        rows /= total
    return out, weights


def attention(
    q: object, k: object, v: object, mask: object = None
) -> tuple[np.ndarray, np.ndarray]:
    """Attn(Q, K, V) per head: q (h, n, d_k), k (h, m, d_k), v (h, m, d_v).

    Returns (out (h, n, d_v), weights (h, n, m)). 2-D arrays are one head and
    give 2-D results. k and v are taken in q's dtype. `mask` is boolean (True =
    may attend), broadcast to (h, n, m); a query row with nothing to attend to
    is a ValueError.

    >>> out, weights = attention(np.zeros((2, 3)), np.zeros((2, 3)), [[1.0], [3.0]])
    >>> out
    array([[2.],
           [2.]])
    """
    qs = as_array(q, "q", ndim=(2, 3))
    ks = as_array(k, "k", ndim=qs.ndim, dtype=qs.dtype)
    vs = as_array(v, "v", ndim=qs.ndim, dtype=qs.dtype)
    single = qs.ndim == 2
    if single:
        qs, ks, vs = qs[None], ks[None], vs[None]
    h, n, d_k = qs.shape
    m = ks.shape[1]
    if n == 0 or m == 0:
        raise ValueError(f"q and k must have at least one position, got {qs.shape} and {ks.shape}")
    if d_k == 0:
        raise ValueError(
            f"q and k must have d_k >= 1 features (the scores are scaled by "
            f"1/sqrt(d_k)), got q of shape {qs.shape}"
        )
    if ks.shape[0] != h or ks.shape[2] != d_k:
        raise ValueError(f"k must have shape (h, m, d_k) = ({h}, m, {d_k}), got {ks.shape}")
    if vs.shape[:2] != ks.shape[:2]:
        raise ValueError(f"v must have shape (h, m, d_v) = ({h}, {m}, d_v), got {vs.shape}")
    checked = None if mask is None else check_mask(mask, (n, m) if single else (h, n, m))
    require_allocation((h, n, m), qs.dtype, "attention's weights")
    with np.errstate(over="ignore", invalid="ignore"):  # reported below, naming the cause
        out, weights = attention_kernel(qs, ks, vs, checked)
    require_finite_result(out, "attention(q, k, v)")
    return (out[0], weights[0]) if single else (out, weights)


def check_attention_parameters(
    params: object, d: int, dtype: np.dtype, name: str = "params", finite: bool = True
) -> dict[str, np.ndarray]:
    """The attention parameters of width d, as declared by spec (biases optional); h and
    d_head are read from w_q.

    >>> p = {"w_q": np.ones((2, 4, 2)), "w_k": np.ones((2, 4, 2)), "w_v": np.ones((2, 4, 2)),
    ...      "w_o": np.ones((2, 2, 4))}
    >>> check_attention_parameters(p, 4, np.dtype(np.float32))["w_o"].dtype
    dtype('float32')
    """
    w_q = require_mapping(params, name).get("w_q")
    if w_q is None:
        raise ValueError(f"{name} is missing the key 'w_q' (an array of shape (h, d, d_head))")
    shape = as_array(w_q, f"{name}['w_q']", ndim=3, finite=False).shape
    h, _, d_head = shape
    if h * d_head != d:
        raise ValueError(
            f"{name}['w_q'] has shape {shape}: h = {h} heads of d_head = {d_head} "
            f"need d = h * d_head = {h * d_head}, got d = {d} (h must divide d)"
        )
    declared = [(p.name.removeprefix("attn."), p.dims) for p in attention_parameters(True)]
    shapes = {
        key: tuple({"h": h, "d": d, "d_head": d_head}[s] for s in dims) for key, dims in declared
    }
    return check_parameters(params, shapes, ATTENTION_BIASES, name, dtype, finite)


def project_heads(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, c: Contraction) -> np.ndarray:
    """x W + b per head: x (n, d), w (h, d, d_head), b (h, d_head) or None.

    >>> project_heads(np.ones((1, 2)), np.ones((3, 2, 1)), None, Q_PROJECTION).shape
    (3, 1, 1)
    """
    y = contract(c, x, w)  # (h, n, d_head), a fresh array of the function's own
    if b is not None:
        y += b[:, None, :]
    return y


def merge_heads(o: np.ndarray, w_o: np.ndarray, b_o: np.ndarray | None) -> np.ndarray:
    """[H^(1) ... H^(h)] W_O + b_O: o (h, n, d_head), w_o (h, d_head, d) -> (n, d).

    >>> merge_heads(np.ones((2, 1, 1)), np.ones((2, 1, 3)), None)
    array([[2., 2., 2.]])
    """
    y = contract(OUTPUT_PROJECTION, o, w_o)  # (n, d)
    if b_o is not None:
        y += b_o
    return y


def multi_head_attention_kernel(
    x: np.ndarray,
    p: dict[str, np.ndarray],
    context: np.ndarray,
    causal: bool,
    need_weights: bool = True,
) -> tuple[np.ndarray, np.ndarray | None]:
    """MHA of validated arguments: (out (n, d), weights (h, n, m) or None).

    >>> p = {"w_q": np.ones((1, 2, 2)), "w_k": np.ones((1, 2, 2)), "w_v": np.ones((1, 2, 2)),
    ...      "w_o": np.ones((1, 2, 2))}
    >>> multi_head_attention_kernel(np.eye(2), p, np.eye(2), causal=True)[0]
    array([[2., 2.],
           [2., 2.]])
    """
    q = project_heads(x, p["w_q"], p.get("b_q"), Q_PROJECTION)  # (h, n, d_head)
    k = project_heads(context, p["w_k"], p.get("b_k"), K_PROJECTION)  # (h, m, d_head)
    v = project_heads(context, p["w_v"], p.get("b_v"), V_PROJECTION)  # (h, m, d_head)
    if causal:
        o, weights = causal_attention_kernel(q, k, v, need_weights)
    else:
        o, weights = attention_kernel(q, k, v, None)
    return merge_heads(o, p["w_o"], p.get("b_o")), weights


def multi_head_attention(
    x: object, params: Mapping[str, object], causal: bool = False, context: object = None
) -> tuple[np.ndarray, np.ndarray]:
    """MHA(X) of 定義 4.1: x (n, d) -> (out (n, d), weights (h, n, m)).

    params: w_q w_k w_v (h, d, d/h), w_o (h, d/h, d), optional b_q b_k b_v
    (h, d/h) and b_o (d,). `context` (m, d) supplies the keys and values
    (cross-attention, 注意 7.3); by default they come from x (m = n).
    `causal` masks key j > i + (m - n). The parameters are taken in x's dtype.

    >>> p = {"w_q": np.zeros((2, 4, 2)), "w_k": np.zeros((2, 4, 2)),
    ...      "w_v": np.ones((2, 4, 2)), "w_o": np.ones((2, 2, 4))}
    >>> out, weights = multi_head_attention(np.eye(3, 4), p, causal=True)
    >>> weights.shape, np.round(out[1], 3)
    ((2, 3, 3), array([4., 4., 4., 4.]))
    """
    xs = as_array(x, "x", ndim=2)
    n, d = xs.shape
    if n == 0 or d == 0:
        raise ValueError(f"x must have at least one position and one feature, got {xs.shape}")
    if context is None:
        keys = xs
    else:
        keys = as_array(context, "context", ndim=2, dtype=xs.dtype)
        if keys.shape[0] == 0 or keys.shape[1] != d:
            raise ValueError(f"context must have shape (m, {d}) with m >= 1, got {keys.shape}")
    causal = require_bool("causal", causal)
    p = check_attention_parameters(params, d, xs.dtype)
    m = keys.shape[0]
    if causal and m < n:
        raise ValueError(
            f"causal cross-attention needs m >= n (the queries are the last n of "
            f"m positions), got n = {n}, m = {m}"
        )
    require_allocation((p["w_q"].shape[0], n, m), xs.dtype, "multi_head_attention's weights")
    with np.errstate(over="ignore", invalid="ignore"):  # reported below, naming the cause
        out, weights = multi_head_attention_kernel(xs, p, keys, causal)
    assert weights is not None  # need_weights: the kernel keeps them
    return require_finite_result(out, "multi_head_attention(x, params)"), weights
