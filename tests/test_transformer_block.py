"""The Transformer-block chapter: every element's check passes, and rejects wrong variants.

Test names carry the element id with underscores (`pytest -k prop_layer_norm_jacobian`).
"""

import ast
import itertools
import re
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy

import spec
from numeric.activations import gelu, relu
from numeric.attention import multi_head_attention
from numeric.block import post_ln_block, pre_ln_block
from numeric.error_bounds import (
    gamma,
    layer_norm_error_bound,
    layer_norm_jacobian_error_bound,
)
from numeric.kv_cache import Decoder
from numeric.layer_norm import layer_norm, layer_norm_jacobian
from numeric.mlp import mlp
from numeric.model import forward, init_parameters, sub_parameters
from numeric.running_error import block_rounding_bound, model_rounding_bound
from proofs.book.judge import CheckFailed, Finding
from proofs.book.printed import Printed
from proofs.book.registry import load_all
from proofs.chapters.transformer_block import tables
from proofs.chapters.transformer_block.activations import (
    Architecture,
    prop_relu_piecewise_linear,
    rem_out_of_scope,
)
from proofs.chapters.transformer_block.complexity import prop_block_complexity
from proofs.chapters.transformer_block.definitions import (
    def_decoder_only_transformer,
    def_layer_norm,
    def_transformer_block,
)
from proofs.chapters.transformer_block.equivariance import (
    prop_block_equivariance_causality,
    prop_row_wise_maps,
)
from proofs.chapters.transformer_block.exercises import (
    exr_doubling_ratio,
    exr_layer_norm_affine,
    exr_parameter_count,
    exr_residual_expansion,
)
from proofs.chapters.transformer_block.layer_norm import (
    ex_layer_norm_scale,
    prop_layer_norm_invariance,
    prop_layer_norm_jacobian,
)
from proofs.chapters.transformer_block.parameters import (
    GPT2_FAMILY,
    ex_gpt2_small_count,
    ex_small_model_count,
    model_parts,
    rem_paper_parameter_count,
    thm_transformer_parameters,
)
from proofs.chapters.transformer_block.residual import (
    DEPTH_M,
    FD_ERROR,
    FD_STEP,
    MP,
    STACK,
    _residual_step,
    mp_jacobian,
    pre_ln_sublayers,
    prop_residual_identity_path,
    rem_pre_post_ln_empirical,
    residual_jacobians,
)
from proofs.chapters.transformer_block.strategies import block_parameters
from proofs.evidence.reference import DIGITS, mp_central_jacobian, mp_error, mp_layer_norm
from symbolic import gelu as symbolic_gelu
from symbolic import layer_norm as symbolic_layer_norm
from symbolic import residual
from symbolic import symbols as sym
from symbolic.arrangements import activation_regions, feasible, general_position, region_bound

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


def transcribed(id_: str) -> dict:
    """The arguments the element's claims feed its check, as transcribed from the chapter."""
    return load_all()[id_].arguments()


def unbiased_layer_norm(x, gamma=None, beta=None, eps=1e-5):
    """A wrong LayerNorm: divides by the unbiased variance (d - 1 in the denominator). Each
    row is taken at the power-of-two scale of its largest entry (eps scaled alike), so that
    no square of a tiny row underflows to a constant row."""
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    _, e = np.frexp(np.abs(x).max(axis=-1, keepdims=True))  # (..., 1)
    scaled = np.ldexp(x, -e)  # (..., d), largest |entry| in [0.5, 1)
    c = scaled - scaled.mean(axis=-1, keepdims=True)
    var = (c * c).sum(axis=-1, keepdims=True) / (d - 1)
    if eps == 0 and not var.all():
        raise ValueError("constant row")
    with np.errstate(over="ignore"):  # eps 2^-2e = inf: eps dominates, y = 0
        y = c / np.sqrt(var + np.ldexp(eps, -2 * e))
    return y * (1 if gamma is None else gamma) + (0 if beta is None else beta)


# 定義 2.1 ------------------------------------------------------------------------------


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

    with pytest.raises(CheckFailed, match=r"^row i of LN\(X\) against LN of row i .*: \d+ of \d+ "
                                         r"cases exceed their bound"):
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


# 定義 2.2 ------------------------------------------------------------------------------


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


BLOCKS = {"pre_ln": pre_ln_block, "post_ln": post_ln_block}
LAYOUT = {"pre_ln": "Pre-LN", "post_ln": "Post-LN"}


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


# 定義 2.3 ------------------------------------------------------------------------------


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


# 命題 3.1 ------------------------------------------------------------------------------


@pytest.mark.symbolic
@pytest.mark.numeric
def test_prop_layer_norm_invariance_holds():
    assert prop_layer_norm_invariance()


@pytest.mark.numeric
def test_prop_layer_norm_invariance_rejects_unbiased_variance():
    with pytest.raises(CheckFailed, match="mean, variance"):
        prop_layer_norm_invariance(normalise=unbiased_layer_norm, widths=())


@pytest.mark.numeric
def test_prop_layer_norm_invariance_rejects_a_layer_norm_with_its_entries_reversed():
    def reversed_entries(x, gamma=None, beta=None, eps=1e-5):
        return layer_norm(x, gamma, beta, eps)[..., ::-1]  # invariant, same moments

    with pytest.raises(CheckFailed, match="not 定義 2.1's"):
        prop_layer_norm_invariance(normalise=reversed_entries, widths=())


@pytest.mark.numeric
def test_prop_layer_norm_invariance_rejects_a_map_without_centring():
    def uncentred(x, gamma=None, beta=None, eps=1e-5):
        x = np.asarray(x, dtype=float)
        return x / np.sqrt(x.var(axis=-1, keepdims=True) + eps)

    with pytest.raises(CheckFailed):
        prop_layer_norm_invariance(normalise=uncentred, widths=())


@pytest.mark.symbolic
@pytest.mark.parametrize("variant, match", [
    (lambda x, eps=0: x - symbolic_layer_norm.mean(x) * sympy.ones(x.rows, 1),
     "does not reduce to 0"),  # no division by sigma: not scale-invariant
    (lambda x, eps=0: symbolic_layer_norm.layer_norm(x) + sympy.ones(x.rows, 1),
     r"LN\(-x\) != -LN\(x\)"),  # invariant, not odd
    (lambda x, eps=0: symbolic_layer_norm.layer_norm(x)
     + symbolic_layer_norm.layer_norm(x)[0] * sympy.ones(x.rows, 1),
     "mean of LN"),  # invariant and odd, mean y_1
], ids=["uncentred-scale", "shifted", "first-entry-added"])
def test_prop_layer_norm_invariance_rejects_each_symbolic_variant(variant, match):
    with pytest.raises(CheckFailed, match=match):
        prop_layer_norm_invariance(symbolic_normalise=variant, widths=(3,))


