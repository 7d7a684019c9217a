"""Hyper-parameters of the decoder-only model (定義 2.3) and its variants."""

from __future__ import annotations

from dataclasses import dataclass

from spec.checks import nonnegative_float, positive_int, require_bool

ACTIVATIONS = ("gelu", "gelu_tanh", "relu")
SIZE_FIELDS = ("vocab", "d", "n_layer", "n_head", "d_ff", "n_ctx")
SWITCH_FIELDS = ("bias", "tied", "positions")


@dataclass(frozen=True)
class ModelConfig:
    """Sizes and switches of the model; `sizes()` names every dimension of `spec`.

    vocab = |V|, d = model width, n_layer = L, n_head = h, d_ff = MLP width,
    n_ctx = L_ctx. `bias` switches the attention and MLP biases (LayerNorm keeps
    its gamma and beta), `tied` shares E between input and output, `positions`
    is False for a model without learned position embeddings (RoPE, sinusoids).
    Every field is checked: sizes are ints >= 1 (NumPy integers become ints),
    switches are bools, layer_norm_eps is a finite float >= 0.

    >>> config = ModelConfig(vocab=50, d=8, n_layer=2, n_head=2, d_ff=32, n_ctx=16)
    >>> config.sizes()["d_head"]
    4
    >>> ModelConfig(vocab=50, d=8, n_layer=2, n_head=2, d_ff=32, n_ctx=16,
    ...             layer_norm_eps=float("inf"))
    Traceback (most recent call last):
    ValueError: layer_norm_eps must be a finite float >= 0, got inf
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
        # frozen: the normalised values are stored with object.__setattr__
        for name in SIZE_FIELDS:
            object.__setattr__(self, name, positive_int(name, getattr(self, name)))
        if self.d % self.n_head:
            raise ValueError(f"n_head must divide d, got d = {self.d} and n_head = {self.n_head}")
        for name in SWITCH_FIELDS:
            object.__setattr__(self, name, require_bool(name, getattr(self, name)))
        if not isinstance(self.activation, str):
            raise TypeError(
                f"activation must be a str, one of {ACTIVATIONS}, got "
                f"{type(self.activation).__name__} {self.activation!r}"
            )
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {ACTIVATIONS}, got {self.activation!r}")
        object.__setattr__(
            self, "layer_norm_eps", nonnegative_float("layer_norm_eps", self.layer_norm_eps)
        )

    def sizes(self) -> dict[str, int]:
        """The value of every dimension name used in `spec` (d_head = d / h).

        >>> ModelConfig(vocab=5, d=6, n_layer=1, n_head=3, d_ff=4, n_ctx=2).sizes()["h"]
        3
        """
        return {
            "vocab": self.vocab,
            "d": self.d,
            "n_layer": self.n_layer,
            "h": self.n_head,
            "d_head": self.d // self.n_head,
            "d_ff": self.d_ff,
            "n_ctx": self.n_ctx,
        }
