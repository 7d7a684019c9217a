"""The chapters' tables and the printed numbers of their listings, regenerated.

Tables are immutable and cached per set of arguments (the scaling table alone
draws 57 million normal samples), so the audit and the command line build each
once. Every number here is computed by the package: the d_k scaling table (例 4.5)
re-runs the chapter's own sampling procedure with `np.random.default_rng(0)`
and `numeric.softmax.softmax`; the counting tables (命題 7.2, 例 5.3, the
listings' totals) evaluate `symbolic.counts`' polynomials, which are derived
from the shapes and contractions declared in `spec`. A `Table` keeps the cells
formatted exactly as the chapter prints them, the raw values behind them, and
the lines the chapter's listing prints for the same values, so that
`proofs.audit` can compare a chapter against it cell by cell.
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import sympy

import spec
from numeric.attention import multi_head_attention
from numeric.layer_norm import layer_norm, layer_norm_jacobian
from numeric.model import forward, init_parameters, parameter_count, sub_parameters
from numeric.softmax import softmax
from proofs.measures import grid_activation_patterns
from symbolic import counts
from symbolic import symbols as sym


@dataclass(frozen=True)
class Table:
    """A regenerated table: header, formatted cells, raw values, caption.

    `rows` hold the cells as the chapter prints them (thousands separators,
    decimals, TeX in `$…$`); `values` hold the numbers behind them (None for a
    blank cell), under `value_columns` when they leave a column of formulas out.
    `listing` holds the lines the chapter's code listing prints for the same
    quantities, formatted with the listing's own format strings.
    """

    name: str
    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    values: tuple[tuple[object, ...], ...]
    listing: tuple[str, ...] = field(default=())
    value_columns: tuple[str, ...] | None = None  # the header of `values`, when not `columns`

    def to_markdown(self) -> str:
        """A pipe table as in the MDX chapter (`|---|` rule, blank cells empty)."""

        def line(cells: tuple[str, ...]) -> str:
            return "| " + " | ".join(cells) + " |"

        rule = "|" + "|".join("---" for _ in self.columns) + "|"
        return "\n".join([line(self.columns), rule, *(line(r) for r in self.rows)])

    def to_text(self) -> str:
        """TAB-separated rows, as the rendered-text chapter prints its tables."""
        return "\n".join("\t".join(r) for r in (self.columns, *self.rows))

    def to_latex(self) -> str:
        """A booktabs table; text cells escaped, `$…$` cells kept as TeX."""
        align = "l" + "r" * (len(self.columns) - 1)
        body = [
            r"\begin{table}[ht]",
            r"\centering",
            rf"\caption{{{_latex_text(self.caption)}}}",
            rf"\begin{{tabular}}{{{align}}}",
            r"\toprule",
            " & ".join(_latex_cell(c) for c in self.columns) + r" \\",
            r"\midrule",
            *(" & ".join(_latex_cell(c) for c in r) + r" \\" for r in self.rows),
            r"\bottomrule",
            r"\end{tabular}",
            r"\end{table}",
        ]
        return "\n".join(body)

    def to_csv(self) -> str:
        """The header and the raw values (full precision; blank for an empty cell)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.value_columns or self.columns)
        for row in self.values:
            writer.writerow(["" if v is None else v for v in row])
        return out.getvalue()

    def render(self, fmt: str) -> str:
        """One of FORMATS."""
        if fmt not in FORMATS:
            raise ValueError(f"format must be one of {FORMATS}, got {fmt!r}")
        return getattr(self, f"to_{fmt}")()

    def to_listing(self) -> str:
        return "\n".join(self.listing)


FORMATS = ("markdown", "text", "latex", "csv", "listing")

_LATEX_SPECIALS = {"&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}"}


def _latex_text(s: str) -> str:
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in s)


def _latex_cell(cell: str) -> str:
    """Keep `$…$` spans as TeX, escape the text around them."""
    parts = cell.split("$")
    return "".join(f"${p}$" if i % 2 else _latex_text(p) for i, p in enumerate(parts))


def thousands(k: int) -> str:
    """An integer with thousands separators, as the chapters print counts: 1,048,576."""
    return f"{k:,}"


def tex_thousands(k: int) -> str:
    """The same inside math: 7{,}087{,}872."""
    return f"{k:,}".replace(",", "{,}")


