"""Orders of growth: exact verdicts on the chapters' counts, and a numeric witness for
each verdict that a polynomial is not O of another (the ratio grows along a ray)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from symbolic.orders import feasible, is_big_o, same_order
from symbolic.symbols import d, h, n

ATTENTION = 4 * n * d**2 + 2 * n**2 * d


def test_the_attention_count_is_of_the_order_the_chapter_states():
    assert same_order(ATTENTION, n * d**2 + n**2 * d)


def test_one_term_alone_is_not_the_order_of_both():
    assert not same_order(ATTENTION, n**2 * d)
    assert not same_order(ATTENTION, n * d**2)
    assert is_big_o(n**2 * d, ATTENTION)


def test_a_regime_selects_the_leading_term():
    assert same_order(ATTENTION, n**2 * d, [(n, d)])
    assert not same_order(ATTENTION, n * d**2, [(n, d)])
    assert same_order(ATTENTION, n * d**2, [(d, n)])


def test_h_n_squared_is_within_n_squared_d_only_when_h_is_at_most_d():
    assert is_big_o(h * n**2, n**2 * d, [(d, h)])
    assert not is_big_o(h * n**2, n**2 * d)


def test_a_lower_order_term_does_not_change_the_order():
    assert same_order(ATTENTION + 7 * n * d, n * d**2 + n**2 * d)
    assert not same_order(n * d, ATTENTION)


def test_constants_do_not_matter_but_exponents_do():
    assert same_order(12 * n * d**2, n * d**2)
    assert same_order(sympy.Integer(3), sympy.Integer(1))
    assert not is_big_o(n, sympy.Integer(1))
    assert not same_order(n * d**2, n * d**3)


@pytest.mark.parametrize(
    ("p", "q", "message"),
    [
        (n - d, n, "positive coefficients"),
        (sympy.log(n), n, "polynomial"),
        (sympy.Integer(-3), sympy.Integer(4), "positive coefficients"),
    ],
)
def test_what_is_not_a_count_is_refused(p, q, message):
    with pytest.raises(ValueError, match=message):
        is_big_o(p, q)


def test_a_non_expression_is_refused():
    with pytest.raises(TypeError, match="p must be a SymPy expression"):
        is_big_o("n", n)  # type: ignore[arg-type]


exponents = st.tuples(st.integers(0, 3), st.integers(0, 3))
# the directions (log n, log d) along which a ratio of monomials can grow: with exponents of
# at most 3, the cones where one monomial outgrows others are bounded by rays of integer
# coordinates of at most 3, and each holds the sum of two of them
DIRECTIONS = [(a, b) for a in range(7) for b in range(7) if (a, b) != (0, 0)]


def outgrows(mine: list[tuple[int, int]], theirs: list[tuple[int, int]]) -> bool:
    """Whether along some direction a monomial of `mine` grows faster than all of `theirs`."""
    return any(
        all((pa - qa) * a + (pb - qb) * b > 0 for qa, qb in theirs)
        for a, b in DIRECTIONS
        for pa, pb in mine
    )


@given(st.lists(exponents, min_size=1, max_size=3), st.lists(exponents, min_size=1, max_size=3))
def test_big_o_agrees_with_the_directions_along_which_a_ratio_grows(mine, theirs):
    p = sum(n**a * d**b for a, b in mine)
    q = sum(n**a * d**b for a, b in theirs)
    assert is_big_o(p, q) == (not outgrows(mine, theirs))


def test_fourier_motzkin_decides_small_systems_exactly():
    one, zero = Fraction(1), Fraction(0)
    # u0 ≥ u1, u1 - u0 ≥ 1: empty; u0 + u1 ≥ 1 alone: not
    assert not feasible([((one, -one), zero), ((-one, one), one)])
    assert feasible([((one, one), one)])
    # with every variable bounded at 0, the system SymPy's simplex gets wrong
    u0, u1, u2 = (tuple(Fraction(int(j == k)) for j in range(3)) for k in range(3))
    cone = [(u0, zero), (u1, zero), (u2, zero), ((one, -one, zero), zero)]
    grows = [((-2 * one, one, one), one), ((-one, one, zero), one)]
    assert not feasible(cone + grows)
    assert feasible(cone + grows[:1])
