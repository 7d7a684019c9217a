"""Hyper-parameters of the decoder-only model (定義 2.3) and its variants."""

from __future__ import annotations

from dataclasses import dataclass

ACTIVATIONS = ("gelu", "gelu_tanh", "relu")


def _positive_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be >= 1, got {value}")


@dataclass(frozen=True)
class ModelConfig:
    """Sizes and switches of the model; `sizes()` names every dimension of `spec`.

    vocab = |V|, d = model width, n_layer = L, n_head = h, d_ff = MLP width,
    n_ctx = L_ctx. `bias` switches the attention and MLP biases (LayerNorm keeps
    its gamma and beta), `tied` shares E between input and output, `positions`
    is False for a model without learned position embeddings (RoPE, sinusoids).
    """

    vocab: int
    d: int
    n_layer: int
    n_head: int
    d_ff: int
    n_ctx: int
    bias: bool = True
    tied: bool = True
    positions: bool = True
    activation: str = "gelu"
    layer_norm_eps: float = 1e-5

    def __post_init__(self) -> None:
        for name in ("vocab", "d", "n_layer", "n_head", "d_ff", "n_ctx"):
            _positive_int(name, getattr(self, name))
        if self.d % self.n_head:
            raise ValueError(
                f"n_head must divide d, got d = {self.d} and n_head = {self.n_head}"
            )
        for name in ("bias", "tied", "positions"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be a bool, got {getattr(self, name)!r}")
        if self.activation not in ACTIVATIONS:
            raise ValueError(
                f"activation must be one of {ACTIVATIONS}, got {self.activation!r}"
            )
        eps = self.layer_norm_eps
        if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not eps >= 0:
            raise ValueError(f"layer_norm_eps must be a float >= 0, got {eps!r}")

    def sizes(self) -> dict[str, int]:
        """The value of every dimension name used in `spec` (d_head = d / h)."""
        return {
            "vocab": self.vocab,
            "d": self.d,
            "n_layer": self.n_layer,
            "h": self.n_head,
            "d_head": self.d // self.n_head,
            "d_ff": self.d_ff,
            "n_ctx": self.n_ctx,
        }
