"""GPT-2 weights in the Hugging Face layout, to and from the model's parameters.

Hugging Face stores GPT-2's linear maps as Conv1D weights of shape [in, out]
(x W, as in the chapters), with the query, key and value projections fused
along `out` in c_attn ([W_Q | W_K | W_V], d columns each, head a in columns
a d_head ... (a + 1) d_head - 1 of each). The model keeps them head-first, as
spec declares: w_q (h, d, d_head), w_o (h, d_head, d). Keys may carry a
"transformer." prefix (GPT2LMHeadModel); the causal-mask buffers attn.bias and
attn.masked_bias are ignored; any other unexpected key is an error, since it
means the file and the configuration disagree.

safetensors is an optional dependency (the `gpt2` extra), imported only when a
.safetensors file is read or written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from os import PathLike
from pathlib import Path

import numpy as np

from numeric.model import check_model_parameters
from numeric.validation import as_array, require_mapping
from spec.config import ModelConfig

ACTIVATIONS_FROM_HF = {
    "gelu_new": "gelu_tanh",
    "gelu_pytorch_tanh": "gelu_tanh",
    "gelu": "gelu",
    "relu": "relu",
}
ACTIVATIONS_TO_HF = {"gelu_tanh": "gelu_new", "gelu": "gelu", "relu": "relu"}
REQUIRED_CONFIG_KEYS = ("n_embd", "n_head", "n_layer", "n_positions", "vocab_size")
IGNORED_SUFFIXES = (".attn.bias", ".attn.masked_bias")
PREFIX = "transformer."


def _safetensors():
    try:
        from safetensors import numpy as safetensors_numpy
    except ImportError as err:
        raise ImportError(
            "reading or writing .safetensors files needs the safetensors package: "
            "pip install 'transformer-proofs[gpt2]' (or pip install safetensors)"
        ) from err
    return safetensors_numpy


def _read_json(config: object) -> Mapping:
    if isinstance(config, (str, PathLike)):
        path = Path(config)
        if not path.is_file():
            raise ValueError(f"config must be a config.json dict or path, got a missing file "
                             f"{str(path)!r}")
        return json.loads(path.read_text())
    return require_mapping(config, "config")


def config_from_gpt2(config: object) -> ModelConfig:
    """The ModelConfig of a Hugging Face GPT-2 config.json (a dict or a path)."""
    hf = _read_json(config)
    for key in REQUIRED_CONFIG_KEYS:
        if key not in hf:
            raise ValueError(f"config is missing the key {key!r}")
    d = hf["n_embd"]
    activation = hf.get("activation_function", "gelu_new")
    if activation not in ACTIVATIONS_FROM_HF:
        raise ValueError(f"config['activation_function'] must be one of "
                         f"{tuple(ACTIVATIONS_FROM_HF)}, got {activation!r}")
    n_inner = hf.get("n_inner")
    return ModelConfig(
        vocab=hf["vocab_size"],
        d=d,
        n_layer=hf["n_layer"],
        n_head=hf["n_head"],
        d_ff=4 * d if n_inner is None else n_inner,
        n_ctx=hf["n_positions"],
        bias=True,
        tied=bool(hf.get("tie_word_embeddings", True)),
        positions=True,
        activation=ACTIVATIONS_FROM_HF[activation],
        layer_norm_eps=float(hf.get("layer_norm_epsilon", 1e-5)),
    )


def to_gpt2_config(config: ModelConfig) -> dict:
    """The config.json dict of `config` (the inverse of config_from_gpt2)."""
    _require_gpt2_layout(config)
    return {
        "model_type": "gpt2",
        "vocab_size": config.vocab,
        "n_embd": config.d,
        "n_layer": config.n_layer,
        "n_head": config.n_head,
        "n_inner": config.d_ff,
        "n_positions": config.n_ctx,
        "n_ctx": config.n_ctx,
        "activation_function": ACTIVATIONS_TO_HF[config.activation],
        "layer_norm_epsilon": config.layer_norm_eps,
        "tie_word_embeddings": config.tied,
    }


def _require_gpt2_layout(config: object) -> None:
    if not isinstance(config, ModelConfig):
        raise TypeError(f"config must be a spec.ModelConfig, got {type(config).__name__}")
    if not (config.bias and config.positions):
        raise ValueError("the GPT-2 layout has biases and learned positions; got "
                         f"bias = {config.bias}, positions = {config.positions}")


def _layout(config: ModelConfig) -> dict[str, tuple[int, ...]]:
    """Every Hugging Face key (without prefix) with its shape."""
    d, f = config.d, config.d_ff
    shapes = {"wte.weight": (config.vocab, d), "wpe.weight": (config.n_ctx, d)}
    for i in range(config.n_layer):
        for name, shape in (
            ("ln_1.weight", (d,)), ("ln_1.bias", (d,)),
            ("attn.c_attn.weight", (d, 3 * d)), ("attn.c_attn.bias", (3 * d,)),
            ("attn.c_proj.weight", (d, d)), ("attn.c_proj.bias", (d,)),
            ("ln_2.weight", (d,)), ("ln_2.bias", (d,)),
            ("mlp.c_fc.weight", (d, f)), ("mlp.c_fc.bias", (f,)),
            ("mlp.c_proj.weight", (f, d)), ("mlp.c_proj.bias", (d,)),
        ):
            shapes[f"h.{i}.{name}"] = shape
    shapes["ln_f.weight"] = (d,)
    shapes["ln_f.bias"] = (d,)
    if not config.tied:
        shapes["lm_head.weight"] = (config.vocab, d)
    return shapes


def _read_weights(weights: object) -> Mapping:
    if isinstance(weights, (str, PathLike)):
        path = Path(weights)
        if path.suffix != ".safetensors" or not path.is_file():
            raise ValueError(f"weights must be a dict of arrays or an existing .safetensors "
                             f"file, got {str(path)!r}")
        return _safetensors().load_file(str(path))
    return require_mapping(weights, "weights")


def _hf_arrays(weights: Mapping, config: ModelConfig) -> dict[str, np.ndarray]:
    """The state dict's arrays by unprefixed key, checked against the layout."""
    shapes = _layout(config)
    found: dict[str, np.ndarray] = {}
    for key, value in weights.items():
        name = key.removeprefix(PREFIX)
        if name.endswith(IGNORED_SUFFIXES):
            continue
        if name == "lm_head.weight" and config.tied:
            found[name] = value  # checked below: it must equal wte
            continue
        if name not in shapes:
            raise ValueError(f"weights has unexpected key {key!r} for this configuration "
                             f"(n_layer = {config.n_layer}, tied = {config.tied})")
        found[name] = value
    arrays = {}
    for name, shape in shapes.items():
        if name not in found:
            raise ValueError(f"weights is missing the key {name!r} (shape {shape})")
        arr = np.asarray(found[name])
        if arr.dtype == np.float16:
            arr = arr.astype(np.float32)
        arr = as_array(arr, f"weights[{name!r}]")
        if arr.shape != shape:
            raise ValueError(f"weights[{name!r}] must have shape {shape}, got {arr.shape}")
        arrays[name] = arr
    if "lm_head.weight" in found and config.tied:
        head = np.asarray(found["lm_head.weight"])
        if head.shape != shapes["wte.weight"] or not np.array_equal(head, arrays["wte.weight"]):
            raise ValueError("weights['lm_head.weight'] differs from wte.weight but the config "
                             "ties them (tie_word_embeddings)")
    return arrays


