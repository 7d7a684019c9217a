"""numeric.model: parameters allocated from spec, the forward pass of 定義 2.3, its cost."""

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from numeric.block import pre_ln_block
from numeric.contraction import count_multiplications
from numeric.layer_norm import layer_norm
from numeric.model import (
    embed,
    forward,
    init_parameters,
    parameter_count,
    parameter_shapes,
    sub_parameters,
)
from spec import ModelConfig

pytestmark = pytest.mark.numeric

SMALL = ModelConfig(vocab=11, d=8, n_layer=2, n_head=2, d_ff=32, n_ctx=9)


def hand_count(c: ModelConfig) -> int:
    """Parameters counted by hand from 定義 2.3 and 定理 5.1's groups."""
    d, f = c.d, c.d_ff
    per_layer = 4 * d * d + 2 * d * f + 4 * d  # W_Q, W_K, W_V, W_O, W_1, W_2, two LNs
    if c.bias:
        per_layer += 4 * d + f + d  # b_Q, b_K, b_V, b_O, b_1, b_2
    total = c.vocab * d + c.n_layer * per_layer + 2 * d
    total += c.n_ctx * d if c.positions else 0
    total += 0 if c.tied else c.vocab * d
    return total


configs = st.builds(
    lambda h, d_head, **kw: ModelConfig(n_head=h, d=h * d_head, **kw),
    h=st.integers(1, 4),
    d_head=st.integers(1, 4),
    vocab=st.integers(1, 20),
    n_layer=st.integers(1, 3),
    d_ff=st.integers(1, 20),
    n_ctx=st.integers(1, 10),
    bias=st.booleans(),
    tied=st.booleans(),
    positions=st.booleans(),
)


@pytest.mark.element("thm-transformer-parameters")
@given(configs, st.integers(0, 2**32 - 1))
def test_parameter_count_of_the_allocated_arrays(config, seed):
    params = init_parameters(config, np.random.default_rng(seed))
    assert parameter_count(params) == sum(a.size for a in params.values()) == hand_count(config)
    assert {k: v.shape for k, v in params.items()} == parameter_shapes(config)


@pytest.mark.element("ex-gpt2-small-count")
def test_gpt2_small_shapes_give_124_439_808_parameters():
    config = ModelConfig(vocab=50257, d=768, n_layer=12, n_head=12, d_ff=3072, n_ctx=1024)
    shapes = parameter_shapes(config)
    assert sum(math.prod(s) for s in shapes.values()) == 124_439_808
    assert shapes["blocks.11.attn.w_q"] == (12, 768, 64)
    assert shapes["blocks.0.attn.w_o"] == (12, 64, 768)


def test_init_parameters_is_reproducible_and_scaled_by_fan_in():
    a = init_parameters(SMALL, np.random.default_rng(1))
    b = init_parameters(SMALL, np.random.default_rng(1))
    assert all(np.array_equal(a[k], b[k]) for k in a)
    big = ModelConfig(vocab=4, d=256, n_layer=1, n_head=4, d_ff=1024, n_ctx=2)
    p = init_parameters(big, np.random.default_rng(2))
    # N(0, 1/fan_in) over >= 65536 entries: the sample variance is within 3% w.p. > 1 - 1e-9
    for name, fan_in in (("blocks.0.attn.w_q", 256), ("blocks.0.mlp.w_2", 1024)):
        assert abs(p[name].var() * fan_in - 1) < 0.03
    assert np.all(p["blocks.0.ln_1.gamma"] != 1) and np.all(p["blocks.0.attn.b_o"] != 0)


def test_init_parameters_in_float32():
    p = init_parameters(SMALL, np.random.default_rng(3), dtype=np.float32)
    assert {a.dtype for a in p.values()} == {np.dtype(np.float32)}
    logits = forward([1, 2, 3], p, SMALL)
    assert logits.dtype == np.float32


@pytest.mark.element("def-decoder-only-transformer")
def test_embed_adds_token_and_position_rows():
    p = init_parameters(SMALL, np.random.default_rng(4))
    tokens = [3, 0, 3]
    x = embed(tokens, p, SMALL)
    assert np.array_equal(x, p["wte"][tokens] + p["wpe"][:3])
    no_positions = ModelConfig(**{**SMALL.__dict__, "positions": False})
    q = init_parameters(no_positions, np.random.default_rng(4))
    assert "wpe" not in q
    assert np.array_equal(embed(tokens, q, no_positions), q["wte"][tokens])