def test_prop_layer_norm_invariance_outside_the_domain_a_large_shift_loses_the_row():
    # b far above a sigma(x): fl(a x + b 1) is a constant vector, where LN is undefined
    x = np.array([0.0, 2.7e-130])
    assert np.ptp(x + 1.0) == 0.0
    with pytest.raises(ValueError, match="constant"):
        layer_norm(x + 1.0, eps=0.0)
    assert (np.abs(layer_norm(x, eps=0.0) - [-1.0, 1.0]) <= layer_norm_error_bound(x)).all()


@pytest.mark.symbolic
def test_prop_layer_norm_invariance_rejects_unbiased_variance_symbolically():
    def unbiased(x, eps=0):
        return symbolic_layer_norm.unbiased_layer_norm(x, eps)

    with pytest.raises(CheckFailed, match="variance of LN"):
        prop_layer_norm_invariance(symbolic_normalise=unbiased, widths=(3,))


# 例 3.2 --------------------------------------------------------------------------------


def test_ex_layer_norm_scale_holds_and_reports_the_truncated_square():
    evidence = ex_layer_norm_scale()
    assert [line.printed for line in evidence if isinstance(line, Finding)] == ["1.1428"]


def test_ex_layer_norm_scale_printed_numbers():
    x = np.array([1.0, 2.0, 3.0, 6.0])
    y = layer_norm(x, eps=0.0)
    assert np.round(y, 4).tolist() == [-1.069, -0.5345, 0.0, 1.6036]
    assert np.round(layer_norm(3 * x + 5, eps=0.0), 4).tolist() == [-1.069, -0.5345, 0.0, 1.6036]
    assert round(float(x.std()), 4) == 1.8708
    assert round(float((3 * x + 5).std()), 4) == 5.6125
    assert round(float(np.linalg.norm(y)), 4) == 2.0


def test_ex_layer_norm_scale_rejects_a_wrong_printed_value():
    stated = transcribed("ex-layer-norm-scale")["stated"]
    wrong = dict(stated, sigma=Printed(1.8709, 4))
    with pytest.raises(CheckFailed, match="sigma"):
        ex_layer_norm_scale(stated=wrong)
    wrong = dict(stated, output=tuple(Printed(v, 4) for v in (-1.069, -0.5345, 0, 1.6)))
    with pytest.raises(CheckFailed, match="entry"):
        ex_layer_norm_scale(stated=wrong)


@pytest.mark.symbolic
def test_ex_layer_norm_scale_rejects_a_negative_scale():
    # -3x + 5 has the printed variance and sigma of 3x + 5 and mean -4, but LN flips sign
    stated = dict(transcribed("ex-layer-norm-scale")["stated"], shift=(-3, 5),
                  scaled_mean=Printed(-4.0, 0))
    with pytest.raises(CheckFailed, match=r"LN\(3x \+ 5\) != LN\(x\)"):
        ex_layer_norm_scale(stated=stated)


@pytest.mark.symbolic
def test_ex_layer_norm_scale_rejects_a_wrong_printed_norm():
    stated = dict(transcribed("ex-layer-norm-scale")["stated"], norm=Printed(3.0, 0))
    with pytest.raises(CheckFailed, match=r"\|\|LN\(x\)\|\| = 2, printed 3.0"):
        ex_layer_norm_scale(stated=stated)


@pytest.mark.symbolic
def test_ex_layer_norm_scale_rejects_a_square_neither_rounded_nor_truncated():
    stated = transcribed("ex-layer-norm-scale")["stated"]
    squares = (stated["squares"][0], Printed(0.2858, 4), *stated["squares"][2:])
    with pytest.raises(CheckFailed, match="the square 2/7 = 0.285714 is printed 0.2858"):
        ex_layer_norm_scale(stated=dict(stated, squares=squares))


def test_ex_layer_norm_scale_rejects_unbiased_variance():
    with pytest.raises(CheckFailed):
        ex_layer_norm_scale(normalise=unbiased_layer_norm)


# 命題 3.3 ------------------------------------------------------------------------------


@pytest.mark.symbolic
@pytest.mark.numeric
def test_prop_layer_norm_jacobian_holds():
    # the registered check derives d = 2..16 explicitly (about 20 s); here d = 2..6, beside
    # the derivation for symbolic d that the check always runs
    assert prop_layer_norm_jacobian(widths=range(2, 7))


def missing_yy(x, eps=0.0):
    """A wrong Jacobian: (I - 11^T/d)/sigma, without the yy^T/d term (sigma as NumPy computes
    it: 0, and the entries infinite, for a drawn row whose squares underflow)."""
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    with np.errstate(divide="ignore"):
        return (np.eye(d) - 1.0 / d) / np.sqrt(x.var() + eps)


def missing_ones(x, eps=0.0):
    """A wrong Jacobian: (I - yy^T/d)/sigma, without the 11^T/d term."""
    x = np.asarray(x, dtype=float)
    d, sigma = x.shape[-1], np.sqrt(x.var() + eps)
    y = (x - x.mean()) / sigma
    return (np.eye(d) - np.outer(y, y) / d) / sigma


def off_by_two_and_a_half_bounds(x, eps=0.0):
    """layer_norm_jacobian times 1 + 2.5 bound / max|J| for d >= 5: its largest entry is
    off by at least 1.5 times the rounding bound, while 1 and x - mu 1 stay in the kernel
    and the eigenvalues of sigma J move by less than their tolerance d sigma bound (the
    largest diagonal entry is at least (d - 2) / (d sigma), the trace of sigma J being
    d - 2)."""
    jacobian = layer_norm_jacobian(x, eps)
    if x.size < 5:
        return jacobian
    bound = float(layer_norm_jacobian_error_bound(x, eps))
    return jacobian * (1 + 2.5 * bound / np.abs(jacobian).max())


def nonzero_at_d_2(x, eps=0.0):
    """layer_norm_jacobian plus 1.5 bound I at d = 2, where J = 0: within the kernel and
    eigenvalue tolerances (2 sigma bound and more), beyond the d = 2 clause's bound."""
    jacobian = layer_norm_jacobian(x, eps)
    if x.size != 2:
        return jacobian
    return jacobian + 1.5 * float(layer_norm_jacobian_error_bound(x, eps)) * np.eye(2)


@pytest.mark.numeric
@pytest.mark.parametrize("jacobian, match", [
    (missing_ones, r"\|J \(1\)\|"),
    (missing_yy, r"\|J \(x - mu 1\)\|"),
    (lambda x, eps=0.0: 2 * layer_norm_jacobian(x, eps), "eigenvalues of sigma J"),
    (nonzero_at_d_2, "d = 2 but J ="),
    (off_by_two_and_a_half_bounds, "J differs from mpmath's"),
], ids=["missing 11^T", "missing yy^T", "doubled", "nonzero at d = 2", "off by 2.5 bounds"])
def test_prop_layer_norm_jacobian_rejects_each_wrong_jacobian_at_its_clause(jacobian, match):
    with pytest.raises(CheckFailed, match=match):
        prop_layer_norm_jacobian(jacobian=jacobian, widths=(), property_widths=())


