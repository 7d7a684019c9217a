"""numeric.softmax against its definition (定義 2.2［自己注意］) at 50 digits, and at the
float limits."""

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from numeric import validation
from numeric.error_bounds import softmax_error_bound, unit_roundoff
from numeric.softmax import (
    masked_softmax,
    shifted_exponentials,
    softmax,
    softmax_jacobian,
    softmax_kernel,
)
from proofs.evidence.reference import mp_softmax

pytestmark = pytest.mark.numeric
mpmath.mp.dps = 50

# |z| <= 300 (float64) or 40 (float32) keeps every e^{z_i - max z} >= e^{-600} (e^{-80})
# a normal float, where the relative bound of softmax_error_bound is the whole story;
# the extremes are tested separately below.
ROWS64 = st.lists(st.floats(-300, 300), min_size=1, max_size=8)
ROWS32 = st.lists(st.floats(-40, 40, width=32), min_size=1, max_size=8)


def assert_within_bound(z, sigma, exact):
    err = np.abs(sigma.astype(np.float64) - np.array([float(e) for e in exact]))
    bound = softmax_error_bound(z, sigma)
    assert (err <= bound).all(), (z, err, bound)


@pytest.mark.element("def-softmax")
@given(ROWS64)
def test_softmax_float64_matches_50_digit_definition(row):
    z = np.array(row)
    assert_within_bound(z, softmax(z), mp_softmax(row))


@pytest.mark.element("def-softmax")
@given(ROWS32)
def test_softmax_float32_matches_50_digit_definition(row):
    z = np.array(row, dtype=np.float32)
    sigma = softmax(z)
    assert sigma.dtype == np.float32
    assert_within_bound(z, sigma, mp_softmax(row))


@pytest.mark.element("def-softmax")
@pytest.mark.parametrize("width", [64, 32])
def test_softmax_matches_the_definition_over_the_whole_float_range(width):
    """Rows of any finite floats up to the float limit (±1.8e308, ±3.4e38): no overflow,
    no NaN, every entry within softmax_error_bound, whose underflow term covers the
    entries that are exactly 0 in floats."""

    @given(
        st.lists(
            st.floats(allow_nan=False, allow_infinity=False, width=width), min_size=1, max_size=8
        )
    )
    def check(row):
        z = np.array(row, dtype=np.float32 if width == 32 else np.float64)
        sigma = softmax(z)
        assert sigma.dtype == z.dtype
        assert_within_bound(z, sigma, mp_softmax([float(t) for t in row]))

    check()


@pytest.mark.element("def-softmax")
@given(ROWS64, st.data())
def test_masked_softmax_matches_50_digit_definition(row, data):
    allowed = data.draw(st.lists(st.booleans(), min_size=len(row), max_size=len(row)))
    if not any(allowed):
        allowed[data.draw(st.integers(0, len(row) - 1))] = True
    z, mask = np.array(row), np.array(allowed)
    sigma = masked_softmax(z, mask)
    assert (sigma[~mask] == 0).all()
    kept = softmax_error_bound(z[mask], sigma[mask])
    exact = np.array([float(e) for e in mp_softmax(row, allowed)])
    assert (np.abs(sigma[mask] - exact[mask]) <= kept).all()


@pytest.mark.element("def-softmax")
def test_masked_softmax_ignores_the_values_of_masked_entries():
    mask = np.array([True, False, True, False])
    a = masked_softmax(np.array([0.5, 1e308, -2.0, -1e308]), mask)
    b = masked_softmax(np.array([0.5, 0.0, -2.0, 0.0]), mask)
    assert np.array_equal(a, b)


@pytest.mark.element("def-softmax")
def test_masked_softmax_broadcasts_a_mask_over_heads():
    z = np.arange(24.0).reshape(2, 3, 4) / 7  # (h, n, m)
    mask = np.tri(3, 4, 1, dtype=bool)  # (n, m)
    out = masked_softmax(z, mask)
    for head in range(2):
        assert np.array_equal(out[head], masked_softmax(z[head], mask))


@pytest.mark.element("def-softmax", "prop-softmax-basic")
@pytest.mark.parametrize("dtype, top", [(np.float64, 1e308), (np.float32, 3e38)])
def test_softmax_at_the_float_limits_has_no_overflow_and_sums_to_one(dtype, top):
    z = np.array(
        [[top, -top, 0.0], [-top, -top, -top], [top, top, -top], [0.0, top, 1.0]], dtype=dtype
    )
    with np.errstate(invalid="raise", divide="raise"):  # underflow to 0 is the right answer
        sigma = softmax(z)
    assert sigma.dtype == dtype
    assert np.isfinite(sigma).all()
    u = unit_roundoff(dtype)
    assert (np.abs(sigma.sum(axis=-1) - 1) <= 4 * u).all()  # n = 3 terms: gamma_2 + division
    assert np.array_equal(sigma[0], np.array([1, 0, 0], dtype=dtype))
    assert np.allclose(sigma[1], 1 / 3, rtol=4 * u, atol=0)
    assert np.allclose(sigma[2], [0.5, 0.5, 0], rtol=4 * u, atol=0)


@pytest.mark.element("def-softmax")
def test_masked_softmax_at_the_float_limits():
    z = np.array([1e308, -1e308, 5.0])
    sigma = masked_softmax(z, np.array([False, True, True]))
    assert np.array_equal(sigma, [0.0, 0.0, 1.0])