def _int_tuple(name: str, values: object) -> tuple:
    """A sequence of sizes as a tuple (hashable, for the cache), or a TypeError naming it."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name} must be a sequence of positive ints, got {values!r}")
    return tuple(values)


def _positive_ints(**named: object) -> None:
    for name, value in named.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")


def _int_at(expr: sympy.Expr, values: dict) -> int:
    """An integer-valued polynomial evaluated exactly."""
    result = sympy.sympify(expr).subs(values)
    if not result.is_Integer:
        raise ValueError(f"{expr} does not evaluate to an integer at {values}: {result}")
    return int(result)


# The chapters' headers (labels, not results).
SCALING_COLUMNS = (
    "$d_k$",
    r"$\langle\boldsymbol{q},\boldsymbol{k}\rangle$ の分散",
    r"$\sqrt{d_k}$ で割ったあとの分散",
    "最大の重み（割らない）",
    "最大の重み（割る）",
)
COMPLEXITY_COLUMNS = (
    "$n$",
    "$4nd^2$",
    "$2n^2d$",
    "合計",
    "$2n^2d$ の前の行との比",
    "合計の前の行との比",
)
GPT2_COLUMNS = ("構成要素", "式", "個数")


# 例 4.5 ----------------------------------------------------------------------


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
    return _scaling_table(_int_tuple("dims", dims), pairs, trials, keys, seed)


@functools.cache
def _scaling_table(dims: tuple, pairs: int, trials: int, keys: int, seed: int) -> Table:
    _positive_ints(pairs=pairs, trials=trials, keys=keys)
    for dk in dims:
        _positive_ints(d_k=dk)
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
            f"例 4.5: {thousands(pairs)} 組の (q, k) での標本分散と、1 個のクエリと "
            f"{keys} 個のキーの重みの最大値の平均（{thousands(trials)} 回）"
        ),
        columns=SCALING_COLUMNS,
        rows=tuple(rows),
        values=tuple(values),
        listing=tuple(listing),
    )


# 命題 7.2 ---------------------------------------------------------------------


def attention_complexity_table(
    d: int = 64, ns: tuple[int, ...] = (64, 128, 256, 512, 1024)
) -> Table:
    """命題 7.2: the projection term 4nd², the score term 2n²d and their sum at fixed d,
    with the ratio of each row to the previous one (2 decimals; blank in the first row).

    The two terms are the linear and quadratic parts (in n) of the multiplication
    polynomial that `symbolic.counts` derives from spec's attention contractions.
    """
    return _attention_complexity_table(d, _int_tuple("ns", ns))


@functools.cache
def _attention_complexity_table(d: int, ns: tuple) -> Table:
    _positive_ints(d=d)
    for value in ns:
        _positive_ints(n=value)
    projection, scores = counts.linear_quadratic(counts.attention_multiplications(), sym.n)
    rows, values, listing = [], [], []
    listing.append("    n   4nd^2      2n^2d      total   ratio(2n^2d)  ratio(total)")
    previous: tuple[int, int] | None = None
    for nn in ns:
        at = {sym.d: d, sym.n: nn}
        proj, attn = _int_at(projection, at), _int_at(scores, at)
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
        caption=f"命題 7.2: d = {d} のときの自己注意 1 層の乗算の回数",
        columns=COMPLEXITY_COLUMNS,
        rows=tuple(rows),
        values=tuple(values),
        listing=tuple(listing),
    )


# 例 5.3 ----------------------------------------------------------------------


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


@functools.cache
def gpt2_parameter_table(
    vocab: int = 50257, d: int = 768, n_layer: int = 12, n_ctx: int = 1024, d_ff: int | None = None
) -> Table:
    """例 5.3: 定理 5.1's count for a tied, biased, learned-position model, by part.

    d_ff defaults to 4d. Each part is the polynomial of the spec parameters it
    groups (token embeddings, position embeddings, one block, L blocks, the
    final LayerNorm), evaluated; the total is the whole model's polynomial.
    """
    _positive_ints(vocab=vocab, d=d, n_layer=n_layer, n_ctx=n_ctx)
    width = 4 * d if d_ff is None else d_ff
    _positive_ints(d_ff=width)
    at = {sym.V: vocab, sym.d: d, sym.L: n_layer, sym.L_ctx: n_ctx, sym.d_ff: width}
    sizes = {"vocab": vocab, "d": d, "n_ctx": n_ctx}
    params = {p.name: p for p in spec.model_parameters(bias=True, tied=True, positions=True)}
    groups = counts.model_parameter_parts(bias=True, tied=True, positions=True)
    embeddings = _int_at(groups["embeddings"], at)
    positions = _int_at(groups["positions"], at)
    block_general = groups["attention"] + groups["mlp"] + groups["layer norms"]  # d, d_ff
    per_layer = _int_at(block_general, at)
    final_ln_poly = groups["final layer norm"]
    final_ln = _int_at(final_ln_poly, at)
    total = _int_at(counts.model_parameters(bias=True, tied=True, positions=True), at)
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
    values = [(label, k) for label, _, k in parts] + [("合計", total)]
    listing = (
        f"embeddings: {embeddings}  positions: {positions}  per layer: {per_layer} "
        f" layers: {n_layer * per_layer}  final LN: {final_ln}",
        f"total: {total}",
    )
    return Table(
        name="gpt2-parameters",
        caption=(
            f"例 5.3: |V| = {thousands(vocab)}, d = {d}, L = {n_layer}, "
            f"L_ctx = {thousands(n_ctx)}, d_ff = {width} のパラメータ数"
        ),
        columns=GPT2_COLUMNS,
        value_columns=(GPT2_COLUMNS[0], GPT2_COLUMNS[2]),
        rows=tuple(rows),
        values=tuple(values),
        listing=listing,
    )


# The listings' printed numbers -----------------------------------------------


@functools.cache
def attention_parameter_count(d: int = 8, h: int = 2) -> Table:
    """The self-attention listing's first line: the arrays of one multi-head layer as
    `numeric.model.init_parameters` allocates them from spec, counted, against
    命題 7.1's polynomial 4d² + 4d."""
    _positive_ints(d=d, h=h)
    if d % h:
        raise ValueError(f"h must divide d, got d = {d} and h = {h}")
    config = spec.ModelConfig(vocab=1, d=d, n_layer=1, n_head=h, d_ff=1, n_ctx=1)
    layer = sub_parameters(init_parameters(config, np.random.default_rng(0)), "blocks.0.attn")
    allocated = int(parameter_count(layer))
    formula = _int_at(counts.attention_parameters(bias=True), {sym.d: d})
    return Table(
        name="attention-parameters",
        caption=f"命題 7.1: d = {d}, h = {h} の自己注意 1 層のパラメータ数",
        columns=("数え方", "個数"),
        rows=(("配列の成分の総数", thousands(allocated)), ("$4d^2 + 4d$", thousands(formula))),
        values=(("allocated", allocated), ("formula", formula)),
        listing=(f"params: {allocated} = 4d^2+4d = {formula}",),
    )


