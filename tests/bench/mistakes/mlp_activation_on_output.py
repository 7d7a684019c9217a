"""A reader's slip: mlp activation on output; rejected, naming def-transformer-block."""

import numpy as np


def gelu(t):
    from scipy.special import erf

    return 0.5 * t * (1 + erf(t / np.sqrt(2)))


def mlp(x, params, activation="gelu"):
    phi = gelu if activation == "gelu" else (lambda t: np.maximum(t, 0))
    h = x @ params["w_1"] + params.get("b_1", 0)
    return phi(h @ params["w_2"] + params.get("b_2", 0))