@pytest.mark.element("prop-softmax-jacobian")
@given(st.lists(st.floats(-30, 30), min_size=1, max_size=4))
def test_softmax_jacobian_matches_50_digit_derivative(row):
    """Against mpmath's numerical derivative of the 50-digit definition (not the formula):
    its error ~1e-40 is negligible next to the float64 bound, which propagates the
    softmax bound r_i through J_ij = delta_ij s_i - s_i s_j plus three roundings."""
    z = np.array(row)
    jac = softmax_jacobian(z)
    n = len(row)
    exact = np.array(
        [
            [
                float(
                    mpmath.diff(lambda t, i=i, j=j: mp_softmax_at(row, j, t)[i], mpmath.mpf(row[j]))
                )
                for j in range(n)
            ]
            for i in range(n)
        ]
    )
    sigma = softmax(z)
    r = softmax_error_bound(z, sigma) / sigma  # (n,) relative bound of each sigma_i
    u = unit_roundoff(np.float64)
    outer = np.outer(sigma, sigma)
    bound = np.diag(r * sigma) + (r[:, None] + r[None, :] + u) * outer + u * np.abs(jac)
    assert (np.abs(jac - exact) <= bound + 1e-30).all()


def mp_softmax_at(row, j, t):
    """The 50-digit softmax with z_j replaced by t (mpf)."""
    z = [mpmath.mpf(v) for v in row]
    z[j] = t
    e = [mpmath.exp(v) for v in z]
    total = mpmath.fsum(e)
    return [v / total for v in e]


@pytest.mark.element("prop-softmax-jacobian")
def test_softmax_jacobian_is_vectorised_and_keeps_float32():
    z = np.random.default_rng(0).standard_normal((3, 2, 5)).astype(np.float32)
    jac = softmax_jacobian(z)
    assert jac.shape == (3, 2, 5, 5) and jac.dtype == np.float32
    assert np.array_equal(jac[1, 0], softmax_jacobian(z[1, 0]))


def test_masked_softmax_rejects_a_fully_masked_row_naming_it():
    with pytest.raises(ValueError, match=r"row \(1, 0\)"):
        mask = np.ones((2, 3, 4), dtype=bool)
        mask[1, 0] = False
        mask[1, 2] = False  # the first row without U is the one named
        masked_softmax(np.zeros((2, 3, 4)), mask)


def test_softmax_jacobian_refuses_exactly_the_allocations_above_the_memory_limit(monkeypatch):
    z = np.zeros((2, 3))  # its Jacobian is (2, 3, 3): 18 float64 entries, 144 bytes
    monkeypatch.setattr(validation, "MEMORY_LIMIT", 144)
    assert softmax_jacobian(z).shape == (2, 3, 3)
    monkeypatch.setattr(validation, "MEMORY_LIMIT", 143)
    with pytest.raises(ValueError, match=r"softmax_jacobian\(z\) would need .*\(2, 3, 3\)"):
        softmax_jacobian(z)


def test_softmax_rejects_non_finite_input_naming_it():
    with pytest.raises(ValueError, match="z must be finite"):
        softmax([0.0, np.nan])
    with pytest.raises(ValueError, match="z must be finite"):
        softmax([0.0, np.inf])


def test_softmax_rejects_an_empty_row_and_a_scalar():
    with pytest.raises(ValueError, match="at least one entry"):
        softmax(np.zeros((2, 0)))
    with pytest.raises(ValueError, match="z must be an array of 1 to 32 dimensions"):
        softmax(1.0)


def test_masked_softmax_rejects_a_non_boolean_or_misshapen_mask():
    with pytest.raises(TypeError, match="mask must be a boolean array"):
        masked_softmax([1.0, 2.0], [1, 0])
    with pytest.raises(ValueError, match="does not broadcast"):
        masked_softmax([1.0, 2.0], [True, False, True])


@pytest.mark.parametrize(
    "function, most",
    [(masked_softmax, 32), (softmax_jacobian, 31)],
    ids=["masked_softmax", "softmax_jacobian"],
)
def test_the_dimension_limits_of_masked_softmax_and_its_jacobian_are_numpys(function, most):
    """masked_softmax takes what NumPy 1 holds (32 dimensions), the Jacobian one fewer (its
    result has one more); a scalar and one dimension more are refused by name."""

    def call(ndim):
        z = np.ones((1,) * ndim)
        return function(z, z > 0) if function is masked_softmax else function(z)

    assert np.shape(call(most)) == (1,) * (most + (function is softmax_jacobian))
    for ndim in (0, most + 1):
        with pytest.raises(ValueError, match="z must be an array"):
            call(ndim)


def test_shifted_exponentials_are_the_softmax_before_its_division():
    """softmax(z) = e / S to the bit; the row maximum gives e = 1, so S >= 1; a masked -inf
    gives e = 0 exactly."""
    z = np.array([[0.5, -np.inf, 2.0], [700.0, -700.0, 0.0]])
    e, total = shifted_exponentials(z.copy())
    assert total.shape == (2, 1) and (total >= 1).all()
    assert (e.max(axis=-1) == 1).all() and e[0, 1] == 0
    assert np.array_equal(e / total, softmax_kernel(z))
