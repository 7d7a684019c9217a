"""Judges: decide whether a SymPy difference is zero, and certify non-negativity.

Derivations elsewhere return SymPy objects; only this module says yes or no.
`is_zero` answers True only when it has reduced the expression to the zero
polynomial (it never guesses from sample points). Square roots of polynomials,
which the LayerNorm formulas are full of, are replaced by fresh symbols r with
their defining relation r^2 = b, and powers of r are reduced by it: a
difference A + B r is declared zero only when A = B = 0. That is sound (it can
only miss identities, never invent one) and fast, where `simplify` on the same
matrices takes minutes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import TypeAlias

from sympy import (
    Add,
    Basic,
    Dummy,
    Expr,
    Function,
    Indexed,
    KroneckerDelta,
    MatrixBase,
    Mul,
    Number,
    Piecewise,
    Poly,
    Pow,
    Rational,
    S,
    Sum,
    Symbol,
    expand,
    factor_terms,
    simplify,
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
    factors = (
        Mul.make_args(factor_terms(expanded)) if shared else expanded.as_content_primitive()
    )
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

    def jacobian(
        self, fs: Sequence[PolyElement], xs: Sequence[Symbol]
    ) -> list[list[PolyElement]]:
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


# ------------------------------------- sparse polynomials for explicit sizes

Monomial = tuple[tuple[int, int], ...]  # sorted (variable, power) pairs
Coefficient = int | Fraction


def _rational(value: object) -> Coefficient | None:
    """value as an int or Fraction when it is an exact rational number, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | Fraction):
        return value
    if isinstance(value, Rational):
        return int(value.p) if value.q == 1 else Fraction(int(value.p), int(value.q))
    return None


def _integral(c: Coefficient) -> Coefficient:
    """A Fraction with denominator 1 as an int (int arithmetic is several times faster)."""
    return c.numerator if c.__class__ is Fraction and c.denominator == 1 else c


def _times(a: Monomial, b: Monomial) -> Monomial:
    if not a:
        return b
    if not b:
        return a
    powers = dict(a)
    for v, e in b:
        powers[v] = powers.get(v, 0) + e
    return tuple(sorted(powers.items()))


