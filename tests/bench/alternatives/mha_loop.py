"""Multi-head attention head by head in a Python loop, returning the output alone."""

import numpy as np


def multi_head_attention(x, params, causal=False):
    h = params["w_q"].shape[0]
    n, d = x.shape
    out = np.zeros((n, d)) + params.get("b_o", np.zeros(d))
    for a in range(h):
        q = x @ params["w_q"][a] + (params["b_q"][a] if "b_q" in params else 0)
        k = x @ params["w_k"][a] + (params["b_k"][a] if "b_k" in params else 0)
        v = x @ params["w_v"][a] + (params["b_v"][a] if "b_v" in params else 0)
        s = q @ k.T / np.sqrt(q.shape[1])
        if causal:
            s[np.triu_indices(n, 1)] = -np.inf
        w = np.exp(s - s.max(axis=1, keepdims=True))
        out = out + (w / w.sum(axis=1, keepdims=True)) @ v @ params["w_o"][a]
    return out