@pytest.mark.element("def-decoder-only-transformer")
@pytest.mark.parametrize("tied", [True, False])
def test_forward_is_exactly_the_composition_of_definition_2_3(tied):
    config = ModelConfig(**{**SMALL.__dict__, "tied": tied})
    p = init_parameters(config, np.random.default_rng(5))
    tokens = [4, 1, 7, 7, 0]
    x = embed(tokens, p, config)
    for layer in range(config.n_layer):
        x = pre_ln_block(x, sub_parameters(p, f"blocks.{layer}"), causal=True)
    z = layer_norm(x, p["ln_f.gamma"], p["ln_f.beta"])
    expected = z @ (p["wte"] if tied else p["lm_head"]).T
    assert np.array_equal(forward(tokens, p, config), expected)


@pytest.mark.element("prop-block-complexity")
def test_multiplications_of_a_real_pass_are_the_chapter_count():
    """L (12 n d^2 + 2 n^2 d) + n d |V| at d_ff = 4d, with every contraction's share."""
    config = ModelConfig(vocab=13, d=12, n_layer=3, n_head=3, d_ff=48, n_ctx=20)
    p = init_parameters(config, np.random.default_rng(6))
    n, d, L, V = 17, 12, 3, 13
    with count_multiplications() as counter:
        forward(np.arange(n) % V, p, config)
    assert counter.total == L * (12 * n * d * d + 2 * n * n * d) + n * d * V
    assert counter.by_name == {
        "q_projection": L * n * d * d,
        "k_projection": L * n * d * d,
        "v_projection": L * n * d * d,
        "output_projection": L * n * d * d,
        "scores": L * n * n * d,
        "weighted_sum": L * n * n * d,
        "mlp_in": L * n * d * 4 * d,
        "mlp_out": L * n * d * 4 * d,
        "lm_head": n * d * V,
    }


def test_forward_rejects_bad_tokens_naming_the_problem():
    p = init_parameters(SMALL, np.random.default_rng(7))
    with pytest.raises(ValueError, match=r"tokens must be ids in \[0, 11\), got 11 at position 1"):
        forward([0, 11], p, SMALL)
    with pytest.raises(ValueError, match=r"got -1 at position 0"):
        forward([-1], p, SMALL)
    with pytest.raises(TypeError, match="tokens must be integer token ids"):
        forward([0.0, 1.0], p, SMALL)
    with pytest.raises(TypeError, match="tokens must be integer token ids"):
        forward([True, False], p, SMALL)
    with pytest.raises(ValueError, match="tokens must not be empty"):
        forward([], p, SMALL)
    with pytest.raises(ValueError, match="length 10, longer than the context length 9"):
        forward(list(range(10)), p, SMALL)
    with pytest.raises(ValueError, match=r"tokens must be a 1-D sequence of ids, got shape"):
        forward([[1, 2]], p, SMALL)


def test_forward_rejects_missing_misshapen_and_unexpected_parameters():
    p = init_parameters(SMALL, np.random.default_rng(8))
    missing = {k: v for k, v in p.items() if k != "blocks.1.mlp.b_1"}
    with pytest.raises(ValueError, match=r"missing the key 'blocks.1.mlp.b_1'"):
        forward([1], missing, SMALL)
    misshapen = {**p, "blocks.0.attn.w_q": np.ones((2, 8, 3))}
    with pytest.raises(
        ValueError,
        match=r"params\['blocks.0.attn.w_q'\] must have shape "
        r"\(2, 8, 4\), got \(2, 8, 3\)",
    ):
        forward([1], misshapen, SMALL)
    with pytest.raises(ValueError, match="unexpected key 'blocks.2.ln_1.gamma'"):
        forward([1], {**p, "blocks.2.ln_1.gamma": np.ones(8)}, SMALL)
    with pytest.raises(TypeError, match="config must be a spec.ModelConfig"):
        forward([1], p, {"d": 8})


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_forward_names_a_non_finite_parameter(bad):
    p = init_parameters(SMALL, np.random.default_rng(9))
    p["blocks.1.mlp.w_2"][3, 4] = bad
    with pytest.raises(
        ValueError,
        match=r"params\['blocks.1.mlp.w_2'\] must be finite, got "
        r".* at index \(3, 4\)",
    ):
        forward([1, 2], p, SMALL)


def test_forward_reports_overflow_of_finite_parameters():
    p = init_parameters(SMALL, np.random.default_rng(10))
    p["ln_f.gamma"][:] = 1e300
    p["wte"][:] *= 1e300
    with pytest.raises(ValueError, match="logits overflowed"):
        forward([1, 2], p, SMALL)


def test_model_config_rejects_d_not_divisible_by_h():
    with pytest.raises(ValueError, match="n_head must divide d, got d = 10 and n_head = 4"):
        ModelConfig(vocab=5, d=10, n_layer=1, n_head=4, d_ff=8, n_ctx=4)


def test_numeric_never_imports_sympy():
    code = (
        "import sys, numeric.gpt2, numeric.kv_cache, numeric.error_bounds; "
        "sys.exit('sympy' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
