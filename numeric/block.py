"""Post-LN and Pre-LN Transformer blocks (定義 2.2［Transformer ブロック］).

Post-LN: Y = LN_1(X + MHA(X)),  X' = LN_2(Y + MLP(Y)).
Pre-LN:  Y = X + MHA(LN_1(X)),  X' = Y + MLP(LN_2(Y)).
params keys: ln_1.gamma ln_1.beta attn.w_q ... attn.b_o ln_2.gamma ln_2.beta
mlp.w_1 ... mlp.b_2, as spec.parameters.block_parameters declares them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from numeric.activations import activation_function
from numeric.attention import _multi_head_attention, check_attention_parameters
from numeric.layer_norm import _layer_norm
from numeric.mlp import _mlp, check_mlp_parameters
from numeric.parameters import sub_parameters
from numeric.validation import as_array, check_eps, require_finite_result, require_mapping

Attend = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
BLOCK_GROUPS = ("ln_1", "attn", "ln_2", "mlp")


class BlockParameters(dict):
    """Validated block parameters split by group: ["attn"]["w_q"], ["ln_1"]["gamma"], ..."""


def check_block_parameters(
    params: object, d: int, dtype: np.dtype, name: str = "params", finite: bool = True
) -> BlockParameters:
    """Split and check a block's parameters; every key must belong to a declared group."""
    params = require_mapping(params, name)
    for key in params:
        if key.split(".", 1)[0] not in BLOCK_GROUPS or "." not in key:
            raise ValueError(f"{name} has unexpected key {key!r}; expected keys under "
                             f"{BLOCK_GROUPS}")
    out = BlockParameters()
    for group in ("ln_1", "ln_2"):
        ln = sub_parameters(params, group)
        for part in ("gamma", "beta"):
            key = f"{group}.{part}"
            if part not in ln:
                raise ValueError(f"{name} is missing the key {key!r} (an array of shape ({d},))")
            arr = as_array(ln[part], f"{name}[{key!r}]", dtype=dtype, finite=finite)
            if arr.shape != (d,):
                raise ValueError(f"{name}[{key!r}] must have shape ({d},), got {arr.shape}")
            ln[part] = arr
        if set(ln) - {"gamma", "beta"}:
            extra = sorted(set(ln) - {"gamma", "beta"})[0]
            raise ValueError(f"{name} has unexpected key '{group}.{extra}'")
        out[group] = ln
    out["attn"] = check_attention_parameters(
        sub_parameters(params, "attn"), d, dtype, f"{name}[attn.*]", finite
    )
    out["mlp"] = check_mlp_parameters(
        sub_parameters(params, "mlp"), d, dtype, f"{name}[mlp.*]", finite
    )
    return out


def _pre_ln(
    x: np.ndarray, p: BlockParameters, attend: Attend, phi, eps: float
) -> tuple[np.ndarray, np.ndarray]:
    """One Pre-LN block; `attend` maps LN_1(X) to (MHA output, weights)."""
    a, weights = attend(_layer_norm(x, p["ln_1"]["gamma"], p["ln_1"]["beta"], eps))
    y = x + a  # (n, d), the residual stream
    z = _layer_norm(y, p["ln_2"]["gamma"], p["ln_2"]["beta"], eps)
    return y + _mlp(z, p["mlp"], phi), weights


def _post_ln(
    x: np.ndarray, p: BlockParameters, attend: Attend, phi, eps: float
) -> tuple[np.ndarray, np.ndarray]:
    a, weights = attend(x)
    y = _layer_norm(x + a, p["ln_1"]["gamma"], p["ln_1"]["beta"], eps)  # (n, d)
    out = _layer_norm(y + _mlp(y, p["mlp"], phi), p["ln_2"]["gamma"], p["ln_2"]["beta"], eps)
    return out, weights


def _run_block(layout, x, params, causal, activation, eps, return_weights):
    x = as_array(x, "x", ndim=2)
    n, d = x.shape
    if n == 0 or d == 0:
        raise ValueError(f"x must have at least one position and one feature, got {x.shape}")
    if not isinstance(causal, (bool, np.bool_)):
        raise TypeError(f"causal must be a bool, got {causal!r}")
    eps = check_eps(eps)
    phi = activation_function(activation)
    p = check_block_parameters(params, d, x.dtype)
    causal = bool(causal)
    with np.errstate(over="ignore", invalid="ignore"):  # reported below, naming the cause
        out, weights = layout(x, p, lambda z: _multi_head_attention(z, p["attn"], z, causal),
                              phi, eps)
    require_finite_result(out, "the block's output")
    return (out, weights) if return_weights else out


def pre_ln_block(
    x: object,
    params: Mapping[str, object],
    causal: bool = True,
    activation: object = "gelu",
    eps: float = 1e-5,
    return_weights: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Pre-LN block on x (n, d) -> (n, d); with return_weights, also the weights (h, n, n)."""
    return _run_block(_pre_ln, x, params, causal, activation, eps, return_weights)


def post_ln_block(
    x: object,
    params: Mapping[str, object],
    causal: bool = True,
    activation: object = "gelu",
    eps: float = 1e-5,
    return_weights: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Post-LN block on x (n, d) -> (n, d); with return_weights, also the weights (h, n, n)."""
    return _run_block(_post_ln, x, params, causal, activation, eps, return_weights)
