"""命題 7.1, 7.2, 定理 5.1, 命題 6.1, 演習 11.1, 11.4: count polynomials from spec's
declarations, evaluated against the arrays and the contractions of numeric/."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sympy import Rational, Symbol, expand, limit, oo

from spec import ModelConfig
from spec import contractions as declared
from spec import parameters as spec_parameters
from symbolic.counts import (
    attention_multiplications,
    attention_parameters,
    attention_weights_memory,
    block_multiplications,
    block_parameters,
    contraction_multiplications,
    crossover,
    doubling_limit,
    doubling_ratio,
    lm_head_multiplications,
    model_multiplications,
    model_parameter_parts,
    model_parameters,
    parameter_polynomial,
    quadratic_share,
)
from symbolic.symbols import SIZES, L, L_ctx, V, d, d_ff, h, n

GPT2 = {  # (d, L, h): small, medium, large, xl; |V| = 50257, L_ctx = 1024
    "small": (768, 12, 12),
    "medium": (1024, 24, 16),
    "large": (1280, 36, 20),
    "xl": (1600, 48, 25),
}


def values(config: ModelConfig) -> dict:
    s = config.sizes()
    return {
        V: s["vocab"],
        d: s["d"],
        L: s["n_layer"],
        h: s["h"],
        d_ff: s["d_ff"],
        L_ctx: s["n_ctx"],
    }


# ------------------------------------------------------------------ parameters


def test_prop_attention_parameters_polynomial():
    assert attention_parameters() == 4 * d**2 + 4 * d
    assert attention_parameters(bias=False) == 4 * d**2
    assert not attention_parameters().has(h)


def test_prop_attention_parameters_rejects_a_missing_output_bias():
    wrong = [p for p in spec_parameters.attention_parameters() if p.name != "attn.b_o"]
    assert parameter_polynomial(wrong) == 4 * d**2 + 3 * d
    assert parameter_polynomial(wrong) != attention_parameters()


def test_thm_transformer_parameters_polynomial_and_variants():
    per_layer = 4 * d**2 + 4 * d + 2 * d * d_ff + d_ff + d + 4 * d
    assert model_parameters() == expand(V * d + L_ctx * d + L * per_layer + 2 * d)
    assert block_parameters(width=4 * d) == 12 * d**2 + 13 * d
    assert expand(model_parameters() - model_parameters(positions=False)) == L_ctx * d
    assert expand(model_parameters(tied=False) - model_parameters()) == V * d
    assert expand(model_parameters() - model_parameters(bias=False)) == expand(L * (5 * d + d_ff))
    assert list(model_parameter_parts()) == [
        "embeddings",
        "positions",
        "attention",
        "mlp",
        "layer norms",
        "final layer norm",
    ]


def test_thm_transformer_parameters_rejects_a_block_without_its_second_layer_norm():
    wrong = [p for p in spec_parameters.block_parameters() if not p.name.startswith("ln_2")]
    sizes = {**SIZES, "d_ff": 4 * d}
    assert parameter_polynomial(wrong, sizes) == 12 * d**2 + 11 * d


def test_ex_small_model_count():
    config = ModelConfig(vocab=10, d=4, n_layer=2, n_head=2, d_ff=16, n_ctx=8)
    assert model_parameters().subs(values(config)) == 568


def test_ex_gpt2_small_count():
    d_, L_, h_ = GPT2["small"]
    config = ModelConfig(vocab=50257, d=d_, n_layer=L_, n_head=h_, d_ff=4 * d_, n_ctx=1024)
    assert model_parameters().subs(values(config)) == 124_439_808


def test_exr_parameter_count_and_embedding_share():
    config = ModelConfig(vocab=1000, d=64, n_layer=4, n_head=4, d_ff=256, n_ctx=128)
    total = model_parameters().subs(values(config))
    assert total == 272_256
    assert round(float(Rational(1000 * 64) / total) * 100, 1) == 23.5


configs = st.builds(
    lambda vocab, head_width, n_head, n_layer, d_ff, n_ctx, bias, tied, positions: ModelConfig(
        vocab=vocab,
        d=head_width * n_head,
        n_layer=n_layer,
        n_head=n_head,
        d_ff=d_ff,
        n_ctx=n_ctx,
        bias=bias,
        tied=tied,
        positions=positions,
    ),
    st.integers(1, 40),
    st.integers(1, 6),
    st.integers(1, 4),
    st.integers(1, 3),
    st.integers(1, 24),
    st.integers(1, 16),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)


@given(configs)
def test_thm_transformer_parameters_equals_counting_the_arrays(config):
    from numeric.model import init_parameters
    from numeric.parameters import parameter_count

    params = init_parameters(config, np.random.default_rng(0))
    polynomial = model_parameters(config.bias, config.tied, config.positions)
    assert polynomial.subs(values(config)) == parameter_count(params)


@pytest.mark.parametrize("size", sorted(GPT2))
def test_thm_transformer_parameters_equals_the_gpt2_family_allocation(size):
    from numeric.model import parameter_shapes

    d_, L_, h_ = GPT2[size]
    config = ModelConfig(vocab=50257, d=d_, n_layer=L_, n_head=h_, d_ff=4 * d_, n_ctx=1024)
    allocated = sum(int(np.prod(s)) for s in parameter_shapes(config).values())
    assert model_parameters().subs(values(config)) == allocated


# ------------------------------------------------------------- multiplications


def test_prop_attention_complexity_polynomial():
    assert attention_multiplications() == 4 * n * d**2 + 2 * n**2 * d
    assert not attention_multiplications().has(h)
    assert attention_weights_memory() == h * n**2
    assert crossover(attention_multiplications()) == 2 * d


def test_prop_attention_complexity_rejects_a_list_missing_the_a_v_product():
    missing = [c for c in declared.ATTENTION if c.name != "weighted_sum"]
    assert attention_multiplications(missing) == 4 * n * d**2 + n**2 * d
    assert attention_multiplications(missing) != attention_multiplications()


def test_prop_attention_complexity_doubling_of_each_term():
    per = contraction_multiplications(declared.ATTENTION)
    quadratic = per["scores"] + per["weighted_sum"]
    linear = expand(attention_multiplications() - quadratic)
    assert expand(quadratic.subs(n, 2 * n) / quadratic) == 4
    assert expand(linear.subs(n, 2 * n) / linear) == 2


def test_prop_block_complexity_polynomial_and_crossover():
    assert block_multiplications() == 4 * n * d**2 + 2 * n**2 * d + 2 * n * d * d_ff
    T = block_multiplications(width=4 * d)
    assert T == 12 * n * d**2 + 2 * n**2 * d
    assert crossover(T) == 6 * d
    assert quadratic_share(T) == n / (6 * d)
    assert lm_head_multiplications() == n * d * V


def test_prop_block_complexity_numbers_of_the_chapter():
    T = block_multiplications(width=4 * d)
    linear = T.coeff(n, 1) * n
    quadratic = T.coeff(n, 2) * n**2
    at = {n: 1024, d: 768}
    assert linear.subs(at) == 7_247_757_312
    assert quadratic.subs(at) == 1_610_612_736
    assert round(float(quadratic_share(T).subs(at)), 3) == 0.222
    assert crossover(T).subs(d, 768) == 4608


def test_prop_block_complexity_rejects_a_list_missing_the_mlp_output():
    missing = [c for c in declared.BLOCK if c.name != "mlp_out"]
    assert crossover(block_multiplications(missing, width=4 * d)) != 6 * d


def test_exr_doubling_ratio():
    T = block_multiplications(width=4 * d)
    ratio = doubling_ratio(T)
    assert expand(ratio * (6 * d + n) - (12 * d + 4 * n)) == 0
    assert doubling_limit(T) == 4
    got = [round(float(ratio.subs(n, k * d)), 2) for k in (1, 6, 60)]
    assert got == [2.29, 3.0, 3.82]
    assert limit(ratio, n, oo) == 4


def test_exr_doubling_ratio_rejects_a_count_without_the_quadratic_term():
    assert doubling_limit(12 * n * d**2) == 2


@given(configs, st.integers(1, 12))
def test_prop_block_complexity_equals_counting_a_forward_pass(config, length):
    from numeric.contraction import count_multiplications
    from numeric.model import forward, init_parameters

    length = min(length, config.n_ctx)
    params = init_parameters(config, np.random.default_rng(1))
    tokens = np.arange(length) % config.vocab
    with count_multiplications() as counter:
        forward(tokens, params, config)
    at = {**values(config), n: length}
    assert model_multiplications().subs(at) == counter.total
    per = contraction_multiplications(declared.BLOCK + (declared.LM_HEAD,))
    for name, count in counter.by_name.items():
        scale = 1 if name == "lm_head" else config.n_layer
        assert per[name].subs(at) * scale == count, name


def test_counts_reject_foreign_inputs():
    with pytest.raises(TypeError, match="spec.Parameter"):
        parameter_polynomial(["wte"])
    with pytest.raises(TypeError, match="spec.Contraction"):
        attention_multiplications(["nd,hdk->hnk"])
    with pytest.raises(ValueError, match="a1 n"):
        crossover(n**3)
    with pytest.raises(ValueError, match=r"one positive crossover .* in m, got \[0, 2\*d\]"):
        m = Symbol("m")  # not known to be positive: 0 is a second root
        crossover(4 * m * d**2 + 2 * m**2 * d, m)
    with pytest.raises(ValueError, match=r"one positive crossover .* in n, got \[\]"):
        crossover(4 * n * d**2 - 2 * n**2 * d)  # the terms' signs never let them meet