def wrong_where(condition):
    """layer_norm_jacobian, but off by a relative 1e-6 (or, at a constant row, not
    raising) on the rows where condition(x) holds: outside the drawn domain."""
    def jacobian(x, eps=0.0):
        x = np.asarray(x, dtype=float)
        if not condition(x):
            return layer_norm_jacobian(x, eps)
        if np.ptp(x) == 0:
            return np.zeros((x.size, x.size)) if eps == 0 else np.eye(x.size) / np.sqrt(eps)
        return layer_norm_jacobian(x, eps) * (1 + 1e-6)
    return jacobian


@pytest.mark.numeric
def test_prop_layer_norm_jacobian_rejects_a_jacobian_wrong_at_the_scaled_row():
    calls = [0]

    def every_second_call_off(x, eps=0.0):  # the check evaluates J(x), then J(a x)
        calls[0] += 1
        return layer_norm_jacobian(x, eps) * (1 + 1e-6 * (calls[0] % 2 == 0))

    with pytest.raises(CheckFailed, match=r"J\(.* x\) - J\(x\)/"):
        prop_layer_norm_jacobian(jacobian=every_second_call_off, widths=(),
                                 property_widths=())


@pytest.mark.numeric
@pytest.mark.parametrize("condition, match", [
    (lambda x: 0 < x.std() < 1e-6 * np.abs(x).max(), "near-constant row: J differs"),
    (lambda x: np.ptp(x) == 0, "constant row with eps = 0 did not raise"),
], ids=["near-constant-row", "constant-row"])
def test_prop_layer_norm_jacobian_rejects_a_jacobian_wrong_outside_the_draws(condition, match):
    with pytest.raises(CheckFailed, match=match):
        prop_layer_norm_jacobian(jacobian=wrong_where(condition), widths=(),
                                 property_widths=())


@pytest.mark.numeric
def test_prop_layer_norm_jacobian_rejects_a_wrong_constant_row_with_eps():
    def raising_only_without_eps(x, eps=0.0):
        x = np.asarray(x, dtype=float)
        if np.ptp(x) == 0 and eps > 0:
            return np.eye(x.size) / np.sqrt(eps)  # without the -11^T/d
        return layer_norm_jacobian(x, eps)

    with pytest.raises(CheckFailed, match=r"constant row, eps = 0.01"):
        prop_layer_norm_jacobian(jacobian=raising_only_without_eps, widths=(),
                                 property_widths=())


@pytest.mark.numeric
def test_prop_layer_norm_jacobian_rejects_a_layer_norm_with_the_sign_flipped():
    def flipped(x, eps=1e-5):
        return -layer_norm(x, eps=eps)

    with pytest.raises(CheckFailed, match=r"d = 2: LN\(x\) = .*, not"):
        prop_layer_norm_jacobian(normalise=flipped, widths=(), property_widths=())


@pytest.mark.symbolic
def test_prop_layer_norm_jacobian_rejects_missing_yy_t_symbolically():
    def stated(y, sigma):
        d = y.rows
        return (sympy.eye(d) - sympy.ones(d, d) / d) / sigma

    def stated_entry(y_i, y_j, delta, sigma, d):
        return (delta - 1 / d) / sigma

    # the derivation and the properties it fails, in one message
    with pytest.raises(CheckFailed, match=r"symbolic d: dLN/dx differs from the stated J by .*; "
                                          r"J y = 0 fails for the stated J .*; "
                                          r"tr\(s J\) = d - 2 fails for the stated J"):
        prop_layer_norm_jacobian(stated_entry=stated_entry, widths=(2,), property_widths=())
    with pytest.raises(CheckFailed, match="d = 3"):
        prop_layer_norm_jacobian(stated=stated, widths=(3,), property_widths=())
    with pytest.raises(CheckFailed, match="d = 3: J c = 0 does not hold for the stated J"):
        prop_layer_norm_jacobian(stated=stated, widths=(), property_widths=(3,))


def test_prop_layer_norm_jacobian_near_constant_rows():
    x = np.array([2.0, 2.0 + 2**-40, 2.0, 2.0])
    got = layer_norm_jacobian(x)
    assert np.abs(got).max() > 1e10  # 1/sigma: the gradient blows up near constant rows
    # |J 1| <= d max|fl J - J| + gamma_d sum_j |J_ij|: still 0 to rounding, at |J| ~ 1e12
    bound = 4 * layer_norm_jacobian_error_bound(x) + gamma(4) * np.abs(got).sum(axis=1)
    assert np.all(np.abs(got @ np.ones(4)) <= bound)
    with pytest.raises(ValueError, match="constant"):
        layer_norm_jacobian(np.full(4, 2.0))


# 命題 4.1 ------------------------------------------------------------------------------


@pytest.mark.symbolic
@pytest.mark.numeric
def test_prop_residual_identity_path_holds():
    assert prop_residual_identity_path()


@pytest.mark.numeric
def test_prop_residual_identity_path_rejects_a_stack_without_residual():
    with pytest.raises(CheckFailed, match="x_M != x_0"):
        prop_residual_identity_path(step=lambda x, g: g(x), depths=())


@pytest.mark.numeric
def test_prop_residual_identity_path_rejects_a_step_with_a_1e_18_square():
    """Below float64's rounding of x_l, so the stack still telescopes and equals the blocks;
    its Jacobian gains 2e-18 x, beyond the 50-digit bounds of the product."""
    with pytest.raises(CheckFailed, match=r"differs from prod \(I \+ J_k\)"):
        prop_residual_identity_path(step=lambda x, g: x + g(x) + 1e-18 * x**2, depths=())


@pytest.mark.numeric
def test_prop_residual_identity_path_rejects_blocks_off_by_a_relative_1e_9():
    def drifting(x, params):
        return pre_ln_block(x, params) * (1 + 1e-9)

    with pytest.raises(CheckFailed, match="the sublayer stack differs from the blocks"):
        prop_residual_identity_path(block=drifting, depths=())


@pytest.mark.symbolic
@pytest.mark.parametrize("stated, match", [
    ({"identity_count": 2}, "M - l = 1: 1 bare I terms, stated 2"),
    ({"term_count": 2 * DEPTH_M}, r"M - l = 3: 8 terms \(distinct\), stated 6"),
], ids=["two identities", "2(M - l) terms"])
def test_prop_residual_identity_path_judges_the_stated_counts(stated, match):
    with pytest.raises(CheckFailed, match=match):
        prop_residual_identity_path(**stated, depths=(1, 2, 3))


