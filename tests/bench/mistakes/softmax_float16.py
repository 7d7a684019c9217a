"""A reader's slip: softmax float16; rejected, naming def-softmax."""

import numpy as np


def softmax(z):
    z = np.asarray(z, dtype=np.float16)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