@functools.cache
def small_model_count(
    vocab: int = 10, d: int = 4, n_layer: int = 2, d_ff: int = 16, n_ctx: int = 8, n_head: int = 2
) -> Table:
    """例 5.2 and the block listing's first line: the arrays of a real model allocated
    by `numeric.model.init_parameters`, counted, against 定理 5.1's polynomial."""
    config = spec.ModelConfig(
        vocab=vocab, d=d, n_layer=n_layer, n_head=n_head, d_ff=d_ff, n_ctx=n_ctx
    )
    allocated = int(parameter_count(init_parameters(config, np.random.default_rng(0))))
    at = {sym.V: vocab, sym.d: d, sym.L: n_layer, sym.L_ctx: n_ctx, sym.d_ff: d_ff}
    formula = _int_at(counts.model_parameters(bias=True, tied=True, positions=True), at)
    return Table(
        name="small-model-count",
        caption=(
            f"例 5.2: |V| = {vocab}, d = {d}, L = {n_layer}, d_ff = {d_ff}, "
            f"L_ctx = {n_ctx} のパラメータ数"
        ),
        columns=("数え方", "個数"),
        rows=(("配列の成分の総数", thousands(allocated)), ("定理 5.1 の式", thousands(formula))),
        values=(("allocated", allocated), ("formula", formula)),
        listing=(f"count: {allocated}  formula: {formula}",),
    )


