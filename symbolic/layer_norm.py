"""LayerNorm (定義 2.1): its Jacobian (命題 3.3), invariance and moments (命題 3.1, 演習 11.2).

The Jacobian is derived for symbolic d (IndexedBase sums differentiated by SymPy).
At an explicit width d, that derived entry, written in y = LN(x) and sigma, is put
at every (i, j) and compared with the stated formula as polynomials over Q in
y, sigma and 1/sigma on LN's outputs (sum y = 0, sum y^2 = d): d = 64 in about a
second. Differentiating the normalisation itself in d variables (its square root
sqrt(sigma^2 + eps) replaced by a symbol r with r^2 = sigma^2 + eps, see
`RadicalField`) remains the reference, and the route for eps != 0 and for other
normalisations; plain `simplify` on the same matrices does not finish d = 16 in a
minute (benchmarks/layer_norm_jacobian.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from sympy import (
    Add,
    Dummy,
    Expr,
    IndexedBase,
    KroneckerDelta,
    Matrix,
    MatrixBase,
    Poly,
    Rational,
    S,
    Sum,
    Symbol,
    Tuple,
    diff,
    expand,
    eye,
    ones,
    sqrt,
    symbols,
    sympify,
)
from sympy.polys.polyerrors import PolynomialError
from sympy.polys.rings import PolyElement

from symbolic.identities import (
    Derivation,
    EntryPattern,
    RadicalField,
    SparsePolynomial,
    SphereQuotient,
    compare,
    indices_in_range,
    normalise_sums,
)
from symbolic.symbols import d as d_symbol

Normalise = Callable[..., Matrix]
JacobianFormula = Callable[[Matrix, Expr], Matrix]
EntryFormula = Callable[[Expr, Expr, Expr, Expr, Expr], Expr]  # (y_i, y_j, delta, sigma, d)


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
    """x_1..x_d as a column of real symbols.

    >>> list(variables(2))
    [x_1, x_2]
    """
    _check_width(d)
    return Matrix(symbols(f"x_1:{d + 1}", real=True))


def mean(x: Matrix) -> Expr:
    """mu(x) = (1/d) sum_i x_i.

    >>> mean(Matrix([1, 2, 6]))
    3
    """
    return sum(x) / x.rows


def variance(x: Matrix) -> Expr:
    """sigma^2(x) = (1/d) sum_i (x_i - mu)^2 (the biased variance of 定義 2.1).

    >>> variance(Matrix([1, 2, 6]))
    14/3
    """
    mu = mean(x)
    return sum((xi - mu) ** 2 for xi in x) / x.rows


def layer_norm(
    x: Matrix, eps: Expr = 0, gamma: Matrix | None = None, beta: Matrix | None = None
) -> Matrix:
    """LN(x) = gamma * (x - mu 1) / sqrt(sigma^2 + eps) + beta (定義 2.1).

    >>> list(layer_norm(Matrix([1, 3])))
    [-1, 1]
    """
    x = _as_column(x)
    y = (x - mean(x) * ones(x.rows, 1)) / sqrt(variance(x) + eps)
    if gamma is not None:
        y = y.multiply_elementwise(_as_column(gamma, "gamma"))
    if beta is not None:
        y = y + _as_column(beta, "beta")
    return y


def unbiased_layer_norm(x: Matrix, eps: Expr = 0) -> Matrix:
    """A wrong variant: divides by the unbiased variance sum (x_i - mu)^2 / (d - 1).

    >>> list(unbiased_layer_norm(Matrix([1, 3])))
    [-sqrt(2)/2, sqrt(2)/2]
    """
    x = _as_column(x)
    d = x.rows
    return (x - mean(x) * ones(d, 1)) / sqrt(variance(x) * d / (d - 1) + eps)


def chapter_jacobian(y: Matrix, sigma: Expr) -> Matrix:
    """The chapter's formula: J = (1/sigma)(I - (1/d) 1 1^T - (1/d) y y^T).

    >>> chapter_jacobian(Matrix([1, -1]), 2).is_zero_matrix  # d = 2: J = 0
    True
    """
    d = y.rows
    return (eye(d) - ones(d, d) / d - y * y.T / d) / sigma


def layer_norm_jacobian(
    d: int, eps: Expr = 0, normalise: Normalise = layer_norm
) -> tuple[Matrix, Matrix]:
    """(x, J): the Jacobian of normalise(x, eps) in d explicit variables, by SymPy.

    >>> from symbolic.identities import is_zero
    >>> is_zero(layer_norm_jacobian(2)[1])  # d = 2: LN(x) = +-(1, -1) is locally constant
    True
    """
    x = variables(d)
    return x, normalise(x, eps).jacobian(x)  # (d, d)


SIZE_LIMIT = 96
"""derive_layer_norm_jacobian handles d up to this for the chapter's LN with eps = 0
(d = 64 in about a second); PROPERTIES_LIMIT bounds jacobian_properties there."""
PROPERTIES_LIMIT = 24
DIFFERENTIATION_LIMIT = 16
"""Differentiating another normalisation, or LN with eps != 0, handles d up to this
(d = 16 in about a second, d = 32 in ten); its properties up to DIFFERENTIATED_PROPERTIES_LIMIT."""
DIFFERENTIATED_PROPERTIES_LIMIT = 6


def _outputs(d: int) -> tuple[Matrix, Symbol]:
    """The chapter's own symbols: y_1..y_d (the output LN(x)) and sigma."""
    return Matrix(symbols(f"y_1:{d + 1}", real=True)), Symbol("sigma", positive=True)


