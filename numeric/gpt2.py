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
from typing import Any

import numpy as np

from numeric.model import check_model_parameters
from numeric.validation import as_array, describe, require_mapping, require_one_float_dtype
from spec.checks import nonnegative_float, positive_int, require_bool
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
# safetensors' dtypes that load without loss: F16 and BF16 widen to float32 exactly
# (BF16 is the upper half of a float32's bits); F32 and F64 are kept.
FLOAT_WIDTHS = {"F16": np.float16, "F32": np.float32, "F64": np.float64}


def _safetensors() -> Any:
    try:
        import safetensors
        import safetensors.numpy
    except ImportError as err:
        raise ImportError(
            "reading or writing .safetensors files needs the safetensors package: "
            "pip install 'transformer-proofs[gpt2]' (or pip install safetensors)"
        ) from err
    return safetensors


def _existing_file(path: Path, what: str, expected: str) -> None:
    """A ValueError naming `path` unless it is a file (a directory is said to be one)."""
    if path.is_dir():
        raise ValueError(f"{what} must be {expected}, got the directory {str(path)!r}")
    if not path.is_file():
        raise ValueError(f"{what} must be {expected}, got a missing file {str(path)!r}")


def _read_json(config: object) -> tuple[Mapping[str, object], str]:
    """(the config.json mapping, how to name it in errors: 'config' or 'config.json at ...')."""
    if not isinstance(config, (str, PathLike)):
        return require_mapping(config, "config"), "config"
    path = Path(config)
    _existing_file(path, "config", "a config.json dict or path")
    where = f"the config file {str(path)!r}"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"{where} cannot be read as UTF-8 text: {err}") from err
    try:
        hf = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(
            f"{path}:{err.lineno}:{err.colno}: {where} is not valid JSON: {err.msg}"
        ) from err
    if not isinstance(hf, dict):
        raise ValueError(f"{where} must hold a JSON object, got {type(hf).__name__}")
    return hf, where


def _config_value(hf: Mapping[str, object], key: str, where: str, check: Any) -> Any:
    """hf[key] through `check` (a spec.checks function), its error naming the key and file."""
    try:
        return check(f"{key!r}", hf[key])
    except (TypeError, ValueError) as err:
        raise type(err)(f"{where}: {err}") from None


def config_from_gpt2(config: object) -> ModelConfig:
    """The ModelConfig of a Hugging Face GPT-2 config.json (a dict or a path).

    Every value is checked for its type (an int where a size is expected, a bool
    for tie_word_embeddings, a str for activation_function), and an error names
    the key and, for a path, the file.

    >>> hf = {"vocab_size": 50, "n_embd": 8, "n_head": 2, "n_layer": 1, "n_positions": 16}
    >>> config_from_gpt2(hf).d_ff, config_from_gpt2(hf).activation
    (32, 'gelu_tanh')
    >>> config_from_gpt2({**hf, "tie_word_embeddings": "false"})
    Traceback (most recent call last):
    TypeError: config: 'tie_word_embeddings' must be a bool, got str 'false'
    """
    hf, where = _read_json(config)
    for key in REQUIRED_CONFIG_KEYS:
        if key not in hf:
            raise ValueError(f"{where} is missing the key {key!r}")
    sizes = {key: _config_value(hf, key, where, positive_int) for key in REQUIRED_CONFIG_KEYS}
    d = sizes["n_embd"]
    d_ff = 4 * d if hf.get("n_inner") is None else _config_value(hf, "n_inner", where, positive_int)
    activation = hf.get("activation_function", "gelu_new")
    if not isinstance(activation, str):
        raise TypeError(
            f"{where}: 'activation_function' must be a str, one of "
            f"{tuple(ACTIVATIONS_FROM_HF)}, got {describe(activation)}"
        )
    if activation not in ACTIVATIONS_FROM_HF:
        raise ValueError(
            f"{where}: 'activation_function' must be one of "
            f"{tuple(ACTIVATIONS_FROM_HF)}, got {activation!r}"
        )
    tied = _config_value(
        {"tie_word_embeddings": True, **hf}, "tie_word_embeddings", where, require_bool
    )
    eps = _config_value(
        {"layer_norm_epsilon": 1e-5, **hf}, "layer_norm_epsilon", where, nonnegative_float
    )
    try:
        return ModelConfig(
            vocab=sizes["vocab_size"],
            d=d,
            n_layer=sizes["n_layer"],
            n_head=sizes["n_head"],
            d_ff=d_ff,
            n_ctx=sizes["n_positions"],
            bias=True,
            tied=tied,
            positions=True,
            activation=ACTIVATIONS_FROM_HF[activation],
            layer_norm_eps=eps,
        )
    except ValueError as err:  # n_head does not divide n_embd
        raise ValueError(f"{where}: {err} ('n_embd' = {d}, 'n_head' = {sizes['n_head']})") from None


