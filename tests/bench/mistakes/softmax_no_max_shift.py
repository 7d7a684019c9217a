"""A reader's slip: softmax no max shift; rejected, naming prop-softmax-basic."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