def _is_chapter_layer_norm(normalise: Normalise, eps: Expr) -> bool:
    """Whether the closed form proved for symbolic d applies: 定義 2.1 with eps = 0."""
    return normalise is layer_norm and eps == 0


def derive_layer_norm_jacobian(
    d: int,
    stated: JacobianFormula = chapter_jacobian,
    normalise: Normalise = layer_norm,
    eps: Expr = 0,
) -> Derivation:
    """The Jacobian of `normalise` at d variables, compared with stated(y, sigma), where
    y = LN(x) and sigma = sqrt(sigma^2(x) + eps) are the chapter's (定義 2.1).

    For the chapter's LN with eps = 0 the derived entries are `proved_entry` (the
    derivative taken for symbolic d) at each (i, j) and the comparison is exact
    polynomial arithmetic in y, sigma, 1/sigma on the LN outputs (`SphereQuotient`),
    d <= SIZE_LIMIT. Otherwise (eps != 0, another normalisation) `normalise` is
    differentiated (`derive_layer_norm_jacobian_by_differentiation`,
    d <= DIFFERENTIATION_LIMIT). Both need stated(y, sigma) polynomial in y, sigma and
    1/sigma over Q (else a TypeError, resp. ValueError).

    >>> derive_layer_norm_jacobian(3).holds
    True
    >>> derive_layer_norm_jacobian(3, lambda y, sigma: eye(3) / sigma).holds
    False
    """
    _check_width(d)
    if not _is_chapter_layer_norm(normalise, eps):
        return derive_layer_norm_jacobian_by_differentiation(d, stated, normalise, eps)
    if d > SIZE_LIMIT:
        raise ValueError(f"d = {d} is above SIZE_LIMIT = {SIZE_LIMIT} of "
                         "derive_layer_norm_jacobian (explicit widths); "
                         "derive_layer_norm_jacobian_general covers every d")
    y, sigma = _outputs(d)
    quotient = SphereQuotient(d)
    names = {yi: v for v, yi in enumerate(y)} | {sigma: quotient.s}
    claimed = stated(y, sigma)  # (d, d) in the chapter's own symbols
    memo: dict[Expr, SparsePolynomial] = {}
    stated_entries = [[SparsePolynomial.from_expr(claimed[a, b], names, {sigma: quotient.u},
                                                  memo) for b in range(d)] for a in range(d)]
    J = _proved_jacobian(d, quotient)
    rows = range(d)
    holds = all(
        J[a][b] == stated_entries[a][b] or quotient.is_zero(J[a][b] - stated_entries[a][b])
        for a in rows
        for b in rows
    )
    letters = [*y, sigma, 1 / sigma]
    return Derivation(
        f"LayerNorm Jacobian, d = {d}",
        lambda: Matrix(d, d, lambda a, b: J[a][b].to_expr(letters)),
        claimed,
        lambda: Matrix(d, d, lambda a, b: quotient.reduce(J[a][b] - stated_entries[a][b])
                       .to_expr(letters)),
        holds,
    )


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
    _check_width(d)
    if d > DIFFERENTIATION_LIMIT:
        raise ValueError(f"d = {d} is above DIFFERENTIATION_LIMIT = {DIFFERENTIATION_LIMIT} of "
                         "the LayerNorm Jacobian by differentiation")
    x = variables(d)
    y = normalise(x, eps)  # (d,)
    s_expr = sqrt(variance(x) + eps)  # the chapter's sigma
    field = RadicalField(list(y) + [s_expr], x)
    u = field.element(1 / s_expr)
    centred = [field.element(c) for c in x - mean(x) * ones(d, 1)]
    y_symbols, sigma = _outputs(d)
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


