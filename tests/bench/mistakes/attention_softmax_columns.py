"""A reader's slip: attention softmax columns; rejected, naming def-attention."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = np.swapaxes(softmax(np.swapaxes(s, -1, -2)), -1, -2)
    return w @ v, w
