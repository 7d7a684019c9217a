"""GELU(t) = t Phi(t) and its first two derivatives (命題 8.1 (2) of the block chapter)."""

from __future__ import annotations

from collections.abc import Callable

from sympy import Expr, Symbol, diff, erf, exp, pi, solve, sqrt

t = Symbol("t", real=True)


def Phi(x: Expr) -> Expr:
    """The standard normal distribution function."""
    return (1 + erf(x / sqrt(2))) / 2


def phi(x: Expr) -> Expr:
    """The standard normal density."""
    return exp(-(x**2) / 2) / sqrt(2 * pi)


def gelu(x: Expr) -> Expr:
    """GELU(x) = x Phi(x)."""
    return x * Phi(x)


def derivatives() -> tuple[Expr, Expr]:
    """(GELU', GELU''), differentiated from x Phi(x)."""
    first = diff(gelu(t), t)
    return first, diff(first, t)


def chapter_first(x: Expr) -> Expr:
    """The chapter's GELU'(t) = Phi(t) + t phi(t)."""
    return Phi(x) + x * phi(x)


def chapter_second(x: Expr) -> Expr:
    """The chapter's GELU''(t) = (2 - t^2) phi(t)."""
    return (2 - x**2) * phi(x)


def second_derivative_zeros(second: Callable[[Expr], Expr] = chapter_second) -> set:
    """The real zeros of second(t), solved (phi > 0, so those of its polynomial factor)."""
    return set(solve(second(t) / phi(t), t))
