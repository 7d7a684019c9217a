"""命題 3.3 by differentiation: eps != 0, other normalisations, and the scaling law."""

import pytest
from sympy import Rational, Symbol, eye, ones, sqrt

from symbolic.identities import is_nonzero, is_zero
from symbolic.layer_norm_definition import layer_norm_jacobian, mean, unbiased_layer_norm, variance
from symbolic.layer_norm_differentiation import (
    derive_layer_norm_jacobian_by_differentiation,
    scaling_witness,
)
from symbolic.layer_norm_explicit import derive_layer_norm_jacobian, jacobian_properties

eps = Symbol("epsilon", positive=True)


def test_prop_layer_norm_jacobian_rejects_unbiased_variance():
    assert not derive_layer_norm_jacobian(4, normalise=unbiased_layer_norm).holds


def test_prop_layer_norm_jacobian_properties_reject_unbiased_variance():
    p = jacobian_properties(3, normalise=unbiased_layer_norm)
    assert not p.holds["s J idempotent"]
    assert not p.holds["tr(s J) = d - 2"]


def test_prop_layer_norm_jacobian_with_eps_keeps_the_formula_with_sqrt_sigma2_plus_eps():
    assert derive_layer_norm_jacobian(4, eps=eps).holds


def test_prop_layer_norm_jacobian_with_eps_what_survives():
    p = jacobian_properties(3, eps)
    assert p.holds["J 1 = 0"] and p.holds["s J symmetric"]
    assert p.holds["J c = eps c / s^3"]  # replaces J c = 0
    assert not p.holds["J c = 0"]
    assert not p.holds["s J idempotent"] and not p.holds["tr(s J) = d - 2"]
    assert not p.holds["J(a x) = J(x) / a"]  # exact witness at x = e_1 - e_2, a = 2


@pytest.mark.element("prop-layer-norm-jacobian")
def test_prop_layer_norm_scaling_witness_is_j_of_2x_minus_half_j_of_x():
    assert is_zero(scaling_witness(4, 0))  # the law holds there when eps = 0
    witness = scaling_witness(4, eps)  # eps set to 1
    # x = e_1 - e_2: J_33 = (1 - 1/4)/s with s^2 = sigma^2 + 1 = 3/2 at x, 3 at 2x
    assert is_zero(witness[2, 2] - Rational(3, 4) * (1 / sqrt(3) - 1 / sqrt(6)))
    # J_11 = (3/4 - c_1^2 / (4 s^2)) / s, c_1 = 1 at x and 2 at 2x
    assert is_zero(
        witness[0, 0] - (Rational(5, 12) / sqrt(3) - Rational(7, 24) / sqrt(Rational(3, 2)))
    )
    assert is_nonzero(witness[2, 2])


@pytest.mark.element("prop-layer-norm-jacobian")
def test_prop_layer_norm_scaling_law_not_proved_for_a_non_homogeneous_normalisation():
    def shifted(x, eps=0):  # divides by sqrt(sigma^2 + 1): eps = 1 in disguise
        return (x - mean(x) * ones(x.rows, 1)) / sqrt(variance(x) + 1)

    p = jacobian_properties(3, normalise=shifted)
    assert not p.holds["J(a x) = J(x) / a"]
    assert any(is_nonzero(e) for e in p.defects["J(a x) = J(x) / a"])


@pytest.mark.element("prop-layer-norm-jacobian")
def test_prop_layer_norm_scaling_law_fails_for_a_normalisation_of_another_degree():
    def times_sigma(x, eps=0):  # homogeneous of degree 2: J(a x) = a J(x)
        return (x - mean(x) * ones(x.rows, 1)) * sqrt(variance(x) + eps)

    p = jacobian_properties(3, normalise=times_sigma)
    assert not p.holds["J(a x) = J(x) / a"]


@pytest.mark.element("prop-layer-norm-jacobian")
def test_prop_layer_norm_scaling_defects_by_differentiation_are_a_minus_one_over_a_times_j():
    def times_sigma(x, eps=0):  # homogeneous of degree 2: J(a x) = a J(x)
        return (x - mean(x) * ones(x.rows, 1)) * sqrt(variance(x) + eps)

    a = Symbol("a", positive=True)
    x, J = layer_norm_jacobian(3, normalise=times_sigma)
    point = dict(zip(x, (0, 1, 3), strict=True))
    defects = jacobian_properties(3, normalise=times_sigma).defects["J(a x) = J(x) / a"]
    for k, defect in enumerate(defects):
        expected = (a - 1 / a) * J[k // 3, k % 3]
        assert is_zero((defect - expected).xreplace(point)), k


def test_prop_layer_norm_jacobian_by_differentiation_names_eps_in_its_label():
    assert derive_layer_norm_jacobian_by_differentiation(3).name == "LayerNorm Jacobian, d = 3"
    assert (
        derive_layer_norm_jacobian_by_differentiation(3, eps=eps).name
        == "LayerNorm Jacobian, d = 3, eps = epsilon"
    )


def test_prop_layer_norm_jacobian_by_differentiation_of_a_map_without_a_root():
    def centred(x, eps=0):  # x - mu 1: no square root in the map, one in the stated sigma
        return x - mean(x) * ones(x.rows, 1)

    derivation = derive_layer_norm_jacobian_by_differentiation(3, normalise=centred)
    assert not derivation.holds
    assert derivation.derived == eye(3) - ones(3, 3) / 3
