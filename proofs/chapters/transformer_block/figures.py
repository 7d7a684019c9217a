"""The block chapter's pictures, each drawn from what the package derives or computes:

- the 8 terms of (I + J₃)(I + J₂)(I + J₁) before 命題 4.1 (the figure the rendered chapter
  lost), in the book's SVG style, from symbolic.residual's expansion;
- 命題 6.1's two terms 12nd² and 2n²d, crossing at n = 6d (symbolic.counts);
- 命題 8.1's GELU and its derivatives against ReLU (numeric.activations, symbolic.gelu);
- 命題 8.1's 2-D example: the 7 activation regions of its 3 lines, decided exactly by
  symbolic.arrangements and shaded on the listing's grid.

Each picture's data is a function of its own, apart from the drawing, so that a test can
hold what is drawn against the package's values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import sympy

from numeric.activations import gelu, relu
from proofs.chapters.transformer_block.activations import RELU_EXAMPLE
from proofs.chapters.transformer_block.chapter import CHAPTER
from proofs.evidence.measures import activation_pattern_map
from proofs.typeset.crossovers import Crossover, crossover_curves, draw_crossover
from proofs.typeset.figures import Stages, stage_rows
from proofs.typeset.plotting import COLOURS, new_figure
from proofs.typeset.region_labels import label_regions
from symbolic import counts, residual
from symbolic import gelu as symbolic_gelu
from symbolic import symbols as sym
from symbolic.arrangements import activation_regions

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


# 命題 4.1: the paths of the residual expansion --------------------------------------------


def residual_paths(layers: int = 3) -> list[tuple[tuple[bool, ...], str]]:
    """The terms of (I + J_M) ... (I + J_1) expanded by symbolic.residual, M = `layers`:
    for each, which stages l = 1..M it passes through (takes J_l) and its product as the
    chapter writes it (J₃J₁, I alone), fewest factors first.

    >>> residual_paths(2)
    [((False, False), 'I'), ((True, False), 'J₁'), ((False, True), 'J₂'), ((True, True), 'J₂J₁')]
    """
    expansion = residual.expand_product(residual.pre_ln_product(layers, 0))
    if not expansion.distinct:
        raise ValueError(f"the expansion's terms are not distinct: {expansion.terms}")
    rows = []
    for term in expansion.terms:
        factors = [] if term == 1 else list(sympy.Mul.make_args(term))
        stages = [int(f.name.removeprefix("J_")) for f in factors]
        choices = tuple(k in stages for k in range(1, layers + 1))
        text = "".join(f"J{k}".translate(SUBSCRIPTS) for k in stages) or "I"
        rows.append((choices, text))
    return sorted(rows, key=lambda row: (sum(row[0]), row[0][::-1]))


RESIDUAL_STAGES = Stages(
    width=520,
    left=150,
    top=56,
    row=28,
    box=64,
    gap=28,
    label="3 段の Pre-LN の積を展開した 8 つの項。各段で迂回するか J を通るか",
    heading=("通る段（塗った箱が J）", "項"),
    names=tuple(f"J{k}".translate(SUBSCRIPTS) for k in (1, 2, 3)),
)


@CHAPTER.figure("residual-paths", caption="3 段の Pre-LN で、積 (I + J₃)(I + J₂)(I + J₁) を展開")
def residual_paths_figure() -> str:
    """The figure before 命題 4.1: one row per term of the 3-stage product, a shaded box
    J_l where the term passes through stage l, the identity path (I alone) in bold."""
    rows = residual_paths(3)
    identity = next(i for i, (choices, _) in enumerate(rows) if not any(choices))
    return stage_rows(rows, RESIDUAL_STAGES, bold=identity)


# 命題 6.1: where the quadratic term overtakes 12nd² -------------------------------------


def block_crossover() -> Crossover:
    """12nd² and 2n²d (counts.block_multiplications at d_ff = 4d) at d = 64, n = 32..4096."""
    return crossover_curves(counts.block_multiplications(width=4 * sym.d), 64, range(5, 13))


@CHAPTER.plot("block-crossover", "命題 6.1", "12nd² and 2n²d against n, equal at n = 6d")
def block_crossover_figure() -> Figure:
    return draw_crossover(block_crossover(), "命題 6.1: one block, d_ff = 4d")


# 命題 8.1: GELU against ReLU --------------------------------------------------------------


def activation_curves(points: int = 401) -> dict[str, np.ndarray]:
    """t on [-4, 4]; ReLU and GELU (numeric), GELU' and GELU'' (the chapter's forms in
    symbolic.gelu, evaluated by sympy.lambdify with SciPy's erf), ReLU' (0 left of 0, 1
    right)."""
    t = np.linspace(-4.0, 4.0, points)

    def evaluate(form: Callable[[sympy.Expr], sympy.Expr]) -> np.ndarray:
        return sympy.lambdify(symbolic_gelu.t, form(symbolic_gelu.t), ["scipy", "numpy"])(t)

    return {
        "t": t,
        "relu": relu(t),
        "gelu": gelu(t),
        "gelu'": evaluate(symbolic_gelu.chapter_first),
        "gelu''": evaluate(symbolic_gelu.chapter_second),
        "relu'": np.where(t > 0, 1.0, 0.0),
    }


@CHAPTER.plot("gelu", "命題 8.1", "GELU, GELU' and GELU'' against ReLU; GELU'' = 0 at t = ±√2")
def gelu_figure() -> Figure:
    c = activation_curves()
    zeros = sorted(float(z) for z in symbolic_gelu.second_derivative_zeros())
    figure = new_figure(7.2, 3.2)
    left, right = figure.subplots(1, 2)
    left.plot(c["t"], c["relu"], color=COLOURS[1], label=r"$\mathrm{ReLU}(t)$")
    left.plot(c["t"], c["gelu"], color=COLOURS[0], label=r"$\mathrm{GELU}(t) = t\,\Phi(t)$")
    right.plot(
        c["t"], c["relu'"], color=COLOURS[1], drawstyle="steps-mid", label=r"$\mathrm{ReLU}'(t)$"
    )
    right.plot(c["t"], c["gelu'"], color=COLOURS[0], label=r"$\mathrm{GELU}'(t)$")
    right.plot(
        c["t"], c["gelu''"], color=COLOURS[2], label=r"$\mathrm{GELU}''(t) = (2 - t^2)\,\varphi(t)$"
    )
    right.plot(zeros, [0.0, 0.0], "o", color="black", gid="inflections", label=r"$t = \pm\sqrt{2}$")
    for ax, title in ((left, "命題 8.1: the activations"), (right, "their derivatives")):
        ax.set_xlabel("$t$")
        ax.set_title(title)
        ax.legend(loc="upper left", fontsize=8)
    return figure


# 命題 8.1's example: 7 of the 8 activation patterns ---------------------------------------


def relu_regions(
    example: dict = RELU_EXAMPLE,
    steps: int = 301,
    decide: Callable[..., list[str]] = activation_regions,
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(the axis of the listing's square [-3, 3]², the pattern at each grid point as an
    index into the patterns, the patterns `decide` finds non-empty). The grid and the exact
    decision must agree: a pattern the decision finds and the grid misses (or the reverse)
    is a ValueError, never a picture."""
    patterns = decide(example["w_1"], example["b_1"])
    axis, codes = activation_pattern_map(example["w_1"], example["b_1"], steps=steps)
    width = len(example["b_1"])
    seen = sorted(format(int(code), f"0{width}b") for code in np.unique(codes))
    if seen != sorted(patterns):
        raise ValueError(f"the grid shows the patterns {seen}, the exact decision {patterns}")
    index = np.zeros(2**width, dtype=np.int64)  # a pattern's binary number -> its place
    index[[int(p, 2) for p in patterns]] = np.arange(len(patterns))
    return axis, index[codes], patterns