@pytest.mark.numeric
def test_prop_residual_identity_path_rejects_post_ln_factors_in_the_other_order():
    def swapped(k, d):  # (I + D_k) K_k
        return (np.eye(len(d)).astype(d.dtype) + d) @ k

    with pytest.raises(CheckFailed, match=r"Post-LN: dx_M/dx_0 differs from prod K_k"):
        prop_residual_identity_path(factor=swapped, depths=())


@pytest.mark.numeric
def test_prop_residual_identity_path_rejects_a_layer_norm_jacobian_without_centring():
    def without_centring(s, eps):  # (I - y y^T / d) / sigma: the -1 1^T / d term dropped
        d = s.shape[-1]
        sigma = np.sqrt(s.var(axis=-1, keepdims=True) + eps)  # (n, 1)
        y = (s - s.mean(axis=-1, keepdims=True)) / sigma  # (n, d)
        return (np.eye(d) - y[:, :, None] * y[:, None, :] / d) / sigma[:, :, None]

    with pytest.raises(CheckFailed, match="K_1 does not annihilate 'add 1 to row 1'"):
        prop_residual_identity_path(jacobian=without_centring, depths=())


def test_rem_pre_post_ln_empirical_rejects_an_unregistered_statement():
    with pytest.raises(CheckFailed, match="'prop-residual-path', which is not registered"):
        rem_pre_post_ln_empirical(statement_id="prop-residual-path")


@pytest.mark.symbolic
def test_prop_residual_identity_path_rejects_a_pre_ln_product_one_factor_too_long():
    def one_more(depth, start):
        return residual.pre_ln_product(depth + 1, start)

    with pytest.raises(CheckFailed, match=r"M - l = 1: 4 terms \(distinct\), stated 2"):
        prop_residual_identity_path(pre_ln_product=one_more, depths=(1,))


@pytest.mark.symbolic
def test_prop_residual_identity_path_rejects_a_pre_ln_product_without_the_identity_path():
    with pytest.raises(CheckFailed, match="M - l = 2: 0 bare I terms, stated 1"):
        prop_residual_identity_path(pre_ln_product=residual.post_ln_product, depths=(2,))


@pytest.mark.symbolic
def test_prop_residual_identity_path_rejects_a_post_ln_product_with_a_bare_identity():
    def with_bare_identity(depth, start):
        return residual.pre_ln_product(depth, start)

    with pytest.raises(CheckFailed, match="Post-LN"):
        prop_residual_identity_path(post_ln_product=with_bare_identity, depths=(2,))


def test_prop_residual_identity_path_tolerances_separate_the_identity_term():
    # the Jacobian tolerances are far below 1, the size of the I term a missing residual drops
    stages = residual_jacobians(seed=0)["stages"]
    assert max(bound for *_, bound in stages) < 1e-15


@pytest.mark.numeric
def test_prop_residual_identity_path_jacobians_reject_a_product_without_the_identity():
    stages = residual_jacobians(seed=0, identity=False)["stages"]
    assert all(gap > 1e10 * bound for _, gap, bound in stages)


@pytest.mark.element("prop-residual-identity-path", "exr-residual-expansion")
def test_mp_jacobian_of_a_linear_map_is_the_matrix():
    a = np.array([[2.0, -1.0], [0.5, 4.0]])
    with mpmath.workdps(DIGITS):
        jac = mp_jacobian(lambda y: y @ a.T, np.array([[1.0, 2.0]], dtype=object))
        assert max(abs(v) for v in (jac - a).ravel()) < mpmath.mpf("1e-29")


@pytest.mark.numeric
@pytest.mark.element("prop-residual-identity-path", "exr-residual-expansion")
def test_fd_error_covers_the_truncation_of_the_sublayers_differences():
    """FD_ERROR assumes third derivatives below 6e20 on the step's segment; the truncation
    measured by doubling the step (D(2h) - D(h) = h^2 f^(3) / 2 + O(h^4)) is far below it
    at the stack's first point."""
    params = init_parameters(STACK, np.random.default_rng(0))
    x = np.random.default_rng(1).standard_normal((STACK.n_ctx, STACK.d)).astype(object)
    with mpmath.workdps(DIGITS):
        for g in pre_ln_sublayers(params, STACK, MP):
            def flat(v, g=g):
                return list(g(np.array(v, dtype=object).reshape(x.shape)).ravel())

            fine = mp_central_jacobian(flat, list(x.ravel()), FD_STEP)
            coarse = mp_central_jacobian(flat, list(x.ravel()), 2 * FD_STEP)
            measured = max(abs(a - b) for r, s in zip(fine, coarse, strict=True)
                           for a, b in zip(r, s, strict=True))
            assert measured < 1e-10 * FD_ERROR


# 注意 4.2 ------------------------------------------------------------------------------


def test_rem_pre_post_ln_empirical_holds():
    assert "not a theorem" in rem_pre_post_ln_empirical()[0]


def test_rem_pre_post_ln_empirical_rejects_a_wrong_reference():
    with pytest.raises(CheckFailed, match="refers to"):
        rem_pre_post_ln_empirical(refers_to="命題 4.2")


# 定理 5.1 ------------------------------------------------------------------------------


@pytest.mark.symbolic
@pytest.mark.numeric
def test_thm_transformer_parameters_holds():
    assert thm_transformer_parameters()


@pytest.mark.symbolic
def test_thm_transformer_parameters_rejects_12d2_plus_12d():
    with pytest.raises(CheckFailed, match="12"):
        thm_transformer_parameters(stated_per_layer=12 * sym.d**2 + 12 * sym.d)


@pytest.mark.symbolic
def test_thm_transformer_parameters_rejects_a_missing_final_layer_norm():
    no_final = transcribed("thm-transformer-parameters")["stated_count"] - 2 * sym.d
    with pytest.raises(CheckFailed, match="stated"):
        thm_transformer_parameters(stated_count=no_final)


@pytest.mark.numeric
def test_thm_transformer_parameters_rejects_an_allocation_without_final_layer_norm():
    def allocate(config, rng):
        params = init_parameters(config, rng)
        return {k: v for k, v in params.items() if not k.startswith("ln_f")}

    with pytest.raises(CheckFailed, match="allocated"):
        thm_transformer_parameters(allocate=allocate)


# 例 5.2, 例 5.3, 注意 5.4, 演習 11.1 ---------------------------------------------------


def test_ex_small_model_count_holds():
    assert ex_small_model_count()


def test_ex_small_model_count_is_568():
    assert model_parts({"vocab": 10, "d": 4, "d_ff": 16, "n_layer": 2, "n_ctx": 8})["total"] == 568


def test_ex_small_model_count_rejects_a_wrong_part():
    stated = transcribed("ex-small-model-count")["stated"]
    wrong = dict(stated, parts=dict(stated["parts"], mlp=144))
    with pytest.raises(CheckFailed, match="mlp"):
        ex_small_model_count(stated=wrong)


