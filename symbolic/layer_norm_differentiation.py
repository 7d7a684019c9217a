"""The LayerNorm Jacobian by differentiating the normalisation itself in d explicit variables.

Its square root sqrt(sigma^2 + eps) is replaced by a symbol r with r^2 = sigma^2 + eps
(`RadicalField`). This is the reference for the closed form of `symbolic.layer_norm_explicit`
and the route for eps != 0 and for other normalisations; plain `simplify` on the same
matrices does not finish d = 16 in a minute (benchmarks/layer_norm_jacobian.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from sympy import Expr, Matrix, Poly, Rational, S, Symbol, ones, sqrt, sympify
from sympy.polys.polyerrors import PolynomialError
from sympy.polys.rings import PolyElement

from symbolic.identities import Derivation
from symbolic.layer_norm_definition import (
    JacobianFormula,
    Normalise,
    chapter_jacobian,
    check_width,
    layer_norm,
    layer_norm_jacobian,
    mean,
    output_symbols,
    variables,
    variance,
)
from symbolic.radicals import RadicalField

DIFFERENTIATION_LIMIT = 16
"""Differentiating another normalisation, or LN with eps != 0, handles d up to this
(d = 16 in about a second, d = 32 in ten); its properties up to DIFFERENTIATED_PROPERTIES_LIMIT."""
DIFFERENTIATED_PROPERTIES_LIMIT = 6


def derive_layer_norm_jacobian_by_differentiation(
    d: int,
    stated: JacobianFormula = chapter_jacobian,
    normalise: Normalise = layer_norm,
    eps: Expr = 0,
) -> Derivation:
    """Differentiate `normalise` in d variables on the ring of x, r = sqrt(sigma^2 + eps)
    and 1/r (`RadicalField`); compare with stated(y, sigma), y and sigma written in x.
    With eps > 0 the chapter's formula still holds with sigma -> sqrt(sigma^2 + eps) and
    y -> LN_eps(x); what changes is that |y|^2 = d sigma^2/(sigma^2 + eps) < d.

    >>> derive_layer_norm_jacobian_by_differentiation(3).holds
    True
    """
    check_width(d)
    if d > DIFFERENTIATION_LIMIT:
        raise ValueError(
            f"d = {d} is above DIFFERENTIATION_LIMIT = {DIFFERENTIATION_LIMIT} of "
            "the LayerNorm Jacobian by differentiation"
        )
    x = variables(d)
    y = normalise(x, eps)  # (d,)
    s_expr = sqrt(variance(x) + eps)  # the chapter's sigma
    field = RadicalField(list(y) + [s_expr], x)
    u = field.element(1 / s_expr)
    centred = [field.element(c) for c in x - mean(x) * ones(d, 1)]
    y_symbols, sigma = output_symbols(d)
    claimed = stated(y_symbols, sigma)  # (d, d) in the chapter's own symbols y_i, sigma
    values = {yi: ci * u for yi, ci in zip(y_symbols, centred, strict=True)}
    values[sigma] = field.element(s_expr)
    J = field_jacobian(field, y, x)  # (d, d) ring elements
    rows = range(d)
    memo: dict = {}
    differences = [
        [J[i][j] - field.evaluate(claimed[i, j], values, {sigma: u}, memo) for j in rows]
        for i in rows
    ]
    label = f"LayerNorm Jacobian, d = {d}" + (f", eps = {eps}" if eps != 0 else "")
    return Derivation(
        label,
        lambda: Matrix(d, d, lambda i, j: field.to_expr(J[i][j])),  # in x, r, u = 1/r
        claimed,
        lambda: Matrix(d, d, lambda i, j: field.value(differences[i][j])),
        all(field.is_zero(e) for row in differences for e in row),
    )


def field_jacobian(field: RadicalField, y: Matrix, x: Matrix) -> list[list[PolyElement]]:
    """J_ij = d y_i / d x_j as field elements (chain rule through the radicals).

    >>> x = variables(2)
    >>> field = RadicalField([sqrt(variance(x))], x)
    >>> all(field.is_zero(e) for row in field_jacobian(field, layer_norm(x), x) for e in row)
    True
    """
    return field.jacobian([field.element(yi) for yi in y], list(x))


@dataclass(frozen=True)
class JacobianProperties:
    """命題 3.3's properties of the derived Jacobian J of `normalise` at d variables.

    `holds[name]` is True only when the property is proved (an exact identity);
    `defects[name]` lists the SymPy expressions that are zero when it holds. A scaling
    law that cannot be proved (eps != 0, a radicand that is not homogeneous) is False
    with `scaling_witness` as its defects, a non-zero entry of which shows it failing.
    s = sqrt(sigma^2 + eps),
    c = x - mu 1, P = s J. With eps = 0, P is the projection onto W-perp:
    symmetric, idempotent, trace d - 2 (so rank d - 2 for d >= 3). With eps > 0,
    J 1 = 0 and symmetry survive; J c = eps c / s^3 replaces J c = 0, and P is
    I - 11^T/d - (sigma^2/s^2) c c^T/|c|^2: eigenvalue eps/s^2 along c, not 0.

    >>> from symbolic.layer_norm_explicit import jacobian_properties
    >>> jacobian_properties(2).holds["J = 0"]
    True
    """

    d: int
    eps: Expr
    defects: dict
    holds: dict


PROPERTY_NAMES = (
    "J 1 = 0",
    "J c = 0",
    "J c = eps c / s^3",
    "s J symmetric",
    "s J idempotent",
    "tr(s J) = d - 2",
    "J(a x) = J(x) / a",
    "J = 0",
)


def jacobian_properties_by_differentiation(
    d: int, eps: Expr = 0, normalise: Normalise = layer_norm
) -> JacobianProperties:
    """The properties for the derived Jacobian of `normalise` in d variables, on the
    ring of x, r = sqrt(sigma^2 + eps) and 1/r (d <= DIFFERENTIATED_PROPERTIES_LIMIT).

    >>> jacobian_properties_by_differentiation(2).holds["J = 0"]
    True
    """
    check_width(d)
    if d > DIFFERENTIATED_PROPERTIES_LIMIT:
        raise ValueError(
            f"d = {d} is above DIFFERENTIATED_PROPERTIES_LIMIT = "
            f"{DIFFERENTIATED_PROPERTIES_LIMIT} of the LayerNorm Jacobian's "
            "properties by differentiation"
        )
    x = variables(d)
    y = normalise(x, eps)
    s_expr = sqrt(variance(x) + eps)
    field = RadicalField(list(y) + [s_expr], x)
    R, U = field.element(s_expr), field.element(1 / s_expr)
    E = field.gen.get(eps, field.ring(eps))  # a symbol of the ring, or a number (0 too)
    J = field_jacobian(field, y, x)  # (d, d)
    c = [field.element(ci) for ci in x - mean(x) * ones(d, 1)]
    rows = range(d)
    P = [[R * J[i][j] for j in rows] for i in rows]
    checks = {
        "J 1 = 0": [sum(J[i], field.ring.zero) for i in rows],
        "J c = 0": [sum((J[i][j] * c[j] for j in rows), field.ring.zero) for i in rows],
        "J c = eps c / s^3": [
            sum((J[i][j] * c[j] for j in rows), field.ring.zero) - E * c[i] * U**3 for i in rows
        ],
        "s J symmetric": [P[i][j] - P[j][i] for i in rows for j in rows],
        "s J idempotent": [
            sum((P[i][k] * P[k][j] for k in rows), field.ring.zero) - P[i][j]
            for i in rows
            for j in rows
        ],
        "tr(s J) = d - 2": [sum((P[i][i] for i in rows), field.ring.zero) - (d - 2)],
        "J = 0": [J[i][j] for i in rows for j in rows],
    }
    defects = {k: [field.value(e) for e in v] for k, v in checks.items()}
    holds = {k: all(field.is_zero(e) for e in v) for k, v in checks.items()}
    defects["J(a x) = J(x) / a"], holds["J(a x) = J(x) / a"] = _scaling(field, J, x, eps, normalise)
    return JacobianProperties(d, eps, defects, holds)


def _scaling(
    field: RadicalField, J: list[list[PolyElement]], x: Matrix, eps: Expr, normalise: Normalise
) -> tuple[list, bool]:
    """J(a x) - J(x)/a. With eps = 0 and every radicand homogeneous (b(a x) = a^k b(x),
    checked), J(a x) is J with x -> a x, r -> a^(k/2) r, u -> u / a^(k/2): proved or
    disproved by reducing each power of a. Otherwise the law is not proved (holds is
    False) and the defects are `scaling_witness`, which shows it failing when non-zero."""
    a = Symbol("a", positive=True)
    degrees = {r: _homogeneous_degree(b, x) for r, b in field.relations.items()}
    if eps != 0 or None in degrees.values():
        return list(scaling_witness(x.rows, eps, normalise)), False
    # a monomial x^al r^be u^ga of J picks up a^(|al| + k (be - ga) / 2), k the degree
    # of r's radicand; J(x)/a has a^-1. Group J(a x) - J(x)/a by powers of a; every
    # coefficient must reduce to 0.
    symbols_ = field.ring.symbols
    weight = [S.One if s in x else S.Zero for s in symbols_]
    for r, k in degrees.items():
        weight[symbols_.index(r)] = Rational(k or 0, 2)
        weight[symbols_.index(field.inverse[r])] = -Rational(k or 0, 2)
    defects = []
    holds = True
    for row in J:
        for e in row:
            by_power: dict[Expr, object] = {}
            for monom, coeff in e.terms():
                k = sum(w * p for w, p in zip(weight, monom, strict=True))
                term = field.ring({monom: coeff})
                by_power[k] = by_power.get(k, field.ring.zero) + term
                by_power[-1] = by_power.get(-1, field.ring.zero) - term
            holds = holds and all(field.is_zero(p) for p in by_power.values())
            defects.append(sum((a**k * field.value(p) for k, p in by_power.items()), S.Zero))
    return defects, holds


def scaling_witness(d: int, eps: Expr, normalise: Normalise = layer_norm) -> Matrix:
    """J(2x) - J(x)/2 at x = e_1 - e_2, exactly (a symbol in eps set to 1): 0 where the
    law J(a x) = J(x)/a holds; a non-zero entry (`is_nonzero`) shows it failing.

    >>> from symbolic.identities import is_nonzero, is_zero
    >>> is_zero(scaling_witness(3, 0)), any(is_nonzero(e) for e in scaling_witness(3, 1))
    (True, True)
    """
    x, J = layer_norm_jacobian(d, eps, normalise)
    point = {xi: 0 for xi in x}
    point[x[0]], point[x[1]] = 1, -1
    scaled = J.xreplace({xi: 2 * v for xi, v in point.items()})
    plain = J.xreplace(point) / 2
    ones_ = {s: 1 for s in sympify(eps).free_symbols}
    return (scaled - plain).xreplace(ones_)


def _homogeneous_degree(b: Expr, x: Matrix) -> int | None:
    """k when b is a polynomial in x whose terms all have degree k (so b(a x) = a^k b(x)),
    else None."""
    try:
        order = Poly(b, *x).homogeneous_order()
    except PolynomialError:
        return None
    return order if isinstance(order, int) else None
