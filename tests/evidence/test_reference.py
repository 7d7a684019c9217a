"""The mpmath references: exact where the definition gives a closed form, and clear errors
for malformed input."""

import math

import mpmath
import numpy as np
import pytest
import sympy

from numeric.error_bounds import unit_roundoff
from proofs.evidence.reference import (
    DIGITS,
    mp_attention,
    mp_central_jacobian,
    mp_error,
    mp_gelu,
    mp_layer_norm,
    mp_mlp,
    mp_multi_head_attention,
    mp_softmax,
    mp_softmax_exact,
)

TINY = mpmath.mpf(10) ** (-DIGITS + 5)  # a few units in the last of DIGITS digits


def test_softmax_of_equal_entries_and_masked_entries():
    with mpmath.workdps(DIGITS):
        assert all(abs(v - mpmath.mpf(1) / 3) < TINY for v in mp_softmax([0.5, 0.5, 0.5]))
        masked = mp_softmax([1.0, 2.0, 0.5], [True, True, False])
        assert masked[2] == 0
        assert abs(masked[0] - 1 / (1 + mpmath.e)) < TINY


def test_softmax_rejects_an_empty_or_mismatched_mask():
    with pytest.raises(ValueError, match="allowed"):
        mp_softmax([0.0, 1.0], [False, False])
    with pytest.raises(ValueError, match="allowed"):
        mp_softmax_exact([mpmath.mpf(0)], [True, True])


def test_layer_norm_is_the_exact_formula():
    exact = [(v - 3) / sympy.sqrt(sympy.Rational(7, 2)) for v in (1, 2, 3, 6)]
    with mpmath.workdps(DIGITS):
        y = mp_layer_norm([1.0, 2.0, 3.0, 6.0])
        assert all(
            abs(a - mpmath.mpf(str(sympy.N(b, DIGITS + 5)))) < TINY
            for a, b in zip(y, exact, strict=True)
        )


def test_gelu_at_zero_and_far_right():
    with mpmath.workdps(DIGITS):
        assert mp_gelu([0.0]) == [0]
        assert abs(mp_gelu([20.0])[0] - 20) < mpmath.mpf(10) ** -80 + TINY


def test_multi_head_attention_with_identity_weights_is_attention():
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    eye = np.eye(2)[None]
    params = {"w_q": eye, "w_k": eye, "w_v": eye, "w_o": eye}
    with mpmath.workdps(DIGITS):
        multi = mp_multi_head_attention(x, params, causal=True)
        single = mp_attention(x[None], x[None], x[None], np.tri(3, dtype=bool))[0]
    assert all(
        abs(a - b) < TINY
        for ra, rb in zip(multi, single, strict=True)
        for a, b in zip(ra, rb, strict=True)
    )
    assert multi[0] == [1, 0]  # the first row sees only itself


def test_central_jacobian_of_softmax_is_diag_sigma_minus_outer():
    with mpmath.workdps(80):
        z = [0.25, -1.0, 2.0]
        jac = mp_central_jacobian(mp_softmax_exact, z, "1e-25")
        s = mp_softmax(z)
        assert all(
            abs(jac[i][j] - ((i == j) * s[i] - s[i] * s[j])) < mpmath.mpf("1e-45")
            for i in range(3)
            for j in range(3)
        )


def test_error_is_the_distance_and_rejects_a_shape_mismatch():
    with mpmath.workdps(DIGITS):
        err = mp_error(np.array([[0.5, 0.25]]), [[mpmath.mpf(1) / 2, mpmath.mpf(1) / 3]])
        assert err.shape == (1, 2) and err[0, 0] == 0
        # 1/12 at 50 digits rounded to float64, against 1/12 rounded: within 2u
        assert math.isclose(err[0, 1], 1 / 12, rel_tol=2 * unit_roundoff(np.float64))
        with pytest.raises(ValueError, match="one value per entry"):
            mp_error(np.zeros(3), [mpmath.mpf(0)] * 2)


def test_mlp_is_the_definition_for_relu_and_gelu():
    x = np.array([[1.0, -2.0]])
    params = {
        "w_1": np.eye(2),
        "b_1": np.array([0.5, 0.0]),
        "w_2": np.array([[2.0], [3.0]]),
        "b_2": np.array([-1.0]),
    }
    with mpmath.workdps(DIGITS):
        assert mp_mlp(x, params, "relu") == [[2]]  # relu(1.5, -2) = (1.5, 0); 3 - 1
        gelu = mp_mlp(x, params, "gelu")[0][0]
        want = 2 * mp_gelu([1.5])[0] + 3 * mp_gelu([-2.0])[0] - 1
        assert abs(gelu - want) < TINY


def test_mlp_refuses_an_activation_it_does_not_define():
    with pytest.raises(ValueError, match="activation must be 'relu' or 'gelu'"):
        mp_mlp(np.ones((1, 1)), {"w_1": np.ones((1, 1)), "w_2": np.ones((1, 1))}, "gelu_tanh")
