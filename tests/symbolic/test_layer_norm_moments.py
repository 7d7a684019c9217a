"""命題 3.1 (invariance, moments) and 演習 11.2 (moments of g LN(x) + b)."""

import pytest
from sympy import Matrix, sqrt, symbols

from symbolic.identities import is_zero
from symbolic.layer_norm_definition import unbiased_layer_norm
from symbolic.layer_norm_moments import invariance_difference, moments, moments_general
from symbolic.symbols import d as d_symbol


@pytest.mark.parametrize("d", range(2, 7))
def test_prop_layer_norm_invariance(d):
    assert is_zero(invariance_difference(d))


def test_prop_layer_norm_invariance_rejects_a_normalisation_without_centring():
    def uncentred(x, eps=0):
        return x / sqrt(sum(xi**2 for xi in x) / x.rows)

    assert not is_zero(invariance_difference(3, uncentred))


@pytest.mark.parametrize("d", range(2, 6))
def test_exr_layer_norm_affine_moments(d):
    g, b = symbols("g b", real=True)
    m = moments(d, g, b)
    assert is_zero(m.mean - b)
    assert is_zero(m.variance - g**2)
    assert is_zero(m.norm**2 - d * (g**2 + b**2))


def test_exr_layer_norm_affine_moments_for_symbolic_d():
    g, b = symbols("g b", real=True)
    m = moments_general()
    assert is_zero(m.mean - b)
    assert is_zero(m.variance - g**2)
    assert is_zero(m.norm - sqrt(d_symbol * (g**2 + b**2)))


def test_prop_layer_norm_invariance_moments_of_the_plain_output():
    m = moments(4, 1, 0)
    assert is_zero(m.mean) and is_zero(m.variance - 1) and is_zero(m.norm**2 - 4)


def test_exr_layer_norm_affine_unbiased_variance_has_no_unit_mean_square():
    x = Matrix(symbols("x_1:5", real=True))
    z = unbiased_layer_norm(x)
    assert not is_zero(sum(zi**2 for zi in z) / 4 - 1)
