"""A reader's slip: ln wrong axis; rejected, naming def-layer-norm."""

import numpy as np


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=0, keepdims=True)
    var = x.var(axis=0, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta
