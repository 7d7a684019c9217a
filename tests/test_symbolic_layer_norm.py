"""命題 3.3 (LayerNorm Jacobian), 命題 3.1 (invariance, moments) and 演習 11.2, derived."""

import pytest
from sympy import (
    IndexedBase,
    KroneckerDelta,
    Matrix,
    Rational,
    S,
    Sum,
    Symbol,
    eye,
    ones,
    sqrt,
    symbols,
)

import symbolic.layer_norm as layer_norm_module
from symbolic.identities import is_nonzero, is_zero
from symbolic.layer_norm import (
    DIFFERENTIATED_PROPERTIES_LIMIT,
    DIFFERENTIATION_LIMIT,
    PROPERTIES_LIMIT,
    SIZE_LIMIT,
    chapter_jacobian,
    derive_layer_norm_jacobian,
    derive_layer_norm_jacobian_by_differentiation,
    derive_layer_norm_jacobian_general,
    general_jacobian_properties,
    invariance_difference,
    jacobian_properties,
    jacobian_properties_by_differentiation,
    layer_norm,
    layer_norm_jacobian,
    mean,
    moments,
    moments_general,
    output_sums,
    proved_entry,
    scaling_witness,
    sigma_symbol,
    unbiased_layer_norm,
    variance,
    y_i,
    y_j,
)
from symbolic.symbols import d as d_symbol

eps = Symbol("epsilon", positive=True)


def without_y_y_t(y, sigma):
    d = y.rows
    return (eye(d) - ones(d, d) / d) / sigma


def without_one_one_t(y, sigma):
    d = y.rows
    return (eye(d) - y * y.T / d) / sigma


@pytest.mark.parametrize("d", range(2, 17))
def test_prop_layer_norm_jacobian_for_explicit_d(d):
    assert derive_layer_norm_jacobian(d).holds


def test_prop_layer_norm_jacobian_for_symbolic_d():
    assert derive_layer_norm_jacobian_general().holds


def test_prop_layer_norm_jacobian_rejects_unbiased_variance():
    assert not derive_layer_norm_jacobian(4, normalise=unbiased_layer_norm).holds


@pytest.mark.parametrize("wrong", [without_y_y_t, without_one_one_t])
def test_prop_layer_norm_jacobian_rejects_missing_term(wrong):
    assert not derive_layer_norm_jacobian(4, stated=wrong).holds


def test_prop_layer_norm_jacobian_general_rejects_missing_term():
    def entry(y_i, y_j, delta, sigma, d):
        return (delta - 1 / d) / sigma

    assert not derive_layer_norm_jacobian_general(entry).holds


def test_prop_layer_norm_jacobian_properties_for_symbolic_d():
    assert output_sums() == (0, d_symbol)
    properties = general_jacobian_properties()
    assert properties == {name: 0 for name in properties} and len(properties) == 5


def test_prop_layer_norm_jacobian_properties_for_symbolic_d_reject_missing_y_y_t():
    def entry(y_i, y_j, delta, sigma, d):
        return (delta - 1 / d) / sigma

    properties = general_jacobian_properties(entry)
    i = symbols("i", integer=True, positive=True)
    y = IndexedBase("y", real=True)
    # J y = (y_i - sum y / d) / sigma = y_i / sigma, and tr(s J) - (d - 2) = (d - 1) - (d - 2)
    assert is_zero(properties["J y = 0"] - y[i] / sigma_symbol)
    assert properties["tr(s J) = d - 2"] == 1


def test_prop_layer_norm_jacobian_properties_for_symbolic_d_reject_missing_one_one_t():
    def entry(y_i, y_j, delta, sigma, d):
        return (delta - y_i * y_j / d) / sigma

    # J 1 = (1 - y_i sum y / d) / sigma = 1 / sigma
    assert general_jacobian_properties(entry)["J 1 = 0"] == 1 / sigma_symbol


@pytest.mark.parametrize("d", range(2, 6))
def test_prop_layer_norm_jacobian_properties(d):
    p = jacobian_properties(d)
    for name in ("J 1 = 0", "J c = 0", "s J symmetric", "s J idempotent",
                 "tr(s J) = d - 2", "J(a x) = J(x) / a"):
        assert p.holds[name], name
    assert p.holds["J = 0"] == (d == 2)  # d = 2: W is all of R^2 and J vanishes


