"""The MLP's activation functions (定義 2.2［Transformer ブロック］), elementwise.

GELU(t) = t Phi(t) is evaluated with scipy.special.ndtr, the vectorised normal
distribution function: it switches to erfc(-t / sqrt 2) / 2 in the left tail,
where 1 + erf(t / sqrt 2) would cancel, so Phi keeps full relative accuracy
there. ndtr has a float32 loop, so float32 stays float32. The tanh approximation that GPT-2 uses,
t (1 + tanh(sqrt(2/pi) (t + 0.044715 t^3))) / 2, is evaluated through the
identity (1 + tanh u) / 2 = 1 / (1 + e^{-2u}), again free of cancellation and
of overflow (e^{-2u} = inf gives the correct limit 0).
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from numeric.chunks import row_chunks
from numeric.validation import as_array, describe

TANH_SCALE = math.sqrt(2.0 / math.pi)
TANH_CUBIC = 0.044715
TANH_EXPONENT = -2.0 * TANH_SCALE
PARALLEL_MIN_SIZE = 1 << 16  # below this, threads cost more than they save


def _relu(t: np.ndarray) -> np.ndarray:
    return np.maximum(t, 0)


def _chunked(ufunc: np.ufunc, t: np.ndarray) -> np.ndarray:
    """ufunc(t), computed in one chunk per core for large arrays.

    scipy's special functions run one scalar routine per entry (about 15 ns per
    float here, several times a BLAS-bound layer's elementwise work) and release
    the GIL, so threads over disjoint chunks divide the time by the core count.
    """
    workers = os.cpu_count() or 1
    if workers == 1 or t.size < PARALLEL_MIN_SIZE:
        return ufunc(t)
    flat = np.ascontiguousarray(t).reshape(-1)
    out = np.empty_like(flat)
    bounds = np.linspace(0, flat.size, workers + 1).astype(int)
    chunks = [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    list(_pool(workers).map(lambda part: ufunc(flat[part], out=out[part]), chunks))
    return out.reshape(t.shape)


@functools.cache
def _pool(workers: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="numeric-ufunc")


def normal_cdf() -> np.ufunc:
    """Phi, the standard normal distribution function: SciPy's ndtr, imported at its first
    use rather than with this module (SciPy's import is a tenth of a second)."""
    from scipy.special import ndtr

    return ndtr


def _gelu(t: np.ndarray) -> np.ndarray:
    phi = _chunked(normal_cdf(), t)  # (...), Phi(t)
    phi *= t
    return phi


def _gelu_tanh(t: np.ndarray) -> np.ndarray:
    flat = np.ascontiguousarray(t).reshape(-1)  # (size,), t itself when contiguous
    out = np.empty_like(flat)
    with np.errstate(over="ignore"):
        for piece in row_chunks(flat.size, 1):  # seven passes, each over a piece in cache
            x, u = flat[piece], out[piece]
            np.multiply(x, x, out=u)
            u *= TANH_CUBIC * TANH_EXPONENT
            u += TANH_EXPONENT
            u *= x  # -2 sqrt(2/pi) (t + 0.044715 t^3)
            np.exp(u, out=u)
            u += 1.0
            np.divide(x, u, out=u)
    return out.reshape(t.shape)  # an array even for a 0-d t


def relu(t: object) -> np.ndarray:
    """ReLU(t) = max(0, t).

    >>> relu([-1.0, 2.0])
    array([0., 2.])
    """
    return _relu(as_array(t, "t"))


def gelu(t: object) -> np.ndarray:
    """GELU(t) = t Phi(t), Phi the standard normal distribution function (exact).

    >>> np.round(gelu([-1.0, 0.0, 1.0]), 4)
    array([-0.1587,  0.    ,  0.8413])
    """
    return _gelu(as_array(t, "t"))


def gelu_tanh(t: object) -> np.ndarray:
    """GPT-2's approximation t (1 + tanh(sqrt(2/pi)(t + 0.044715 t^3))) / 2.

    >>> np.round(gelu_tanh([-1.0, 0.0, 1.0]), 4)
    array([-0.1588,  0.    ,  0.8412])
    """
    return _gelu_tanh(as_array(t, "t"))


ACTIVATIONS: dict[str, Callable[[object], np.ndarray]] = {
    "relu": relu,
    "gelu": gelu,
    "gelu_tanh": gelu_tanh,
}

_UNCHECKED = {"relu": _relu, "gelu": _gelu, "gelu_tanh": _gelu_tanh}


def _checked(phi: Callable[..., object]) -> Callable[[np.ndarray], np.ndarray]:
    """A caller's activation, its result checked: an array of its argument's shape (taken
    in the argument's dtype), NaN only where the argument itself is not finite."""
    name = getattr(phi, "__name__", type(phi).__name__)

    def apply(t: np.ndarray) -> np.ndarray:
        out = phi(t)
        if not isinstance(out, np.ndarray) or out.shape != t.shape or out.dtype.kind not in "fiu":
            raise TypeError(
                f"activation {name} must return a real array of its argument's "
                f"shape {t.shape}, got {describe(out)}"
            )
        nan = np.isnan(out) & np.isfinite(t)
        if nan.any():
            where = tuple(int(i) for i in np.argwhere(nan)[0])
            raise ValueError(
                f"activation {name} returned NaN at index {where} for the finite "
                f"argument {float(t[where])!r}"
            )
        return out.astype(t.dtype, copy=False)

    return apply


def activation_function(activation: object) -> Callable[[np.ndarray], np.ndarray]:
    """The function named `activation` (a key of ACTIVATIONS), or a callable, checked.

    >>> activation_function("relu")(np.array([-1.0, 1.0]))
    array([0., 1.])
    >>> def broken(t):
    ...     return np.full_like(t, np.nan)
    >>> activation_function(broken)(np.array([-1.0]))
    Traceback (most recent call last):
    ValueError: activation broken returned NaN at index (0,) for the finite argument -1.0
    """
    if callable(activation):
        return _checked(activation)
    if not isinstance(activation, str):
        raise TypeError(
            f"activation must be one of {tuple(ACTIVATIONS)} or a callable, got "
            f"{describe(activation)}"
        )
    if activation not in _UNCHECKED:
        raise ValueError(
            f"activation must be one of {tuple(ACTIVATIONS)} or a callable, got {activation!r}"
        )
    return _UNCHECKED[activation]