def test_ex_small_model_count_rejects_a_wrong_total_of_right_parts():
    wrong = dict(transcribed("ex-small-model-count")["stated"], total=569)
    with pytest.raises(CheckFailed, match="total: computed 568, stated 569"):
        ex_small_model_count(stated=wrong)


def test_ex_small_model_count_rejects_an_allocation_without_the_final_beta():
    def without_final_beta(config, rng):
        params = init_parameters(config, rng)
        del params["ln_f.beta"]
        return params

    with pytest.raises(CheckFailed, match="allocated 564, formula 568, stated 568"):
        ex_small_model_count(allocate=without_final_beta)


def test_ex_gpt2_small_count_holds():
    assert ex_gpt2_small_count()


def test_ex_gpt2_small_count_rejects_declared_shapes_without_a_bias():
    def without_b_o():
        return [p for p in spec.model_parameters() if p.name != "blocks.attn.b_o"]

    with pytest.raises(CheckFailed, match="declared shapes give 124,430,592, the table "
                                          "124,439,808"):
        ex_gpt2_small_count(declared=without_b_o)


def test_ex_gpt2_small_count_table_rows():
    values = list(tables.gpt2_parameter_table().column("個数"))
    assert values == [38_597_376, 786_432, 7_087_872, 85_054_464, 1_536, 124_439_808]


def test_thm_transformer_parameters_rejects_a_released_checkpoint_of_another_size():
    family = dict(GPT2_FAMILY, medium=((1024, 24, 16), 345_000_000))  # the paper's 345M
    with pytest.raises(CheckFailed, match="GPT-2 medium .* released checkpoint holds 345,000,000"):
        thm_transformer_parameters(family=family)


@pytest.mark.numeric
def test_ex_gpt2_small_count_rejects_a_wrong_total():
    wrong = dict(transcribed("ex-gpt2-small-count")["stated"], total=124_439_000)
    with pytest.raises(CheckFailed, match="total"):
        ex_gpt2_small_count(stated=wrong)


@pytest.mark.numeric
def test_ex_gpt2_small_count_rejects_sizes_other_than_the_released_model():
    stated = transcribed("ex-gpt2-small-count")["stated"]
    sizes = dict(stated["sizes"], vocab=50_258)
    total = tables.gpt2_parameter_table(**sizes).column("個数")[-1]  # consistent, not GPT-2's
    with pytest.raises(CheckFailed, match="is not the released GPT-2 small's 124,439,808"):
        ex_gpt2_small_count(stated=dict(stated, sizes=sizes, total=total))


@pytest.mark.numeric
def test_ex_gpt2_small_count_rejects_a_wrong_embedding_share():
    wrong = dict(transcribed("ex-gpt2-small-count")["stated"], embedding_share=Printed(0.32, 2))
    with pytest.raises(CheckFailed, match="the embeddings' share is 0.3102, printed 0.32"):
        ex_gpt2_small_count(stated=wrong)


def test_rem_paper_parameter_count_holds_and_states_the_difference():
    assert "7,439,808" in rem_paper_parameter_count()[0]


def test_rem_paper_parameter_count_rejects_a_wrong_count():
    wrong = dict(transcribed("rem-paper-parameter-count")["stated"], total=124_439_809)
    with pytest.raises(CheckFailed, match="the count is 124,439,808, stated 124,439,809"):
        rem_paper_parameter_count(stated=wrong)


def test_rem_paper_parameter_count_rejects_an_agreeing_paper_value():
    with pytest.raises(CheckFailed, match="agree"):
        rem_paper_parameter_count(stated=dict(transcribed("rem-paper-parameter-count")["stated"],
                                              paper_total=(124_000_000, 500_000)))


def test_exr_parameter_count_holds():
    assert exr_parameter_count()


def test_exr_parameter_count_is_272256_with_23_5_percent():
    parts = model_parts({"vocab": 1000, "d": 64, "n_layer": 4, "n_ctx": 128})
    assert parts["total"] == 272_256
    assert round(100 * parts["embeddings"] / parts["total"], 1) == 23.5


def test_exr_parameter_count_rejects_a_wrong_part_and_a_wrong_total():
    stated = transcribed("exr-parameter-count")["stated"]
    name, value = next(iter(stated["parts"].items()))
    with pytest.raises(CheckFailed, match=f"{name}: computed {value:,}, stated {value + 1:,}"):
        exr_parameter_count(stated=dict(stated, parts=dict(stated["parts"], **{name: value + 1})))
    with pytest.raises(CheckFailed, match="total: computed"):
        exr_parameter_count(stated=dict(stated, total=stated["total"] + 1))


@pytest.mark.numeric
def test_exr_parameter_count_rejects_a_model_with_an_extra_array():
    def with_extra(config, rng):
        return {**init_parameters(config, rng), "extra": np.zeros(3)}

    with pytest.raises(CheckFailed, match="a real model has"):
        exr_parameter_count(allocate=with_extra)


@pytest.mark.parametrize("limits, message", [
    ({"short": 2, "long": 5, "middle": 6}, "tends to 2 as n -> 0 and 4 as n -> oo, stated 2 and 5"),
    ({"short": 1, "long": 4, "middle": 6}, "tends to 2 as n -> 0 and 4 as n -> oo, stated 1 and 4"),
    ({"short": 2, "long": 4, "middle": 5}, "at n = 5d the ratio is 32/11, not the midpoint"),
], ids=["long", "short", "middle"])
def test_exr_doubling_ratio_rejects_wrong_limits(limits, message):
    with pytest.raises(CheckFailed, match=message):
        exr_doubling_ratio(limits=limits)


def test_exr_doubling_ratio_rejects_a_wrong_printed_ratio():
    printed = dict(transcribed("exr-doubling-ratio")["printed"], n_1=Printed(2.30, 2))
    with pytest.raises(CheckFailed, match=r"n = 1d: 16/7 = 2.2857, printed 2.3"):
        exr_doubling_ratio(printed=printed)


def test_exr_parameter_count_rejects_a_wrong_share():
    with pytest.raises(CheckFailed, match="share"):
        exr_parameter_count(stated=dict(transcribed("exr-parameter-count")["stated"],
                                        embedding_share=Printed(0.31, 2)))


# 命題 6.1, 演習 11.4 -------------------------------------------------------------------


@pytest.mark.symbolic
@pytest.mark.numeric
def test_prop_block_complexity_holds():
    assert prop_block_complexity()


@pytest.mark.symbolic
def test_prop_block_complexity_rejects_a_single_mlp_product():
    n, d, d_ff = sym.n, sym.d, sym.d_ff
    half_mlp = 4 * n * d**2 + 2 * n**2 * d + n * d * d_ff
    with pytest.raises(CheckFailed, match="stated"):
        prop_block_complexity(stated=half_mlp)