def test_prop_layer_norm_jacobian_properties_reject_unbiased_variance():
    p = jacobian_properties(4, normalise=unbiased_layer_norm)
    assert not p.holds["s J idempotent"]
    assert not p.holds["tr(s J) = d - 2"]


def test_prop_layer_norm_jacobian_with_eps_keeps_the_formula_with_sqrt_sigma2_plus_eps():
    assert derive_layer_norm_jacobian(4, eps=eps).holds


def test_prop_layer_norm_jacobian_with_eps_what_survives():
    p = jacobian_properties(4, eps)
    assert p.holds["J 1 = 0"] and p.holds["s J symmetric"]
    assert p.holds["J c = eps c / s^3"]  # replaces J c = 0
    assert not p.holds["J c = 0"]
    assert not p.holds["s J idempotent"] and not p.holds["tr(s J) = d - 2"]
    assert not p.holds["J(a x) = J(x) / a"]  # exact witness at x = e_1 - e_2, a = 2


@pytest.mark.parametrize("d", range(2, 7))
def test_prop_layer_norm_invariance(d):
    assert is_zero(invariance_difference(d))


def test_prop_layer_norm_invariance_rejects_a_normalisation_without_centring():
    def uncentred(x, eps=0):
        return x / sqrt(sum(xi**2 for xi in x) / x.rows)

    assert not is_zero(invariance_difference(3, uncentred))


@pytest.mark.parametrize("d", range(2, 6))
def test_exr_layer_norm_affine_moments(d):
    g, b = symbols("g b", real=True)
    m = moments(d, g, b)
    assert is_zero(m.mean - b)
    assert is_zero(m.variance - g**2)
    assert is_zero(m.norm**2 - d * (g**2 + b**2))


def test_exr_layer_norm_affine_moments_for_symbolic_d():
    g, b = symbols("g b", real=True)
    m = moments_general()
    assert is_zero(m.mean - b)
    assert is_zero(m.variance - g**2)
    assert is_zero(m.norm - sqrt(d_symbol * (g**2 + b**2)))


def test_prop_layer_norm_invariance_moments_of_the_plain_output():
    m = moments(4, 1, 0)
    assert is_zero(m.mean) and is_zero(m.variance - 1) and is_zero(m.norm**2 - 4)


def test_exr_layer_norm_affine_rejects_unbiased_variance():
    x = Matrix(symbols("x_1:5", real=True))
    z = unbiased_layer_norm(x)
    assert not is_zero(sum(zi**2 for zi in z) / 4 - 1)


def test_ex_layer_norm_scale_exact_values():
    x = Matrix([1, 2, 3, 6])
    y = layer_norm(x)
    assert [round(float(v), 4) for v in y] == [-1.069, -0.5345, 0.0, 1.6036]
    assert is_zero(layer_norm(3 * x + 5 * ones(4, 1)) - y)
    assert sum(v**2 for v in y) == 4  # norm 2 = sqrt(d), exactly


def test_layer_norm_inputs_are_validated():
    with pytest.raises(TypeError, match="x must be a sympy Matrix"):
        layer_norm([1, 2, 3])
    with pytest.raises(ValueError, match="at least 2 entries"):
        layer_norm(Matrix([1]))
    with pytest.raises(ValueError, match="d must be >= 2, got 1"):
        derive_layer_norm_jacobian(1)
    for d in (True, 3.0):  # True == 1 and 3.0 == 3 would pass a comparison
        with pytest.raises(TypeError, match="d must be an int"):
            derive_layer_norm_jacobian(d)


# ----------------------------------------------- explicit widths, fast path


def test_prop_layer_norm_jacobian_proved_entry_comes_from_the_symbolic_d_derivation():
    i, j = symbols("i j", integer=True, positive=True)
    delta = KroneckerDelta(i, j)
    assert is_zero(proved_entry() - (delta - 1 / d_symbol - y_i * y_j / d_symbol) / sigma_symbol)


@pytest.mark.parametrize("d", range(2, 6))
def test_prop_layer_norm_jacobian_explicit_d_equals_differentiation(d):
    fast = derive_layer_norm_jacobian(d)
    assert fast.holds and derive_layer_norm_jacobian_by_differentiation(d).holds
    x, J = layer_norm_jacobian(d)
    y, sigma = Matrix(symbols(f"y_1:{d + 1}", real=True)), Symbol("sigma", positive=True)
    at_x = dict(zip(y, layer_norm(x), strict=True)) | {sigma: sqrt(variance(x))}
    assert is_zero(fast.derived.xreplace(at_x) - J)