# Arrays that only change name between the layouts (ours, Hugging Face's); the fused
# q/k/v projection and the head split of c_proj are converted in code.
RENAMED = (("wte", "wte.weight"), ("wpe", "wpe.weight"),
           ("ln_f.gamma", "ln_f.weight"), ("ln_f.beta", "ln_f.bias"))
RENAMED_PER_LAYER = (
    ("attn.b_o", "attn.c_proj.bias"),
    ("ln_1.gamma", "ln_1.weight"), ("ln_1.beta", "ln_1.bias"),
    ("ln_2.gamma", "ln_2.weight"), ("ln_2.beta", "ln_2.bias"),
    ("mlp.w_1", "mlp.c_fc.weight"), ("mlp.b_1", "mlp.c_fc.bias"),
    ("mlp.w_2", "mlp.c_proj.weight"), ("mlp.b_2", "mlp.c_proj.bias"),
)


def _renamed(config: ModelConfig) -> list[tuple[str, str]]:
    """Every (our name, Hugging Face name) pair of the renamed arrays of `config`."""
    pairs = list(RENAMED)
    for i in range(config.n_layer):
        pairs += [(f"blocks.{i}.{ours}", f"h.{i}.{theirs}") for ours, theirs in RENAMED_PER_LAYER]
    if not config.tied:
        pairs.append(("lm_head", "lm_head.weight"))
    return pairs