class SparsePolynomial:
    """A polynomial over Q in variables numbered 0, 1, 2, ...: {monomial: coefficient},
    a monomial being the sorted tuple of its (variable, power) pairs.

    An entry of an explicit n x n Jacobian holds two or three of its n + 2 variables;
    stored this way a product costs a few operations, where SymPy's polynomial rings,
    with an exponent vector per monomial, cost n. Arithmetic mixes with int, Fraction
    and SymPy Rational (KroneckerDelta of two integers, 1/d); any other operand (a
    symbol, a square root) is a TypeError, so what is not a polynomial over Q never
    passes for one.

    >>> p, q = SparsePolynomial.variable(0), SparsePolynomial.variable(5)
    >>> (p + q) ** 2 - p * p - 2 * p * q == q**2
    True
    >>> from sympy import symbols
    >>> (p * Rational(1, 2)).to_expr(symbols("x:6"))
    x0/2
    """

    __slots__ = ("terms",)
    # compared by value (==), so not hashable
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, terms: dict[Monomial, Coefficient] | None = None) -> None:
        self.terms: dict[Monomial, Coefficient] = terms if terms is not None else {}

    @classmethod
    def variable(cls, index: int) -> SparsePolynomial:
        return cls({((index, 1),): 1})

    @classmethod
    def monomial(cls, coefficient: Coefficient, powers: dict[int, int]) -> SparsePolynomial:
        """coefficient * prod x_v^e over powers {v: e} (zero powers dropped)."""
        if not coefficient:
            return cls()
        monomial = tuple(sorted((v, e) for v, e in powers.items() if e))
        return cls({monomial: _integral(coefficient)})

    @classmethod
    def from_expr(
        cls,
        expr: Expr,
        variables: dict[Expr, int],
        inverses: dict[Expr, int] | None = None,
        memo: dict[Expr, SparsePolynomial] | None = None,
    ) -> SparsePolynomial:
        """A SymPy polynomial in the keys of `variables` (over Q) as a SparsePolynomial,
        s**-k written as variable inverses[s] to the k; anything else is a TypeError.
        `memo`, shared between calls, reuses equal sub-expressions.

        >>> from sympy import symbols
        >>> y, s = symbols("y s")
        >>> SparsePolynomial.from_expr((1 - y**2 / 2) / s, {y: 0, s: 1}, {s: 2})
        SparsePolynomial({((2, 1),): 1, ((0, 2), (2, 1)): Fraction(-1, 2)})
        """
        inverses = inverses or {}
        memo = {} if memo is None else memo
        if expr in memo:
            return memo[expr]
        constant = cls.coerce(expr)
        if constant is not None:
            out = constant
        elif expr in variables:
            out = cls.variable(variables[expr])
        elif isinstance(expr, Add | Mul):
            parts = [cls.from_expr(a, variables, inverses, memo) for a in expr.args]
            out = parts[0]
            for part in parts[1:]:
                out = out + part if isinstance(expr, Add) else out * part
        elif isinstance(expr, Pow) and expr.exp.is_Integer and expr.exp >= 0:
            out = cls.from_expr(expr.base, variables, inverses, memo) ** int(expr.exp)
        elif isinstance(expr, Pow) and expr.exp.is_Integer and expr.base in inverses:
            out = cls.monomial(1, {inverses[expr.base]: int(-expr.exp)})
        else:
            raise TypeError(f"not a polynomial over Q in the given variables: {expr}")
        memo[expr] = out
        return out

    @staticmethod
    def coerce(value: object) -> SparsePolynomial | None:
        """value as a SparsePolynomial when it is one or an exact rational, else None."""
        if isinstance(value, SparsePolynomial):
            return value
        c = _rational(value)
        if c is None:
            return None
        return SparsePolynomial({(): c} if c else {})

    def __add__(self, other: object) -> SparsePolynomial:
        o = self.coerce(other)
        if o is None:
            return NotImplemented
        terms = dict(self.terms)
        for m, c in o.terms.items():
            total = terms.get(m, 0) + c
            if total:
                terms[m] = _integral(total)
            else:
                terms.pop(m, None)
        return SparsePolynomial(terms)

    __radd__ = __add__

    def __neg__(self) -> SparsePolynomial:
        return SparsePolynomial({m: -c for m, c in self.terms.items()})

    def __sub__(self, other: object) -> SparsePolynomial:
        o = self.coerce(other)
        if o is None:
            return NotImplemented
        return self + (-o)

    def __rsub__(self, other: object) -> SparsePolynomial:
        o = self.coerce(other)
        if o is None:
            return NotImplemented
        return o + (-self)

    def __mul__(self, other: object) -> SparsePolynomial:
        o = self.coerce(other)
        if o is None:
            return NotImplemented
        terms: dict[Monomial, Coefficient] = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in o.terms.items():
                m = _times(m1, m2)
                total = terms.get(m, 0) + c1 * c2
                if total:
                    terms[m] = _integral(total)
                else:
                    terms.pop(m, None)
        return SparsePolynomial(terms)

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> SparsePolynomial:
        """Division by a non-zero rational only (1/d); by a polynomial is a TypeError."""
        c = _rational(other)
        if c is None or c == 0:
            return NotImplemented
        return SparsePolynomial({m: _integral(Fraction(v) / c) for m, v in self.terms.items()})

    def __pow__(self, power: int) -> SparsePolynomial:
        if not isinstance(power, int) or power < 0:
            return NotImplemented
        out = SparsePolynomial({(): 1})
        for _ in range(power):
            out = out * self
        return out

    def __eq__(self, other: object) -> bool:
        o = self.coerce(other)
        return o is not None and self.terms == o.terms

    def __bool__(self) -> bool:
        return bool(self.terms)

    def __repr__(self) -> str:
        return f"SparsePolynomial({self.terms!r})"

    def integral(self) -> tuple[int, SparsePolynomial]:
        """(L, L * self) with L the least common denominator: integer coefficients."""
        L = lcm(*(c.denominator for c in self.terms.values() if c.__class__ is Fraction))
        return L, (self * L if L != 1 else self)

    def degree(self, index: int) -> int:
        """The highest power of variable `index`."""
        return max((dict(m).get(index, 0) for m in self.terms), default=0)

    def substitute(self, index: int, value: SparsePolynomial) -> SparsePolynomial:
        """self with variable `index` replaced by `value`."""
        powers: dict[int, SparsePolynomial] = {0: SparsePolynomial({(): 1})}
        out = SparsePolynomial()
        for m, c in self.terms.items():
            e = dict(m).get(index, 0)
            if e not in powers:
                powers[e] = value**e
            rest = tuple((v, p) for v, p in m if v != index)
            out = out + SparsePolynomial({rest: c}) * powers[e]
        return out

    def to_expr(self, names: Sequence[Expr]) -> Expr:
        """The polynomial as a SymPy expression, variable v written names[v]."""
        return Add(*(
            Rational(c.numerator, c.denominator) * Mul(*(names[v] ** e for v, e in m))
            for m, c in self.terms.items()
        ))


