"""§8 活性化関数: ReLU MLPs are piecewise linear, GELU is not (命題 8.1); 注意 8.2's table."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import spec
from numeric.activations import gelu
from numeric.attention import multi_head_attention
from numeric.error_bounds import U, gamma
from numeric.mlp import mlp
from numeric.model import forward, init_parameters, sub_parameters
from proofs.book.claims import Claim
from proofs.book.judge import Verdict, judge_cases, require, weigh
from proofs.book.profiles import scaled
from proofs.book.stated import (
    formula_of,
    function_of,
    plus_minus,
    prose_integer,
    prose_integer_last,
    table_rows,
)
from proofs.chapters.transformer_block.chapter import CHAPTER
from proofs.chapters.transformer_block.strategies import block_parameters, seeds
from proofs.evidence.measures import grid_activation_patterns
from proofs.tex.tree import TexError
from symbolic import gelu as symbolic_gelu
from symbolic.arrangements import activation_regions, general_position, region_bound
from symbolic.identities import is_zero

RELU_EXAMPLE = {  # 命題 8.1 after the proof, and the listing
    "w_1": ((1, 0), (0, 1), (1, 1)),  # rows: the normals of a_k(x) = <w_k, x> + b_k
    "b_1": (0, 0, -1),
    "missing": ("001",),
}


@dataclass(frozen=True)
class Architecture:
    """One column of 注意 8.2's table: the parts of one layer."""

    name: str
    self_attention_mask: str  # "none" or "causal"
    cross_attention: bool
    mlp: bool
    parts: int


ARCHITECTURE_TABLE = "\n".join(
    (
        " | エンコーダの層 | デコーダの層（エンコーダ・デコーダ型） | デコーダのみのモデルの層",
        "自己注意のマスク | なし | 因果マスク | 因果マスク",
        "交差注意 | なし | あり（キーとバリューはエンコーダの出力） | なし",
        "MLP | あり | あり | あり",
        "1 層の部品の数 | 2 | 3 | 2",
    )
)


def architectures(text: str) -> tuple[Architecture, ...]:
    """注意 8.2's table read into its columns: the header names the layers, the rows give
    the self-attention's mask (なし / 因果マスク), cross-attention and MLP (あり… / なし)
    and the count of parts."""
    rows = {row[0]: row[1:] for row in table_rows(text)}
    names = text.splitlines()[0].split(" | ")[1:]
    wanted = ("自己注意のマスク", "交差注意", "MLP", "1 層の部品の数")
    if set(rows) != set(wanted) or any(len(rows[w]) != len(names) for w in wanted):
        raise TexError(
            f"the table's rows are {sorted(rows)}, expected {list(wanted)} with one cell per layer"
        )

    def present(cell: str) -> bool:
        if cell == "なし" or cell.startswith("あり"):
            return cell != "なし"
        raise TexError(f"the cell {cell!r} says neither あり nor なし")

    masks = {"なし": "none", "因果マスク": "causal"}
    columns = []
    for k, name in enumerate(names):
        mask, parts = rows["自己注意のマスク"][k], rows["1 層の部品の数"][k]
        if mask not in masks or not parts.isdigit():
            raise TexError(f"{name}: the mask {mask!r} or the count {parts!r} is not readable")
        columns.append(
            Architecture(
                name.strip(),
                masks[mask],
                present(rows["交差注意"][k]),
                present(rows["MLP"][k]),
                int(parts),
            )
        )
    return tuple(columns)


def _affine_piece(x: np.ndarray, ff: Mapping) -> np.ndarray:
    """W_2^T D_s (W_1^T x + b_1) + b_2 with s = 1[a(x) > 0]: the affine map of x's region."""
    a = x @ ff["w_1"] + ff["b_1"]  # (n, d_ff)
    return ((a > 0) * a) @ ff["w_2"] + ff["b_2"]


