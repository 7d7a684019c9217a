"""Multi-head attention with the heads' weights joined into (d, d) matrices, one matmul
each, the heads split by a reshape of the columns and joined again."""

import numpy as np


def multi_head_attention(x, params, causal=False):
    h, d, dk = params["w_q"].shape
    n = x.shape[0]

    def joined(name):
        return params[name].transpose(1, 0, 2).reshape(d, h * dk)

    def bias(name):
        return params[name].reshape(h * dk) if name in params else 0.0

    q = (x @ joined("w_q") + bias("b_q")).reshape(n, h, dk).transpose(1, 0, 2)
    k = (x @ joined("w_k") + bias("b_k")).reshape(n, h, dk).transpose(1, 0, 2)
    v = (x @ joined("w_v") + bias("b_v")).reshape(n, h, dk).transpose(1, 0, 2)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dk)
    if causal:
        s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, -np.inf)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    heads = (w @ v).transpose(1, 0, 2).reshape(n, h * dk)
    return heads @ params["w_o"].reshape(h * dk, d) + params.get("b_o", 0.0), w
