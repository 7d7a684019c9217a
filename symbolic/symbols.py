"""The chapters' symbols, and the map from spec's dimension names to them."""

from __future__ import annotations

from sympy import Expr, Symbol

_size = dict(positive=True, integer=True)

d = Symbol("d", **_size)  # model width
n = Symbol("n", **_size)  # sequence length (query positions)
m = Symbol("m", **_size)  # key positions (cross-attention; m = n in self-attention)
h = Symbol("h", **_size)  # number of heads
d_k = Symbol("d_k", **_size)  # per-head width, d_k = d / h
d_ff = Symbol("d_ff", **_size)  # MLP width
V = Symbol("V", **_size)  # vocabulary size |V|
L = Symbol("L", **_size)  # number of blocks
L_ctx = Symbol("L_ctx", **_size)  # context length

SIZES: dict[str, Expr] = {
    "vocab": V,
    "d": d,
    "n_layer": L,
    "h": h,
    "d_head": d / h,
    "d_ff": d_ff,
    "n_ctx": L_ctx,
    "n": n,
    "m": n,
}


def sizes(**overrides: Expr) -> dict[str, Expr]:
    """SIZES with some dimensions replaced, e.g. sizes(d_ff=4*d) or sizes(m=m).

    >>> sizes(d_ff=4 * d)["d_ff"]
    4*d
    """
    unknown = set(overrides) - set(SIZES)
    if unknown:
        raise ValueError(
            f"sizes: unknown dimension name(s) {sorted(unknown)}; expected some of {sorted(SIZES)}"
        )
    return {**SIZES, **overrides}