@CHAPTER.element(
    "prop-relu-piecewise-linear",
    "命題 8.1",
    "ReLU の MLP は区分線形",
    "proposition",
    ("symbolic", "numeric", "witness"),
    claims=(
        Claim(
            r"g(\boldsymbol{x}) = "
            r"W_2^{\mathsf{T}}\,\mathrm{ReLU}(W_1^{\mathsf{T}}\boldsymbol{x} + "
            r"\boldsymbol{b}_1) + \boldsymbol{b}_2",
        ),
        Claim(r"\mathrm{GELU}(t) = t\,\Phi(t)"),
        Claim(r"2^{d_{\mathrm{ff}}}", argument="pattern_bound", read=function_of("d_ff")),
        Claim(
            r"\mathrm{GELU}''(t) = \varphi(t) + \varphi(t) + t\,\varphi'(t) = (2 - "
            r"t^2)\,\varphi(t)",
            where="proof",
            lhs=r"\mathrm{GELU}''(t)",
            argument="stated_second",
            read=formula_of("t", varphi=symbolic_gelu.phi),
        ),
        Claim(r"t = \pm\sqrt2", where="proof", lhs="t", argument="stated_zeros", read=plus_minus),
        Claim(
            "領域は多くても 7 個",
            phrase=True,
            where="text",
            argument="printed.regions",
            read=prose_integer,
        ),
        Claim(
            "8 通りのパターンのうち現れるのは 7 通り",
            phrase=True,
            where="text",
            argument="printed.patterns",
            read=prose_integer_last,
        ),
    ),
)
def prop_relu_piecewise_linear(
    *,
    relu_network: Callable = lambda x, p: mlp(x, p, "relu"),
    smooth: Callable = gelu,
    derivatives: Callable = symbolic_gelu.derivatives,
    stated_second: Callable,
    stated_zeros: frozenset,
    pattern_bound: Callable,
    printed: Mapping,
    example: Mapping = RELU_EXAMPLE,
    regions: Callable = activation_regions,
) -> list[str]:
    """(1) The ReLU MLP is affine on each of at most 2^{d_ff} convex regions R_s; (2) GELU is
    smooth, GELU'' = (2 - t^2) phi(t), and GELU is affine on no open interval. Numeric, on
    Hypothesis-drawn MLPs (d = 1..4, d_ff = 1..6) and points: `relu_network` equals the
    affine map W_2^T D_s (W_1^T x + b_1) + b_2 of the point's pattern s within the two
    evaluations' gamma-bounds. Exact: the chapter's example (normals (1, 0), (0, 1), (1, 1),
    offsets 0, 0, -1) has exactly the stated patterns, every one of the 8 decided by
    Fourier-Motzkin elimination over the rationals (not a grid); on Hypothesis-drawn integer
    arrangements (d = 1..3, m = 1..5 hyperplanes) the non-empty regions number at most
    `pattern_bound`(m) (2^m), and exactly sum_{i<=d} C(m, i) when the arrangement is in
    general position (decided exactly; `regions` lists the non-empty ones). Symbolic:
    `derivatives` of t Phi(t) give GELU'' = `stated_second`, whose real zeros are
    `stated_zeros` ({-sqrt 2, sqrt 2}) only. Witness for every Hypothesis-drawn interval (a,
    a + w), a in [-8, 4], w in [0.05, 2]: three points in it where the second difference of
    `smooth` exceeds its rounding bound, so `smooth` is affine on no such interval. The
    domain stops at 6 because float64 cannot see the curvature further right: GELU(t) = t to
    within an ulp for t >= 8 (there the symbolic GELU'' != 0 is the proof)."""
    evidence = []
    pieces: list[Verdict] = []

    @scaled(1.0)
    @given(st.integers(1, 4), st.integers(1, 6), seeds())
    def affine_on_regions(d, d_ff, seed):
        rng = np.random.default_rng(seed)
        ff = {
            "w_1": rng.standard_normal((d, d_ff)),
            "b_1": rng.standard_normal(d_ff),
            "w_2": rng.standard_normal((d_ff, d)),
            "b_2": rng.standard_normal(d),
        }
        x = 2 * rng.standard_normal((8, d))
        got, want = relu_network(x, ff), _affine_piece(x, ff)
        a = np.abs(x) @ np.abs(ff["w_1"]) + np.abs(ff["b_1"])  # (8, d_ff)
        bound = 2 * (
            gamma(d + 1) * a @ np.abs(ff["w_2"])
            + gamma(d_ff + 1) * (a @ np.abs(ff["w_2"]) + np.abs(ff["b_2"]))
        )
        pieces.append(weigh(got - want, bound, f"d = {d}, d_ff = {d_ff}, seed {seed}"))

    affine_on_regions()
    judged = judge_cases(pieces, "the ReLU MLP against its region's affine map")
    evidence.append(
        f"the ReLU MLP equals W_2^T D_s (W_1^T x + b_1) + b_2 on the region of "
        f"every drawn point (max gap {judged.largest:.1e})"
    )
    patterns = regions(example["w_1"], example["b_1"])
    everything = ["".join(p) for p in itertools.product("01", repeat=len(example["b_1"]))]
    missing = sorted(set(everything) - set(patterns))
    require(
        len(patterns) == printed["patterns"] == printed["regions"]
        and tuple(missing) == tuple(example["missing"]),
        f"the example has {len(patterns)} non-empty regions (missing {missing}), stated "
        f"{printed['regions']} regions and {printed['patterns']} patterns (missing "
        f"{list(example['missing'])})",
    )
    on_grid = grid_activation_patterns(example["w_1"], example["b_1"])  # the listing's grid
    require(on_grid == patterns, f"the listing's grid finds {on_grid}, the exact count {patterns}")
    m, d = len(example["b_1"]), len(example["w_1"][0])
    require(
        general_position(example["w_1"], example["b_1"]) and len(patterns) == region_bound(m, d),
        f"the example's {m} lines are not in general position with {region_bound(m, d)} regions",
    )
    evidence.append(
        f"the chapter's example, exactly: {len(patterns)} of {len(everything)} "
        f"patterns {patterns}; {missing} is infeasible; the {m} lines are in "
        f"general position, and sum_(i<={d}) C({m}, i) = {region_bound(m, d)}; the "
        f"listing's 601 x 601 grid on [-3, 3]^2 finds the same {len(on_grid)}"
    )
    counted = [0, 0]

    @scaled(1.0)
    @given(st.integers(1, 3), st.integers(1, 5), seeds())
    def arrangements(d, m, seed):
        rng = np.random.default_rng(seed)
        w_1 = rng.integers(-4, 5, (m, d)).tolist()
        b_1 = rng.integers(-4, 5, m).tolist()
        count = len(regions(w_1, b_1))
        require(
            count <= pattern_bound(m),
            f"{count} regions for {m} hyperplanes, more than the stated {pattern_bound(m)}",
        )
        if general_position(w_1, b_1):
            require(
                count == region_bound(m, d),
                f"{count} regions for {m} hyperplanes in general position in R^{d}, not "
                f"{region_bound(m, d)}",
            )
            counted[0] += 1
        else:
            counted[1] += 1

    arrangements()
    evidence.append(
        f"drawn integer arrangements: regions <= 2^m always; = sum_(i<=d) C(m, i) "
        f"on the {counted[0]} in general position ({counted[1]} others)"
    )
    first, second = derivatives()
    t = symbolic_gelu.t
    require(is_zero(first - symbolic_gelu.chapter_first(t)), f"GELU' = {first}, not Phi + t phi")
    require(is_zero(second - stated_second(t)), f"GELU'' = {second}, stated {stated_second(t)}")
    zeros = symbolic_gelu.second_derivative_zeros(stated_second)
    require(
        zeros == stated_zeros,
        f"the real zeros of GELU'' are {sorted(zeros, key=float)}, stated "
        f"{sorted(stated_zeros, key=float)}",
    )
    evidence.append(
        f"GELU' = {first}, GELU'' = {second} = (2 - t^2) phi(t), zero only at "
        f"t = {', '.join(map(str, sorted(zeros, key=float)))}, so GELU is affine "
        f"on no open interval"
    )
    smallest = [math.inf]

    @scaled(1.0)
    @given(st.floats(-8, 4), st.floats(0.05, 2))
    def nowhere_affine(a, w):
        # the half of (a, a + w) farther from +-sqrt 2, where GELU'' is bounded away from 0
        halves = ((a, a + w / 2), (a + w / 2, a + w))
        lo, hi = max(halves, key=lambda iv: min(abs(abs((iv[0] + iv[1]) / 2) - math.sqrt(2)), 10))
        h = (hi - lo) / 4
        f = smooth(np.array([lo + h, lo + 2 * h, lo + 3 * h]))
        second = float(f[0] - 2 * f[1] + f[2])
        bound = 8 * U * float(np.abs(f).sum() + np.abs(f[1]))  # a few ulps each, 2 sums
        require(
            abs(second) > bound,
            f"the second difference on ({a}, {a + w}) is {second:.3e}"
            f" <= rounding {bound:.3e}: affine there",
        )
        smallest[0] = min(smallest[0], abs(second) / bound)

    nowhere_affine()
    evidence.append(
        f"witness: on every drawn interval the second difference exceeds its "
        f"rounding bound (smallest ratio {smallest[0]:.1e})"
    )
    return evidence


