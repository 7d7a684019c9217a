"""The chapters' tables and the printed numbers of their listings, regenerated.

Every number here is computed by the package: the d_k scaling table (例 4.5)
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
import io
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import sympy

import spec
from numeric.softmax import softmax
from symbolic import symbols as sym


@dataclass(frozen=True)
class Table:
    """A regenerated table: header, formatted cells, raw values, caption.

    `rows` hold the cells as the chapter prints them (thousands separators,
    decimals, TeX in `$…$`); `values` hold the numbers behind them (None for a
    blank cell). `listing` holds the lines the chapter's code listing prints
    for the same quantities, formatted with the listing's own format strings.
    """

    name: str
    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    values: tuple[tuple[object, ...], ...]
    listing: tuple[str, ...] = field(default=())

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
        writer.writerow(self.columns)
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


def _positive_ints(**named: object) -> None:
    for name, value in named.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")


def _counts():
    """symbolic.counts, imported when a counting table is first built."""
    from symbolic import counts

    return counts


def _int_at(expr: sympy.Expr, values: dict) -> int:
    """An integer-valued polynomial evaluated exactly."""
    result = sympy.sympify(expr).subs(values)
    if not result.is_Integer:
        raise ValueError(f"{expr} does not evaluate to an integer at {values}: {result}")
    return int(result)


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
        columns=(
            "$d_k$",
            r"$\langle\boldsymbol{q},\boldsymbol{k}\rangle$ の分散",
            r"$\sqrt{d_k}$ で割ったあとの分散",
            "最大の重み（割らない）",
            "最大の重み（割る）",
        ),
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
    counts = _counts()
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
        columns=(
            "$n$",
            "$4nd^2$",
            "$2n^2d$",
            "合計",
            "$2n^2d$ の前の行との比",
            "合計の前の行との比",
        ),
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


def gpt2_parameter_table(
    vocab: int = 50257, d: int = 768, n_layer: int = 12, n_ctx: int = 1024, d_ff: int | None = None
) -> Table:
    """例 5.3: 定理 5.1's count for a tied, biased, learned-position model, by part.

    d_ff defaults to 4d. Each part is the polynomial of the spec parameters it
    groups (token embeddings, position embeddings, one block, L blocks, the
    final LayerNorm), evaluated; the total is the whole model's polynomial.
    """
    counts = _counts()
    _positive_ints(vocab=vocab, d=d, n_layer=n_layer, n_ctx=n_ctx)
    width = 4 * d if d_ff is None else d_ff
    _positive_ints(d_ff=width)
    at = {sym.V: vocab, sym.d: d, sym.L: n_layer, sym.L_ctx: n_ctx, sym.d_ff: width}
    sizes = {"vocab": vocab, "d": d, "n_ctx": n_ctx}
    params = {p.name: p for p in spec.model_parameters(bias=True, tied=True, positions=True)}
    embeddings = _int_at(counts.parameter_polynomial([params["wte"]]), at)
    positions = _int_at(counts.parameter_polynomial([params["wpe"]]), at)
    block_general = counts.block_parameters(bias=True, d_ff=sym.d_ff)  # in d and d_ff
    per_layer = _int_at(block_general, at)
    final_ln_poly = counts.parameter_polynomial([params["ln_f.gamma"], params["ln_f.beta"]])
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
        columns=("構成要素", "式", "個数"),
        rows=tuple(rows),
        values=tuple(values),
        listing=listing,
    )


# The listings' printed numbers -----------------------------------------------


def attention_parameter_count(d: int = 8, h: int = 2) -> Table:
    """The self-attention listing's first line: the arrays of one multi-head layer
    allocated from spec (summed sizes) against 命題 7.1's polynomial 4d² + 4d."""
    counts = _counts()
    _positive_ints(d=d, h=h)
    if d % h:
        raise ValueError(f"h must divide d, got d = {d} and h = {h}")
    sizes = {"d": d, "h": h, "d_head": d // h}
    allocated = sum(
        int(np.prod([sizes[name] for name in p.dims]))
        for p in spec.parameters.attention_parameters(bias=True)
    )
    formula = _int_at(counts.attention_parameters(bias=True), {sym.d: d})
    return Table(
        name="attention-parameters",
        caption=f"命題 7.1: d = {d}, h = {h} の自己注意 1 層のパラメータ数",
        columns=("数え方", "個数"),
        rows=(("配列の成分の総数", thousands(allocated)), ("$4d^2 + 4d$", thousands(formula))),
        values=(("allocated", allocated), ("formula", formula)),
        listing=(f"params: {allocated} = 4d^2+4d = {formula}",),
    )


def small_model_count(
    vocab: int = 10, d: int = 4, n_layer: int = 2, d_ff: int = 16, n_ctx: int = 8, n_head: int = 2
) -> Table:
    """例 5.2 and the block listing's first line: the arrays of a real model allocated
    by `numeric.model.init_parameters`, counted, against 定理 5.1's polynomial."""
    counts = _counts()
    from numeric.model import init_parameters, parameter_count

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


def block_cost_comparison(d: int = 768, n: int = 1024) -> Table:
    """命題 6.1 at d_ff = 4d: the term linear in n (12nd²), the quadratic one (2n²d),
    their ratio, and n/(6d), which the ratio equals."""
    counts = _counts()
    _positive_ints(d=d, n=n)
    block = counts.block_multiplications(d_ff=4 * sym.d)
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
