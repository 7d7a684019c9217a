"""命題 3.3 for symbolic d: the Jacobian, its properties, and the entry the explicit widths use."""

from sympy import IndexedBase, KroneckerDelta, Sum, sqrt, symbols

from symbolic.identities import is_zero
from symbolic.layer_norm_general import (
    derive_layer_norm_jacobian_general,
    general_jacobian_properties,
    indexed_sums,
    output_sums,
    proved_entry,
    sigma_symbol,
    y_i,
    y_j,
)
from symbolic.symbols import d as d_symbol


def test_prop_layer_norm_jacobian_for_symbolic_d():
    assert derive_layer_norm_jacobian_general().holds


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
    i = symbols("i", integer=True, positive=True)
    y = IndexedBase("y", real=True)
    # J y = (y_i - sum y / d) / sigma = y_i / sigma, and tr(s J) - (d - 2) = (d - 1) - (d - 2)
    assert is_zero(properties["J y = 0"] - y[i] / sigma_symbol)
    assert properties["tr(s J) = d - 2"] == 1


def test_prop_layer_norm_jacobian_properties_for_symbolic_d_reject_missing_one_one_t():
    def entry(y_i, y_j, delta, sigma, d):
        return (delta - y_i * y_j / d) / sigma

    # J 1 = (1 - y_i sum y / d) / sigma = 1 / sigma
    assert general_jacobian_properties(entry)["J 1 = 0"] == 1 / sigma_symbol


def test_prop_layer_norm_jacobian_proved_entry_comes_from_the_symbolic_d_derivation():
    i, j = symbols("i j", integer=True, positive=True)
    delta = KroneckerDelta(i, j)
    assert is_zero(proved_entry() - (delta - 1 / d_symbol - y_i * y_j / d_symbol) / sigma_symbol)


def test_indexed_sums_leave_what_they_cannot_evaluate():
    sums = indexed_sums()
    x, (k, _, _) = sums.x, sums.k_range
    for body in (k * x[k], x[k] ** 3, sqrt(x[k])):
        assert sums.evaluate(Sum(body, sums.k_range)) == Sum(body, sums.k_range)
    shifted = Sum(x[k], (k, 2, d_symbol))  # another range: not S
    assert sums.evaluate(shifted) == shifted
    assert (
        sums.evaluate(Sum(x[k] ** 2 - 2 * x[k], sums.k_range))
        == sums.Q + sums.S**2 / d_symbol - 2 * sums.S
    )
