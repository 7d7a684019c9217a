"""§11 演習 11.1–11.4."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import partial

import numpy as np
import sympy
from hypothesis import given
from hypothesis import strategies as st

import spec
from numeric.block import pre_ln_block
from numeric.error_bounds import (
    U,
    gamma,
    layer_norm_error_bound,
)
from numeric.layer_norm import layer_norm
from numeric.model import init_parameters, parameter_count
from proofs.book.claims import Claim
from proofs.book.judge import CheckFailed, Verdict, judge_cases, judge_within, require, weigh
from proofs.book.profiles import scaled
from proofs.book.stated import (
    formula_of,
    integer,
    percentage,
    printed,
    product_terms,
    prose_integer,
    prose_integers,
    sized_expression,
)
from proofs.chapters.transformer_block.chapter import CHAPTER
from proofs.chapters.transformer_block.complexity import counted_multiplications
from proofs.chapters.transformer_block.parameters import model_parts
from proofs.chapters.transformer_block.residual import residual_jacobians
from proofs.chapters.transformer_block.strategies import block_parameters, seeds, vectors
from proofs.evidence.measures import spread
from spec.contractions import BLOCK
from symbolic import counts, residual
from symbolic import layer_norm as symbolic_layer_norm
from symbolic import symbols as sym
from symbolic.identities import equal, is_zero


@CHAPTER.element(
    "exr-parameter-count",
    "演習 11.1",
    "小さなモデルのパラメータ数と埋め込みの割合",
    "exercise",
    ("symbolic", "numeric"),
    claims=(
        Claim(r"d_{\mathrm{ff}} = 4d"),
        Claim(r"|V| = 1000", lhs=r"|V|", argument="stated.sizes.vocab", read=integer),
        Claim(r"d = 64", lhs="d", argument="stated.sizes.d", read=integer),
        Claim(r"L = 4", lhs="L", argument="stated.sizes.n_layer", read=integer),
        Claim(
            r"L_{\mathrm{ctx}} = 128",
            lhs=r"L_{\mathrm{ctx}}",
            argument="stated.sizes.n_ctx",
            read=integer,
        ),
        Claim(
            r"1000 \times 64 = 64{,}000",
            where="proof",
            argument="stated.parts.embeddings",
            read=integer,
        ),
        Claim(
            r"128 \times 64 = 8{,}192",
            where="proof",
            argument="stated.parts.positions",
            read=integer,
        ),
        Claim(
            r"12\times64^2 + 13\times64 = 49{,}152 + 832 = 49{,}984",
            where="proof",
            argument="stated.parts.per_layer",
            read=integer,
        ),
        Claim(
            "4 層で $199{,}936$",
            where="proof",
            phrase=True,
            argument="stated.parts.layers",
            read=prose_integer,
        ),
        Claim(
            "最後の層正規化 $128$",
            where="proof",
            phrase=True,
            argument="stated.parts.final_layer_norm",
            read=prose_integer,
        ),
        Claim(
            "64{,}000 + 8{,}192 + 199{,}936 + 128 = 272{,}256",
            where="proof",
            argument="stated.total",
            read=integer,
        ),
        Claim(
            r"64{,}000/272{,}256 \approx 23.5\%",
            where="proof",
            argument="stated.embedding_share",
            read=percentage,
        ),
    ),
)
def exr_parameter_count(stated: Mapping, allocate: Callable = init_parameters) -> list[str]:
    """|V| = 1000, d = 64, L = 4, d_ff = 4d, L_ctx = 128: the parts (embeddings, positions,
    one layer 12d^2 + 13d, four layers, the final LayerNorm) and the total from the
    polynomials, against the stated solution; the arrays of a real model (`allocate`,
    h = 4) number the same; the embeddings' share against the printed percentage."""
    parts = model_parts(stated["sizes"])
    for name, value in stated["parts"].items():
        require(parts[name] == value, f"{name}: computed {parts[name]:,}, stated {value:,}")
    require(
        parts["total"] == stated["total"],
        f"total: computed {parts['total']:,}, stated {stated['total']:,}",
    )
    sizes = stated["sizes"]
    config = spec.ModelConfig(
        vocab=sizes["vocab"],
        d=sizes["d"],
        n_layer=sizes["n_layer"],
        n_head=4,
        d_ff=4 * sizes["d"],
        n_ctx=sizes["n_ctx"],
    )
    allocated = parameter_count(allocate(config, np.random.default_rng(0)))
    require(allocated == parts["total"], f"a real model has {allocated:,} parameters")
    share = parts["embeddings"] / parts["total"]
    require(
        stated["embedding_share"].agrees(share),
        f"the embeddings' share is {share:.4f}, printed {stated['embedding_share'].value}",
    )
    return [
        f"total {parts['total']:,} = {parts['embeddings']:,} + {parts['positions']:,} + "
        f"{parts['layers']:,} + {parts['final_layer_norm']:,}; a real model's arrays "
        f"number {allocated:,}",
        f"embeddings' share {share:.4f} ≈ {share:.1%}",
    ]


