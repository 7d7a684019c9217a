"""Measuring functions: how far a computed map is from a property, with its rounding bound.

They measure and never judge: each returns the defect (and, where the map is a
float evaluation, the propagated rounding bound it is to be compared with), and the
chapter modules' checks decide. A stack of layers is a list of (kind, parameters)
with kind in LAYER_KINDS: "attn" (multi-head attention), "mlp" (ReLU MLP) or their
residual forms x + f(x).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from numeric.attention import multi_head_attention
from numeric.error_bounds import (
    mha_error_bound,
    mlp_error_bound,
    unit_roundoff,
)
from numeric.mlp import mlp
from numeric.running_error import model_rounding_bound
from spec.config import ModelConfig

LAYER_KINDS = ("attn", "mlp", "res_attn", "res_mlp")


def permutation_matrix(pi: Sequence[int]) -> np.ndarray:
    """P_pi of 定義 2.1［自己注意］: (P_pi)_ij = 1 when j = pi(i), else 0 (0-based pi)."""
    pi = list(pi)
    if sorted(pi) != list(range(len(pi))):
        raise ValueError(f"pi must be a permutation of 0..{len(pi) - 1}, got {pi}")
    p = np.zeros((len(pi), len(pi)))
    p[np.arange(len(pi)), pi] = 1.0
    return p


def spread(x: np.ndarray) -> float:
    """sigma(x), the biased standard deviation of a vector, computed at the scale 2^-e of its
    largest entry (exact), so that entries near 1e-160 do not square into subnormals.

    >>> spread(np.array([-2.0 ** -530, 0.0, 0.0, 0.0])) == 2.0 ** -530 * 3 ** 0.5 / 4
    True
    """
    top = float(np.abs(x).max())
    if top == 0:
        return 0.0
    _, e = np.frexp(top)
    return float(np.ldexp(np.ldexp(x, -e).std(), e))


def equivariance_defect(
    f: Callable[[np.ndarray], np.ndarray], x: np.ndarray, pi: Sequence[int]
) -> np.ndarray:
    """|f(P X) - P f(X)| entrywise, P = P_pi."""
    order = np.asarray(pi)
    return np.abs(f(x[order]) - f(x)[order])


def run_stack(
    layers: Sequence[tuple[str, dict]],
    x: np.ndarray,
    causal: bool,
    positions: np.ndarray | None = None,
    mha: Callable = multi_head_attention,
) -> tuple[np.ndarray, np.ndarray]:
    """(output, rounding bound) of a stack: optional position vectors added first, then
    each layer: "attn" (multi-head attention), "mlp" (ReLU MLP, numeric.mlp), or their
    residual forms x + f(x). The bound is propagated layer by layer (first order,
    numeric.error_bounds)."""

    u = unit_roundoff(x.dtype)
    y, b = x, np.zeros(x.shape)
    if positions is not None:
        y = y + positions[: x.shape[0]]
        b = u * np.abs(y)
    for kind, p in layers:
        if kind.endswith("attn"):
            out, weights = mha(y, p, causal=causal)
            out = np.asarray(out)
            ob = mha_error_bound(y, p, np.asarray(weights), dx=b)
        else:
            out = np.asarray(mlp(y, p, activation="relu"))
            ob = mlp_error_bound(y, b, p, u)
        if kind.startswith("res"):
            out = y + out
            ob = b + ob + u * np.abs(out)
        y, b = out, ob
    return y, b


def stack_equivariance(
    layers: Sequence[tuple[str, dict]],
    x: np.ndarray,
    pi: Sequence[int],
    mha: Callable = multi_head_attention,
    causal: bool = False,
) -> tuple[float, np.ndarray, np.ndarray]:
    """(max |f(PX) - P f(X)|, |f(PX) - P f(X)| entrywise, the sum of the two rounding
    bounds it is to be compared with) for the stack f."""
    pi = list(pi)
    y, b = run_stack(layers, x, causal, mha=mha)
    yp, bp = run_stack(layers, x[pi], causal, mha=mha)
    diff = np.abs(yp - y[pi])
    return float(diff.max()), diff, bp + b[pi]


def causal_defect(
    layers: Sequence[tuple[str, dict]],
    x: np.ndarray,
    positions: np.ndarray | None = None,
    mha: Callable = multi_head_attention,
) -> tuple[np.ndarray, np.ndarray]:
    """(prefix defect per row, tolerance per row): max over t >= i of
    |f_n(X)_i - f_t(X_{1:t})_i| against the sum of the two rounding bounds."""
    full, b_full = run_stack(layers, x, True, positions, mha)
    defect, tol = np.zeros(full.shape), np.full(full.shape, np.inf)
    for t in range(1, x.shape[0] + 1):
        part, b_part = run_stack(layers, x[:t], True, positions, mha)
        gap = np.abs(part - full[:t])
        worse = gap > defect[:t]
        defect[:t] = np.where(worse, gap, defect[:t])
        tol[:t] = np.minimum(tol[:t], b_part + b_full[:t])
    return defect, tol


def model_prefix_defect(
    tokens: np.ndarray, params: Mapping[str, np.ndarray], config: ModelConfig, forward: Callable
) -> tuple[np.ndarray, ...]:
    """(defect, tolerance, composition gap, its tolerance) per logit row: row t - 1 of
    forward(tokens) against the last row of forward(tokens[:t]), and forward against the
    model composed from the chapter's parts (model_rounding_bound)."""
    full = np.asarray(forward(tokens, params, config))
    composed, bound = model_rounding_bound(tokens, params, config)
    defect, tol = np.zeros(full.shape), np.zeros(full.shape)
    for t in range(1, len(tokens) + 1):
        part = np.asarray(forward(tokens[:t], params, config))
        _, b_part = model_rounding_bound(tokens[:t], params, config)
        defect[t - 1] = np.abs(part[-1] - full[t - 1])
        tol[t - 1] = b_part[-1] + bound[t - 1]
    return defect, tol, np.abs(full - composed), 2 * bound


