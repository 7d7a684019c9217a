"""numeric.gpt2: Hugging Face GPT-2 weights and config.json, both ways."""

import json
import math
import sys

import numpy as np
import pytest

from numeric.gpt2 import (
    config_from_gpt2,
    load_gpt2,
    save_gpt2,
    to_gpt2_config,
    to_gpt2_state_dict,
)
from numeric.model import forward, init_parameters
from numeric.running_error import model_rounding_bound
from spec import ModelConfig

pytestmark = pytest.mark.numeric

CONFIG = ModelConfig(vocab=19, d=12, n_layer=2, n_head=3, d_ff=20, n_ctx=10, activation="gelu_tanh")


def params_of(config, seed=0, dtype=np.float64):
    return init_parameters(config, np.random.default_rng(seed), dtype)


def hf_forward(state: dict, hf: dict, tokens: np.ndarray) -> np.ndarray:
    """GPT-2 as Hugging Face computes it from its own layout: Conv1D x W + b, fused
    c_attn split into q | k | v, heads as consecutive column groups, tanh GELU."""
    d, h = hf["n_embd"], hf["n_head"]
    k = d // h
    n = len(tokens)

    def ln(x, name):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + hf["layer_norm_epsilon"]) * state[name + ".weight"] + state[
            name + ".bias"
        ]

    def conv1d(x, name):
        return x @ state[name + ".weight"] + state[name + ".bias"]

    x = state["wte.weight"][tokens] + state["wpe.weight"][:n]
    future = np.triu(np.ones((n, n), dtype=bool), 1)
    for i in range(hf["n_layer"]):
        qkv = conv1d(ln(x, f"h.{i}.ln_1"), f"h.{i}.attn.c_attn")  # (n, 3d)
        q, key, v = (
            qkv[:, j * d : (j + 1) * d].reshape(n, h, k).transpose(1, 0, 2) for j in range(3)
        )
        scores = q @ key.transpose(0, 2, 1) / math.sqrt(k)
        scores[:, future] = -np.inf
        w = np.exp(scores - scores.max(-1, keepdims=True))
        w /= w.sum(-1, keepdims=True)
        merged = (w @ v).transpose(1, 0, 2).reshape(n, d)
        x = x + conv1d(merged, f"h.{i}.attn.c_proj")
        a = conv1d(ln(x, f"h.{i}.ln_2"), f"h.{i}.mlp.c_fc")
        a = 0.5 * a * (1 + np.tanh(math.sqrt(2 / math.pi) * (a + 0.044715 * a**3)))
        x = x + conv1d(a, f"h.{i}.mlp.c_proj")
    head = state.get("lm_head.weight", state["wte.weight"])
    return ln(x, "ln_f") @ head.T


@pytest.mark.parametrize("tied", [True, False])
def test_loaded_model_computes_what_hugging_face_computes(tied):
    """Both are float64 evaluations of one function: each within model_rounding_bound of
    the exact logits, entry by entry, so within twice it of each other."""
    config = ModelConfig(**{**CONFIG.__dict__, "tied": tied})
    state = to_gpt2_state_dict(params_of(config, 1), config)
    hf = to_gpt2_config(config)
    loaded_config, params = load_gpt2(state, hf)
    tokens = np.random.default_rng(2).integers(0, config.vocab, size=7)
    difference = np.abs(forward(tokens, params, loaded_config) - hf_forward(state, hf, tokens))
    assert (difference <= 2 * model_rounding_bound(tokens, params, loaded_config)[1]).all()


@pytest.mark.parametrize("tied", [True, False])
@pytest.mark.parametrize("prefix", ["", "transformer."])
def test_state_dict_round_trip_is_exact(tied, prefix):
    config = ModelConfig(**{**CONFIG.__dict__, "tied": tied})
    params = params_of(config, 3, np.float32)
    state = to_gpt2_state_dict(params, config, prefix=prefix)
    assert state[prefix + "h.1.attn.c_attn.weight"].shape == (12, 36)
    loaded_config, loaded = load_gpt2(state, to_gpt2_config(config))
    assert loaded_config == config
    assert set(loaded) == set(params)
    for name, value in params.items():
        assert loaded[name].dtype == np.float32
        assert np.array_equal(loaded[name], value), name


def test_fused_qkv_columns_map_to_heads():
    """Column a d_head + c of the q block of c_attn is head a's column c of W_Q."""
    params = params_of(CONFIG, 4)
    state = to_gpt2_state_dict(params, CONFIG)
    fused = state["h.0.attn.c_attn.weight"]  # (d, 3d)
    w_k = params["blocks.0.attn.w_k"]  # (h, d, d_head)
    assert np.array_equal(fused[:, 12 + 2 * 4 + 1], w_k[2, :, 1])
    assert np.array_equal(
        state["h.0.attn.c_attn.bias"][24 + 4 + 3], params["blocks.0.attn.b_v"][1, 3]
    )
    assert np.array_equal(state["h.0.attn.c_proj.weight"][4 + 2], params["blocks.0.attn.w_o"][1, 2])