def _same_moment(name: str, value, expected) -> bool:
    """Equal moments; two norms (square roots, so both >= 0) are equal iff their squares are."""
    if name == "norm":
        return equal(sympy.expand(value**2), sympy.expand(expected**2))
    return equal(value, expected)


@CHAPTER.element(
    "exr-layer-norm-affine",
    "演習 11.2",
    "γ = g1、β = b1 の層正規化の平均・分散・ノルム",
    "exercise",
    ("symbolic", "numeric", "witness"),
    claims=(
        Claim(r"\varepsilon = 0"),
        Claim(r"\boldsymbol{\gamma} = g\boldsymbol{1}"),
        Claim(r"g > 0"),
        Claim(r"\boldsymbol{\beta} = b\boldsymbol{1}"),
        Claim(
            r"g\cdot0 + b = b",
            where="proof",
            argument="stated_mean",
            read=formula_of("d", "g", "b"),
        ),
        Claim(
            "g^2",
            where="proof",
            argument="stated_variance",
            read=formula_of("d", "g", "b"),
        ),
        Claim(
            r"\sqrt{d(g^2 + b^2)}",
            where="proof",
            argument="stated_norm",
            read=formula_of("d", "g", "b"),
        ),
        Claim(r"\mu(\hat{\boldsymbol{y}}) = 0", where="proof"),
        Claim(r"\sigma^2(\hat{\boldsymbol{y}}) = 1", where="proof"),
        Claim(
            r"1 は一般の $\boldsymbol{\gamma}, \boldsymbol{\beta}$ でも成り立ちます",
            phrase=True,
            where="proof",
        ),
    ),
)
def exr_layer_norm_affine(
    stated_mean: Callable,
    stated_variance: Callable,
    stated_norm: Callable,
    normalise: Callable = layer_norm,
    symbolic_normalise: Callable = symbolic_layer_norm.layer_norm,
    widths: tuple[int, ...] = (2, 3),
    indexed_normalise: Callable = symbolic_layer_norm.indexed_layer_norm,
) -> list[str]:
    """gamma = g1 (g > 0), beta = b1, eps = 0: the output has mean b, variance g^2 and norm
    sqrt(d (g^2 + b^2)); 命題 3.1 (1) holds for any gamma, beta, (2) does not. Symbolic:
    the moments for symbolic d (symbolic.layer_norm.moments_general of
    `indexed_normalise`, LN's y_k for symbolic d) and those of
    `symbolic_normalise` for d in `widths` explicitly equal `stated` (norms by their
    squares, both being square roots); LN_{gamma,beta}(a x + c 1) - LN_{gamma,beta}(x)
    reduces to 0 for symbolic vectors gamma, beta (d in `widths`). Numeric, on Hypothesis-drawn rows
    (d = 2..16, entries in [-100, 100], sigma >= 1e-3 max|x|), g in (0, 10], b in
    [-10, 10]: the three moments within their rounding bounds; invariance for drawn
    gamma, beta. Witness: gamma = (1, 2, ..., d) gives a variance far from 1 (seed 0)."""
    evidence = []
    g, b = sympy.Symbol("g", positive=True), sympy.Symbol("b", real=True)
    general = symbolic_layer_norm.moments_general(indexed_normalise)
    want = tuple(f(sym.d, g, b) for f in (stated_mean, stated_variance, stated_norm))
    got = (general.mean, general.variance, general.norm)
    for name, value, expected in zip(("mean", "variance", "norm"), got, want, strict=True):
        value = value.subs(sympy.Symbol("g", real=True), g)
        if not _same_moment(name, value, expected):  # simplified for the message alone
            raise CheckFailed(
                f"symbolic d: the {name} is {sympy.simplify(value)}, stated {expected}"
            )
    for d in widths:
        m = symbolic_layer_norm.moments(d, g, b, symbolic_normalise)
        for name, value, expected in zip(
            ("mean", "variance", "norm"),
            (m.mean, m.variance, m.norm),
            tuple(f(d, g, b) for f in (stated_mean, stated_variance, stated_norm)),
            strict=True,
        ):
            require(
                _same_moment(name, value, expected),
                f"d = {d}: the {name} is {value}, stated {expected}",
            )
        x = symbolic_layer_norm.variables(d)
        gains = sympy.Matrix(sympy.symbols(f"gamma_1:{d + 1}", real=True))
        shifts = sympy.Matrix(sympy.symbols(f"beta_1:{d + 1}", real=True))
        a, c = sympy.Symbol("a", positive=True), sympy.Symbol("c", real=True)
        moved = symbolic_normalise(a * x + c * sympy.ones(d, 1), 0, gains, shifts)
        diff = moved - symbolic_normalise(x, 0, gains, shifts)
        require(is_zero(diff), f"d = {d}: LN_(gamma, beta)(a x + c 1) != LN_(gamma, beta)(x)")
    evidence.append(
        f"symbolic d and d = {', '.join(map(str, widths))}: mean b, variance g^2, "
        f"norm sqrt(d (g^2 + b^2)); invariance for symbolic gamma, beta"
    )
    moments: list[Verdict] = []
    invariance: list[Verdict] = []

    @scaled(1.0)
    @given(vectors(), st.floats(1e-3, 10), st.floats(-10, 10), seeds())
    def moments_hold(x, gain, shift, seed):
        d = x.size
        y = normalise(x, np.full(d, gain), np.full(d, shift), eps=0.0)
        mean_, var_, norm_ = (
            float(f(d, gain, shift)) for f in (stated_mean, stated_variance, stated_norm)
        )
        err = float(layer_norm_error_bound(x, np.full(d, gain), np.full(d, shift)).max())
        scale = gain * math.sqrt(d) + abs(shift)  # max |y_j|
        bounds = (
            err + gamma(d + 1) * scale,
            2 * gain * math.sqrt(d) * err + err * err + gamma(d + 3) * scale**2,
            math.sqrt(d) * err + gamma(d + 2) * math.sqrt(d) * scale,
        )
        moments.append(
            weigh(
                (y.mean() - mean_, y.var() - var_, np.linalg.norm(y) - norm_),
                bounds,
                f"gamma = {gain} 1, beta = {shift} 1, x = {x.tolist()}",
            )
        )
        rng = np.random.default_rng(seed)
        gains, shifts = rng.standard_normal(d), rng.standard_normal(d)
        offset = 7.0 * spread(x)  # a shift in units of sigma keeps a x + b well conditioned
        moved = 2.5 * x - offset
        bound = (
            layer_norm_error_bound(x, gains, shifts)
            + layer_norm_error_bound(moved, gains, shifts)
            + np.abs(gains)
            * math.sqrt(d)
            * 2
            * U
            * (2.5 * np.abs(x).max() + offset)
            / (2.5 * spread(x))
        )
        gap = normalise(moved, gains, shifts, eps=0.0) - normalise(x, gains, shifts, eps=0.0)
        invariance.append(weigh(gap, bound, f"gamma = {gains}, beta = {shifts}"))

    moments_hold()
    judged = judge_cases(moments, "moments of LN (mean, variance, norm) against the stated ones")
    judge_cases(invariance, "invariance for gamma, beta: LN(2.5 x - 7 sigma 1) against LN(x)")
    evidence.append(
        f"numeric: the moments within their rounding bounds (worst gap / bound = "
        f"{judged.ratio:.2e}); invariance for drawn gamma, beta"
    )
    x = np.random.default_rng(0).standard_normal(6)
    y = normalise(x, np.arange(1.0, 7.0), np.zeros(6), eps=0.0)
    require(abs(y.var() - 1) > 0.5, "witness lost: gamma = (1..6) kept the variance at 1")
    evidence.append(
        f"witness: gamma = (1, ..., 6), beta = 0 gives mean {y.mean():.3f} and "
        f"variance {y.var():.3f}, so 命題 3.1 (2) fails for general gamma"
    )
    return evidence