def chapter_entry(y_i: Expr, y_j: Expr, delta: Expr, sigma: Expr, d: Expr) -> Expr:
    """The chapter's entry formula: J_ij = (delta_ij - 1/d - y_i y_j / d) / sigma.

    >>> chapter_entry(y_i, y_j, 0, sigma_symbol, d_symbol)
    (-y_i*y_j/d - 1/d)/sigma
    """
    return (delta - 1 / d - y_i * y_j / d) / sigma


@dataclass(frozen=True)
class _IndexedSums:
    """Symbolic d: x_k for k over `k_range` = (k, 1, d), with S = sum x_k and
    Q = sum (x_k - S/d)^2 named, the two sums LayerNorm is built from."""

    x: IndexedBase
    S: Symbol
    Q: Symbol
    k_range: tuple[Symbol, Expr, Expr]

    def evaluate(self, expr: Expr) -> Expr:
        """Evaluate every sum over k_range of a polynomial of degree <= 2 in x_k whose
        coefficients are free of k, from N = high - low + 1 terms, S and Q:
        sum 1 = N, sum x_k = S, sum x_k^2 = Q + 2 S mu - N mu^2 (mu = S/d, expanding Q).
        Other sums are left as they are."""
        k, low, high = self.k_range
        terms = high - low + 1
        mu = self.S / d_symbol
        power_sums = (terms, self.S, self.Q + 2 * self.S * mu - terms * mu**2)

        def evaluate(s: Sum) -> Expr:
            if s.limits != (Tuple(*self.k_range),):
                return s
            try:
                poly = Poly(expand(s.function), self.x[k])
            except PolynomialError:
                return s
            if poly.degree() > 2 or any(c.has(k) for c in poly.coeffs()):
                return s
            return Add(*(c * power_sums[p] for (p,), c in poly.terms()))

        return expr.replace(lambda e: isinstance(e, Sum), evaluate)


IndexedNormalise = Callable[[IndexedBase, Symbol, Expr, Expr], Expr]  # (x, k, S, Q) -> y_k