@CHAPTER.element(
    "rem-out-of-scope",
    "注意 8.2",
    "この章で扱わなかったこと",
    "remark",
    ("not a theorem", "witness"),
    claims=(
        Claim(ARCHITECTURE_TABLE, table=True, where="text", argument="table", read=architectures),
    ),
)
def rem_out_of_scope(
    table: tuple[Architecture, ...],
    model: Callable = forward,
    declared: Callable = spec.model_parameters,
    attention: Callable = multi_head_attention,
) -> list[str]:
    """Not a theorem: universal approximation, dropout and initialisation, and the
    encoder-decoder model are outside the chapter. The remark's table (encoder layer,
    decoder layer of the encoder-decoder model, decoder-only layer) is read into its
    columns (`architectures`) and checked for consistency: each layer's count of parts is its
    self-attention, its cross-attention if any and its MLP; the decoder-only column
    matches the package's model, whose blocks declare one attention and one MLP and no
    cross-attention (`declared`, spec's), and whose attention is causal (changing the last
    token leaves the other logits unchanged, seed 0); cross-attention (keys and values
    from another sequence of length m != n) is available as `attention` with a context."""
    evidence = []
    for column in table:
        parts = 1 + int(column.cross_attention) + int(column.mlp)
        require(
            parts == column.parts,
            f"{column.name}: {column.parts} parts listed, but "
            f"self-attention, cross-attention and MLP make {parts}",
        )
        evidence.append(
            f"{column.name}: mask {column.self_attention_mask}, cross-attention "
            f"{'yes' if column.cross_attention else 'no'}, MLP "
            f"{'yes' if column.mlp else 'no'}, {column.parts} parts"
        )
    ours = table[-1]
    groups = {p.name.split(".")[1] for p in declared() if p.per_layer}
    require(
        groups == {"ln_1", "attn", "ln_2", "mlp"},
        f"the model's blocks declare the groups {sorted(groups)}",
    )
    require(
        ours.self_attention_mask == "causal" and not ours.cross_attention and ours.mlp,
        f"the decoder-only column says {ours}, but the package's model has a causal "
        "self-attention, no cross-attention and an MLP",
    )
    config = spec.ModelConfig(vocab=6, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=4)
    params = init_parameters(config, np.random.default_rng(0))
    tokens = np.array([1, 2, 3, 4])
    changed = np.array([1, 2, 3, 5])
    require(
        bool(np.array_equal(model(tokens, params, config)[:3], model(changed, params, config)[:3])),
        "the package's model is not causal",
    )
    rng = np.random.default_rng(0)
    attn = sub_parameters(block_parameters(4, 2, 8, rng), "attn")
    out, weights = attention(rng.standard_normal((3, 4)), attn, context=rng.standard_normal((5, 4)))
    require(
        out.shape == (3, 4) and weights.shape == (2, 3, 5),
        f"cross-attention gave shapes {out.shape}, {weights.shape}",
    )
    evidence.append(
        "the decoder-only column is the package's model (causal, one attention "
        "and one MLP per block, no cross-attention); cross-attention with n = 3 "
        "queries and m = 5 keys gives weights (2, 3, 5)"
    )
    return evidence
