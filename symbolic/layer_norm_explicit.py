"""The LayerNorm Jacobian and its properties (命題 3.3) at an explicit width d.

The entry derived for symbolic d (`proved_entry`), written in y = LN(x) and sigma, is put
at every (i, j) and compared with the stated formula as polynomials over Q in y, sigma and
1/sigma on LN's outputs (sum y = 0, sum y^2 = d, `SphereQuotient`): d = 64 in about a
second. For eps != 0 or another normalisation the same entry points differentiate
(`symbolic.layer_norm_differentiation`).
"""

from __future__ import annotations

import functools

from sympy import Dummy, Expr, KroneckerDelta, Matrix, MatrixBase, S, Symbol

from cache.codec import BOOL, Codec
from cache.remembered import remembered
from symbolic.identities import Derivation
from symbolic.kept import decode_expressions, encode_expressions, polynomials_key
from symbolic.layer_norm_definition import (
    JacobianFormula,
    Normalise,
    chapter_jacobian,
    check_width,
    layer_norm,
    output_symbols,
)
from symbolic.layer_norm_differentiation import (
    PROPERTY_NAMES,
    JacobianProperties,
    derive_layer_norm_jacobian_by_differentiation,
    jacobian_properties_by_differentiation,
)
from symbolic.layer_norm_general import general_entry, proved_entry, sigma_symbol, y_i, y_j
from symbolic.polynomials import EntryPattern, SparsePolynomial
from symbolic.quotients import SphereQuotient
from symbolic.symbols import d as d_symbol

SIZE_LIMIT = 96
"""derive_layer_norm_jacobian handles d up to this for the chapter's LN with eps = 0
(d = 64 in about a second); PROPERTIES_LIMIT bounds jacobian_properties there."""
PROPERTIES_LIMIT = 24


def _is_chapter_layer_norm(normalise: Normalise, eps: Expr) -> bool:
    """Whether the closed form proved for symbolic d applies: 定義 2.1 with eps = 0."""
    return normalise is layer_norm and eps == 0


