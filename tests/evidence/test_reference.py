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
    mp_entries,
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
    with pytest.raises(ValueError, match="activation must be 'relu', 'gelu' or 'gelu_tanh'"):
        mp_mlp(np.ones((1, 1)), {"w_1": np.ones((1, 1)), "w_2": np.ones((1, 1))}, "silu")


def _matrix(a: np.ndarray) -> mpmath.matrix:
    return mpmath.matrix([[mpmath.mpf(float(v)) for v in row] for row in np.atleast_2d(a)])


def _rows(m: mpmath.matrix) -> list:
    return [[m[i, j] for j in range(m.cols)] for i in range(m.rows)]


def _close(a: list, b: list) -> bool:
    return all(
        abs(u - v) < TINY for ra, rb in zip(a, b, strict=True) for u, v in zip(ra, rb, strict=True)
    )


def _matrix_attention(x: np.ndarray, params: dict, causal: bool) -> list:
    """MHA(X) with mpmath's matrices: each product a matrix product, the other way round
    from the reference's dot products of converted rows."""
    h = params["w_q"].shape[0]
    n = x.shape[0]
    ones = mpmath.matrix([[1]] * n)
    heads = []
    for a in range(h):
        q, k, v = (
            _matrix(x) * _matrix(params[f"w_{t}"][a]) + ones * _matrix(params[f"b_{t}"][a])
            for t in "qkv"
        )
        scores = q * k.T / mpmath.sqrt(q.cols)
        weights = mpmath.matrix(n, n)
        for i in range(n):
            row = [scores[i, j] for j in range(n)]
            allowed = [j <= i for j in range(n)] if causal else None
            for j, w in enumerate(mp_softmax_exact(row, allowed)):
                weights[i, j] = w
        heads.append(weights * v)
    joined = mpmath.matrix(n, h * heads[0].cols)
    for a, head in enumerate(heads):
        for i in range(n):
            for t in range(head.cols):
                joined[i, a * head.cols + t] = head[i, t]
    w_o = _matrix(params["w_o"].reshape(-1, params["w_o"].shape[-1]))
    return _rows(joined * w_o + ones * _matrix(params["b_o"]))


@pytest.mark.parametrize("causal", [False, True])
def test_multi_head_attention_is_the_matrix_products_of_the_definition(causal):
    rng = np.random.default_rng(3)
    h, d, d_k, n = 2, 4, 3, 3
    params = {
        **{f"w_{t}": rng.standard_normal((h, d, d_k)) for t in "qkv"},
        **{f"b_{t}": rng.standard_normal((h, d_k)) for t in "qkv"},
        "w_o": rng.standard_normal((h, d_k, d)),
        "b_o": rng.standard_normal(d),
    }
    x = rng.standard_normal((n, d))
    with mpmath.workdps(DIGITS):
        assert _close(
            mp_multi_head_attention(x, params, causal), _matrix_attention(x, params, causal)
        )


def test_mlp_is_the_matrix_products_of_the_definition():
    rng = np.random.default_rng(4)
    params = {
        "w_1": rng.standard_normal((3, 5)),
        "b_1": rng.standard_normal(5),
        "w_2": rng.standard_normal((5, 3)),
        "b_2": rng.standard_normal(3),
    }
    x = rng.standard_normal((2, 3))
    ones = mpmath.matrix([[1]] * 2)
    with mpmath.workdps(DIGITS):
        hidden = _matrix(x) * _matrix(params["w_1"]) + ones * _matrix(params["b_1"])
        relu = hidden.apply(lambda t: max(t, 0))
        want = _rows(relu * _matrix(params["w_2"]) + ones * _matrix(params["b_2"]))
        assert _close(mp_mlp(x, params, "relu"), want)


def test_mlp_without_biases_is_the_matrix_products_of_the_definition():
    rng = np.random.default_rng(5)
    params = {"w_1": rng.standard_normal((3, 4)), "w_2": rng.standard_normal((4, 2))}
    x = rng.standard_normal((2, 3))
    with mpmath.workdps(DIGITS):
        hidden = (_matrix(x) * _matrix(params["w_1"])).apply(lambda t: max(t, 0))
        assert _close(mp_mlp(x, params, "relu"), _rows(hidden * _matrix(params["w_2"])))


def test_entries_are_converted_anew_when_the_array_or_the_precision_changes():
    a = np.array([[0.1, 0.2]])
    with mpmath.workdps(DIGITS):
        assert mp_entries(a) == [[mpmath.mpf(0.1), mpmath.mpf(0.2)]]
        a[0, 0] = 0.3  # the same array, changed in place
        assert mp_entries(a)[0][0] == mpmath.mpf(0.3)
    with mpmath.workprec(10):  # below a float's 53 bits the conversion rounds
        assert mp_entries(a)[0][0] == mpmath.mpf(0.3) != 0.3
    with mpmath.workdps(DIGITS):
        assert mp_entries(a)[0][0] == 0.3
        assert mp_entries(np.array([mpmath.mpf(1) / 3], dtype=object)) == [mpmath.mpf(1) / 3]
