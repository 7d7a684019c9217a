"""A reader's slip: attention no scale; rejected, naming def-attention."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = softmax(s)
    return w @ v, w