class EntryPattern:
    """A formula for the (i, j) entry of a matrix, polynomial over Q in the entries
    x_i, x_j of a vector, KroneckerDelta(i, j) and some further variables, written out
    at explicit positions: pattern(a, b) is a SparsePolynomial with x_a as variable a.

    >>> from sympy import KroneckerDelta, symbols
    >>> i, j = symbols("i j", integer=True)
    >>> s_i, s_j = symbols("s_i s_j")
    >>> pattern = EntryPattern(s_i * (KroneckerDelta(i, j) - s_j), s_i, s_j, KroneckerDelta(i, j))
    >>> pattern(0, 0).to_expr(symbols("s:2")), pattern(0, 1).to_expr(symbols("s:2"))
    (-s0**2 + s0, -s0*s1)
    """

    def __init__(
        self, expr: Expr, at_i: Symbol, at_j: Symbol, delta: Expr,
        further: dict[Symbol, int] | None = None,
    ) -> None:
        further = further or {}
        marker = Dummy("delta")
        poly = Poly(expand(expr.xreplace({delta: marker})), at_i, at_j, marker, *further,
                    domain="QQ")
        numbers = list(further.values())
        self.terms = [
            (_integral(Fraction(int(c.numerator), int(c.denominator))), p, q, e,
             {v: k for v, k in zip(numbers, rest, strict=True) if k})
            for (p, q, e, *rest), c in poly.terms()
        ]

    def __call__(self, a: int, b: int) -> SparsePolynomial:
        terms: dict[Monomial, Coefficient] = {}
        for c, p, q, e, rest in self.terms:
            if e and a != b:
                continue
            powers = dict(rest)
            if p:
                powers[a] = p
            if q:
                powers[b] = powers.get(b, 0) + q
            m = tuple(sorted(powers.items()))
            total = terms.get(m, 0) + c
            if total:
                terms[m] = _integral(total)
            else:
                terms.pop(m, None)
        return SparsePolynomial(terms)


