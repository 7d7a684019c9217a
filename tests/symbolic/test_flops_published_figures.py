"""Figures printed by publications, reproduced from the derived conventions at their
configurations: nanoGPT's transformer_sizing.ipynb (GPT-2 small), Chinchilla's Table A4 at
its printed precision, Kaplan's count at the GPT-2 sizes. The printed numbers are typed
here as the publications print them."""

from dataclasses import replace
from fractions import Fraction

import pytest

from spec.flop_conventions import CONVENTIONS
from spec.published_models import MODELS
from symbolic.flops import forward_flops, training_flops, values


def at(expr, model: str, tokens: int | None = None) -> Fraction:
    config = MODELS[model][1]
    value = expr.subs(values(config.sizes(), tokens or config.n_ctx))
    return Fraction(int(value.p), int(value.q))


# nanoGPT, transformer_sizing.ipynb, GPT-2 small (block_size 1024, bias=False), as printed
NANOGPT_FORWARD_TOTAL = 291_648_307_200
NANOGPT_TOTAL = 874_944_921_600
NANOGPT_PARAMS_TOTAL = 124_337_664  # "we see: 124337664"
NANOGPT_POSITION_EMBEDDING = 786_432  # "emebedding/position"
NANOGPT_PALM_FLOPS = 875_062_886_400
NANOGPT_RATIO = "1.0001"
NANOGPT_A100_FRACTION = "37.14"  # batch 20 x 5 grad_accum in 0.755 s at 312 TFLOPS


def test_prop_block_complexity_nanogpt_transformer_sizing_gpt2_small():
    palm = CONVENTIONS["palm"].switches
    assert at(forward_flops(palm), "gpt2") == NANOGPT_FORWARD_TOTAL
    assert at(training_flops(palm), "gpt2") == NANOGPT_TOTAL
    # palm_flops(): 6N + 12LHQT with N = params()['total'] - the position embeddings
    config = MODELS["gpt2"][1]
    N = NANOGPT_PARAMS_TOTAL - NANOGPT_POSITION_EMBEDDING
    head = config.d // config.n_head
    per_token = 6 * N + 12 * config.n_layer * config.n_head * head * config.n_ctx
    assert per_token * config.n_ctx == NANOGPT_PALM_FLOPS
    assert f"{NANOGPT_PALM_FLOPS / NANOGPT_TOTAL:.4f}" == NANOGPT_RATIO
    # the difference: 6 FLOPs a token for each of the 2L + 1 LayerNorm gains, no product's
    assert NANOGPT_PALM_FLOPS - NANOGPT_TOTAL == 6 * config.n_ctx * (2 * 12 + 1) * config.d
    throughput = 20 * 5 / 0.755  # sequences a second
    fraction = at(training_flops(palm), "gpt2") * Fraction(throughput) / 312_000_000_000_000
    assert f"{float(fraction) * 100:.2f}" == NANOGPT_A100_FRACTION


def test_nanogpt_figures_reject_the_causal_halving():
    halved = replace(CONVENTIONS["palm"].switches, causal_half=True)
    assert at(forward_flops(halved), "gpt2") != NANOGPT_FORWARD_TOTAL


# Chinchilla (Hoffmann et al. 2022), Table A4, as printed: the model's parameters (also in
# Table A9, in millions), the ratio of Appendix F's FLOPs a sequence to 6ND
TABLE_A4 = {
    "chinchilla-73m": (74, "1.03"),
    "chinchilla-305m": (306, "1.10"),
    "chinchilla-552m": (552, "1.08"),
    "chinchilla-1.1b": (1143, "1.04"),
    "chinchilla-1.6b": (1593, "1.03"),
    "chinchilla-6.8b": (6796, "0.99"),
}


def ratio_interval(flops: Fraction, tokens: int, millions: int) -> tuple[Fraction, Fraction]:
    """flops / (6 N D) for one sequence (D = its tokens), over every N that rounds to
    `millions` million parameters."""
    low, high = (Fraction(2 * millions + s, 2) * 10**6 for s in (-1, 1))
    return flops / (6 * tokens * high), flops / (6 * tokens * low)


def printed_interval(text: str) -> tuple[Fraction, Fraction]:
    half = Fraction(1, 2 * 10 ** len(text.split(".")[1]))
    return Fraction(text) - half, Fraction(text) + half


def overlaps(a: tuple[Fraction, Fraction], b: tuple[Fraction, Fraction]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


@pytest.mark.parametrize("model", sorted(TABLE_A4))
def test_chinchilla_table_a4_without_the_vocabulary_lines(model):
    """Appendix F's count without its embeddings and logits lines (the reading with which
    nanoGPT's scaling_laws.ipynb reproduces the table), |V| = 32,000 and 2,048 tokens: the
    ratio to 6ND over the parameters Table A9 prints meets the printed ratio's rounding
    interval in every row."""
    switches = replace(CONVENTIONS["chinchilla"].switches, vocabulary="none")
    millions, printed = TABLE_A4[model]
    tokens = MODELS[model][1].n_ctx
    reproduced = ratio_interval(at(training_flops(switches), model), tokens, millions)
    assert overlaps(reproduced, printed_interval(printed)), (model, reproduced)


def test_chinchilla_table_a4_is_not_appendix_f_with_its_vocabulary_lines():
    """With the embeddings and logits lines that Appendix F lists, the 73M row's ratio is
    about 1.58, not the 1.03 printed: the table does not count them."""
    switches = CONVENTIONS["chinchilla"].switches
    millions, printed = TABLE_A4["chinchilla-73m"]
    tokens = MODELS["chinchilla-73m"][1].n_ctx
    reproduced = ratio_interval(at(training_flops(switches), "chinchilla-73m"), tokens, millions)
    assert not overlaps(reproduced, printed_interval(printed))
    assert f"{float(reproduced[0]):.2f}" == "1.57" and f"{float(reproduced[1]):.2f}" == "1.59"


# Kaplan et al. 2020 print no figure for GPT-2: their C_forward = 2N + 2 n_layer n_ctx
# d_attn with N = 12 n_layer d_model^2 (eq. 2.1 at d_attn = d_ff/4 = d_model), at the
# four GPT-2 sizes and n_ctx = 1024, against the derived count
@pytest.mark.parametrize("model", ["gpt2", "gpt2-medium", "gpt2-large", "gpt2-xl"])
def test_prop_block_complexity_kaplan_per_token_at_the_gpt2_sizes(model):
    config = MODELS[model][1]
    N = 12 * config.n_layer * config.d**2
    c_forward = 2 * N + 2 * config.n_layer * config.n_ctx * config.d
    per_token = at(forward_flops(CONVENTIONS["kaplan"].switches), model) / config.n_ctx
    assert per_token == c_forward
    # the context term Kaplan drops for C ~ 6N: n_ctx / (12 d_model) of 2N
    assert Fraction(per_token - 2 * N, 2 * N) == Fraction(config.n_ctx, 12 * config.d)
