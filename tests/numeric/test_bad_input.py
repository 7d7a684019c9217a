"""Bad input to numeric's arrays, blocks and model, one named case each: a ValueError or a
TypeError whose message names the argument, what was expected and what came, raised before
anything large is allocated; never a NumPy traceback, a silent NaN or a wrong answer.

Cases marked "(was a bug)" answered wrongly or unclearly before: the test fails on that
code. GPT-2 files and configs are in test_numeric_bad_input_gpt2.py, spec in
test_spec_bad_input.py.
"""

import warnings

import mpmath
import numpy as np
import pytest

from numeric.activations import activation_function, gelu_tanh, relu
from numeric.attention import attention, causal_mask, multi_head_attention
from numeric.block import post_ln_block, pre_ln_block
from numeric.contraction import contract
from numeric.error_bounds import (
    gamma,
    layer_norm_error_bound,
    layer_norm_jacobian_error_bound,
    softmax_error_bound,
    subnormal,
    unit_roundoff,
)
from numeric.kv_cache import Decoder
from numeric.layer_norm import layer_norm, layer_norm_jacobian
from numeric.mlp import mlp
from numeric.model import embed, forward, init_parameters, parameter_count, sub_parameters
from numeric.softmax import masked_softmax, softmax, softmax_jacobian
from numeric.validation import as_array, as_tokens
from proofs.evidence.reference import mp_error, mp_layer_norm
from spec import ModelConfig
from spec.contractions import LM_HEAD

pytestmark = pytest.mark.numeric

CONFIG = ModelConfig(vocab=5, d=8, n_layer=1, n_head=2, d_ff=12, n_ctx=6)
PARAMS = init_parameters(CONFIG, np.random.default_rng(0))
BLOCK = sub_parameters(PARAMS, "blocks.0")
ATTN = sub_parameters(BLOCK, "attn")
MLP = sub_parameters(BLOCK, "mlp")
X = np.random.default_rng(1).standard_normal((4, 8))
HUGE = 10**7  # an (n, n) float64 array of this n needs 728 TiB


def lazy(shape):
    """An array of `shape` that allocates nothing (every entry the same zero)."""
    return np.broadcast_to(0.0, shape)


def with_entry(arr, index, value):
    out = np.array(arr, dtype=float)
    out[index] = value
    return out


def nan_activation(t):
    return np.where(t > 0, np.nan, t)


def wrong_shape_activation(t):
    return t.sum(axis=-1)


def mixed(params, key):
    """`params` with one array cast to float32 and the rest float64."""
    return {**params, key: params[key].astype(np.float32)}