@functools.cache
def block_cost_comparison(d: int = 768, n: int = 1024) -> Table:
    """命題 6.1 at d_ff = 4d: the term linear in n (12nd²), the quadratic one (2n²d),
    their ratio, and n/(6d), which the ratio equals."""
    _positive_ints(d=d, n=n)
    block = counts.block_multiplications(width=4 * sym.d)
    linear, quadratic = counts.linear_quadratic(block, sym.n)
    at = {sym.d: d, sym.n: n}
    lin, quad = _int_at(linear, at), _int_at(quadratic, at)
    crossover = counts.crossover(block, sym.n)  # 6d, solved
    ratio, ratio_by_crossover = quad / lin, float(n / crossover.subs(sym.d, d))
    return Table(
        name="block-cost",
        caption=f"命題 6.1: d = {d}, n = {n}, d_ff = 4d の 1 層の乗算の回数の主要項",
        columns=("量", "値"),
        rows=(
            ("$12nd^2$", tex_thousands(lin)),
            ("$2n^2d$", tex_thousands(quad)),
            ("比", f"{ratio:.3f}"),
            ("$n/(6d)$", f"{ratio_by_crossover:.3f}"),
        ),
        values=(("12nd^2", lin), ("2n^2d", quad), ("ratio", ratio), ("n/(6d)", ratio_by_crossover)),
        listing=(
            f"MLP+proj 12nd^2 = {lin}   attention 2n^2d = {quad}   "
            f"ratio = {ratio:.3f}   n/(6d) = {ratio_by_crossover:.3f}",
        ),
    )


TABLES: dict[str, Callable[..., Table]] = {
    "scaling": scaling_table,
    "attention-complexity": attention_complexity_table,
    "gpt2-parameters": gpt2_parameter_table,
    "attention-parameters": attention_parameter_count,
    "small-model-count": small_model_count,
    "block-cost": block_cost_comparison,
}


# The listings' experiments, re-run ----------------------------------------------
#
# The chapters' listings print measurements of small experiments (equivariance
# gaps, rows changed by a causal mask, LayerNorm checks). They are re-run here
# with the package's own functions, drawing from np.random.default_rng(0) in the
# listings' order, so that each printed line has the package's line beside it.
# A measurement that is a rounding error carries its bound: below it, printed
# and recomputed values are both "rounding level" and are not compared digit by
# digit (they depend on the order of floating-point operations).

EPS = float(np.finfo(np.float64).eps)


@dataclass(frozen=True)
class ListingLine:
    """A line as a chapter's listing prints it, computed by the package."""

    text: str
    source: str  # what computed it
    rounding: float = 0.0  # values at or below this are rounding errors


def _chapter_attention_parameters(d: int, h: int, rng: np.random.Generator) -> dict:
    """The self-attention listing's init_params draws, in its order, in spec's layout:
    W_Q, W_K, W_V (h, d, d/h) / sqrt(d); b_Q, b_K, b_V 0.1 N; W_O (d, d) / sqrt(d)
    split by head into (h, d/h, d); b_O 0.1 N."""
    dk = d // h
    p = {name: rng.standard_normal((h, d, dk)) / np.sqrt(d) for name in ("w_q", "w_k", "w_v")}
    p.update({name: 0.1 * rng.standard_normal((h, dk)) for name in ("b_q", "b_k", "b_v")})
    p["w_o"] = (rng.standard_normal((d, d)) / np.sqrt(d)).reshape(h, dk, d)
    p["b_o"] = 0.1 * rng.standard_normal(d)
    return p


