"""Hypothesis strategies and parameter builders shared by the Transformer-block checks."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import spec
from numeric.model import init_parameters, sub_parameters
from proofs.evidence.measures import spread


def block_parameters(d: int, h: int, d_ff: int, rng: np.random.Generator) -> dict:
    """Generic parameters of one block: the first block of a one-layer model, allocated from
    spec by init_parameters (gamma = 1 + N(0, 0.01), beta and biases N(0, 0.01))."""
    config = spec.ModelConfig(vocab=2, d=d, n_layer=1, n_head=h, d_ff=d_ff, n_ctx=2)
    return sub_parameters(init_parameters(config, rng), "blocks.0")


def vectors(d_min: int = 2, d_max: int = 16, bound: float = 100.0):
    """Hypothesis: float64 vectors of width d_min..d_max, entries in [-bound, bound],
    not constant (sigma >= 1e-3 max|x|, so that the condition number max|x| / sigma of
    LN is at most 1e3; rows closer to constant are tested apart).

    >>> from hypothesis import find
    >>> x = find(vectors(3, 5, bound=1.0), lambda x: len(x) == 4)
    >>> x.shape, bool(x.std() > 0)
    ((4,), True)
    """
    element_ = st.floats(-bound, bound, allow_nan=False, allow_infinity=False)

    def spread_out(x: np.ndarray) -> bool:
        return spread(x) >= 1e-3 * max(float(np.abs(x).max()), 1e-300)

    return (
        st.integers(d_min, d_max)
        .flatmap(lambda d: st.lists(element_, min_size=d, max_size=d))
        .map(np.array)
        .filter(spread_out)
    )


def seeds():
    """Hypothesis: seeds of the NumPy generators that draw parameters and inputs.

    >>> from hypothesis import find
    >>> find(seeds(), lambda s: s > 10)
    11
    """
    return st.integers(0, 2**32 - 1)


@st.composite
def block_cases(draw):
    """Hypothesis: a block as the block checks draw it (n = 1..6, (d, h) in (2, 1), (2, 2),
    (4, 2), (6, 3), d_ff = 1..8, generic parameters), an input X ~ N(0, 1) of shape (n, d),
    ReLU or GELU, and whether the attention is causal."""
    n, (d, h) = draw(st.integers(1, 6)), draw(st.sampled_from([(2, 1), (2, 2), (4, 2), (6, 3)]))
    d_ff, rng = draw(st.integers(1, 8)), np.random.default_rng(draw(seeds()))
    p = block_parameters(d, h, d_ff, rng)
    return (
        p,
        rng.standard_normal((n, d)),
        draw(st.sampled_from(["relu", "gelu"])),
        draw(st.booleans()),
    )


def configurations(max_layers: int = 2):
    """Hypothesis: small model configurations, with the variants of 定理 5.1 (biases,
    tied output, learned positions) switched independently."""
    widths = st.sampled_from([(2, 1), (2, 2), (4, 1), (4, 2), (6, 3)])
    return st.builds(
        lambda dh, vocab, layers, d_ff, n_ctx, bias, tied, positions: spec.ModelConfig(
            vocab=vocab,
            d=dh[0],
            n_layer=layers,
            n_head=dh[1],
            d_ff=d_ff,
            n_ctx=n_ctx,
            bias=bias,
            tied=tied,
            positions=positions,
        ),
        widths,
        st.integers(2, 12),
        st.integers(1, max_layers),
        st.integers(1, 8),
        st.integers(1, 8),
        st.booleans(),
        st.booleans(),
        st.booleans(),
    )


@st.composite
def model_cases(draw):
    """Hypothesis: a drawn configuration, its generator, its initialised parameters and a
    token sequence that fits its context."""
    config = draw(configurations())
    rng = np.random.default_rng(draw(seeds()))
    params = init_parameters(config, rng)
    n = draw(st.integers(1, config.n_ctx))
    return config, rng, params, rng.integers(0, config.vocab, n)
