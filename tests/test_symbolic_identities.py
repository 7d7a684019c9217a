"""The judges: is_zero / equal prove identities and reject non-identities."""

import pytest
from sympy import Matrix, Rational, cos, exp, sin, sqrt, symbols

from symbolic.identities import (
    Certificate,
    RadicalField,
    compare,
    equal,
    is_zero,
    manifestly_nonnegative,
)

x, y = symbols("x y", real=True)


def test_is_zero_proves_polynomial_rational_and_radical_identities():
    assert is_zero((x + y) ** 2 - x**2 - 2 * x * y - y**2)
    assert is_zero(1 / (x + 1) + x / (x + 1) - 1)
    assert is_zero(sqrt(x**2 + y**2) ** 3 - (x**2 + y**2) * sqrt(x**2 + y**2))
    assert is_zero(exp(x) * exp(y) - exp(x + y))
    assert is_zero(sin(x) ** 2 + cos(x) ** 2 - 1)


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


def test_manifestly_nonnegative_accepts_squares_and_atoms_only():
    p, q = symbols("p q", real=True)
    assert manifestly_nonnegative(p * (x - y) ** 2 + 3 * q**2, atoms=(p,))
    assert not manifestly_nonnegative(p * (x - y) ** 2 - q**2, atoms=(p,))
    assert not manifestly_nonnegative(x * y**2)


def test_certificate_needs_both_identity_and_sign():
    good = Certificate("sq", x**2 - 2 * x + 1, (x - 1) ** 2, x**2 - 2 * x + 1 - (x - 1) ** 2, ())
    wrong_identity = Certificate("sq", x**2 + 1, (x - 1) ** 2, x**2 + 1 - (x - 1) ** 2, ())
    wrong_sign = Certificate("neg", -(x**2), -(x**2), 0, ())
    assert good.holds and not wrong_identity.holds and not wrong_sign.holds


def test_radical_field_differentiates_through_square_roots():
    r = sqrt(x**2 + y**2)
    field = RadicalField([r], [x, y])
    derivative = field.diff(field.element(x / r), x)
    assert field.is_zero(derivative - field.element(y**2 / r**3))
    assert not field.is_zero(derivative - field.element(y**2 / r**2))
    with pytest.raises(ValueError, match="radical it was not built with"):
        field.element(sqrt(x + 1))
