"""The self-attention chapter's figure of the causal mask at n = 4, drawn from
numeric's mask: the cells j <= i it lets through are the shaded ones."""

from __future__ import annotations

from numeric.attention import causal_mask
from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.figures import Grid, shaded_grid

CAUSAL_MASK_GRID = Grid(
    width=520,
    height=250,
    left=180,
    top=40,
    cell=44,
    label="4 行 4 列の因果マスク。下三角の成分だけが塗られている",
    notes=((440, 111, "−∞ を足す"), (440, 131, "（重み 0）"), (80, 155, "重みが正")),
)


@CHAPTER.figure("causal-mask", caption="n = 4 の因果マスク")
def causal_mask_figure() -> str:
    """The figure after 系 6.4 (the SVG between its `<Figure>` tags): `causal_mask(4)`
    shaded, a 0 in each masked cell, and the chapter's notes beside the grid."""
    return shaded_grid(causal_mask(4), CAUSAL_MASK_GRID)
