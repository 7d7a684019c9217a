"""GELU'' (命題 8.1 (2)), 命題 4.4 and 補題 A.1 with sympy.stats, the mask as a limit
(命題 3.3, 演習 10.3), the residual expansions (命題 4.1, 演習 11.3)."""

import pytest
from sympy import IndexedBase, Mul, Ne, Rational, Sum, Symbol, exp, sqrt, symbols
from sympy.stats import Bernoulli, Die, Exponential, Normal, Poisson, Uniform

from symbolic.gelu import (
    chapter_first,
    chapter_second,
    derivatives,
    second_derivative_zeros,
    t,
)
from symbolic.identities import is_zero
from symbolic.mask import mask_bound, mask_limit, masked_softmax
from symbolic.probability import (
    DISTRIBUTIONS,
    Step,
    VarianceDerivation,
    dot_product_moments,
    dot_product_variance,
    independent_expectation,
    mu,
    nu,
    product_expectation,
)
from symbolic.residual import d_free_term, expand_product, post_ln_product, pre_ln_product
from symbolic.sums import normalise_sums
from symbolic.symbols import d_k

# ------------------------------------------------------------------------ GELU


def test_prop_relu_piecewise_linear_gelu_derivatives():
    first, second = derivatives()
    assert is_zero(first - chapter_first(t))
    assert is_zero(second - chapter_second(t))
    assert second_derivative_zeros() == {-sqrt(2), sqrt(2)}


# ---------------------------------------------------------------- probability


@pytest.mark.parametrize("name", sorted(DISTRIBUTIONS))
@pytest.mark.parametrize("size", [1, 2, 8])
def test_prop_scaling_variance_explicit(name, size):
    m = dot_product_moments(size, DISTRIBUTIONS[name])
    assert (m.mean, m.variance, m.scaled_variance) == (0, size, 1)


def test_prop_scaling_variance_symbolic_d_k():
    m = dot_product_moments(d_k)
    assert (m.mean, m.variance, m.scaled_variance) == (0, d_k, 1)


def test_prop_scaling_variance_rejects_coordinates_of_variance_two():
    m = dot_product_moments(4, lambda name: Normal(name, 0, sqrt(2)))
    assert m.variance == 16 and m.scaled_variance != 1
    assert dot_product_moments(3, lambda name: Normal(name, 1, 1)).mean != 0


def test_prop_scaling_variance_from_generic_moments():
    result = dot_product_variance()
    assert result.holds
    assert (result.mean, result.variance, result.scaled_variance) == (0, d_k, 1)
    assert result.hypotheses == {mu: 0, nu: 1}
    claims = [step.claim for step in result.steps]
    assert claims[0] == "S^2 = sum_i sum_j q_i k_i q_j k_j"
    assert claims[-1] == "Var S = E[S^2] - E[S]^2"
    assert result.steps[-1].rhs == d_k * nu**2 - d_k * mu**4  # before the hypotheses


def test_prop_scaling_variance_from_generic_moments_cross_terms_vanish_only_with_mean_zero():
    cross = [s for s in dot_product_variance().steps if s.conditions]
    assert len(cross) == 1 and cross[0].rhs == mu**4
    assert dot_product_variance(mean=1).variance == 0  # nu^2 - mu^4 = 0 per coordinate


def test_prop_scaling_variance_from_generic_moments_rejects_other_moments():
    assert dot_product_variance(second_moment=2).variance == 4 * d_k
    assert dot_product_variance(second_moment=2).scaled_variance == 4
    assert dot_product_variance(mean=Rational(1, 2)).mean == d_k / 4


@pytest.mark.parametrize("name", sorted(DISTRIBUTIONS))
def test_prop_scaling_variance_generic_moments_agree_with_each_distribution(name):
    X = DISTRIBUTIONS[name]("X")
    from sympy.stats import E

    result = dot_product_variance(d_k, E(X), E(X**2))
    explicit = dot_product_moments(3, DISTRIBUTIONS[name])
    assert result.variance.subs(d_k, 3) == explicit.variance == 3


def test_lem_product_expectation_step_needs_independent_factors():
    i, j = symbols("i j", integer=True, positive=True)
    q, k = IndexedBase("q", real=True), IndexedBase("k", real=True)
    assert independent_expectation(q[i] * k[i] * q[j] * k[j], (Ne(i, j),)).holds
    assert independent_expectation(q[1] * q[2]).holds  # different integer subscripts
    assert independent_expectation(q[i] * q[j], (Ne(j, i),)).holds
    # without i != j, q_i and q_j may be one coordinate
    assert not independent_expectation(q[i] * k[i] * q[j] * k[j]).holds
    step = independent_expectation(q[i] * k[i])
    one_factor = Step(step.claim, step.lhs, step.rhs, step.reason, 0, (q[i] * k[i],))
    assert not one_factor.holds  # a factor holding two coordinates
    wrong_product = Step(
        step.claim,
        step.lhs,
        step.rhs,
        step.reason,
        q[i] * k[i] - q[i] * k[i] ** 2,
        (q[i], k[i] ** 2),
    )
    assert not wrong_product.holds