def to_gpt2_config(config: ModelConfig) -> dict[str, object]:
    """The config.json dict of `config` (the inverse of config_from_gpt2).

    >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
    >>> config_from_gpt2(to_gpt2_config(config)) == config
    True
    """
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
        raise ValueError(
            "the GPT-2 layout has biases and learned positions; got "
            f"bias = {config.bias}, positions = {config.positions}"
        )


def _layout(config: ModelConfig) -> dict[str, tuple[int, ...]]:
    """Every Hugging Face key (without prefix) with its shape."""
    d, f = config.d, config.d_ff
    shapes: dict[str, tuple[int, ...]] = {
        "wte.weight": (config.vocab, d),
        "wpe.weight": (config.n_ctx, d),
    }
    for i in range(config.n_layer):
        for name, shape in (
            ("ln_1.weight", (d,)),
            ("ln_1.bias", (d,)),
            ("attn.c_attn.weight", (d, 3 * d)),
            ("attn.c_attn.bias", (3 * d,)),
            ("attn.c_proj.weight", (d, d)),
            ("attn.c_proj.bias", (d,)),
            ("ln_2.weight", (d,)),
            ("ln_2.bias", (d,)),
            ("mlp.c_fc.weight", (d, f)),
            ("mlp.c_fc.bias", (f,)),
            ("mlp.c_proj.weight", (f, d)),
            ("mlp.c_proj.bias", (d,)),
        ):
            shapes[f"h.{i}.{name}"] = shape
    shapes["ln_f.weight"] = (d,)
    shapes["ln_f.bias"] = (d,)
    if not config.tied:
        shapes["lm_head.weight"] = (config.vocab, d)
    return shapes


def _tensor(name: str, view: Mapping[str, Any], where: str) -> np.ndarray:
    """One tensor of a deserialised safetensors file as a float array of its own memory."""
    dtype, shape, data = view["dtype"], tuple(view["shape"]), view["data"]
    if dtype == "BF16":  # the upper 16 bits of a float32: widening is exact
        bits = np.frombuffer(data, dtype="<u2").astype(np.uint32) << 16
        return bits.view(np.float32).reshape(shape)  # native order: astype made it native
    if dtype not in FLOAT_WIDTHS:
        raise ValueError(
            f"{where}: tensor {name!r} has the unsupported dtype {dtype}; GPT-2 "
            f"weights must be F16, BF16, F32 or F64"
        )
    arr = np.frombuffer(data, dtype=np.dtype(FLOAT_WIDTHS[dtype]).newbyteorder("<"))
    # F16 widens to float32 exactly; astype also gives the array its own, writable memory
    return arr.reshape(shape).astype(np.float32 if dtype == "F16" else arr.dtype.newbyteorder("="))


def _read_weights(weights: object) -> tuple[Mapping[str, object], str]:
    """(the state dict, how to name it in errors). A file's arrays are fresh; a dict's are
    the caller's (copied by _hf_arrays)."""
    if not isinstance(weights, (str, PathLike)):
        return require_mapping(weights, "weights"), ""
    path = Path(weights)
    _existing_file(path, "weights", "a dict of arrays or an existing .safetensors file")
    if path.suffix != ".safetensors":
        raise ValueError(
            f"weights must be a dict of arrays or an existing .safetensors file, got {str(path)!r}"
        )
    where = f"the weights file {str(path)!r}"
    safetensors = _safetensors()
    try:
        views = safetensors.deserialize(path.read_bytes())
    except (OSError, safetensors.SafetensorError) as err:
        raise ValueError(
            f"{where} is not a readable safetensors file (truncated, or another format?): {err}"
        ) from err
    return {name: _tensor(name, view, where) for name, view in views}, f" in {where}"


def _hf_arrays(
    weights: Mapping[str, object], config: ModelConfig, source: str
) -> dict[str, np.ndarray]:
    """The state dict's arrays by unprefixed key, checked against the layout; `source` is
    "" for a caller's dict (whose arrays are then copied) or " in <file>"."""
    shapes = _layout(config)
    found: dict[str, object] = {}
    for key, value in weights.items():
        name = key.removeprefix(PREFIX)
        if name.endswith(IGNORED_SUFFIXES):
            continue
        if name == "lm_head.weight" and config.tied:
            found[name] = value  # checked below: it must equal wte
            continue
        if name not in shapes:
            raise ValueError(
                f"weights{source} has unexpected key {key!r} for this "
                f"configuration (n_layer = {config.n_layer}, tied = {config.tied})"
            )
        found[name] = value
    require_one_float_dtype(found, f"weights{source}")
    arrays = {}
    for name, shape in shapes.items():
        if name not in found:
            raise ValueError(f"weights{source} is missing the key {name!r} (shape {shape})")
        value = found[name]
        if getattr(value, "dtype", None) == np.float16:  # widened exactly
            value = np.asarray(value).astype(np.float32)
        arr = as_array(value, f"weights[{name!r}]{source}")
        if arr.shape != shape:
            raise ValueError(f"weights[{name!r}]{source} must have shape {shape}, got {arr.shape}")
        arrays[name] = arr if source else arr.copy()  # never the caller's memory
    if "lm_head.weight" in found and config.tied:
        head = np.asarray(found["lm_head.weight"])
        if head.shape != shapes["wte.weight"] or not np.array_equal(head, arrays["wte.weight"]):
            raise ValueError(
                f"weights['lm_head.weight']{source} differs from wte.weight but "
                "the config ties them (tie_word_embeddings)"
            )
    return arrays


