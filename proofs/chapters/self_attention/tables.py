"""The self-attention chapter's tables, regenerated: 例 4.5 (d_k scaling), 命題 7.2 (cost at d =
64), 命題 7.1's count."""

from __future__ import annotations

import functools

import numpy as np

import spec
from numeric.model import init_parameters, parameter_count, sub_parameters
from numeric.softmax import softmax
from numeric.validation import require_allocation
from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.tables import (
    COUNTED,
    Table,
    int_at,
    int_tuple,
    positive_ints,
    settings_tex,
    thousands,
)
from symbolic import counts
from symbolic import symbols as sym

# The chapters' headers (labels, not results).
SCALING_COLUMNS = (
    "$d_k$",
    r"$\langle\boldsymbol{q},\boldsymbol{k}\rangle$ の分散",
    r"$\sqrt{d_k}$ で割ったあとの分散",
    "最大の重み（割らない）",
    "最大の重み（割る）",
)


PAIR = r"$(\boldsymbol{q}, \boldsymbol{k})$"  # as the chapter writes the pair

COMPLEXITY_COLUMNS = (
    "$n$",
    "$4nd^2$",
    "$2n^2d$",
    "合計",
    "$2n^2d$ の前の行との比",
    "合計の前の行との比",
)


@CHAPTER.table(
    "scaling", "例 4.5",
    r"variances of $\langle\boldsymbol{q},\boldsymbol{k}\rangle$ and the mean largest softmax "
    "weight, by $d_k$",
    columns=SCALING_COLUMNS, keyed_by="dims",
)
def scaling_table(
    dims: tuple[int, ...] = (4, 16, 64, 256, 1024),
    pairs: int = 20000,
    trials: int = 2000,
    keys: int = 8,
    seed: int = 0,
) -> Table:
    """例 4.5: sample variance of <q, k> and of <q, k>/sqrt(d_k) over `pairs` pairs,
    and the mean largest softmax weight of one query against `keys` keys over
    `trials` draws, unscaled and scaled.

    The chapter's own procedure: one generator seeded with `seed`, and for each
    d_k in turn the draws q, k (pairs, d_k), then q (trials, 1, d_k), k (trials,
    keys, d_k) — the same order, so the same numbers.
    """
    return _scaling_table(int_tuple("dims", dims), pairs, trials, keys, seed)


@functools.cache
def _scaling_table(dims: tuple, pairs: int, trials: int, keys: int, seed: int) -> Table:
    positive_ints(pairs=pairs, trials=trials, keys=keys)
    for dk in dims:
        positive_ints(d_k=dk)
        # q, k and their product; the trials' keys and scores are smaller when keys <= pairs
        require_allocation((3, max(pairs, trials * keys), dk), np.float64,
                           f"the scaling table at d_k = {dk}")
    rng = np.random.default_rng(seed)
    rows, values, listing = [], [], []
    listing.append("  d_k  Var(q.k)  Var(q.k/sqrt(d_k))  max weight: raw  scaled")
    for dk in dims:
        q, k = rng.standard_normal((pairs, dk)), rng.standard_normal((pairs, dk))
        s = (q * k).sum(axis=1)  # (pairs,)
        q1, kk = rng.standard_normal((trials, 1, dk)), rng.standard_normal((trials, keys, dk))
        scores = (q1 * kk).sum(axis=-1)  # (trials, keys)
        raw = float(softmax(scores).max(axis=-1).mean())
        scaled = float(softmax(scores / np.sqrt(dk)).max(axis=-1).mean())
        var, var_scaled = float(s.var()), float((s / np.sqrt(dk)).var())
        rows.append((str(dk), f"{var:.2f}", f"{var_scaled:.3f}", f"{raw:.3f}", f"{scaled:.3f}"))
        values.append((dk, var, var_scaled, raw, scaled))
        listing.append(f"{dk:5d} {var:9.2f} {var_scaled:12.3f} {raw:18.3f} {scaled:7.3f}")
    return Table(
        name="scaling",
        caption=(
            f"例 4.5: {thousands(pairs)} 組の {PAIR} での標本分散と、1 個のクエリと "
            f"{keys} 個のキーの重みの最大値の平均（{thousands(trials)} 回）"
        ),
        columns=SCALING_COLUMNS,
        rows=tuple(rows),
        values=tuple(values),
        listing=tuple(listing),
    )


