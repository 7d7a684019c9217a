"""A reader's slip: softmax sum all; rejected, naming def-softmax."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum()