@pytest.mark.symbolic
def test_prop_block_complexity_rejects_a_split_that_swaps_the_terms(monkeypatch):
    from symbolic import counts

    split = counts.linear_quadratic

    def swapped(poly, var=sym.n):  # the same crossover, the opposite sign
        linear, quadratic = split(poly, var)
        return quadratic, linear

    monkeypatch.setattr(counts, "linear_quadratic", swapped)
    with pytest.raises(CheckFailed, match=r"linear - quadratic = -2\*d\*n\*\(6\*d - n\)"):
        prop_block_complexity()


@pytest.mark.numeric
def test_prop_block_complexity_rejects_a_block_that_attends_twice():
    def twice(x, params, causal=True):
        pre_ln_block(x, params, causal=causal)
        return pre_ln_block(x, params, causal=causal)

    with pytest.raises(CheckFailed, match="counted"):
        prop_block_complexity(block=twice)


@pytest.mark.numeric
def test_prop_block_complexity_rejects_a_post_ln_block_that_attends_twice():
    def twice(x, params):
        post_ln_block(x, params)
        return post_ln_block(x, params)

    with pytest.raises(CheckFailed, match="a Post-LN pass counted"):
        prop_block_complexity(post_ln=twice)


@pytest.mark.numeric
def test_prop_block_complexity_rejects_a_model_that_runs_twice():
    def twice(tokens, params, config):
        forward(tokens, params, config)
        return forward(tokens, params, config)

    with pytest.raises(CheckFailed, match="a model pass counted"):
        prop_block_complexity(model=twice)


def test_prop_block_complexity_figures():
    linear, quadratic, ratio, _ = tables.block_cost_comparison(d=768, n=1024).column("値")
    assert (linear, quadratic) == (7_247_757_312, 1_610_612_736)
    assert f"{ratio:.3f}" == "0.222"


@pytest.mark.symbolic
@pytest.mark.parametrize("stated, match", [
    ({"stated_at_four_d": 12 * sym.n * sym.d**2 + sym.n**2 * sym.d}, "at d_ff = 4d the block"),
    ({"stated_crossover": 8 * sym.d}, "the two terms cross at n = 6"),
    ({"stated_head": 2 * sym.n * sym.d * sym.V}, "the output layer costs"),
], ids=["at-4d", "crossover", "head"])
def test_prop_block_complexity_rejects_each_wrong_stated_formula(stated, match):
    with pytest.raises(CheckFailed, match=match):
        prop_block_complexity(**stated)


def test_prop_block_complexity_rejects_a_wrong_printed_ratio():
    figures = dict(transcribed("prop-block-complexity")["figures"], ratio=Printed(0.223, 3))
    with pytest.raises(CheckFailed, match="ratio 0.2222, n/\\(6d\\) = 0.2222, printed 0.223"):
        prop_block_complexity(figures=figures)


def test_prop_block_complexity_rejects_a_wrong_printed_figure():
    with pytest.raises(CheckFailed, match="printed"):
        prop_block_complexity(figures=dict(transcribed("prop-block-complexity")["figures"],
                                           linear=7_247_757_000))


@pytest.mark.symbolic
def test_exr_doubling_ratio_holds():
    assert exr_doubling_ratio()


def test_exr_doubling_ratio_values():
    ratio = (12 * sym.d + 4 * sym.n) / (6 * sym.d + sym.n)
    got = [sympy.nsimplify(ratio.subs(sym.n, k * sym.d)) for k in (1, 6, 60)]
    assert got == [sympy.Rational(16, 7), 3, sympy.Rational(42, 11)]
    assert [round(float(v), 2) for v in got] == [2.29, 3.0, 3.82]


@pytest.mark.symbolic
def test_exr_doubling_ratio_rejects_a_wrong_ratio():
    with pytest.raises(CheckFailed, match="stated"):
        exr_doubling_ratio(stated=(12 * sym.d + 2 * sym.n) / (6 * sym.d + sym.n))


@pytest.mark.numeric
def test_exr_doubling_ratio_rejects_a_block_without_attention_scores():
    def linear_only(x, params, causal=True):
        return mlp(x, sub_parameters(params, "mlp"))

    with pytest.raises(CheckFailed, match="counted"):
        exr_doubling_ratio(block=linear_only)


# 命題 7.1 ------------------------------------------------------------------------------


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


# 命題 7.2 ------------------------------------------------------------------------------


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
def test_prop_block_equivariance_causality_rejects_a_block_off_by_3e_14_times_the_position(
        layout):
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
        layout):
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

    with pytest.raises(CheckFailed, match=r"^logits of the prefix 1\.\.k differ from row k: \d+ of "
                                         r"\d+ cases exceed their bound; worst: the prefix 1\.\."):
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


# 命題 8.1 ------------------------------------------------------------------------------


@pytest.mark.symbolic
@pytest.mark.numeric
def test_prop_relu_piecewise_linear_holds():
    assert prop_relu_piecewise_linear()


@pytest.mark.numeric
def test_prop_relu_piecewise_linear_rejects_gelu_replaced_by_relu():
    with pytest.raises(CheckFailed, match="affine there"):
        prop_relu_piecewise_linear(smooth=relu)


@pytest.mark.symbolic
def test_prop_relu_piecewise_linear_rejects_a_wrong_second_derivative():
    with pytest.raises(CheckFailed, match="GELU''"):
        prop_relu_piecewise_linear(stated_second=lambda t: (1 - t**2) * sympy.exp(-t**2 / 2)
                                      / sympy.sqrt(2 * sympy.pi))


@pytest.mark.numeric
def test_prop_relu_piecewise_linear_rejects_a_leaky_relu_network():
    def leaky(x, p):
        a = x @ p["w_1"] + p["b_1"]
        return np.where(a > 0, a, 0.01 * a) @ p["w_2"] + p["b_2"]

    with pytest.raises(CheckFailed, match="affine map"):
        prop_relu_piecewise_linear(relu_network=leaky)


@pytest.mark.symbolic
def test_prop_relu_piecewise_linear_rejects_a_wrong_first_derivative():
    def doubled_first():
        first, second = symbolic_gelu.derivatives()
        return 2 * first, second

    with pytest.raises(CheckFailed, match=r"GELU' = .*, not Phi \+ t phi"):
        prop_relu_piecewise_linear(derivatives=doubled_first)


@pytest.mark.symbolic
def test_prop_relu_piecewise_linear_rejects_wrong_stated_zeros():
    with pytest.raises(CheckFailed, match=r"zeros of GELU'' are \[-sqrt\(2\), sqrt\(2\)\], "
                                          r"stated \[-1, 1\]"):
        prop_relu_piecewise_linear(stated_zeros=frozenset({-1, 1}))