def indexed_layer_norm(x: IndexedBase, k: Symbol, total: Expr, spread: Expr) -> Expr:
    """y_k = (x_k - mu) / sigma for symbolic d (定義 2.1, eps = 0), given total = sum x_j
    and spread = sum (x_j - mu)^2, as Sums to differentiate or as named symbols S and Q:
    mu = S/d, sigma = sqrt(Q/d).

    >>> S, Q = symbols("S Q", positive=True)
    >>> indexed_layer_norm(IndexedBase("x"), Symbol("k"), S, Q)
    sqrt(d)*(-S/d + x[k])/sqrt(Q)
    """
    return (x[k] - total / d_symbol) / sqrt(spread / d_symbol)


def _indexed_sums() -> _IndexedSums:
    k = Symbol("k", integer=True, positive=True)
    total, spread = symbols("S Q", positive=True)
    return _IndexedSums(IndexedBase("x", real=True), total, spread, (k, S.One, d_symbol))


@dataclass(frozen=True)
class _GeneralEntry:
    """dLN(x)_i/dx_j for symbolic d, in the named sums S = sum x_k, Q = sum (x_k - mu)^2."""

    derived: Expr
    i: Symbol
    j: Symbol
    sums: _IndexedSums


@lru_cache(maxsize=1)
def _general_entry() -> _GeneralEntry:
    d = d_symbol
    i, j = symbols("i j", integer=True, positive=True)
    sums = _indexed_sums()
    x, k = sums.x, sums.k_range[0]
    total = Sum(x[k], sums.k_range)
    spread = Sum((x[k] - total / d) ** 2, sums.k_range)
    derived = diff(indexed_layer_norm(x, i, total, spread), x[j]).doit()
    derived = derived.xreplace({total: sums.S}).xreplace({spread.xreplace({total: sums.S}): sums.Q})
    derived = indices_in_range(sums.evaluate(derived), (i, j), d)
    return _GeneralEntry(derived, i, j, sums)


def derive_layer_norm_jacobian_general(stated_entry: EntryFormula = chapter_entry) -> Derivation:
    """The Jacobian for symbolic d: x an IndexedBase, indices i, j in 1..d.

    SymPy differentiates the sums; sum x_k is named S (so mu = S/d) and
    sum (x_k - mu)^2 is named Q (so sigma = sqrt(Q/d)); the remaining sums are linear
    in x_k and are evaluated by linearity (that is where sum_k c_k = 0 enters).

    >>> derive_layer_norm_jacobian_general().holds
    True
    """
    g = _general_entry()
    d = d_symbol
    sigma = sqrt(g.sums.Q / d)
    y = {t: indexed_layer_norm(g.sums.x, t, g.sums.S, g.sums.Q) for t in (g.i, g.j)}
    stated = stated_entry(y[g.i], y[g.j], KroneckerDelta(g.i, g.j), sigma, d)
    return compare("LayerNorm Jacobian, symbolic d", g.derived, stated)


y_i, y_j = symbols("y_i y_j", real=True)
sigma_symbol = Symbol("sigma", positive=True)


@lru_cache(maxsize=1)
def proved_entry() -> Expr:
    """dLN(x)_i/dx_j as derived for symbolic d, written in y_i, y_j, KroneckerDelta(i, j),
    sigma and d: x_t = sigma y_t + S/d and Q = d sigma^2, after which S must cancel.

    >>> proved_entry()
    KroneckerDelta(i, j)/sigma - y_i*y_j/(d*sigma) - 1/(d*sigma)
    """
    g = _general_entry()
    x, total, sigma = g.sums.x, g.sums.S, sigma_symbol
    entry = g.derived.xreplace({x[g.i]: sigma * y_i + total / d_symbol,
                                x[g.j]: sigma * y_j + total / d_symbol})
    entry = expand(entry.subs(g.sums.Q, d_symbol * sigma**2))
    if not entry.free_symbols <= {y_i, y_j, sigma, d_symbol, g.i, g.j}:
        raise ValueError(f"the derived entry is not a function of y_i, y_j, sigma: {entry}")
    return entry


