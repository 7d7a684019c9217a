"""numeric.layer_norm against 定義 2.1［Transformer ブロック］ at 50 digits, float range."""

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from numeric.error_bounds import layer_norm_error_bound, layer_norm_jacobian_error_bound
from numeric.layer_norm import layer_norm, layer_norm_jacobian
from proofs.book.profiles import scaled
from proofs.evidence.reference import mp_error, mp_layer_norm

pytestmark = pytest.mark.numeric
mpmath.mp.dps = 50


def assert_matches_definition(x, gamma=None, beta=None, eps=0.0):
    """Against 定義 2.1 at 50 digits, within numeric.error_bounds.layer_norm_error_bound
    (whose underflow terms cover subnormal rows, gammas and outputs)."""
    out = layer_norm(x, gamma, beta, eps)
    assert out.dtype == x.dtype
    wide = [None if a is None else np.asarray(a, np.float64) for a in (x, gamma, beta)]
    err = mp_error(out, mp_layer_norm(*wide, eps))  # float32 -> float64 is exact
    bound = layer_norm_error_bound(x, gamma, beta, eps)
    assert (err <= bound).all(), (x, err, bound)


def rows(dtype, bound):
    width = 32 if dtype == np.float32 else 64
    element = st.floats(-bound, bound, width=width)
    return st.integers(1, 16).flatmap(
        lambda d: st.lists(element, min_size=d, max_size=d).map(lambda r: np.array(r, dtype))
    )


@pytest.mark.element("def-layer-norm")
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_layer_norm_matches_50_digit_definition(dtype):
    @given(rows(dtype, 1e6), st.sampled_from([0.0, 1e-5, 1.0]), st.booleans(), st.data())
    def check(x, eps, affine, data):
        assume(eps > 0 or np.ptp(x) > 0)
        gamma = beta = None
        if affine:
            params = st.lists(st.floats(-3, 3, width=32), min_size=len(x), max_size=len(x))
            gamma = np.array(data.draw(params), dtype)
            beta = np.array(data.draw(params), dtype)
        assert_matches_definition(x, gamma, beta, eps)

    check()


@pytest.mark.element("def-layer-norm")
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_layer_norm_matches_the_definition_over_the_whole_float_range(dtype):
    """Rows of any finite floats, subnormal to the largest, constant ones included (eps > 0):
    within layer_norm_error_bound, which is taken in the row's power-of-two scale and
    carries the underflow terms."""
    width = 32 if dtype == np.float32 else 64
    element = st.floats(allow_nan=False, allow_infinity=False, width=width)
    row = st.integers(1, 8).flatmap(
        lambda d: st.lists(element, min_size=d, max_size=d).map(lambda r: np.array(r, dtype))
    )

    @given(row, st.sampled_from([0.0, 1e-5, 1.0]), st.booleans(), st.data())
    def check(x, eps, affine, data):
        assume(eps > 0 or x.max() != x.min())
        gamma = beta = None
        if affine:
            params = st.lists(st.floats(-3, 3, width=32), min_size=len(x), max_size=len(x))
            gamma = np.array(data.draw(params), dtype)
            beta = np.array(data.draw(params), dtype)
        assert_matches_definition(x, gamma, beta, eps)

    check()


@pytest.mark.element("def-layer-norm")
@pytest.mark.parametrize("dtype, top", [(np.float64, 1e308), (np.float32, 3e38)])
@pytest.mark.parametrize("eps", [0.0, 1e-5])
def test_layer_norm_at_the_float_limits(dtype, top, eps):
    """Squares of these entries overflow; the power-of-two row scaling keeps LN exact to
    rounding, with eps scaled alike."""
    for x in ([top, -top, 0.0, top / 3], [top, top * 0.5, top * 0.75], [-top, 1.0, 2.0]):
        assert_matches_definition(np.array(x, dtype), eps=eps)


@pytest.mark.element("def-layer-norm")
@pytest.mark.parametrize("eps", [0.0, 1e-5])
def test_layer_norm_of_subnormal_rows(eps):
    """Variances of these rows underflow to 0 unscaled."""
    assert_matches_definition(np.array([1e-310, 3e-310, -2e-310]), eps=eps)
    assert_matches_definition(np.array([1e-170, 3e-170, -2e-170]), eps=eps)


@pytest.mark.element("def-layer-norm")
def test_layer_norm_near_constant_row_is_the_exact_ln_of_the_floats_given():
    """Entries one ulp apart: the shifted differences are exact, so the output is LN of
    these floats to rounding (the noise pattern, normalised), as the docstring says."""
    one = 1.0
    x = np.array([one, np.nextafter(one, 2), one, np.nextafter(one, 0)])
    assert_matches_definition(x)
    assert_matches_definition(x, eps=1e-30)


@pytest.mark.element("def-layer-norm")
def test_layer_norm_of_a_constant_row_with_positive_eps_is_beta_exactly():
    beta = np.array([0.25, -1.0, 3.0])
    assert np.array_equal(layer_norm(np.full((2, 3), 0.1), beta=beta, eps=1e-5), [beta, beta])
    assert np.array_equal(layer_norm(np.array([[7.0]]), eps=1e-5), [[0.0]])


@pytest.mark.element("def-layer-norm")
def test_layer_norm_rejects_a_constant_row_with_eps_zero_naming_the_row():
    x = np.ones((2, 3, 4))
    x[0] = np.arange(12.0).reshape(3, 4)
    x[1, 0] = np.arange(4.0)
    x[1, 2] = [5.0, 5.0, 5.0, 5.0]
    with pytest.raises(ValueError, match=r"constant row \(1, 1\)"):
        layer_norm(x, eps=0.0)


