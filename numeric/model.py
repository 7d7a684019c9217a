"""The decoder-only Transformer (定義 2.3［Transformer ブロック］).

X^(0) has rows E_{t_i} + P_i; L causal Pre-LN blocks; logits Z = LN_f(X^(L)) E^T
(or a separate output matrix when untied). The parameter arrays are allocated
from spec.parameters.model_parameters at config.sizes(): one declaration gives
both the arrays and the parameter-count polynomial.

Initialisation (`init_parameters`): every weight matrix is N(0, 1/fan_in) (fan
in d, or d_ff for the MLP's second matrix; the embedding and output tables use
1/d so that a logit <x, E_v> of a unit-variance x has unit variance). Biases
and beta are N(0, 0.1^2) and gamma is 1 + N(0, 0.1^2): not the zeros and ones
a training run starts from, so that a forgotten or misplaced bias or gain
changes the output visibly in tests.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import partial

import numpy as np

from numeric.activations import activation_function
from numeric.attention import multi_head_attention_kernel
from numeric.block import BlockParameters, check_block_parameters, pre_ln_kernel
from numeric.contraction import contract
from numeric.layer_norm import layer_norm_kernel
from numeric.parameters import check_parameters, parameter_count, sub_parameters
from numeric.validation import (
    FLOAT_DTYPES,
    as_tokens,
    float_dtype,
    require_allocation,
    require_mapping,
    require_one_float_dtype,
)
from spec.config import ModelConfig
from spec.contractions import LM_HEAD
from spec.parameters import model_parameters

__all__ = [
    "ModelParameters",
    "check_model_parameters",
    "embed",
    "forward",
    "init_parameters",
    "parameter_count",
    "parameter_shapes",
    "sub_parameters",
]

BIAS_SCALE = 0.1
FAN_IN = {"w_2": "d_ff"}  # every other weight reads a d-dimensional input


def _check_config(config: object) -> ModelConfig:
    if not isinstance(config, ModelConfig):
        raise TypeError(f"config must be a spec.ModelConfig, got {type(config).__name__}")
    return config


def parameter_shapes(config: ModelConfig) -> dict[str, tuple[int, ...]]:
    """Every array name of the model with its shape, expanded over the n_layer blocks.

    >>> config = ModelConfig(vocab=5, d=4, n_layer=2, n_head=2, d_ff=8, n_ctx=3)
    >>> parameter_shapes(config)["blocks.1.attn.w_q"]
    (2, 4, 2)
    """
    config = _check_config(config)
    sizes = config.sizes()
    shapes: dict[str, tuple[int, ...]] = {}
    for p in model_parameters(config.bias, config.tied, config.positions):
        shape = tuple(sizes[dim] for dim in p.dims)
        if p.per_layer:
            rest = p.name.removeprefix("blocks.")
            for layer in range(config.n_layer):
                shapes[f"blocks.{layer}.{rest}"] = shape
        else:
            shapes[p.name] = shape
    return shapes


def init_parameters(
    config: ModelConfig, rng: np.random.Generator, dtype: np.dtype | type = np.float64
) -> dict[str, np.ndarray]:
    """Random parameters for `config`, drawn from `rng` (see the module docstring).

    The draws are made in `dtype` (NumPy's float32 and float64 streams differ);
    cast float64 parameters with astype to compare the two precisions. A model
    that would not fit in the machine's memory is a ValueError, before any draw.

    >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
    >>> params = init_parameters(config, np.random.default_rng(0), np.float32)
    >>> params["wte"].shape, params["wte"].dtype
    ((5, 4), dtype('float32'))
    """
    config = _check_config(config)
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    chosen = float_dtype(dtype)
    shapes = parameter_shapes(config)
    total = sum(math.prod(shape) for shape in shapes.values())
    require_allocation((total,), chosen, f"the {total:,} parameters of this configuration")
    sizes = config.sizes()
    params = {}
    for name, shape in shapes.items():
        leaf = name.rsplit(".", 1)[-1]
        if leaf == "gamma":
            value = 1.0 + BIAS_SCALE * rng.standard_normal(shape, dtype=dtype)
        elif leaf == "beta" or leaf.startswith("b_"):
            value = BIAS_SCALE * rng.standard_normal(shape, dtype=dtype)
        else:
            fan_in = sizes[FAN_IN.get(leaf, "d")]
            value = rng.standard_normal(shape, dtype=dtype)
            value *= 1.0 / math.sqrt(fan_in)
        params[name] = value
    return params


class ModelParameters:
    """Validated parameters of a model: embeddings, per-layer blocks, final LN, output.

    The arrays are the caller's own (no copy) unless `copy` is True: a Decoder,
    which computes with them over many calls, keeps a snapshot.

    >>> config = ModelConfig(vocab=5, d=4, n_layer=2, n_head=2, d_ff=8, n_ctx=3)
    >>> p = ModelParameters(init_parameters(config, np.random.default_rng(0)), config)
    >>> len(p.blocks), p.lm_head is p.wte  # tied
    (2, True)
    """

    def __init__(self, params: object, config: ModelConfig, copy: bool = False):
        config = _check_config(config)
        mapping = require_mapping(params, "params")
        require_one_float_dtype(mapping, "params")
        dtype = next(
            (
                np.asarray(v).dtype
                for v in mapping.values()
                if getattr(v, "dtype", None) in FLOAT_DTYPES
            ),
            np.dtype(np.float64),
        )
        # Finiteness of these (large) arrays is checked through the logits: see forward.
        checked = check_parameters(
            mapping, parameter_shapes(config), (), "params", dtype, finite=False
        )
        if copy:
            checked = {key: arr.copy() for key, arr in checked.items()}
        self.config = config
        self.dtype = dtype
        self.wte = checked["wte"]
        self.wpe = checked.get("wpe")
        self.blocks: list[BlockParameters] = [
            check_block_parameters(
                sub_parameters(checked, f"blocks.{layer}"),
                config.d,
                dtype,
                f"params[blocks.{layer}.*]",
                finite=False,
            )
            for layer in range(config.n_layer)
        ]
        self.ln_f = {part: checked[f"ln_f.{part}"] for part in ("gamma", "beta")}
        self.lm_head = checked.get("lm_head", self.wte)
        self.arrays = checked
        self.phi = activation_function(config.activation)

    def embed(self, tokens: np.ndarray, start: int = 0) -> np.ndarray:
        """X^(0) (n, d) of validated token ids at positions start, start + 1, ...

        >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
        >>> p = ModelParameters(init_parameters(config, np.random.default_rng(0)), config)
        >>> bool(np.all(p.embed(np.array([4]), start=2) == p.wte[4] + p.wpe[2]))
        True
        """
        x = self.wte[tokens]  # (n, d)
        if self.wpe is not None:
            x = x + self.wpe[start : start + len(tokens)]
        return x

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Z = LN_f(X) E^T (n, |V|) of the last block's output.

        >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
        >>> p = ModelParameters(init_parameters(config, np.random.default_rng(0)), config)
        >>> p.logits(np.eye(2, 4)).shape
        (2, 5)
        """
        z = layer_norm_kernel(x, self.ln_f["gamma"], self.ln_f["beta"], self.config.layer_norm_eps)
        return contract(LM_HEAD, z, self.lm_head)  # (n, |V|)

    def require_finite(self, logits: np.ndarray) -> np.ndarray:
        """Raise, naming the culprit, unless every logit is finite.

        One sum decides the common case: it is finite exactly when no logit is
        inf or NaN, unless the finite logits themselves add up past the float
        range, which only sends us to the full scan below.

        >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
        >>> p = ModelParameters(init_parameters(config, np.random.default_rng(0)), config)
        >>> p.require_finite(np.array([[np.inf]]))
        Traceback (most recent call last):
        ValueError: the logits overflowed the float range; the parameters are finite but too \
large for this dtype
        """
        with np.errstate(over="ignore", invalid="ignore"):
            total = logits.sum()
        if np.isfinite(total):
            return logits
        for name, arr in self.arrays.items():
            if not np.isfinite(arr).all():
                index = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
                raise ValueError(
                    f"params[{name!r}] must be finite, got {arr[index]} at index {index}"
                )
        if np.isfinite(logits).all():
            return logits
        raise ValueError(
            "the logits overflowed the float range; the parameters are finite but "
            "too large for this dtype"
        )


def check_model_parameters(
    params: object, config: ModelConfig, copy: bool = False
) -> ModelParameters:
    """Check every array of `params` against spec's declaration at config's sizes.

    A dict mixing float32 and float64 arrays is a TypeError naming keys of both
    (see validation.require_one_float_dtype); `copy` snapshots the arrays.

    >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
    >>> params = init_parameters(config, np.random.default_rng(0))
    >>> check_model_parameters(params, config).dtype
    dtype('float64')
    """
    return ModelParameters(params, config, copy)


def embed(tokens: object, params: Mapping[str, object], config: ModelConfig) -> np.ndarray:
    """X^(0) (n, d): row i is E_{t_i} + P_i.

    >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
    >>> params = init_parameters(config, np.random.default_rng(0))
    >>> bool(np.all(embed([2], params, config) == params["wte"][2] + params["wpe"][0]))
    True
    """
    p = check_model_parameters(params, config)
    tokens = as_tokens(tokens, "tokens", config.vocab, config.n_ctx)
    return p.embed(tokens)


def _self_attention(
    z: np.ndarray, p: dict[str, np.ndarray]
) -> tuple[np.ndarray, np.ndarray | None]:
    """Causal self-attention of the model's blocks (the weights are not kept)."""
    return multi_head_attention_kernel(z, p, z, causal=True, need_weights=False)


def _forward(p: ModelParameters, tokens: np.ndarray) -> np.ndarray:
    # A non-finite parameter or an overflow is reported by require_finite, naming its
    # cause, rather than by NumPy's warnings on the way.
    with np.errstate(over="ignore", invalid="ignore"):
        x = p.embed(tokens)  # (n, d)
        eps = p.config.layer_norm_eps
        for block in p.blocks:
            attend = partial(_self_attention, p=block["attn"])
            x, _ = pre_ln_kernel(x, block, attend, p.phi, eps)
        logits = p.logits(x)  # (n, |V|)
    return p.require_finite(logits)


def forward(tokens: object, params: Mapping[str, object], config: ModelConfig) -> np.ndarray:
    """Logits Z (n, |V|) of the token ids `tokens` (1-D, 1 <= n <= n_ctx).

    >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
    >>> forward([0, 3], init_parameters(config, np.random.default_rng(0)), config).shape
    (2, 5)
    """
    p = check_model_parameters(params, config)
    tokens = as_tokens(tokens, "tokens", config.vocab, config.n_ctx)
    return _forward(p, tokens)
