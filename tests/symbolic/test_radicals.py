"""Square roots as symbols r with r^2 = b: the split of a radicand, the reduction
of powers, and the RadicalField's arithmetic and derivatives."""

import pytest
from sympy import Pow, S, Symbol, sqrt, symbols

from symbolic.identities import is_zero
from symbolic.radicals import RadicalField

x, y = symbols("x y", real=True)
X, Y = symbols("X Y", positive=True)


def test_radical_field_differentiates_through_square_roots():
    r = sqrt(x**2 + y**2)
    field = RadicalField([r], [x, y])
    derivative = field.diff(field.element(x / r), x)
    assert field.is_zero(derivative - field.element(y**2 / r**3))
    assert not field.is_zero(derivative - field.element(y**2 / r**2))
    with pytest.raises(ValueError, match="radical it was not built with"):
        field.element(sqrt(x + 1))


def test_square_roots_take_out_only_powers_of_positive_factors():
    assert not is_zero(sqrt(x**2 * y + x**2) - x * sqrt(y + 1))  # x real: sqrt(x^2) is |x|
    assert is_zero(sqrt(X**4 * y + X**4) - X**2 * sqrt(y + 1))
    assert is_zero(sqrt(X**2 * y + X**2) - X * sqrt(y + 1))
    assert is_zero(sqrt(X**3 * y + X**3) - X * sqrt(X) * sqrt(y + 1))


def test_square_roots_split_off_the_rational_content_and_positive_factors():
    assert is_zero(sqrt(2 * x + 2 * y) - sqrt(2) * sqrt(x + y))
    assert not is_zero(sqrt(2 * x + 2 * y) - sqrt(x + y))
    assert is_zero(sqrt(X * y + X) - sqrt(X) * sqrt(y + 1))
    assert not is_zero(sqrt(X * y + X) - sqrt(y + 1))
    assert not is_zero(sqrt(x * y + x) - sqrt(x) * sqrt(y + 1))  # false for x, y + 1 < 0


def test_powers_of_a_square_root_reduce_by_its_square():
    r = sqrt(x**2 + 1)
    assert is_zero(r**3 - x**2 * r - r)
    assert not is_zero(r**3 - x**2 - 1)
    assert is_zero(r**5 - x**4 * r - 2 * x**2 * r - r)
    assert is_zero(r**4 - x**4 - 2 * x**2 - 1)


def test_reduce_powers_runs_until_no_relation_applies():
    from symbolic.radicals import _reduce_powers

    r1, r2, r3, r4 = symbols("r1:5", positive=True)
    # each base holds the radical before it: one round per level
    relations = {r1: x, r2: r1 + 1, r3: r2 + 1, r4: r3 + 1}
    assert _reduce_powers(r2**4, relations) == x + 2 * r1 + 1  # (r1 + 1)^2, then r1^2 = x
    reduced = _reduce_powers(r4**16, relations)
    assert all(abs(p.exp) < 2 for p in reduced.atoms(Pow) if p.base in relations)
    r5 = Symbol("r5", positive=True)  # five levels: no fixed number of rounds
    chain = relations | {r5: r4 + 1}
    reduced = _reduce_powers(r5**32, chain)
    assert all(abs(p.exp) < 2 for p in reduced.atoms(Pow) if p.base in chain)
    assert reduced.has(r5) is False and reduced.has(r1)


def field_of(*roots):
    return RadicalField(roots, [x, y])


def test_radical_field_element_of_powers_of_a_root_and_of_its_square():
    r = sqrt(x**2 + y**2)
    field = field_of(r)
    R, U = field.element(r), field.element(1 / r)
    assert field.is_zero(field.element(r**3) - R * field.element(x**2 + y**2))
    assert field.element(r**-3) == U**3
    assert field.is_zero(field.element(1 / (x**2 + y**2)) - U**2)
    # 4 x^2 + 4 y^2 = 2^2 (x^2 + y^2): its inverse is u^2 / 4, its inverse square u^4 / 16
    assert field.element(1 / (4 * x**2 + 4 * y**2)) == U**2 / 4
    assert field.element((4 * x**2 + 4 * y**2) ** -2) == U**4 / 16
    assert field.element((4 * x**2 + 4 * y**2) ** -3) == U**6 / 64


def test_radical_field_element_refuses_what_is_not_in_the_field():
    field = field_of(sqrt(x**2 + y**2))
    with pytest.raises(ValueError):
        field.element(1 / (x + 1))
    with pytest.raises(ValueError, match="radical it was not built with"):
        field.element(sqrt(x**2 + 1))


@pytest.mark.parametrize(
    "radicand",
    [x + y**2, y**2 - x, 2 * x + y**2, x**2 + y**2],
    ids=["db = 1", "db = -1", "db = 2", "db = 2x"],
)
def test_radical_field_differentiates_each_radicand(radicand):
    r = sqrt(radicand)
    field = field_of(r)
    slope = field.diff(field.element(r), x)
    assert field.is_zero(slope - field.element(radicand.diff(x) / (2 * r)))
    assert not field.is_zero(slope)
    (row,) = field.jacobian([field.element(r)], [x])
    assert field.is_zero(row[0] - slope)


def test_radical_field_reduce_clears_the_inverse_and_reduces_the_root():
    r = sqrt(x**2 + 1)
    field = RadicalField([r], [x])
    assert field.reduce(field.element(x / r)) == field.element(x)
    assert field.reduce(field.element(x * r**3)) == field.element(x**3 * r + x * r)
    assert field.reduce(field.element(r / (x**2 + 1))) == field.element(S.One)
    assert field.reduce(field.ring.zero) == 0


def test_radical_field_to_expr_writes_each_power():
    r = sqrt(x**2 + 1)
    field = RadicalField([r], [x])
    assert field.to_expr(field.element(x**3 + 2 * x**2 / 3)) == x**3 + 2 * x**2 / 3


def test_radical_field_evaluate_symbols_powers_and_inverses():
    field = RadicalField([sqrt(x**2 + 1)], [x])
    s, z = symbols("s z", positive=True)
    X_ = field.element(x)
    values, inverses = {s: X_ + 1}, {s: X_}
    assert field.evaluate(s**2 + 3 * s / 2, values) == (X_ + 1) ** 2 + 3 * (X_ + 1) / 2
    assert field.evaluate(x**2, {}) == X_**2
    assert field.evaluate(s**-2, values, inverses) == X_**2
    assert field.evaluate(Pow(s, 0, evaluate=False), values) == 1
    with pytest.raises(ValueError, match="cannot evaluate"):
        field.evaluate(z, values)
    with pytest.raises(ValueError, match="cannot evaluate"):
        field.evaluate(1 / z, values, inverses)
    with pytest.raises(ValueError, match="cannot evaluate"):
        field.evaluate(sqrt(s), values, inverses)
