"""The object a check is handed, measured against the definition it stands for.

A check that judges only a property (causality, equivariance, convexity, invariance)
would pass any object with that property: attention in which each position attends
only to itself is causal, attention without the 1/sqrt(d_k) scaling is equivariant.
These functions measure the handed object against the chapter's definition evaluated
by mpmath at DIGITS digits (proofs.evidence.reference) on the inputs the check draws, and
return (error, rounding bound) for the check to judge with `judge_within`; they never
judge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

import mpmath
import numpy as np

from numeric.error_bounds import (
    attention_error_bound,
    layer_norm_error_bound,
    mha_error_bound,
    mlp_error_bound,
    unit_roundoff,
)
from proofs.evidence.reference import (
    DIGITS,
    mp_attention,
    mp_error,
    mp_layer_norm,
    mp_mlp,
    mp_multi_head_attention,
)

Measured = tuple[np.ndarray, np.ndarray]  # (|computed - definition|, its rounding bound)


def attention_off_definition(
    attention: Callable, q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None
) -> Measured:
    """attention(q, k, v, mask) against Attn of 定義 4.1 (sigma^U under a mask)."""
    out, weights = attention(q, k, v, mask)
    with mpmath.workdps(DIGITS):
        err = mp_error(np.asarray(out), mp_attention(q, k, v, mask))
    return err, attention_error_bound(q, k, v, np.asarray(weights))


def mha_off_definition(
    mha: Callable, x: np.ndarray, params: Mapping[str, np.ndarray], causal: bool
) -> Measured:
    """mha(x, params, causal=causal) against MHA of 定義 4.1, causal or not."""
    out, weights = mha(x, params, causal=causal)
    with mpmath.workdps(DIGITS):
        err = mp_error(np.asarray(out), mp_multi_head_attention(x, params, causal))
    return err, mha_error_bound(x, params, np.asarray(weights))


def stack_attention_off_definition(
    mha: Callable, layers: Sequence[tuple[str, dict]], x: np.ndarray, causal: bool
) -> Iterator[Measured]:
    """mha with each attention layer's parameters of a stack (proofs.evidence.measures.run_stack)
    against the definition, at the stack's input x."""
    for kind, params in layers:
        if kind.endswith("attn"):
            yield mha_off_definition(mha, x, params, causal)


def layer_norm_off_definition(
    normalise: Callable,
    x: np.ndarray,
    gain: np.ndarray | None = None,
    shift: np.ndarray | None = None,
    eps: float = 0.0,
) -> Measured:
    """normalise(x, gain, shift, eps=eps) of rows x (..., d) against LN of
    定義 2.1［Transformer ブロック］, row by row."""
    out = np.asarray(normalise(x, gain, shift, eps=eps))
    rows = np.reshape(x, (-1, np.shape(x)[-1]))
    with mpmath.workdps(DIGITS):
        exact = [mp_layer_norm(row, gain, shift, eps) for row in rows]
        err = mp_error(np.reshape(out, rows.shape), exact)
    return err.reshape(out.shape), layer_norm_error_bound(x, gain, shift, eps)


def mlp_off_definition(
    network: Callable, x: np.ndarray, params: Mapping[str, np.ndarray], activation: str
) -> Measured:
    """network(x, params, activation) against the MLP of 定義 2.2［Transformer ブロック］."""
    with mpmath.workdps(DIGITS):
        err = mp_error(np.asarray(network(x, params, activation)), mp_mlp(x, params, activation))
    return err, mlp_error_bound(x, np.zeros(x.shape), params, unit_roundoff(x.dtype), activation)
