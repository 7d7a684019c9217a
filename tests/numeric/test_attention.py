"""numeric.attention, mlp and block: against 定義 4.1［自己注意］ at 50 digits, and as the
compositions 定義 2.2［Transformer ブロック］ writes."""

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import numeric.attention
from numeric.activations import gelu, gelu_tanh
from numeric.attention import (
    attention,
    causal_attention_kernel,
    causal_mask,
    multi_head_attention,
)
from numeric.block import post_ln_block, pre_ln_block
from numeric.error_bounds import gamma, mha_error_bound, unit_roundoff
from numeric.layer_norm import layer_norm
from numeric.mlp import mlp
from numeric.model import init_parameters, sub_parameters
from proofs.book.profiles import scaled
from proofs.evidence.reference import mp_multi_head_attention
from spec import ModelConfig

pytestmark = pytest.mark.numeric
mpmath.mp.dps = 50


def block_params(d=8, h=2, d_ff=12, bias=True, seed=0, dtype=np.float64):
    config = ModelConfig(vocab=3, d=d, n_layer=1, n_head=h, d_ff=d_ff, n_ctx=4, bias=bias)
    return sub_parameters(init_parameters(config, np.random.default_rng(seed), dtype), "blocks.0")


def assert_mha_matches_definition(x, p, causal, context=None):
    out, weights = multi_head_attention(x, p, causal=causal, context=context)
    exact = np.array(
        [[float(v) for v in row] for row in mp_multi_head_attention(x, p, causal, context)]
    )
    bound = mha_error_bound(x, p, weights, context=context)
    assert (np.abs(out - exact) <= bound).all()
    return weights


@scaled(0.5)  # each example is a 50-digit evaluation of the definition
@given(
    st.integers(1, 6),
    st.integers(1, 6),
    st.sampled_from([(4, 1), (6, 2), (6, 3)]),
    st.booleans(),
    st.booleans(),
    st.integers(0, 99),
)
@pytest.mark.element("def-attention")
def test_multi_head_attention_matches_50_digit_definition(n, m, dh, causal, bias, seed):
    """Self-attention (m = n) and cross-attention (注意 7.3) from a context of m rows, with
    and without biases and the causal mask (key j <= i + m - n, so m >= n when causal)."""
    d, h = dh
    rng = np.random.default_rng(seed)
    p = sub_parameters(block_params(d, h, bias=bias, seed=seed), "attn")
    x = rng.standard_normal((n, d))
    context = None if m == n else rng.standard_normal((max(m, n) if causal else m, d))
    weights = assert_mha_matches_definition(x, p, causal, context)
    keys = n if context is None else context.shape[0]
    assert weights.shape == (h, n, keys)
    if causal:
        assert (weights[:, ~causal_mask(n, keys)] == 0).all()


@pytest.mark.element("def-attention")
def test_causal_attention_in_several_blocks_matches_the_definition(monkeypatch):
    """Blocks of 2 query rows exercise the skipping of masked blocks on a small case."""
    monkeypatch.setattr(numeric.attention, "CAUSAL_BLOCK", 2)
    rng = np.random.default_rng(5)
    p = sub_parameters(block_params(6, 3, seed=5), "attn")
    x = rng.standard_normal((7, 6))
    assert_mha_matches_definition(x, p, causal=True)
    assert_mha_matches_definition(x[:3], p, causal=True, context=x)


@pytest.mark.element("def-attention")
def test_blockwise_causal_attention_equals_the_masked_one_over_many_blocks():
    """n = 300 spans three blocks of 128; the blockwise path and σ^U with causal_mask
    are each within the rounding bound of the exact value, so within twice it of each other."""
    rng = np.random.default_rng(6)
    p = sub_parameters(block_params(8, 2, seed=6), "attn")
    x = rng.standard_normal((300, 8))
    out, weights = multi_head_attention(x, p, causal=True)
    heads = [np.einsum("nd,hdk->hnk", x, p[f"w_{a}"]) + p[f"b_{a}"][:, None] for a in "qkv"]
    o, w = attention(*heads, mask=causal_mask(300))
    reference = np.einsum("hnk,hkd->nd", o, p["w_o"]) + p["b_o"]
    assert (weights[:, ~causal_mask(300)] == 0).all() and (w[:, ~causal_mask(300)] == 0).all()
    assert (np.abs(out - reference) <= 2 * mha_error_bound(x, p, weights)).all()


