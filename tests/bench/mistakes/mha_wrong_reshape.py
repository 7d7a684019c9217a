"""A reader's slip: mha wrong reshape; rejected, naming def-attention."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = softmax(s)
    return w @ v, w


def multi_head_attention(x, params, causal=False):
    p = params
    q = (
        np.einsum("nd,hdk->hnk", x, p["w_q"]) + p.get("b_q", 0)[..., None, :]
        if "b_q" in p
        else np.einsum("nd,hdk->hnk", x, p["w_q"])
    )
    k = np.einsum("nd,hdk->hnk", x, p["w_k"]) + (p["b_k"][:, None, :] if "b_k" in p else 0)
    v = np.einsum("nd,hdk->hnk", x, p["w_v"]) + (p["b_v"][:, None, :] if "b_v" in p else 0)
    n = x.shape[0]
    h, _, dk = q.shape
    q = q.transpose(1, 0, 2).reshape(h, n, dk)
    mask = np.tril(np.ones((n, n), bool)) if causal else None
    heads, w = attention(q, k, v, mask)
    out = np.einsum("hnk,hkd->nd", heads, p["w_o"]) + p.get("b_o", 0)
    return out, w
