"""How a cost grows with its work: the exponent of a power law fitted to measurements."""

from __future__ import annotations

import math
from collections.abc import Sequence


def growth_exponent(sizes: Sequence[float], seconds: Sequence[float]) -> float:
    """The least-squares slope of log(seconds) against log(sizes): 1 is linear growth,
    2 quadratic.

    >>> round(growth_exponent([1, 2, 4], [3.0, 12.0, 48.0]), 6)
    2.0
    """
    xs, ys = [math.log(s) for s in sizes], [math.log(max(t, 1e-6)) for t in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    covariance = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    return covariance / sum((x - mx) ** 2 for x in xs)