def self_attention_listing_lines() -> list[ListingLine]:
    """The self-attention chapter's listings (8 節 and 演習 10.4), re-run."""
    mha = multi_head_attention
    source = "numeric.attention.multi_head_attention, default_rng(0) as in the listing"
    rng = np.random.default_rng(0)
    n, d, h = 6, 8, 2
    p = _chapter_attention_parameters(d, h, rng)
    x = rng.standard_normal((n, d))  # (n, d)
    perm = rng.permutation(n)
    y, _ = mha(x, p)
    yp, _ = mha(x[perm], p)
    yc, ac = mha(x, p, causal=True)  # (n, d), (h, n, n)
    ycp, _ = mha(x[perm], p, causal=True)
    x2 = x.copy()
    x2[4:] = rng.standard_normal((2, d))
    yc2, _ = mha(x2, p, causal=True)
    y2, _ = mha(x2, p)
    prefix = max(
        np.abs(mha(x[:t], p, causal=True)[0][t - 1] - yc[t - 1]).max() for t in range(1, n + 1)
    )
    v = np.einsum("nd,hdk->hnk", x, p["w_v"]) + p["b_v"][:, None, :]  # (h, n, d/h)
    heads = ac @ v  # (h, n, d/h)
    # |f(PX) - P f(X)| is a difference of two O(|Y|) results, each a few dozen
    # float operations deep: rounding level is below 64 eps max|Y|.
    level = 64 * EPS * float(np.abs(y).max())
    attention_count = attention_parameter_count().listing[0]
    lines = [
        ListingLine(attention_count, "spec + symbolic.counts.attention_parameters"),
        ListingLine(
            f"equivariance   max|f(PX) - P f(X)| = {np.abs(yp - y[perm]).max():.1e}", source, level
        ),
        ListingLine(
            f"causal, permuted max|f(PX) - P f(X)| = {np.abs(ycp - yc[perm]).max():.1e}", source
        ),
        ListingLine(f"causal    rows 1-4 change: {np.abs(yc2[:4] - yc[:4]).max():.1e}", source),
        ListingLine(f"no mask   rows 1-4 change: {np.abs(y2[:4] - y[:4]).max():.1e}", source),
        ListingLine(f"prefix consistency: {prefix:.1e}", source, level),
        ListingLine(
            f"weights >= 0: {bool((ac >= 0).all())}  row sums - 1: "
            f"{np.abs(ac.sum(-1) - 1).max():.1e}  upper triangle max: "
            f"{np.abs(np.triu(ac, 1)).max():.1e}",
            source,
            64 * EPS,  # a sum of n <= 6 weights in [0, 1]
        ),
        ListingLine(
            f"max row norm of head output {np.linalg.norm(heads, axis=-1).max():.4f} <= "
            f"max row norm of V {np.linalg.norm(v, axis=-1).max():.4f}",
            source,
        ),
    ]
    lines += [ListingLine(t, "proofs.tables.scaling_table") for t in scaling_table().listing]
    lines += [
        ListingLine(t, "proofs.tables.attention_complexity_table")
        for t in attention_complexity_table().listing
    ]
    # 演習 10.4: two causal layers with parameters drawn one after the other.
    rng = np.random.default_rng(0)
    p1, p2 = _chapter_attention_parameters(d, h, rng), _chapter_attention_parameters(d, h, rng)
    x = rng.standard_normal((n, d))
    xs = x.copy()
    xs[[0, 1]] = x[[1, 0]]

    def one(z: np.ndarray) -> np.ndarray:
        return mha(z, p1, causal=True)[0]

    def two(z: np.ndarray) -> np.ndarray:
        return mha(one(z), p2, causal=True)[0]

    level_one = 64 * EPS * float(np.abs(one(x)).max())
    lines += [
        ListingLine(
            f"1 layer, last row change: {np.abs(one(xs)[-1] - one(x)[-1]).max():.1e}",
            source,
            level_one,
        ),
        ListingLine(
            f"2 layers, last row change: {np.abs(two(xs)[-1] - two(x)[-1]).max():.1e}", source
        ),
    ]
    return lines


def _chapter_model_parameters(config: spec.ModelConfig, rng: np.random.Generator) -> dict:
    """The block listing's init_model draws, in its order, under spec's names."""
    d, dff = config.d, config.d_ff
    p = {
        "wte": 0.5 * rng.standard_normal((config.vocab, d)),
        "wpe": 0.5 * rng.standard_normal((config.n_ctx, d)),
    }
    for layer in range(config.n_layer):
        prefix = f"blocks.{layer}."
        attn = _chapter_attention_parameters(d, config.n_head, rng)
        p.update({prefix + "attn." + k: v for k, v in attn.items()})
        p[prefix + "mlp.w_1"] = rng.standard_normal((d, dff)) / np.sqrt(d)
        p[prefix + "mlp.b_1"] = 0.1 * rng.standard_normal(dff)
        p[prefix + "mlp.w_2"] = rng.standard_normal((dff, d)) / np.sqrt(dff)
        p[prefix + "mlp.b_2"] = 0.1 * rng.standard_normal(d)
        for ln in ("ln_1", "ln_2"):
            p[prefix + ln + ".gamma"], p[prefix + ln + ".beta"] = np.ones(d), np.zeros(d)
    p["ln_f.gamma"], p["ln_f.beta"] = np.ones(d), np.zeros(d)
    return p


def _vector(v: np.ndarray) -> str:
    """An array as the listing prints it under set_printoptions(precision=4, suppress=True)."""
    return np.array2string(np.asarray(v), precision=4, suppress_small=True)


