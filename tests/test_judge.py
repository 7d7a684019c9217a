"""The judge: `within_bound` names the worst entry and its ratio, passes what is within
its bound, and fails on every kind of excess (one entry, NaN, a zero bound)."""

import numpy as np
import pytest

from proofs.book.judge import CheckFailed, Unchecked, bound_ratio, require, within_bound


def test_within_bound_returns_the_largest_ratio():
    assert within_bound(np.array([1.0, -2.0, 0.0]), np.array([2.0, 4.0, 0.0]), "x") == 0.5
    assert within_bound(0.0, 0.0, "exact") == 0.0
    assert within_bound(np.zeros((0, 3)), 1.0, "empty") == 0.0


def test_within_bound_names_the_worst_entry_and_the_count():
    error = np.array([[0.0, 3.0], [5.0, 1.0]])
    bound = np.array([[1.0, 1.0], [1.0, 1.0]])
    with pytest.raises(CheckFailed) as failure:
        within_bound(error, bound, "J(z)")
    assert str(failure.value) == (
        "J(z): 2 of 4 entries exceed their bound; worst at [1, 0]: "
        "5.000e+00 > 1.000e+00 (error/bound 5)"
    )


def test_within_bound_takes_the_absolute_error_and_broadcasts_the_bound():
    within_bound(np.array([-1.0, 1.0]), 1.0, "symmetric")
    with pytest.raises(CheckFailed, match="1 of 2 entries"):
        within_bound(np.array([-1.5, 1.0]), 1.0, "symmetric")


def test_within_bound_fails_on_nan_and_on_a_zero_bound():
    with pytest.raises(CheckFailed, match=r"worst at \[1\]: nan"):
        within_bound(np.array([0.0, np.nan]), 1.0, "nan")
    with pytest.raises(CheckFailed, match=r"error/bound inf"):
        within_bound(np.array([1e-300]), 0.0, "exact required")
    with pytest.raises(CheckFailed, match=r"^scalar: 1 of 1 entries exceed their bound; worst: "):
        within_bound(2.0, 1.0, "scalar")


def test_bound_ratio_counts_zero_over_zero_as_zero_and_error_over_zero_as_infinite():
    assert bound_ratio([0.0, 1.0], [0.0, 2.0]) == 0.5
    assert bound_ratio([1.0], [0.0]) == float("inf")
    assert bound_ratio([np.nan], [1.0]) == float("inf")


def test_require_and_unchecked():
    require(True, "never raised")
    with pytest.raises(CheckFailed, match="^why$"):
        require(False, "why")
    assert not issubclass(Unchecked, CheckFailed)
