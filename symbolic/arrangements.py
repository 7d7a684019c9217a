"""Exact counting of the activation regions of a ReLU layer (命題 8.1［Transformer ブロック］).

The m hyperplanes a_k(x) = <w_k, x> + b_k = 0 cut R^d into regions on which the
activation pattern s = 1[a(x) > 0] is constant. Which patterns occur is decided
exactly, over the rationals (Fourier-Motzkin elimination), general position by
exact ranks, and the count for hyperplanes in general position is sum_{i<=d} C(m, i).
Plain Python fractions: no floating point anywhere.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

Inequality = tuple[tuple[Fraction, ...], Fraction, bool]  # (w, c, strict): w.x + c > 0 or >= 0
Rows = Sequence[Sequence[int | Fraction]]  # the m normals w_k, each of d numbers
Offsets = Sequence[int | Fraction]  # the m offsets b_k


def feasible(system: list[Inequality]) -> bool:
    """Whether {x : w.x + c > 0 (strict) or >= 0} is non-empty, decided exactly by
    Fourier-Motzkin elimination over the rationals. Eliminating x_k pairs every
    inequality with a positive coefficient with every one with a negative coefficient;
    a combination is strict when either parent is (positive multiples preserve > and
    >=), so the projection is exact for mixed systems. With no variables left each
    inequality is a constant c > 0 or c >= 0.

    >>> one = Fraction(1)
    >>> feasible([((one,), 0 * one, True), ((-one,), one, True)])  # 0 < x < 1
    True
    >>> feasible([((one,), 0 * one, True), ((-one,), 0 * one, True)])  # x > 0 and x < 0
    False
    """
    if not system:
        return True
    n = len(system[0][0])
    for k in range(n):
        upper: list[Inequality] = []
        lower: list[Inequality] = []
        rest: list[Inequality] = []
        for w, c, strict in system:
            (upper if w[k] > 0 else lower if w[k] < 0 else rest).append((w, c, strict))
        combined = list(rest)
        for (wp, cp, sp), (wn, cn, sn) in itertools.product(upper, lower):
            a, b = -wn[k], wp[k]  # a wp + b wn has 0 in position k
            w = tuple(a * p + b * q for p, q in zip(wp, wn, strict=True))
            combined.append((w, a * cp + b * cn, sp or sn))
        system = combined
    return all(c > 0 if strict else c >= 0 for _, c, strict in system)


def _arrangement(w_1: Rows, b_1: Offsets) -> tuple[list[tuple[Fraction, ...]], list[Fraction]]:
    """The normals (m rows of d exact rationals) and the m offsets, checked."""
    try:
        normals = [tuple(Fraction(v) for v in row) for row in w_1]
        offsets = [Fraction(v) for v in b_1]
    except (TypeError, ValueError) as err:
        raise TypeError(
            f"w_1 must be rows of integers or fractions and b_1 a sequence of them, "
            f"got w_1 = {w_1!r}, b_1 = {b_1!r}"
        ) from err
    if not normals or not normals[0] or len({len(r) for r in normals}) != 1:
        raise ValueError(f"w_1 must be m >= 1 rows of the same length d >= 1, got {w_1!r}")
    if len(offsets) != len(normals):
        raise ValueError(
            f"b_1 must have one offset per row of w_1 ({len(normals)}), got {len(offsets)}"
        )
    return normals, offsets


def activation_regions(w_1: Rows, b_1: Offsets) -> list[str]:
    """The activation patterns s in {0, 1}^m whose region R_s = {x : a_k(x) > 0 if s_k = 1,
    a_k(x) <= 0 if s_k = 0} is non-empty, a(x) = W_1^T x + b_1, decided exactly.
    `w_1` holds the m normals (rows, integers or fractions), `b_1` the m offsets.

    >>> activation_regions([[1], [1]], [0, -1])  # x and x - 1 on the line
    ['00', '10', '11']
    """
    normals, offsets = _arrangement(w_1, b_1)
    found = []
    for pattern in itertools.product((0, 1), repeat=len(normals)):
        system = [
            (w, c, True) if s else (tuple(-v for v in w), -c, False)
            for w, c, s in zip(normals, offsets, pattern, strict=True)
        ]
        if feasible(system):
            found.append("".join(map(str, pattern)))
    return found


def _rank(rows: list[tuple[Fraction, ...]]) -> int:
    """Rank of a rational matrix by exact Gaussian elimination."""
    matrix = [list(r) for r in rows]
    rank, cols = 0, len(matrix[0]) if matrix else 0
    for col in range(cols):
        pivot = next((r for r in range(rank, len(matrix)) if matrix[r][col] != 0), None)
        if pivot is None:
            continue
        matrix[rank], matrix[pivot] = matrix[pivot], matrix[rank]
        for r in range(len(matrix)):
            if r != rank and matrix[r][col] != 0:
                f = matrix[r][col] / matrix[rank][col]
                matrix[r] = [a - f * b for a, b in zip(matrix[r], matrix[rank], strict=True)]
        rank += 1
    return rank


def general_position(w_1: Rows, b_1: Offsets) -> bool:
    """Whether the hyperplanes a_k(x) = 0 in R^d are in general position: any d or fewer
    normals are linearly independent and no d + 1 of the hyperplanes share a point.

    >>> general_position([[1], [1]], [0, -1]), general_position([[1], [2]], [0, 0])
    (True, False)
    """
    normals, offsets = _arrangement(w_1, b_1)
    d = len(normals[0])
    for size in range(1, min(d, len(normals)) + 1):
        for subset in itertools.combinations(range(len(normals)), size):
            if _rank([normals[k] for k in subset]) < size:
                return False
    for subset in itertools.combinations(range(len(normals)), d + 1):
        augmented = [normals[k] + (offsets[k],) for k in subset]
        if _rank([normals[k] for k in subset]) == _rank(augmented):
            return False  # consistent: the d + 1 hyperplanes meet
    return True


def region_bound(m: int, d: int) -> int:
    """The number of regions of m hyperplanes in general position in R^d: sum_{i<=d} C(m, i).

    >>> region_bound(3, 2)
    7
    """
    if not (isinstance(m, int) and isinstance(d, int) and m >= 0 and d >= 1):
        raise ValueError(f"m must be an int >= 0 and d an int >= 1, got m = {m!r}, d = {d!r}")
    return sum(math.comb(m, i) for i in range(min(d, m) + 1))
