"""A witness that a relation is false, or the finding that none was met
(proofs.tex.witness): true identities SymPy does not simplify are never false; a false one
comes with values a reader can put back in."""

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.audit.deciding.notation import _nonzero_at_a_point
from proofs.tex.witness import (
    DIGITS,
    MAX_OPERATIONS,
    Point,
    Range,
    _fast_at,
    _real_at,
    _verdict,
    judge,
    short_folds,
)

x, y, i, n, p, A, b = sympy.symbols("x y i n p A b", positive=True)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (100 ** (-i / 2), 10 ** (-i)),  # true for every i; expand leaves it
        ((x / 6) ** (1 - b), (x / 6) * (x / 6) ** (-b)),
        (A ** (1 - p), A * A ** (-p)),
        (sympy.log(x * y), sympy.log(x) + sympy.log(y)),
        (sympy.sqrt(x**2), x),
    ],
)
def test_true_identities_hold(left, right):
    judged = judge("=", left, right)
    assert judged.outcome == "holds"
    assert judged.points == 16
    assert judged.detail() == "confirmed numerically at 16 points, not proved"


def _replayed(point: Point) -> dict:
    """The witness's values, as a reader would type them back in."""
    return {sympy.Symbol(name, positive=True): sympy.Rational(str(v)) for name, v in point.values}


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ((x + y) ** 2, x**2 + x * y + y**2),
        (sympy.log(x + y), sympy.log(x) + sympy.log(y)),
        (12 * n * x**2 + 2 * n**2 * x, 2 * n * x * (6 * x + 2 * n)),
        (sympy.exp(-x / 2), 10 ** (-x)),
    ],
)
def test_a_false_identity_has_a_witness_that_replays(left, right):
    judged = judge("=", left, right)
    assert judged.outcome == "fails"
    point = _replayed(judged.witness)
    assert sympy.N(left.xreplace(point) - right.xreplace(point), 30) != 0
    assert judged.detail().startswith("false at ")
    assert judged.detail().endswith("(evaluated at 40 digits)")


def test_a_witness_is_printed_with_both_sides():
    judged = judge("=", (x + 1) ** 2, x**2 + 1, seed=3)
    values = dict(judged.witness.values)
    shown = float((values["x"] + 1) ** 2), float(values["x"] ** 2 + 1)
    assert str(judged.witness) == (
        f"at x = {format(float(values['x']), 'g')}: "
        f"left {format(shown[0], '.7g')}, right {format(shown[1], '.7g')}"
    )


def test_a_relation_true_on_part_of_the_space_is_not_decided():
    judged = judge("=", sympy.sqrt((1 - p) ** 2), 1 - p)
    assert judged.outcome == "partly"
    assert judged.holds_in == ("every symbol in (0, 1)",)
    assert "not decided: false at p = " in judged.detail()
    assert "which the text must state" in judged.detail()


def test_a_stated_range_keeps_the_points_inside_it():
    judged = judge(
        "=", sympy.sqrt((1 - p) ** 2), 1 - p, ranges={"p": Range(Fraction(0), Fraction(1))}
    )
    assert judged.outcome == "holds"
    assert set(judged.regions) == {"every symbol in (0, 1)"}  # the others lie outside it


def test_names_in_ranges_no_region_shares_are_drawn_together():
    # ε in (0, 1) beside a size V ≥ 2: no region holds both, each takes a value of its own
    eps, size = sympy.symbols("epsilon V", positive=True)
    ranges = {"epsilon": Range(Fraction(0), Fraction(1)), "V": Range(Fraction(2))}
    gap = sympy.log(1 + size * (1 - eps) / eps)
    assert (
        judge("=", gap, sympy.log((1 - eps + eps / size) / (eps / size)), ranges=ranges).outcome
        == "holds"
    )
    wrong = judge("=", gap, sympy.log(1 + (size - 1) * (1 - eps) / eps), ranges=ranges)
    assert wrong.outcome == "fails"
    assert all(
        ranges[name].admits(value) for name, value in wrong.witness.values
    )  # the witness inside both ranges


def test_an_integer_symbol_takes_integers_everywhere():
    periodic = (sympy.cos(2 * sympy.pi * n), sympy.Integer(1))
    assert judge("=", *periodic, integers=frozenset({"n"})).outcome == "holds"
    assert judge("=", *periodic).outcome == "partly"  # n real: true only at integers


def test_inequalities():
    assert judge(">=", sympy.exp(x), 1 + x).outcome == "holds"
    assert judge("<=", x, x**2).outcome == "partly"  # true above 1 only
    assert judge(">=", x, x + 1).outcome == "fails"
    assert judge("!=", x, x + 1).outcome == "holds"
    assert judge("!=", 2 * x, x + x).outcome == "fails"


def test_sides_that_are_never_real_decide_nothing():
    judged = judge("=", sympy.sqrt(-x), sympy.Integer(1))
    assert judged.outcome == "unknown"
    assert judged.detail() == "not decided: the sides are real numbers at no point drawn"


def test_numbers_alone_are_judged_once():
    assert judge("=", sympy.Integer(6), sympy.Integer(2) * 3).outcome == "holds"
    judged = judge("=", sympy.Integer(7), sympy.Integer(2) * 3)
    assert (judged.outcome, judged.points, str(judged.witness)) == ("fails", 1, "left 7, right 6")


def test_printed_sides_agree_within_their_rounding():
    assert judge("=", x * sympy.Rational(1414, 1000), x * sympy.sqrt(2)).outcome == "fails"
    within = sympy.Rational(5, 10**4)
    assert judge("=", sympy.Rational(1414, 1000), sympy.sqrt(2), relative=within).outcome == "holds"