def test_layer_norm_names_the_first_overflowing_entry_with_its_gamma_and_beta():
    x = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
    gamma = np.array([1.0, 1.0, 1.7e308])  # gamma_2 y_2 = 2.08e308 in row 0 and -2.08e308 in 1
    with pytest.raises(
        ValueError,
        match=r"at index \(0, 2\), with gamma\[2\] = 1\.7e\+308 and "
        r"beta\[2\] = 0",
    ):
        layer_norm(x, gamma, eps=0.0)


def test_layer_norm_jacobian_of_a_single_entry_is_zero_and_of_none_is_refused():
    assert np.array_equal(layer_norm_jacobian([[5.0], [-2.0]], eps=0.25), np.zeros((2, 1, 1)))
    with pytest.raises(ValueError, match=r"at least one entry along the last axis, got \(2, 0\)"):
        layer_norm_jacobian(np.zeros((2, 0)))


@pytest.mark.element("def-layer-norm")
def test_layer_norm_is_applied_to_each_row():
    x = np.random.default_rng(0).standard_normal((3, 4, 6))
    out = layer_norm(x)
    assert np.array_equal(out[2, 1], layer_norm(x[2, 1]))


def mp_layer_norm_at(x, j, t, eps):
    row = [mpmath.mpf(float(v)) for v in x]
    row[j] = t
    return mp_layer_norm(row, eps=eps)


@scaled(0.3)  # each example takes d^2 50-digit numerical derivatives
@given(
    rows(np.float64, 10).filter(lambda x: len(x) >= 2 and np.ptp(x) > 0.1 * np.abs(x).max()),
    st.sampled_from([0.0, 0.5]),
)
@pytest.mark.element("prop-layer-norm-jacobian")
def test_layer_norm_jacobian_matches_50_digit_derivative(x, eps):
    """Against mpmath's numerical derivative of the 50-digit definition (error ~1e-40),
    within proofs.transformer_block's rounding bound of the Jacobian. mpmath's default step
    2^-(prec + 10) suits rows of unit size; it is scaled by the row's size so that a row
    of 1e-150 is differentiated as accurately as a row of 1."""
    x = x[:4]
    assume(np.ptp(x) > 0)
    d = len(x)
    s = mpmath.sqrt(
        mpmath.fsum((mpmath.mpf(float(v)) - mpmath.fsum(map(float, x)) / d) ** 2 for v in x) / d
        + eps
    )
    if 1 / s > np.finfo(np.float64).max:  # J ~ 1/s is not a float64: the function says so
        with pytest.raises(ValueError, match=r"layer_norm_jacobian\(x\) .* overflowed"):
            layer_norm_jacobian(x, eps)
        return
    jac = layer_norm_jacobian(x, eps)
    step = mpmath.ldexp(mpmath.mpf(float(np.abs(x).max())), -mpmath.mp.prec - 10)
    exact = np.array(
        [
            [
                float(
                    mpmath.diff(
                        lambda t, i=i, j=j: mp_layer_norm_at(x, j, t, eps)[i],
                        mpmath.mpf(float(x[j])),
                        h=step,
                    )
                )
                for j in range(d)
            ]
            for i in range(d)
        ]
    )
    assert (np.abs(jac - exact) <= layer_norm_jacobian_error_bound(x, eps)).all()


@pytest.mark.element("prop-layer-norm-jacobian")
def test_layer_norm_jacobian_is_vectorised_and_keeps_float32():
    x = np.random.default_rng(1).standard_normal((2, 3, 5)).astype(np.float32)
    jac = layer_norm_jacobian(x, eps=1e-5)
    assert jac.shape == (2, 3, 5, 5) and jac.dtype == np.float32
    assert np.array_equal(jac[1, 2], layer_norm_jacobian(x[1, 2], eps=1e-5))


@pytest.mark.element("prop-layer-norm-jacobian")
def test_layer_norm_jacobian_rejects_a_constant_row_with_eps_zero():
    with pytest.raises(ValueError, match=r"constant row \(\)"):
        layer_norm_jacobian([2.0, 2.0, 2.0])


def test_layer_norm_rejects_misshapen_gamma_beta_and_negative_eps():
    x = np.ones((2, 3)) * [1.0, 2.0, 4.0]
    with pytest.raises(ValueError, match=r"gamma must have shape \(3,\), got \(4,\)"):
        layer_norm(x, gamma=np.ones(4))
    with pytest.raises(ValueError, match=r"beta must be a 1-D array, got shape \(1, 3\)"):
        layer_norm(x, beta=np.ones((1, 3)))
    with pytest.raises(ValueError, match="eps must be a finite float >= 0"):
        layer_norm(x, eps=-1e-5)
    with pytest.raises(ValueError, match="gamma must be finite"):
        layer_norm(x, gamma=[1.0, np.nan, 1.0])


@pytest.mark.parametrize(
    "function, most",
    [(layer_norm, 32), (layer_norm_jacobian, 31)],
    ids=["layer_norm", "layer_norm_jacobian"],
)
def test_the_dimension_limits_of_layer_norm_and_its_jacobian_are_numpys(function, most):
    """layer_norm takes what NumPy 1 holds (32 dimensions), the Jacobian one fewer (its
    result has one more); a scalar and one dimension more are refused by name."""
    z = np.arange(2.0).reshape((1,) * (most - 1) + (2,))
    extra = (2,) if function is layer_norm_jacobian else ()
    assert function(z, eps=1e-5).shape == z.shape + extra
    for bad in (np.float64(1.0), z[None]):
        with pytest.raises(ValueError, match="x must be an array"):
            function(bad, eps=1e-5)
