"""What the tests of several sections of the Transformer-block chapter share: the arguments
the chapter's claims transcribe, and the wrong variants they feed its checks (a LayerNorm
dividing by the unbiased variance, in each form)."""

import numpy as np
import sympy

from numeric.block import post_ln_block, pre_ln_block
from proofs.book.registry import load_all
from symbolic import symbols as sym


def transcribed(id_: str) -> dict:
    """The arguments the element's claims feed its check, as transcribed from the chapter."""
    return load_all()[id_].arguments()


def unbiased_layer_norm(x, gamma=None, beta=None, eps=1e-5):
    """A wrong LayerNorm: divides by the unbiased variance (d - 1 in the denominator). Each
    row is taken at the power-of-two scale of its largest entry (eps scaled alike), so that
    no square of a tiny row underflows to a constant row."""
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    _, e = np.frexp(np.abs(x).max(axis=-1, keepdims=True))  # (..., 1)
    scaled = np.ldexp(x, -e)  # (..., d), largest |entry| in [0.5, 1)
    c = scaled - scaled.mean(axis=-1, keepdims=True)
    var = (c * c).sum(axis=-1, keepdims=True) / (d - 1)
    if eps == 0 and not var.all():
        raise ValueError("constant row")
    with np.errstate(over="ignore"):  # eps 2^-2e = inf: eps dominates, y = 0
        y = c / np.sqrt(var + np.ldexp(eps, -2 * e))
    return y * (1 if gamma is None else gamma) + (0 if beta is None else beta)


BLOCKS = {"pre_ln": pre_ln_block, "post_ln": post_ln_block}
LAYOUT = {"pre_ln": "Pre-LN", "post_ln": "Post-LN"}


def unbiased_indexed_layer_norm(x, k, total, spread):
    """A wrong LN for symbolic d: (x_k - mu) / sqrt(sum (x_j - mu)^2 / (d - 1))."""
    return (x[k] - total / sym.d) / sympy.sqrt(spread / (sym.d - 1))