REFUSED = [
    # softmax and masked softmax
    pytest.param(
        lambda: softmax(np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])),
        TypeError,
        r"z is a numpy.ma masked array.*use masked_softmax\(z.data, ~z.mask\)",
        id="softmax-masked-array-(was a bug)",
    ),
    pytest.param(
        lambda: masked_softmax(np.ma.masked_array([1.0, 2.0], mask=[0, 1]), [True, True]),
        TypeError,
        r"z is a numpy.ma masked array.*allowed positions in mask",
        id="masked_softmax-masked-array-z-(was a bug)",
    ),
    pytest.param(
        lambda: masked_softmax([1.0, 2.0], np.ma.masked_array([True, True], mask=[0, 1])),
        TypeError,
        r"mask is a numpy.ma masked array",
        id="masked_softmax-masked-mask",
    ),
    pytest.param(
        lambda: softmax(np.array([True, False])),
        TypeError,
        r"z must be a float32 or float64 array, got an array of dtype bool",
        id="softmax-bool-array",
    ),
    pytest.param(
        lambda: softmax(np.array([1 + 2j])),
        TypeError,
        r"z must be a float32 or float64 array, got an array of dtype complex128",
        id="softmax-complex-array",
    ),
    pytest.param(
        lambda: softmax(np.array([1.0, "a"], dtype=object)),
        TypeError,
        r"z must be a float32 or float64 array, got an array of dtype object",
        id="softmax-object-array",
    ),
    pytest.param(
        lambda: softmax(["a", "b"]),
        TypeError,
        r"z must be a float32 or float64 array, got list",
        id="softmax-str-list",
    ),
    pytest.param(
        lambda: softmax([[1.0], [1.0, 2.0]]),
        TypeError,
        r"z must be a float32 or float64 array, got list",
        id="softmax-ragged-list",
    ),
    pytest.param(
        lambda: softmax(np.float16([1.0])),
        TypeError,
        r"z must be a float32 or float64 array, got an array of dtype float16",
        id="softmax-float16",
    ),
    pytest.param(
        lambda: softmax(np.zeros((2, 0))),
        ValueError,
        r"z must have at least one entry along the last axis, got shape \(2, 0\)",
        id="softmax-empty-row",
    ),
    pytest.param(
        lambda: softmax(1.0),
        ValueError,
        r"z must be an array of 1 to 32 dimensions, got shape \(\)",
        id="softmax-scalar",
    ),
    pytest.param(
        lambda: softmax(np.zeros((1,) * 33)),
        ValueError,
        r"z must be an array of 1 to 32 dimensions, got shape \(1, 1,",
        id="softmax-33-dimensions-(was a bug)",
    ),
    pytest.param(
        lambda: softmax([0.0, np.nan]),
        ValueError,
        r"z must be finite, got nan at index \(1,\)",
        id="softmax-nan",
    ),
    pytest.param(
        lambda: softmax([0.0, -np.inf]),
        ValueError,
        r"z must be finite, got -inf at index \(1,\)",
        id="softmax-minus-inf",
    ),
    pytest.param(
        lambda: softmax_jacobian(lazy((HUGE,))),
        ValueError,
        r"softmax_jacobian\(z\) would need 727\.6 TiB \(shape \(10000000, 10000000\), "
        r"float64\), more than this machine's memory",
        id="softmax_jacobian-row-of-1e7-would-need-728-TiB",
    ),
    pytest.param(
        lambda: masked_softmax([1.0, 2.0], [1, 0]),
        TypeError,
        r"mask must be a boolean array \(True = position in U\), got dtype int64",
        id="masked_softmax-int-mask",
    ),
    pytest.param(
        lambda: masked_softmax([1.0, 2.0], [True, False, True]),
        ValueError,
        r"mask of shape \(3,\) does not broadcast to the scores' shape \(2,\)",
        id="masked_softmax-mask-of-the-wrong-shape",
    ),
    pytest.param(
        lambda: masked_softmax([1.0, 2.0], [[True], [True, False]]),
        TypeError,
        r"mask must be a boolean array \(True = position in U\), got list",
        id="masked_softmax-ragged-mask",
    ),
    pytest.param(
        lambda: masked_softmax(np.zeros((2, 3)), np.array([[1, 1, 1], [0, 0, 0]], dtype=bool)),
        ValueError,
        r"mask leaves row \(1,\) with no unmasked position",
        id="masked_softmax-fully-masked-row",
    ),
    # LayerNorm
    pytest.param(
        lambda: layer_norm([1.0, 2.0, 3.0], gamma=np.full(3, 1.7e308)),
        ValueError,
        r"layer_norm: the result gamma \* LN\(x\) \+ beta overflows the float64 range "
        r"\(max 1\.798e\+308\) at index \(0,\), with gamma\[0\] = 1\.7e\+308 and "
        r"beta\[0\] = 0",
        id="layer_norm-gamma-near-the-float-maximum-(was a bug)",
    ),
    pytest.param(
        lambda: layer_norm(
            np.array([1.0, 2.0, 3.0], np.float32),
            beta=np.full(3, 3.4e38, np.float32),
            gamma=np.full(3, 3e38),
        ),
        ValueError,
        r"overflows the float32 range \(max 3\.403e\+38\) at index \(2,\)",
        id="layer_norm-float32-beta-near-the-float-maximum-(was a bug)",
    ),
    pytest.param(
        lambda: layer_norm(np.ma.masked_array([1.0, 2.0], mask=[0, 1])),
        TypeError,
        r"x is a numpy.ma masked array, whose mask would be ignored",
        id="layer_norm-masked-array-(was a bug)",
    ),
    pytest.param(
        lambda: layer_norm(np.ones((2, 3), np.float32), gamma=np.full(3, 1e300)),
        ValueError,
        r"gamma must fit in float32 \(the dtype of the computation, up to "
        r"3\.403e\+38\), got 1e\+300 at index \(0,\)",
        id="layer_norm-float64-gamma-beyond-float32-(was a bug)",
    ),
    pytest.param(
        lambda: layer_norm(np.ones((2, 3)), gamma=np.ones(4)),
        ValueError,
        r"gamma must have shape \(3,\), got \(4,\)",
        id="layer_norm-gamma-of-wrong-shape",
    ),
    pytest.param(
        lambda: layer_norm(np.ones((2, 3)), beta=np.ones((1, 3))),
        ValueError,
        r"beta must be a 1-D array, got shape \(1, 3\)",
        id="layer_norm-2d-beta",
    ),
    pytest.param(
        lambda: layer_norm([1.0, 2.0], eps=-1e-5),
        ValueError,
        r"eps must be a finite float >= 0, got -1e-05",
        id="layer_norm-negative-eps",
    ),
    pytest.param(
        lambda: layer_norm([1.0, 2.0], eps=float("nan")),
        ValueError,
        r"eps must be a finite float >= 0, got nan",
        id="layer_norm-nan-eps",
    ),
    pytest.param(
        lambda: layer_norm([1.0, 2.0], eps="1e-5"),
        TypeError,
        r"eps must be a float >= 0, got str '1e-5'",
        id="layer_norm-str-eps",
    ),
    pytest.param(
        lambda: layer_norm([1.0, 2.0], eps=True),
        TypeError,
        r"eps must be a float >= 0, got bool True",
        id="layer_norm-bool-eps",
    ),
    pytest.param(
        lambda: layer_norm(np.zeros((3, 0))),
        ValueError,
        r"x must have at least one entry along the last axis, got \(3, 0\)",
        id="layer_norm-empty-row",
    ),
    pytest.param(
        lambda: layer_norm([2.0, 2.0, 2.0], eps=0.0),
        ValueError,
        r"x has a constant row \(\) and eps = 0: LN is undefined",
        id="layer_norm-constant-row-eps-0",
    ),
    pytest.param(
        lambda: layer_norm([1.0, np.inf]),
        ValueError,
        r"x must be finite, got inf at index \(1,\)",
        id="layer_norm-inf",
    ),
    pytest.param(
        lambda: layer_norm_jacobian(lazy((HUGE,))),
        ValueError,
        r"layer_norm_jacobian\(x\) would need 727\.6 TiB",
        id="layer_norm_jacobian-row-of-1e7-would-need-728-TiB",
    ),
    pytest.param(
        lambda: layer_norm_jacobian(np.array([[1.0, 2.0, 4.0], [1e-320, -1e-320, 0]])),
        ValueError,
        r"layer_norm_jacobian\(x\) \(a row of x with sigma below 1 / the "
        r"largest float\) overflowed",
        id="layer_norm_jacobian-sigma-below-1-over-max",
    ),
    # activations and the MLP
    pytest.param(
        lambda: mlp(X, MLP, activation=nan_activation),
        ValueError,
        r"activation nan_activation returned NaN at index \(\d+, \d+\) for the finite "
        r"argument",
        id="mlp-activation-returning-nan-(was a bug)",
    ),
    pytest.param(
        lambda: mlp(X, MLP, activation=wrong_shape_activation),
        TypeError,
        r"activation wrong_shape_activation must return a real array of its argument's "
        r"shape \(4, 12\), got an array of dtype float64 and shape \(4,\)",
        id="mlp-activation-of-the-wrong-shape",
    ),
    pytest.param(
        lambda: mlp(X, MLP, activation="tanh"),
        ValueError,
        r"activation must be one of \('relu', 'gelu', 'gelu_tanh'\) or a callable, got "
        r"'tanh'",
        id="mlp-unknown-activation",
    ),
    pytest.param(
        lambda: activation_function(3),
        TypeError,
        r"activation must be one of .* or a callable, got int 3",
        id="activation_function-int",
    ),
    pytest.param(
        lambda: relu("abc"),
        TypeError,
        r"t must be a float32 or float64 array, got str 'abc'",
        id="relu-str",
    ),
    pytest.param(
        lambda: gelu_tanh(["1.0"]),
        TypeError,
        r"t must be a float32 or float64 array, got list",
        id="gelu_tanh-str-list",
    ),
    pytest.param(
        lambda: mlp(np.ones((0, 8)), MLP),
        ValueError,
        r"x must have at least one position and one feature, got \(0, 8\)",
        id="mlp-empty-x",
    ),
    pytest.param(
        lambda: mlp(np.full((2, 8), 1e308), MLP),
        ValueError,
        r"mlp\(x, params\) overflowed the float64 range",
        id="mlp-overflow",
    ),
    pytest.param(
        lambda: mlp(X, {**MLP, "w_2": np.ones((8, 12))}),
        ValueError,
        r"params\['w_2'\] must have shape \(12, 8\), got \(8, 12\)",
        id="mlp-w_2-of-the-wrong-shape",
    ),
    pytest.param(
        lambda: mlp(X, {**MLP, "w_1": [[1.0], [1.0, 2.0]]}),
        TypeError,
        r"params\['w_1'\] must be a float32 or float64 array, got list",
        id="mlp-ragged-w_1",
    ),
    pytest.param(
        lambda: mlp(X, mixed(MLP, "w_2")),
        TypeError,
        r"params mixes float32 arrays \('w_2'\) and float64 arrays \('w_1', 'b_1', "
        r"'b_2'\); convert them to one dtype",
        id="mlp-params-mixing-float32-and-float64",
    ),
    pytest.param(
        lambda: mlp(X, [MLP["w_1"], MLP["w_2"]]),
        TypeError,
        r"params must be a dict of arrays, got list",
        id="mlp-params-list",
    ),
    # attention
    pytest.param(
        lambda: attention(np.ones((1, 2, 0)), np.ones((1, 2, 0)), np.ones((1, 2, 3))),
        ValueError,
        r"q and k must have d_k >= 1 features \(the scores are scaled by "
        r"1/sqrt\(d_k\)\), got q of shape \(1, 2, 0\)",
        id="attention-d_k-0-(was a bug)",
    ),
    pytest.param(
        lambda: attention(lazy((1, HUGE, 1)), lazy((1, HUGE, 1)), lazy((1, HUGE, 1))),
        ValueError,
        r"attention's weights would need 727\.6 TiB",
        id="attention-1e7-positions-would-need-728-TiB",
    ),
    pytest.param(
        lambda: attention(np.ones((2, 3, 4)), np.ones((3, 4)), np.ones((2, 3, 4))),
        ValueError,
        r"k must be a 3-D array, got shape \(3, 4\)",
        id="attention-k-of-the-wrong-ndim",
    ),
    pytest.param(
        lambda: attention(np.ones((2, 3, 4)), np.ones((1, 3, 4)), np.ones((1, 3, 4))),
        ValueError,
        r"k must have shape \(h, m, d_k\) = \(2, m, 4\), got \(1, 3, 4\)",
        id="attention-k-with-other-heads",
    ),
    pytest.param(
        lambda: attention(np.ones((2, 3, 4)), np.ones((2, 3, 5)), np.ones((2, 3, 4))),
        ValueError,
        r"k must have shape \(h, m, d_k\) = \(2, m, 4\), got \(2, 3, 5\)",
        id="attention-k-with-other-features",
    ),
    pytest.param(
        lambda: attention(np.ones((2, 3, 4)), np.ones((2, 3, 4)), np.ones((2, 5, 4))),
        ValueError,
        r"v must have shape \(h, m, d_v\) = \(2, 3, d_v\), got \(2, 5, 4\)",
        id="attention-v-of-the-wrong-length",
    ),
    pytest.param(
        lambda: attention(np.ones((1, 0, 4)), np.ones((1, 0, 4)), np.ones((1, 0, 4))),
        ValueError,
        r"q and k must have at least one position",
        id="attention-no-positions",
    ),
    pytest.param(
        lambda: attention(np.ones((1, 0, 4)), np.ones((1, 3, 4)), np.ones((1, 3, 4))),
        ValueError,
        r"q and k must have at least one position, got \(1, 0, 4\) and "
        r"\(1, 3, 4\)",
        id="attention-no-queries",
    ),
    pytest.param(
        lambda: attention(np.ones((1, 2, 4)), np.ones((1, 0, 4)), np.ones((1, 0, 4))),
        ValueError,
        r"q and k must have at least one position, got \(1, 2, 4\) and "
        r"\(1, 0, 4\)",
        id="attention-no-keys",
    ),
    pytest.param(
        lambda: attention(np.ones((1, 2, 0)), np.ones((1, 3, 0)), np.ones((1, 3, 4))),
        ValueError,
        r"q and k must have d_k >= 1 features .* got q of shape \(1, 2, 0\)",
        id="attention-no-features",
    ),
    pytest.param(
        lambda: multi_head_attention(X, ATTN, context=np.ones((0, 8))),
        ValueError,
        r"context must have shape \(m, 8\) with m >= 1, got \(0, 8\)",
        id="multi_head_attention-empty-context",
    ),
    pytest.param(
        lambda: multi_head_attention(np.ones((3, 0)), ATTN),
        ValueError,
        r"x must have at least one position and one feature, got \(3, 0\)",
        id="multi_head_attention-no-features",
    ),
    pytest.param(
        lambda: attention(np.full((1, 2, 2), 1e200), np.full((1, 2, 2), 1e200), np.ones((1, 2, 2))),
        ValueError,
        r"attention\(q, k, v\) overflowed the float64 range",
        id="attention-scores-overflow",
    ),
    pytest.param(
        lambda: multi_head_attention(X, {**ATTN, 1: ATTN["w_q"]}),
        TypeError,
        r"params has the key 1 of type int; keys must be str array names",
        id="multi_head_attention-int-params-key-(was a bug)",
    ),
    pytest.param(
        lambda: multi_head_attention(X[0], ATTN),
        ValueError,
        r"x must be a 2-D array, got shape \(8,\)",
        id="multi_head_attention-1d-x",
    ),
    pytest.param(
        lambda: multi_head_attention(X, ATTN, causal="yes"),
        TypeError,
        r"causal must be a bool, got str 'yes'",
        id="multi_head_attention-str-causal",
    ),
    pytest.param(
        lambda: multi_head_attention(X, ATTN, context=np.ones((3, 7))),
        ValueError,
        r"context must have shape \(m, 8\) with m >= 1, got \(3, 7\)",
        id="multi_head_attention-context-of-the-wrong-width",
    ),
    pytest.param(
        lambda: multi_head_attention(X, ATTN, causal=True, context=np.ones((3, 8))),
        ValueError,
        r"causal cross-attention needs m >= n",
        id="multi_head_attention-causal-context-too-short",
    ),
    pytest.param(
        lambda: multi_head_attention(X, {**ATTN, "w_q": np.ones((3, 8, 2))}),
        ValueError,
        r"h = 3 heads of d_head = 2 need d = h \* d_head = 6, got d = 8",
        id="multi_head_attention-h-not-dividing-d",
    ),
    pytest.param(
        lambda: multi_head_attention(X, {k: v for k, v in ATTN.items() if k != "w_v"}),
        ValueError,
        r"params is missing the key 'w_v'",
        id="multi_head_attention-missing-w_v",
    ),
    pytest.param(
        lambda: multi_head_attention(X, {**ATTN, "b_Q": np.ones((2, 4))}),
        ValueError,
        r"params has unexpected key 'b_Q'",
        id="multi_head_attention-misspelt-bias",
    ),
    pytest.param(
        lambda: multi_head_attention(
            X, {**ATTN, "w_k": with_entry(ATTN["w_k"], (0, 0, 0), np.inf)}
        ),
        ValueError,
        r"params\['w_k'\] must be finite, got inf at index \(0, 0, 0\)",
        id="multi_head_attention-inf-parameter",
    ),
    pytest.param(
        lambda: multi_head_attention(X, {**ATTN, "w_o": np.ones((2, 8, 4))}),
        ValueError,
        r"params\['w_o'\] must have shape \(2, 4, 8\), got \(2, 8, 4\)",
        id="multi_head_attention-w_o-of-the-wrong-shape",
    ),
    pytest.param(
        lambda: multi_head_attention(X, {**ATTN, "b_q": np.ones(8)}),
        ValueError,
        r"params\['b_q'\] must have shape \(2, 4\), got \(8,\)",
        id="multi_head_attention-b_q-of-the-wrong-shape",
    ),
    pytest.param(
        lambda: multi_head_attention(with_entry(X, (2, 3), np.nan), ATTN),
        ValueError,
        r"x must be finite, got nan at index \(2, 3\)",
        id="multi_head_attention-nan-x",
    ),
    pytest.param(
        lambda: multi_head_attention(X, ATTN, context=np.full((3, 8), -np.inf)),
        ValueError,
        r"context must be finite, got -inf",
        id="multi_head_attention-infinite-context",
    ),
    pytest.param(
        lambda: multi_head_attention(np.ones((0, 8)), ATTN),
        ValueError,
        r"x must have at least one position and one feature, got \(0, 8\)",
        id="multi_head_attention-empty-x",
    ),
    pytest.param(
        lambda: multi_head_attention(
            (X * 1e20).astype(np.float32), {k: v.astype(np.float32) for k, v in ATTN.items()}
        ),
        ValueError,
        r"multi_head_attention\(x, params\) overflowed the float32 range",
        id="multi_head_attention-float32-scores-overflow",
    ),
    pytest.param(
        lambda: multi_head_attention(lazy((HUGE, 8)), ATTN),
        ValueError,
        r"multi_head_attention's weights would need 1\.421 PiB \(shape \(2, 10000000, "
        r"10000000\), float64\)",
        id="multi_head_attention-1e7-positions-need-1.4-PiB",
    ),
    pytest.param(
        lambda: causal_mask(HUGE),
        ValueError,
        r"causal_mask\(n, m\) would need 90\.95 TiB \(shape \(10000000, 10000000\), "
        r"bool\)",
        id="causal_mask-1e7-would-need-91-TiB",
    ),
    pytest.param(
        lambda: causal_mask(2.5),
        TypeError,
        r"n must be an int, got float 2\.5",
        id="causal_mask-non-integer-size-(was a bug)",
    ),
    pytest.param(
        lambda: causal_mask(True),
        TypeError,
        r"n must be an int, got bool True",
        id="causal_mask-bool-size-(was a bug)",
    ),
    pytest.param(
        lambda: causal_mask(0), ValueError, r"n must be >= 1, got 0", id="causal_mask-zero-size"
    ),
    pytest.param(
        lambda: causal_mask(4, 3),
        ValueError,
        r"m must be >= n",
        id="causal_mask-fewer-keys-than-queries",
    ),
    # blocks
    pytest.param(
        lambda: pre_ln_block(X, {**BLOCK, 3: BLOCK["ln_1.gamma"]}),
        TypeError,
        r"params has the key 3 of type int; keys must be str array names",
        id="pre_ln_block-int-params-key-(was a bug)",
    ),
    pytest.param(
        lambda: pre_ln_block(X, mixed(BLOCK, "ln_2.beta")),
        TypeError,
        r"params mixes float32 arrays \('ln_2.beta'\) and float64 arrays",
        id="pre_ln_block-params-mixing-float32-and-float64-(was a bug)",
    ),
    pytest.param(
        lambda: pre_ln_block(X[None], BLOCK),
        ValueError,
        r"x must be a 2-D array, got shape \(1, 4, 8\)",
        id="pre_ln_block-3d-x",
    ),
    pytest.param(
        lambda: pre_ln_block(X, BLOCK, return_weights="yes"),
        TypeError,
        r"return_weights must be a bool, got str 'yes'",
        id="pre_ln_block-str-return_weights",
    ),
    pytest.param(
        lambda: pre_ln_block(X, BLOCK, eps=-1),
        ValueError,
        r"eps must be a finite float >= 0, got -1",
        id="pre_ln_block-negative-eps",
    ),
    pytest.param(
        lambda: pre_ln_block(X, {k: v for k, v in BLOCK.items() if k != "ln_1.beta"}),
        ValueError,
        r"missing the key 'ln_1.beta'",
        id="pre_ln_block-missing-beta",
    ),
    pytest.param(
        lambda: pre_ln_block(X, {**BLOCK, "attn_w_q": ATTN["w_q"]}),
        ValueError,
        r"unexpected key 'attn_w_q'",
        id="pre_ln_block-key-outside-the-groups",
    ),
    pytest.param(
        lambda: post_ln_block(X, {**BLOCK, "ln_2.gamma": np.ones(7)}),
        ValueError,
        r"params\['ln_2.gamma'\] must have shape \(8,\)",
        id="post_ln_block-gamma-of-the-wrong-shape",
    ),
    pytest.param(
        lambda: post_ln_block(X * 1e160, BLOCK),
        ValueError,
        r"the block's output overflowed the float64 range",
        id="post_ln_block-overflow",
    ),
    # the model and the decoder
    pytest.param(
        lambda: forward([0, 1], mixed(PARAMS, "wte"), CONFIG),
        TypeError,
        r"params mixes float32 arrays \('wte'\) and float64 arrays \('wpe', "
        r"'blocks.0.ln_1.gamma', 'blocks.0.ln_1.beta'\)",
        id="forward-params-mixing-float32-and-float64-(was a bug)",
    ),
    pytest.param(
        lambda: forward([0, 1], {**PARAMS, (0, 1): PARAMS["wte"]}, CONFIG),
        TypeError,
        r"params has the key \(0, 1\) of type tuple",
        id="forward-tuple-params-key",
    ),
    pytest.param(
        lambda: forward([0.0, 1.0], PARAMS, CONFIG),
        TypeError,
        r"tokens must be integer token ids, got list",
        id="forward-float-tokens",
    ),
    pytest.param(
        lambda: forward(2.5, PARAMS, CONFIG),
        TypeError,
        r"tokens must be integer token ids, got float 2\.5",
        id="forward-token-2.5",
    ),
    pytest.param(
        lambda: forward(True, PARAMS, CONFIG),
        TypeError,
        r"tokens must be integer token ids, got bool True",
        id="forward-token-True",
    ),
    pytest.param(
        lambda: forward([0, 5], PARAMS, CONFIG),
        ValueError,
        r"tokens must be ids in \[0, 5\), got 5 at position 1",
        id="forward-token-out-of-range",
    ),
    pytest.param(
        lambda: forward([], PARAMS, CONFIG),
        ValueError,
        r"tokens must not be empty",
        id="forward-no-tokens",
    ),
    pytest.param(
        lambda: forward(list(range(5)) * 2, PARAMS, CONFIG),
        ValueError,
        r"tokens has length 10, longer than the context length 6",
        id="forward-longer-than-the-context",
    ),
    pytest.param(
        lambda: forward([0], PARAMS, {"d": 8}),
        TypeError,
        r"config must be a spec.ModelConfig, got dict",
        id="forward-config-dict",
    ),
    pytest.param(
        lambda: embed(np.ma.masked_array([0, 1], mask=[0, 1]), PARAMS, CONFIG),
        TypeError,
        r"tokens is a numpy.ma masked array",
        id="embed-masked-tokens",
    ),
    pytest.param(
        lambda: init_parameters(
            ModelConfig(vocab=10**9, d=4096, n_layer=1, n_head=1, d_ff=1, n_ctx=1),
            np.random.default_rng(0),
        ),
        ValueError,
        r"the 4,096,067,166,209 parameters of this configuration would need "
        r"29\.8 TiB",
        id="init_parameters-30-TiB-model",
    ),
    pytest.param(
        lambda: init_parameters(CONFIG, 0),
        TypeError,
        r"rng must be a numpy.random.Generator, got int",
        id="init_parameters-int-rng",
    ),
    pytest.param(
        lambda: init_parameters(CONFIG, np.random.default_rng(0), dtype=np.float16),
        TypeError,
        r"dtype must be float32 or float64, got float16",
        id="init_parameters-float16",
    ),
    pytest.param(
        lambda: init_parameters(CONFIG, np.random.default_rng(0), dtype="banana"),
        TypeError,
        r"dtype must be float32 or float64, got 'banana'",
        id="init_parameters-unknown-dtype",
    ),
    pytest.param(
        lambda: Decoder(
            {},
            ModelConfig(vocab=5, d=8, n_layer=1, n_head=2, d_ff=4, n_ctx=10**10, positions=False),
        ),
        ValueError,
        r"params is missing the key 'wte'",
        id="Decoder-missing-params",
    ),
    pytest.param(
        lambda: Decoder(
            {k: v for k, v in PARAMS.items() if k != "wpe"},
            ModelConfig(vocab=5, d=8, n_layer=1, n_head=2, d_ff=12, n_ctx=10**10, positions=False),
        ),
        ValueError,
        r"the key/value cache would need 1\.164 TiB",
        id="Decoder-context-of-1e10-would-need-1.2-TiB",
    ),
    pytest.param(
        lambda: Decoder(PARAMS, CONFIG).feed([1] * 7),
        ValueError,
        r"tokens has length 7, longer than the context length 6",
        id="Decoder-feed-longer-than-the-context",
    ),
    # shared helpers
    pytest.param(
        lambda: contract(LM_HEAD, lazy((HUGE, 1)), lazy((HUGE, 1))),
        ValueError,
        r"lm_head \(nd,vd->nv\) would need 727\.6 TiB",
        id="contract-result-of-728-TiB",
    ),
    pytest.param(
        lambda: contract("nd,vd->nv", X, X),
        TypeError,
        r"c must be a spec.contractions.Contraction, got str",
        id="contract-str",
    ),
    pytest.param(
        lambda: parameter_count({**MLP, "w_1": "abc"}),
        TypeError,
        r"params\['w_1'\] must be a float32 or float64 array, got str 'abc'",
        id="parameter_count-str-array",
    ),
    pytest.param(
        lambda: sub_parameters(BLOCK, 3),
        TypeError,
        r"prefix must be a str such as 'blocks.0', got int",
        id="sub_parameters-int",
    ),
    pytest.param(
        lambda: as_array(np.ones(3), "x", dtype=np.int32),
        TypeError,
        r"dtype must be float32 or float64, got int32",
        id="as_array-int-dtype",
    ),
    pytest.param(
        lambda: as_tokens([[0, 1]], "tokens", 5, 6),
        ValueError,
        r"tokens must be a 1-D sequence of ids, got shape \(1, 2\)",
        id="as_tokens-2d",
    ),
    pytest.param(
        lambda: softmax_error_bound([1.0, 2.0], [0.5, 0.25, 0.25]),
        ValueError,
        r"sigma must have shape \(2,\), got \(3,\)",
        id="softmax_error_bound-sigma-of-another-shape",
    ),
    pytest.param(
        lambda: layer_norm_error_bound([[1.0, np.nan]]),
        ValueError,
        r"x must be finite, got nan at index \(0, 1\)",
        id="layer_norm_error_bound-nan",
    ),
    pytest.param(
        lambda: unit_roundoff(np.int64),
        TypeError,
        r"dtype must be float32 or float64, got int64",
        id="unit_roundoff-int-dtype",
    ),
    pytest.param(
        lambda: subnormal("float128"),
        TypeError,
        r"dtype must be float32 or float64",
        id="subnormal-float128",
    ),
    pytest.param(
        lambda: gamma(2**53),
        ValueError,
        r"gamma_k needs 0 <= k u < 1, got k = 9007199254740992",
        id="gamma-k-u-not-below-1",
    ),
    pytest.param(
        lambda: gamma(2.5),
        TypeError,
        r"k must be an int >= 0, got float 2\.5",
        id="gamma-non-integer-k",
    ),
]


