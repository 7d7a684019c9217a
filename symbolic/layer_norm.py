"""LayerNorm (定義 2.1): its Jacobian (命題 3.3), invariance and moments (命題 3.1, 演習 11.2).

The explicit-d derivation differentiates the actual normalisation of d
variables; the square root sqrt(sigma^2 + eps) then appears to powers +-1/2 and
+-3/2. `symbolic.identities.is_zero` replaces it by a symbol r with r^2 = sigma^2 + eps
and reduces, so every comparison is polynomial arithmetic: d = 16 takes about a
second where `simplify` on the same matrices does not finish in a minute
(benchmarks/layer_norm_jacobian.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sympy import (
    Expr,
    IndexedBase,
    KroneckerDelta,
    Matrix,
    MatrixBase,
    Rational,
    S,
    Sum,
    Symbol,
    diff,
    expand,
    eye,
    ones,
    sqrt,
    symbols,
)

from symbolic.identities import (
    Derivation,
    RadicalField,
    compare,
    indices_in_range,
    normalise_sums,
)
from symbolic.symbols import d as d_symbol

Normalise = Callable[..., Matrix]
JacobianFormula = Callable[[Matrix, Expr], Matrix]


def _check_width(d: object, low: int = 2) -> int:
    if isinstance(d, bool) or not isinstance(d, int):
        raise TypeError(f"d must be an int, got {type(d).__name__} {d!r}")
    if d < low:
        raise ValueError(f"d must be >= {low}, got {d}")
    return d


def _as_column(x: object, name: str = "x") -> Matrix:
    if not isinstance(x, MatrixBase):
        raise TypeError(f"{name} must be a sympy Matrix, got {type(x).__name__}")
    if x.cols != 1 or x.rows < 2:
        raise ValueError(f"{name} must be a column with at least 2 entries, got shape {x.shape}")
    return Matrix(x)


def variables(d: int) -> Matrix:
    """x_1..x_d as a column of real symbols."""
    _check_width(d)
    return Matrix(symbols(f"x_1:{d + 1}", real=True))


def mean(x: Matrix) -> Expr:
    """mu(x) = (1/d) sum_i x_i."""
    return sum(x) / x.rows


def variance(x: Matrix) -> Expr:
    """sigma^2(x) = (1/d) sum_i (x_i - mu)^2 (the biased variance of 定義 2.1)."""
    mu = mean(x)
    return sum((xi - mu) ** 2 for xi in x) / x.rows


def layer_norm(
    x: Matrix, eps: Expr = 0, gamma: Matrix | None = None, beta: Matrix | None = None
) -> Matrix:
    """LN(x) = gamma * (x - mu 1) / sqrt(sigma^2 + eps) + beta (定義 2.1)."""
    x = _as_column(x)
    y = (x - mean(x) * ones(x.rows, 1)) / sqrt(variance(x) + eps)
    if gamma is not None:
        y = y.multiply_elementwise(_as_column(gamma, "gamma"))
    if beta is not None:
        y = y + _as_column(beta, "beta")
    return y


def unbiased_layer_norm(x: Matrix, eps: Expr = 0) -> Matrix:
    """A wrong variant: divides by the unbiased variance sum (x_i - mu)^2 / (d - 1)."""
    x = _as_column(x)
    d = x.rows
    return (x - mean(x) * ones(d, 1)) / sqrt(variance(x) * d / (d - 1) + eps)


def chapter_jacobian(y: Matrix, sigma: Expr) -> Matrix:
    """The chapter's formula: J = (1/sigma)(I - (1/d) 1 1^T - (1/d) y y^T)."""
    d = y.rows
    return (eye(d) - ones(d, d) / d - y * y.T / d) / sigma


def layer_norm_jacobian(d: int, eps: Expr = 0, normalise: Normalise = layer_norm):
    """(x, J): the Jacobian of normalise(x, eps) in d explicit variables, by differentiation."""
    x = variables(d)
    return x, normalise(x, eps).jacobian(x)  # (d, d)


