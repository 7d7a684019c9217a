"""Every parameter array of the model, declared as a shape over dimension names.

Dimension names: vocab (|V|), n_ctx (L_ctx), d, h, d_head (= d / h), d_ff.
Head-first layout: the per-head projections are (h, d, d_head) and the output
projection is (h, d_head, d), i.e. W_O of 定義 4.1 with its rows split by head.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from spec.checks import require_bool

DIMENSIONS = ("vocab", "n_ctx", "d", "h", "d_head", "d_ff")


@dataclass(frozen=True)
class Parameter:
    """One array: its dotted name, its shape as dimension names, where it lives.

    >>> Parameter("attn.w_q", ("h", "d", "d_head")).dims
    ('h', 'd', 'd_head')
    >>> Parameter("w", ("width",))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: Parameter 'w': dimension 'width' is not one of ('vocab', 'n_ctx', 'd', ...)
    """

    name: str
    dims: tuple[str, ...]
    per_layer: bool = False  # one copy in each of the n_layer blocks

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"name must be a non-empty str, got {self.name!r}")
        if not isinstance(self.dims, tuple):
            raise TypeError(
                f"Parameter {self.name!r}: dims must be a tuple of dimension "
                f"names, got {type(self.dims).__name__} {self.dims!r}"
            )
        for dim in self.dims:
            if dim not in DIMENSIONS:
                raise ValueError(
                    f"Parameter {self.name!r}: dimension {dim!r} is not one of {DIMENSIONS}"
                )
        require_bool("per_layer", self.per_layer)


LAYER_NORM = (("gamma", ("d",)), ("beta", ("d",)))

ATTENTION_WEIGHTS = (
    ("w_q", ("h", "d", "d_head")),
    ("w_k", ("h", "d", "d_head")),
    ("w_v", ("h", "d", "d_head")),
    ("w_o", ("h", "d_head", "d")),
)
ATTENTION_BIASES = (
    ("b_q", ("h", "d_head")),
    ("b_k", ("h", "d_head")),
    ("b_v", ("h", "d_head")),
    ("b_o", ("d",)),
)

MLP_WEIGHTS = (("w_1", ("d", "d_ff")), ("w_2", ("d_ff", "d")))
MLP_BIASES = (("b_1", ("d_ff",)), ("b_2", ("d",)))


def _group(
    prefix: str, entries: Iterable[tuple[str, tuple[str, ...]]], per_layer: bool
) -> tuple[Parameter, ...]:
    return tuple(Parameter(f"{prefix}.{name}", dims, per_layer) for name, dims in entries)


def attention_parameters(bias: bool = True) -> tuple[Parameter, ...]:
    """Multi-head self-attention (定義 4.1): W_Q, W_K, W_V, W_O and their biases.

    >>> [p.name for p in attention_parameters(bias=False)]
    ['attn.w_q', 'attn.w_k', 'attn.w_v', 'attn.w_o']
    """
    require_bool("bias", bias)
    entries = ATTENTION_WEIGHTS + (ATTENTION_BIASES if bias else ())
    return _group("attn", entries, per_layer=False)


def mlp_parameters(bias: bool = True) -> tuple[Parameter, ...]:
    """Position-wise MLP (定義 2.2): W_1, b_1, W_2, b_2.

    >>> [p.dims for p in mlp_parameters()]
    [('d', 'd_ff'), ('d_ff', 'd'), ('d_ff',), ('d',)]
    """
    require_bool("bias", bias)
    entries = MLP_WEIGHTS + (MLP_BIASES if bias else ())
    return _group("mlp", entries, per_layer=False)


def layer_norm_parameters(prefix: str = "ln") -> tuple[Parameter, ...]:
    """LayerNorm (定義 2.1): gamma and beta.

    >>> [p.name for p in layer_norm_parameters("ln_f")]
    ['ln_f.gamma', 'ln_f.beta']
    """
    if not isinstance(prefix, str) or not prefix:
        raise TypeError(f"prefix must be a non-empty str such as 'ln_1', got {prefix!r}")
    return _group(prefix, LAYER_NORM, per_layer=False)


def block_parameters(bias: bool = True) -> tuple[Parameter, ...]:
    """One Pre-LN (or Post-LN) block: LN_1, attention, LN_2, MLP.

    >>> len(block_parameters(bias=True)), len(block_parameters(bias=False))
    (16, 10)
    """
    return (
        layer_norm_parameters("ln_1")
        + attention_parameters(bias)
        + layer_norm_parameters("ln_2")
        + mlp_parameters(bias)
    )


def model_parameters(
    bias: bool = True, tied: bool = True, positions: bool = True
) -> tuple[Parameter, ...]:
    """The decoder-only model of 定義 2.3 and its variants (定理 5.1).

    Block parameters carry per_layer=True and the name prefix "blocks."; the
    allocation gives layer l the names "blocks.{l}.…".

    >>> [p.name for p in model_parameters()][:3]
    ['wte', 'wpe', 'blocks.ln_1.gamma']
    """
    for name, value in (("bias", bias), ("tied", tied), ("positions", positions)):
        require_bool(name, value)
    params = [Parameter("wte", ("vocab", "d"))]
    if positions:
        params.append(Parameter("wpe", ("n_ctx", "d")))
    params += [
        Parameter(f"blocks.{p.name}", p.dims, per_layer=True) for p in block_parameters(bias)
    ]
    params += list(layer_norm_parameters("ln_f"))
    if not tied:
        params.append(Parameter("lm_head", ("vocab", "d")))
    return tuple(params)
