"""softmax as exp(x - log sum exp x), x = z - max z."""

import numpy as np


def softmax(z):
    x = z - z.max(axis=-1, keepdims=True)
    return np.exp(x - np.log(np.exp(x).sum(axis=-1, keepdims=True)))


def masked_softmax(z, mask):
    return softmax(np.where(mask, z, -np.inf))
