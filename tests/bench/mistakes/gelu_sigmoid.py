"""A reader's slip: gelu sigmoid; rejected, naming def-transformer-block."""

import numpy as np


def gelu(t):
    return t / (1 + np.exp(-1.702 * t))
