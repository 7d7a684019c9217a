"""SparsePolynomial: exact arithmetic over Q, and what it refuses."""

from fractions import Fraction

import pytest
from sympy import Pow, Rational, S, sqrt, symbols

from symbolic.polynomials import SparsePolynomial

x, y = symbols("x y", real=True)


def test_sparse_polynomial_arithmetic_is_exact():
    p, q = SparsePolynomial.variable(0), SparsePolynomial.variable(7)
    assert (p + q) * (p - q) == p**2 - q**2
    assert (p / 2 + Rational(1, 2) * p) == p
    assert (p * q).substitute(7, p + 1) == p**2 + p
    assert not (p - p) and (p - p) == 0
    assert (3 * p).to_expr(symbols("a:8")) == 3 * symbols("a0")


def test_sparse_polynomial_refuses_what_is_not_a_polynomial_over_q():
    p = SparsePolynomial.variable(0)
    with pytest.raises(TypeError):
        p + x  # a symbol
    with pytest.raises(TypeError):
        p * 0.5  # a float is not exact
    with pytest.raises(TypeError):
        p / p
    with pytest.raises(TypeError, match="not a polynomial over Q"):
        SparsePolynomial.from_expr(sqrt(y), {y: 0})


def test_sparse_polynomial_power_zero_is_one():
    p = SparsePolynomial.variable(0)
    assert p**0 == 1
    assert p**2 == p * p


def test_sparse_polynomial_division_by_a_non_zero_rational_only():
    p = SparsePolynomial.variable(0)
    assert p / 1 == p and p / -1 == -p and p / Rational(1, 2) == 2 * p
    with pytest.raises(TypeError):
        p / 0
    with pytest.raises(TypeError):
        p / S.Zero


def test_sparse_polynomial_powers_are_natural_numbers():
    p = SparsePolynomial.variable(0)
    assert p**1 == p and p**3 == p * p * p
    with pytest.raises(TypeError):
        p**-1
    with pytest.raises(TypeError):
        p**0.5


def test_sparse_polynomial_keeps_integral_coefficients_as_int():
    p = SparsePolynomial.variable(0)
    assert SparsePolynomial.coerce(Rational(6, 2)).terms == {(): 3}
    assert type(SparsePolynomial.coerce(Rational(6, 2)).terms[()]) is int
    assert type((p / 2 + p / 2).terms[((0, 1),)]) is int
    assert type(SparsePolynomial.monomial(Fraction(4, 2), {0: 1}).terms[((0, 1),)]) is int
    assert SparsePolynomial.coerce(Rational(1, 2)).terms == {(): Fraction(1, 2)}
    assert SparsePolynomial.coerce(True) is None and SparsePolynomial.coerce(0.5) is None


def test_sparse_polynomial_integral_scales_by_the_common_denominator():
    p, q = SparsePolynomial.variable(0), SparsePolynomial.variable(1)
    assert (p / 2 + q / 3).integral() == (6, 3 * p + 2 * q)
    assert (p / 2).integral() == (2, p)
    assert (p + 2 * q).integral() == (1, p + 2 * q)
    assert SparsePolynomial().integral() == (1, SparsePolynomial())


def test_sparse_polynomial_degree_in_one_variable():
    p, q = SparsePolynomial.variable(0), SparsePolynomial.variable(1)
    assert (p**3 * q + q**2).degree(0) == 3
    assert (p**3 * q + q**2).degree(1) == 2
    assert (p + q).degree(5) == 0
    assert SparsePolynomial.coerce(3).degree(0) == 0
    assert SparsePolynomial().degree(0) == 0


def test_sparse_polynomial_from_expr_of_an_unevaluated_zeroth_power():
    assert SparsePolynomial.from_expr(Pow(y, 0, evaluate=False), {y: 0}) == 1
    assert SparsePolynomial.from_expr(y**-2, {y: 0}, {y: 1}) == SparsePolynomial.monomial(1, {1: 2})
