"""The measuring functions: zero where the property holds exactly, large where it fails."""

import mpmath
import numpy as np
import pytest

from numeric.attention import multi_head_attention
from numeric.kv_cache import Decoder
from numeric.layer_norm import layer_norm_jacobian
from numeric.model import forward, init_parameters
from numeric.running_error import model_rounding_bound
from proofs.evidence.measures import (
    causal_defect,
    decoded_in_chunks,
    equivariance_defect,
    grid_activation_patterns,
    permutation_matrix,
    run_stack,
    spread,
    stack_equivariance,
)
from spec.config import ModelConfig


def attention_layer(seed: int, d: int = 4, h: int = 2) -> tuple[str, dict]:
    rng = np.random.default_rng(seed)
    p = {name: rng.standard_normal((h, d, d // h)) for name in ("w_q", "w_k", "w_v")}
    p["w_o"] = rng.standard_normal((h, d // h, d))
    return "res_attn", p


@pytest.mark.element("def-permutation-matrix")
def test_permutation_matrix_permutes_rows_and_rejects_a_repeat():
    p = permutation_matrix([2, 0, 1])
    x = np.arange(6.0).reshape(3, 2)
    assert np.array_equal(p @ x, x[[2, 0, 1]])
    with pytest.raises(ValueError, match="pi must be a permutation"):
        permutation_matrix([0, 0, 1])


def test_equivariance_defect_separates_row_wise_from_mixing_maps():
    x = np.arange(8.0).reshape(4, 2)
    assert equivariance_defect(np.tanh, x, [3, 1, 2, 0]).max() == 0
    assert equivariance_defect(lambda y: np.cumsum(y, axis=0), x, [3, 1, 2, 0]).max() > 1


def test_stack_equivariance_within_bound_without_mask_and_beyond_it_with_positions():
    x = np.random.default_rng(0).standard_normal((5, 4))
    layers = [attention_layer(1)]
    _, diff, tol = stack_equivariance(layers, x, [4, 3, 2, 1, 0])
    assert (diff <= tol).all()

    def positioned(y, p, causal):
        return multi_head_attention(y + np.arange(5)[:, None], p, causal=causal)

    worst, _, tol = stack_equivariance(layers, x, [4, 3, 2, 1, 0], mha=positioned)
    assert worst > tol.max()


@pytest.mark.element("def-causal-map")
def test_causal_defect_within_bound_for_causal_attention_and_beyond_it_without_the_mask():
    x = np.random.default_rng(2).standard_normal((5, 4))
    layers = [attention_layer(3)]
    defect, tol = causal_defect(layers, x)
    assert (defect <= tol).all()

    def unmasked(y, p, causal):
        return multi_head_attention(y, p, causal=False)

    defect, tol = causal_defect(layers, x, mha=unmasked)
    assert (defect > tol).any()
    y, bound = run_stack(layers, x, True)
    assert y.shape == bound.shape == x.shape


def test_decoded_in_chunks_matches_one_pass_and_rejects_sizes_that_miss_tokens():
    config = ModelConfig(vocab=7, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=6)
    params = init_parameters(config, np.random.default_rng(0))
    tokens = np.array([1, 5, 2, 0])
    fed = decoded_in_chunks(Decoder, params, config, tokens, [1, 0, 3])
    assert fed.shape == (4, 7)
    # both evaluations are within the entrywise bound of the exact logits
    _, bound = model_rounding_bound(tokens, params, config)
    assert (np.abs(fed - forward(tokens, params, config)) <= 2 * bound).all()
    with pytest.raises(ValueError, match="sizes must"):
        decoded_in_chunks(Decoder, params, config, tokens, [2, 1])


@pytest.mark.element("prop-relu-piecewise-linear")
def test_grid_activation_patterns_finds_what_the_grid_meets():
    assert grid_activation_patterns(((1.0, 0.0),), (0.0,)) == ["0", "1"]
    assert grid_activation_patterns(((1.0, 0.0),), (10.0,)) == ["1"]  # the line lies off the grid
    patterns = grid_activation_patterns(((1.0, 0.0), (0.0, 1.0), (1.0, 1.0)), (0.0, 0.0, -1.0))
    assert patterns == ["000", "010", "011", "100", "101", "110", "111"]


@pytest.mark.element("prop-layer-norm-jacobian")
def test_spread_keeps_its_digits_where_the_squares_are_subnormal():
    x = np.array([-2.27586857e-160] + [0.0] * 7)  # a draw that failed 命題 3.3's eigenvalues
    with mpmath.workdps(50):
        values = [mpmath.mpf(float(v)) for v in x]
        mu = mpmath.fsum(values) / 8
        exact = mpmath.sqrt(mpmath.fsum((v - mu) ** 2 for v in values) / 8)
    assert abs(spread(x) / exact - 1) < 1e-15
    assert abs(float(x.std()) / exact - 1) > 1e-5  # squares near 1e-320 lose their digits
    assert spread(np.zeros(3)) == 0.0
    eigen = np.sort(np.linalg.eigvalsh(spread(x) * layer_norm_jacobian(x)))
    assert np.abs(eigen - [0, 0, 1, 1, 1, 1, 1, 1]).max() < 1e-14
