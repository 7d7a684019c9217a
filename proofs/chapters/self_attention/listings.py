"""The lines the self-attention chapter's listings print, re-run with the package's functions."""

from __future__ import annotations

import numpy as np

from numeric.attention import multi_head_attention
from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.chapters.self_attention.tables import (
    attention_complexity_table,
    attention_parameter_count,
    scaling_table,
)
from proofs.evidence.measures import listing_attention_parameters
from proofs.typeset.tables import EPS, ListingLine, listing_lines


@CHAPTER.listing
def self_attention_listing_lines() -> list[ListingLine]:
    """The self-attention chapter's listings (8 節 and 演習 10.4), re-run."""
    mha = multi_head_attention
    source = "numeric.attention.multi_head_attention, default_rng(0) as in the listing"
    rng = np.random.default_rng(0)
    n, d, h = 6, 8, 2
    p = listing_attention_parameters(d, h, rng)
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
    lines += listing_lines(scaling_table) + listing_lines(attention_complexity_table)
    # 演習 10.4: two causal layers with parameters drawn one after the other.
    rng = np.random.default_rng(0)
    p1, p2 = listing_attention_parameters(d, h, rng), listing_attention_parameters(d, h, rng)
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
