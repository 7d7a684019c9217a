"""A reader's slip: gelu tanh constant wrong; rejected, naming def-transformer-block."""

import numpy as np


def gelu(t):
    return 0.5 * t * (1 + np.tanh(np.sqrt(2 / np.pi) * (t + 0.0447 * t**3)))
