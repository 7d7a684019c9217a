"""The self-attention chapter's pictures, each drawn from the package's own values:

- the causal mask at n = 4 after 系 6.4, drawn from numeric's mask (the cells j <= i it
  lets through are the shaded ones), in the book's SVG style;
- 例 4.5's table as curves: the mean largest softmax weight against d_k, with and
  without the 1/√d_k scaling (the table's own procedure and numbers);
- 命題 7.2's two terms 4nd² and 2n²d, crossing at n = 2d (symbolic.counts).
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

from numeric.attention import causal_mask
from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.chapters.self_attention.tables import scaling_table
from proofs.typeset.crossovers import Crossover, crossover_curves, draw_crossover
from proofs.typeset.figures import Grid, shaded_grid
from proofs.typeset.plotting import COLOURS, new_figure
from proofs.typeset.tables import Table
from symbolic import counts

if TYPE_CHECKING:
    from matplotlib.figure import Figure

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


@CHAPTER.plot(
    "softmax-concentration",
    "例 4.5",
    "the mean largest softmax weight against d_k, unscaled and scaled",
)
def softmax_concentration_figure(table: Table | None = None) -> Figure:
    """例 4.5's table (`scaling_table()`, the chapter's procedure) drawn: without the
    scaling the largest of the weights tends to 1 as d_k grows; with it, it stays put."""
    table = scaling_table() if table is None else table
    dims = [row[0] for row in table.values]
    figure = new_figure(5.2, 3.4)
    ax = figure.add_subplot()
    ax.semilogx(
        dims,
        [row[3] for row in table.values],
        "o-",
        base=2,
        color=COLOURS[1],
        label=r"$\mathrm{softmax}(\langle q, k_j\rangle)$",
        gid="raw",
    )
    ax.semilogx(
        dims,
        [row[4] for row in table.values],
        "s-",
        base=2,
        color=COLOURS[0],
        label=r"$\mathrm{softmax}(\langle q, k_j\rangle / \sqrt{d_k})$",
        gid="scaled",
    )
    keys = inspect.signature(scaling_table).parameters["keys"].default
    ax.axhline(1 / keys, color="black", linewidth=0.8, linestyle=":")
    ax.annotate(
        f"1/{keys}: equal weights",
        (dims[0], 1 / keys),
        textcoords="offset points",
        xytext=(0, 4),
        fontsize=8,
    )
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("$d_k$")
    ax.set_ylabel(f"mean largest weight of {keys} keys")
    ax.set_title("例 4.5: unscaled, the largest weight concentrates")
    ax.legend(loc="center right")
    return figure


def attention_crossover() -> Crossover:
    """4nd² and 2n²d (counts.attention_multiplications) at the chapter's d = 64,
    n = 8..1024 (the chapter's table has n = 64..1024)."""
    return crossover_curves(counts.attention_multiplications(), 64, range(3, 11))


@CHAPTER.plot("attention-crossover", "命題 7.2", "4nd² and 2n²d against n, equal at n = 2d")
def attention_crossover_figure() -> Figure:
    return draw_crossover(attention_crossover(), "命題 7.2: one attention layer")
