"""Exact polynomials over Q at explicit sizes: `SparsePolynomial`, and `EntryPattern`, an
(i, j) entry formula written out at explicit positions as one.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm

from sympy import Add, Dummy, Expr, Mul, Poly, Pow, Rational, Symbol, expand

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
        return Add(
            *(
                Rational(c.numerator, c.denominator) * Mul(*(names[v] ** e for v, e in m))
                for m, c in self.terms.items()
            )
        )


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
        self,
        expr: Expr,
        at_i: Symbol,
        at_j: Symbol,
        delta: Expr,
        further: dict[Symbol, int] | None = None,
    ) -> None:
        further = further or {}
        marker = Dummy("delta")
        poly = Poly(
            expand(expr.xreplace({delta: marker})), at_i, at_j, marker, *further, domain="QQ"
        )
        numbers = list(further.values())
        self.terms = [
            (
                _integral(Fraction(int(c.numerator), int(c.denominator))),
                p,
                q,
                e,
                {v: k for v, k in zip(numbers, rest, strict=True) if k},
            )
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
