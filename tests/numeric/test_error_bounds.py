"""The rounding-error bounds: they hold for the package's float evaluations, and a wrong or
lower-precision evaluation exceeds them.

Validity is tested against a more precise evaluation: mpmath at 50 digits for softmax and
GELU, and the float64 evaluation for a float32 one (whose own error, about 1e-16 relative,
is 1e-9 of the float32 bound).
"""

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import spec
from numeric import error_bounds as eb
from numeric.activations import gelu, gelu_tanh
from numeric.attention import multi_head_attention
from numeric.block import post_ln_block, pre_ln_block
from numeric.layer_norm import layer_norm
from numeric.model import forward, init_parameters
from numeric.parameters import sub_parameters
from numeric.running_error import block_rounding_bound, model_rounding_bound
from numeric.softmax import softmax
from proofs.book.profiles import scaled
from proofs.chapters.transformer_block.strategies import block_cases, configurations, seeds
from proofs.evidence.reference import mp_error, mp_gelu, mp_softmax


def as_float32(params: dict) -> dict:
    return {k: v.astype(np.float32) for k, v in params.items()}


def test_unit_roundoff_and_gamma():
    assert eb.unit_roundoff(np.float64) == 2.0**-53 == eb.U
    assert eb.unit_roundoff(np.float32) == 2.0**-24
    assert eb.gamma(1) == eb.U / (1 - eb.U)
    assert eb.gamma(3, 2.0**-24) == 3 * 2.0**-24 / (1 - 3 * 2.0**-24)


def test_softmax_bound_holds_and_a_float32_evaluation_exceeds_it():
    z = np.array([3.0, -1.25, 0.5, 2.0, -7.0])
    sigma = softmax(z)
    with mpmath.workdps(50):
        err = mp_error(sigma, mp_softmax(z))
    bound = eb.softmax_error_bound(z, sigma)
    assert (err <= bound).all()
    low = softmax(z.astype(np.float32)).astype(np.float64)
    with mpmath.workdps(50):
        assert (mp_error(low, mp_softmax(z)) > bound).any()


def test_softmax_jacobian_bound_is_exceeded_without_the_outer_product():
    z = np.array([0.3, -1.0, 2.0])
    sigma = softmax(z)
    jac = np.diag(sigma) - np.outer(sigma, sigma)
    bound = eb.softmax_jacobian_error_bound(sigma, eb.softmax_error_bound(z, sigma), jac)
    assert (np.abs(np.diag(sigma) - jac) > bound).any()
    assert bound.max() < 1e-14


