"""Bad input to the numeric building blocks: a ValueError or TypeError naming the argument,
what was expected and what came."""

import numpy as np
import pytest

from numeric.attention import attention, causal_mask, multi_head_attention
from numeric.block import post_ln_block, pre_ln_block
from numeric.finite_differences import central_jacobian
from numeric.layer_norm import layer_norm_jacobian
from numeric.mlp import mlp
from numeric.model import init_parameters, parameter_count, sub_parameters
from numeric.validation import as_array
from spec import ModelConfig

pytestmark = pytest.mark.numeric

CONFIG = ModelConfig(vocab=5, d=8, n_layer=1, n_head=2, d_ff=12, n_ctx=6)
BLOCK = sub_parameters(init_parameters(CONFIG, np.random.default_rng(0)), "blocks.0")
ATTN = sub_parameters(BLOCK, "attn")
MLP = sub_parameters(BLOCK, "mlp")
X = np.random.default_rng(1).standard_normal((4, 8))


def test_as_array_rejects_non_float_data_naming_the_argument():
    with pytest.raises(TypeError, match="x must be a float32 or float64 array, got list"):
        as_array(["a", "b"], "x")
    with pytest.raises(TypeError, match="x must be a float32 or float64 array"):
        as_array(np.array([1 + 2j]), "x")
    with pytest.raises(TypeError, match="x must be a float32 or float64 array"):
        as_array([[1.0], [1.0, 2.0]], "x")
    assert as_array([1, 2], "x").dtype == np.float64


def test_wrong_ndim():
    with pytest.raises(ValueError, match=r"x must be a 2-D array, got shape \(8,\)"):
        multi_head_attention(X[0], ATTN)
    with pytest.raises(ValueError, match=r"x must be a 2-D array, got shape \(1, 4, 8\)"):
        pre_ln_block(X[None], BLOCK)
    with pytest.raises(ValueError, match=r"k must be a 3-D array"):
        attention(np.ones((2, 3, 4)), np.ones((3, 4)), np.ones((2, 3, 4)))


def test_empty_sequence():
    with pytest.raises(ValueError, match=r"x must have at least one position"):
        multi_head_attention(np.ones((0, 8)), ATTN)
    with pytest.raises(ValueError, match=r"x must have at least one position"):
        mlp(np.ones((0, 8)), MLP)
    with pytest.raises(ValueError, match=r"q and k must have at least one position"):
        attention(np.ones((1, 0, 4)), np.ones((1, 0, 4)), np.ones((1, 0, 4)))


def test_d_not_divisible_by_h():
    w = {**ATTN, "w_q": np.ones((3, 8, 2))}
    with pytest.raises(ValueError, match=r"h = 3 heads of d_head = 2 need d = h \* d_head = 6, "
                                         r"got d = 8 \(h must divide d\)"):
        multi_head_attention(X, w)


def test_parameter_arrays_of_the_wrong_shape():
    with pytest.raises(ValueError, match=r"params\['w_o'\] must have shape \(2, 4, 8\), got "
                                         r"\(2, 8, 4\)"):
        multi_head_attention(X, {**ATTN, "w_o": np.ones((2, 8, 4))})
    with pytest.raises(ValueError, match=r"params\['b_q'\] must have shape \(2, 4\), got \(8,\)"):
        multi_head_attention(X, {**ATTN, "b_q": np.ones(8)})
    with pytest.raises(ValueError, match=r"params\['w_2'\] must have shape \(12, 8\)"):
        mlp(X, {**MLP, "w_2": np.ones((8, 12))})
    with pytest.raises(ValueError, match=r"params\['ln_2.gamma'\] must have shape \(8,\)"):
        post_ln_block(X, {**BLOCK, "ln_2.gamma": np.ones(7)})
    with pytest.raises(ValueError, match=r"v must have shape \(h, m, d_v\) = \(2, 3, d_v\)"):
        attention(np.ones((2, 3, 4)), np.ones((2, 3, 4)), np.ones((2, 5, 4)))


def test_missing_and_unexpected_parameter_keys():
    with pytest.raises(ValueError, match="params is missing the key 'w_v'"):
        multi_head_attention(X, {k: v for k, v in ATTN.items() if k != "w_v"})
    with pytest.raises(ValueError, match="params has unexpected key 'b_Q'"):
        multi_head_attention(X, {**ATTN, "b_Q": np.ones((2, 4))})
    with pytest.raises(ValueError, match=r"missing the key 'ln_1.beta'"):
        pre_ln_block(X, {k: v for k, v in BLOCK.items() if k != "ln_1.beta"})
    with pytest.raises(ValueError, match="unexpected key 'attn_w_q'"):
        pre_ln_block(X, {**BLOCK, "attn_w_q": ATTN["w_q"]})
    with pytest.raises(TypeError, match="params must be a dict of arrays, got list"):
        mlp(X, [MLP["w_1"], MLP["w_2"]])


