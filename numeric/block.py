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
from numeric.attention import check_attention_parameters, multi_head_attention_kernel
from numeric.layer_norm import layer_norm_kernel
from numeric.mlp import check_mlp_parameters, mlp_kernel
from numeric.parameters import sub_parameters
from numeric.validation import (
    as_array,
    check_eps,
    require_allocation,
    require_finite_result,
    require_mapping,
    require_one_float_dtype,
)
from spec.checks import require_bool

Attend = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray | None]]
Activation = Callable[[np.ndarray], np.ndarray]
BLOCK_GROUPS = ("ln_1", "attn", "ln_2", "mlp")


class BlockParameters(dict[str, dict[str, np.ndarray]]):
    """Validated block parameters split by group: ["attn"]["w_q"], ["ln_1"]["gamma"], ...

    >>> BlockParameters(ln_1={"gamma": np.ones(2), "beta": np.zeros(2)})["ln_1"]["gamma"]
    array([1., 1.])
    """


def check_block_parameters(
    params: object, d: int, dtype: np.dtype, name: str = "params", finite: bool = True
) -> BlockParameters:
    """Split and check a block's parameters; every key must belong to a declared group.

    >>> from numeric.model import init_parameters
    >>> from spec import ModelConfig
    >>> config = ModelConfig(vocab=3, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=2)
    >>> params = sub_parameters(init_parameters(config, np.random.default_rng(0)), "blocks.0")
    >>> sorted(check_block_parameters(params, 4, np.dtype(np.float64)))
    ['attn', 'ln_1', 'ln_2', 'mlp']
    """
    mapping = require_mapping(params, name)
    require_one_float_dtype(mapping, name)
    for key in mapping:
        if key.split(".", 1)[0] not in BLOCK_GROUPS or "." not in key:
            raise ValueError(
                f"{name} has unexpected key {key!r}; expected keys under {BLOCK_GROUPS}"
            )
    out = BlockParameters()
    for group in ("ln_1", "ln_2"):
        ln = sub_parameters(mapping, group)
        extra = sorted(set(ln) - {"gamma", "beta"})
        if extra:
            raise ValueError(f"{name} has unexpected key '{group}.{extra[0]}'")
        arrays: dict[str, np.ndarray] = {}
        for part in ("gamma", "beta"):
            key = f"{group}.{part}"
            if part not in ln:
                raise ValueError(f"{name} is missing the key {key!r} (an array of shape ({d},))")
            arr = as_array(ln[part], f"{name}[{key!r}]", dtype=dtype, finite=finite)
            if arr.shape != (d,):
                raise ValueError(f"{name}[{key!r}] must have shape ({d},), got {arr.shape}")
            arrays[part] = arr
        out[group] = arrays
    out["attn"] = check_attention_parameters(
        sub_parameters(mapping, "attn"), d, dtype, f"{name}[attn.*]", finite
    )
    out["mlp"] = check_mlp_parameters(
        sub_parameters(mapping, "mlp"), d, dtype, f"{name}[mlp.*]", finite
    )
    return out


def pre_ln_kernel(
    x: np.ndarray, p: BlockParameters, attend: Attend, phi: Activation, eps: float
) -> tuple[np.ndarray, np.ndarray | None]:
    """One Pre-LN block of validated arguments; `attend` maps LN_1(X) to (MHA output,
    weights or None). Y = X + MHA(LN_1(X)), X' = Y + MLP(LN_2(Y)).

    >>> p = BlockParameters(ln_1={"gamma": np.ones(2), "beta": np.zeros(2)},
    ...                     ln_2={"gamma": np.ones(2), "beta": np.zeros(2)},
    ...                     mlp={"w_1": np.zeros((2, 3)), "w_2": np.zeros((3, 2))})
    >>> pre_ln_kernel(np.array([[1.0, 3.0]]), p, lambda z: (z, None), np.tanh, 0.0)[0]
    array([[0., 4.]])
    """
    a, weights = attend(layer_norm_kernel(x, p["ln_1"]["gamma"], p["ln_1"]["beta"], eps))
    y = x + a  # (n, d), the residual stream
    z = layer_norm_kernel(y, p["ln_2"]["gamma"], p["ln_2"]["beta"], eps)
    out = mlp_kernel(z, p["mlp"], phi)  # (n, d), the kernel's own array: added to in place
    out += y
    return out, weights


