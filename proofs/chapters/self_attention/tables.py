"""The self-attention chapter's tables, regenerated: 例 4.5 (d_k scaling), 命題 7.2 (cost at d =
64), 命題 7.1's count."""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Iterator

import numpy as np

import spec
from cache.codec import Codec
from cache.remembered import remembered
from numeric.chunks import row_chunks
from numeric.model import init_parameters, parameter_count, sub_parameters
from numeric.softmax import softmax
from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.typeset.tables import (
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

# The scaling table draws its arrays a piece at a time, so that its memory does not grow
# with d_k or the number of draws: at most SCALING_MEMORY bytes of arrays at once, and at
# most SCALING_DRAWS normal numbers in all (about half a minute at 80 million a second).
SCALING_MEMORY = 1 << 26
SCALING_DRAWS = 1 << 31

COMPLEXITY_COLUMNS = (
    "$n$",
    "$4nd^2$",
    "$2n^2d$",
    "合計",
    "$2n^2d$ の前の行との比",
    "合計の前の行との比",
)


@CHAPTER.table(
    "scaling",
    "例 4.5",
    r"variances of $\langle\boldsymbol{q},\boldsymbol{k}\rangle$ and the mean largest softmax "
    "weight, by $d_k$",
    columns=SCALING_COLUMNS,
    keyed_by="dims",
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
    keys, d_k) — the same order, so the same numbers. They are drawn and used a few
    rows at a time (`paired_draws`), in bounded memory; a d_k whose one trial would not
    fit in SCALING_MEMORY, or a table that would draw more than SCALING_DRAWS numbers,
    is a ValueError saying so.
    """
    return _scaling_table(int_tuple("dims", dims), pairs, trials, keys, seed)


def paired_draws(
    rng: np.random.Generator, rows: int, first: tuple[int, ...], second: tuple[int, ...]
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Two arrays of standard normals drawn one after the other from `rng` — shape
    (rows, *first) whole, then (rows, *second) — given as pieces of a few rows of each,
    side by side, without either array being held whole.

    A generator fills an array in order, so a piece of rows is the same numbers whatever
    the pieces. A copy of `rng` keeps the first array's place while `rng` draws through
    it (and drops it) to reach the second's; `rng` then ends where drawing the two
    arrays whole would leave it.

    >>> rng = np.random.default_rng(0)
    >>> q, k = rng.standard_normal((5, 3)), rng.standard_normal((5, 2))
    >>> pieces = list(paired_draws(np.random.default_rng(0), 5, (3,), (2,)))
    >>> bool((np.concatenate([a for a, _ in pieces]) == q).all())
    True
    >>> bool((np.concatenate([b for _, b in pieces]) == k).all())
    True
    """
    size = max(int(np.prod(first)), int(np.prod(second)))
    ahead = copy.deepcopy(rng)
    for piece in row_chunks(rows, size):
        rng.standard_normal((piece.stop - piece.start, *first))
    for piece in row_chunks(rows, size):
        count = piece.stop - piece.start
        yield ahead.standard_normal((count, *first)), rng.standard_normal((count, *second))


def _require_scaling_budget(dims: tuple[int, ...], pairs: int, trials: int, keys: int) -> None:
    """A ValueError, before anything is drawn, when one trial's arrays at the largest d_k
    would not fit in SCALING_MEMORY or the table would draw more than SCALING_DRAWS."""
    largest = max(dims, default=0)
    trial = (1 + 2 * keys) * largest * np.dtype(np.float64).itemsize  # q, its k and products
    if trial > SCALING_MEMORY:
        raise ValueError(
            f"the scaling table at d_k = {largest} would need {trial:,} bytes for one trial's "
            f"{keys} keys, more than its {SCALING_MEMORY:,} bytes of working memory"
        )
    draws = sum(dims) * (3 * pairs + (2 + keys) * trials)  # each q twice: to skip, to use
    if draws > SCALING_DRAWS:
        raise ValueError(
            f"the scaling table at d_k = {', '.join(map(str, dims))} would draw {draws:,} "
            f"normal numbers, more than the {SCALING_DRAWS:,} it draws at most"
        )


@functools.cache
def _scaling_table(dims: tuple, pairs: int, trials: int, keys: int, seed: int) -> Table:
    positive_ints(pairs=pairs, trials=trials, keys=keys)
    for dk in dims:
        positive_ints(d_k=dk)
    _require_scaling_budget(dims, pairs, trials, keys)
    settings = repr((dims, pairs, trials, keys, seed))
    return remembered(
        "scaling_table",
        settings,
        lambda: _drawn_table(dims, pairs, trials, keys, seed),
        _scaling_codec(dims, pairs, trials, keys),
    )


def _scaling_codec(dims: tuple, pairs: int, trials: int, keys: int) -> Codec[Table]:
    """The table kept as its numbers alone, one row [d_k, four finite floats] per d_k of
    `dims`, and printed again from them: a kept cell cannot differ from its number."""

    def decode(data: object) -> Table:
        if type(data) is not list or len(data) != len(dims):
            raise ValueError(f"expected {len(dims)} rows")
        for row, dk in zip(data, dims, strict=True):
            if type(row) is not list or len(row) != 5 or type(row[0]) is not int or row[0] != dk:
                raise ValueError(f"expected a row [{dk}, four numbers]")
            if not all(type(v) is float and math.isfinite(v) for v in row[1:]):
                raise ValueError(f"expected four finite numbers in the row of d_k = {dk}")
        return _scaling_printed(tuple(map(tuple, data)), pairs, trials, keys)

    return Codec(lambda table: [list(row) for row in table.values], decode)


def _drawn_table(dims: tuple, pairs: int, trials: int, keys: int, seed: int) -> Table:
    """The table drawn afresh (about a second at the chapter's settings: kept between the
    command line's runs, as verify keeps its derivations, by `remembered`)."""
    rng = np.random.default_rng(seed)
    values = []
    for dk in dims:
        s = np.concatenate(
            [
                (q * k).sum(axis=1)
                for q, k in paired_draws(rng, pairs, (dk,), (dk,))  # (pairs,)
            ]
        )
        scores = np.concatenate(
            [
                (q1 * kk).sum(axis=-1)
                for q1, kk in paired_draws(rng, trials, (1, dk), (keys, dk))  # (trials, keys)
            ]
        )
        raw = float(softmax(scores).max(axis=-1).mean())
        scaled = float(softmax(scores / np.sqrt(dk)).max(axis=-1).mean())
        var, var_scaled = float(s.var()), float((s / np.sqrt(dk)).var())
        values.append((dk, var, var_scaled, raw, scaled))
    return _scaling_printed(tuple(values), pairs, trials, keys)


def _scaling_printed(values: tuple, pairs: int, trials: int, keys: int) -> Table:
    """The table of `values`, rows (d_k, Var, scaled Var, raw and scaled largest weight),
    with its cells and listing lines printed as the chapter prints them."""
    rows = tuple(
        (str(dk), f"{var:.2f}", f"{var_scaled:.3f}", f"{raw:.3f}", f"{scaled:.3f}")
        for dk, var, var_scaled, raw, scaled in values
    )
    listing = ("  d_k  Var(q.k)  Var(q.k/sqrt(d_k))  max weight: raw  scaled",) + tuple(
        f"{dk:5d} {var:9.2f} {var_scaled:12.3f} {raw:18.3f} {scaled:7.3f}"
        for dk, var, var_scaled, raw, scaled in values
    )
    return Table(
        name="scaling",
        caption=(
            f"例 4.5: {thousands(pairs)} 組の {PAIR} での標本分散と、1 個のクエリと "
            f"{keys} 個のキーの重みの最大値の平均（{thousands(trials)} 回）"
        ),
        columns=SCALING_COLUMNS,
        rows=rows,
        values=values,
        listing=listing,
    )


@CHAPTER.table(
    "attention-complexity",
    "命題 7.2",
    "multiplications of one attention layer by $n$: $4nd^2$, $2n^2d$, their sum, the ratios",
    columns=COMPLEXITY_COLUMNS,
    keyed_by="ns",
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
    "attention-parameters",
    "命題 7.1",
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