# Arrays that only change name between the layouts (ours, Hugging Face's); the fused
# q/k/v projection and the head split of c_proj are converted in code.
RENAMED = (
    ("wte", "wte.weight"),
    ("wpe", "wpe.weight"),
    ("ln_f.gamma", "ln_f.weight"),
    ("ln_f.beta", "ln_f.bias"),
)
RENAMED_PER_LAYER = (
    ("attn.b_o", "attn.c_proj.bias"),
    ("ln_1.gamma", "ln_1.weight"),
    ("ln_1.beta", "ln_1.bias"),
    ("ln_2.gamma", "ln_2.weight"),
    ("ln_2.beta", "ln_2.bias"),
    ("mlp.w_1", "mlp.c_fc.weight"),
    ("mlp.b_1", "mlp.c_fc.bias"),
    ("mlp.w_2", "mlp.c_proj.weight"),
    ("mlp.b_2", "mlp.c_proj.bias"),
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
    """(ModelConfig, params) from GPT-2 weights (dict or .safetensors path) and config.json.

    The params own their memory: arrays of a dict given as `weights` are copied,
    so changing the state dict afterwards does not change the model. F16 and BF16
    tensors are widened to float32 exactly.

    >>> from numeric.model import init_parameters
    >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
    >>> state = to_gpt2_state_dict(init_parameters(config, np.random.default_rng(0)), config)
    >>> loaded, params = load_gpt2(state, to_gpt2_config(config))
    >>> loaded == config, np.shares_memory(params["wte"], state["wte.weight"])
    (True, False)
    """
    model_config = config_from_gpt2(config)
    state, source = _read_weights(weights)
    hf = _hf_arrays(state, model_config, source)
    h, d = model_config.n_head, model_config.d
    params = {ours: hf[theirs] for ours, theirs in _renamed(model_config)}
    for i in range(model_config.n_layer):
        src, dst = f"h.{i}.", f"blocks.{i}."
        fused_w, fused_b = hf[src + "attn.c_attn.weight"], hf[src + "attn.c_attn.bias"]
        for j, part in enumerate("qkv"):
            params[dst + f"attn.w_{part}"] = _split_heads(fused_w[:, j * d : (j + 1) * d], h)
            params[dst + f"attn.b_{part}"] = fused_b[j * d : (j + 1) * d].reshape(h, d // h)
        params[dst + "attn.w_o"] = hf[src + "attn.c_proj.weight"].reshape(h, d // h, d)
    check_model_parameters(params, model_config)
    return model_config, params


def to_gpt2_state_dict(
    params: Mapping[str, object], config: ModelConfig, prefix: str = ""
) -> dict[str, np.ndarray]:
    """The Hugging Face state dict of `params` (keys prefixed by `prefix`, e.g.
    "transformer."), in arrays of its own memory.

    >>> from numeric.model import init_parameters
    >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
    >>> state = to_gpt2_state_dict(init_parameters(config, np.random.default_rng(0)), config)
    >>> state["h.0.attn.c_attn.weight"].shape
    (4, 12)
    """
    _require_gpt2_layout(config)
    if not isinstance(prefix, str):
        raise TypeError(f"prefix must be a str such as 'transformer.', got {describe(prefix)}")
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
    return {prefix + key: np.array(value, order="C") for key, value in out.items()}  # copies


def save_gpt2(
    directory: str | PathLike, params: Mapping[str, object], config: ModelConfig
) -> tuple[Path, Path]:
    """Write model.safetensors and config.json into `directory`; return their paths.

    >>> import tempfile
    >>> from numeric.model import init_parameters
    >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
    >>> params = init_parameters(config, np.random.default_rng(0))
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     weights, settings = save_gpt2(folder, params, config)
    ...     bool(np.array_equal(load_gpt2(weights, settings)[1]["wte"], params["wte"]))
    True
    """
    if not isinstance(directory, (str, PathLike)):
        raise TypeError(f"directory must be a str or path, got {type(directory).__name__}")
    folder = Path(directory)
    if not folder.is_dir():
        raise ValueError(f"directory must be an existing folder, got {str(folder)!r}")
    state = to_gpt2_state_dict(params, config)
    weights_path, config_path = folder / "model.safetensors", folder / "config.json"
    _safetensors().numpy.save_file(state, str(weights_path))
    config_path.write_text(json.dumps(to_gpt2_config(config), indent=2) + "\n")
    return weights_path, config_path
