"""A reader's slip: attention mask after; rejected, naming def-attention."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    w = softmax(s)
    if mask is not None:
        w = w * mask
    return w @ v, w
