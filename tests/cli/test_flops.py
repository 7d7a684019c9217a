"""`proofs flops`: the table of the conventions, its JSON as exact integers, the MFU, the
explanation of two conventions, and bad input on one line."""

import json

import pytest
from commands import one_line
from commands import run as main

from spec.flop_conventions import CONVENTIONS
from spec.published_models import MODELS


def test_the_table_has_a_row_for_each_convention(capsys):
    code, out, err = main(capsys, "flops", "--model", "gpt2")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("GPT-2 small: d = 768, L = 12, h = 12, d_ff = 3,072")
    assert [line.split()[0] for line in lines[2:]] == list(CONVENTIONS)
    palm = next(line for line in lines if line.startswith("palm "))
    assert "291,648,307,200" in palm and "874,944,921,600" in palm


def test_json_gives_exact_integers_and_the_mfu(capsys):
    code, out, _ = main(
        capsys, "flops", "--model", "gpt2", "--convention", "palm", "--json",
        "--tokens", 102400, "--seconds", 0.755, "--peak", 312e12,
    )  # fmt: skip
    report = json.loads(out)
    (palm,) = report["conventions"]
    assert code == 0 and palm["forward_per_sequence"] == 291_648_307_200
    assert palm["training_per_token"] * 1024 == palm["training_per_sequence"]
    assert f"{palm['mfu']:.4f}" == "0.3714"
    assert palm["switches"]["vocabulary"] == "logits"
    assert report["sizes"]["n"] == 1024


def test_size_options_replace_the_models_own(capsys):
    _, out, _ = main(capsys, "flops", "--model", "gpt2", "--context", 2048, "--json")
    report = json.loads(out)
    assert report["sizes"]["n"] == 2048 and report["title"] == "GPT-2 small with n_ctx = 2,048"


def test_a_custom_configuration_takes_d_ff_4d_by_default(capsys):
    args = ("--d", 64, "--layers", 2, "--heads", 4, "--context", 16, "--vocab", 100)
    _, out, _ = main(capsys, "flops", *args, "--convention", "chapters", "--json")
    (row,) = json.loads(out)["conventions"]
    # L (12 n d^2 + 2 n^2 d) + n d |V| at d_ff = 4d
    assert row["forward_per_sequence"] == 2 * (12 * 16 * 64**2 + 2 * 16**2 * 64) + 16 * 64 * 100


def test_explain_splits_the_difference_into_the_switches(capsys):
    code, out, _ = main(capsys, "flops", "--model", "gpt2", "--explain", "kaplan", "palm")
    lines = out.splitlines()
    start = lines.index("") + 1
    c = MODELS["gpt2"][1]
    vocabulary = 2 * c.vocab * c.d * c.n_ctx
    causal = 2 * c.n_layer * c.d * c.n_ctx**2
    total = vocabulary + causal
    assert code == 0
    assert lines[start:] == [
        f"kaplan - palm, forward FLOPs of one sequence: -2*L*d*n**2 - 2*V*d*n = {-total:,}",
        f"  vocabulary: logits -> none: -2*V*d*n = {-vocabulary:,} "
        f"({100 * vocabulary / total:.2f} %)",
        f"  causal_half: False -> True: -2*L*d*n**2 = {-causal:,} ({100 * causal / total:.2f} %)",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--model", "gpt3"), "flops: unknown model 'gpt3'; nearest: gpt2"),
        (("--model", "gpt2", "--convention", "kaplna"), "unknown convention 'kaplna'; nearest"),
        (("--model", "gpt2", "--explain", "palm", "mfu"), "unknown convention 'mfu'"),
        (("--d", "7.5"), "argument --d: expected an integer >= 1, got '7.5'"),
        (("--layers", "-2"), "argument --layers: expected an integer >= 1, got '-2'"),
        (("--d", 64, "--layers", 2), "missing --heads, --context, --vocab"),
        (("--model", "gpt2", "--heads", 7), "--heads must divide --d, got d = 768 and 7 heads"),
        (("--model", "gpt2", "--peak", 0), "argument --peak: expected a finite number > 0"),
        (("--model", "gpt2", "--seconds", "nan"), "argument --seconds: expected a finite"),
        (("--model", "gpt2", "--tokens", 10), "an MFU needs --tokens, --seconds and --peak"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(capsys, args, message):
    code, out, err = main(capsys, "flops", *args)
    assert (code, out) == (2, "")
    assert message in one_line(err)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_every_published_model_is_accepted(capsys, model):
    code, out, _ = main(capsys, "flops", "--model", model, "--convention", "torch")
    assert code == 0 and MODELS[model][0] in out