def _factor_indices(term: sympy.Expr) -> tuple[int, ...]:
    """The indices k of the J_k in a non-commutative product, left to right (I has none)."""
    out = []
    for factor in sympy.Mul.make_args(term):
        base, power = factor.as_base_exp()
        name = str(base)
        index = re.fullmatch(r"J_?\{?(\d+)\}?", name)
        if index is not None:
            out += [int(index.group(1))] * int(power)
    return tuple(out)


def _term_name(indices: tuple[int, ...]) -> str:
    return "".join(f"J_{k}" for k in indices) or "I"


def _no_residual_step(x: np.ndarray, g: Callable) -> np.ndarray:
    return g(x)


@CHAPTER.element(
    "exr-residual-expansion",
    "演習 11.3",
    "3 段の展開の 8 項",
    "exercise",
    ("symbolic", "numeric", "witness"),
    claims=(
        Claim(r"M = 3"),
        Claim(r"l = 0"),
        Claim("展開した 8 個の項", phrase=True, argument="counts.asked", read=prose_integer),
        Claim(r"\boldsymbol{x}_l = G_l(\boldsymbol{x}_{l-1})"),
        Claim(
            "I + J_1 + J_2 + J_3 + J_2J_1 + J_3J_1 + J_3J_2 + J_3J_2J_1",
            where="proof",
            argument="stated",
            read=product_terms,
        ),
        Claim(
            "の 8 項です", phrase=True, where="proof", argument="counts.found", read=prose_integer
        ),
        Claim(
            "1 元集合 3 つ、2 元集合 3 つ",
            phrase=True,
            where="proof",
            argument="counts.by_size",
            read=prose_integers,
        ),
        Claim("すべての層を通る最後の 1 項だけです", phrase=True, where="proof"),
    ),
)
def exr_residual_expansion(
    stated: tuple,
    counts: Mapping,
    pre_ln_product: Callable = residual.pre_ln_product,
    step: Callable = _no_residual_step,
) -> list[str]:
    """(I + J_3)(I + J_2)(I + J_1) = I + J_1 + J_2 + J_3 + J_2J_1 + J_3J_1 + J_3J_2 + J_3J_2J_1,
    and without residuals only J_3J_2J_1 remains. Symbolic: symbolic.residual expands the
    product in non-commutative symbols; its terms are exactly the stated ones, in the
    stated order of factors, as many as the statement and the answer count (8), as many of
    each number of factors as the answer counts subsets of each size (3 and 3). Numeric, on
    the package's model (first three sublayers MHA o LN_1, MLP o LN_2, MHA o LN_1 of its
    Pre-LN blocks, n = 3, d = 4, seed 0): the central-difference Jacobian of G_3 o G_2 o G_1
    (`step` = no residual) equals J_3 J_2 J_1 of the central differences at the chain's own
    points, within the propagated error bounds; witness: it differs from
    (I + J_3)(I + J_2)(I + J_1) by far more."""
    expansion = residual.expand_product(pre_ln_product(3, 0))
    got = sorted(_factor_indices(term) for term in expansion.terms)
    require(got == sorted(stated), f"the expansion has the terms {got}, stated {sorted(stated)}")
    for said in ("asked", "found"):
        require(
            counts[said] == len(got), f"the expansion has {len(got)} terms, stated {counts[said]}"
        )
    by_size = dict(zip(counts["by_size"][::2], counts["by_size"][1::2], strict=True))
    for size, count in by_size.items():
        have = sum(len(term) == size for term in got)
        require(have == count, f"{have} terms have {size} factors, stated {count}")
    evidence = [f"symbolic: the 8 terms {', '.join(_term_name(t) for t in stated)}"]
    # the witness first: a chain with residuals fails it, and a chain that is neither
    # product (2 g) fails the equality with J_3 J_2 J_1, which would imply the witness
    _, missing, allowed = residual_jacobians(step=step, depth=3, identity=True)["stages"][0]
    require(
        missing > allowed, "without residuals the Jacobian still equals (I + J_3)(I + J_2)(I + J_1)"
    )
    _, gap, bound = residual_jacobians(step=step, depth=3, identity=False)["stages"][0]
    judge_within(gap, bound, "the chain's Jacobian differs from J_3 J_2 J_1")
    evidence.append(
        f"numeric: without residuals d x_3 / d x_0 = J_3 J_2 J_1 (gap {gap:.1e} <= "
        f"bound {bound:.1e}); it differs from (I + J_3)(I + J_2)(I + J_1) by "
        f"{missing:.2f}"
    )
    return evidence


