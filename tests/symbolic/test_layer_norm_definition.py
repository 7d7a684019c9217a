"""定義 2.1 at an explicit width: LN's values, its wrong unbiased variant, its inputs checked."""

import pytest
from sympy import Matrix, S, ones, sqrt

from symbolic.identities import is_zero
from symbolic.layer_norm_definition import layer_norm, unbiased_layer_norm
from symbolic.layer_norm_explicit import derive_layer_norm_jacobian


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


def test_unbiased_layer_norm_divides_the_sum_of_squares_by_d_minus_1():
    # d = 3, x = (0, 0, 3): mu = 1, sum (x - mu)^2 = 6, / (d - 1) = 3, + eps
    assert list(unbiased_layer_norm(Matrix([0, 0, 3]))) == [-1 / sqrt(3), -1 / sqrt(3), 2 / sqrt(3)]
    assert list(unbiased_layer_norm(Matrix([0, 0, 3]), eps=1)) == [-S.Half, -S.Half, 1]
