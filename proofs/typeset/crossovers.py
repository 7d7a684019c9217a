"""The picture of a cost polynomial's two terms: where the term quadratic in n overtakes the
term linear in n (4nd² + 2n²d crosses at n = 2d, 12nd² + 2n²d at n = 6d).

`crossover_curves` evaluates the terms symbolic.counts derives, at one width d, and solves
their crossing with `counts.crossover`; `draw_crossover` draws them on log-log axes with
the crossing marked. The data and the drawing are apart so that a test can compare what
is drawn with what was derived.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import sympy

from proofs.typeset.plotting import COLOURS, new_figure
from symbolic import counts
from symbolic import symbols as sym

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class Crossover:
    """The two terms of a cost at width d over the n drawn, and where they are equal."""

    linear: sympy.Expr  # as derived, in n and d
    quadratic: sympy.Expr
    at: sympy.Expr  # the crossing, solved: 2*d, 6*d
    d: int
    n: np.ndarray  # the lengths drawn (integers, powers of 2)
    linear_values: np.ndarray
    quadratic_values: np.ndarray

    @property
    def crossing(self) -> tuple[int, int]:
        """(n, the common value of the two terms) at the crossing, exactly."""
        n = int(self.at.subs(sym.d, self.d))
        value = self.linear.subs({sym.n: n, sym.d: self.d})
        if value != self.quadratic.subs({sym.n: n, sym.d: self.d}):
            raise ValueError(f"the terms differ at n = {n}: {self.linear}, {self.quadratic}")
        return n, int(value)


def crossover_curves(poly: sympy.Expr, d: int, lengths: range) -> Crossover:
    """The linear and quadratic terms of `poly` (in n and d) at width `d`, evaluated
    exactly at n = 2^k for k in `lengths`, and their crossing solved.

    >>> data = crossover_curves(4 * sym.n * sym.d**2 + 2 * sym.n**2 * sym.d, 64, range(6, 9))
    >>> data.at, data.crossing, data.n.tolist()
    (2*d, (128, 2097152), [64, 128, 256])
    """
    linear, quadratic = counts.linear_quadratic(poly, sym.n)
    n = np.array([2**k for k in lengths], dtype=np.int64)

    def values(term: sympy.Expr) -> np.ndarray:
        return np.array([int(term.subs({sym.n: int(k), sym.d: d})) for k in n], dtype=np.int64)

    return Crossover(
        linear, quadratic, counts.crossover(poly, sym.n), d, n, values(linear), values(quadratic)
    )


def _tex(term: sympy.Expr) -> str:
    """The term as the chapters print it: 4nd^2, 2n^2d."""
    coefficient, rest = term.as_coeff_Mul()
    powers = dict(rest.as_powers_dict())
    letters = "".join(
        f"{s}^{e}" if e != 1 else f"{s}"
        for s, e in ((sym.n, powers.get(sym.n, 0)), (sym.d, powers.get(sym.d, 0)))
        if e
    )
    return f"${coefficient}{letters}$"


def draw_crossover(data: Crossover, title: str) -> Figure:
    """The two terms against n on log-log axes, the crossing marked and labelled with its
    solved value (n = 2d = 128)."""
    figure = new_figure(5.2, 3.4)
    ax = figure.add_subplot()
    ax.loglog(data.n, data.linear_values, "o-", color=COLOURS[0], label=_tex(data.linear), base=2)
    ax.loglog(
        data.n, data.quadratic_values, "s-", color=COLOURS[1], label=_tex(data.quadratic), base=2
    )
    n, value = data.crossing
    ax.plot([n], [value], "D", color="black", markersize=7, label="crossing", gid="crossing")
    ax.axvline(n, color="black", linewidth=0.8, linestyle=":")
    ax.annotate(
        f"$n = {sympy.latex(data.at)} = {n}$",
        (n, value),
        textcoords="offset points",
        xytext=(8, -14),
    )
    ax.set_xlabel(f"$n$ (at $d = {data.d}$)")
    ax.set_ylabel("multiplications")
    ax.set_title(title)
    ax.legend(loc="upper left")
    return figure
