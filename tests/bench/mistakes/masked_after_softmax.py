"""A reader's slip: masked after softmax; rejected, naming def-softmax."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def masked_softmax(z, mask):
    return softmax(z) * mask