class SimplexQuotient:
    """Polynomials in p_0..p_{n-1} restricted to the open simplex (p > 0, sum p = 1).

    That set is dense in the hyperplane sum p = 1, whose ideal is generated by
    sum p - 1: f vanishes on the simplex exactly when f with p_{n-1} replaced by
    1 - p_0 - ... - p_{n-2} is the zero polynomial (`reduce`).

    >>> p = [SparsePolynomial.variable(v) for v in range(3)]
    >>> SimplexQuotient(3).is_zero((p[0] + p[1] + p[2]) * p[0] - p[0])
    True
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.last = 1 - sum((SparsePolynomial.variable(v) for v in range(n - 1)),
                            SparsePolynomial())

    def reduce(self, f: SparsePolynomial) -> SparsePolynomial:
        return f.substitute(self.n - 1, self.last)

    def is_zero(self, f: SparsePolynomial) -> bool:
        return not f or not self.reduce(f)


class SphereQuotient:
    """Polynomials in y_0..y_{d-1}, s and u restricted to the LayerNorm outputs:
    sum y = 0, sum y^2 = d, s u = 1 (s = sigma > 0).

    The ideal of these relations has the Groebner basis (lex, y_0 > y_1 > ... > s > u)
    sum y, 2 y_1^2 + 2 y_1 A + B and s u - 1, with A = y_2 + ... + y_{d-1} and
    B = A^2 + y_2^2 + ... + y_{d-1}^2 - d (sum y^2 - d after y_0 = -y_1 - A): the leading
    terms y_0, y_1^2 and s u are pairwise coprime. `reduce` gives the normal form, zero
    exactly on the ideal; the ideal is that of all (LN(x), sigma(x)) (for d >= 3 a real
    sphere of dimension d - 2, times s > 0, dense in its complex variety; for d = 2 the
    two points +-(1, -1)), so f vanishes on every output exactly when it reduces to 0.

    >>> y = [SparsePolynomial.variable(v) for v in range(3)]
    >>> SphereQuotient(3).is_zero(y[0] ** 2 + y[1] ** 2 + y[2] ** 2 - 3)
    True
    """

    def __init__(self, d: int) -> None:
        self.d, self.s, self.u = d, d, d + 1  # variable numbers of y_0..y_{d-1}, s, u
        y = [SparsePolynomial.variable(v) for v in range(d)]
        A = sum(y[2:], SparsePolynomial())
        B = A * A + sum((t * t for t in y[2:]), SparsePolynomial()) - d
        self.first = -(y[1] + A)  # y_0 modulo the basis
        self.twice_square = -2 * y[1] * A - B  # 2 y_1^2 modulo the basis

    def _cancel_s_u(self, f: SparsePolynomial) -> SparsePolynomial:
        terms: dict[Monomial, Coefficient] = {}
        for m, c in f.terms.items():
            powers = dict(m)
            k = min(powers.get(self.s, 0), powers.get(self.u, 0))
            if k:
                powers[self.s] -= k
                powers[self.u] -= k
                m = tuple(sorted((v, e) for v, e in powers.items() if e))
            total = terms.get(m, 0) + c
            if total:
                terms[m] = total
            else:
                terms.pop(m, None)
        return SparsePolynomial(terms)

    def reduce(self, f: SparsePolynomial) -> SparsePolynomial:
        """The normal form of f, computed on integer coefficients: f is first scaled by
        its common denominator, and each y_1^2 replaced through 2 f = 2 low + high 2 y_1^2."""
        scale, f = f.integral()
        f = self._cancel_s_u(f).substitute(0, self.first)
        while f.degree(1) >= 2:
            low, high = SparsePolynomial(), SparsePolynomial()
            for m, c in f.terms.items():
                powers = dict(m)
                if powers.get(1, 0) >= 2:
                    powers[1] -= 2
                    high.terms[tuple(sorted((v, e) for v, e in powers.items() if e))] = c
                else:
                    low.terms[m] = 2 * c
            f = low + high * self.twice_square
            scale *= 2
        return f / scale if scale != 1 else f

    def is_zero(self, f: SparsePolynomial) -> bool:
        return not f or not self.reduce(f)


def _has_functions(expr: Expr) -> bool:
    """Whether expr holds function applications (exp, erf, Sum, ...), not only +, *, **."""
    return bool(expr.atoms(Function, Sum))


def _is_zero_scalar(expr: Expr) -> bool:
    expr = sympify(expr)
    if expr == 0:
        return True
    reduced, relations = _radicals_to_symbols(expr)
    numerator = expand(together(reduced).as_numer_denom()[0])
    if relations:
        numerator = _reduce_powers(numerator, relations)
    if numerator == 0:
        return True
    if not _has_functions(numerator):
        return False  # a non-zero polynomial in symbols and radicals
    return simplify(numerator) == 0


def is_zero(expr: Expr | MatrixBase) -> bool:
    """True when `expr` (a scalar or every entry of a matrix) is proved to be zero.

    >>> x = Symbol("x", real=True)
    >>> is_zero(sqrt(x**2 + 1) ** 3 - (x**2 + 1) * sqrt(x**2 + 1)), is_zero(x - 1)
    (True, False)
    """
    if isinstance(expr, MatrixBase):
        return all(_is_zero_scalar(e) for e in expr)
    return _is_zero_scalar(expr)


def is_nonzero(expr: Expr) -> bool:
    """True when expr, a number without free symbols, is proved non-zero: a non-zero
    rational, or an algebraic number whose minimal polynomial over Q is not x. Anything
    else (a symbol left, a transcendental number) is not proved non-zero.

    >>> is_nonzero(sqrt(3) - sqrt(2)), is_nonzero(sqrt(8) - 2 * sqrt(2))
    (True, False)
    """
    from sympy import minimal_polynomial
    from sympy.polys.polyerrors import NotAlgebraic

    expr = sympify(expr)
    if expr.free_symbols:
        return False
    if expr.is_Rational:
        return expr != 0
    x = Dummy("x")
    try:
        return minimal_polynomial(expr, x) != x
    except NotAlgebraic:
        return False


def equal(a: Expr | MatrixBase, b: Expr | MatrixBase) -> bool:
    """True when a - b is proved to be zero (shapes must agree for matrices).

    >>> x = Symbol("x")
    >>> equal((x + 1) ** 2, x**2 + 2 * x + 1)
    True
    """
    if isinstance(a, MatrixBase) or isinstance(b, MatrixBase):
        if not (isinstance(a, MatrixBase) and isinstance(b, MatrixBase)):
            raise TypeError(
                f"equal: a and b must both be matrices or both scalars, "
                f"got {type(a).__name__} and {type(b).__name__}"
            )
        if a.shape != b.shape:
            return False
    return is_zero(a - b)


# a part of a Derivation: built now, or by a callable when first read
Part: TypeAlias = "Expr | MatrixBase | Callable[[], Expr | MatrixBase]"


class Derivation:
    """A derived result beside the stated one, their difference, and the verdict.

    `derived`, `stated` and `difference` may be given as zero-argument callables
    when building them as SymPy objects is costly (a 16 x 16 Jacobian); they are
    then built on first access.

    >>> Derivation("zero", lambda: S.Zero, S.Zero, S.Zero, True).derived
    0
    """

    __slots__ = ("name", "holds", "_parts")

    def __init__(
        self, name: str, derived: Part, stated: Part, difference: Part, holds: bool
    ) -> None:
        self.name, self.holds = name, bool(holds)
        self._parts = {"derived": derived, "stated": stated, "difference": difference}

    def _part(self, key: str) -> Expr | MatrixBase:
        value = self._parts[key]
        if callable(value) and not isinstance(value, Basic | MatrixBase):
            value = self._parts[key] = value()
        return value

    @property
    def derived(self) -> Expr | MatrixBase:
        return self._part("derived")

    @property
    def stated(self) -> Expr | MatrixBase:
        return self._part("stated")

    @property
    def difference(self) -> Expr | MatrixBase:
        return self._part("difference")

    def __repr__(self) -> str:
        return f"Derivation({self.name!r}, holds={self.holds})"


def compare(name: str, derived: Expr | MatrixBase, stated: Expr | MatrixBase) -> Derivation:
    """Derivation of `name`: derived - stated, judged by `is_zero`.

    >>> x = Symbol("x")
    >>> compare("square", (x + 1) ** 2, x**2 + 1).difference.expand()
    2*x
    """
    if isinstance(derived, MatrixBase) and isinstance(stated, MatrixBase):
        if derived.shape != stated.shape:
            return Derivation(name, derived, stated, derived, False)
    difference = derived - stated
    return Derivation(name, derived, stated, difference, is_zero(difference))


def manifestly_nonnegative(expr: Expr, atoms: Iterable[Expr] = ()) -> bool:
    """True when expr is a sum of non-negative multiples of products of even powers
    and of `atoms` (expressions known to be >= 0, e.g. probabilities).

    >>> p, x = Symbol("p"), Symbol("x", real=True)
    >>> manifestly_nonnegative(p * (x - 1) ** 2, [p]), manifestly_nonnegative(p * x, [p])
    (True, False)
    """
    atoms = set(atoms)

    def factor_ok(f: Expr) -> bool:
        if f in atoms:
            return True
        if isinstance(f, Number):
            return f >= 0
        if isinstance(f, Pow) and f.exp.is_Integer:
            return int(f.exp) % 2 == 0 or factor_ok(f.base)
        if f.is_nonnegative:
            return True
        if isinstance(f, Add):
            return all(term_ok(t) for t in f.args)
        return False

    def term_ok(t: Expr) -> bool:
        return all(factor_ok(f) for f in Mul.make_args(t))

    return all(term_ok(t) for t in Add.make_args(sympify(expr)))


@dataclass(frozen=True)
class Certificate:
    """expression = certificate (proved), and certificate >= 0 term by term.

    >>> x = Symbol("x", real=True)
    >>> square, slack = (x - 1) ** 2, x**2 - 2 * x + 1
    >>> Certificate("x^2 - 2x + 1 >= 0", slack, square, slack - square, ()).holds
    True
    """

    claim: str
    expression: Expr
    certificate: Expr
    difference: Expr
    atoms: tuple[Expr, ...]

    @property
    def identity_holds(self) -> bool:
        return is_zero(self.difference)

    @property
    def nonnegative(self) -> bool:
        return manifestly_nonnegative(self.certificate, self.atoms)

    @property
    def holds(self) -> bool:
        return self.nonnegative and self.identity_holds


POLYA_ROUNDS = 4
"""simplex_certificate multiplies by (sum of the variables)^N for N up to this."""


def simplex_certificate(claim: str, slack: Expr, variables: Sequence[Symbol]) -> Certificate:
    """A certificate that slack >= 0 where the variables are >= 0 and sum to 1.

    slack, a polynomial in the variables, equals on that simplex its homogenisation
    (each term of degree e times (sum of the variables)^(D - e), D the degree), times
    (sum)^N for the first N <= POLYA_ROUNDS whose expansion has only non-negative
    coefficients (Polya's theorem: N exists when slack > 0 on the simplex). The
    Certificate holds when that expansion is manifestly non-negative and slack minus
    it vanishes once the last variable is replaced by 1 minus the others. A slack that
    is not a polynomial in the variables alone is its own certificate.

    >>> from sympy import symbols
    >>> p, r = symbols("p r", nonnegative=True)
    >>> c = simplex_certificate("1 - p - p(1 - p) >= 0", 1 - p - p * (1 - p), (p, r))
    >>> c.certificate, c.holds
    (r**2, True)
    >>> simplex_certificate("1/2 - p >= 0", Rational(1, 2) - p, (p, r)).holds
    False
    """
    variables = tuple(variables)
    slack = sympify(slack)
    total = Add(*variables)
    certificate = slack
    if slack.free_symbols <= set(variables) and slack.is_polynomial(*variables):
        poly = Poly(slack, *variables)
        top = poly.total_degree()
        homogeneous = Add(
            *(c * Mul(*(v**e for v, e in zip(variables, m, strict=True))) * total ** (top - sum(m))
              for m, c in poly.terms())
        )
        certificate = expand(homogeneous)  # shown when no round gives a certificate
        for rounds in range(POLYA_ROUNDS + 1):
            candidate = expand(homogeneous * total**rounds)
            if manifestly_nonnegative(candidate, variables):
                certificate = candidate
                break
    last = {variables[-1]: 1 - Add(*variables[:-1])}
    difference = expand((slack - certificate).xreplace(last))
    return Certificate(claim, slack, certificate, difference, variables)


# ------------------------------------------------ sums over a symbolic range


def indices_in_range(expr: Expr, indices: tuple[Symbol, ...], upper: Symbol) -> Expr:
    """Resolve Piecewise conditions 1 <= i <= upper to True for the given indices: the
    first piece whose condition becomes True is taken, provided every piece before it
    is decided False; a condition left undecided leaves the Piecewise as it is.

    >>> from sympy import Piecewise, symbols
    >>> i, n = symbols("i n", integer=True, positive=True)
    >>> indices_in_range(Piecewise((1, i <= n), (0, True)), (i,), n)
    1
    """

    def resolve(pw: Piecewise) -> Expr:
        facts = {}
        for i in indices:
            facts.update({i <= upper: True, upper >= i: True, i >= 1: True})  # 1 <= i is i >= 1
        for value, cond in pw.args:
            decided = cond.xreplace(facts)
            if decided == True:  # noqa: E712 (a SymPy boolean)
                return value
            if decided != False:  # noqa: E712 undecided: a later piece may not be taken
                return pw
        return pw

    return expr.replace(lambda e: isinstance(e, Piecewise), resolve)


def collapse_deltas(expr: Expr) -> Expr:
    """delta_ij f(i, j) = delta_ij f(i, i): in each term, for each KroneckerDelta(a, b)
    in turn, replace one of its arguments by the other everywhere else in the term
    (a symbol by a number when one side is a number).

    >>> from sympy import KroneckerDelta, symbols
    >>> i, j = symbols("i j", integer=True)
    >>> collapse_deltas(KroneckerDelta(i, j) * (i - j))
    0
    """
    out = S.Zero
    for term in Add.make_args(expand(expr)):
        kept = S.One
        while deltas := [f for f in Mul.make_args(term) if isinstance(f, KroneckerDelta)]:
            delta = deltas[0]
            a, b = delta.args
            if b.is_Number:
                a, b = b, a
            term = (term / delta).xreplace({b: a})
            kept *= delta
        out += kept * term
    return expand(out)


EXPLICIT_TERMS_LIMIT = 64
"""At most this many terms of a sum are written out one by one (end terms split off a
sum over 1..n, or a whole sum between two integers); a longer stretch stays unnamed."""

_BOUND: list[Dummy] = []  # the bound index of a normalised sum holding `level` nested sums
_NAMES: dict[Expr, Dummy] = {}  # a normalised sum -> the symbol that stands for it


def _bound_index(level: int) -> Dummy:
    while len(_BOUND) <= level:
        _BOUND.append(Dummy(f"k{len(_BOUND) + 1}", integer=True))
    return _BOUND[level]


def _nesting(expr: Expr) -> int:
    """How many normalised sums are nested in expr (the level its own index takes)."""
    return max(
        (_BOUND.index(v) + 1 for s in expr.atoms(Sum) for v in s.variables if v in _BOUND),
        default=0,
    )


def _name(total: Sum) -> Dummy:
    """The symbol standing for a normalised sum: the same sum, the same symbol."""
    if total not in _NAMES:
        _NAMES[total] = Dummy(f"[{total}]")
    return _NAMES[total]


class _SumNormaliser:
    """Rewrites sums into a normal form in which only sums over 1..n remain, each over
    a single product with a canonical bound index (so sums differing only in the name
    of the index coincide). Every step is an identity of SymPy's Sum, whose sums between
    a and b < a - 1 follow Karr's convention (sum_a^b = -sum_{b+1}^{a-1}), so it holds
    for every integer n: splitting a range, shifting the index, evaluating a delta."""

    def __init__(self, n: Symbol, facts: dict, indices: tuple) -> None:
        self.n, self.indices = n, tuple(indices)
        self.facts = {}
        for key, value in facts.items():
            if not (isinstance(key, Sum) and len(key.limits) == 1 and key.limits[0][1:] == (1, n)):
                raise ValueError(f"normalise_sums: a fact must be a sum over 1..{n}, got {key}")
            (index, _, _), body = key.limits[0], key.function
            self.facts[self._canonical(expand(body), index, 1, n)] = value

    @staticmethod
    def _canonical(body: Expr, index: Symbol, low: Expr, high: Expr) -> Sum:
        bound = _bound_index(_nesting(body))
        return Sum(body.xreplace({index: bound}), (bound, low, high))

    def walk(self, e: Expr) -> Expr:
        if isinstance(e, Sum):
            body = self.walk(e.function)
            for index, low, high in e.limits:  # innermost first
                body = self.over_range(body, index, low, high)
            return body
        if e.args:
            return e.func(*(self.walk(a) for a in e.args))
        return e

    def _end(self, bound: Expr) -> tuple[bool, int] | None:
        """(True, c) for bound = n + c, (False, c) for bound = c (c an integer, |c| within
        EXPLICIT_TERMS_LIMIT), None otherwise."""
        bound = sympify(bound)
        for relative, c in ((True, bound - self.n), (False, bound)):
            if c.is_Integer and abs(int(c)) <= EXPLICIT_TERMS_LIMIT:
                return relative, int(c)
        return None

    def over_range(self, body: Expr, index: Symbol, low: Expr, high: Expr) -> Expr:
        """sum_{index=low}^{high} body = G(high) - G(low - 1), G(t) = sum_{index=1}^{t} body;
        G(n + c) is the sum over 1..n with c end terms added (or removed), G(c) is written
        out. Other limits (another variable, an index of an outer sum) leave the sum as
        it is, with its index renamed: it then equals only itself."""
        if not body.has(index):
            return body * (high - low + 1)
        top, bottom = self._end(high), self._end(low - 1)
        if top is None or bottom is None:
            return self._canonical(body, index, low, high)
        base = self.over_one_to_n(body, index) if top[0] or bottom[0] else S.Zero

        def partial(relative: bool, c: int) -> Expr:
            origin = self.n if relative else S.Zero
            whole = base if relative else S.Zero
            if c >= 0:
                return whole + Add(*(body.xreplace({index: origin + s}) for s in range(1, c + 1)))
            return whole - Add(*(body.xreplace({index: origin + s}) for s in range(c + 1, 1)))

        return partial(*top) - partial(*bottom)

    def _shift(self, body: Expr, index: Symbol) -> int:
        """t when every subscript holding the index is index + t (one integer t), else 0."""
        offsets = {
            a - index
            for indexed in body.atoms(Indexed)
            for a in indexed.indices
            if a.has(index)
        }
        if len(offsets) == 1:
            (t,) = offsets
            if t.is_Integer and abs(int(t)) <= EXPLICIT_TERMS_LIMIT:
                return int(t)
        return 0

    def over_one_to_n(self, body: Expr, index: Symbol) -> Expr:
        """sum_{index=1}^{n} body: shifted so that subscripts read index, split over +,
        factors free of the index pulled out, delta-sums evaluated, facts applied."""
        t = self._shift(body, index)
        if t:  # sum_1^n f(k + t) = sum_{1+t}^{n+t} f(k)
            return self.over_range(body.xreplace({index: index - t}), index, 1 + t, self.n + t)
        out = S.Zero
        for term in Add.make_args(expand(body)):
            free: list[Expr] = []
            bound: list[Expr] = []
            for f in Mul.make_args(term):
                (bound if f.has(index) else free).append(f)
            if not bound:
                out += Mul(*free) * self.n
                continue
            inner = Mul(*bound)
            value = self._delta_sum(inner, index) if inner.has(KroneckerDelta) else None
            if value is None:
                key = self._canonical(inner, index, 1, self.n)
                value = self.facts.get(key, key)
            out += Mul(*free) * value
        return out

    def _delta_sum(self, inner: Expr, index: Symbol) -> Expr | None:
        """sum_{index=1}^{n} inner evaluated through its KroneckerDelta, the free indices
        taken in 1..n; None when a condition or the sum itself remains."""
        from sympy.concrete.delta import deltasummation

        value = indices_in_range(deltasummation(inner, (index, 1, self.n)), self.indices, self.n)
        if value.has(Piecewise) or value.has(index):
            return None
        return value


def normalise_sums(expr: Expr, n: Symbol, facts: dict, indices: tuple) -> Expr:
    """Rewrite the sums in expr into symbols, exactly: a sum between limits of the form
    c or n + c (c an integer) becomes sums over 1..n plus end terms written out; a
    subscript index + t is shifted back to index; sums are split over + and factors free
    of the index pulled out; sums holding a KroneckerDelta are evaluated (the free
    `indices` taken in 1..n); what is left is a sum over one product, named after its
    index is renamed (so sum_j sigma_j v_j and sum_i sigma_i v_i coincide), and `facts`
    (sum over 1..n -> value, e.g. sum_k sigma_k -> 1) are applied. A sum between other
    limits (1..m, 1..i) is only renamed: it equals itself and nothing else. The result
    is zero only when expr is zero for every integer n (sums as SymPy defines them).

    >>> from sympy import IndexedBase, Sum, symbols
    >>> k, n = symbols("k n", integer=True, positive=True)
    >>> v = IndexedBase("v")
    >>> normalise_sums(Sum(v[k], (k, 2, n)) + v[1] - Sum(v[k], (k, 1, n)), n, {}, ())
    0
    >>> normalise_sums(Sum(v[k + 1], (k, 0, n - 1)) - Sum(v[k], (k, 1, n)), n, {}, ())
    0
    >>> normalise_sums(Sum(v[k], (k, 1, n - 1)) - Sum(v[k], (k, 1, n)), n, {}, ())
    -v[n]
    """
    normaliser = _SumNormaliser(n, facts, indices)
    out = collapse_deltas(normaliser.walk(sympify(expr)))
    return out.xreplace({s: _name(s) for s in out.atoms(Sum)})
