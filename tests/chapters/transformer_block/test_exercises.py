"""§11 演習 11.1–11.4 (proofs/chapters/transformer_block/exercises.py). Each check
passes, and rejects wrong variants."""

import numpy as np
import pytest
import sympy
from chapters.transformer_block.variants import (
    transcribed,
    unbiased_indexed_layer_norm,
    unbiased_layer_norm,
)

from numeric.layer_norm import layer_norm
from numeric.mlp import mlp
from numeric.model import init_parameters, sub_parameters
from proofs.book.judge import CheckFailed
from proofs.book.printed import Printed
from proofs.chapters.transformer_block.exercises import (
    exr_doubling_ratio,
    exr_layer_norm_affine,
    exr_parameter_count,
    exr_residual_expansion,
)
from proofs.chapters.transformer_block.parameters import model_parts
from proofs.chapters.transformer_block.residual import _residual_step
from symbolic import layer_norm as symbolic_layer_norm
from symbolic import symbols as sym


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


@pytest.mark.parametrize(
    "limits, message",
    [
        (
            {"short": 2, "long": 5, "middle": 6},
            "tends to 2 as n -> 0 and 4 as n -> oo, stated 2 and 5",
        ),
        (
            {"short": 1, "long": 4, "middle": 6},
            "tends to 2 as n -> 0 and 4 as n -> oo, stated 1 and 4",
        ),
        ({"short": 2, "long": 4, "middle": 5}, "at n = 5d the ratio is 32/11, not the midpoint"),
    ],
    ids=["long", "short", "middle"],
)
def test_exr_doubling_ratio_rejects_wrong_limits(limits, message):
    with pytest.raises(CheckFailed, match=message):
        exr_doubling_ratio(limits=limits)


def test_exr_doubling_ratio_rejects_a_wrong_printed_ratio():
    printed = dict(transcribed("exr-doubling-ratio")["printed"], n_1=Printed(2.30, 2))
    with pytest.raises(CheckFailed, match=r"n = 1d: 16/7 = 2.2857, printed 2.3"):
        exr_doubling_ratio(printed=printed)


def test_exr_parameter_count_rejects_a_wrong_share():
    with pytest.raises(CheckFailed, match="share"):
        exr_parameter_count(
            stated=dict(
                transcribed("exr-parameter-count")["stated"], embedding_share=Printed(0.31, 2)
            )
        )


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


@pytest.mark.symbolic
def test_exr_layer_norm_affine_rejects_an_unbiased_variance_for_symbolic_d():
    with pytest.raises(CheckFailed, match=r"symbolic d: the variance is .*, stated g\*\*2"):
        exr_layer_norm_affine(indexed_normalise=unbiased_indexed_layer_norm)


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
@pytest.mark.symbolic
@pytest.mark.parametrize(
    ("counts", "match"),
    [
        ({"asked": 9, "found": 8, "by_size": (1, 3, 2, 3)}, "has 8 terms, stated 9"),
        ({"asked": 8, "found": 7, "by_size": (1, 3, 2, 3)}, "has 8 terms, stated 7"),
        ({"asked": 8, "found": 8, "by_size": (1, 3, 2, 2)}, "3 terms have 2 factors, stated 2"),
    ],
    ids=["asked", "found", "by-size"],
)
def test_exr_residual_expansion_rejects_wrong_counts(counts, match):
    with pytest.raises(CheckFailed, match=match):
        exr_residual_expansion(counts=counts)


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
