"""The published FLOP conventions, each declared as five switches over the forward pass's
declared contractions (docs/flops.md).

A convention is no formula here: symbolic.flops multiplies out the contractions of
spec.contractions and applies the switches, so that every published count is the same
polynomial read five ways. The five choices on which the publications differ:

1. the vocabulary products: none, the output layer's logits, or the logits and the
   embedding lookup written as a one-hot product;
2. whether the causal mask halves the two n^2 products (scores, weighted sum);
3. how many FLOPs a multiply-add is: 1 or 2;
4. what the softmax and the LayerNorms add, in FLOPs per attention score and per
   normalised element (0: not counted);
5. whether a fused attention kernel (scores, softmax and weighted sum in one call) is seen.

Training is three forward passes (the backward twice the forward) in every convention.
"""

from __future__ import annotations

from dataclasses import dataclass

from spec.checks import require_bool

VOCABULARY = ("none", "logits", "logits and embeddings")
TRAINING_PASSES = 3  # forward + backward, the backward counted as twice the forward


@dataclass(frozen=True)
class Switches:
    """The five choices of a FLOP convention.

    >>> Switches("logits", causal_half=False, multiply_add=2).softmax
    0
    >>> Switches("logit", causal_half=False, multiply_add=2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: vocabulary must be one of ('none', 'logits', 'logits and embeddings'), ...
    """

    vocabulary: str
    causal_half: bool
    multiply_add: int
    softmax: int = 0  # FLOPs per attention score
    normalisation: int = 0  # FLOPs per element a LayerNorm normalises
    fused_attention: bool = True  # the fused kernel's products are seen

    def __post_init__(self) -> None:
        if self.vocabulary not in VOCABULARY:
            raise ValueError(f"vocabulary must be one of {VOCABULARY}, got {self.vocabulary!r}")
        require_bool("causal_half", self.causal_half)
        require_bool("fused_attention", self.fused_attention)
        if self.multiply_add not in (1, 2) or isinstance(self.multiply_add, bool):
            raise ValueError(f"multiply_add must be 1 or 2 FLOPs, got {self.multiply_add!r}")
        for name in ("softmax", "normalisation"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} must be an int >= 0 (FLOPs per element), got {value!r}")


@dataclass(frozen=True)
class Convention:
    """A published way of counting, its source, and its switches."""

    name: str
    title: str
    source: str
    switches: Switches


CONVENTIONS = {
    c.name: c
    for c in (
        Convention(
            "chapters",
            "the chapters' multiplications",
            "命題 7.2［自己注意］ 4nd^2 + 2n^2 d; 命題 6.1 2nd d_ff per block and nd|V| for the "
            "output layer",
            Switches("logits", causal_half=False, multiply_add=1),
        ),
        Convention(
            "kaplan",
            "Kaplan et al. 2020",
            "Scaling Laws for Neural Language Models, Table 1 and eq. 2.2: C_forward = "
            "2N + 2 n_layer n_ctx d_attn per token, N = 2 d_model n_layer (2 d_attn + d_ff)",
            Switches("none", causal_half=True, multiply_add=2),
        ),
        Convention(
            "chinchilla",
            "Hoffmann et al. 2022",
            "Training Compute-Optimal Large Language Models, Appendix F: embeddings, "
            "attention (softmax 3 x num_heads x seq_len^2), dense block, final logits",
            Switches("logits and embeddings", causal_half=False, multiply_add=2, softmax=3),
        ),
        Convention(
            "palm",
            "PaLM (Chowdhery et al. 2022), nanoGPT",
            "PaLM, Appendix B: 6N + 12LHQT training FLOPs per token; nanoGPT's "
            "GPT.estimate_mfu with N = get_num_params()",
            Switches("logits", causal_half=False, multiply_add=2),
        ),
        Convention(
            "megatron",
            "Megatron-LM",
            "megatron/training/training.py, num_floating_point_operations: 3 x 2 x every GEMM, "
            "the core attention halved for the causal mask",
            Switches("logits", causal_half=True, multiply_add=2),
        ),
        Convention(
            "maxtext",
            "MaxText",
            "maxtext_utils.calculate_tflops_training_per_device: causal_attention_flops = "
            "noncausal_attention_flops / 2 (since 2025)",
            Switches("logits", causal_half=True, multiply_add=2),
        ),
        Convention(
            "torch",
            "torch.utils.flop_counter",
            "FlopCounterMode: 2mnk per matrix product, scaled_dot_product_attention as its "
            'two products ("We aren\'t accounting for causal attention here"); eager '
            "attention or a GPU kernel",
            Switches("logits", causal_half=False, multiply_add=2),
        ),
        Convention(
            "torch-cpu-sdpa",
            "torch.utils.flop_counter, fused attention on the CPU",
            "FlopCounterMode has no formula for aten._scaled_dot_product_flash_attention_for_cpu "
            "(torch 2.13): the fused kernel counts 0",
            Switches("logits", causal_half=False, multiply_add=2, fused_attention=False),
        ),
        Convention(
            "fvcore",
            "fvcore",
            'FlopCountAnalysis: "We count one fused multiply-add as one flop"; '
            "aten::layer_norm 5 per element with an affine map; softmax not counted",
            Switches("logits", causal_half=False, multiply_add=1, normalisation=5),
        ),
        Convention(
            "fvcore-sdpa",
            "fvcore, fused attention",
            "FlopCountAnalysis has no handle for aten::scaled_dot_product_attention: the fused "
            "kernel counts 0",
            Switches(
                "logits", causal_half=False, multiply_add=1, normalisation=5, fused_attention=False
            ),
        ),
    )
}
