"""Central-difference Jacobians in floating point, with an estimate of their error.

Used where a Jacobian has no closed form in the package (a stack of sublayers) and
is compared with a product of other Jacobians: the error estimate turns the
comparison into a bound rather than a tuned tolerance.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from numeric.error_bounds import U
from numeric.validation import as_array, require_allocation
from spec.checks import nonnegative_float, positive_float


def central_jacobian(f: Callable[[np.ndarray], np.ndarray], x: object,
                     step: float) -> np.ndarray:
    """(nd, nd) Jacobian of f: (n, d) -> (n, d) at x by central differences of step `step`.

    >>> central_jacobian(lambda y: 3 * y, np.array([[1.0, 2.0]]), 0.5)
    array([[3., 0.],
           [0., 3.]])
    """
    if not callable(f):
        raise TypeError(f"f must be a function of an array, got {type(f).__name__}")
    arr = as_array(x, "x")
    h = positive_float("step", step)
    require_allocation((arr.size, arr.size), np.float64, "central_jacobian's (nd, nd) matrix")
    flat = arr.ravel()
    columns = []
    for j in range(flat.size):
        e = np.zeros_like(flat)
        e[j] = h
        plus, minus = f((flat + e).reshape(arr.shape)), f((flat - e).reshape(arr.shape))
        columns.append((plus - minus).ravel() / (2 * h))
    return np.stack(columns, axis=1)


def jacobian_with_error(f: Callable[[np.ndarray], np.ndarray], x: object,
                        evaluation_error: float) -> tuple[np.ndarray, float]:
    """(D(h), entrywise error bound) for central differences D of f at x.

    D(h) - J = c h^2 + O(h^4), so |D(h) - J| ~ |D(h) - D(2h)| / 3 (Richardson); we take
    the whole |D(h) - D(2h)| (three times the estimate, which also absorbs the O(h^4)
    term) plus the rounding 2 e / (2h) of two evaluations with error <= e each. The step
    h = e^(1/3) max(1, max|x|) balances the rounding bound e / h against the h^2 term.

    >>> jac, error = jacobian_with_error(np.sin, np.zeros((1, 1)), 1e-16)
    >>> np.round(jac, 9), bool(error < 1e-9)
    (array([[1.]]), True)
    """
    arr = as_array(x, "x")
    e = nonnegative_float("evaluation_error", evaluation_error)
    h = max(e, U) ** (1 / 3) * max(1.0, float(np.abs(arr).max()))
    d_h, d_2h = central_jacobian(f, arr, h), central_jacobian(f, arr, 2 * h)
    return d_h, float(np.abs(d_h - d_2h).max()) + e / h