def transformer_block_listing_lines() -> list[ListingLine]:
    """The Transformer-block chapter's listings (9 節), re-run."""
    source = "numeric.model.forward, default_rng(0) as in the listing"
    config = spec.ModelConfig(vocab=10, d=4, n_layer=2, n_head=2, d_ff=16, n_ctx=8)
    params = _chapter_model_parameters(config, np.random.default_rng(0))
    tokens = np.array([3, 1, 4, 1, 5, 9])
    logits = forward(tokens, params, config)  # (n, |V|)
    changed = tokens.copy()
    changed[4:] = [2, 6]
    logits2 = forward(changed, params, config)
    prefix = max(
        np.abs(forward(tokens[:t], params, config)[-1] - logits[t - 1]).max() for t in range(1, 7)
    )
    level = 64 * EPS * float(np.abs(logits).max())
    lines = [ListingLine(small_model_count().listing[0], "numeric.model + symbolic.counts")]
    lines += [
        ListingLine(f"logits shape: {logits.shape}", source),
        ListingLine(
            f"rows 1-4 change: {np.abs(logits2[:4] - logits[:4]).max():.1e}   "
            f"rows 5-6 change: {np.abs(logits2[4:] - logits[4:]).max():.1e}",
            source,
        ),
        ListingLine(f"prefix consistency: {prefix:.1e}", source, level),
    ]
    lines += [
        ListingLine(t, "proofs.tables.gpt2_parameter_table") for t in gpt2_parameter_table().listing
    ]

    ln_source = "numeric.layer_norm"
    x = np.array([1.0, 2.0, 3.0, 6.0])
    y = layer_norm(x, eps=0.0)
    lines += [
        ListingLine(
            f"LN(x)      = {_vector(y)}  mean {y.mean():.1e}  var {y.var():.4f}  "
            f"norm {np.linalg.norm(y):.4f}",
            ln_source,
            16 * EPS,  # the mean of 4 numbers of size <= 2
        ),
        ListingLine(f"LN(3x + 5) = {_vector(layer_norm(3 * x + 5, eps=0.0))}", ln_source),
    ]
    rng = np.random.default_rng(0)
    x = rng.standard_normal(6)
    jac, step = layer_norm_jacobian(x), 1e-6
    numeric_jac = np.stack(
        [
            (layer_norm(x + step * e, eps=0.0) - layer_norm(x - step * e, eps=0.0)) / (2 * step)
            for e in np.eye(6)
        ],
        axis=1,
    )  # (d, d)
    # Central difference: each LN value carries a rounding error of a few eps
    # max|LN| (<= sqrt(d)), divided by 2h; the truncation error h^2 |f'''| / 6 is
    # far smaller at h = 1e-6. Bound: 16 eps sqrt(d) / h.
    fd_level = 16 * EPS * np.sqrt(6) / step
    jac_level = 64 * EPS * float(np.abs(jac).max()) * float(np.abs(x).max())
    lines += [
        ListingLine(
            f"formula vs finite difference: {np.abs(jac - numeric_jac).max():.1e}",
            "numeric.layer_norm_jacobian against central differences",
            fd_level,
        ),
        ListingLine(
            f"|J 1| = {np.abs(jac @ np.ones(6)).max():.1e}   "
            f"|J (x - mu)| = {np.abs(jac @ (x - x.mean())).max():.1e}",
            "numeric.layer_norm_jacobian",
            jac_level,
        ),
        ListingLine(
            f"singular values * sigma: {_vector(np.linalg.svd(jac, compute_uv=False) * x.std())}",
            "numeric.layer_norm_jacobian",
        ),
        ListingLine(
            f"|J(3x) - J(x)/3| = {np.abs(layer_norm_jacobian(3 * x) - jac / 3).max():.1e}",
            "numeric.layer_norm_jacobian",
            jac_level,
        ),
    ]
    b1 = (0.0, 0.0, -1.0)
    patterns = grid_activation_patterns(((1.0, 0.0), (0.0, 1.0), (1.0, 1.0)), b1)
    lines.append(
        ListingLine(
            f"activation patterns: {len(patterns)} of {2 ** len(b1)} {patterns}",
            "the ReLU activation patterns on the listing's grid",
        )
    )
    lines += [
        ListingLine(t, "proofs.tables.block_cost_comparison")
        for t in block_cost_comparison().listing
    ]
    return lines


@functools.cache
def listing_lines(chapter: str) -> tuple[ListingLine, ...]:
    """Every listing line the package reproduces for a chapter (a key of CHAPTERS)."""
    builders = {
        "self-attention": self_attention_listing_lines,
        "transformer-block": transformer_block_listing_lines,
    }
    if chapter not in builders:
        return ()
    return tuple(builders[chapter]())
