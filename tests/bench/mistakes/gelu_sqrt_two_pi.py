"""A reader's slip: gelu sqrt two pi; rejected, naming def-transformer-block."""

import numpy as np


def gelu(t):
    return 0.5 * t * (1 + np.tanh(np.sqrt(2 * np.pi) * (t + 0.044715 * t**3)))
