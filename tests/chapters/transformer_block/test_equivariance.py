"""§7 同変性と因果性 (proofs/chapters/transformer_block/equivariance.py): row-wise
maps (命題 7.1), equivariance and causality of blocks and model (命題 7.2). Each check
passes, and rejects wrong variants."""

import numpy as np
import pytest
from chapters.transformer_block.variants import BLOCKS, LAYOUT, unbiased_layer_norm

from numeric.block import pre_ln_block
from numeric.kv_cache import Decoder
from numeric.mlp import mlp
from numeric.model import forward
from proofs.book.judge import CheckFailed
from proofs.chapters.transformer_block.equivariance import (
    prop_block_equivariance_causality,
    prop_row_wise_maps,
)


@pytest.mark.numeric
def test_prop_row_wise_maps_holds():
    assert prop_row_wise_maps()


@pytest.mark.numeric
def test_prop_row_wise_maps_rejects_an_mlp_that_mixes_rows():
    def mixing(x, params, activation="gelu"):
        out = mlp(x, params, activation)
        return out + out.mean(axis=0)

    with pytest.raises(CheckFailed, match="MLP"):
        prop_row_wise_maps(network=mixing)


@pytest.mark.numeric
def test_prop_row_wise_maps_rejects_a_layer_norm_over_columns():
    def over_columns(x, gamma=None, beta=None, eps=1e-5):
        x = np.asarray(x, dtype=float)
        return (x - x.mean(axis=0)) / np.sqrt(x.var(axis=0) + eps)

    with pytest.raises(CheckFailed, match="LN"):
        prop_row_wise_maps(normalise=over_columns)


@pytest.mark.numeric
def test_prop_row_wise_maps_rejects_an_mlp_without_its_activation():
    def linear(x, params, activation="gelu"):
        return mlp(x, params, activation=lambda t: t)  # row-wise, but not 定義 2.2's MLP

    with pytest.raises(CheckFailed, match="not 定義 2.2's"):
        prop_row_wise_maps(network=linear)


@pytest.mark.numeric
def test_prop_row_wise_maps_rejects_a_layer_norm_with_unbiased_variance():
    with pytest.raises(CheckFailed, match="not 定義 2.1's"):
        prop_row_wise_maps(normalise=unbiased_layer_norm)


@pytest.mark.numeric
def test_prop_row_wise_maps_rejects_a_model_mixing_positions():
    def mixing(tokens, params, config):
        logits = forward(tokens, params, config)
        return logits + logits.mean(axis=0)

    with pytest.raises(CheckFailed, match="without attention, logits at a position where"):
        prop_row_wise_maps(model=mixing)


@pytest.mark.numeric
def test_prop_block_equivariance_causality_holds():
    assert prop_block_equivariance_causality()


@pytest.mark.numeric
def test_prop_block_equivariance_causality_rejects_an_unmasked_causal_block():
    def leaky(x, params, causal=True, activation="gelu"):
        return pre_ln_block(x, params, causal=False, activation=activation)

    with pytest.raises(CheckFailed, match="causal"):
        prop_block_equivariance_causality(pre_ln=leaky)


@pytest.mark.numeric
@pytest.mark.parametrize("layout", ["pre_ln", "post_ln"])
def test_prop_block_equivariance_causality_rejects_a_block_off_by_3e_14_times_the_position(layout):
    # row i scaled by 1 + 3e-14 i: still causal, no longer equivariant. The entrywise bound
    # rejects it on about 7 drawn blocks in 10, the chained Frobenius bound on none of 400
    # (it needed about 1e-13)
    block = BLOCKS[layout]

    def positional(x, params, causal=True, activation="gelu"):
        out = block(x, params, causal, activation)
        return out * (1 + 3e-14 * np.arange(len(out))[:, None])

    with pytest.raises(CheckFailed, match=f"{LAYOUT[layout]} block without mask"):
        prop_block_equivariance_causality(**{layout: positional})


