"""Square roots of polynomials as symbols r with their relation r^2 = b.

Square roots of polynomials, which the LayerNorm formulas are full of, are replaced by
fresh symbols r with their defining relation r^2 = b, and powers of r are reduced by it:
a difference A + B r is then zero only when A = B = 0. That is sound (it can only miss
identities, never invent one) and fast, where `simplify` on the same matrices takes
minutes. `radical_numerator` is that rewriting for `symbolic.identities.is_zero`;
`RadicalField` is the same idea as a ring, with exact arithmetic and differentiation, for
Jacobians.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from sympy import (
    Add,
    Basic,
    Dummy,
    Expr,
    Mul,
    Number,
    Pow,
    Rational,
    S,
    Symbol,
    expand,
    factor_terms,
    sqrt,
    sympify,
    together,
)
from sympy.polys.rings import PolyElement


@lru_cache(maxsize=4096)
def _expanded(base: Expr) -> Expr:
    """expand(base); for polynomials through sparse polynomial arithmetic, several
    times faster than expand on the large sums of squares of a LayerNorm."""
    from sympy.polys.domains import QQ
    from sympy.polys.rings import ring

    gens = sorted(base.free_symbols, key=str)
    if gens and base.is_polynomial(*gens):
        try:
            return ring(gens, QQ)[0].from_expr(base).as_expr()
        except ValueError:  # coefficients outside QQ (e.g. sqrt(2))
            pass
    return expand(base)


@lru_cache(maxsize=4096)
def _split_radicand(base: Expr) -> tuple[Expr, tuple[Expr, ...]]:
    """base = outside^2 * prod(parts): squares of positive factors come out, each
    positive (or non-negative) factor and the rational content become their own part,
    the rest stays together, so sqrt(a^2 d B) = a sqrt(d) sqrt(B) for a, d > 0."""
    outside, parts, rest = S.One, [], S.One
    expanded = _expanded(base)
    terms = Add.make_args(expanded)
    shared = set.intersection(*(t.free_symbols for t in terms)) if len(terms) > 1 else {1}
    factors = Mul.make_args(factor_terms(expanded)) if shared else expanded.as_content_primitive()
    for f in factors:
        b, e = f.as_base_exp()
        if e.is_Integer and e >= 2 and not isinstance(b, Add) and b.is_positive:
            outside *= b ** (int(e) // 2)
            f = b ** (int(e) % 2)
        if f.is_Rational and sqrt(f).is_Rational:
            outside *= sqrt(f)
            continue
        if f == 1:
            continue
        if f.is_Rational or (not isinstance(f, Add | Number) and f.is_nonnegative):
            parts.append(f if f.is_Rational else _expanded(f))
        else:
            rest *= f
    if rest != 1:
        parts.append(_expanded(rest))
    return outside, tuple(parts)


def _radicals_to_symbols(
    expr: Basic, roots: dict[Expr, Symbol] | None = None
) -> tuple[Basic, dict[Symbol, Expr]]:
    """Replace every b**(p/2) by outside**p * prod(r**p) over the parts of b
    (`_split_radicand`), with r**2 = part; return the expression and the relations
    r -> part. `roots` (part -> r) is extended in place when given, so several
    expressions can share their radicals."""
    roots = {} if roots is None else roots
    replacements = {}
    for p in expr.atoms(Pow):
        if p.exp.is_Rational and p.exp.q == 2:
            outside, parts = _split_radicand(p.base)
            k = int(p.exp * 2)
            value = outside**k
            for part in parts:
                if part not in roots:
                    roots[part] = Dummy("r", positive=True)
                value *= roots[part] ** k
            replacements[p] = value
    reduced = expr.xreplace(replacements) if replacements else expr
    return reduced, {r: b for b, r in roots.items()}


def _reduce_powers(poly: Expr, relations: dict[Symbol, Expr]) -> Expr:
    """Rewrite r**k as b**(k // 2) * r**(k % 2) for every relation r**2 = b, until no
    relation applies (a base may hold another radical, which then needs its own round;
    the relations come from nested square roots, so they never lead back to r)."""
    while True:
        replacements = {}
        for p in poly.atoms(Pow):
            if p.base in relations and p.exp.is_Integer and abs(p.exp) >= 2:
                k = int(p.exp)
                replacements[p] = relations[p.base] ** (k // 2) * p.base ** (k % 2)
        if not replacements:
            return poly
        poly = expand(poly.xreplace(replacements))


def radical_numerator(expr: Expr) -> Expr:
    """The numerator of expr over a common denominator, expanded, with each square root of
    a polynomial written as a symbol r (`_radicals_to_symbols`) and each power of r reduced
    by r^2 = b: a polynomial in the symbols and the r that is 0 only when expr is 0.

    >>> x = Symbol("x", real=True)
    >>> radical_numerator(sqrt(x**2 + 1) ** 3 - (x**2 + 1) * sqrt(x**2 + 1))
    0
    """
    reduced, relations = _radicals_to_symbols(expr)
    numerator = expand(together(reduced).as_numer_denom()[0])
    if relations:
        numerator = _reduce_powers(numerator, relations)
    return numerator


class RadicalField:
    """Expressions polynomial in some variables, in square roots r = sqrt(b) of
    polynomials b, and in their inverses u = 1/r: exact arithmetic, differentiation
    by the chain rule, and a zero test.

    Elements are sparse polynomials over QQ in the variables, r and u (no
    fractions, so no gcd computations). Derivatives use dr/dx = (db/dx) u / 2 and
    du/dx = -(db/dx) u^3 / 2. An element is zero when, multiplied by r^N to clear u
    (r u = 1), its r-powers reduced by r^2 = b, it is the zero polynomial. This is
    what makes a 16 x 16 LayerNorm Jacobian a matter of a second.

    >>> x = Symbol("x", real=True)
    >>> field = RadicalField([sqrt(x**2 + 1)], [x])
    >>> slope = field.diff(field.element(sqrt(x**2 + 1)), x)
    >>> field.is_zero(slope - field.element(x / sqrt(x**2 + 1)))
    True
    """

    def __init__(self, exprs: Iterable[Basic], variables: Iterable[Symbol]) -> None:
        from sympy.polys.domains import QQ
        from sympy.polys.rings import ring

        self.roots: dict[Expr, Symbol] = {}
        free: set[Symbol] = set(variables)
        for e in exprs:
            reduced, _ = _radicals_to_symbols(sympify(e), self.roots)
            free |= reduced.free_symbols
        self.relations = {r: b for b, r in self.roots.items()}
        self.inverse = {r: Dummy("u", positive=True) for r in self.relations}
        for b in self.roots:
            free |= b.free_symbols
        free -= set(self.relations)
        self.variables = sorted(free, key=str)
        names = self.variables + list(self.relations) + list(self.inverse.values())
        self.ring, *gens = ring(names, QQ)
        self.gen = dict(zip(names, gens, strict=True))
        self._base = {r: self.ring.from_expr(b) for r, b in self.relations.items()}

    def element(self, expr: Expr) -> PolyElement:
        """expr as a ring element; its radicals (and their inverses and the inverses of
        their squares) must be known to the field."""
        reduced, relations = _radicals_to_symbols(sympify(expr), self.roots)
        if set(relations) - set(self.relations):
            raise ValueError(f"RadicalField: expr holds a radical it was not built with: {expr}")
        swap = {}
        for p in reduced.atoms(Pow):
            if p.exp.is_Integer and p.exp < 0:
                if p.base in self.inverse:
                    swap[p] = self.inverse[p.base] ** -p.exp
                    continue
                outside, parts = _split_radicand(p.base)
                if parts and all(part in self.roots for part in parts):
                    k = int(-p.exp)
                    swap[p] = outside ** (-2 * k) * Mul(
                        *(self.inverse[self.roots[part]] ** (2 * k) for part in parts)
                    )
        return self.ring.from_expr(reduced.xreplace(swap))

    def diff(self, f: PolyElement, x: Symbol) -> PolyElement:
        """df/dx through the radicals: dr/dx = (db/dx) u / 2, du/dx = -(db/dx) u^3 / 2."""
        out = f.diff(self.gen[x])
        for r, b in self._base.items():
            db = b.diff(self.gen[x])
            if db != 0:
                R, U = self.gen[r], self.gen[self.inverse[r]]
                out += (f.diff(R) * U - f.diff(U) * U**3) * db / 2
        return out

    def jacobian(self, fs: Sequence[PolyElement], xs: Sequence[Symbol]) -> list[list[PolyElement]]:
        """[[d f / d x for x in xs] for f in fs], the radical factors computed once per f."""
        grads = {r: [b.diff(self.gen[x]) for x in xs] for r, b in self._base.items()}
        out = []
        for f in fs:
            through = {}
            for r in self._base:
                R, U = self.gen[r], self.gen[self.inverse[r]]
                through[r] = (f.diff(R) * U - f.diff(U) * U**3) / 2
            row = []
            for j, x in enumerate(xs):
                value = f.diff(self.gen[x])
                for r, g in through.items():
                    if g and grads[r][j]:
                        value += g * grads[r][j]
                row.append(value)
            out.append(row)
        return out

    def reduce(self, f: PolyElement) -> PolyElement:
        """f times r^N for each radical (N = its u-degree), with u = 1/r and r^2 = b used."""
        poly = f
        for r, b in self._base.items():
            i = self.ring.gens.index(self.gen[r])
            k = self.ring.gens.index(self.gen[self.inverse[r]])
            top = max((m[k] for m in poly.monoms()), default=0)
            out = self.ring.zero
            for monom, coeff in poly.terms():
                power = monom[i] + top - monom[k]
                rest = list(monom)
                rest[i], rest[k] = power % 2, 0
                out += self.ring({tuple(rest): coeff}) * b ** (power // 2)
            poly = out
        return poly

    def is_zero(self, f: PolyElement) -> bool:
        return self.reduce(f) == 0

    def value(self, f: PolyElement) -> Expr:
        """f as a SymPy expression in the variables alone, r = sqrt(b) and u = 1/r put
        back, after `reduce` (divided back by the r^N it multiplies by): the same
        function as f, in a form that is 0 exactly when f is.

        >>> x = Symbol("x", real=True)
        >>> field = RadicalField([sqrt(x**2 + 1)], [x])
        >>> X, r, u = (field.element(e) for e in (x, sqrt(x**2 + 1), 1 / sqrt(x**2 + 1)))
        >>> field.value(r**3 - X**2 * r), field.value(X * r * u**2)
        (sqrt(x**2 + 1), x/sqrt(x**2 + 1))
        """
        reduced = self.reduce(f)
        for r, u in self.inverse.items():
            i, k = self.ring.gens.index(self.gen[r]), self.ring.gens.index(self.gen[u])
            top = max((m[k] for m in f.monoms()), default=0)  # reduce multiplied by r^top
            out = self.ring.zero
            for monom, coeff in reduced.terms():
                powers = list(monom)  # r-power 0 or 1 after reduce, u-power 0
                powers[i], powers[k] = max(monom[i] - top, 0), max(top - monom[i], 0)
                out += self.ring({tuple(powers): coeff})
            reduced = out
        radicals = {r: sqrt(b) for r, b in self.relations.items()}
        radicals |= {u: 1 / sqrt(self.relations[r]) for r, u in self.inverse.items()}
        return self.to_expr(reduced).xreplace(radicals)

    def evaluate(
        self,
        expr: Expr,
        values: dict[Expr, PolyElement],
        inverses: dict[Expr, PolyElement] | None = None,
        memo: dict[Expr, PolyElement] | None = None,
    ) -> PolyElement:
        """A small expression in other symbols as a ring element: each symbol s is
        replaced by values[s] and s**-k by inverses[s]**k (rational coefficients).
        `memo` (a dict shared between calls) reuses equal sub-expressions."""
        inverses = inverses or {}
        memo = {} if memo is None else memo
        expr = sympify(expr)
        if expr in memo:
            return memo[expr]
        if expr.is_Rational:
            out = self.ring(expr)
        elif expr in values:
            out = values[expr]
        elif expr.is_Symbol and expr in self.gen:
            out = self.gen[expr]
        elif isinstance(expr, Add):
            out = self.ring.zero
            for a in expr.args:
                out += self.evaluate(a, values, inverses, memo)
        elif isinstance(expr, Mul):
            out = self.ring.one
            for a in expr.args:
                out *= self.evaluate(a, values, inverses, memo)
        elif isinstance(expr, Pow) and expr.exp.is_Integer and expr.exp >= 0:
            out = self.evaluate(expr.base, values, inverses, memo) ** int(expr.exp)
        elif isinstance(expr, Pow) and expr.exp.is_Integer and expr.base in inverses:
            out = inverses[expr.base] ** int(-expr.exp)
        else:
            raise ValueError(f"RadicalField.evaluate: cannot evaluate {expr} in the ring")
        memo[expr] = out
        return out

    def to_expr(self, f: PolyElement) -> Expr:
        """f as a SymPy expression in the variables, r and u (built term by term)."""
        terms = []
        for monom, coeff in f.terms():
            factors = [Rational(coeff.numerator, coeff.denominator)]
            for symbol, power in zip(self.ring.symbols, monom, strict=True):
                if power:
                    factors.append(symbol**power)
            terms.append(Mul(*factors))
        return Add(*terms)