def post_ln_kernel(
    x: np.ndarray, p: BlockParameters, attend: Attend, phi: Activation, eps: float
) -> tuple[np.ndarray, np.ndarray | None]:
    """One Post-LN block of validated arguments: Y = LN_1(X + MHA(X)),
    X' = LN_2(Y + MLP(Y)).

    >>> p = BlockParameters(ln_1={"gamma": np.ones(2), "beta": np.zeros(2)},
    ...                     ln_2={"gamma": np.ones(2), "beta": np.zeros(2)},
    ...                     mlp={"w_1": np.zeros((2, 3)), "w_2": np.zeros((3, 2))})
    >>> post_ln_kernel(np.array([[1.0, 3.0]]), p, lambda z: (z, None), np.tanh, 0.0)[0]
    array([[-1.,  1.]])
    """
    a, weights = attend(x)
    y = layer_norm_kernel(x + a, p["ln_1"]["gamma"], p["ln_1"]["beta"], eps)  # (n, d)
    s = mlp_kernel(y, p["mlp"], phi)  # (n, d), the kernel's own array: added to in place
    s += y
    return layer_norm_kernel(s, p["ln_2"]["gamma"], p["ln_2"]["beta"], eps), weights


def _run_block(
    layout: Callable[..., tuple[np.ndarray, np.ndarray | None]],
    x: object,
    params: object,
    causal: object,
    activation: object,
    eps: object,
    return_weights: object,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    xs = as_array(x, "x", ndim=2)
    n, d = xs.shape
    if n == 0 or d == 0:
        raise ValueError(f"x must have at least one position and one feature, got {xs.shape}")
    is_causal = require_bool("causal", causal)
    keep = require_bool("return_weights", return_weights)
    epsilon = check_eps(eps)
    phi = activation_function(activation)
    p = check_block_parameters(params, d, xs.dtype)
    require_allocation((p["attn"]["w_q"].shape[0], n, n), xs.dtype, "the block's attention weights")

    def attend(z: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        return multi_head_attention_kernel(z, p["attn"], z, is_causal)

    with np.errstate(over="ignore", invalid="ignore"):  # reported below, naming the cause
        out, weights = layout(xs, p, attend, phi, epsilon)
    require_finite_result(out, "the block's output")
    if not keep:
        return out
    assert weights is not None  # multi_head_attention_kernel keeps them by default
    return out, weights


def pre_ln_block(
    x: object,
    params: Mapping[str, object],
    causal: bool = True,
    activation: object = "gelu",
    eps: float = 1e-5,
    return_weights: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Pre-LN block on x (n, d) -> (n, d); with return_weights, also the weights (h, n, n).

    >>> from numeric.model import init_parameters
    >>> from spec import ModelConfig
    >>> config = ModelConfig(vocab=3, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=2)
    >>> params = sub_parameters(init_parameters(config, np.random.default_rng(0)), "blocks.0")
    >>> pre_ln_block(np.eye(3, 4), params).shape
    (3, 4)
    """
    return _run_block(pre_ln_kernel, x, params, causal, activation, eps, return_weights)


def post_ln_block(
    x: object,
    params: Mapping[str, object],
    causal: bool = True,
    activation: object = "gelu",
    eps: float = 1e-5,
    return_weights: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Post-LN block on x (n, d) -> (n, d); with return_weights, also the weights (h, n, n).

    >>> from numeric.model import init_parameters
    >>> from spec import ModelConfig
    >>> config = ModelConfig(vocab=3, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=2)
    >>> params = sub_parameters(init_parameters(config, np.random.default_rng(0)), "blocks.0")
    >>> out, weights = post_ln_block(np.eye(3, 4), params, return_weights=True)
    >>> np.round(weights.sum(axis=-1), 6)  # each row of each head sums to 1
    array([[1., 1., 1.],
           [1., 1., 1.]])
    """
    return _run_block(post_ln_kernel, x, params, causal, activation, eps, return_weights)
