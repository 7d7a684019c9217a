"""How far the model's and the block's rounding bounds sit above the errors they bound.

On 100 models drawn by the block chapter's strategy (`model_cases`: |V| = 2..12,
d in {2, 4, 6}, L = 1..2, d_ff = 1..8, with and without biases, tying and positions;
Hypothesis derandomised, so every run draws the same models), the parameters are
rounded to float32 and the float32 forward pass is compared with the float64 pass of
the same float32 parameters, whose own error (about 1e-16 relative) is negligible
beside float32's: the bounds are of the arithmetic, not of rounding the parameters.
It prints the median and maximum over the models of

- max model_rounding_bound / max |error| (the bound the prefix, KV-cache and
  composition checks use, entry by entry),
- the median over a model's logits of bound / |error| (one entry's error can be far
  below its bound by cancellation, so this is the typical entry, not the worst),
- for the first block's parts on their own inputs, each part's own rounding bound over
  its error (largest over largest): LayerNorm, multi-head attention, MLP;
- and, on 100 blocks drawn as the block checks of 定義 2.2 and 命題 7.2 draw them
  (`block_cases`), max block_rounding_bound / max |error| of the Pre-LN and the Post-LN
  block, their input rounded to float32 too (the bound those checks use).

Run from the repository root:

    python -m benchmarks.rounding_bounds [--models 100]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from hypothesis import HealthCheck, given, settings

from numeric import error_bounds as eb
from numeric.attention import multi_head_attention
from numeric.block import post_ln_block, pre_ln_block
from numeric.layer_norm import layer_norm
from numeric.mlp import mlp
from numeric.model import embed, forward, sub_parameters
from numeric.running_error import block_rounding_bound, model_rounding_bound
from proofs.chapters.transformer_block.strategies import block_cases, model_cases


def in_float32(params: dict) -> dict:
    return {key: value.astype(np.float32) for key, value in params.items()}


def as_float64(params: dict) -> dict:
    return {key: value.astype(np.float64) for key, value in params.items()}


def part_ratios(x: np.ndarray, block: dict, activation: str, eps: float) -> dict[str, float]:
    """Each part of the first block at its own float64 input x (rounded to float32): its
    own rounding bound's largest entry over its largest error."""
    low, x32 = in_float32(block), x.astype(np.float32)
    up = as_float64(low)  # the same parameters, evaluated in float64
    u = eb.unit_roundoff(np.float32)
    zero = np.zeros(x.shape)
    ln, ln64 = sub_parameters(low, "ln_1"), sub_parameters(up, "ln_1")
    z32 = layer_norm(x32, ln["gamma"], ln["beta"], eps)
    ln_bound = eb.layer_norm_error_bound(x32, ln["gamma"], ln["beta"], eps)
    z = z32.astype(np.float64)  # (n, d), the parts below start from the same input
    attn, attn64 = sub_parameters(low, "attn"), sub_parameters(up, "attn")
    a32, weights = multi_head_attention(z32, attn, causal=True)
    ff, ff64 = sub_parameters(low, "mlp"), sub_parameters(up, "mlp")
    pairs: dict[str, tuple[np.ndarray, np.ndarray]] = {
        "LayerNorm": (
            z32 - layer_norm(x32.astype(np.float64), ln64["gamma"], ln64["beta"], eps),
            ln_bound,
        ),
        "attention": (
            a32 - multi_head_attention(z, attn64, causal=True)[0],
            eb.mha_error_bound(z32, attn, np.asarray(weights), dx=zero),
        ),
        "MLP": (
            mlp(z32, ff, activation) - mlp(z, ff64, activation),
            eb.mlp_error_bound(z32, zero, ff, u, activation),
        ),
    }
    return {name: ratio(error, bound) for name, (error, bound) in pairs.items()}


def ratio(error: np.ndarray, bound: np.ndarray) -> float:
    """max bound / max |error| (inf when the computation was exact)."""
    largest = float(np.abs(error).max())
    return float(bound.max()) / largest if largest > 0 else float("inf")


def block_ratios(p: dict, x: np.ndarray, activation: str, causal: bool) -> dict[str, float]:
    """The float32 Pre-LN and Post-LN blocks against the float64 blocks of the same float32
    parameters and input: block_rounding_bound's largest entry over the largest error."""
    low, x32 = in_float32(p), x.astype(np.float32)
    out = {}
    for post, block in ((False, pre_ln_block), (True, post_ln_block)):
        error = block(x32, low, causal, activation) - block(
            x32.astype(np.float64), as_float64(low), causal, activation
        )
        bound = block_rounding_bound(x32, low, post, causal, activation)[1]  # (n, d)
        out[f"block_rounding_bound ({'Post' if post else 'Pre'}-LN)"] = ratio(error, bound)
    return out


def measure(models: int) -> dict[str, list[float]]:
    """The ratios of every drawn model and block, by name."""
    out: dict[str, list[float]] = {}

    def record(name: str, value: float) -> None:
        if np.isfinite(value):
            out.setdefault(name, []).append(value)

    @settings(
        max_examples=models,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(model_cases())
    def draw(case: tuple) -> None:
        config, _, params, tokens = case
        low = in_float32(params)
        logits, bound = model_rounding_bound(tokens, low, config)  # (n, |V|)
        error = logits - forward(tokens, as_float64(low), config)
        record("model_rounding_bound (max / max)", ratio(error, bound))
        with np.errstate(divide="ignore"):
            record("model_rounding_bound (median entry)", float(np.median(bound / np.abs(error))))
        x = embed(tokens, params, config)  # (n, d)
        parts = part_ratios(
            x, sub_parameters(params, "blocks.0"), config.activation, config.layer_norm_eps
        )
        for name, value in parts.items():
            record(f"part: {name}", value)

    draw()

    @settings(
        max_examples=models,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(block_cases())
    def draw_block(case: tuple) -> None:
        for name, value in block_ratios(*case).items():
            record(name, value)

    draw_block()
    return out


def main(argv: list[str] | None = None, write: Callable[[str], object] = print) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=100)
    args = parser.parse_args(argv)
    write(
        f"bound / observed float32 rounding error, {args.models} drawn models and "
        f"{args.models} drawn blocks"
    )
    write(f"{'bound':<42} {'models':>6} {'median':>9} {'max':>9}")
    for name, values in measure(args.models).items():
        write(f"{name:<42} {len(values):>6} {np.median(values):>9.2e} {max(values):>9.2e}")


if __name__ == "__main__":
    main()