def test_mha_bound_holds_for_float32_and_is_exceeded_by_a_perturbed_projection():
    rng = np.random.default_rng(3)
    h, d, n = 2, 4, 5
    params = {name: rng.standard_normal((h, d, d // h)) for name in ("w_q", "w_k", "w_v")}
    params["w_o"] = rng.standard_normal((h, d // h, d))
    x = rng.standard_normal((n, d))
    exact, _ = multi_head_attention(x, params, causal=True)
    low, weights = multi_head_attention(x.astype(np.float32), as_float32(params), causal=True)
    bound = eb.mha_error_bound(x.astype(np.float32), as_float32(params), weights)
    assert (np.abs(low - exact) <= bound).all()
    out, weights = multi_head_attention(x, params, causal=True)
    wrong = dict(params, w_o=params["w_o"] * (1 + 1e-9))
    moved, _ = multi_head_attention(x, wrong, causal=True)
    assert (np.abs(moved - out) > 2 * eb.mha_error_bound(x, params, weights)).any()


@pytest.mark.parametrize("activation", ["relu", "gelu", "gelu_tanh"])
def test_activation_rounding_covers_the_definition(activation):
    t = np.linspace(-30.0, 30.0, 241)
    if activation == "gelu":
        with mpmath.workdps(40):
            err = mp_error(gelu(t), mp_gelu(t))
    elif activation == "gelu_tanh":
        k = mpmath.sqrt(2 / mpmath.pi)
        with mpmath.workdps(40):
            exact = [
                mpmath.mpf(v)
                * (
                    1
                    + mpmath.tanh(k * (mpmath.mpf(v) + mpmath.mpf("0.044715") * mpmath.mpf(v) ** 3))
                )
                / 2
                for v in t
            ]
            err = mp_error(gelu_tanh(t), exact)
    else:
        err = np.abs(np.maximum(t, 0) - np.where(t > 0, t, 0.0))
    assert (err <= eb.activation_rounding(t, activation)).all()


@pytest.mark.parametrize("activation", ["gelu", "gelu_tanh"])
def test_activation_slope_bounds_every_difference_quotient(activation):
    slope, _ = eb.ACTIVATION_ERRORS[activation]
    t = np.linspace(-8.0, 8.0, 16001)
    f = {"gelu": gelu, "gelu_tanh": gelu_tanh}[activation](t)
    assert np.abs(np.diff(f) / np.diff(t)).max() <= slope


def test_activation_rounding_rejects_an_unknown_activation():
    with pytest.raises(ValueError, match="activation must be one of"):
        eb.activation_rounding(np.zeros(2), "swish")


def as_float64(params: dict) -> dict:
    return {k: v.astype(np.float64) for k, v in params.items()}


@scaled(0.5)  # every example carries each rounding of a model to its logits
@given(
    configurations(),
    st.sampled_from(["relu", "gelu", "gelu_tanh"]),
    st.integers(-140, 60),
    seeds(),
    st.data(),
)
def test_model_rounding_bound_holds_for_float32_on_drawn_models(
    config, activation, scale, seed, data
):
    """The float32 pass against the float64 pass of the same (float32) parameters, whose
    own error is about 1e-9 of the bound: the bound is of the arithmetic, not of rounding
    the parameters. The embeddings are scaled by 2^scale, from float32's subnormals
    (2^-140 E) to 2^60 E."""
    config = spec.ModelConfig(**{**config.__dict__, "activation": activation})
    params = init_parameters(config, np.random.default_rng(seed))
    for name in ("wte", "wpe"):
        if name in params:
            params[name] = np.ldexp(params[name], scale)
    low = as_float32(params)
    tokens = np.array(
        data.draw(st.lists(st.integers(0, config.vocab - 1), min_size=1, max_size=config.n_ctx))
    )
    logits, bound = model_rounding_bound(tokens, low, config)
    assert np.array_equal(logits, forward(tokens, low, config))
    assert (np.abs(logits - forward(tokens, as_float64(low), config)) <= bound).all()


def test_model_rounding_bound_is_exceeded_by_a_float32_pass_and_by_a_1e_12_perturbation():
    """Against float64's bound, a float32 evaluation and logits moved by a relative 1e-12
    both fail, and so does the wrong activation."""
    config = spec.ModelConfig(vocab=11, d=8, n_layer=2, n_head=2, d_ff=16, n_ctx=8)
    params = init_parameters(config, np.random.default_rng(1))
    tokens = np.array([3, 1, 4, 1, 5])
    logits, bound = model_rounding_bound(tokens, params, config)
    low = forward(tokens, as_float32(params), config)
    assert (np.abs(low - logits) > 2 * bound).any()
    assert (np.abs(logits * 1e-12) > 2 * bound).any()
    relu = spec.ModelConfig(**{**config.__dict__, "activation": "relu"})
    assert (np.abs(forward(tokens, params, relu) - logits) > 2 * bound).any()


def _ln_2_input_row_0(low: dict, config: spec.ModelConfig, tokens: np.ndarray) -> np.ndarray:
    """Row 0 of LN_2(Y) (d,) in the first block, in the parameters' dtype."""
    p = sub_parameters(low, "blocks.0")
    ln_1, ln_2 = sub_parameters(p, "ln_1"), sub_parameters(p, "ln_2")
    x = low["wte"][tokens] + low["wpe"][: len(tokens)]  # (n, d)
    z = layer_norm(x, ln_1["gamma"], ln_1["beta"], config.layer_norm_eps)
    y = x + multi_head_attention(z, sub_parameters(p, "attn"), causal=True)[0]
    return layer_norm(y, ln_2["gamma"], ln_2["beta"], config.layer_norm_eps)[0]


@pytest.mark.parametrize("seed", range(4))
def test_model_rounding_bound_holds_at_relu_kinks(seed):
    """Every hidden pre-activation of row 0 in the first block is negative in the float32
    pass and positive in the float64 pass, so ReLU's slope at the computed point (0) is not
    the exact one (1), and w_2 times 100 makes the missed part the largest error of the
    logits: only the bound's kink term covers it. The embeddings sit at 1000 with a spread
    near 1, so the float32 rounding of E_t + P reaches LN_2's output about 1e-4 off, a
    difference D (one per hidden unit, made positive by flipping w_1's column) of the
    pre-activation; b_1 then puts the float32 pre-activation at -D/2, the float64 one at
    +D/2, far from the float32 rounding (1e-7) of either."""
    config = spec.ModelConfig(
        vocab=7, d=4, n_layer=1, n_head=2, d_ff=6, n_ctx=5, tied=False, activation="relu"
    )
    params = init_parameters(config, np.random.default_rng(seed))
    params["wte"] = params["wte"] + 1000
    params["blocks.0.mlp.w_2"] = 100 * params["blocks.0.mlp.w_2"]
    low, tokens = as_float32(params), np.array([1, 2, 3, 4, 5])
    z32, z64 = (_ln_2_input_row_0(p, config, tokens) for p in (low, as_float64(low)))
    w_1 = low["blocks.0.mlp.w_1"].astype(np.float64)  # (d, d_ff)
    moved = (z64 - z32) @ w_1  # (d_ff,)
    w_1 = w_1 * np.sign(moved)
    low["blocks.0.mlp.w_1"] = w_1.astype(np.float32)
    low["blocks.0.mlp.b_1"] = (-(z32 @ w_1) - np.abs(moved) / 2).astype(np.float32)
    pre32 = z32 @ low["blocks.0.mlp.w_1"] + low["blocks.0.mlp.b_1"]
    pre64 = z64 @ w_1 + low["blocks.0.mlp.b_1"]
    assert (pre32 < 0).all() and (pre64 > 0).all()
    logits, bound = model_rounding_bound(tokens, low, config)
    assert (np.abs(logits - forward(tokens, as_float64(low), config)) <= bound).all()


def test_layer_norm_bound_holds_for_float32_and_rejects_the_unbiased_variance():
    x = np.array([[1.0, 2.0, 3.0, 6.0], [0.5, -0.25, 4.0, 1.0]])
    gain, shift = np.array([1.0, 2.0, 0.5, 1.0]), np.array([0.0, 0.1, -0.2, 0.3])
    f32 = [a.astype(np.float32) for a in (x, gain, shift)]
    out, bound = layer_norm(*f32, 1e-5), eb.layer_norm_error_bound(*f32, 1e-5)
    exact = layer_norm(x, gain, shift, 1e-5)
    assert (np.abs(out - exact) <= bound).all()
    c = x - x.mean(axis=1, keepdims=True)
    unbiased = gain * c / np.sqrt((c * c).sum(axis=1, keepdims=True) / 3 + 1e-5) + shift
    assert (np.abs(unbiased - exact) > bound).any()


def test_a_non_finite_evaluation_is_judged_not_refused():
    """The judged arrays may be NaN or inf (a wrong softmax overflowing): the bound is then
    not finite and the comparison fails, as a check needs, while a non-finite input z is
    refused like the forward model refuses it."""
    z = np.array([1000.0, 0.0])
    with np.errstate(all="ignore"):
        wrong = np.exp(z) / np.exp(z).sum()  # inf / inf = nan
        bound = eb.softmax_error_bound(z, wrong)
    assert not (np.abs(wrong - softmax(z)) <= bound).any()
    with pytest.raises(ValueError, match=r"z must be finite, got inf"):
        eb.softmax_error_bound(np.array([np.inf, 0.0]), softmax(z))


@scaled(0.5)  # every example carries each rounding of two blocks to their outputs
@given(
    block_cases(),
    st.sampled_from(["relu", "gelu", "gelu_tanh"]),
    st.booleans(),
    st.integers(-140, 60),
)
def test_block_rounding_bound_holds_for_float32_on_drawn_blocks(case, activation, bias, scale):
    """The float32 Pre-LN and Post-LN blocks against the float64 blocks of the same float32
    parameters and input, causal or not, with and without biases, the input scaled by
    2^scale: from float32's subnormals (2^-140 X) to 2^60 X."""
    p, x, _, causal = case
    low = as_float32({k: v for k, v in p.items() if bias or ".b_" not in k})
    x32 = np.ldexp(x, scale).astype(np.float32)
    for post, block in ((False, pre_ln_block), (True, post_ln_block)):
        out, bound = block_rounding_bound(x32, low, post, causal, activation)
        assert np.array_equal(out, block(x32, low, causal, activation))
        exact = block(x32.astype(np.float64), as_float64(low), causal, activation)
        assert (np.abs(out - exact) <= bound).all()
