"""LayerNorm by the shifted-data variance (the first entry subtracted first)."""

import numpy as np


def layer_norm(x, gamma, beta, eps):
    shifted = x - x[..., :1]
    c = shifted - shifted.mean(axis=-1, keepdims=True)
    var = np.einsum("...i,...i->...", c, c)[..., None] / x.shape[-1]
    return gamma * c / np.sqrt(var + eps) + beta