def test_prop_relu_piecewise_linear_zeros_are_read_from_the_chapter():
    assert transcribed("prop-relu-piecewise-linear")["stated_zeros"] == {
        -sympy.sqrt(2), sympy.sqrt(2)}


@pytest.mark.parametrize("regions, match", [
    (lambda w, b: activation_regions(w, b) + ["x"] * (2 ** len(b) if len(b) >= 4 else 0),
     r"regions for \d hyperplanes, more than the stated"),
    (lambda w, b: activation_regions(w, b)[len(b) >= 4:],
     "regions for .* hyperplanes in general position"),
], ids=["more than 2^m", "one region short"])
def test_prop_relu_piecewise_linear_rejects_region_counts_wrong_beyond_the_example(
    regions, match
):
    with pytest.raises(CheckFailed, match=match):
        prop_relu_piecewise_linear(regions=regions)


def test_prop_relu_piecewise_linear_rejects_eight_patterns():
    with pytest.raises(CheckFailed, match="non-empty regions"):
        prop_relu_piecewise_linear(printed={"regions": 8, "patterns": 8})


def example_of(w_1, b_1):
    """An example dict for 命題 8.1's check, with its printed counts from the exact regions."""
    patterns = activation_regions(w_1, b_1)
    every = {"".join(p) for p in itertools.product("01", repeat=len(b_1))}
    printed = {"regions": len(patterns), "patterns": len(patterns)}
    return {"w_1": w_1, "b_1": b_1, "missing": tuple(sorted(every - set(patterns)))}, printed


def test_prop_relu_piecewise_linear_rejects_an_example_the_listing_grid_cannot_see():
    example, printed = example_of(((1, 0), (0, 1), (1, 1)), (-10, 0, -1))  # x = 10: off-grid
    with pytest.raises(CheckFailed, match="the listing's grid finds"):
        prop_relu_piecewise_linear(example=example, printed=printed)


def test_prop_relu_piecewise_linear_rejects_an_example_not_in_general_position():
    example, printed = example_of(((1, 0), (0, 1), (1, 1)), (0, 0, 0))  # concurrent lines
    assert printed["regions"] == 6
    with pytest.raises(CheckFailed, match="not in general position"):
        prop_relu_piecewise_linear(example=example, printed=printed)


def test_prop_relu_piecewise_linear_example_is_exact():
    patterns = activation_regions(((1, 0), (0, 1), (1, 1)), (0, 0, -1))
    assert patterns == ["000", "010", "011", "100", "101", "110", "111"]
    # a point on the boundary: x = (0, 0) has pattern 000 (a_k <= 0 for all k)
    assert feasible([((Fraction(1), Fraction(0)), Fraction(0), False),
                     ((Fraction(-1), Fraction(0)), Fraction(0), False)])
    assert not feasible([((Fraction(1),), Fraction(0), True),
                         ((Fraction(-1),), Fraction(0), False)])


def test_prop_relu_piecewise_linear_region_count_of_parallel_lines():
    # three parallel lines (not in general position) cut the plane into 4 strips
    assert len(activation_regions(((1, 0), (1, 0), (1, 0)), (0, -1, -2))) == 4
    assert not general_position(((1, 0), (1, 0), (1, 0)), (0, -1, -2))
    assert region_bound(3, 2) == 7


def test_prop_relu_piecewise_linear_float_cannot_see_gelu_curvature_far_right():
    t = np.array([9.0, 9.5, 10.0])
    f = gelu(t)
    assert f[0] - 2 * f[1] + f[2] == 0.0  # GELU(t) = t in float64 here


def test_prop_relu_piecewise_linear_helpers_reject_bad_input():
    with pytest.raises(ValueError, match="b_1"):
        activation_regions(((1, 0), (0, 1)), (0,))
    with pytest.raises(ValueError, match="w_1"):
        activation_regions(((1, 0), (0,)), (0, 0))
    with pytest.raises(TypeError, match="w_1"):
        general_position((("a", 0),), (0,))
    with pytest.raises(ValueError, match="m must be"):
        region_bound(-1, 2)


# 注意 8.2 ------------------------------------------------------------------------------


def test_rem_out_of_scope_holds_and_reports_the_table():
    evidence = rem_out_of_scope(**transcribed("rem-out-of-scope"))
    assert len([line for line in evidence if "parts" in line]) == 3


def test_rem_out_of_scope_rejects_a_wrong_part_count():
    columns = transcribed("rem-out-of-scope")["table"]
    wrong = (columns[0], Architecture("decoder", "causal", True, True, 2), columns[2])
    with pytest.raises(CheckFailed, match="parts"):
        rem_out_of_scope(table=wrong)


def test_rem_out_of_scope_rejects_a_bidirectional_decoder_only_column():
    columns = transcribed("rem-out-of-scope")["table"]
    wrong = columns[:2] + (Architecture("decoder-only", "none", False, True, 2),)
    with pytest.raises(CheckFailed, match="decoder-only"):
        rem_out_of_scope(table=wrong)

def test_rem_out_of_scope_rejects_blocks_without_a_second_layer_norm():
    def without_ln_2():
        return [p for p in spec.model_parameters() if not p.name.startswith("blocks.ln_2")]

    with pytest.raises(CheckFailed, match=r"blocks declare the groups \['attn', 'ln_1', 'mlp'\]"):
        rem_out_of_scope(**transcribed("rem-out-of-scope"), declared=without_ln_2)


def test_rem_out_of_scope_rejects_an_attention_that_ignores_the_context():
    def self_only(x, params, context=None):
        return multi_head_attention(x, params)

    with pytest.raises(CheckFailed, match=r"cross-attention gave shapes \(3, 4\), \(2, 3, 3\)"):
        rem_out_of_scope(**transcribed("rem-out-of-scope"), attention=self_only)


@pytest.mark.numeric
def test_rem_out_of_scope_rejects_a_model_that_reads_later_tokens():
    def backwards(tokens, params, config):
        return forward(np.asarray(tokens)[::-1], params, config)[::-1]

    with pytest.raises(CheckFailed, match="the package's model is not causal"):
        rem_out_of_scope(model=backwards)


# 演習 11.2, 11.3 -----------------------------------------------------------------------


@pytest.mark.symbolic
@pytest.mark.numeric
def test_exr_layer_norm_affine_holds():
    assert exr_layer_norm_affine()


@pytest.mark.symbolic
def test_exr_layer_norm_affine_rejects_a_wrong_norm():
    with pytest.raises(CheckFailed, match="norm"):
        exr_layer_norm_affine(stated_norm=lambda d, g, b: sympy.sqrt(d) * (g + b))


@pytest.mark.numeric
def test_exr_layer_norm_affine_rejects_unbiased_variance():
    with pytest.raises(CheckFailed, match="moments"):
        exr_layer_norm_affine(normalise=unbiased_layer_norm, widths=())