def test_prop_scaling_variance_derivation_holds_only_when_every_step_does():
    result = dot_product_variance()
    square = result.steps[0]
    broken = Step(square.claim, square.lhs, square.rhs, square.reason, square.rhs)
    steps = (broken, *result.steps[1:])
    assert not VarianceDerivation(
        steps, result.hypotheses, result.mean, result.variance, result.scaled_variance
    ).holds


def test_prop_scaling_variance_split_without_the_delta_is_rejected():
    split = dot_product_variance().steps[1]
    i, j = symbols("i j", integer=True, positive=True)
    q, k = IndexedBase("q", real=True), IndexedBase("k", real=True)
    cross = Sum(Sum(q[i] * k[i] * q[j] * k[j], (j, 1, d_k)), (i, 1, d_k))
    wrong = Sum(q[i] ** 2 * k[i] ** 2, (i, 1, d_k)) + cross  # counts i = j twice
    assert split.holds
    assert not is_zero(normalise_sums(split.lhs - wrong, d_k, {}, (i, j)))


@pytest.mark.parametrize(
    "variables",
    [
        lambda: [Normal("a", 1, 2), Exponential("b", 3), Uniform("c", 0, 2)],
        lambda: [Die("D", 6), Bernoulli("B", Rational(1, 3)), Poisson("P", 2)],
    ],
    ids=["continuous", "discrete"],
)
def test_lem_product_expectation(variables):
    joint, product = product_expectation(variables())
    assert is_zero(joint - product)


def test_lem_product_expectation_fails_for_dependent_variables():
    X = Normal("X", 1, 1)
    joint, product = product_expectation([X, X, X])  # E[X^3] = 4 != 1
    assert not is_zero(joint - product)


# ----------------------------------------------------------------------- mask


@pytest.mark.parametrize("n, allowed", [(3, {0, 1}), (4, {0, 2}), (2, {1})])
def test_prop_mask_as_limit(n, allowed):
    assert mask_limit(n, allowed).holds
    for i in set(range(n)) - allowed:
        assert mask_bound(n, allowed, i).holds


def test_prop_mask_as_limit_rejects_a_mask_letting_a_position_through():
    def leaky(z, allowed):
        return masked_softmax(z, set(allowed) | {2})

    assert not mask_limit(3, {0, 1}, leaky).holds


def test_prop_mask_as_limit_rejects_a_bound_without_the_factor_e_minus_c():
    def too_tight(z, allowed, i, c):
        return exp(-2 * c) * exp(z[i]) / sum(exp(z[j]) for j in allowed)

    assert not mask_bound(3, {0, 1}, 2, too_tight).holds


def test_exr_mask_limit_numbers():
    z = {
        Symbol("z_1", real=True): 1,
        Symbol("z_2", real=True): 2,
        Symbol("z_3", real=True): Rational(1, 2),
    }
    limit = mask_limit(3, {0, 1}).limit.subs(z)
    assert [round(float(v), 4) for v in limit] == [0.2689, 0.7311, 0]
    bound = exp(-10) * exp(Rational(1, 2)) / (exp(1) + exp(2))
    assert round(float(bound) * 1e6, 1) == 7.4


def test_mask_inputs_are_validated():
    with pytest.raises(ValueError, match="non-empty subset"):
        mask_limit(3, set())
    with pytest.raises(ValueError, match="masked position"):
        mask_bound(3, {0, 1}, 0)


# ------------------------------------------------------------------- residual


@pytest.mark.parametrize("M, start", [(1, 0), (3, 0), (5, 1), (6, 2)])
def test_prop_residual_identity_path_pre_ln(M, start):
    e = expand_product(pre_ln_product(M, start))
    assert len(e.terms) == 2 ** (M - start)
    assert e.bare_identity_count == 1 and e.distinct


@pytest.mark.parametrize("M, start", [(1, 0), (3, 0), (5, 2)])
def test_prop_residual_identity_path_post_ln(M, start):
    product = post_ln_product(M, start)
    e = expand_product(product)
    assert e.bare_identity_count == 0
    Ks = [Symbol(f"K_{k}", commutative=False) for k in range(M, start, -1)]
    assert d_free_term(product) == Mul(*Ks)  # K_M ... K_{start+1}, in that order


def test_exr_residual_expansion_eight_terms():
    e = expand_product(pre_ln_product(3, 0))
    J3, J2, J1 = (Symbol(f"J_{k}", commutative=False) for k in (3, 2, 1))
    assert len(e.terms) == 8 and e.distinct
    assert J3 * J2 * J1 in e.terms
    assert J1 * J2 * J3 not in e.terms  # order matters: Jacobians do not commute
    without_residual = [t for t in e.terms if t.has(J3) and t.has(J2) and t.has(J1)]
    assert without_residual == [J3 * J2 * J1]


def test_inputs_of_the_derivations_are_validated():
    from symbolic.symbols import sizes

    with pytest.raises(ValueError, match="unknown dimension"):
        sizes(width=3)
    with pytest.raises(ValueError, match="d_k must be a positive int"):
        dot_product_moments(0)
    with pytest.raises(ValueError, match="0 <= start < M"):
        pre_ln_product(2, 2)
