"""The Transformer-block chapter's tables, regenerated: 例 5.3 (GPT-2 small), 例 5.2's count, 命題
6.1's terms."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import sympy

import spec
from numeric.model import init_parameters, parameter_count
from proofs.chapters.transformer_block.chapter import CHAPTER
from proofs.typeset.tables import (
    COUNTED,
    Table,
    int_at,
    positive_ints,
    settings_tex,
    tex_thousands,
    thousands,
)
from symbolic import counts
from symbolic import symbols as sym

GPT2_COLUMNS = ("構成要素", "式", "個数")


def _product_tex(dims: tuple[str, ...], sizes: dict[str, int]) -> str:
    return " \\times ".join(str(sizes[name]) for name in dims)


def _polynomial_tex(poly: sympy.Expr, value: int) -> str:
    """12d² + 13d at d = 768 written as the chapter does: 12\\times768^2 + 13\\times768."""
    terms = []
    for (degree,), coeff in sympy.Poly(poly, sym.d).terms():
        power = "" if degree == 0 else (f"{value}" if degree == 1 else f"{value}^{degree}")
        if degree == 0:
            terms.append(str(coeff))
        elif coeff == 1:
            terms.append(power)
        else:
            terms.append(f"{coeff}\\times{power}")
    return " + ".join(terms)


@CHAPTER.table(
    "gpt2-parameters", "例 5.3", "parameters of GPT-2 small by part", columns=GPT2_COLUMNS
)
@functools.cache
def gpt2_parameter_table(
    vocab: int = 50257, d: int = 768, n_layer: int = 12, n_ctx: int = 1024, d_ff: int | None = None
) -> Table:
    """例 5.3: 定理 5.1's count for a tied, biased, learned-position model, by part.

    d_ff defaults to 4d. Each part is the polynomial of the spec parameters it
    groups (token embeddings, position embeddings, one block, L blocks, the
    final LayerNorm), evaluated; the total is the whole model's polynomial.
    """
    positive_ints(vocab=vocab, d=d, n_layer=n_layer, n_ctx=n_ctx)
    width = 4 * d if d_ff is None else d_ff
    positive_ints(d_ff=width)
    at = {sym.V: vocab, sym.d: d, sym.L: n_layer, sym.L_ctx: n_ctx, sym.d_ff: width}
    sizes = {"vocab": vocab, "d": d, "n_ctx": n_ctx}
    params = {p.name: p for p in spec.model_parameters(bias=True, tied=True, positions=True)}
    groups = counts.model_parameter_parts(bias=True, tied=True, positions=True)
    embeddings = int_at(groups["embeddings"], at)
    positions = int_at(groups["positions"], at)
    block_general = groups["attention"] + groups["mlp"] + groups["layer norms"]  # d, d_ff
    per_layer = int_at(block_general, at)
    final_ln_poly = groups["final layer norm"]
    final_ln = int_at(final_ln_poly, at)
    total = int_at(counts.model_parameters(bias=True, tied=True, positions=True), at)
    block_in_d = block_general.subs(sym.d_ff, 4 * sym.d if width == 4 * d else width)
    block_tex = _polynomial_tex(sympy.expand(block_in_d), d)
    parts = [
        ("埋め込み", f"${_product_tex(params['wte'].dims, sizes)}$", embeddings),
        ("位置埋め込み", f"${_product_tex(params['wpe'].dims, sizes)}$", positions),
        ("ブロック 1 つ", f"${block_tex}$", per_layer),
        (
            f"ブロック {n_layer} 個",
            f"${n_layer} \\times {tex_thousands(per_layer)}$",
            n_layer * per_layer,
        ),
        ("最後の層正規化", f"${_polynomial_tex(final_ln_poly, d)}$", final_ln),
    ]
    rows = [(label, tex, thousands(k)) for label, tex, k in parts]
    rows.append(("合計", "", thousands(total)))
    values = [*parts, ("合計", None, total)]
    listing = (
        f"embeddings: {embeddings}  positions: {positions}  per layer: {per_layer} "
        f" layers: {n_layer * per_layer}  final LN: {final_ln}",
        f"total: {total}",
    )
    return Table(
        name="gpt2-parameters",
        caption=f"例 5.3: {settings_tex(at)} のパラメータ数",
        columns=GPT2_COLUMNS,
        rows=tuple(rows),
        values=tuple(values),
        listing=listing,
    )


@CHAPTER.table(
    "small-model-count", "例 5.2", "a small model's arrays counted, and 定理 5.1's polynomial"
)
@functools.cache
def small_model_count(
    vocab: int = 10,
    d: int = 4,
    n_layer: int = 2,
    d_ff: int = 16,
    n_ctx: int = 8,
    n_head: int = 2,
    allocate: Callable = init_parameters,
) -> Table:
    """例 5.2 and the block listing's first line: the arrays of a real model allocated
    by `allocate` (`numeric.model.init_parameters`), counted, against 定理 5.1's
    polynomial."""
    config = spec.ModelConfig(
        vocab=vocab, d=d, n_layer=n_layer, n_head=n_head, d_ff=d_ff, n_ctx=n_ctx
    )
    allocated = int(parameter_count(allocate(config, np.random.default_rng(0))))
    # in the order 例 5.2 states them
    at = {sym.V: vocab, sym.d: d, sym.d_ff: d_ff, sym.L: n_layer, sym.L_ctx: n_ctx}
    formula = int_at(counts.model_parameters(bias=True, tied=True, positions=True), at)
    return Table(
        name="small-model-count",
        caption=f"例 5.2: {settings_tex(at)} のパラメータ数",
        columns=("数え方", "個数"),
        rows=((COUNTED, thousands(allocated)), ("定理 5.1 の式", thousands(formula))),
        values=((COUNTED, allocated), ("定理 5.1 の式", formula)),
        listing=(f"count: {allocated}  formula: {formula}",),
    )


@CHAPTER.table(
    "block-cost",
    "命題 6.1",
    "the leading terms $12nd^2$ and $2n^2d$ of one block, their ratio and $n/(6d)$",
)
@functools.cache
def block_cost_comparison(d: int = 768, n: int = 1024) -> Table:
    """命題 6.1 at d_ff = 4d: the term linear in n (12nd²), the quadratic one (2n²d),
    their ratio, and n/(6d), which the ratio equals."""
    positive_ints(d=d, n=n)
    block = counts.block_multiplications(width=4 * sym.d)
    linear, quadratic = counts.linear_quadratic(block, sym.n)
    at = {sym.d: d, sym.n: n}
    lin, quad = int_at(linear, at), int_at(quadratic, at)
    crossover = counts.crossover(block, sym.n)  # 6d, solved
    ratio, ratio_by_crossover = quad / lin, float(n / crossover.subs(sym.d, d))
    return Table(
        name="block-cost",
        caption=(
            f"命題 6.1: {settings_tex({sym.d: d, sym.n: n, sym.d_ff: 4 * sym.d})} の "
            "1 層の乗算の回数の主要項"
        ),
        columns=("量", "値"),
        rows=(
            ("$12nd^2$", thousands(lin)),
            ("$2n^2d$", thousands(quad)),
            ("比", f"{ratio:.3f}"),
            ("$n/(6d)$", f"{ratio_by_crossover:.3f}"),
        ),
        values=(
            ("$12nd^2$", lin),
            ("$2n^2d$", quad),
            ("比", ratio),
            ("$n/(6d)$", ratio_by_crossover),
        ),
        listing=(
            f"MLP+proj 12nd^2 = {lin}   attention 2n^2d = {quad}   "
            f"ratio = {ratio:.3f}   n/(6d) = {ratio_by_crossover:.3f}",
        ),
    )