def _proved_jacobian(d: int, quotient: SphereQuotient) -> list[list[SparsePolynomial]]:
    """proved_entry at every (a, b) of width d, in the variables of `quotient`."""
    u = Dummy("u")
    g = _general_entry()
    entry = proved_entry().subs(d_symbol, d).xreplace({sigma_symbol: 1 / u})
    pattern = EntryPattern(entry, y_i, y_j, KroneckerDelta(g.i, g.j), {u: quotient.u})
    return [[pattern(a, b) for b in range(d)] for a in range(d)]


def output_sums(indexed: IndexedNormalise = indexed_layer_norm) -> tuple[Expr, Expr]:
    """(sum_k y_k, sum_k y_k^2) for y = `indexed`(x) (LN by default) and symbolic d, from
    the definition: sum_k (x_k - S/d)/sigma by linearity, and
    sum_k (x_k - S/d)^2 / sigma^2 = Q / (Q/d). 命題 3.1 (2) says they are 0 and d.

    >>> output_sums()
    (0, d)
    """
    sums = _indexed_sums()
    y = indexed(sums.x, sums.k_range[0], sums.S, sums.Q)
    ones_sum, squares_sum = (sums.evaluate(Sum(y**p, sums.k_range)) for p in (1, 2))
    return expand(ones_sum), expand(squares_sum)


def general_jacobian_properties(
    stated_entry: EntryFormula = chapter_entry,
) -> dict[str, Expr]:
    """命題 3.3 (1), (2) for symbolic d, on the entry formula: each value is 0 when the
    property holds. P = sigma J; the facts sum_k y_k = 0 and sum_k y_k^2 = d come from
    `output_sums` (and are checked there). Trace d - 2 with P idempotent gives rank d - 2.

    >>> set(general_jacobian_properties().values())
    {0}
    """
    d = d_symbol
    i, j, k, t = symbols("i j k t", integer=True, positive=True)
    y = IndexedBase("y", real=True)
    sigma = Symbol("sigma", positive=True)
    ones_sum, squares_sum = output_sums()
    facts = {Sum(y[k], (k, 1, d)): ones_sum, Sum(y[k] ** 2, (k, 1, d)): squares_sum}

    def P(a: Symbol, b: Symbol) -> Expr:
        return sigma * stated_entry(y[a], y[b], KroneckerDelta(a, b), sigma, d)

    def reduce(e: Expr) -> Expr:
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

    `holds[name]` is True only when the property is proved (an exact identity);
    `defects[name]` lists the SymPy expressions that are zero when it holds. A scaling
    law that cannot be proved (eps != 0, a radicand that is not homogeneous) is False
    with `scaling_witness` as its defects, a non-zero entry of which shows it failing.
    s = sqrt(sigma^2 + eps),
    c = x - mu 1, P = s J. With eps = 0, P is the projection onto W-perp:
    symmetric, idempotent, trace d - 2 (so rank d - 2 for d >= 3). With eps > 0,
    J 1 = 0 and symmetry survive; J c = eps c / s^3 replaces J c = 0, and P is
    I - 11^T/d - (sigma^2/s^2) c c^T/|c|^2: eigenvalue eps/s^2 along c, not 0.

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


