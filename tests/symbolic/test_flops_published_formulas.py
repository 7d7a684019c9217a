"""Each publication's FLOP formula, typed here as printed (the published reference), equals
the polynomial symbolic.flops derives from the declared contractions under the
convention's switches, for symbolic sizes; where the publication approximates (Kaplan's
2N and 6N, PaLM's and nanoGPT's 6N over every parameter), the exact difference is stated.

Symbols: n tokens a sequence (n_ctx = seq_len = T = s = S), d = d_model = d_attn = emb_dim,
h heads of d/h (key_size, Q, head_dim, kv_channels), L layers, d_ff = ffw_size = mlp_dim,
V = |V| = n_vocab = vocab_size.
"""

from dataclasses import replace

import pytest
from sympy import expand, factor

from spec.flop_conventions import CONVENTIONS
from symbolic.counts import block_multiplications, model_parameters
from symbolic.flops import forward_flops, training_flops
from symbolic.symbols import L, V, d, d_ff, h, n


def forward(name: str):
    return forward_flops(CONVENTIONS[name].switches)


def training(name: str):
    return training_flops(CONVENTIONS[name].switches)


# Kaplan et al. 2020, Table 1 and eq. 2.2 (per token, d_attn = d_model)
KAPLAN_N = 2 * d * L * (2 * d + d_ff)
KAPLAN_C_FORWARD = 2 * KAPLAN_N + 2 * L * n * d


def test_prop_block_complexity_kaplan_c_forward_is_the_causal_count_without_the_vocabulary():
    assert expand(forward("kaplan") / n - KAPLAN_C_FORWARD) == 0


def test_prop_block_complexity_kaplan_table_1_row_by_row():
    s = CONVENTIONS["kaplan"].switches
    from symbolic.flops import forward_terms

    per_token = {k: expand(v / n) for k, v in forward_terms(s).items()}
    qkv = per_token["q_projection"] + per_token["k_projection"] + per_token["v_projection"]
    assert qkv == 2 * L * d * 3 * d  # Attention: QKV
    assert per_token["scores"] + per_token["weighted_sum"] == 2 * L * n * d  # Attention: Mask
    assert per_token["output_projection"] == 2 * L * d * d  # Attention: Project
    assert per_token["mlp_in"] + per_token["mlp_out"] == 2 * L * 2 * d * d_ff  # Feedforward
    with_logits = forward_terms(replace(s, vocabulary="logits"))
    assert expand(with_logits["lm_head"] / n) == 2 * d * V  # De-embed, outside C_forward


def test_prop_block_complexity_kaplan_approximations_differ_by_the_context_term():
    # C_forward ~ 2N and C ~ 6N leave out 2 n_layer n_ctx d_attn a pass: n/(12 d) of 2N
    # at d_ff = 4d, "a relatively small fraction" when d_model > n_ctx/12
    assert expand(forward("kaplan") / n - 2 * KAPLAN_N) == 2 * L * n * d
    assert expand(training("kaplan") / n - 6 * KAPLAN_N) == 6 * L * n * d
    share = factor((2 * L * n * d / (2 * KAPLAN_N)).subs(d_ff, 4 * d))
    assert share == n / (12 * d)


def test_kaplan_formula_rejects_full_attention():
    full = replace(CONVENTIONS["kaplan"].switches, causal_half=False)
    assert expand(forward_flops(full) / n - KAPLAN_C_FORWARD) == 2 * L * n * d


