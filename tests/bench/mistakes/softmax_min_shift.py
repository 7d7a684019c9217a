"""A reader's slip: softmax min shift; rejected, naming prop-softmax-basic."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp(z - z.min(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