def jacobian_properties(
    d: int,
    eps: Expr = 0,
    normalise: Normalise = layer_norm,
    stated: JacobianFormula | None = None,
) -> JacobianProperties:
    """Every property of 命題 3.3 for the Jacobian of `normalise` in d variables, or with
    `stated` for the stated formula stated(y, sigma) in LN's own y and sigma.

    For the chapter's LN with eps = 0 (d <= PROPERTIES_LIMIT) the Jacobian is
    `proved_entry` at each (i, j) (or `stated`, a polynomial in y and 1/sigma over Q)
    and each property is reduced on the LN outputs (`SphereQuotient`); otherwise
    `jacobian_properties_by_differentiation` (where `stated` is not supported).

    >>> p = jacobian_properties(3)
    >>> p.holds["s J idempotent"], p.holds["J = 0"]
    (True, False)
    """
    _check_width(d)
    if not _is_chapter_layer_norm(normalise, eps):
        if stated is not None:
            raise ValueError("jacobian_properties: a stated formula needs the chapter's LN "
                             "with eps = 0")
        return jacobian_properties_by_differentiation(d, eps, normalise)
    if d > PROPERTIES_LIMIT:
        raise ValueError(f"d = {d} is above PROPERTIES_LIMIT = {PROPERTIES_LIMIT} of "
                         "jacobian_properties; general_jacobian_properties covers every d")
    quotient = SphereQuotient(d)
    y, sigma = _outputs(d)
    if stated is None:
        J = _proved_jacobian(d, quotient)
    else:
        names = {yi: v for v, yi in enumerate(y)} | {sigma: quotient.s}
        claimed = stated(y, sigma)
        memo: dict[Expr, SparsePolynomial] = {}
        J = [[SparsePolynomial.from_expr(claimed[a, b], names, {sigma: quotient.u}, memo)
              for b in range(d)] for a in range(d)]
    rows = range(d)
    zero = SparsePolynomial()
    s = SparsePolynomial.variable(quotient.s)
    c = [s * SparsePolynomial.variable(a) for a in rows]  # x - mu 1 = sigma y
    dJ = [[d * J[a][b] for b in rows] for a in rows]  # integer coefficients: faster
    dP = [[s * dJ[a][b] for b in rows] for a in rows]  # d sigma J
    dJ_c = [sum((dJ[a][b] * c[b] for b in rows), zero) for a in rows]
    checks = {  # name: (scale, the values times scale)
        "J 1 = 0": (d, [sum(dJ[a], zero) for a in rows]),
        "J c = 0": (d, dJ_c),
        "J c = eps c / s^3": (d, dJ_c),  # eps = 0
        "s J symmetric": (d, [dP[a][b] - dP[b][a] for a in rows for b in rows]),
        "s J idempotent": (d * d, [
            sum((dP[a][k] * dP[k][b] for k in rows), zero) - d * dP[a][b]
            for a in rows
            for b in rows
        ]),
        "tr(s J) = d - 2": (d, [sum((dP[a][a] for a in rows), zero) - d * (d - 2)]),
        "J = 0": (d, [e for row in dJ for e in row]),
    }
    letters = [*y, sigma, 1 / sigma]
    reduced = {
        name: [quotient.reduce(e) / scale for e in v] for name, (scale, v) in checks.items()
    }
    defects: dict[str, list[Expr]] = {
        name: [e.to_expr(letters) for e in v] for name, v in reduced.items()
    }
    holds = {name: not any(v) for name, v in reduced.items()}
    a = Symbol("a", positive=True)
    # under x -> a x (a > 0) the outputs y = (x - mu 1)/sigma do not change and sigma
    # becomes a sigma: weight 0 for each y, 1 for s = sigma, -1 for u = 1/sigma
    weights = {v: S.Zero for v in rows} | {quotient.s: S.One, quotient.u: S.NegativeOne}
    by_weight = [_split_by_weight(e, weights) for row in J for e in row]
    defects["J(a x) = J(x) / a"] = [
        sum((a**w * quotient.reduce(part).to_expr(letters) for w, part in parts.items()), S.Zero)
        for parts in by_weight
    ]
    holds["J(a x) = J(x) / a"] = not any(
        quotient.reduce(part) for parts in by_weight for part in parts.values()
    )
    return JacobianProperties(d, eps, defects, holds)


def _split_by_weight(
    e: SparsePolynomial, weights: dict[int, Expr]
) -> dict[Expr, SparsePolynomial]:
    """J(a x) - J(x)/a grouped by powers of a: a monomial of weight w in J(x) is a^w times
    itself in J(a x); the a^-1 group also holds -J(x)."""
    parts: dict[Expr, SparsePolynomial] = {}
    for monomial, coefficient in e.terms.items():
        w = sum((weights[v] * p for v, p in monomial), S.Zero)
        term = SparsePolynomial({monomial: coefficient})
        parts[w] = parts.get(w, SparsePolynomial()) + term
        parts[S.NegativeOne] = parts.get(S.NegativeOne, SparsePolynomial()) - term
    return parts


