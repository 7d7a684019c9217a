"""The judge alone: `weigh` measures a defect against its bound, `judge_within` judges one
array, `judge_cases` judges many cases at once; each clause has an input that fails it."""

import math
import re

import numpy as np
import pytest

from proofs.book.judge import (
    Cases,
    CheckFailed,
    Unchecked,
    Verdict,
    judge_cases,
    judge_within,
    require,
    weigh,
)


def test_judge_within_returns_the_verdict_with_the_largest_ratio_and_where_it_is():
    verdict = judge_within(
        np.array([[1.0, -2.0], [0.0, 0.5]]), np.array([[2.0, 4.0], [0.0, 2.0]]), "x"
    )
    assert verdict == Verdict("x", 0.5, (0, 0), 1.0, 2.0, 2.0, 4, 0)
    assert verdict.holds
    assert str(verdict) == (
        "x: 0 of 4 entries exceed their bound; worst at [0, 0]: "
        "1.000e+00 <= 2.000e+00 (error/bound 0.5)"
    )


def test_judge_within_counts_zero_over_zero_as_zero_and_passes_no_entries():
    assert judge_within(0.0, 0.0, "exact").ratio == 0.0
    empty = judge_within(np.zeros((0, 3)), 1.0, "empty")
    assert (empty.entries, empty.ratio, empty.holds) == (0, 0.0, True)


def test_judge_within_names_the_worst_entry_and_the_count():
    error = np.array([[0.0, 3.0], [5.0, 1.0]])
    with pytest.raises(CheckFailed) as failure:
        judge_within(error, np.ones((2, 2)), "J(z)")
    assert str(failure.value) == (
        "J(z): 2 of 4 entries exceed their bound; worst at [1, 0]: "
        "5.000e+00 > 1.000e+00 (error/bound 5)"
    )


def test_judge_within_takes_the_absolute_error_and_broadcasts_the_bound():
    judge_within(np.array([-1.0, 1.0]), 1.0, "symmetric")
    with pytest.raises(CheckFailed, match="1 of 2 entries"):
        judge_within(np.array([-1.5, 1.0]), 1.0, "symmetric")
    with pytest.raises(CheckFailed, match=r"worst at \[1, 0\]"):
        judge_within(np.array([[0.0, 0.0], [3.0, 0.0]]), np.array([1.0, 2.0]), "rows")


def test_judge_within_fails_on_a_nan_error():
    with pytest.raises(CheckFailed, match=r"1 of 2 entries .* worst at \[1\]: nan > "):
        judge_within(np.array([0.0, np.nan]), 1.0, "nan")
    assert weigh(np.array([np.nan, 10.0]), 1.0, "nan").ratio == math.inf


def test_judge_within_fails_on_a_zero_bound_unless_the_error_is_exactly_zero():
    judge_within(np.zeros(3), 0.0, "exact")
    with pytest.raises(CheckFailed, match=r"1\.000e-300 > 0\.000e\+00 \(error/bound inf\)"):
        judge_within(np.array([1e-300]), 0.0, "exact required")


@pytest.mark.parametrize("bound", [math.inf, math.nan, -1.0], ids=["inf", "nan", "negative"])
def test_judge_within_fails_on_a_bound_that_bounds_nothing(bound):
    """An infinite bound would let every error through; NaN and negative are no bounds."""
    with pytest.raises(
        CheckFailed,
        match=rf"worst at \[1\]: 0\.000e\+00 against the bound "
        rf"{bound}, which bounds nothing",
    ):
        judge_within(np.zeros(2), np.array([1.0, bound]), "b")
    assert weigh(np.zeros(2), np.array([1.0, bound]), "b").ratio == math.inf


def test_weigh_takes_an_overflowing_error_over_bound_as_inf():
    verdict = weigh(1e300, 1e-10, "huge")
    assert (verdict.ratio, verdict.exceeded) == (math.inf, 1)


def test_judge_within_names_no_index_for_a_scalar():
    with pytest.raises(CheckFailed, match=r"^scalar: 1 of 1 entries exceed their bound; worst: "):
        judge_within(2.0, 1.0, "scalar")


@pytest.mark.parametrize(
    ("error", "bound"),
    [
        (np.zeros(3), np.ones((2, 3))),  # the error would be stretched to entries it does not have
        (np.zeros(3), np.ones(2)),  # no broadcast at all
    ],
    ids=["bound larger than the error", "incompatible"],
)
def test_weigh_refuses_a_bound_that_does_not_broadcast_to_the_error(error, bound):
    with pytest.raises(
        ValueError,
        match=f"^gap: a bound of shape {re.escape(str(bound.shape))} "
        r"does not broadcast to the error's shape \(3,\)$",
    ):
        weigh(error, bound, "gap")


def test_weigh_measures_without_judging():
    verdict = weigh([0.5, -3.0, 1.0], [1.0, 2.0, 4.0], "gap")
    assert (verdict.holds, verdict.exceeded, verdict.ratio, verdict.index) == (False, 1, 1.5, (1,))
    assert (verdict.error, verdict.bound, verdict.largest) == (3.0, 2.0, 3.0)


def test_judge_cases_returns_the_largest_ratio_and_error_over_every_case():
    cases = judge_cases([weigh(1.0, 4.0, "a"), weigh([0.5, 3.0], 10.0, "b")], "p")
    assert cases == Cases((weigh(1.0, 4.0, "a"), weigh([0.5, 3.0], 10.0, "b")))
    assert (cases.ratio, cases.largest) == (0.3, 3.0)
    assert (judge_cases([], "none").ratio, judge_cases([], "none").largest) == (0.0, 0.0)


def test_judge_cases_reports_every_failing_case_at_once_with_the_worst_named():
    verdicts = [
        weigh([0.0, 3.0], 1.0, "z = 1"),
        weigh(0.5, 1.0, "z = 2"),
        weigh([[0.0, 0.0], [0.0, 7.0]], 2.0, "z = 3"),
        weigh(1.5, 1.0, "z = 4"),
    ]
    with pytest.raises(CheckFailed) as failure:
        judge_cases(verdicts, "sigma(z)")
    assert str(failure.value) == (
        "sigma(z): 3 of 4 cases exceed their bound; worst: z = 3: 1 of 4 entries exceed their "
        "bound; worst at [1, 1]: 7.000e+00 > 2.000e+00 (error/bound 3.5)"
    )


def test_judge_cases_takes_a_nan_case_as_the_worst():
    verdicts = [weigh(5.0, 1.0, "large"), weigh(np.nan, 1.0, "nan")]
    with pytest.raises(CheckFailed, match="^p: 2 of 2 cases exceed their bound; worst: nan: "):
        judge_cases(verdicts, "p")


def test_require_and_unchecked():
    require(True, "never raised")
    with pytest.raises(CheckFailed, match="^why$"):
        require(False, "why")
    assert not issubclass(Unchecked, CheckFailed)
