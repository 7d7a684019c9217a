"""The judges: is_zero / equal prove identities and reject non-identities."""

import pytest
from sympy import (
    IndexedBase,
    KroneckerDelta,
    Matrix,
    Piecewise,
    Rational,
    Sum,
    cos,
    exp,
    expand,
    pi,
    sin,
    sqrt,
    symbols,
)

from symbolic.identities import (
    Certificate,
    RadicalField,
    SimplexQuotient,
    SparsePolynomial,
    SphereQuotient,
    collapse_deltas,
    compare,
    equal,
    indices_in_range,
    is_nonzero,
    is_zero,
    manifestly_nonnegative,
    normalise_sums,
    simplex_certificate,
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


# ------------------------------------------------------------ sums over 1..n

k, n, m = symbols("k n m", integer=True, positive=True)
i, j = symbols("i j", integer=True, positive=True)
v, a = IndexedBase("v", real=True), IndexedBase("a", real=True)


def reduces_to_zero(expr):
    return is_zero(normalise_sums(expr, n, {}, (i, j)))


@pytest.mark.parametrize(
    "difference",
    [
        Sum(v[k], (k, 2, n)) - Sum(v[k], (k, 1, n)),
        Sum(v[k], (k, 1, n - 1)) - Sum(v[k], (k, 1, n)),
        Sum(v[k] ** 2, (k, 1, 5)) - Sum(v[k] ** 2, (k, 1, n)),
        Sum(v[k], (k, n, 1)) - Sum(v[k], (k, 1, n)),
        Sum(v[k], (k, 1, m)) - Sum(v[k], (k, 1, n)),
        Sum(v[k], (k, 0, n - 1)) - Sum(v[k], (k, 1, n)),
        Sum(v[k + 1], (k, 1, n)) - Sum(v[k], (k, 1, n)),
        Sum(v[k], (k, 1, n + 1)) - Sum(v[k], (k, 1, n)),
        Sum(Sum(a[i, j], (j, 1, n)), (i, 1, n)) - n * Sum(a[i, j], (j, 1, n)),
        Sum(Sum(v[j], (j, 1, i)), (i, 1, n)) - Sum(Sum(v[j], (j, 1, n)), (i, 1, n)),
        Sum(v[k], (k, 1, 100)) - Sum(v[k], (k, 1, 99)),
    ],
    ids=[
        "2..n vs 1..n",
        "1..n-1 vs 1..n",
        "1..5 vs 1..n",
        "reversed limits",
        "1..m vs 1..n",
        "0..n-1 vs 1..n",
        "shifted subscript",
        "1..n+1 vs 1..n",
        "outer index left free",
        "triangle vs square",
        "long explicit ranges",
    ],
)
def test_normalise_sums_does_not_prove_false_identities(difference):
    assert not reduces_to_zero(difference)


@pytest.mark.parametrize(
    "difference",
    [
        Sum(v[k], (k, 2, n)) + v[1] - Sum(v[k], (k, 1, n)),
        Sum(v[k + 1], (k, 0, n - 1)) - Sum(v[k], (k, 1, n)),
        Sum(v[k + 1], (k, 0, n)) - Sum(v[k], (k, 1, n)) - v[n + 1],
        Sum(v[k], (k, 1, n - 1)) + v[n] - Sum(v[j], (j, 1, n)),
        Sum(v[k] ** 2, (k, 1, 3)) - v[1] ** 2 - v[2] ** 2 - v[3] ** 2,
        Sum(v[k], (k, n, 1)) + Sum(v[k], (k, 2, n - 1)),  # Karr: sum_n^1 = -sum_2^{n-1}
        Sum(v[k], (k, 1, m)) - Sum(v[j], (j, 1, m)),
        Sum(a[i, j], (i, 1, n), (j, 1, n)) - Sum(Sum(a[i, j], (i, 1, n)), (j, 1, n)),
        Sum(KroneckerDelta(i, k) * v[k], (k, 1, n)) - v[i],
        Sum(3 * v[k] + 2, (k, 1, n)) - 3 * Sum(v[j], (j, 1, n)) - 2 * n,
    ],
    ids=[
        "split off v_1",
        "index shifted back",
        "shift with an end term",
        "split off v_n",
        "explicit range",
        "reversed limits",
        "same sum over 1..m",
        "two limits vs nested",
        "delta",
        "linearity",
    ],
)
def test_normalise_sums_proves_true_identities(difference):
    assert reduces_to_zero(difference)


def test_normalise_sums_applies_facts_over_1_to_n_only():
    facts = {Sum(v[k], (k, 1, n)): 1}
    assert normalise_sums(Sum(v[j], (j, 1, n)), n, facts, ()) == 1
    assert normalise_sums(Sum(v[j], (j, 2, n)), n, facts, ()) == 1 - v[1]
    assert normalise_sums(Sum(v[j], (j, 1, m)), n, facts, ()) != 1
    with pytest.raises(ValueError, match="a fact must be a sum over 1..n"):
        normalise_sums(v[1], n, {Sum(v[k], (k, 0, n)): 1}, ())


def test_collapse_deltas_substitutes_a_number_for_a_symbol():
    assert collapse_deltas(KroneckerDelta(i, 1) * (i + 1)) == 2 * KroneckerDelta(i, 1)
    assert collapse_deltas(KroneckerDelta(i, j) * KroneckerDelta(j, k) * (i - k)) == 0


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


# ------------------------------------------- exact arithmetic at explicit sizes


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


def test_quotients_decide_identities_on_their_sets_only():
    p = [SparsePolynomial.variable(v) for v in range(3)]
    simplex = SimplexQuotient(3)
    assert simplex.is_zero(p[0] * (p[0] + p[1] + p[2]) - p[0])
    assert not simplex.is_zero(p[0] * p[1])
    sphere = SphereQuotient(3)
    s, u = SparsePolynomial.variable(3), SparsePolynomial.variable(4)
    assert sphere.is_zero((p[0] + p[1] + p[2]) * s * u)
    assert sphere.is_zero(s * u - 1)
    assert not sphere.is_zero(p[0] * p[1])
    assert sphere.reduce(p[0] ** 2 + p[1] ** 2 + p[2] ** 2) == 3
    assert SphereQuotient(2).reduce(p[0] * p[1]) == -1  # y = +-(1, -1)


def test_is_nonzero_needs_an_exact_non_zero_number():
    assert is_nonzero(Rational(1, 10**30))
    assert is_nonzero(sqrt(3) - sqrt(2))
    assert not is_nonzero(sqrt(8) - 2 * sqrt(2))
    assert not is_nonzero(x)  # a symbol: not decided
    assert not is_nonzero(pi - 3)  # not algebraic: not decided


def test_sparse_polynomial_power_zero_is_one():
    p = SparsePolynomial.variable(0)
    assert p**0 == 1
    assert p**2 == p * p


def test_indices_in_range_takes_a_piece_only_after_the_earlier_ones_are_false():
    i_, n_ = symbols("i n", integer=True, positive=True)
    piecewise = Piecewise((1, i_ >= 2), (0, True))  # 1 <= i <= n does not decide i >= 2
    assert indices_in_range(piecewise, (i_,), n_) == piecewise
    assert indices_in_range(Piecewise((1, i_ > n_), (0, True)), (i_,), n_).has(Piecewise)
    assert indices_in_range(Piecewise((2, False), (1, i_ <= n_), (0, True)), (i_,), n_) == 1


def test_normalise_sums_keeps_a_delta_sum_whose_range_condition_is_undecided():
    # sum_k delta(i + 1, k) v_k is v_{i+1} when i + 1 <= n, which 1 <= i <= n leaves open
    total = Sum(KroneckerDelta(i + 1, k) * v[k], (k, 1, n))
    assert not is_zero(normalise_sums(total, n, {}, (i,)))
    assert not reduces_to_zero(total - v[i + 1])