def jacobian_properties_by_differentiation(
    d: int, eps: Expr = 0, normalise: Normalise = layer_norm
) -> JacobianProperties:
    """The properties for the derived Jacobian of `normalise` in d variables, on the
    ring of x, r = sqrt(sigma^2 + eps) and 1/r (d <= DIFFERENTIATED_PROPERTIES_LIMIT).

    >>> jacobian_properties_by_differentiation(2).holds["J = 0"]
    True
    """
    _check_width(d)
    if d > DIFFERENTIATED_PROPERTIES_LIMIT:
        raise ValueError(f"d = {d} is above DIFFERENTIATED_PROPERTIES_LIMIT = "
                         f"{DIFFERENTIATED_PROPERTIES_LIMIT} of the LayerNorm Jacobian's "
                         "properties by differentiation")
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
    defects["J(a x) = J(x) / a"], holds["J(a x) = J(x) / a"] = _scaling(
        field, J, x, eps, normalise
    )
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
            defects.append(sum((a**k * field.value(p) for k, p in by_power.items()),
                               S.Zero))
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


def invariance_difference(d: int, normalise: Normalise = layer_norm) -> Matrix:
    """LN(a x + b 1) - LN(x) for a > 0 and any b (命題 3.1 (1), gamma = 1, beta = 0).

    >>> from symbolic.identities import is_zero
    >>> is_zero(invariance_difference(2))
    True
    """
    x = variables(d)
    a = Symbol("a", positive=True)
    b = Symbol("b", real=True)
    return normalise(a * x + b * ones(d, 1)) - normalise(x)


@dataclass(frozen=True)
class Moments:
    """Mean, variance and Euclidean norm of a LayerNorm output.

    >>> from symbolic.identities import is_zero
    >>> is_zero(moments(2, 1, 0).mean)
    True
    """

    mean: Expr
    variance: Expr
    norm: Expr


def moments(d: int, g: Expr | None = None, b: Expr | None = None,
            normalise: Normalise = layer_norm) -> Moments:
    """Moments of `normalise`(x) (LN, 定義 2.1, by default) with gamma = g 1, beta = b 1 in
    d explicit variables (演習 11.2; g = 1, b = 0 gives 命題 3.1 (2): 0, 1, sqrt(d)).

    >>> from symbolic.identities import is_zero
    >>> is_zero(moments(2, 3, 5).variance - 9)
    True
    """
    x = variables(d)
    g = Symbol("g", real=True) if g is None else g
    b = Symbol("b", real=True) if b is None else b
    z = normalise(x, 0, g * ones(d, 1), b * ones(d, 1))
    return Moments(mean(z), variance(z), sqrt(sum(zi**2 for zi in z)))


def moments_general(indexed: IndexedNormalise = indexed_layer_norm) -> Moments:
    """The same for symbolic d and y = `indexed`(x) (LN by default), z = g y + b summed
    from the definition over k = 1..d (sum y_k = 0 and sum y_k^2 = d for LN, 命題 3.1 (2)).

    >>> moments_general().mean
    b
    """
    d = d_symbol
    g, b = symbols("g b", real=True)
    sums = _indexed_sums()
    k = sums.k_range[0]
    z = g * indexed(sums.x, k, sums.S, sums.Q) + b
    z_sum, squares_sum = (expand(sums.evaluate(Sum(z**p, sums.k_range))) for p in (1, 2))
    z_mean = z_sum / d
    return Moments(z_mean, expand(squares_sum / d - z_mean**2), sqrt(squares_sum))