@pytest.mark.parametrize("call, error, message", REFUSED)
def test_bad_input_is_refused_naming_it(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_the_catalogue_names_each_case_once():
    ids = [case.id for case in REFUSED]
    assert len(ids) == len(set(ids)) >= 100


BETA = np.array([0.25, -1.0, 3.0, 0.5])
ANSWERED = [
    pytest.param(np.full(4, 1e160), BETA, 1e-5, id="layer_norm-constant-row-1e160-eps-(was a bug)"),
    pytest.param(
        np.full((2, 4), -1.7e308),
        BETA,
        1e-5,
        id="layer_norm-constant-rows-at-the-float-maximum-eps-(was a bug)",
    ),
    pytest.param(
        np.full(4, 1e20, np.float32),
        BETA.astype(np.float32),
        1e-5,
        id="layer_norm-float32-constant-row-1e20-eps-(was a bug)",
    ),
    pytest.param(
        np.full(4, -3.4e38, np.float32),
        BETA.astype(np.float32),
        1.0,
        id="layer_norm-float32-constant-row-at-the-float-maximum-eps",
    ),
    pytest.param(
        np.array([1e-320, -1e-320, 3e-320, 0.0]),
        None,
        1e-5,
        id="layer_norm-subnormal-row-eps-(was a bug)",
    ),
    pytest.param(
        np.array([1e-310, 3e-310, -2e-310, 5e-324]), None, 0.0, id="layer_norm-subnormal-row-eps-0"
    ),
    pytest.param(
        np.array([1.7e308, -1.7e308, 0.0, 1.0]),
        BETA,
        1e-5,
        id="layer_norm-row-spanning-the-float-range",
    ),
    pytest.param(
        np.array([1.0, 2.0, 3.0, 4.0], np.float32),
        None,
        1e300,
        id="layer_norm-float32-eps-1e300-(was a bug)",
    ),
]


@pytest.mark.parametrize("x, beta, eps", ANSWERED)
def test_extreme_rows_get_the_definition_within_the_rounding_bound(x, beta, eps):
    """Against 定義 2.1 at 50 digits, within layer_norm_error_bound (a constant row gives
    beta exactly, since its centred row is exactly 0)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow warning is not an answer either
        out = layer_norm(x, beta=beta, eps=eps)
    assert out.dtype == x.dtype
    with mpmath.workdps(50):
        rows = np.atleast_2d(np.asarray(x, np.float64))
        shift = None if beta is None else np.asarray(beta, np.float64)
        exact = [mp_layer_norm(row, None, shift, eps) for row in rows]
        err = mp_error(np.atleast_2d(out), exact)
    assert (err <= layer_norm_error_bound(np.atleast_2d(x), None, beta, eps)).all()


def test_layer_norm_gamma_and_beta_that_cancel_near_the_float_maximum_give_the_result():
    """gamma y = -2.08e308 overflows on the way, gamma y + beta = -3.8e307 does not: the
    result is evaluated halved, 2 (y (gamma / 2) + beta / 2). Its bound is taken at gamma / 2
    and beta / 2 (the rounding terms scale with them) and doubled, since gamma y itself is
    not a float. (was a bug: inf)"""
    x, g, b = np.array([1.0, 2.0, 3.0]), np.full(3, 1.7e308), np.array([1.7e308, 0, -1.7e308])
    out = layer_norm(x, g, b, eps=1e-5)
    with mpmath.workdps(50):
        err = mp_error(out, mp_layer_norm(x, g, b, 1e-5))
    assert (err <= 2 * layer_norm_error_bound(x, g / 2, b / 2, 1e-5)).all()
    assert np.isfinite(out).all() and out[0] < 0 < out[2]


@pytest.mark.parametrize(
    "x, eps",
    [
        pytest.param(
            np.full(3, 1e160), 1e-5, id="layer_norm_jacobian-constant-row-1e160-eps-(was a bug)"
        ),
        pytest.param(
            np.ones(3, np.float32),
            1e-50,
            id="layer_norm_jacobian-float32-constant-row-eps-1e-50-(was a bug)",
        ),
        pytest.param(
            np.array([1.0, 2.0, 3.0], np.float32),
            1e300,
            id="layer_norm_jacobian-float32-eps-1e300-(was a bug)",
        ),
    ],
)
def test_layer_norm_jacobian_of_extreme_rows_is_the_definition(x, eps):
    """J = (I - 1 1^T / d - y y^T / d) / s, here finite although eps is not a float32 or
    sigma^2 + eps underflows in the row's scale (was a bug: 'overflowed', or an overflow
    warning from casting eps)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jac = layer_norm_jacobian(x, eps)
    with mpmath.workdps(50):
        row = [mpmath.mpf(float(v)) for v in x]
        mu = mpmath.fsum(row) / len(row)
        s = mpmath.sqrt(mpmath.fsum((v - mu) ** 2 for v in row) / len(row) + mpmath.mpf(eps))
        y = [(v - mu) / s for v in row]
        exact = [
            [(int(i == j) - (1 + y[i] * y[j]) / len(row)) / s for j in range(len(row))]
            for i in range(len(row))
        ]
        err = mp_error(jac, exact)
    assert (err <= layer_norm_jacobian_error_bound(x, eps)).all()


def test_gelu_tanh_of_a_scalar_is_a_scalar_value():
    """A 0-d argument went through an in-place exp into a NumPy scalar (was a bug: a raw
    'return arrays must be of ArrayType')."""
    assert gelu_tanh(3.0) == gelu_tanh(np.array([3.0]))[0]
