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


@dataclass(frozen=True)
class Contraction:
    """One einsum of the forward pass, named by what it computes."""

    name: str
    subscripts: str

    @property
    def letters(self) -> tuple[str, ...]:
        """Every index letter, in first-appearance order."""
        seen: list[str] = []
        for ch in self.subscripts:
            if ch.isalpha() and ch not in seen:
                seen.append(ch)
        return tuple(seen)

    @property
    def dims(self) -> tuple[str, ...]:
        """The dimension names of `letters`."""
        return tuple(LETTERS[ch] for ch in self.letters)

    @property
    def output_dims(self) -> tuple[str, ...]:
        return tuple(LETTERS[ch] for ch in self.subscripts.split("->")[1])


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

ATTENTION_WEIGHTS_MEMORY = SCORES.output_dims  # (h, n, m): h n^2 numbers stored
