"""A reader's slip: softmax wrong axis; rejected, naming def-softmax."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp(z - z.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
