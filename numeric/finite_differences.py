"""Central-difference Jacobians in floating point, with an estimate of their error.

Used where a Jacobian has no closed form in the package (a stack of sublayers) and
is compared with a product of other Jacobians: the error estimate turns the
comparison into a bound rather than a tuned tolerance.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from numeric.error_bounds import U
from numeric.validation import as_array


def central_jacobian(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray,
                     step: float) -> np.ndarray:
    """(nd, nd) Jacobian of f: (n, d) -> (n, d) at x by central differences of step `step`."""
    x = as_array(x, "x")
    if isinstance(step, bool) or not isinstance(step, (int, float, np.floating, np.integer)):
        raise TypeError(f"step must be a float > 0, got {type(step).__name__}")
    if not (np.isfinite(step) and step > 0):
        raise ValueError(f"step must be a finite float > 0, got {step!r}")
    flat = x.ravel()
    columns = []
    for j in range(flat.size):
        e = np.zeros_like(flat)
        e[j] = step
        plus, minus = f((flat + e).reshape(x.shape)), f((flat - e).reshape(x.shape))
        columns.append((plus - minus).ravel() / (2 * step))
    return np.stack(columns, axis=1)


def jacobian_with_error(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray,
                        evaluation_error: float) -> tuple[np.ndarray, float]:
    """(D(h), entrywise error bound) for central differences D of f at x.

    D(h) - J = c h^2 + O(h^4), so |D(h) - J| ~ |D(h) - D(2h)| / 3 (Richardson); we take
    the whole |D(h) - D(2h)| (three times the estimate, which also absorbs the O(h^4)
    term) plus the rounding 2 e / (2h) of two evaluations with error <= e each. The step
    h = e^(1/3) max(1, max|x|) balances the rounding bound e / h against the h^2 term.
    """
    h = max(evaluation_error, U) ** (1 / 3) * max(1.0, float(np.abs(x).max()))
    d_h, d_2h = central_jacobian(f, x, h), central_jacobian(f, x, 2 * h)
    return d_h, float(np.abs(d_h - d_2h).max()) + evaluation_error / h
