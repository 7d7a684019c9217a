"""Certificates of non-negativity: an identity and a sign, and Polya's rounds."""

import pytest
from sympy import Rational, expand, sqrt, symbols

from symbolic.certificates import (
    POLYA_ROUNDS,
    Certificate,
    manifestly_nonnegative,
    simplex_certificate,
)

x, y = symbols("x y", real=True)


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


def test_simplex_certificate_homogenises_with_the_sum_of_the_variables():
    p, q, r = symbols("p q r", nonnegative=True)
    certificate = simplex_certificate("1 - p^2 >= 0", 1 - p**2, (p, r))
    assert certificate.certificate == 2 * p * r + r**2 and certificate.holds


def test_simplex_certificate_multiplies_by_the_sum_when_needed():
    p, r = symbols("p r", nonnegative=True)
    # p^2 - p r + r^2 > 0 on the simplex, but its coefficients are not all >= 0
    certificate = simplex_certificate("p^2 - p r + r^2 >= 0", p**2 - p * r + r**2, (p, r))
    assert certificate.holds and certificate.certificate == expand(p**3 + r**3)


@pytest.mark.parametrize(
    "slack",
    [lambda p, r: Rational(1, 2) - p, lambda p, r: (p - r) ** 2 - Rational(1, 100), lambda p, r: x],
    ids=["negative at p = 1", "negative at p = r", "another symbol"],
)
def test_simplex_certificate_rejects_what_is_not_non_negative(slack):
    p, r = symbols("p r", nonnegative=True)
    assert not simplex_certificate("wrong", slack(p, r), (p, r)).holds


def test_manifestly_nonnegative_needs_even_powers_or_atoms():
    assert not manifestly_nonnegative(x**3)
    assert manifestly_nonnegative(x**4 + 2 * y**2)
    assert manifestly_nonnegative(x**3, [x])


def test_simplex_certificate_stops_after_polya_rounds():
    p, r = symbols("p r", nonnegative=True)
    assert POLYA_ROUNDS == 4
    # p^2 - 2 p r + 2 r^2 needs (p + r)^4 for all coefficients >= 0, p^2 - 3/2 p r + r^2
    # needs (p + r)^5: one past the rounds
    at_limit = p**2 - 2 * p * r + 2 * r**2
    certificate = simplex_certificate("at the limit", at_limit, (p, r))
    assert certificate.holds and certificate.certificate == expand(at_limit * (p + r) ** 4)
    past = p**2 - Rational(3, 2) * p * r + r**2
    certificate = simplex_certificate("past the limit", past, (p, r))
    assert not certificate.holds and certificate.certificate == past


def test_simplex_certificate_of_what_is_not_a_polynomial_in_the_variables_is_itself():
    p, r = symbols("p r", nonnegative=True)
    assert simplex_certificate("other symbol", x * p + 1, (p, r)).certificate == x * p + 1
    assert simplex_certificate("radical", sqrt(p) + 1, (p, r)).certificate == sqrt(p) + 1