def test_nan_or_inf_in_inputs_and_parameters():
    with pytest.raises(ValueError, match=r"x must be finite, got nan at index \(2, 3\)"):
        bad = X.copy()
        bad[2, 3] = np.nan
        multi_head_attention(bad, ATTN)
    with pytest.raises(ValueError, match=r"params\['w_k'\] must be finite, got inf"):
        w = ATTN["w_k"].copy()
        w[0, 0, 0] = np.inf
        multi_head_attention(X, {**ATTN, "w_k": w})
    with pytest.raises(ValueError, match=r"context must be finite"):
        multi_head_attention(X, ATTN, context=np.full((3, 8), -np.inf))


def test_finite_inputs_whose_result_overflows_are_a_value_error_not_a_nan():
    huge = np.full((1, 2, 2), 1e200)  # q . k = 2e400 overflows float64
    with pytest.raises(ValueError, match=r"attention\(q, k, v\) overflowed the float64 range"):
        attention(huge, huge, np.ones((1, 2, 2)))
    with pytest.raises(ValueError, match=r"multi_head_attention\(x, params\) overflowed the "
                                         r"float32 range"):
        multi_head_attention((X * 1e20).astype(np.float32), ATTN)  # scores ~ 1e40 > 3.4e38
    with pytest.raises(ValueError, match=r"mlp\(x, params\) overflowed the float64 range"):
        mlp(np.full((2, 8), 1e308), MLP)
    with pytest.raises(ValueError, match="the block's output overflowed the float64 range"):
        post_ln_block(X * 1e160, BLOCK)  # Post-LN feeds X itself to attention
    with pytest.raises(ValueError, match=r"layer_norm_jacobian\(x\) \(a row of x with sigma "
                                         r"below 1 / the largest float\) overflowed"):
        layer_norm_jacobian(np.array([[1.0, 2.0, 4.0], [1e-320, -1e-320, 0.0]]))


def test_cross_attention_context_of_the_wrong_width_or_too_short_when_causal():
    with pytest.raises(ValueError, match=r"context must have shape \(m, 8\) with m >= 1, got "
                                         r"\(3, 7\)"):
        multi_head_attention(X, ATTN, context=np.ones((3, 7)))
    with pytest.raises(ValueError, match="causal cross-attention needs m >= n"):
        multi_head_attention(X, ATTN, causal=True, context=np.ones((3, 8)))


def test_causal_mask_sizes():
    with pytest.raises(ValueError, match="m must be >= n"):
        causal_mask(4, 3)
    with pytest.raises(ValueError, match="n must be >= 1, got 0"):
        causal_mask(0)


def test_unknown_activation_and_bad_switches():
    with pytest.raises(ValueError, match="activation must be one of"):
        mlp(X, MLP, activation="tanh")
    with pytest.raises(TypeError, match="causal must be a bool, got str 'yes'"):
        pre_ln_block(X, BLOCK, causal="yes")
    with pytest.raises(ValueError, match="eps must be a finite float >= 0, got -1"):
        pre_ln_block(X, BLOCK, eps=-1)


def test_init_parameters_argument_types():
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator, got int"):
        init_parameters(CONFIG, 0)
    with pytest.raises(TypeError, match="dtype must be float32 or float64, got float16"):
        init_parameters(CONFIG, np.random.default_rng(0), dtype=np.float16)


def test_parameter_helpers_name_a_bad_prefix_or_value():
    with pytest.raises(TypeError, match="prefix must be a str such as 'blocks.0', got int"):
        sub_parameters(BLOCK, 3)
    with pytest.raises(TypeError, match=r"params\['w_1'\] must be a float32 or float64 array, "
                                        r"got str 'abc'"):
        parameter_count({**MLP, "w_1": "abc"})


def test_central_jacobian_names_a_step_that_is_not_positive():
    for step in (0.0, -1e-3, float("nan")):
        with pytest.raises(ValueError, match="step must be a finite float > 0"):
            central_jacobian(np.tanh, X, step)
    with pytest.raises(TypeError, match="step must be a float > 0, got str"):
        central_jacobian(np.tanh, X, "1e-3")