def decoded_in_chunks(
    decoder: Callable,
    params: Mapping[str, np.ndarray],
    config: ModelConfig,
    tokens: np.ndarray,
    sizes: Sequence[int],
) -> np.ndarray:
    """The logits of `tokens` from a fresh key/value-cache decoder(params, config) fed
    consecutive chunks of the given sizes (empty chunks skipped), stacked (n, |V|)."""
    if sum(sizes) != len(tokens) or min(sizes, default=0) < 0:
        raise ValueError(
            f"sizes must be non-negative and add up to the {len(tokens)} tokens, got {list(sizes)}"
        )
    cache = decoder(params, config)
    start, rows = 0, []
    for size in sizes:
        if size:
            rows.append(np.asarray(cache.feed(tokens[start : start + size])))
        start += size
    return np.concatenate(rows)


def activation_pattern_map(
    normals: Sequence[Sequence[float]],
    b_1: Sequence[float],
    low: float = -3.0,
    high: float = 3.0,
    steps: int = 601,
) -> tuple[np.ndarray, np.ndarray]:
    """(the grid's axis, the ReLU activation pattern at each point of the steps x steps grid
    of [low, high]^2 as a binary number, unit 1 the highest bit; row i at y = axis[i]).
    `normals` has one row w_k per hidden unit, s_k = 1 where <w_k, x> + b_k > 0."""
    w = np.asarray(normals, dtype=float)  # (m, 2)
    b = np.asarray(b_1, dtype=float)  # (m,)
    axis = np.linspace(low, high, steps)
    points = np.stack(np.meshgrid(axis, axis), axis=-1)  # (steps, steps, 2): [y, x] = (x, y)
    active = points @ w.T + b > 0  # (steps, steps, m)
    return axis, active @ (1 << np.arange(len(b))[::-1])


def grid_activation_patterns(
    normals: Sequence[Sequence[float]],
    b_1: Sequence[float],
    low: float = -3.0,
    high: float = 3.0,
    steps: int = 601,
) -> list[str]:
    """The ReLU activation patterns (s_k = 1 where <w_k, x> + b_k > 0) met on a steps x steps
    grid of [low, high]^2, as sorted 0/1 strings: what the block chapter's listing samples.
    `normals` has one row w_k per hidden unit. A grid only finds patterns;
    symbolic.arrangements decides them exactly."""
    _, codes = activation_pattern_map(normals, b_1, low, high, steps)
    return [format(int(code), f"0{len(b_1)}b") for code in np.unique(codes)]


def listing_attention_parameters(d: int, h: int, rng: np.random.Generator) -> dict:
    """An attention listing's init_params draws, in its order, in spec's layout:
    W_Q, W_K, W_V (h, d, d/h) / sqrt(d); b_Q, b_K, b_V 0.1 N; W_O (d, d) / sqrt(d)
    split by head into (h, d/h, d); b_O 0.1 N."""
    dk = d // h
    p = {name: rng.standard_normal((h, d, dk)) / np.sqrt(d) for name in ("w_q", "w_k", "w_v")}
    p.update({name: 0.1 * rng.standard_normal((h, dk)) for name in ("b_q", "b_k", "b_v")})
    p["w_o"] = (rng.standard_normal((d, d)) / np.sqrt(d)).reshape(h, dk, d)
    p["b_o"] = 0.1 * rng.standard_normal(d)
    return p