@pytest.mark.numeric
def test_exr_layer_norm_affine_rejects_a_map_without_centring_under_a_varying_gain():
    def uncentred_unless_constant_gain(x, gamma=None, beta=None, eps=1e-5):
        if gamma is None or np.ptp(gamma) == 0:  # the moments' draws: layer_norm itself
            return layer_norm(x, gamma, beta, eps)
        x = np.asarray(x, dtype=float)
        return gamma * x / np.sqrt(x.var() + eps) + beta

    with pytest.raises(CheckFailed, match="invariance for gamma"):
        exr_layer_norm_affine(normalise=uncentred_unless_constant_gain, widths=())


@pytest.mark.numeric
def test_exr_layer_norm_affine_rejects_a_map_that_restandardises_after_a_varying_gain():
    def restandardised(x, gamma=None, beta=None, eps=1e-5):
        y = layer_norm(x, gamma, beta, eps)
        # the moments' draws (constant gamma) and the invariance draws (a drawn beta, never
        # all 0) meet layer_norm itself; gamma = (1..6) with beta = 0 is standardised again
        if gamma is None or np.ptp(gamma) == 0 or np.any(beta != 0):
            return y
        return layer_norm(y, eps=0.0)

    with pytest.raises(CheckFailed, match=r"witness lost: gamma = \(1\.\.6\) kept the variance"):
        exr_layer_norm_affine(normalise=restandardised, widths=())


def unbiased_indexed_layer_norm(x, k, total, spread):
    """A wrong LN for symbolic d: (x_k - mu) / sqrt(sum (x_j - mu)^2 / (d - 1))."""
    return (x[k] - total / sym.d) / sympy.sqrt(spread / (sym.d - 1))


@pytest.mark.symbolic
def test_exr_layer_norm_affine_rejects_an_unbiased_variance_for_symbolic_d():
    with pytest.raises(CheckFailed, match=r"symbolic d: the variance is .*, stated g\*\*2"):
        exr_layer_norm_affine(indexed_normalise=unbiased_indexed_layer_norm)


@pytest.mark.symbolic
def test_prop_layer_norm_invariance_rejects_an_unbiased_variance_for_symbolic_d():
    with pytest.raises(CheckFailed, match=r"symbolic d: sum y_k = 0, sum y_k\^2 = d - 1, not"):
        prop_layer_norm_invariance(indexed_normalise=unbiased_indexed_layer_norm, widths=())


def unbiased_symbolic_layer_norm(x, eps=0, gamma=None, beta=None):
    """A wrong symbolic LN: (x - mu 1) / sqrt(sum (x_k - mu)^2 / (d - 1)), then the affine map."""
    d = x.rows
    centred = x - sum(x) / d * sympy.ones(d, 1)
    z = centred / sympy.sqrt(sum(c**2 for c in centred) / (d - 1) + eps)
    gamma = sympy.ones(d, 1) if gamma is None else gamma
    beta = sympy.zeros(d, 1) if beta is None else beta
    return z.multiply_elementwise(gamma) + beta


@pytest.mark.symbolic
def test_exr_layer_norm_affine_rejects_a_symbolic_unbiased_variance():
    with pytest.raises(CheckFailed, match=r"d = 2: the variance is .*, stated g\*\*2"):
        exr_layer_norm_affine(symbolic_normalise=unbiased_symbolic_layer_norm)


@pytest.mark.symbolic
def test_exr_layer_norm_affine_rejects_a_symbolic_map_wrong_only_under_a_varying_gain():
    def gain_times_mean(x, eps=0, gamma=None, beta=None):
        # LN_(gamma, beta)(x) + (gamma - mean(gamma)) mu: the extra term vanishes when gamma is
        # constant (the moments), not when it varies, and it moves with the shift c
        d = x.rows
        out = symbolic_layer_norm.layer_norm(x, eps, gamma, beta)
        if gamma is None:
            return out
        return out + (gamma - sum(gamma) / d * sympy.ones(d, 1)) * (sum(x) / d)

    with pytest.raises(CheckFailed, match=r"d = 2: LN_\(gamma, beta\)\(a x \+ c 1\) != "):
        exr_layer_norm_affine(symbolic_normalise=gain_times_mean)


@pytest.mark.symbolic
@pytest.mark.numeric
def test_exr_residual_expansion_holds():
    assert exr_residual_expansion()


@pytest.mark.symbolic
def test_exr_residual_expansion_rejects_a_wrong_order_of_factors():
    wrong = ((), (1,), (2,), (3,), (1, 2), (3, 1), (3, 2), (3, 2, 1))
    with pytest.raises(CheckFailed, match="terms"):
        exr_residual_expansion(stated=wrong)


@pytest.mark.numeric
def test_exr_residual_expansion_rejects_a_chain_with_residuals():
    with pytest.raises(CheckFailed, match=r"without residuals the Jacobian still equals"):
        exr_residual_expansion(step=_residual_step)


@pytest.mark.numeric
def test_exr_residual_expansion_rejects_a_chain_that_is_neither_product():
    def doubled(x, g):
        return 2 * g(x)

    with pytest.raises(CheckFailed, match=r"differs from J_3 J_2 J_1: 1 of 1 entries exceed"):
        exr_residual_expansion(step=doubled)


# The chapter as a whole -----------------------------------------------------------------


def chapter_ids() -> list[tuple[str, str]]:
    """(number, id) of every row of the seeds' README table for this chapter."""
    readme = SEEDS / "README.md"
    if not readme.is_file():
        pytest.skip(f"{readme} is not here: the chapter's element list cannot be read")
    rows, inside = [], False
    row = re.compile(r"^\| (\S+ [\dA-Z.]+) \| ((?:def|prop|lem|thm|cor|ex|rem|exr)-[a-z0-9-]+) \|")
    for line in readme.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            inside = "Transformer block" in line
        match = row.match(line)
        if inside and match:
            rows.append((match.group(1), match.group(2)))
    return rows


def test_every_element_of_the_chapter_is_registered_with_its_number():
    registry = load_all()
    rows = chapter_ids()
    assert len(rows) == 21
    for number, id_ in rows:
        assert id_ in registry, id_
        assert registry[id_].number == number, id_
        assert registry[id_].chapter == "transformer-block", id_


def test_selection_by_id_is_unambiguous():
    ids = [e.test_name for e in load_all().values()]
    names = [node.name for node in ast.parse(Path(__file__).read_text(encoding="utf-8")).body
             if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]
    for name in names:
        carried = [i for i in ids if i in name]
        assert len(carried) <= 1, (name, carried)
    for _, id_ in chapter_ids():
        assert any(id_.replace("-", "_") in name for name in names), id_
    assert not any(i in Path(__file__).name for i in ids)
