"""numeric.activations against their definitions at 50 digits (定義 2.2［Transformer ブロック］)."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from numeric.activations import ACTIVATIONS, activation_function, gelu, gelu_tanh, relu
from numeric.chunks import CACHE_ENTRIES, row_chunks
from numeric.error_bounds import EXP_ULPS, unit_roundoff
from spec.config import ACTIVATIONS as DECLARED

pytestmark = pytest.mark.numeric
mpmath.mp.dps = 50


def mp_gelu(t):
    """t Phi(t) with Phi(t) = erfc(-t / sqrt 2) / 2, at 50 digits."""
    t = mpmath.mpf(float(t))
    return t * mpmath.erfc(-t / mpmath.sqrt(2)) / 2


def mp_gelu_tanh(t):
    """GPT-2's t (1 + tanh(sqrt(2/pi) (t + 0.044715 t^3))) / 2 as written.

    1 + tanh(v) cancels e^{2v}-fold for v < 0 (up to e^{1206} on the tested domain), so it
    is evaluated with 600 digits, keeping more than 50 in the result.
    """
    with mpmath.workdps(600):
        t = mpmath.mpf(float(t))
        inner = mpmath.sqrt(2 / mpmath.pi) * (t + mpmath.mpf("0.044715") * t**3)
        return t * (1 + mpmath.tanh(inner)) / 2


def gelu_relative_bound(t, u):
    """Relative error bound of t * ndtr(t), where ndtr(t) = erfc(-t / sqrt 2) / 2 for
    t <= -1 (0.5 + erf(t / sqrt 2) / 2, or 1 - erfc / 2, elsewhere: both well conditioned).

    The argument x = -t/sqrt 2 is rounded twice (the constant and the product): 2u,
    amplified by the condition number of erfc, kappa(x) <= 2x^2 + 1 for x > 0 (from
    erfc(x) > 2 e^{-x^2} / (sqrt(pi) (x + sqrt(x^2 + 2)))) and <= 1 for x <= 0. erfc's own
    error is taken as (4 + 2x^2) u: a few ulps plus the rounding of x^2 inside e^{-x^2},
    amplified by x^2 (the documented peak 5.7e-14 on [0, 26.6] is within it). The halving
    is exact and the product with t adds u.
    """
    x2 = np.where(t < 0, t * t / 2, 0.0)
    return (2 * (2 * x2 + 1) + 4 + 2 * x2 + 1) * u


def gelu_tanh_relative_bound(t, u):
    """Relative error bound of t / (1 + e^{-w}), w = 2 sqrt(2/pi) (t + 0.044715 t^3).

    Forming -w takes 4 roundings and 2 rounded constants (no cancellation: both terms of
    k + k c t^2 have one sign), within 7u relative, i.e. 7u|w| absolute
    in the exponent; exp adds 2 EXP_ULPS u; 1 + e^{-w} and the division add u each, and
    1/(1 + e) is no more sensitive to e than e itself.
    """
    w = 2 * math.sqrt(2 / math.pi) * np.abs(t + 0.044715 * t**3)
    return (7 * w + 2 * EXP_ULPS + 2) * u


def normal(dtype):
    """t = 0 or |t| >= 4 tiny: GELU(t) ~ t/2 near 0 stays a normal float."""
    tiny = float(np.finfo(dtype).tiny)
    return lambda values: all(v == 0 or abs(v) >= 4 * tiny for v in values)


def assert_matches(f, exact, relative_bound, values, dtype):
    t = np.array(values, dtype=dtype)
    out = f(t)
    assert out.dtype == dtype
    t64 = t.astype(np.float64)
    ref = np.array([float(exact(v)) for v in t64])
    bound = relative_bound(t64, unit_roundoff(dtype)) * np.abs(ref)
    assert (np.abs(out.astype(np.float64) - ref) <= bound).all(), (t, out, ref, bound)


# Domains keep every result (and e^{-w}) a normal float of the dtype, where relative bounds
# hold; the tails beyond are tested apart.
@pytest.mark.element("def-transformer-block")
@given(st.lists(st.floats(-35, 35), min_size=1, max_size=20).filter(normal(np.float64)))
def test_gelu_float64_matches_50_digit_definition(values):
    assert_matches(gelu, mp_gelu, gelu_relative_bound, values, np.float64)


@pytest.mark.element("def-transformer-block")
@given(st.lists(st.floats(-12, 12, width=32), min_size=1, max_size=20).filter(normal(np.float32)))
def test_gelu_float32_matches_50_digit_definition(values):
    assert_matches(gelu, mp_gelu, gelu_relative_bound, values, np.float32)


@pytest.mark.element("def-transformer-block")
@given(st.lists(st.floats(-20, 20), min_size=1, max_size=20).filter(normal(np.float64)))
def test_gelu_tanh_float64_matches_50_digit_formula(values):
    assert_matches(gelu_tanh, mp_gelu_tanh, gelu_tanh_relative_bound, values, np.float64)


@pytest.mark.element("def-transformer-block")
@given(st.lists(st.floats(-9, 9, width=32), min_size=1, max_size=20).filter(normal(np.float32)))
def test_gelu_tanh_float32_matches_50_digit_formula(values):
    assert_matches(gelu_tanh, mp_gelu_tanh, gelu_tanh_relative_bound, values, np.float32)


@pytest.mark.element("def-transformer-block")
@pytest.mark.parametrize("f", [gelu, gelu_tanh])
@pytest.mark.parametrize("dtype, top", [(np.float64, 1e308), (np.float32, 3e38)])
def test_gelu_tails_reach_their_limits_without_nan(f, dtype, top):
    """t -> -inf: GELU(t) -> 0 from below; t -> inf: GELU(t) = t to rounding."""
    t = np.array([-top, -1e4, -200.0, 200.0, 1e4, top], dtype=dtype)
    with np.errstate(invalid="raise", divide="raise"):
        out = f(t)
    assert out.dtype == dtype and np.isfinite(out).all()
    assert (out[:3] <= 0).all() and (out[:3] > -np.finfo(dtype).tiny).all()
    assert np.array_equal(out[3:], t[3:])


@pytest.mark.element("def-transformer-block")
def test_relu_is_max_with_zero_and_keeps_float32():
    t = np.array([-2.5, -0.0, 0.0, 3.25, 1e38], dtype=np.float32)
    out = relu(t)
    assert out.dtype == np.float32
    assert np.array_equal(out, np.array([0.0, 0.0, 0.0, 3.25, 1e38], dtype=np.float32))


def test_activations_cover_the_declared_names():
    assert set(ACTIVATIONS) == set(DECLARED)
    t = np.linspace(-3, 3, 7)
    for name, f in ACTIVATIONS.items():
        assert np.array_equal(activation_function(name)(t), f(t))


def test_activation_function_rejects_an_unknown_name():
    with pytest.raises(ValueError, match="activation must be one of"):
        activation_function("swish")


def test_activations_reject_non_finite_and_non_numeric_input():
    with pytest.raises(ValueError, match="t must be finite"):
        gelu([1.0, np.nan])
    with pytest.raises(TypeError, match="t must be a float32 or float64 array"):
        gelu_tanh(["a"])
    with pytest.raises(TypeError, match="t must be a float32 or float64 array"):
        relu(np.array([True, False]))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_gelu_of_a_large_array_in_chunks_equals_it_entry_by_entry(dtype):
    """Arrays past PARALLEL_MIN_SIZE are computed in threads over chunks; a transposed
    (non-contiguous) array exercises the copy; small pieces take the serial path."""
    t = np.random.default_rng(0).standard_normal((300, 700)).astype(dtype).T  # (700, 300)
    out = gelu(t)
    assert out.shape == t.shape and out.dtype == dtype
    rows = [gelu(t[i : i + 100]) for i in range(0, 700, 100)]  # 30000 entries each
    assert np.array_equal(out, np.concatenate(rows))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_gelu_tanh_in_cache_pieces_equals_it_entry_by_entry(dtype):
    """A (700, 300) array is 210,000 entries: four pieces of CACHE_ENTRIES, the last one
    partial; a transposed (non-contiguous) array exercises the copy, and every entry
    meets the same seven operations as in a row of its own."""
    assert 3 * CACHE_ENTRIES < 700 * 300 < 4 * CACHE_ENTRIES
    t = np.random.default_rng(1).standard_normal((300, 700)).astype(dtype).T  # (700, 300)
    out = gelu_tanh(t)
    assert out.shape == t.shape and out.dtype == dtype
    assert np.array_equal(out, [gelu_tanh(row) for row in t])
    assert gelu_tanh(np.array(1.5, dtype)).shape == ()  # a 0-d array stays 0-d


@given(st.integers(0, 5 * CACHE_ENTRIES), st.integers(0, 2 * CACHE_ENTRIES))
def test_row_chunks_cover_the_rows_in_order_with_at_most_a_cache_of_entries(rows, row_size):
    pieces = list(row_chunks(rows, row_size))
    assert [i for piece in pieces for i in range(piece.start, piece.stop)] == list(range(rows))
    assert all(piece.stop > piece.start for piece in pieces)
    size = max(row_size, 1)
    assert all((p.stop - p.start) * size <= max(CACHE_ENTRIES, size) for p in pieces)
    # as few pieces as that allows: every piece but the last holds a full cache's rows
    assert all((p.stop - p.start) == max(1, CACHE_ENTRIES // size) for p in pieces[:-1])


def test_a_callable_activation_returning_nan_is_named_at_its_first_nan():
    def late_nan(t):
        out = t.copy()
        out[[1, 3]] = np.nan
        return out

    with pytest.raises(
        ValueError,
        match=r"returned NaN at index \(1,\) for the finite argument "
        r"-0\.5",
    ):
        activation_function(late_nan)(np.array([2.0, -0.5, 1.0, 4.0]))
