"""§2 準備 (proofs/chapters/transformer_block/definitions.py): LayerNorm (定義 2.1),
residual connection, MLP and blocks (定義 2.2), the decoder-only model (定義 2.3). Each
check passes, and rejects wrong variants."""

import mpmath
import numpy as np
import pytest
from chapters.transformer_block.variants import BLOCKS, LAYOUT, unbiased_layer_norm

import spec
from numeric.block import post_ln_block, pre_ln_block
from numeric.error_bounds import layer_norm_error_bound
from numeric.layer_norm import layer_norm
from numeric.mlp import mlp
from numeric.model import forward, init_parameters
from numeric.running_error import block_rounding_bound, model_rounding_bound
from proofs.book.judge import CheckFailed
from proofs.chapters.transformer_block.definitions import (
    def_decoder_only_transformer,
    def_layer_norm,
    def_transformer_block,
)
from proofs.chapters.transformer_block.strategies import block_parameters
from proofs.evidence.reference import mp_error, mp_layer_norm


@pytest.mark.numeric
def test_def_layer_norm_holds():
    assert def_layer_norm()


@pytest.mark.numeric
def test_def_layer_norm_rejects_unbiased_variance():
    with pytest.raises(CheckFailed, match=r"LN\(x\) against the definition.*exceed their bound"):
        def_layer_norm(normalise=unbiased_layer_norm)


@pytest.mark.numeric
def test_def_layer_norm_rejects_silent_nan_on_constant_row():
    def nan_on_constant(x, gamma=None, beta=None, eps=1e-5):
        x = np.asarray(x, dtype=float)
        if eps == 0 and np.ptp(x) == 0:
            return np.full_like(x, np.nan)
        return layer_norm(x, gamma, beta, eps)

    with pytest.raises(CheckFailed, match="constant row"):
        def_layer_norm(normalise=nan_on_constant)


@pytest.mark.numeric
def test_def_layer_norm_rejects_a_constant_row_with_eps_that_loses_beta():
    def zero_on_constant(x, gamma=None, beta=None, eps=1e-5):
        x = np.asarray(x, dtype=float)
        if eps > 0 and np.ptp(x) == 0:
            return np.zeros_like(x)
        return layer_norm(x, gamma, beta, eps)

    with pytest.raises(CheckFailed, match="LN of a constant row with eps > 0 is"):
        def_layer_norm(normalise=zero_on_constant)


@pytest.mark.numeric
def test_def_layer_norm_rejects_a_matrix_not_normalised_row_by_row():
    def centred_by_column(x, gamma=None, beta=None, eps=1e-5):
        x = np.asarray(x, dtype=float)
        if x.ndim == 2:
            x = x - x.mean(axis=0)  # mixes the rows
        return layer_norm(x, gamma, beta, eps)

    with pytest.raises(
        CheckFailed,
        match=r"^row i of LN\(X\) against LN of row i .*: \d+ of \d+ "
        r"cases exceed their bound",
    ):
        def_layer_norm(normalise=centred_by_column)


def test_def_layer_norm_error_bound_is_relative_to_the_spread():
    # numeric.layer_norm centres by the first entry before the mean, so a large offset
    # costs no accuracy and the bound does not grow with it; centring by the mean of the
    # offset row directly loses digits and exceeds the bound
    x = np.array([0.1, 0.2, 0.3, 0.6]) + 12345.678
    bound = layer_norm_error_bound(x)
    assert bound.max() < 1e-14
    with mpmath.workdps(50):
        exact = mp_layer_norm(x)
        assert (mp_error(layer_norm(x, eps=0.0), exact) <= bound).all()
        c = x - x.mean()
        assert (mp_error(c / np.sqrt((c * c).mean()), exact) > bound).any()


@pytest.mark.numeric
def test_def_transformer_block_holds():
    assert def_transformer_block()


@pytest.mark.numeric
def test_def_transformer_block_rejects_a_block_without_residual():
    def no_residual(x, params, causal=True, activation="gelu", eps=1e-5):
        return pre_ln_block(x, params, causal, activation, eps) - x

    with pytest.raises(CheckFailed, match="Pre-LN"):
        def_transformer_block(pre_ln=no_residual)


@pytest.mark.numeric
def test_def_transformer_block_rejects_swapped_layouts():
    with pytest.raises(CheckFailed, match="Pre-LN"):
        def_transformer_block(pre_ln=post_ln_block)


@pytest.mark.numeric
def test_def_transformer_block_rejects_mlp_without_hidden_bias():
    def no_b1(x, params, activation="gelu"):
        return mlp(x, {k: v for k, v in params.items() if k != "b_1"}, activation)

    with pytest.raises(CheckFailed, match="MLP row"):
        def_transformer_block(network=no_b1)


@pytest.mark.numeric
@pytest.mark.parametrize("layout", ["pre_ln", "post_ln"])
def test_def_transformer_block_rejects_a_block_off_by_a_relative_3e_14(layout):
    # block_rounding_bound lets a relative 3e-14 through on about 1 drawn block in 10; the
    # chained Lipschitz/Frobenius bound it replaced let it through on 400 of 400, and
    # rejected the check's draws only from about 1e-13 on
    block = BLOCKS[layout]

    def drifting(x, params, causal=True, activation="gelu", eps=1e-5):
        return block(x, params, causal, activation, eps) * (1 + 3e-14)

    with pytest.raises(CheckFailed, match=f"the {LAYOUT[layout]} block differs"):
        def_transformer_block(**{layout: drifting})


