"""A reader's slip: softmax exp2; rejected, naming def-softmax."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp2(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