# Hoffmann et al. 2022 (Chinchilla), Appendix F (one sequence; key_size x num_heads = d)
KEY_SIZE_HEADS = (d / h) * h
CHINCHILLA_ATTENTION = (
    2 * 3 * n * d * KEY_SIZE_HEADS  # key, query and value projections
    + 2 * n * n * KEY_SIZE_HEADS  # key @ query logits
    + 3 * h * n * n  # softmax
    + 2 * n * n * KEY_SIZE_HEADS  # softmax @ query reductions
    + 2 * n * KEY_SIZE_HEADS * d  # final linear
)
CHINCHILLA_DENSE = 2 * n * (d * d_ff + d * d_ff)
CHINCHILLA_FORWARD = (
    2 * n * V * d  # embeddings
    + L * (CHINCHILLA_ATTENTION + CHINCHILLA_DENSE)
    + 2 * n * d * V  # final logits
)


def test_prop_block_complexity_chinchilla_appendix_f():
    assert expand(forward("chinchilla") - CHINCHILLA_FORWARD) == 0
    assert expand(training("chinchilla") - 3 * CHINCHILLA_FORWARD) == 0  # backward = 2 forward


def test_chinchilla_formula_rejects_a_count_without_the_softmax():
    without = replace(CONVENTIONS["chinchilla"].switches, softmax=0)
    assert expand(CHINCHILLA_FORWARD - forward_flops(without)) == 3 * L * h * n**2


# PaLM, Appendix B, and nanoGPT's estimate_mfu: 6N + 12LHQT training FLOPs per token,
# N = get_num_params() (every parameter but the position embeddings; the tied E counted once)
def palm_published(bias: bool = True):
    N = model_parameters(bias=bias, positions=False)
    return 6 * N + 12 * L * h * (d / h) * n


def test_prop_block_complexity_palm_6n_counts_the_biases_and_norms_as_products():
    # N also holds each block's biases (4d + d_ff + d) and LayerNorm gains and offsets
    # (4d), and the final LayerNorm's (2d): no product multiplies them, yet 6N counts 6
    # FLOPs a token for each
    difference = expand(palm_published() - training("palm") / n)
    assert difference == expand(6 * (L * (9 * d + d_ff) + 2 * d))
    difference = expand(palm_published(bias=False) - training("palm") / n)
    assert difference == expand(6 * (L * 4 * d + 2 * d))


def test_palm_formula_rejects_a_halved_attention():
    halved = replace(CONVENTIONS["palm"].switches, causal_half=True)
    difference = expand(palm_published(bias=False) - training_flops(halved) / n)
    assert difference != expand(6 * (L * 4 * d + 2 * d))


# Megatron-LM, megatron/training/training.py num_floating_point_operations: batch 1, one
# sequence of s = n, multi-head attention (num_query_groups = num_attention_heads,
# kv_channels = d/h), no SwiGLU, no MoE, no MTP, padded_vocab_size = V
def megatron_published():
    forward_backward_expansion_factor, fma_expansion_factor, ffn_expansion_factor = 3, 2, 2
    query_projection_size = key_projection_size = value_projection_size = (d / h) * h
    standard_self_attn_term = (
        forward_backward_expansion_factor
        * fma_expansion_factor
        * (
            d * (query_projection_size + key_projection_size + value_projection_size)
            + query_projection_size * d
        )
    )
    standard_self_attn_core_term = (
        forward_backward_expansion_factor * fma_expansion_factor * query_projection_size / 2 * 2
    )
    return (
        n
        * (
            forward_backward_expansion_factor
            * fma_expansion_factor
            * d
            * (d_ff * ffn_expansion_factor * L)
            + standard_self_attn_term * L
            + forward_backward_expansion_factor * fma_expansion_factor * d * V
        )
        + n * n * standard_self_attn_core_term * L
    )


def test_prop_attention_complexity_megatron_halves_the_core_attention():
    assert expand(training("megatron") - megatron_published()) == 0


