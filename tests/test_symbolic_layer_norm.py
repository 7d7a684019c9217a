"""命題 3.3 (LayerNorm Jacobian), 命題 3.1 (invariance, moments) and 演習 11.2, derived."""

import pytest
from sympy import Matrix, Symbol, eye, ones, sqrt, symbols

from symbolic.identities import is_zero
from symbolic.layer_norm import (
    derive_layer_norm_jacobian,
    derive_layer_norm_jacobian_general,
    general_jacobian_properties,
    invariance_difference,
    jacobian_properties,
    layer_norm,
    moments,
    moments_general,
    output_sums,
    unbiased_layer_norm,
)
from symbolic.symbols import d as d_symbol

eps = Symbol("epsilon", positive=True)


def without_y_y_t(y, sigma):
    d = y.rows
    return (eye(d) - ones(d, d) / d) / sigma


def without_one_one_t(y, sigma):
    d = y.rows
    return (eye(d) - y * y.T / d) / sigma


@pytest.mark.parametrize("d", range(2, 17))
def test_prop_layer_norm_jacobian_for_explicit_d(d):
    assert derive_layer_norm_jacobian(d).holds


def test_prop_layer_norm_jacobian_for_symbolic_d():
    assert derive_layer_norm_jacobian_general().holds


def test_prop_layer_norm_jacobian_rejects_unbiased_variance():
    assert not derive_layer_norm_jacobian(4, normalise=unbiased_layer_norm).holds


@pytest.mark.parametrize("wrong", [without_y_y_t, without_one_one_t])
def test_prop_layer_norm_jacobian_rejects_missing_term(wrong):
    assert not derive_layer_norm_jacobian(4, stated=wrong).holds


def test_prop_layer_norm_jacobian_general_rejects_missing_term():
    def entry(y_i, y_j, delta, sigma, d):
        return (delta - 1 / d) / sigma

    assert not derive_layer_norm_jacobian_general(entry).holds


def test_prop_layer_norm_jacobian_properties_for_symbolic_d():
    assert output_sums() == (0, d_symbol)
    properties = general_jacobian_properties()
    assert properties == {name: 0 for name in properties} and len(properties) == 5


def test_prop_layer_norm_jacobian_properties_for_symbolic_d_reject_missing_y_y_t():
    def entry(y_i, y_j, delta, sigma, d):
        return (delta - 1 / d) / sigma

    properties = general_jacobian_properties(entry)
    assert properties["J y = 0"] != 0
    assert properties["tr(s J) = d - 2"] != 0


@pytest.mark.parametrize("d", range(2, 6))
def test_prop_layer_norm_jacobian_properties(d):
    p = jacobian_properties(d)
    for name in ("J 1 = 0", "J c = 0", "s J symmetric", "s J idempotent",
                 "tr(s J) = d - 2", "J(a x) = J(x) / a"):
        assert p.holds[name], name
    assert p.holds["J = 0"] == (d == 2)  # d = 2: W is all of R^2 and J vanishes


def test_prop_layer_norm_jacobian_properties_reject_unbiased_variance():
    p = jacobian_properties(4, normalise=unbiased_layer_norm)
    assert not p.holds["s J idempotent"]
    assert not p.holds["tr(s J) = d - 2"]


def test_prop_layer_norm_jacobian_with_eps_keeps_the_formula_with_sqrt_sigma2_plus_eps():
    assert derive_layer_norm_jacobian(4, eps=eps).holds


def test_prop_layer_norm_jacobian_with_eps_what_survives():
    p = jacobian_properties(4, eps)
    assert p.holds["J 1 = 0"] and p.holds["s J symmetric"]
    assert p.holds["J c = eps c / s^3"]  # replaces J c = 0
    assert not p.holds["J c = 0"]
    assert not p.holds["s J idempotent"] and not p.holds["tr(s J) = d - 2"]
    assert not p.holds["J(a x) = J(x) / a"]  # exact witness at x = e_1 - e_2, a = 2


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


def test_exr_layer_norm_affine_rejects_unbiased_variance():
    x = Matrix(symbols("x_1:5", real=True))
    z = unbiased_layer_norm(x)
    assert not is_zero(sum(zi**2 for zi in z) / 4 - 1)


def test_ex_layer_norm_scale_exact_values():
    x = Matrix([1, 2, 3, 6])
    y = layer_norm(x)
    assert [round(float(v), 4) for v in y] == [-1.069, -0.5345, 0.0, 1.6036]
    assert is_zero(layer_norm(3 * x + 5 * ones(4, 1)) - y)
    assert sum(v**2 for v in y) == 4  # norm 2 = sqrt(d), exactly


def test_layer_norm_inputs_are_validated():
    with pytest.raises(TypeError, match="x must be a sympy Matrix"):
        layer_norm([1, 2, 3])
    with pytest.raises(ValueError, match="at least 2 entries"):
        layer_norm(Matrix([1]))
    with pytest.raises(ValueError, match="d must be >= 2, got 1"):
        derive_layer_norm_jacobian(1)
