"""The simplex and the LayerNorm sphere as quotient rings: zero on the set, or not."""

from symbolic.polynomials import SparsePolynomial
from symbolic.quotients import SimplexQuotient, SphereQuotient


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


def test_sphere_quotient_reduce_of_a_polynomial_with_fractions():
    y0, y1, y2 = (SparsePolynomial.variable(v) for v in range(3))
    sphere = SphereQuotient(3)
    assert sphere.reduce(y0 / 2) == -(y1 + y2) / 2
    assert sphere.reduce((y0**2 + y1**2 + y2**2) / 3) == 1
    assert sphere.reduce(y2 / 5) == y2 / 5