def test_causal_attention_keeps_its_weights_normalised_and_its_heads_side_by_side():
    """The output is (e V) / S rather than (e / S) V: the returned weights are still e / S,
    summing to 1 within the rounding of S (gamma_{m-1}), of the divisions (u) and of their
    sum (gamma_{m-1}), and the heads' outputs lie side by side in one (n, h d_v) array
    (merge_heads reads it without a copy)."""
    rng = np.random.default_rng(8)
    q, k, v = rng.standard_normal((3, 2, 300, 4))
    out, weights = causal_attention_kernel(q, k, v)
    assert out.shape == (2, 300, 4) and out.transpose(1, 0, 2).flags.c_contiguous
    u = unit_roundoff(np.float64)
    assert (np.abs(weights.sum(axis=-1) - 1) <= 2 * gamma(299, u) + u).all()
    alone, none = causal_attention_kernel(q, k, v, need_weights=False)
    assert none is None and np.array_equal(alone, out)


def test_single_head_attention_accepts_2d_arrays():
    rng = np.random.default_rng(7)
    q, k, v = rng.standard_normal((3, 5, 4))
    out, weights = attention(q, k, v)
    out3, weights3 = attention(q[None], k[None], v[None])
    assert np.array_equal(out, out3[0]) and np.array_equal(weights, weights3[0])
    assert np.array_equal(out, weights @ v)


@pytest.mark.element("def-attention")
def test_causal_mask_aligns_queries_with_the_last_positions():
    assert np.array_equal(causal_mask(3), [[1, 0, 0], [1, 1, 0], [1, 1, 1]])
    assert np.array_equal(causal_mask(2, 4), [[1, 1, 1, 0], [1, 1, 1, 1]])


@pytest.mark.parametrize(
    "activation, phi",
    [("gelu", gelu), ("gelu_tanh", gelu_tanh), ("relu", lambda t: np.maximum(t, 0))],
)
@pytest.mark.element("def-transformer-block")
def test_mlp_is_the_composition_of_its_definition(activation, phi):
    p = sub_parameters(block_params(seed=8), "mlp")
    x = np.random.default_rng(8).standard_normal((5, 8))
    expected = phi(x @ p["w_1"] + p["b_1"]) @ p["w_2"] + p["b_2"]
    assert np.array_equal(mlp(x, p, activation), expected)  # the same operations, in order


@pytest.mark.element("def-transformer-block")
def test_mlp_without_biases():
    p = sub_parameters(block_params(bias=False, seed=9), "mlp")
    x = np.random.default_rng(9).standard_normal((5, 8))
    assert set(p) == {"w_1", "w_2"}
    assert np.array_equal(mlp(x, p), gelu(x @ p["w_1"]) @ p["w_2"])


@pytest.mark.element("def-transformer-block")
@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_blocks_are_exactly_the_compositions_of_their_parts(causal, dtype):
    """Post-LN: Y = LN_1(X + MHA(X)), X' = LN_2(Y + MLP(Y)); Pre-LN: Y = X + MHA(LN_1(X)),
    X' = Y + MLP(LN_2(Y)). The same operations in the same order: equal to the bit."""
    p = block_params(seed=10, dtype=dtype)
    x = np.random.default_rng(10).standard_normal((6, 8)).astype(dtype)
    ln_1, ln_2 = sub_parameters(p, "ln_1"), sub_parameters(p, "ln_2")
    attn, ff = sub_parameters(p, "attn"), sub_parameters(p, "mlp")

    def ln(z, q):
        return layer_norm(z, q["gamma"], q["beta"])

    y = ln(x + multi_head_attention(x, attn, causal)[0], ln_1)
    post = ln(y + mlp(y, ff), ln_2)
    a, weights = multi_head_attention(ln(x, ln_1), attn, causal)
    y = x + a
    pre = y + mlp(ln(y, ln_2), ff)
    got_pre, got_weights = pre_ln_block(x, p, causal=causal, return_weights=True)
    assert got_pre.dtype == dtype
    assert np.array_equal(got_pre, pre)
    assert np.array_equal(got_weights, weights)
    assert np.array_equal(post_ln_block(x, p, causal=causal), post)


def test_attention_keeps_float32():
    p = {k: v.astype(np.float32) for k, v in sub_parameters(block_params(seed=11), "attn").items()}
    x = np.random.default_rng(11).standard_normal((4, 8)).astype(np.float32)
    for causal in (True, False):
        out, weights = multi_head_attention(x, p, causal=causal)
        assert out.dtype == weights.dtype == np.float32