@pytest.mark.parametrize("d", range(2, 6))
@pytest.mark.parametrize("wrong", [without_y_y_t, without_one_one_t])
def test_prop_layer_norm_jacobian_explicit_d_agrees_with_differentiation_on_wrong_formulas(
    d, wrong
):
    assert derive_layer_norm_jacobian(d, wrong).holds == \
        derive_layer_norm_jacobian_by_differentiation(d, wrong).holds


@pytest.mark.parametrize("wrong", [without_y_y_t, without_one_one_t])
def test_prop_layer_norm_jacobian_d_64_and_its_wrong_formulas(wrong):
    assert derive_layer_norm_jacobian(64).holds
    assert not derive_layer_norm_jacobian(64, wrong).holds


def test_prop_layer_norm_jacobian_explicit_d_judges_on_the_outputs():
    def with_norm(y, sigma):  # |y|^2 / d = 1 on LN's outputs: the chapter's formula
        d = y.rows
        return chapter_jacobian(y, sigma) * (y.T * y)[0, 0] / d

    assert derive_layer_norm_jacobian(5, with_norm).holds
    assert derive_layer_norm_jacobian_by_differentiation(3, with_norm).holds


def test_prop_layer_norm_jacobian_explicit_d_needs_a_polynomial_formula():
    def rooted(y, sigma):
        return chapter_jacobian(y, sigma) * sqrt(1 + y[0] ** 2)

    with pytest.raises(TypeError, match="not a polynomial over Q"):
        derive_layer_norm_jacobian(3, rooted)


def test_prop_layer_norm_jacobian_explicit_d_limits():
    with pytest.raises(ValueError, match=f"above SIZE_LIMIT = {SIZE_LIMIT}"):
        derive_layer_norm_jacobian(SIZE_LIMIT + 1)
    with pytest.raises(ValueError, match=f"above PROPERTIES_LIMIT = {PROPERTIES_LIMIT}"):
        jacobian_properties(PROPERTIES_LIMIT + 1)
    with pytest.raises(ValueError, match="above DIFFERENTIATION_LIMIT"):
        derive_layer_norm_jacobian(DIFFERENTIATION_LIMIT + 1, eps=eps)
    with pytest.raises(ValueError, match="above DIFFERENTIATED_PROPERTIES_LIMIT"):
        jacobian_properties(DIFFERENTIATED_PROPERTIES_LIMIT + 1, eps=eps)
    with pytest.raises(ValueError, match="needs the chapter's LN"):
        jacobian_properties(3, eps=eps, stated=chapter_jacobian)


class Reached(Exception):
    """Raised by the first step after a size guard: the guard let d through."""


def reach(*args, **kwargs):
    raise Reached


@pytest.mark.parametrize(("run", "step", "limit", "kwargs"), [
    (derive_layer_norm_jacobian, "_outputs", 96, {}),
    (jacobian_properties, "SphereQuotient", 24, {}),
    (derive_layer_norm_jacobian, "variables", 16, {"eps": eps}),
    (jacobian_properties, "variables", 6, {"eps": eps}),
], ids=["SIZE_LIMIT", "PROPERTIES_LIMIT", "DIFFERENTIATION_LIMIT",
        "DIFFERENTIATED_PROPERTIES_LIMIT"])
def test_prop_layer_norm_jacobian_explicit_d_limits_are_the_documented_ones(
    monkeypatch, run, step, limit, kwargs
):
    # the module docstrings promise these widths; the step after each guard is replaced,
    # so d = limit is seen to pass the guard without paying for the derivation
    monkeypatch.setattr(layer_norm_module, step, reach)
    with pytest.raises(Reached):
        run(limit, **kwargs)
    with pytest.raises(ValueError, match=f"d = {limit + 1} is above"):
        run(limit + 1, **kwargs)


@pytest.mark.parametrize("d", range(2, 6))
def test_prop_layer_norm_jacobian_properties_equal_those_by_differentiation(d):
    fast, slow = jacobian_properties(d), jacobian_properties_by_differentiation(d)
    assert fast.holds == slow.holds


def test_prop_layer_norm_jacobian_properties_at_d_16():
    p = jacobian_properties(16)
    assert {name for name, holds in p.holds.items() if not holds} == {"J = 0"}


