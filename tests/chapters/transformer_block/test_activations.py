"""§8 活性化関数 (proofs/chapters/transformer_block/activations.py): ReLU MLPs are
piecewise linear, GELU is not (命題 8.1); 注意 8.2's table. Each check passes, and rejects
wrong variants."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
import sympy
from chapters.transformer_block.variants import transcribed

import spec
from numeric.activations import gelu, relu
from numeric.attention import multi_head_attention
from numeric.model import forward
from proofs.book.judge import CheckFailed
from proofs.chapters.transformer_block.activations import (
    Architecture,
    prop_relu_piecewise_linear,
    rem_out_of_scope,
)
from symbolic import gelu as symbolic_gelu
from symbolic.arrangements import activation_regions, feasible, general_position, region_bound
from symbolic.identities import is_zero


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
    """(1 - t^2) phi(t) for GELU'': the check rejects it, and neither the derivation nor the
    zeros of GELU'' (+-sqrt(2)) agree with it."""
    with pytest.raises(CheckFailed, match="GELU''"):
        prop_relu_piecewise_linear(
            stated_second=lambda t: (1 - t**2) * sympy.exp(-(t**2) / 2) / sympy.sqrt(2 * sympy.pi)
        )
    t, phi = symbolic_gelu.t, symbolic_gelu.phi
    _, second = symbolic_gelu.derivatives()
    assert not is_zero(second - (1 - t**2) * phi(t))
    wrong_zeros = symbolic_gelu.second_derivative_zeros(lambda x: (1 - x**2) * phi(x))
    assert wrong_zeros != {-sympy.sqrt(2), sympy.sqrt(2)}


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
    with pytest.raises(
        CheckFailed,
        match=r"zeros of GELU'' are \[-sqrt\(2\), sqrt\(2\)\], "
        r"stated \[-1, 1\]",
    ):
        prop_relu_piecewise_linear(stated_zeros=frozenset({-1, 1}))


def test_prop_relu_piecewise_linear_zeros_are_read_from_the_chapter():
    assert transcribed("prop-relu-piecewise-linear")["stated_zeros"] == {
        -sympy.sqrt(2),
        sympy.sqrt(2),
    }


@pytest.mark.parametrize(
    "regions, match",
    [
        (
            lambda w, b: activation_regions(w, b) + ["x"] * (2 ** len(b) if len(b) >= 4 else 0),
            r"regions for \d hyperplanes, more than the stated",
        ),
        (
            lambda w, b: activation_regions(w, b)[len(b) >= 4 :],
            "regions for .* hyperplanes in general position",
        ),
    ],
    ids=["more than 2^m", "one region short"],
)
def test_prop_relu_piecewise_linear_rejects_region_counts_wrong_beyond_the_example(regions, match):
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
    assert feasible(
        [
            ((Fraction(1), Fraction(0)), Fraction(0), False),
            ((Fraction(-1), Fraction(0)), Fraction(0), False),
        ]
    )
    assert not feasible(
        [((Fraction(1),), Fraction(0), True), ((Fraction(-1),), Fraction(0), False)]
    )


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