@CHAPTER.table(
    "attention-complexity", "命題 7.2",
    "multiplications of one attention layer by $n$: $4nd^2$, $2n^2d$, their sum, the ratios",
    columns=COMPLEXITY_COLUMNS, keyed_by="ns",
)
def attention_complexity_table(
    d: int = 64, ns: tuple[int, ...] = (64, 128, 256, 512, 1024)
) -> Table:
    """命題 7.2: the projection term 4nd², the score term 2n²d and their sum at fixed d,
    with the ratio of each row to the previous one (2 decimals; blank in the first row).

    The two terms are the linear and quadratic parts (in n) of the multiplication
    polynomial that `symbolic.counts` derives from spec's attention contractions.
    """
    return _attention_complexity_table(d, int_tuple("ns", ns))


@functools.cache
def _attention_complexity_table(d: int, ns: tuple) -> Table:
    positive_ints(d=d)
    for value in ns:
        positive_ints(n=value)
    projection, scores = counts.linear_quadratic(counts.attention_multiplications(), sym.n)
    rows, values, listing = [], [], []
    listing.append("    n   4nd^2      2n^2d      total   ratio(2n^2d)  ratio(total)")
    previous: tuple[int, int] | None = None
    for nn in ns:
        at = {sym.d: d, sym.n: nn}
        proj, attn = int_at(projection, at), int_at(scores, at)
        total = proj + attn
        if previous is None:
            ratio_attn = ratio_total = None
            cells = ("", "")
            listing.append(f"{nn:5d} {proj:8d} {attn:10d} {total:10d}")
        else:
            ratio_attn, ratio_total = attn / previous[0], total / previous[1]
            cells = (f"{ratio_attn:.2f}", f"{ratio_total:.2f}")
            listing.append(
                f"{nn:5d} {proj:8d} {attn:10d} {total:10d} {ratio_attn:10.2f} {ratio_total:12.2f}"
            )
        rows.append((str(nn), thousands(proj), thousands(attn), thousands(total), *cells))
        values.append((nn, proj, attn, total, ratio_attn, ratio_total))
        previous = (attn, total)
    return Table(
        name="attention-complexity",
        caption=f"命題 7.2: {settings_tex({sym.d: d})} のときの自己注意 1 層の乗算の回数",
        columns=COMPLEXITY_COLUMNS,
        rows=tuple(rows),
        values=tuple(values),
        listing=tuple(listing),
    )


@CHAPTER.table(
    "attention-parameters", "命題 7.1",
    "parameters of one attention layer: its arrays counted, and $4d^2 + 4d$",
)
@functools.cache
def attention_parameter_count(d: int = 8, h: int = 2) -> Table:
    """The self-attention listing's first line: the arrays of one multi-head layer as
    `numeric.model.init_parameters` allocates them from spec, counted, against
    命題 7.1's polynomial 4d² + 4d."""
    positive_ints(d=d, h=h)
    if d % h:
        raise ValueError(f"h must divide d, got d = {d} and h = {h}")
    config = spec.ModelConfig(vocab=1, d=d, n_layer=1, n_head=h, d_ff=1, n_ctx=1)
    layer = sub_parameters(init_parameters(config, np.random.default_rng(0)), "blocks.0.attn")
    allocated = int(parameter_count(layer))
    formula = int_at(counts.attention_parameters(bias=True), {sym.d: d})
    return Table(
        name="attention-parameters",
        caption=f"命題 7.1: {settings_tex({sym.d: d, sym.h: h})} の自己注意 1 層のパラメータ数",
        columns=("数え方", "個数"),
        rows=((COUNTED, thousands(allocated)), ("$4d^2 + 4d$", thousands(formula))),
        values=((COUNTED, allocated), ("$4d^2 + 4d$", formula)),
        listing=(f"params: {allocated} = 4d^2+4d = {formula}",),
    )
