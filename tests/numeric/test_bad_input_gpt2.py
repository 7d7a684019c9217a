"""Bad GPT-2 files and configs, one named case each: a ValueError or a TypeError naming the
file (with the line for JSON), the key or the tensor, never a raw SafetensorError,
JSONDecodeError or a silently wrong model. Cases marked "(was a bug)" failed before.
Also the memory the loaded model shares with its source (none) and BF16 tensors, read
exactly."""

import json
import struct

import numpy as np
import pytest

from numeric.gpt2 import (
    config_from_gpt2,
    load_gpt2,
    save_gpt2,
    to_gpt2_config,
    to_gpt2_state_dict,
)
from numeric.kv_cache import Decoder
from numeric.model import forward, init_parameters
from spec import ModelConfig

pytestmark = pytest.mark.numeric

CONFIG = ModelConfig(vocab=7, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=5, activation="gelu_tanh")
HF = to_gpt2_config(CONFIG)


def state_dict(seed=0, dtype=np.float64):
    return to_gpt2_state_dict(init_parameters(CONFIG, np.random.default_rng(seed), dtype), CONFIG)


def safetensors_bytes(tensors):
    """A safetensors file written by hand: {name: (dtype tag, shape, raw bytes)}, so that
    dtypes NumPy has no name for (BF16) can be written."""
    header, offset, data = {}, 0, b""
    for name, (tag, shape, raw) in tensors.items():
        header[name] = {
            "dtype": tag,
            "shape": list(shape),
            "data_offsets": [offset, offset + len(raw)],
        }
        offset += len(raw)
        data += raw
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + data


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Every file a case needs, written once."""
    root = tmp_path_factory.mktemp("gpt2")
    weights, config = save_gpt2(root, init_parameters(CONFIG, np.random.default_rng(0)), CONFIG)
    paths = {"weights": weights, "config": config, "directory": root}
    raw = weights.read_bytes()
    for name, content in (
        ("truncated.safetensors", raw[: len(raw) // 2]),
        ("text.safetensors", b"not a safetensors file at all"),
        (
            "int64.safetensors",
            safetensors_bytes(
                {
                    key: ("I64", arr.shape, arr.astype("<i8").tobytes())
                    for key, arr in state_dict().items()
                }
            ),
        ),
        ("bad.json", b'{"n_embd": 4,\n "n_head": }\n'),
        ("list.json", b"[1, 2, 3]\n"),
        ("latin1.json", '{"n_embd": "\u00e9"}'.encode("latin-1")),
    ):
        paths[name] = root / name
        paths[name].write_bytes(content)
    for key, value in (
        ("n_embd", "8"),
        ("layer_norm_epsilon", "abc"),
        ("activation_function", ["gelu"]),
        ("tie_word_embeddings", "false"),
    ):
        paths[key] = root / f"{key}.json"
        paths[key].write_text(json.dumps({**HF, key: value}))
    return paths


REFUSED = [
    pytest.param(
        lambda f: load_gpt2(f["truncated.safetensors"], f["config"]),
        ValueError,
        r"the weights file '.*truncated\.safetensors' is not a readable safetensors "
        r"file \(truncated, or another format\?\)",
        id="load_gpt2-truncated-weights-file-(was a bug)",
    ),
    pytest.param(
        lambda f: load_gpt2(f["text.safetensors"], f["config"]),
        ValueError,
        r"the weights file '.*text\.safetensors' is not a readable safetensors file",
        id="load_gpt2-text-file-named-safetensors-(was a bug)",
    ),
    pytest.param(
        lambda f: load_gpt2(f["int64.safetensors"], f["config"]),
        ValueError,
        r"the weights file '.*int64\.safetensors': tensor '.*' has the unsupported "
        r"dtype I64; GPT-2 weights must be F16, BF16, F32 or F64",
        id="load_gpt2-int64-tensor",
    ),
    pytest.param(
        lambda f: load_gpt2(f["directory"], f["config"]),
        ValueError,
        r"weights must be a dict of arrays or an existing .safetensors file, got the "
        r"directory",
        id="load_gpt2-weights-path-is-a-directory",
    ),
    pytest.param(
        lambda f: load_gpt2(f["directory"] / "missing.safetensors", f["config"]),
        ValueError,
        r"got a missing file '.*missing\.safetensors'",
        id="load_gpt2-missing-weights-file",
    ),
    pytest.param(
        lambda f: load_gpt2(f["config"], f["config"]),
        ValueError,
        r"weights must be a dict of arrays or an existing .safetensors file, got "
        r"'.*config\.json'",
        id="load_gpt2-weights-not-safetensors",
    ),
    pytest.param(
        lambda f: config_from_gpt2(f["bad.json"]),
        ValueError,
        r".*bad\.json:2:12: the config file '.*bad\.json' is not valid JSON: "
        r"Expecting value",
        id="config_from_gpt2-malformed-json-names-file-and-line-(was a bug)",
    ),
    pytest.param(
        lambda f: config_from_gpt2(f["list.json"]),
        ValueError,
        r"the config file '.*list\.json' must hold a JSON object, got list",
        id="config_from_gpt2-json-list",
    ),
    pytest.param(
        lambda f: config_from_gpt2(f["latin1.json"]),
        ValueError,
        r"the config file '.*latin1\.json' cannot be read as UTF-8 text",
        id="config_from_gpt2-latin1-file",
    ),
    pytest.param(
        lambda f: config_from_gpt2(f["directory"]),
        ValueError,
        r"config must be a config.json dict or path, got the directory",
        id="config_from_gpt2-path-is-a-directory-(was a bug)",
    ),
    pytest.param(
        lambda f: config_from_gpt2(f["directory"] / "missing.json"),
        ValueError,
        r"got a missing file '.*missing\.json'",
        id="config_from_gpt2-missing-file",
    ),
    pytest.param(
        lambda f: config_from_gpt2(f["n_embd"]),
        TypeError,
        r"the config file '.*n_embd\.json': 'n_embd' must be an int, got str '8'",
        id="config_from_gpt2-n_embd-str-names-key-and-file-(was a bug)",
    ),
    pytest.param(
        lambda f: config_from_gpt2(f["layer_norm_epsilon"]),
        TypeError,
        r"the config file '.*': 'layer_norm_epsilon' must be a float >= 0, got str "
        r"'abc'",
        id="config_from_gpt2-layer_norm_epsilon-abc-(was a bug)",
    ),
    pytest.param(
        lambda f: config_from_gpt2(f["activation_function"]),
        TypeError,
        r"the config file '.*': 'activation_function' must be a str, one of .*, got "
        r"list \['gelu'\]",
        id="config_from_gpt2-activation_function-list-(was a bug)",
    ),
    pytest.param(
        lambda f: config_from_gpt2(f["tie_word_embeddings"]),
        TypeError,
        r"the config file '.*': 'tie_word_embeddings' must be a bool, got str 'false'",
        id="config_from_gpt2-tie_word_embeddings-false-as-str-(was a bug)",
    ),
    pytest.param(
        lambda f: config_from_gpt2({**HF, "n_layer": 0}),
        ValueError,
        r"config: 'n_layer' must be >= 1, got 0",
        id="config_from_gpt2-zero-layers",
    ),
    pytest.param(
        lambda f: config_from_gpt2({**HF, "n_inner": 8.0}),
        TypeError,
        r"config: 'n_inner' must be an int, got float 8\.0",
        id="config_from_gpt2-float-n_inner",
    ),
    pytest.param(
        lambda f: config_from_gpt2({**HF, "layer_norm_epsilon": float("inf")}),
        ValueError,
        r"config: 'layer_norm_epsilon' must be a finite float >= 0, got inf",
        id="config_from_gpt2-infinite-epsilon",
    ),
    pytest.param(
        lambda f: config_from_gpt2({**HF, "n_head": 3}),
        ValueError,
        r"config: n_head must divide d, got d = 4 and n_head = 3 \('n_embd' = 4, "
        r"'n_head' = 3\)",
        id="config_from_gpt2-n_head-not-dividing-n_embd",
    ),
    pytest.param(
        lambda f: config_from_gpt2({k: v for k, v in HF.items() if k != "n_head"}),
        ValueError,
        r"config is missing the key 'n_head'",
        id="config_from_gpt2-missing-n_head",
    ),
    pytest.param(
        lambda f: config_from_gpt2({**HF, "activation_function": "swish"}),
        ValueError,
        r"config: 'activation_function' must be one of",
        id="config_from_gpt2-unknown-activation",
    ),
    pytest.param(
        lambda f: config_from_gpt2(["n_embd", 4]),
        TypeError,
        r"config must be a dict of arrays, got list",
        id="config_from_gpt2-list",
    ),
    pytest.param(
        lambda f: load_gpt2(
            {**state_dict(), "wte.weight": np.float32(state_dict()["wte.weight"])}, HF
        ),
        TypeError,
        r"weights mixes float32 arrays \('wte.weight'\) and float64 arrays",
        id="load_gpt2-state-dict-mixing-float32-and-float64-(was a bug)",
    ),
    pytest.param(
        lambda f: load_gpt2({**state_dict(), 7: np.ones(3)}, HF),
        TypeError,
        r"weights has the key 7 of type int",
        id="load_gpt2-int-key",
    ),
    pytest.param(
        lambda f: load_gpt2({**state_dict(), "h.0.attn.c_attn.weight": np.ones((4, 8))}, HF),
        ValueError,
        r"weights\['h.0.attn.c_attn.weight'\] must have shape \(4, 12\), got \(4, 8\)",
        id="load_gpt2-fused-qkv-of-the-wrong-shape",
    ),
    pytest.param(
        lambda f: load_gpt2({**state_dict(), "wpe.weight": np.full((5, 4), np.nan)}, HF),
        ValueError,
        r"weights\['wpe.weight'\] must be finite, got nan at index \(0, 0\)",
        id="load_gpt2-nan-position-table",
    ),
    pytest.param(
        lambda f: to_gpt2_state_dict(
            init_parameters(CONFIG, np.random.default_rng(0)), CONFIG, prefix=1
        ),
        TypeError,
        r"prefix must be a str such as 'transformer.', got int 1",
        id="to_gpt2_state_dict-int-prefix",
    ),
    pytest.param(
        lambda f: save_gpt2(
            f["directory"] / "absent", init_parameters(CONFIG, np.random.default_rng(0)), CONFIG
        ),
        ValueError,
        r"directory must be an existing folder, got '.*absent'",
        id="save_gpt2-missing-directory",
    ),
]


@pytest.mark.parametrize("call, error, message", REFUSED)
def test_bad_file_or_config_is_refused_naming_it(files, call, error, message):
    with pytest.raises(error, match=message):
        call(files)


def test_bf16_tensors_are_widened_to_float32_exactly(tmp_path):
    """BF16 is the upper half of a float32's bits: the loaded arrays are those float32
    values exactly (was a bug: a TypeError from safetensors without the file name)."""
    state = state_dict(dtype=np.float32)
    bits = {key: (arr.view(np.uint32) >> 16).astype("<u2") for key, arr in state.items()}
    path = tmp_path / "bf16.safetensors"
    path.write_bytes(
        safetensors_bytes({key: ("BF16", b.shape, b.tobytes()) for key, b in bits.items()})
    )
    _, params = load_gpt2(path, HF)
    widened = {key: (b.astype(np.uint32) << 16).view(np.float32) for key, b in bits.items()}
    assert params["wte"].dtype == np.float32
    assert np.array_equal(params["wte"], widened["wte.weight"])
    assert np.array_equal(params["blocks.0.mlp.w_1"], widened["h.0.mlp.c_fc.weight"])


def test_load_gpt2_copies_the_state_dict():
    """Changing the state dict after loading leaves the model as loaded (was a bug: the
    params were views of the caller's arrays)."""
    state = state_dict()
    _, params = load_gpt2(state, HF)
    before = forward([1, 2, 3], params, CONFIG)
    for arr in state.values():
        arr[...] = 0.0
    assert not any(np.shares_memory(p, s) for p in params.values() for s in state.values())
    assert np.array_equal(forward([1, 2, 3], params, CONFIG), before)


def test_to_gpt2_state_dict_copies_the_params():
    params = init_parameters(CONFIG, np.random.default_rng(1))
    state = to_gpt2_state_dict(params, CONFIG)
    assert not any(np.shares_memory(p, s) for p in params.values() for s in state.values())


def test_decoder_keeps_the_parameters_it_was_made_with():
    """The cache holds keys and values computed with the parameters at construction; a later
    change to the caller's arrays must not mix two models in one sequence (was a bug)."""
    params = init_parameters(CONFIG, np.random.default_rng(2))
    pristine = {key: arr.copy() for key, arr in params.items()}
    decoder, untouched = Decoder(params, CONFIG), Decoder(pristine, CONFIG)
    decoder.feed(3)
    untouched.feed(3)
    params["blocks.0.mlp.w_1"][...] = 0.0
    assert np.array_equal(decoder.feed(1), untouched.feed(1))
