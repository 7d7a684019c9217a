"""The judge: is_zero / equal prove identities and reject non-identities."""

import pytest
from sympy import Matrix, Rational, cos, cosh, exp, pi, sin, sinh, sqrt, symbols, tanh

from symbolic.identities import Derivation, compare, equal, is_nonzero, is_zero

x, y = symbols("x y", real=True)


def test_is_zero_proves_polynomial_rational_and_radical_identities():
    assert is_zero((x + y) ** 2 - x**2 - 2 * x * y - y**2)
    assert is_zero(1 / (x + 1) + x / (x + 1) - 1)
    assert is_zero(sqrt(x**2 + y**2) ** 3 - (x**2 + y**2) * sqrt(x**2 + y**2))
    assert is_zero(exp(x) * exp(y) - exp(x + y))
    assert is_zero(sin(x) ** 2 + cos(x) ** 2 - 1)


def test_is_zero_proves_identities_of_hyperbolic_functions_and_exponentials():
    assert is_zero(tanh(x / 2) + 1 / (exp(x) + 1) - 1 / (1 + exp(-x)))
    assert is_zero(cosh(x) ** 2 - sinh(x) ** 2 - 1)
    assert not is_zero(tanh(x / 2) + 1 - 3 / (1 + exp(-x)))
    assert not is_zero(cosh(x) - exp(x))


def test_is_zero_rejects_non_identities():
    assert not is_zero(x - y)
    assert not is_zero(sqrt(x**2 + y**2) - x)
    assert not is_zero(Rational(1, 10**30))
    assert not is_zero(Matrix([0, x]))


def test_equal_requires_matching_kinds_and_shapes():
    assert equal(Matrix([x, 0]), Matrix([x, 0]))
    assert not equal(Matrix([x, 0]), Matrix([[x, 0]]))
    with pytest.raises(TypeError, match="both be matrices"):
        equal(Matrix([x]), x)


def test_compare_records_difference_and_verdict():
    good = compare("square", (x + 1) ** 2, x**2 + 2 * x + 1)
    bad = compare("square", (x + 1) ** 2, x**2 + 1)
    assert good.holds and not bad.holds
    assert is_zero(bad.difference - 2 * x)


def test_is_nonzero_needs_an_exact_non_zero_number():
    assert is_nonzero(Rational(1, 10**30))
    assert is_nonzero(sqrt(3) - sqrt(2))
    assert not is_nonzero(sqrt(8) - 2 * sqrt(2))
    assert not is_nonzero(x)  # a symbol: not decided
    assert not is_nonzero(pi - 3)  # not algebraic: not decided


def test_compare_refuses_a_matrix_against_a_scalar():
    with pytest.raises(TypeError):
        compare("kinds", Matrix([x]), x)
    with pytest.raises(TypeError):
        compare("kinds", x, Matrix([x]))
    assert not compare("shapes", Matrix([x, 0]), Matrix([[x, 0]])).holds


def test_derivation_calls_only_the_callables_that_are_not_expressions():
    assert Derivation("ints", 0, 0, 0, True).derived == 0
    assert Derivation("symbol", x, y, x - y, False).derived == x
    assert Derivation("lazy", lambda: x, y, x - y, False).derived == x
