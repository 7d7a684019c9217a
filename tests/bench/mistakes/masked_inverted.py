"""A reader's slip: masked inverted; rejected, naming def-softmax."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def masked_softmax(z, mask):
    if not (~np.asarray(mask)).any(axis=-1).all():
        raise ValueError("a row with nothing to attend to")
    return softmax(np.where(mask, -np.inf, z))
