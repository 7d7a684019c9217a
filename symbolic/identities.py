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

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from sympy import (
    Add,
    Basic,
    Dummy,
    Expr,
    Function,
    MatrixBase,
    Mul,
    Number,
    Pow,
    Rational,
    S,
    Sum,
    Symbol,
    expand,
    simplify,
    sympify,
    together,
)


@lru_cache(maxsize=4096)
def _expanded(base: Expr) -> Expr:
    return expand(base)


def _radicals_to_symbols(
    expr: Basic, roots: dict[Expr, Symbol] | None = None
) -> tuple[Basic, dict[Symbol, Expr]]:
    """Replace every b**(p/2) by r**p with r**2 = b (b a polynomial or a rational
    number); return the expression and the relations r -> b. `roots` (base -> r) is
    extended in place when given, so several expressions can share their radicals."""
    roots = {} if roots is None else roots
    replacements = {}
    for p in expr.atoms(Pow):
        if p.exp.is_Rational and p.exp.q == 2:
            base = _expanded(p.base)
            if base not in roots:
                roots[base] = Dummy("r", positive=True)
            replacements[p] = roots[base] ** int(p.exp * 2)
    reduced = expr.xreplace(replacements) if replacements else expr
    return reduced, {r: b for b, r in roots.items()}


def _reduce_powers(poly: Expr, relations: dict[Symbol, Expr]) -> Expr:
    """Rewrite r**k as b**(k // 2) * r**(k % 2) for every relation r**2 = b."""
    for _ in range(4):  # relations whose bases hold other radicals need a few rounds
        changed = False
        replacements = {}
        for p in poly.atoms(Pow):
            if p.base in relations and p.exp.is_Integer and abs(p.exp) >= 2:
                k = int(p.exp)
                replacements[p] = relations[p.base] ** (k // 2) * p.base ** (k % 2)
        if replacements:
            poly = expand(poly.xreplace(replacements))
            changed = True
        if not changed:
            break
    return poly


class RadicalField:
    """Expressions polynomial in some variables, in square roots r = sqrt(b) of
    polynomials b, and in their inverses u = 1/r: exact arithmetic, differentiation
    by the chain rule, and a zero test.

    Elements are sparse polynomials over QQ in the variables, r and u (no
    fractions, so no gcd computations). Derivatives use dr/dx = (db/dx) u / 2 and
    du/dx = -(db/dx) u^3 / 2. An element is zero when, multiplied by r^N to clear u
    (r u = 1), its r-powers reduced by r^2 = b, it is the zero polynomial. This is
    what makes a 16 x 16 LayerNorm Jacobian a matter of a second.
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

    def root(self, radical: Expr) -> Symbol:
        """The generator r standing for the square root `radical` = sqrt(b)."""
        if not (isinstance(radical, Pow) and radical.exp == S.Half):
            raise ValueError(f"RadicalField.root: expected sqrt(b), got {radical}")
        return self.roots[_expanded(radical.base)]

    def element(self, expr: Expr):
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
                elif _expanded(p.base) in self.roots:
                    swap[p] = self.inverse[self.roots[_expanded(p.base)]] ** (-2 * p.exp)
        return self.ring.from_expr(reduced.xreplace(swap))

    def diff(self, f, x: Symbol):
        """df/dx through the radicals: dr/dx = (db/dx) u / 2, du/dx = -(db/dx) u^3 / 2."""
        out = f.diff(self.gen[x])
        for r, b in self._base.items():
            db = b.diff(self.gen[x])
            if db != 0:
                R, U = self.gen[r], self.gen[self.inverse[r]]
                out += (f.diff(R) * U - f.diff(U) * U**3) * db / 2
        return out

    def reduce(self, f):
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

    def is_zero(self, f) -> bool:
        return self.reduce(f) == 0

    def evaluate(self, expr: Expr, values: dict, inverses: dict | None = None):
        """A small expression in other symbols as a ring element: each symbol s is
        replaced by values[s] and s**-k by inverses[s]**k (rational coefficients)."""
        inverses = inverses or {}
        expr = sympify(expr)
        if expr.is_Rational:
            return self.ring(expr)
        if expr in values:
            return values[expr]
        if expr.is_Symbol and expr in self.gen:
            return self.gen[expr]
        if isinstance(expr, Add):
            return sum((self.evaluate(a, values, inverses) for a in expr.args), self.ring.zero)
        if isinstance(expr, Mul):
            out = self.ring.one
            for a in expr.args:
                out *= self.evaluate(a, values, inverses)
            return out
        if isinstance(expr, Pow) and expr.exp.is_Integer:
            if expr.exp >= 0:
                return self.evaluate(expr.base, values, inverses) ** int(expr.exp)
            if expr.base in inverses:
                return inverses[expr.base] ** int(-expr.exp)
        raise ValueError(f"RadicalField.evaluate: cannot evaluate {expr} in the ring")

    def to_expr(self, f) -> Expr:
        """f as a SymPy expression in the variables, r and u (built term by term)."""
        terms = []
        for monom, coeff in f.terms():
            factors = [Rational(coeff.numerator, coeff.denominator)]
            for symbol, power in zip(self.ring.symbols, monom, strict=True):
                if power:
                    factors.append(symbol**power)
            terms.append(Mul(*factors))
        return Add(*terms)


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
    """True when `expr` (a scalar or every entry of a matrix) is proved to be zero."""
    if isinstance(expr, MatrixBase):
        return all(_is_zero_scalar(e) for e in expr)
    return _is_zero_scalar(expr)


def equal(a: Expr | MatrixBase, b: Expr | MatrixBase) -> bool:
    """True when a - b is proved to be zero (shapes must agree for matrices)."""
    if isinstance(a, MatrixBase) or isinstance(b, MatrixBase):
        if not (isinstance(a, MatrixBase) and isinstance(b, MatrixBase)):
            raise TypeError(
                f"equal: a and b must both be matrices or both scalars, "
                f"got {type(a).__name__} and {type(b).__name__}"
            )
        if a.shape != b.shape:
            return False
    return is_zero(a - b)


@dataclass(frozen=True)
class Derivation:
    """A derived result beside the stated one, and whether their difference is zero."""

    name: str
    derived: Expr | MatrixBase
    stated: Expr | MatrixBase
    difference: Expr | MatrixBase
    holds: bool


def compare(name: str, derived: Expr | MatrixBase, stated: Expr | MatrixBase) -> Derivation:
    """Derivation of `name`: derived - stated, judged by `is_zero`."""
    if isinstance(derived, MatrixBase) and isinstance(stated, MatrixBase):
        if derived.shape != stated.shape:
            return Derivation(name, derived, stated, derived, False)
    difference = derived - stated
    return Derivation(name, derived, stated, difference, is_zero(difference))


def manifestly_nonnegative(expr: Expr, atoms: Iterable[Expr] = ()) -> bool:
    """True when expr is a sum of non-negative multiples of products of even powers
    and of `atoms` (expressions known to be >= 0, e.g. probabilities)."""
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
    """expression = certificate (proved), and certificate >= 0 term by term."""

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