@CHAPTER.element(
    "exr-doubling-ratio",
    "演習 11.4",
    "n を 2 倍にしたときの比",
    "exercise",
    ("symbolic", "numeric"),
    claims=(
        Claim(r"d_{\mathrm{ff}} = 4d"),
        Claim("n = d"),
        Claim("n = 6d"),
        Claim("n = 60d"),
        Claim(
            "T(2n)/T(n) = (24nd^2 + 8n^2d)/(12nd^2 + 2n^2d) = (12d + 4n)/(6d + n)",
            where="proof",
            lhs="T(2n)/T(n)",
            argument="stated",
            read=sized_expression,
        ),
        Claim(
            r"16d/7d \approx 2.29",
            where="proof",
            lhs="16d/7d",
            argument="printed.n_1",
            read=printed,
        ),
        Claim(
            "36d/12d = 3",
            where="proof",
            lhs="36d/12d",
            argument="printed.n_6",
            read=printed,
        ),
        Claim(
            r"252d/66d \approx 3.82",
            where="proof",
            lhs="252d/66d",
            argument="printed.n_60",
            read=printed,
        ),
        Claim(
            "列が短いあいだは 2 倍に近く",
            phrase=True,
            where="proof",
            argument="limits.short",
            read=prose_integer,
        ),
        Claim(
            "長くなるにつれて 4 倍に近づきます",
            phrase=True,
            where="proof",
            argument="limits.long",
            read=prose_integer,
        ),
        Claim(
            "命題 6.1 の $n = 6d$ がちょうどその中間です",
            phrase=True,
            where="proof",
            argument="limits.middle",
            read=prose_integer,
        ),
    ),
)
def exr_doubling_ratio(
    stated: sympy.Expr, printed: Mapping, limits: Mapping, block: Callable = pre_ln_block
) -> list[str]:
    """T(n) = 12nd^2 + 2n^2 d (the block polynomial of symbolic.counts at d_ff = 4d):
    T(2n)/T(n), cancelled by symbolic.counts.doubling_ratio, equals `stated`; at n = d,
    6d, 60d it is the exact rational 16/7, 3, 42/11, compared with the printed 2.29, 3,
    3.82; its limits as n -> 0 and n -> oo are the stated `limits` (2 and 4), and at
    n = 6d (limits["middle"] d, 命題 6.1's crossover) it is their midpoint. Numeric: the
    multiplications a real `block` performs at n and 2n (d = 8, h = 2, d_ff = 32,
    n = d, 6d), counted from the actual operand shapes, have exactly that ratio (exact
    fractions)."""
    t = sympy.expand(counts.block_multiplications(BLOCK, width=4 * sym.d))
    ratio = sympy.cancel(counts.doubling_ratio(t, sym.n))
    require(is_zero(sympy.cancel(ratio - stated)), f"T(2n)/T(n) = {ratio}, stated {stated}")
    evidence = [f"T(2n)/T(n) = {ratio}"]
    exact = []
    for key, shown in printed.items():  # n_1, n_6, n_60: the ratio at n = d, 6d, 60d
        multiple = int(key.removeprefix("n_"))
        value = sympy.nsimplify(ratio.subs(sym.n, multiple * sym.d))
        require(
            shown.agrees(float(value)),
            f"n = {multiple}d: {value} = {float(value):.4f}, printed {shown.value}",
        )
        exact.append(f"n = {multiple}d: {value} = {float(value):.4f}")
    short, long = sympy.limit(ratio, sym.n, 0), sympy.limit(ratio, sym.n, sympy.oo)
    require(
        (short, long) == (limits["short"], limits["long"]),
        f"the ratio tends to {short} as n -> 0 and {long} as n -> oo, stated "
        f"{limits['short']} and {limits['long']}",
    )
    at = limits["middle"]
    middle = sympy.cancel(ratio.subs(sym.n, at * sym.d))
    require(
        middle == (short + long) / 2,
        f"at n = {at}d the ratio is {middle}, not the midpoint of {short} and {long}",
    )
    evidence.append(
        "; ".join(exact) + f"; limits {short} (n -> 0) and {long} (n -> oo), "
        f"{middle} at n = {at}d their midpoint"
    )
    d, h, d_ff = 8, 2, 32
    rng = np.random.default_rng(0)
    p = block_parameters(d, h, d_ff, rng)
    for multiple in (1, 6):
        n = multiple * d
        small = sum(
            counted_multiplications(partial(block, rng.standard_normal((n, d)), p)).values()
        )
        large = sum(
            counted_multiplications(partial(block, rng.standard_normal((2 * n, d)), p)).values()
        )
        want = ratio.subs({sym.n: n, sym.d: d})
        require(
            Fraction(large, small) == Fraction(int(want.p), int(want.q)),
            f"counted T(2n)/T(n) = {Fraction(large, small)} at n = {n}, d = {d}; "
            f"the formula gives {want}",
        )
        evidence.append(
            f"counted at d = {d}, n = {n}: {large:,} / {small:,} = {Fraction(large, small)}"
        )
    return evidence