def test_matrices_are_judged_entry_by_entry():
    left = sympy.Matrix([[x, 1], [0, x]]) ** 2
    assert judge("=", left, sympy.Matrix([[x**2, 2 * x], [0, x**2]])).outcome == "holds"
    assert judge("=", left, sympy.Matrix([[x**2, x], [0, x**2]])).outcome == "fails"
    shapes = judge("=", left, sympy.Matrix([x]))
    assert (shapes.outcome, shapes.reason) == ("unknown", "the sides have different shapes")


def test_a_side_too_large_is_not_evaluated():
    huge = sum(sympy.Symbol(f"s{k}", positive=True) ** k for k in range(MAX_OPERATIONS))
    judged = judge("=", huge, huge + 1)
    assert judged.outcome == "unknown"
    assert judged.reason == f"a side of more than {MAX_OPERATIONS} operations"


def test_a_chance_meeting_does_not_save_a_false_relation():
    """2^n = n^2 meets at n = 2 and 4: one point of a region may hold by chance."""
    witness = Point((("n", Fraction(3)),), sympy.Float(8), sympy.Float(9))
    tally = {"integers": (3, 4), "small": (4, 4)}
    assert _verdict(tally, {"integers": witness}, 8, True).outcome == "fails"
    assert (
        _verdict({"integers": (2, 4), "small": (4, 4)}, {"integers": witness}, 8, True).outcome
        == "unknown"
    )
    partly = _verdict({"integers": (4, 4), "small": (0, 4)}, {"integers": witness}, 8, True)
    assert (partly.outcome, partly.holds_in) == ("partly", ("small",))
    alone = _verdict({"integers": (2, 2)}, {"integers": witness}, 2, True)
    assert alone.outcome == "unknown"  # two points of one region only: too few to say false


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(-3, 3).filter(bool))
def test_a_polynomial_changed_by_a_term_always_has_a_witness(a, c, k):
    """a x^2 + c x against the same with a term k x y added: false wherever y is not 0."""
    left = a * x**2 + c * x
    judged = judge("=", left, left + k * x * y)
    assert judged.outcome == "fails"


def test_a_sum_over_a_fractional_or_long_range_is_not_evaluated_at_a_point():
    t, b, n = sympy.symbols("t b n", positive=True)
    fractional = sympy.Sum(sympy.Min(2, t), (t, 1, b)).xreplace({b: sympy.Rational(3, 7)})
    assert not short_folds(fractional)
    assert not short_folds(sympy.Sum(t, (t, 1, 5000)))
    assert short_folds(sympy.Sum(t, (t, 1, 40)))
    # an inner range in the outer index is bounded by the outer one
    i, j = sympy.symbols("i j", integer=True)
    assert short_folds(sympy.Sum(sympy.Sum(j, (j, 1, i)), (i, 1, 10)))


def test_a_function_object_in_a_difference_is_no_number_at_a_point():
    # s = λx. 1/(1 + e^{-x}) left unapplied beside its value: setting x at a point would
    # rename the function's own variable, which SymPy refuses; no value, no verdict
    x = sympy.Symbol("x")
    s = sympy.Lambda(x, 1 / (1 + sympy.exp(-x)))
    assert _nonzero_at_a_point(s - 1 / (1 + sympy.exp(-x))) is False


def test_a_failure_met_in_fast_arithmetic_is_decided_by_sympy():
    """((x + 10^{-90})^2 - x^2)·10^{90} = 2x + 10^{-90} for every x; at twice DIGITS working
    digits the left side cancels to noise, so only SymPy's evaluation may call it false."""
    tiny = sympy.Integer(10) ** -90
    left = ((x + tiny) ** 2 - x**2) / tiny
    assert judge("=", left, 2 * x + tiny).outcome == "holds"
    assert judge("=", left, 2 * x + 3 * tiny).outcome == "holds"  # within EXACT of it
    assert judge("=", left, 3 * x).outcome == "fails"


@settings(max_examples=60, deadline=None)
@given(
    st.fractions(Fraction(1, 16), Fraction(12), max_denominator=16),
    st.sampled_from(
        [
            sympy.exp(-x) / (1 + x),
            sympy.log(1 + x**2) - sympy.sqrt(x),
            sympy.floor(8 * x / 3) + sympy.ceiling(x),
            sympy.Piecewise((x, x < 1), (x**2, True)) + sympy.pi,
            sympy.tanh(x) * sympy.erf(x) + sympy.Abs(1 - x),
            sympy.Max(x, 2) - sympy.Min(x, sympy.Rational(1, 3)),
            (1 + x) ** sympy.Rational(7, 3) - sympy.cos(x) ** 2,
        ]
    ),
)
def test_the_fast_value_is_sympy_s_to_its_digits(value, expression):
    point = ((x, sympy.Rational(value.numerator, value.denominator)),)
    fast, exact = _fast_at(expression, point), _real_at(expression, point)
    assert fast is not None and exact is not None
    assert abs(fast - exact) <= sympy.Float(10) ** (-DIGITS + 2) * max(1, abs(exact))


def test_what_does_not_compile_is_evaluated_by_sympy():
    f = sympy.Function("f")
    assert _fast_at(f(x) + 1, ((x, sympy.Integer(2)),)) is None
    k = sympy.Symbol("k", integer=True)
    folded = sympy.Sum(x**k, (k, 0, 3))
    assert _fast_at(folded, ((x, sympy.Integer(2)),)) is None
    assert judge("=", folded, 1 + x + x**2 + x**3).outcome == "holds"
    assert _fast_at(sympy.log(x - 5), ((x, sympy.Rational(7, 2)),)) is None  # complex there
