"""Exact region counting of hyperplane arrangements (symbolic.arrangements)."""

import itertools
from fractions import Fraction

import pytest

from symbolic.arrangements import activation_regions, feasible, general_position, region_bound


def test_feasible_decides_strict_and_weak_systems():
    half = Fraction(1, 2)
    assert feasible([((Fraction(1),), -half, True), ((Fraction(-1),), Fraction(1), True)])
    assert not feasible(
        [((Fraction(1),), Fraction(0), True), ((Fraction(-1),), Fraction(0), False)]
    )
    assert feasible([((Fraction(1),), Fraction(0), False), ((Fraction(-1),), Fraction(0), False)])
    assert feasible([])


@pytest.mark.element("prop-relu-piecewise-linear")
def test_regions_of_lines_in_general_position_reach_the_bound():
    # m lines through integer points, no two parallel and no three concurrent
    w_1 = ((1, 0), (0, 1), (1, 1), (1, -1))
    b_1 = (0, -1, -3, 5)
    assert general_position(w_1, b_1)
    assert len(activation_regions(w_1, b_1)) == region_bound(4, 2) == 11


@pytest.mark.element("prop-relu-piecewise-linear")
def test_concurrent_lines_fall_short_of_the_bound():
    w_1, b_1 = ((1, 0), (0, 1), (1, 1)), (0, 0, 0)  # all through the origin
    assert not general_position(w_1, b_1)
    assert len(activation_regions(w_1, b_1)) == 6 < region_bound(3, 2)


@pytest.mark.element("prop-relu-piecewise-linear")
def test_region_bound_is_the_sum_of_binomials():
    for m, d in itertools.product(range(6), range(1, 4)):
        want = sum(1 for k in range(m + 1) if k <= d for _ in itertools.combinations(range(m), k))
        assert region_bound(m, d) == want


def test_bad_input_is_rejected_by_name():
    with pytest.raises(ValueError, match="b_1"):
        activation_regions(((1, 0),), (0, 1))
    with pytest.raises(ValueError, match="w_1"):
        general_position((), ())
    with pytest.raises(TypeError, match="w_1"):
        activation_regions(((1.5j, 0),), (0,))
    with pytest.raises(ValueError, match="d an int >= 1"):
        region_bound(2, 0)
