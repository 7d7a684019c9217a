"""GELU(t) = t Phi(t) and its first two derivatives (命題 8.1 (2) of the block chapter)."""

from __future__ import annotations

from collections.abc import Callable

from sympy import Expr, Symbol, diff, erf, exp, pi, solve, sqrt

t = Symbol("t", real=True)


def Phi(x: Expr) -> Expr:
    """The standard normal distribution function.

    >>> Phi(0)
    1/2
    """
    return (1 + erf(x / sqrt(2))) / 2


def phi(x: Expr) -> Expr:
    """The standard normal density.

    >>> phi(0)
    sqrt(2)/(2*sqrt(pi))
    """
    return exp(-(x**2) / 2) / sqrt(2 * pi)


def gelu(x: Expr) -> Expr:
    """GELU(x) = x Phi(x).

    >>> gelu(0), gelu(t).diff(t).subs(t, 0)
    (0, 1/2)
    """
    return x * Phi(x)


def derivatives() -> tuple[Expr, Expr]:
    """(GELU', GELU''), differentiated from x Phi(x).

    >>> [d.subs(t, 0) for d in derivatives()]
    [1/2, sqrt(2)/sqrt(pi)]
    """
    first = diff(gelu(t), t)
    return first, diff(first, t)


def chapter_first(x: Expr) -> Expr:
    """The chapter's GELU'(t) = Phi(t) + t phi(t).

    >>> chapter_first(0)
    1/2
    """
    return Phi(x) + x * phi(x)


def chapter_second(x: Expr) -> Expr:
    """The chapter's GELU''(t) = (2 - t^2) phi(t).

    >>> chapter_second(0)
    sqrt(2)/sqrt(pi)
    """
    return (2 - x**2) * phi(x)


def second_derivative_zeros(second: Callable[[Expr], Expr] = chapter_second) -> set:
    """The real zeros of second(t), solved (phi > 0, so those of its polynomial factor).

    >>> sorted(second_derivative_zeros())
    [-sqrt(2), sqrt(2)]
    """
    return set(solve(second(t) / phi(t), t))
