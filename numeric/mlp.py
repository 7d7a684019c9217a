"""The position-wise MLP (定義 2.2［Transformer ブロック］): phi(X W_1 + 1 b_1^T) W_2 + 1 b_2^T."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from numeric.activations import activation_function
from numeric.contraction import contract
from numeric.parameters import check_parameters
from numeric.validation import as_array, require_finite_result, require_mapping
from spec.contractions import MLP_IN, MLP_OUT
from spec.parameters import mlp_parameters

MLP_BIASES = ("b_1", "b_2")


def check_mlp_parameters(
    params: object, d: int, dtype: np.dtype, name: str = "params", finite: bool = True
) -> dict[str, np.ndarray]:
    """The MLP parameters of width d, as declared by spec (biases optional); d_ff from w_1.

    >>> p = check_mlp_parameters({"w_1": np.ones((2, 3)), "w_2": [[1, 0]] * 3}, 2,
    ...                          np.dtype(np.float64))
    >>> p["w_2"].shape
    (3, 2)
    """
    w_1 = require_mapping(params, name).get("w_1")
    if w_1 is None:
        raise ValueError(f"{name} is missing the key 'w_1' (an array of shape (d, d_ff))")
    shape = as_array(w_1, f"{name}['w_1']", ndim=2, finite=False).shape
    if shape[1] == 0:
        raise ValueError(f"{name}['w_1'] must have shape (d, d_ff) with d_ff >= 1, got {shape}")
    sizes = {"d": d, "d_ff": shape[1]}
    shapes = {
        p.name.removeprefix("mlp."): tuple(sizes[s] for s in p.dims) for p in mlp_parameters(True)
    }
    return check_parameters(params, shapes, MLP_BIASES, name, dtype, finite)


def mlp_kernel(
    x: np.ndarray, p: dict[str, np.ndarray], phi: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    """phi(x W_1 + b_1) W_2 + b_2 of validated arguments (no checks; used inside the model).

    >>> mlp_kernel(np.array([[1.0, -2.0]]), {"w_1": np.eye(2), "w_2": np.eye(2)},
    ...            lambda t: np.maximum(t, 0))
    array([[1., 0.]])
    """
    hidden = contract(MLP_IN, x, p["w_1"])  # (n, d_ff)
    if "b_1" in p:
        hidden += p["b_1"]
    out = contract(MLP_OUT, phi(hidden), p["w_2"])  # (n, d)
    if "b_2" in p:
        out += p["b_2"]
    return out


def mlp(x: object, params: Mapping[str, object], activation: object = "gelu") -> np.ndarray:
    """MLP(X) for x (n, d); params w_1 (d, d_ff), w_2 (d_ff, d), optional b_1, b_2.

    `activation` is "gelu" (exact), "gelu_tanh", "relu", or a callable (whose
    result is checked: an array of its argument's shape, NaN-free where the
    argument is finite). The parameters are taken in x's dtype.

    >>> mlp([[1.0, -2.0]], {"w_1": np.eye(2), "w_2": np.eye(2)}, activation="relu")
    array([[1., 0.]])
    """
    xs = as_array(x, "x", ndim=2)
    if xs.shape[0] == 0 or xs.shape[1] == 0:
        raise ValueError(f"x must have at least one position and one feature, got {xs.shape}")
    p = check_mlp_parameters(params, xs.shape[1], xs.dtype)
    phi = activation_function(activation)
    with np.errstate(over="ignore", invalid="ignore"):  # reported below, naming the cause
        out = mlp_kernel(xs, p, phi)
    return require_finite_result(out, "mlp(x, params)")
