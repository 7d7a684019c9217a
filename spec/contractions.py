"""The forward pass's contractions, declared as einsum subscripts over named dimensions.

A contraction of two operands multiplies once for every assignment of all its
index letters, so its multiplication count is the product of their sizes.
numeric/ runs exactly these subscripts; symbolic/ multiplies the sizes as
symbols. Letters: n (query positions), m (key positions; m = n in
self-attention), d, h, k (d_head), f (d_ff), v (|V|).
"""

from __future__ import annotations

from dataclasses import dataclass

LETTERS = {
    "n": "n",
    "m": "m",
    "d": "d",
    "h": "h",
    "k": "d_head",
    "f": "d_ff",
    "v": "vocab",
}


def _check_subscripts(name: str, subscripts: object) -> None:
    """Explicit einsum subscripts "ab,bc->ac": lower-case letters, each output letter
    taken from the inputs once."""
    if not isinstance(subscripts, str):
        raise TypeError(
            f"subscripts of {name} must be a str such as 'nd,df->nf', got "
            f"{type(subscripts).__name__} {subscripts!r}"
        )
    inputs, arrow, output = subscripts.partition("->")
    operands = inputs.split(",")
    letters = set(inputs) - {","}
    if (
        not arrow
        or not all(operands)
        or not all(ch.isascii() and ch.islower() for ch in letters | set(output))
    ):
        raise ValueError(
            f"subscripts of {name} must be explicit einsum subscripts such as "
            f"'nd,df->nf' (lower-case letters), got {subscripts!r}"
        )
    stray = sorted(set(output) - letters)
    if stray or len(set(output)) != len(output):
        raise ValueError(
            f"subscripts of {name}: every output letter must appear in an input "
            f"and only once in the output, got {subscripts!r}"
        )


@dataclass(frozen=True)
class Contraction:
    """One einsum of the forward pass, named by what it computes.

    >>> c = Contraction("mlp_in", "nd,df->nf")
    >>> c.letters, c.dims
    (('n', 'd', 'f'), ('n', 'd', 'd_ff'))
    >>> Contraction("bad", "nd,df")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: subscripts of bad must be explicit einsum subscripts such as 'nd,df->nf' ...
    """

    name: str
    subscripts: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"name must be a non-empty str, got {self.name!r}")
        _check_subscripts(self.name, self.subscripts)

    @property
    def letters(self) -> tuple[str, ...]:
        """Every index letter, in first-appearance order.

        >>> SCORES.letters
        ('h', 'n', 'k', 'm')
        """
        seen: list[str] = []
        for ch in self.subscripts:
            if ch.isalpha() and ch not in seen:
                seen.append(ch)
        return tuple(seen)

    @property
    def dims(self) -> tuple[str, ...]:
        """The dimension names of `letters` (a ValueError for a letter outside LETTERS).

        >>> SCORES.dims
        ('h', 'n', 'd_head', 'm')
        """
        return tuple(_dimension(self, ch) for ch in self.letters)

    @property
    def output_dims(self) -> tuple[str, ...]:
        """The dimension names of the output's letters.

        >>> SCORES.output_dims
        ('h', 'n', 'm')
        """
        return tuple(_dimension(self, ch) for ch in self.subscripts.split("->")[1])


def _dimension(c: Contraction, letter: str) -> str:
    if letter not in LETTERS:
        raise ValueError(
            f"{c.name} ({c.subscripts}): letter {letter!r} names no dimension; "
            f"the letters are {sorted(LETTERS)}"
        )
    return LETTERS[letter]


Q_PROJECTION = Contraction("q_projection", "nd,hdk->hnk")
K_PROJECTION = Contraction("k_projection", "md,hdk->hmk")
V_PROJECTION = Contraction("v_projection", "md,hdk->hmk")
SCORES = Contraction("scores", "hnk,hmk->hnm")
WEIGHTED_SUM = Contraction("weighted_sum", "hnm,hmk->hnk")
OUTPUT_PROJECTION = Contraction("output_projection", "hnk,hkd->nd")

ATTENTION = (Q_PROJECTION, K_PROJECTION, V_PROJECTION, SCORES, WEIGHTED_SUM, OUTPUT_PROJECTION)

MLP_IN = Contraction("mlp_in", "nd,df->nf")
MLP_OUT = Contraction("mlp_out", "nf,fd->nd")

MLP = (MLP_IN, MLP_OUT)

BLOCK = ATTENTION + MLP

LM_HEAD = Contraction("lm_head", "nd,vd->nv")

# The embedding lookup written as the product of the tokens' one-hot rows with E: the
# forward pass looks the rows up and runs no such product, but some FLOP conventions
# count it (docs/flops.md).
ONE_HOT_EMBEDDING = Contraction("one_hot_embedding", "nv,vd->nd")

ATTENTION_WEIGHTS_MEMORY = SCORES.output_dims  # (h, n, m): h n^2 numbers stored
