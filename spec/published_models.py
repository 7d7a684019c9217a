"""Model sizes as their publications print them, for the FLOP conventions (docs/flops.md).

GPT-2: the released checkpoints (|V| = 50,257, L_ctx = 1,024, d_ff = 4d). Chinchilla: the
six configurations of Hoffmann et al. 2022, Table A4 (layers, d_model, ffw_size, heads;
heads x k/q size = d_model in every row) and Chinchilla 70B of its Table 4 (ffw_size =
4 d_model); |V| = 32,000 from its model card (Table A8) and a context of 2,048 tokens,
Gopher's (Rae et al. 2021), whose training setup Chinchilla keeps (section 4.1). Only the
sizes that FLOPs depend on are recorded: biases, tying and position embeddings change the
parameters, not the products.
"""

from __future__ import annotations

from spec.config import ModelConfig


def _gpt2(d: int, n_layer: int, n_head: int) -> ModelConfig:
    return ModelConfig(vocab=50257, d=d, n_layer=n_layer, n_head=n_head, d_ff=4 * d, n_ctx=1024)


def _chinchilla(n_layer: int, d: int, d_ff: int, n_head: int) -> ModelConfig:
    return ModelConfig(vocab=32000, d=d, n_layer=n_layer, n_head=n_head, d_ff=d_ff, n_ctx=2048)


MODELS: dict[str, tuple[str, ModelConfig]] = {
    "gpt2": ("GPT-2 small", _gpt2(768, 12, 12)),
    "gpt2-medium": ("GPT-2 medium", _gpt2(1024, 24, 16)),
    "gpt2-large": ("GPT-2 large", _gpt2(1280, 36, 20)),
    "gpt2-xl": ("GPT-2 XL", _gpt2(1600, 48, 25)),
    "chinchilla-73m": ("Chinchilla family, 73M (Table A4)", _chinchilla(10, 640, 2560, 10)),
    "chinchilla-305m": ("Chinchilla family, 305M (Table A4)", _chinchilla(20, 1024, 4096, 16)),
    "chinchilla-552m": ("Chinchilla family, 552M (Table A4)", _chinchilla(24, 1280, 5120, 10)),
    "chinchilla-1.1b": ("Chinchilla family, 1.1B (Table A4)", _chinchilla(26, 1792, 7168, 14)),
    "chinchilla-1.6b": ("Chinchilla family, 1.6B (Table A4)", _chinchilla(28, 2048, 8192, 16)),
    "chinchilla-6.8b": ("Chinchilla family, 6.8B (Table A4)", _chinchilla(40, 3584, 14336, 28)),
    "chinchilla-70b": ("Chinchilla 70B (Table 4)", _chinchilla(80, 8192, 32768, 64)),
}