@pytest.mark.numeric
@pytest.mark.parametrize("layout", ["pre_ln", "post_ln"])
def test_def_transformer_block_rejects_a_block_off_by_one_ulp(layout):
    """One ulp is within the rounding bound; the exact witness with MHA = MLP = 0 is not."""
    block = BLOCKS[layout]

    def one_ulp_up(x, params, causal=True, activation="gelu", eps=1e-5):
        return np.nextafter(block(x, params, causal, activation, eps), np.inf)

    with pytest.raises(CheckFailed, match="with MHA = MLP = 0 the " + LAYOUT[layout]):
        def_transformer_block(**{layout: one_ulp_up})


@pytest.mark.numeric
def test_def_transformer_block_rejects_a_leaky_relu():
    with pytest.raises(CheckFailed, match=r"ReLU is not max\(0, t\)"):
        def_transformer_block(relu=lambda t: np.where(t > 0, t, 0.01 * t))


@pytest.mark.numeric
def test_def_transformer_block_rejects_the_tanh_gelu():
    def tanh_gelu(t):
        return 0.5 * t * (1 + np.tanh(np.sqrt(2 / np.pi) * (t + 0.044715 * t**3)))

    with pytest.raises(CheckFailed, match=r"GELU against t Phi\(t\)"):
        def_transformer_block(gelu=tanh_gelu)


def test_def_transformer_block_rounding_bounds_are_far_below_the_values():
    # the tolerances of the block and model comparisons must not be vacuous
    rng = np.random.default_rng(0)
    p = block_parameters(4, 2, 8, rng)
    x = rng.standard_normal((5, 4))
    for post in (False, True):
        out, rounding = block_rounding_bound(x, p, post=post)
        assert rounding.max() < 1e-13 * np.abs(out).max()
    config = spec.ModelConfig(vocab=7, d=4, n_layer=2, n_head=2, d_ff=8, n_ctx=6)
    params = init_parameters(config, rng)
    tokens = np.array([1, 2, 3, 4, 5, 6])
    # the model's bound carries every rounding to the logits by the Jacobian: a few thousand
    # units of float64's roundoff, far below the changes a wrong model makes
    logits, bound = model_rounding_bound(tokens, params, config)
    assert bound.max() < 1e-12 * np.abs(logits).max()


@pytest.mark.numeric
def test_def_decoder_only_transformer_holds():
    assert def_decoder_only_transformer()


@pytest.mark.numeric
def test_def_decoder_only_transformer_rejects_shifted_logits():
    def logits_from_positions(tokens, params, config):
        x = forward(tokens, params, config)
        return x + 1e-3  # a shifted output layer

    with pytest.raises(CheckFailed, match="composition"):
        def_decoder_only_transformer(model=logits_from_positions)


@pytest.mark.numeric
def test_def_decoder_only_transformer_rejects_logits_off_by_a_relative_1e_12():
    # model_rounding_bound is below 4.4e-13 of the largest logit on every model the
    # benchmark draws; the chained Lipschitz bound it replaced let 3e-11 through at the
    # median model and 4e-8 at the worst
    def drifting(tokens, params, config):
        return forward(tokens, params, config) * (1 + 1e-12)

    with pytest.raises(CheckFailed, match="composition"):
        def_decoder_only_transformer(model=drifting)


@pytest.mark.numeric
def test_def_decoder_only_transformer_rejects_a_model_that_accepts_bad_sequences():
    def lenient(tokens, params, config):
        tokens = np.asarray(tokens)
        if len(tokens) == 0 or len(tokens) > config.n_ctx or tokens.max() >= config.vocab:
            return np.zeros((len(tokens), config.vocab))
        return forward(tokens, params, config)

    with pytest.raises(CheckFailed, match=r"\(longer than L_ctx\) did not raise ValueError"):
        def_decoder_only_transformer(model=lenient)


@pytest.mark.numeric
def test_def_decoder_only_transformer_rejects_embeddings_without_positions():
    def no_positions(tokens, params, config):
        return params["wte"][np.asarray(tokens)]

    with pytest.raises(CheckFailed, match="reversing the tokens reversed the rows"):
        def_decoder_only_transformer(embedding=no_positions)


@pytest.mark.numeric
def test_def_decoder_only_transformer_rejects_positions_added_when_there_are_none():
    def always_positioned(tokens, params, config):
        tokens = np.asarray(tokens)
        return params["wte"][tokens] + np.arange(len(tokens))[:, None]  # (n, d)

    with pytest.raises(CheckFailed, match="without positions, reversing the tokens does not"):
        def_decoder_only_transformer(embedding=always_positioned)


@pytest.mark.numeric
def test_def_decoder_only_transformer_rejects_positions_counted_twice():
    def twice(tokens, params, config):
        tokens = np.asarray(tokens)
        positions = params["wpe"][: len(tokens)] if config.positions else 0.0
        return params["wte"][tokens] + 2 * positions  # (n, d)

    with pytest.raises(CheckFailed, match=r"X\^\(0\) is not E_t \+ P"):
        def_decoder_only_transformer(embedding=twice)