@CHAPTER.plot("relu-regions", "命題 8.1", "the 7 activation regions of the 2-D example")
def relu_regions_figure() -> Figure:
    from matplotlib.colors import ListedColormap

    axis, image, patterns = relu_regions()
    figure = new_figure(4.6, 4.2)
    ax = figure.add_subplot()
    extent = (axis[0], axis[-1], axis[0], axis[-1])
    ax.imshow(
        image,
        origin="lower",
        extent=extent,
        interpolation="nearest",
        alpha=0.45,
        cmap=ListedColormap(COLOURS[: len(patterns)]),
        vmin=-0.5,
        vmax=len(patterns) - 0.5,
        gid="regions",
    )
    x, y = np.meshgrid(axis, axis)
    example: dict = RELU_EXAMPLE
    for w, b in zip(example["w_1"], example["b_1"], strict=True):
        ax.contour(x, y, w[0] * x + w[1] * y + b, levels=[0], colors="black", linewidths=1)
    m = len(example["b_1"])
    missing = sorted({format(k, f"0{m}b") for k in range(2**m)} - set(patterns))
    ax.set_title(f"命題 8.1: patterns s, {len(patterns)} of {2**m} ({', '.join(missing)} is empty)")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_aspect("equal")
    ax.grid(False)
    # each pattern inside its region, clear of the lines (at the 110 triangle's centroid
    # a label crossed the line x_1 = 0; "s = 110" fits in that triangle at no size)
    label_regions(ax, image, axis, patterns)
    return figure