def test_prop_layer_norm_jacobian_properties_of_a_stated_formula():
    assert jacobian_properties(5, stated=chapter_jacobian).holds == jacobian_properties(5).holds

    def twice_sigma(y, sigma):  # J(a x) = J(x) / a fails: sigma J scales like sigma^2
        return chapter_jacobian(y, sigma) * sigma**2

    failing = {
        without_y_y_t: {"J c = 0", "J c = eps c / s^3", "tr(s J) = d - 2"},
        without_one_one_t: {"J 1 = 0", "tr(s J) = d - 2"},  # both still projections
        twice_sigma: {"s J idempotent", "tr(s J) = d - 2", "J(a x) = J(x) / a"},
    }
    for stated, names in failing.items():
        holds = jacobian_properties(4, stated=stated).holds
        assert {name for name, h in holds.items() if not h} == names | {"J = 0"}, stated

    def skewed(y, sigma):
        d = y.rows
        return chapter_jacobian(y, sigma) + y * ones(1, d) / (d * sigma)

    assert not jacobian_properties(4, stated=skewed).holds["s J symmetric"]
    assert jacobian_properties(2, stated=chapter_jacobian).holds["J = 0"]


@pytest.mark.element("prop-layer-norm-jacobian")
def test_prop_layer_norm_scaling_witness_is_j_of_2x_minus_half_j_of_x():
    assert is_zero(scaling_witness(4, 0))  # the law holds there when eps = 0
    witness = scaling_witness(4, eps)  # eps set to 1
    # x = e_1 - e_2: J_33 = (1 - 1/4)/s with s^2 = sigma^2 + 1 = 3/2 at x, 3 at 2x
    assert is_zero(witness[2, 2] - Rational(3, 4) * (1 / sqrt(3) - 1 / sqrt(6)))
    # J_11 = (3/4 - c_1^2 / (4 s^2)) / s, c_1 = 1 at x and 2 at 2x
    assert is_zero(witness[0, 0] - (Rational(5, 12) / sqrt(3)
                                    - Rational(7, 24) / sqrt(Rational(3, 2))))
    assert is_nonzero(witness[2, 2])


@pytest.mark.element("prop-layer-norm-jacobian")
def test_prop_layer_norm_scaling_law_not_proved_for_a_non_homogeneous_normalisation():
    def shifted(x, eps=0):  # divides by sqrt(sigma^2 + 1): eps = 1 in disguise
        return (x - mean(x) * ones(x.rows, 1)) / sqrt(variance(x) + 1)

    p = jacobian_properties(3, normalise=shifted)
    assert not p.holds["J(a x) = J(x) / a"]
    assert any(is_nonzero(e) for e in p.defects["J(a x) = J(x) / a"])


@pytest.mark.element("prop-layer-norm-jacobian")
def test_prop_layer_norm_scaling_law_fails_for_a_normalisation_of_another_degree():
    def times_sigma(x, eps=0):  # homogeneous of degree 2: J(a x) = a J(x)
        return (x - mean(x) * ones(x.rows, 1)) * sqrt(variance(x) + eps)

    p = jacobian_properties(3, normalise=times_sigma)
    assert not p.holds["J(a x) = J(x) / a"]


def _at_point(e, y, sigma, point, sigma_value):
    return e.xreplace(dict(zip(y, point, strict=True)) | {sigma: sigma_value})


