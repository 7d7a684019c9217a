"""A reader's slip: gelu missing half; rejected, naming def-transformer-block."""

import numpy as np


def gelu(t):
    from scipy.special import erf

    return t * (1 + erf(t / np.sqrt(2)))