def test_safetensors_file_round_trip(tmp_path):
    safetensors_numpy = pytest.importorskip("safetensors.numpy")
    params = params_of(CONFIG, 5, np.float32)
    state = to_gpt2_state_dict(params, CONFIG, prefix="transformer.")
    state["transformer.h.0.attn.bias"] = np.ones((1, 1, 10, 10), dtype=np.float32)  # buffers
    state["transformer.h.1.attn.masked_bias"] = np.array(-1e4, dtype=np.float32)
    safetensors_numpy.save_file(state, str(tmp_path / "model.safetensors"))
    (tmp_path / "config.json").write_text(json.dumps(to_gpt2_config(CONFIG)))
    config, loaded = load_gpt2(tmp_path / "model.safetensors", tmp_path / "config.json")
    assert config == CONFIG
    assert all(np.array_equal(loaded[k], params[k]) for k in params)


def test_save_gpt2_writes_both_files(tmp_path):
    pytest.importorskip("safetensors")
    params = params_of(CONFIG, 6)
    weights, config_path = save_gpt2(tmp_path, params, CONFIG)
    config, loaded = load_gpt2(str(weights), str(config_path))
    assert config == CONFIG and all(np.array_equal(loaded[k], params[k]) for k in params)


def test_save_gpt2_names_a_directory_that_is_not_a_path():
    with pytest.raises(TypeError, match="directory must be a str or path, got dict"):
        save_gpt2(params_of(CONFIG, 6), params_of(CONFIG, 6), CONFIG)


def test_missing_safetensors_is_a_clear_import_error(tmp_path, monkeypatch):
    (tmp_path / "model.safetensors").write_bytes(b"")
    monkeypatch.setitem(sys.modules, "safetensors", None)
    with pytest.raises(ImportError, match=r"pip install 'transformer-proofs\[gpt2\]'"):
        load_gpt2(tmp_path / "model.safetensors", to_gpt2_config(CONFIG))


def test_config_json_fields():
    hf = {
        "n_embd": 8,
        "n_head": 2,
        "n_layer": 1,
        "n_positions": 5,
        "vocab_size": 7,
        "n_inner": None,
        "activation_function": "gelu",
        "layer_norm_epsilon": 1e-6,
    }
    config = config_from_gpt2(hf)
    assert (config.d_ff, config.activation, config.layer_norm_eps) == (32, "gelu", 1e-6)
    assert config_from_gpt2({**hf, "activation_function": "gelu_new"}).activation == "gelu_tanh"
    assert config_from_gpt2({**hf, "tie_word_embeddings": False}).tied is False
    assert config_from_gpt2(to_gpt2_config(config)) == config


def test_config_json_errors_name_the_key():
    hf = to_gpt2_config(CONFIG)
    with pytest.raises(ValueError, match="config is missing the key 'n_head'"):
        config_from_gpt2({k: v for k, v in hf.items() if k != "n_head"})
    with pytest.raises(ValueError, match="config: 'activation_function' must be one of"):
        config_from_gpt2({**hf, "activation_function": "swish"})
    with pytest.raises(ValueError, match="n_head must divide d"):
        config_from_gpt2({**hf, "n_head": 5})
    with pytest.raises(ValueError, match="missing file"):
        config_from_gpt2("/nonexistent/config.json")


def test_weight_errors_name_the_key():
    hf = to_gpt2_config(CONFIG)
    state = to_gpt2_state_dict(params_of(CONFIG, 7), CONFIG)
    with pytest.raises(ValueError, match=r"weights is missing the key 'h.1.mlp.c_fc.bias'"):
        load_gpt2({k: v for k, v in state.items() if k != "h.1.mlp.c_fc.bias"}, hf)
    bad = {**state, "h.0.attn.c_attn.weight": np.ones((12, 24))}
    with pytest.raises(
        ValueError,
        match=r"weights\['h.0.attn.c_attn.weight'\] must have shape "
        r"\(12, 36\), got \(12, 24\)",
    ):
        load_gpt2(bad, hf)
    with pytest.raises(ValueError, match="unexpected key 'h.2.ln_1.weight'"):
        load_gpt2({**state, "h.2.ln_1.weight": np.ones(12)}, hf)
    with pytest.raises(ValueError, match=r"weights\['wpe.weight'\] must be finite"):
        load_gpt2({**state, "wpe.weight": np.full((10, 12), np.nan)}, hf)
    with pytest.raises(ValueError, match="differs from wte.weight but the config ties them"):
        load_gpt2({**state, "lm_head.weight": state["wte.weight"] + 1}, hf)
    with pytest.raises(ValueError, match="existing .safetensors file"):
        load_gpt2("/nonexistent/model.bin", hf)


def test_tied_lm_head_equal_to_wte_is_accepted_and_float16_becomes_float32():
    hf = to_gpt2_config(CONFIG)
    state = to_gpt2_state_dict(params_of(CONFIG, 8), CONFIG)
    half = {k: v.astype(np.float16) for k, v in state.items()}
    half["lm_head.weight"] = half["wte.weight"]
    _, params = load_gpt2(half, hf)
    assert params["wte"].dtype == np.float32
    assert np.array_equal(params["wte"], half["wte.weight"].astype(np.float32))


def test_gpt2_layout_needs_biases_and_positions():
    config = ModelConfig(**{**CONFIG.__dict__, "bias": False})
    with pytest.raises(ValueError, match="GPT-2 layout has biases and learned positions"):
        to_gpt2_config(config)
