"""The lines the Transformer-block chapter's listings print, re-run with the package's functions."""

from __future__ import annotations

import numpy as np

import spec
from numeric.layer_norm import layer_norm, layer_norm_jacobian
from numeric.model import forward
from proofs.chapters.transformer_block.chapter import CHAPTER
from proofs.chapters.transformer_block.tables import (
    block_cost_comparison,
    gpt2_parameter_table,
    small_model_count,
)
from proofs.evidence.measures import grid_activation_patterns, listing_attention_parameters
from proofs.typeset.tables import EPS, ListingLine, listing_lines


def _chapter_model_parameters(config: spec.ModelConfig, rng: np.random.Generator) -> dict:
    """The block listing's init_model draws, in its order, under spec's names."""
    d, dff = config.d, config.d_ff
    p = {
        "wte": 0.5 * rng.standard_normal((config.vocab, d)),
        "wpe": 0.5 * rng.standard_normal((config.n_ctx, d)),
    }
    for layer in range(config.n_layer):
        prefix = f"blocks.{layer}."
        attn = listing_attention_parameters(d, config.n_head, rng)
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


@CHAPTER.listing
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
    lines += listing_lines(gpt2_parameter_table)

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
    lines += listing_lines(block_cost_comparison)
    return lines