def derive_layer_norm_jacobian(
    d: int,
    stated: JacobianFormula = chapter_jacobian,
    normalise: Normalise = layer_norm,
    eps: Expr = 0,
) -> Derivation:
    """Differentiate `normalise` in d variables; compare with stated(y, sigma), where
    y = LN(x) and sigma = sqrt(sigma^2(x) + eps) are the chapter's (定義 2.1).

    With eps > 0 the chapter's formula still holds with sigma -> sqrt(sigma^2 + eps)
    and y -> LN_eps(x); what changes is that |y|^2 = d sigma^2/(sigma^2 + eps) < d.
    """
    x = variables(d)
    y = normalise(x, eps)  # (d,)
    s_expr = sqrt(variance(x) + eps)  # the chapter's sigma
    field = RadicalField(list(y) + [s_expr], x)
    u = field.element(1 / s_expr)
    centred = [field.element(c) for c in x - mean(x) * ones(d, 1)]
    y_symbols = Matrix(symbols(f"y_1:{d + 1}", real=True))
    sigma = Symbol("sigma", positive=True)
    claimed = stated(y_symbols, sigma)  # (d, d) in the chapter's own symbols y_i, sigma
    values = {yi: ci * u for yi, ci in zip(y_symbols, centred, strict=True)}
    values[sigma] = field.element(s_expr)
    J = field_jacobian(field, y, x)  # (d, d) ring elements
    rows = range(d)
    memo: dict = {}
    reduced = [
        [
            field.reduce(J[i][j] - field.evaluate(claimed[i, j], values, {sigma: u}, memo))
            for j in rows
        ]
        for i in rows
    ]
    label = f"LayerNorm Jacobian, d = {d}" + (f", eps = {eps}" if eps != 0 else "")
    return Derivation(
        label,
        lambda: Matrix(d, d, lambda i, j: field.to_expr(J[i][j])),  # in x, r, u = 1/r
        claimed,
        lambda: Matrix(d, d, lambda i, j: field.to_expr(reduced[i][j])),
        all(e == 0 for row in reduced for e in row),
    )


def field_jacobian(field: RadicalField, y: Matrix, x: Matrix) -> list[list]:
    """J_ij = d y_i / d x_j as field elements (chain rule through the radicals)."""
    return field.jacobian([field.element(yi) for yi in y], list(x))


def chapter_entry(y_i: Expr, y_j: Expr, delta: Expr, sigma: Expr, d: Expr) -> Expr:
    """The chapter's entry formula: J_ij = (delta_ij - 1/d - y_i y_j / d) / sigma."""
    return (delta - 1 / d - y_i * y_j / d) / sigma


def _sum_linearly(expr: Expr, k: Symbol, total: Expr, d: Expr, x: IndexedBase) -> Expr:
    """Evaluate sums over k of expressions linear in x[k]: sum x[k] -> total, sum c -> d c."""

    def evaluate(s: Sum) -> Expr:
        (index, low, high), body = s.limits[0], s.function
        if index != k or low != 1 or high != d:
            return s
        out = 0
        for term in body.expand().as_ordered_terms():
            if term.has(x[k]):
                coeff = term.coeff(x[k])
                if coeff.has(k):
                    return s
                out += coeff * total
            elif term.has(k):
                return s
            else:
                out += term * d
        return out

    return expr.replace(lambda e: isinstance(e, Sum), evaluate)


def derive_layer_norm_jacobian_general(stated_entry=chapter_entry) -> Derivation:
    """The Jacobian for symbolic d: x an IndexedBase, indices i, j in 1..d.

    SymPy differentiates the sums; sum x_k is named S (so mu = S/d) and
    sum (x_k - mu)^2 is named Q (so sigma = sqrt(Q/d)); the remaining sums are linear
    in x_k and are evaluated by linearity (that is where sum_k c_k = 0 enters).
    """
    d = d_symbol
    i, j, k = symbols("i j k", integer=True, positive=True)
    x = IndexedBase("x", real=True)
    S, Q = symbols("S Q", positive=True)
    total = Sum(x[k], (k, 1, d))
    mu = total / d
    spread = Sum((x[k] - mu) ** 2, (k, 1, d))
    y_i = (x[i] - mu) / sqrt(spread / d)
    derived = diff(y_i, x[j]).doit()
    derived = derived.xreplace({total: S}).xreplace({spread.xreplace({total: S}): Q})
    derived = _sum_linearly(derived, k, S, d, x)
    derived = indices_in_range(derived, (i, j), d)
    sigma = sqrt(Q / d)
    y = {t: (x[t] - S / d) / sigma for t in (i, j)}
    stated = stated_entry(y[i], y[j], KroneckerDelta(i, j), sigma, d)
    return compare("LayerNorm Jacobian, symbolic d", derived, stated)