# MaxText, maxtext_utils.calculate_tflops_training_per_device (FLOPs, not TFLOPs): batch 1,
# one sequence, mlp_activations of one function, num_kv_heads = num_query_heads
def maxtext_published():
    ffn1_flops = 2 * n * d_ff * d * 1
    ffn2_flops = 2 * n * d_ff * d
    qkv_flops = 2 * n * d * (h + 2 * h) * (d / h)
    noncausal_attention_flops = 4 * n**2 * h * (d / h)
    projection_flops = 2 * n * d * h * (d / h)
    causal_attention_flops = noncausal_attention_flops / 2
    embedding_flops = 2 * n * d * V
    learnable_weight_flops = ((ffn1_flops + ffn2_flops + qkv_flops + projection_flops) * L) * 3
    learnable_weight_flops += embedding_flops * 3
    attention_flops = causal_attention_flops * L * 3
    return learnable_weight_flops + attention_flops


def test_megatron_formula_rejects_the_whole_attention():
    whole = replace(CONVENTIONS["megatron"].switches, causal_half=False)
    assert expand(training_flops(whole) - megatron_published()) == 6 * L * d * n**2


def test_prop_attention_complexity_maxtext_is_megatrons_convention():
    assert expand(training("maxtext") - maxtext_published()) == 0
    assert expand(maxtext_published() - megatron_published()) == 0


# torch.utils.flop_counter: 2mnk per matrix product (mm, addmm, bmm; sdpa as its two
# bmm), nothing else; one sequence
def torch_published():
    mm = 2 * n * d * 3 * d + 2 * n * d * d + 2 * n * d * d_ff + 2 * n * d_ff * d
    sdpa = 2 * h * n * (d / h) * n + 2 * h * n * n * (d / h)
    return L * (mm + sdpa) + 2 * n * d * V


# fvcore: one FLOP a multiply-add; aten::layer_norm 5 FLOPs an element (affine)
def fvcore_published():
    matmul = n * d * 3 * d + n * d * d + n * d * d_ff + n * d_ff * d + 2 * h * n * n * (d / h)
    layer_norm = 5 * n * d
    return L * (matmul + 2 * layer_norm) + n * d * V + layer_norm


def test_prop_block_complexity_torch_and_fvcore():
    assert expand(forward("torch") - torch_published()) == 0
    assert expand(forward("fvcore") - fvcore_published()) == 0
    # fvcore is half of torch's count but for its LayerNorms, 5 n d each, 2L + 1 of them
    assert expand(forward("fvcore") - forward("torch") / 2) == expand(5 * n * d * (2 * L + 1))


def test_torch_and_fvcore_formulas_reject_the_other_multiply_add():
    assert expand(forward("fvcore") - torch_published()) != 0
    one = replace(CONVENTIONS["torch"].switches, multiply_add=1)
    assert expand(forward_flops(one) - torch_published()) != 0


def test_prop_attention_complexity_an_unseen_fused_kernel_drops_the_two_n2_products():
    assert expand(forward("torch") - forward("torch-cpu-sdpa")) == 4 * L * n**2 * d
    assert expand(forward("fvcore") - forward("fvcore-sdpa")) == 2 * L * n**2 * d


def test_prop_block_complexity_the_chapters_count_12nd2_plus_2n2d_a_layer():
    # 命題 6.1: 12nd^2 + 2n^2 d a block at d_ff = 4d, and nd|V| for the output layer
    derived = forward("chapters").subs(d_ff, 4 * d)
    assert expand(derived.coeff(L)) == block_multiplications(width=4 * d)
    assert expand(derived.coeff(L)) == 12 * n * d**2 + 2 * n**2 * d
    assert expand(derived - L * derived.coeff(L)) == n * d * V


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_every_convention_is_a_multiple_of_the_chapters_products_plus_its_extras(name):
    # with the multiplications of the declared contractions as the only products, a
    # convention of 2 FLOPs a multiply-add without extras is twice the chapters' count
    switches = CONVENTIONS[name].switches
    plain = replace(
        switches,
        vocabulary="logits",
        causal_half=False,
        softmax=0,
        normalisation=0,
        fused_attention=True,
    )
    assert expand(forward_flops(plain) - switches.multiply_add * forward("chapters")) == 0