def _proved_jacobian(d: int, quotient: SphereQuotient) -> list[list[SparsePolynomial]]:
    """proved_entry at every (a, b) of width d, in the variables of `quotient`."""
    u = Dummy("u")
    g = general_entry()
    entry = proved_entry().subs(d_symbol, d).xreplace({sigma_symbol: 1 / u})
    pattern = EntryPattern(entry, y_i, y_j, KroneckerDelta(g.i, g.j), {u: quotient.u})
    return [[pattern(a, b) for b in range(d)] for a in range(d)]


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
    >>> from sympy import eye
    >>> derive_layer_norm_jacobian(3, lambda y, sigma: eye(3) / sigma).holds
    False
    """
    check_width(d)
    if not _is_chapter_layer_norm(normalise, eps):
        return derive_layer_norm_jacobian_by_differentiation(d, stated, normalise, eps)
    if d > SIZE_LIMIT:
        raise ValueError(
            f"d = {d} is above SIZE_LIMIT = {SIZE_LIMIT} of "
            "derive_layer_norm_jacobian (explicit widths); "
            "derive_layer_norm_jacobian_general covers every d"
        )
    y, sigma = output_symbols(d)
    quotient = SphereQuotient(d)
    claimed = stated(y, sigma)  # (d, d) in the chapter's own symbols
    stated_entries = _entries(claimed, d, y, sigma, quotient)
    proved = functools.cache(lambda: _proved_jacobian(d, quotient))
    rows = range(d)

    def compare() -> bool:
        J = proved()
        return all(
            J[a][b] == stated_entries[a][b] or quotient.is_zero(J[a][b] - stated_entries[a][b])
            for a in rows
            for b in rows
        )

    holds = remembered(
        "derive_layer_norm_jacobian", f"{d}\n{polynomials_key(stated_entries)}", compare, BOOL
    )
    letters = [*y, sigma, 1 / sigma]
    return Derivation(
        f"LayerNorm Jacobian, d = {d}",
        lambda: Matrix(d, d, lambda a, b: proved()[a][b].to_expr(letters)),
        claimed,
        lambda: Matrix(
            d,
            d,
            lambda a, b: quotient.reduce(proved()[a][b] - stated_entries[a][b]).to_expr(letters),
        ),
        holds,
    )


def _entries(
    claimed: MatrixBase, d: int, y: list[Symbol], sigma: Symbol, quotient: SphereQuotient
) -> list[list[SparsePolynomial]]:
    """A stated (d, d) matrix in y and sigma as SparsePolynomials in `quotient`'s variables
    (a TypeError where an entry is not a polynomial in y, sigma and 1/sigma over Q)."""
    names = {yi: v for v, yi in enumerate(y)} | {sigma: quotient.s}
    memo: dict[Expr, SparsePolynomial] = {}
    return [
        [
            SparsePolynomial.from_expr(claimed[a, b], names, {sigma: quotient.u}, memo)
            for b in range(d)
        ]
        for a in range(d)
    ]


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
    check_width(d)
    if not _is_chapter_layer_norm(normalise, eps):
        if stated is not None:
            raise ValueError(
                "jacobian_properties: a stated formula needs the chapter's LN with eps = 0"
            )
        return jacobian_properties_by_differentiation(d, eps, normalise)
    if d > PROPERTIES_LIMIT:
        raise ValueError(
            f"d = {d} is above PROPERTIES_LIMIT = {PROPERTIES_LIMIT} of "
            "jacobian_properties; general_jacobian_properties covers every d"
        )
    quotient = SphereQuotient(d)
    y, sigma = output_symbols(d)
    if stated is None:
        J = _proved_jacobian(d, quotient)
        inputs = f"{d}\nproved"
    else:
        J = _entries(stated(y, sigma), d, y, sigma, quotient)
        inputs = f"{d}\n{polynomials_key(J)}"
    defects, holds = remembered(
        "jacobian_properties",
        inputs,
        lambda: _properties(d, J, quotient, y, sigma),
        _properties_codec(d),
    )
    return JacobianProperties(d, eps, defects, holds)


Properties = tuple[dict[str, list[Expr]], dict[str, bool]]


def _properties_codec(d: int) -> Codec[Properties]:
    """The defects of `_properties` at width d, kept in PROPERTY_NAMES' order; the verdicts
    are read back from them (a property holds when its defects are all zero), and each
    property's number of defects is checked: d for J 1 and J c, one trace, d^2 for the
    others."""
    counts = {"J 1 = 0": d, "J c = 0": d, "J c = eps c / s^3": d, "tr(s J) = d - 2": 1}
    sizes = [counts.get(name, d * d) for name in PROPERTY_NAMES]

    def encode(properties: Properties) -> dict[str, list]:
        defects, _ = properties
        return encode_expressions(e for name in PROPERTY_NAMES for e in defects[name])

    def decode(data: object) -> Properties:
        flat = decode_expressions(data)
        if len(flat) != sum(sizes):
            raise ValueError(f"expected {sum(sizes)} defects, got {len(flat)}")
        ends = [sum(sizes[: k + 1]) for k in range(len(sizes))]
        defects = {
            name: flat[end - size : end]
            for name, size, end in zip(PROPERTY_NAMES, sizes, ends, strict=True)
        }
        return defects, {name: not any(v) for name, v in defects.items()}

    return Codec(encode, decode)


def _properties(
    d: int,
    J: list[list[SparsePolynomial]],
    quotient: SphereQuotient,
    y: list[Symbol],
    sigma: Symbol,
) -> tuple[dict[str, list[Expr]], dict[str, bool]]:
    """jacobian_properties' defects and verdicts for the entries J of a width-d Jacobian."""
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
        "s J idempotent": (
            d * d,
            [
                sum((dP[a][k] * dP[k][b] for k in rows), zero) - d * dP[a][b]
                for a in rows
                for b in rows
            ],
        ),
        "tr(s J) = d - 2": (d, [sum((dP[a][a] for a in rows), zero) - d * (d - 2)]),
        "J = 0": (d, [e for row in dJ for e in row]),
    }
    letters = [*y, sigma, 1 / sigma]
    reduced = {name: [quotient.reduce(e) / scale for e in v] for name, (scale, v) in checks.items()}
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
    return defects, holds


def _split_by_weight(e: SparsePolynomial, weights: dict[int, Expr]) -> dict[Expr, SparsePolynomial]:
    """J(a x) - J(x)/a grouped by powers of a: a monomial of weight w in J(x) is a^w times
    itself in J(a x); the a^-1 group also holds -J(x)."""
    parts: dict[Expr, SparsePolynomial] = {}
    for monomial, coefficient in e.terms.items():
        w = sum((weights[v] * p for v, p in monomial), S.Zero)
        term = SparsePolynomial({monomial: coefficient})
        parts[w] = parts.get(w, SparsePolynomial()) + term
        parts[S.NegativeOne] = parts.get(S.NegativeOne, SparsePolynomial()) - term
    return parts
