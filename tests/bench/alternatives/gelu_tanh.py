"""GPT-2's tanh approximation of GELU (judged as such, and said so)."""

import numpy as np


def gelu(t):
    return 0.5 * t * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (t + 0.044715 * t**3)))
