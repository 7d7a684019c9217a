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
    """The MLP parameters of width d, as declared by spec (biases optional); d_ff from w_1."""
    w_1 = require_mapping(params, name).get("w_1")
    if w_1 is None or np.ndim(w_1) != 2 or np.shape(w_1)[1] == 0:
        shape = "nothing" if w_1 is None else np.shape(w_1)
        raise ValueError(f"{name}['w_1'] must be an array of shape (d, d_ff), got {shape}")
    sizes = {"d": d, "d_ff": np.shape(w_1)[1]}
    shapes = {p.name.removeprefix("mlp."): tuple(sizes[s] for s in p.dims)
              for p in mlp_parameters(True)}
    return check_parameters(params, shapes, MLP_BIASES, name, dtype, finite)


def _mlp(
    x: np.ndarray, p: dict[str, np.ndarray], phi: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    hidden = contract(MLP_IN, x, p["w_1"])  # (n, d_ff)
    if "b_1" in p:
        hidden += p["b_1"]
    out = contract(MLP_OUT, phi(hidden), p["w_2"])  # (n, d)
    if "b_2" in p:
        out += p["b_2"]
    return out


def mlp(x: object, params: Mapping[str, object], activation: object = "gelu") -> np.ndarray:
    """MLP(X) for x (n, d); params w_1 (d, d_ff), w_2 (d_ff, d), optional b_1, b_2.

    `activation` is "gelu" (exact), "gelu_tanh", "relu", or a callable.
    """
    x = as_array(x, "x", ndim=2)
    if x.shape[0] == 0 or x.shape[1] == 0:
        raise ValueError(f"x must have at least one position and one feature, got {x.shape}")
    p = check_mlp_parameters(params, x.shape[1], x.dtype)
    phi = activation_function(activation)
    with np.errstate(over="ignore", invalid="ignore"):  # reported below, naming the cause
        out = _mlp(x, p, phi)
    return require_finite_result(out, "mlp(x, params)")