def _split_heads(w: np.ndarray, h: int) -> np.ndarray:
    """(d, d) columns [head 1 | ... | head h] -> (h, d, d_head)."""
    d_in, d_out = w.shape
    return np.ascontiguousarray(w.reshape(d_in, h, d_out // h).transpose(1, 0, 2))


def load_gpt2(weights: object, config: object) -> tuple[ModelConfig, dict[str, np.ndarray]]:
    """(ModelConfig, params) from GPT-2 weights (dict or .safetensors path) and config.json."""
    model_config = config_from_gpt2(config)
    hf = _hf_arrays(_read_weights(weights), model_config)
    h, d = model_config.n_head, model_config.d
    params = {ours: hf[theirs] for ours, theirs in _renamed(model_config)}
    for i in range(model_config.n_layer):
        src, dst = f"h.{i}.", f"blocks.{i}."
        fused_w, fused_b = hf[src + "attn.c_attn.weight"], hf[src + "attn.c_attn.bias"]
        for j, part in enumerate("qkv"):
            params[dst + f"attn.w_{part}"] = _split_heads(fused_w[:, j * d:(j + 1) * d], h)
            params[dst + f"attn.b_{part}"] = fused_b[j * d:(j + 1) * d].reshape(h, d // h)
        params[dst + "attn.w_o"] = hf[src + "attn.c_proj.weight"].reshape(h, d // h, d)
    check_model_parameters(params, model_config)
    return model_config, params


def to_gpt2_state_dict(
    params: Mapping[str, object], config: ModelConfig, prefix: str = ""
) -> dict[str, np.ndarray]:
    """The Hugging Face state dict of `params` (keys prefixed by `prefix`, e.g. "transformer.")."""
    _require_gpt2_layout(config)
    p = check_model_parameters(params, config).arrays
    d = config.d
    out = {theirs: p[ours] for ours, theirs in _renamed(config)}
    for i in range(config.n_layer):
        src, dst = f"blocks.{i}.", f"h.{i}."
        heads = [p[src + f"attn.w_{part}"].transpose(1, 0, 2).reshape(d, d) for part in "qkv"]
        out[dst + "attn.c_attn.weight"] = np.concatenate(heads, axis=1)  # (d, 3d)
        out[dst + "attn.c_attn.bias"] = np.concatenate(
            [p[src + f"attn.b_{part}"].reshape(d) for part in "qkv"]
        )
        out[dst + "attn.c_proj.weight"] = p[src + "attn.w_o"].reshape(d, d)
    return {prefix + key: np.ascontiguousarray(value) for key, value in out.items()}


def save_gpt2(
    directory: str | PathLike, params: Mapping[str, object], config: ModelConfig
) -> tuple[Path, Path]:
    """Write model.safetensors and config.json into `directory`; return their paths."""
    if not isinstance(directory, (str, PathLike)):
        raise TypeError(f"directory must be a str or path, got {type(directory).__name__}")
    folder = Path(directory)
    if not folder.is_dir():
        raise ValueError(f"directory must be an existing folder, got {str(folder)!r}")
    state = to_gpt2_state_dict(params, config)
    weights_path, config_path = folder / "model.safetensors", folder / "config.json"
    _safetensors().save_file(state, str(weights_path))
    config_path.write_text(json.dumps(to_gpt2_config(config), indent=2) + "\n")
    return weights_path, config_path