@pytest.mark.numeric
@pytest.mark.parametrize("layout", ["pre_ln", "post_ln"])
def test_prop_block_equivariance_causality_rejects_a_causal_block_reading_later_rows_by_1e_13(
    layout,
):
    # with the mask, every row gets 1e-13 of the column sums of |out| (a permutation leaves
    # them alone): the entrywise bound rejects it on about half the drawn blocks (those
    # where later rows change), the chained Frobenius bound on 1 in 100 and on none of
    # the check's draws (it needed about 1e-12)
    block = BLOCKS[layout]

    def peeking(x, params, causal=True, activation="gelu"):
        out = block(x, params, causal, activation)
        return out + 1e-13 * np.abs(out).sum(axis=0) if causal else out

    with pytest.raises(CheckFailed, match=f"causal {LAYOUT[layout]} block"):
        prop_block_equivariance_causality(**{layout: peeking})


@pytest.mark.numeric
def test_prop_block_equivariance_causality_rejects_a_model_reading_the_future():
    def backwards(tokens, params, config):
        return forward(np.asarray(tokens)[::-1], params, config)[::-1]

    with pytest.raises(CheckFailed, match="^logits 1..i moved when the tokens after i changed"):
        prop_block_equivariance_causality(model=backwards)


@pytest.mark.numeric
def test_prop_block_equivariance_causality_rejects_a_decoder_off_by_a_relative_1e_12():
    class Drifting(Decoder):
        def feed(self, tokens):
            return super().feed(tokens) * (1 + 1e-12)

    with pytest.raises(CheckFailed, match="KV-cache decoder"):
        prop_block_equivariance_causality(decoder=Drifting)


@pytest.mark.numeric
def test_prop_block_equivariance_causality_rejects_a_decoder_that_drops_the_cache():
    class Forgetful:
        def __init__(self, params, config):
            self.inner = (params, config)

        def feed(self, tokens):
            params, config = self.inner
            return forward(np.asarray(tokens), params, config)

    with pytest.raises(CheckFailed, match="KV-cache"):
        prop_block_equivariance_causality(decoder=Forgetful)


@pytest.mark.numeric
def test_prop_block_equivariance_causality_rejects_logits_that_drift_with_the_length():
    def lengthening(tokens, params, config):
        # exact for one token, so the decoder (fed one token at a time) still agrees there
        return forward(tokens, params, config) * (1 + 1e-9 * (len(tokens) - 1))

    with pytest.raises(
        CheckFailed,
        match=r"^logits of the prefix 1\.\.k differ from row k: \d+ of "
        r"\d+ cases exceed their bound; worst: the prefix 1\.\.",
    ):
        prop_block_equivariance_causality(model=lengthening)


@pytest.mark.numeric
def test_prop_block_equivariance_causality_rejects_a_decoder_giving_each_chunks_last_logits():
    class LastOnly(Decoder):
        def feed(self, tokens):
            return super().feed(tokens)[-1:]

    with pytest.raises(CheckFailed, match=r"fed in chunks \[\d+, \d+\] gives logits of shape"):
        prop_block_equivariance_causality(decoder=LastOnly)


@pytest.mark.numeric
def test_prop_block_equivariance_causality_rejects_a_block_without_attention():
    """Row by row, hence equivariant and causal: only the witness that the mask matters
    fails."""

    def without_attention(x, params, causal=True, activation="gelu"):
        silenced = dict(params, **{"attn.w_o": np.zeros_like(params["attn.w_o"])})
        return pre_ln_block(x, silenced, causal, activation)

    with pytest.raises(CheckFailed, match="witness lost: without the mask the first row"):
        prop_block_equivariance_causality(pre_ln=without_attention)


def test_the_remembered_rounding_bounds_equal_fresh_ones():
    from numeric.model import init_parameters
    from numeric.running_error import block_rounding_bound, model_rounding_bound
    from proofs.chapters.transformer_block.equivariance import _block_bound, _model_bound
    from proofs.chapters.transformer_block.strategies import block_parameters
    from spec.config import ModelConfig

    rng = np.random.default_rng(3)
    p, x = block_parameters(4, 2, 8, rng), rng.standard_normal((3, 4))
    for post in (False, True):
        kept = _block_bound(x, p, post, True, "gelu")
        fresh = block_rounding_bound(x, p, post, True, "gelu")
        assert all((a == b).all() for a, b in zip(kept, fresh, strict=True))
    config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
    params, tokens = init_parameters(config, rng), np.array([0, 4, 2])
    kept = _model_bound(tokens, params, config)
    fresh = model_rounding_bound(tokens, params, config)
    assert all((a == b).all() for a, b in zip(kept, fresh, strict=True))
    assert _model_bound(tokens.copy(), dict(params), config) is kept  # the same contents
