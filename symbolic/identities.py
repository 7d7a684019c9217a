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
    Sum,
    Symbol,
    expand,
    simplify,
    sympify,
    together,
)


def _radicals_to_symbols(expr: Expr) -> tuple[Expr, dict[Symbol, Expr]]:
    """Replace every b**(p/2) (b not a number) by r**p with r**2 = b; return relations."""
    roots: dict[Expr, Symbol] = {}

    def half_powers(e: Basic) -> Iterable[Pow]:
        for p in e.atoms(Pow):
            if p.exp.is_Rational and p.exp.q == 2 and not p.base.is_Number:
                yield p

    replacements = {}
    for p in half_powers(expr):
        base = expand(p.base)
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