def output_sums() -> tuple[Expr, Expr]:
    """(sum_k y_k, sum_k y_k^2) for y = LN(x) and symbolic d, from the definition:
    sum_k (x_k - S/d)/sigma by linearity, and sum_k (x_k - S/d)^2 / sigma^2 = Q / (Q/d).
    命題 3.1 (2) says they are 0 and d."""
    d = d_symbol
    k = Symbol("k", integer=True, positive=True)
    x = IndexedBase("x", real=True)
    S_, Q = symbols("S Q", positive=True)  # S = sum x_k, Q = sum (x_k - mu)^2
    sigma = sqrt(Q / d)
    total = _sum_linearly(Sum((x[k] - S_ / d) / sigma, (k, 1, d)), k, S_, d, x)
    return expand(total), Q / sigma**2


def general_jacobian_properties(stated_entry=chapter_entry) -> dict[str, Expr]:
    """命題 3.3 (1), (2) for symbolic d, on the entry formula: each value is 0 when the
    property holds. P = sigma J; the facts sum_k y_k = 0 and sum_k y_k^2 = d come from
    `output_sums` (and are checked there). Trace d - 2 with P idempotent gives rank d - 2."""
    d = d_symbol
    i, j, k, t = symbols("i j k t", integer=True, positive=True)
    y = IndexedBase("y", real=True)
    sigma = Symbol("sigma", positive=True)
    ones_sum, squares_sum = output_sums()
    facts = {Sum(y[k], (k, 1, d)): ones_sum, Sum(y[k] ** 2, (k, 1, d)): squares_sum}

    def P(a, b):
        return sigma * stated_entry(y[a], y[b], KroneckerDelta(a, b), sigma, d)

    def reduce(e):
        return normalise_sums(e, d, facts, (i, j, k, t))

    return {
        "J 1 = 0": reduce(Sum(P(i, j) / sigma, (j, 1, d))),
        "J y = 0": reduce(Sum(P(i, j) / sigma * y[j], (j, 1, d))),
        "s J symmetric": reduce(P(i, j) - P(j, i)),
        "s J idempotent": reduce(Sum(P(i, t) * P(t, j), (t, 1, d)) - P(i, j)),
        "tr(s J) = d - 2": reduce(Sum(P(i, i), (i, 1, d)) - (d - 2)),
    }


