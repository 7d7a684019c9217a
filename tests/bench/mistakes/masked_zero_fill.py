"""A reader's slip: the left-out scores set to 0 instead of -inf; rejected, naming def-softmax."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def masked_softmax(z, mask):
    return softmax(np.where(mask, z, 0.0))
