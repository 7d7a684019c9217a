"""The wrong variants that the tests of several sections of the self-attention chapter feed
its checks: softmax, masked softmax and attention each off the definition in one way."""

from __future__ import annotations

import math

import numpy as np

from numeric.attention import attention, multi_head_attention
from numeric.softmax import softmax


def softmax_without_shift(z):
    """The textbook formula without the max shift: overflows for z > 709."""
    z = np.asarray(z)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(z)
        return e / e.sum(axis=-1, keepdims=True)


def masked_softmax_ignoring_mask(z, mask):
    return softmax(z)


def jacobian_without_outer(z):
    """diag(sigma): the sigma sigma^T term missing."""
    return np.diag(softmax(z))


def mha_with_positions(x, params, causal=False, context=None):
    """Adds the row index to every row first: no longer permutation-equivariant."""
    x = np.asarray(x, dtype=float)
    return multi_head_attention(x + np.arange(x.shape[0])[:, None], params, causal=causal)


def mha_ignoring_mask(x, params, causal=False, context=None):
    return multi_head_attention(x, params)


def _heads_with(x, params, mask, scale=1.0):
    """定義 4.1's multi-head attention with the given mask (n, n) and the queries times
    `scale`: the building block of the wrong variants below."""
    x = np.asarray(x, dtype=float)

    def heads(w, b):
        y = np.einsum("nd,hdk->hnk", x, params[w])  # (h, n, k)
        return y + params[b][:, None, :] if b in params else y

    q, k, v = heads("w_q", "b_q"), heads("w_k", "b_k"), heads("w_v", "b_v")
    out, weights = attention(scale * q, k, v, mask)
    y = np.einsum("hnk,hkd->nd", out, params["w_o"]) + params.get("b_o", 0)
    return y, weights


def mha_leaking_next(x, params, causal=False, context=None):
    """A causal mask that lets key j = i + 1 through."""
    n = np.shape(x)[0]
    return _heads_with(x, params, np.tri(n, n, 1, dtype=bool) if causal else None)


def mha_attending_to_itself(x, params, causal=False, context=None):
    """Each position attends only to itself under the mask: causal, but not 定義 4.1's
    causal MHA (its weights are the identity)."""
    n = np.shape(x)[0]
    return _heads_with(x, params, np.eye(n, dtype=bool) if causal else None)


def mha_scaled_by_length(x, params, causal=False, context=None):
    """定義 4.1's MHA times 1 + 1/n: rows 1..i still ignore rows i+1..n, but f_n(X)_(1:i)
    is not f_i(X_(1:i)) (a map of the rows that also reads their number)."""
    y, weights = multi_head_attention(x, params, causal=causal)
    return y * (1 + 1 / np.shape(x)[0]), weights


def mha_unscaled(x, params, causal=False, context=None):
    """Scores Q K^T without the 1/sqrt(d_k): equivariant and causal under the mask, but not
    定義 4.1's MHA."""
    n, d_k = np.shape(x)[0], params["w_q"].shape[-1]
    return _heads_with(x, params, np.tri(n, dtype=bool) if causal else None, math.sqrt(d_k))


def attention_unscaled(q, k, v, mask=None):
    """Attn with scores Q K^T, the 1/sqrt(d_k) missing: still a convex combination."""
    return attention(np.asarray(q) * math.sqrt(np.shape(q)[-1]), k, v, mask)


OFF_DEFINITION = "not 定義 4.1's"  # the anchor's message: the check rejects it for that