@dataclass(frozen=True)
class JacobianProperties:
    """命題 3.3's properties of the derived Jacobian J of `normalise` at d variables.

    `holds[name]` says whether the property is proved (an exact identity, or for the
    scaling law with eps > 0 an exact witness that it fails); `defects[name]` is
    the SymPy expression that is zero when it holds. s = sqrt(sigma^2 + eps),
    c = x - mu 1, P = s J. With eps = 0, P is the projection onto W-perp:
    symmetric, idempotent, trace d - 2 (so rank d - 2 for d >= 3). With eps > 0,
    J 1 = 0 and symmetry survive; J c = eps c / s^3 replaces J c = 0, and P is
    I - 11^T/d - (sigma^2/s^2) c c^T/|c|^2: eigenvalue eps/s^2 along c, not 0.
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


def jacobian_properties(
    d: int, eps: Expr = 0, normalise: Normalise = layer_norm
) -> JacobianProperties:
    """Every property of 命題 3.3 for the derived Jacobian of `normalise` in d variables."""
    x = variables(d)
    y = normalise(x, eps)
    s_expr = sqrt(variance(x) + eps)
    field = RadicalField(list(y) + [s_expr], x)
    R, U = field.element(s_expr), field.element(1 / s_expr)
    E = field.gen.get(eps, field.ring(eps)) if eps != 0 else field.ring.zero
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
    defects = {k: [field.to_expr(field.reduce(e)) for e in v] for k, v in checks.items()}
    holds = {k: all(e == 0 for e in v) for k, v in defects.items()}
    defects["J(a x) = J(x) / a"], holds["J(a x) = J(x) / a"] = _scaling(field, J, x, eps)
    return JacobianProperties(d, eps, defects, holds)


def _scaling(field: RadicalField, J, x: Matrix, eps: Expr) -> tuple[list, bool]:
    """J(a x) - J(x)/a. With eps = 0 the radicand is homogeneous of degree 2
    (b(a x) = a^2 b(x), checked), so J(a x) is J with x -> a x, r -> a r, u -> u/a.
    Otherwise an exact witness: x = e_1 - e_2, a = 2, where the difference is non-zero."""
    a = Symbol("a", positive=True)
    degrees = {r: _scaling_degree(b, x, a) for r, b in field.relations.items()}
    if eps == 0 and None not in degrees.values():
        # a monomial x^al r^be u^ga of J picks up a^(|al| + k (be - ga) / 2), k the degree
        # of r's radicand; J(x)/a has a^-1. Group J(a x) - J(x)/a by powers of a; every
        # coefficient must reduce to 0.
        symbols_ = field.ring.symbols
        weight = [S.One if s in x else S.Zero for s in symbols_]
        for r, k in degrees.items():
            weight[symbols_.index(r)] = Rational(k, 2)
            weight[symbols_.index(field.inverse[r])] = -Rational(k, 2)
        defects = []
        for row in J:
            for e in row:
                by_power: dict[int, object] = {}
                for monom, coeff in e.terms():
                    k = sum(w * p for w, p in zip(weight, monom, strict=True))
                    term = field.ring({monom: coeff})
                    by_power[k] = by_power.get(k, field.ring.zero) + term
                    by_power[-1] = by_power.get(-1, field.ring.zero) - term
                defects.append(
                    sum((a**k * field.to_expr(field.reduce(p)) for k, p in by_power.items()), 0)
                )
        return defects, all(e == 0 for e in defects)
    point = {xi: 0 for xi in x}
    point[x[0]], point[x[1]] = 1, -1
    J_sym = layer_norm(x, eps).jacobian(x)  # small d only: this is the witness branch
    scaled = J_sym.xreplace({xi: 2 * v for xi, v in point.items()})
    plain = J_sym.xreplace(point) / 2
    difference = (scaled - plain).applyfunc(lambda e: e.subs(eps, 1))
    # exact algebraic numbers; one of them evaluated to 30 digits is far from 0
    witnessed = any(abs(e.evalf(30)) > 1e-20 for e in difference)
    return list(difference), not witnessed


def _scaling_degree(b: Expr, x: Matrix, a: Symbol) -> int | None:
    """k with b(a x) = a^k b(x) (k = 0..4), or None when b is not homogeneous."""
    scaled = expand(b.xreplace({xi: a * xi for xi in x}))
    return next((k for k in range(5) if expand(scaled - a**k * b) == 0), None)


def invariance_difference(d: int, normalise: Normalise = layer_norm) -> Matrix:
    """LN(a x + b 1) - LN(x) for a > 0 and any b (命題 3.1 (1), gamma = 1, beta = 0)."""
    x = variables(d)
    a = Symbol("a", positive=True)
    b = Symbol("b", real=True)
    return normalise(a * x + b * ones(d, 1)) - normalise(x)


@dataclass(frozen=True)
class Moments:
    """Mean, variance and Euclidean norm of a LayerNorm output."""

    mean: Expr
    variance: Expr
    norm: Expr


def moments(d: int, g: Expr | None = None, b: Expr | None = None) -> Moments:
    """Moments of LN(x) with gamma = g 1, beta = b 1 in d explicit variables (演習 11.2;
    g = 1, b = 0 gives 命題 3.1 (2): 0, 1, sqrt(d))."""
    x = variables(d)
    g = Symbol("g", real=True) if g is None else g
    b = Symbol("b", real=True) if b is None else b
    z = layer_norm(x, 0, g * ones(d, 1), b * ones(d, 1))
    return Moments(mean(z), variance(z), sqrt(sum(zi**2 for zi in z)))


def moments_general() -> Moments:
    """The same for symbolic d, using the two facts 命題 3.1 (2) proves for symbolic d:
    sum_i y_i = 0 and sum_i y_i^2 = d (both reduced here from the definition)."""
    d = d_symbol
    k = Symbol("k", integer=True, positive=True)
    x = IndexedBase("x", real=True)
    g, b = symbols("g b", real=True)
    S, Q = symbols("S Q", positive=True)  # S = sum x_k, Q = sum (x_k - mu)^2
    sigma = sqrt(Q / d)
    y = (x[k] - S / d) / sigma
    z = g * y + b
    total = _sum_linearly(Sum(z, (k, 1, d)), k, S, d, x)
    z_mean = total / d
    # sum z^2 = g^2 sum y^2 + 2 g b sum y + d b^2, and sum y^2 = Q / sigma^2
    sum_y2 = Q / sigma**2
    sum_y = _sum_linearly(Sum(y, (k, 1, d)), k, S, d, x)
    sum_z2 = g**2 * sum_y2 + 2 * g * b * sum_y + d * b**2
    return Moments(z_mean, sum_z2 / d - z_mean**2, sqrt(sum_z2))
