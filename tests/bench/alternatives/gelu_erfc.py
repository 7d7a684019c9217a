"""GELU through erfc, free of cancellation in the left tail."""

import numpy as np
from scipy.special import erfc


def gelu(t):
    return t * erfc(-t / np.sqrt(2.0)) / 2
