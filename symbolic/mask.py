"""The mask as a limit of additive penalties, and its e^(-c) bound.

m_i = 1 outside U and 0 inside; sigma(z - c m) -> sigma^U(z) as c -> oo, and
for i outside U, sigma(z - c m)_i <= e^(-c) e^(z_i) / sum_{j in U} e^(z_j).
Shown for explicit n and U (symbolic z and c) by SymPy's limit, and the bound by
a certificate: bound - sigma_i is a product of exponentials and reciprocals of
sums of exponentials, hence >= 0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sympy import Expr, Matrix, Symbol, exp, limit, oo, symbols

from cache.remembered import remembered
from symbolic.certificates import Certificate
from symbolic.identities import is_zero
from symbolic.kept import matrix


def _check(n: object, allowed: Iterable[int]) -> tuple[int, frozenset[int]]:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive int, got {n!r}")
    U = frozenset(allowed)
    if not U or not U <= set(range(n)):
        raise ValueError(f"allowed must be a non-empty subset of 0..{n - 1}, got {sorted(U)}")
    return n, U


def logits(n: int) -> Matrix:
    """z_1..z_n as a column of real symbols.

    >>> list(logits(2))
    [z_1, z_2]
    """
    return Matrix(symbols(f"z_1:{n + 1}", real=True))


def masked_softmax(z: Matrix, allowed: Iterable[int]) -> Matrix:
    """sigma^U(z): e^(z_i) / sum_{j in U} e^(z_j) on U, 0 outside (定義 2.2).

    >>> list(masked_softmax(Matrix([0, 0, 5]), [0, 1]))
    [1/2, 1/2, 0]
    """
    _, U = _check(z.rows, allowed)
    total = sum(exp(z[j]) for j in U)
    return Matrix([exp(z[i]) / total if i in U else 0 for i in range(z.rows)])


def shifted_softmax(z: Matrix, allowed: Iterable[int], c: Symbol) -> Matrix:
    """sigma(z - c m) with m_i = 1 outside U.

    >>> list(shifted_softmax(Matrix([0, 0]), [0], 0))
    [1/2, 1/2]
    """
    _, U = _check(z.rows, allowed)
    e = Matrix([exp(z[i] - (0 if i in U else c)) for i in range(z.rows)])
    return e / sum(e)


@dataclass(frozen=True)
class MaskLimit:
    """lim_{c -> oo} sigma(z - c m) beside sigma^U(z), and whether they are equal.

    >>> mask_limit(2, [0]).limit[1]
    0
    """

    limit: Matrix  # lim_{c -> oo} sigma(z - c m), by SymPy
    masked: Matrix  # sigma^U(z)
    holds: bool


def mask_limit(
    n: int,
    allowed: Iterable[int],
    target: Callable[[Matrix, Iterable[int]], Matrix] = masked_softmax,
) -> MaskLimit:
    """The limit, compared with target(z, allowed) (the chapter's sigma^U by default).

    >>> mask_limit(2, [0]).holds
    True
    """
    n, U = _check(n, allowed)
    z, c = logits(n), Symbol("c", positive=True)
    lim = remembered(  # the costly part, which the target does not enter
        "mask_limit",
        f"{n} {sorted(U)}",
        lambda: shifted_softmax(z, U, c).applyfunc(lambda e: limit(e, c, oo)),
        matrix(n, 1),
    )
    stated = target(z, U)
    return MaskLimit(lim, stated, is_zero(lim - stated))


def chapter_bound(z: Matrix, allowed: frozenset[int], i: int, c: Symbol) -> Expr:
    """The chapter's bound e^(-c) e^(z_i) / sum_{j in U} e^(z_j).

    >>> chapter_bound(Matrix([0, 0]), frozenset({0}), 1, Symbol("c"))
    exp(-c)
    """
    return exp(-c) * exp(z[i]) / sum(exp(z[j]) for j in allowed)


def mask_bound(
    n: int,
    allowed: Iterable[int],
    i: int,
    bound: Callable[[Matrix, frozenset[int], int, Symbol], Expr] = chapter_bound,
) -> Certificate:
    """bound - sigma(z - c m)_i for masked i, with the certificate that it is >= 0:
    e^(z_i - c) (sum of the masked e^(z_j - c)) / (S_U (S_U + masked sum)).

    >>> mask_bound(2, [0], 1).holds
    True
    """
    n, U = _check(n, allowed)
    if i in U or not 0 <= i < n:
        raise ValueError(f"i must be a masked position (outside U = {sorted(U)}), got {i}")
    z, c = logits(n), Symbol("c", positive=True)
    sigma = shifted_softmax(z, U, c)
    inside = sum(exp(z[j]) for j in U)
    outside = sum(exp(z[j] - c) for j in range(n) if j not in U)
    stated = bound(z, U, i, c)
    # bound - sigma_i = e^(z_i - c) * outside / (inside * (inside + outside))
    certificate = exp(z[i] - c) * outside / (inside * (inside + outside))
    slack = stated - sigma[i]
    return Certificate(
        f"sigma_{i + 1} <= e^(-c) e^(z_{i + 1}) / sum_U e^z",
        slack,
        certificate,
        slack - certificate,
        (),
    )
