"""Symbolic identities: whether a SymPy difference is zero, the one place that says so.

(A check's verdict is proofs.book.judge's; a chapter's formula is decided by
proofs.tex.decide, which asks this module.)

Derivations elsewhere return SymPy objects; only this module (and the certificates of
non-negativity built on it, `symbolic.certificates`) says yes or no. `is_zero` answers True
only when it has reduced the expression to the zero polynomial (it never guesses from
sample points): over a common denominator, with square roots of polynomials as symbols r
with r^2 = b (`symbolic.radicals`), a difference A + B r is declared zero only when
A = B = 0. What holds functions (exp, tanh, erf, Sum) is first written in exponentials
over a common denominator, and only if that is not 0 goes on to `simplify`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from sympy import (
    Basic,
    Dummy,
    Expr,
    Function,
    MatrixBase,
    Sum,
    cancel,
    exp,
    expand,
    simplify,
    sympify,
    together,
)

from symbolic.radicals import radical_numerator


def _has_functions(expr: Expr) -> bool:
    """Whether expr holds function applications (exp, erf, Sum, ...), not only +, *, **."""
    return bool(expr.atoms(Function, Sum))


def _is_zero_scalar(expr: Expr) -> bool:
    expr = sympify(expr)
    if expr == 0:
        return True
    numerator = radical_numerator(expr)
    if numerator == 0:
        return True
    if not _has_functions(numerator):
        return False  # a non-zero polynomial in symbols and radicals
    return _exponential_numerator(numerator) == 0 or simplify(numerator) == 0


def _exponential_numerator(expr: Expr) -> Expr:
    """expr with tanh, sinh, cosh (and what else rewrites so) as exponentials, each
    exp(a + b) split into exp(a) exp(b), over a common denominator: a rational function
    of the exponentials, 0 only when expr is (not 0, it proves nothing). tanh(x/2) +
    1/(e^x + 1) - 1/(1 + e^{-x}) is 0 here in milliseconds, where `simplify` spends a
    third of a second and does not find it."""
    rewritten = expand(expr.rewrite(exp), power_exp=True, mul=False, multinomial=False, basic=False)
    return cancel(together(rewritten))


def is_zero(expr: Expr | MatrixBase) -> bool:
    """True when `expr` (a scalar or every entry of a matrix) is proved to be zero.

    >>> from sympy import Symbol, sqrt
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

    >>> from sympy import sqrt
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

    >>> from sympy import Symbol
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

    >>> from sympy import S
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

    >>> from sympy import Symbol
    >>> x = Symbol("x")
    >>> compare("square", (x + 1) ** 2, x**2 + 1).difference.expand()
    2*x
    """
    if isinstance(derived, MatrixBase) and isinstance(stated, MatrixBase):
        if derived.shape != stated.shape:
            return Derivation(name, derived, stated, derived, False)
    difference = derived - stated
    return Derivation(name, derived, stated, difference, is_zero(difference))