@pytest.mark.element("prop-layer-norm-jacobian")
@pytest.mark.parametrize("power", [2, 3, -1])
def test_prop_layer_norm_scaling_defects_of_a_stated_formula_are_the_difference(power):
    def scaled(y, sigma):  # J(a x) = a^(power - 1) J(x): the defect is (a^(power-1) - 1/a) J(x)
        return chapter_jacobian(y, sigma) * sigma**power

    a = Symbol("a", positive=True)
    y, sigma = Matrix(symbols("y_1:4", real=True)), Symbol("sigma", positive=True)
    point = layer_norm(Matrix([0, 1, 3]))  # on LN's outputs: sum 0, sum of squares 3
    defects = jacobian_properties(3, stated=scaled).defects["J(a x) = J(x) / a"]
    expected = (a ** (power - 1) - 1 / a) * scaled(y, sigma)  # (3, 3)
    for k, defect in enumerate(defects):
        difference = defect - expected[k // 3, k % 3]
        assert is_zero(_at_point(difference, y, sigma, point, 7)), k


@pytest.mark.element("prop-layer-norm-jacobian")
def test_prop_layer_norm_property_defects_are_the_values_themselves():
    y, sigma = Matrix(symbols("y_1:4", real=True)), Symbol("sigma", positive=True)
    point = layer_norm(Matrix([0, 1, 3]))
    defects = jacobian_properties(3, stated=without_y_y_t).defects
    for k, entry in enumerate(defects["J = 0"]):  # (delta_ij - 1/3) / sigma
        want = (Rational(2, 3) if k in (0, 4, 8) else Rational(-1, 3)) / sigma
        assert is_zero(_at_point(entry - want, y, sigma, point, 7)), k
    for k, entry in enumerate(defects["J c = 0"]):  # (I - 11^T/3) sigma y / sigma = y
        assert is_zero(_at_point(entry - y[k], y, sigma, point, 7)), k


@pytest.mark.element("prop-layer-norm-jacobian")
def test_prop_layer_norm_scaling_defects_by_differentiation_are_a_minus_one_over_a_times_j():
    def times_sigma(x, eps=0):  # homogeneous of degree 2: J(a x) = a J(x)
        return (x - mean(x) * ones(x.rows, 1)) * sqrt(variance(x) + eps)

    a = Symbol("a", positive=True)
    x, J = layer_norm_jacobian(3, normalise=times_sigma)
    point = dict(zip(x, (0, 1, 3), strict=True))
    defects = jacobian_properties(3, normalise=times_sigma).defects["J(a x) = J(x) / a"]
    for k, defect in enumerate(defects):
        expected = (a - 1 / a) * J[k // 3, k % 3]
        assert is_zero((defect - expected).xreplace(point)), k


@pytest.mark.parametrize("derive", [derive_layer_norm_jacobian,
                                    derive_layer_norm_jacobian_by_differentiation])
def test_prop_layer_norm_jacobian_difference_is_derived_minus_stated(derive):
    x, J = layer_norm_jacobian(3)
    point = dict(zip(x, (0, 1, 3), strict=True))
    y, sigma = Matrix(symbols("y_1:4", real=True)), Symbol("sigma", positive=True)
    at = dict(zip(y, layer_norm(x).xreplace(point), strict=True))
    at[sigma] = sqrt(variance(x)).xreplace(point)
    expected = J.xreplace(point) - without_y_y_t(y, sigma).xreplace(at)  # (3, 3)
    difference = derive(3, without_y_y_t).difference.xreplace(point | at)
    assert is_zero(difference - expected)
    assert not is_zero(difference)


def test_prop_layer_norm_jacobian_by_differentiation_names_eps_in_its_label():
    assert derive_layer_norm_jacobian_by_differentiation(3).name == "LayerNorm Jacobian, d = 3"
    assert derive_layer_norm_jacobian_by_differentiation(3, eps=eps).name == \
        "LayerNorm Jacobian, d = 3, eps = epsilon"


def test_prop_layer_norm_jacobian_by_differentiation_of_a_map_without_a_root():
    def centred(x, eps=0):  # x - mu 1: no square root in the map, one in the stated sigma
        return x - mean(x) * ones(x.rows, 1)

    derivation = derive_layer_norm_jacobian_by_differentiation(3, normalise=centred)
    assert not derivation.holds
    assert derivation.derived == eye(3) - ones(3, 3) / 3


def test_unbiased_layer_norm_divides_the_sum_of_squares_by_d_minus_1():
    # d = 3, x = (0, 0, 3): mu = 1, sum (x - mu)^2 = 6, / (d - 1) = 3, + eps
    assert list(unbiased_layer_norm(Matrix([0, 0, 3]))) == [-1 / sqrt(3), -1 / sqrt(3), 2 / sqrt(3)]
    assert list(unbiased_layer_norm(Matrix([0, 0, 3]), eps=1)) == [-S.Half, -S.Half, 1]


def test_indexed_sums_leave_what_they_cannot_evaluate():
    sums = layer_norm_module._indexed_sums()
    x, (k, _, _) = sums.x, sums.k_range
    for body in (k * x[k], x[k] ** 3, sqrt(x[k])):
        assert sums.evaluate(Sum(body, sums.k_range)) == Sum(body, sums.k_range)
    shifted = Sum(x[k], (k, 2, d_symbol))  # another range: not S
    assert sums.evaluate(shifted) == shifted
    assert sums.evaluate(Sum(x[k] ** 2 - 2 * x[k], sums.k_range)) == \
        sums.Q + sums.S**2 / d_symbol - 2 * sums.S
