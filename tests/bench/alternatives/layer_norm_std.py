"""LayerNorm through np.std and a multiplication by the reciprocal."""

import numpy as np


def layer_norm(x, gamma, beta, eps):
    centred = x - x.mean(axis=-1, keepdims=True)
    inv = 1.0 / np.sqrt(np.std(x, axis=-1, keepdims=True) ** 2 + eps)
    return centred * inv * gamma + beta
