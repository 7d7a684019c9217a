"""The rounding bounds of one block and of the decoder-only model, carried to the block's
output and to the logits along the actual pass.

Each stage of the forward pass (the embedding sum, every LayerNorm, attention, residual
sum and MLP, the output product) rounds within its own entrywise bound from
numeric.error_bounds, taken at the stage's computed input. To first order the error of
the logits is the sum over those roundings of the Jacobian of the rest of the model, at
the computed point, applied to the rounding error, so |error| <= sum_k |J_k| r_k
entrywise. Each rounding travels as its own tangent (one per entry, scaled by its
bound) through the exact Jacobians of the later stages, and absolute values are taken
only at the logits: |J_2 J_1| r <= |J_2||J_1| r, and what the product cancels (an error
the next LayerNorm removes, two paths of opposite sign) is not counted. Propagating
|J| |error| stage by stage instead left the bound 1e5 to 1e10 times the errors of a
two-layer model. One block (`block_tangents`, Pre-LN or Post-LN, causal or not) is the
body of the model's layer loop and, started from no tangents, the block's own bound
(`block_rounding_bound`).

ReLU is the one stage not differentiable everywhere: where a pre-activation t lies
within its error bound of 0 its slope may be 0 or 1 along the way, and the slope at the
computed t misses at most that bound, which is added as a rounding of the hidden entry.

The Jacobians are evaluated in float64 at the computed (working-dtype) arrays; they
differ from those at the exact arrays by order u, which reaches the bound at order u².
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from numeric.activations import TANH_CUBIC, TANH_SCALE, normal_cdf
from numeric.attention import multi_head_attention
from numeric.error_bounds import (
    gamma,
    layer_norm_error_bound,
    layer_norm_rounding,
    mha_error_bound,
    mlp_error_bound,
    subnormal,
    unit_roundoff,
)
from numeric.layer_norm import layer_norm
from numeric.mlp import mlp
from numeric.parameters import sub_parameters
from numeric.softmax import softmax_kernel
from numeric.validation import as_array
from spec.config import ModelConfig


def _gelu_tanh_slope(t: np.ndarray) -> np.ndarray:
    w = np.tanh(TANH_SCALE * (t + TANH_CUBIC * t**3))
    return (1 + w) / 2 + t * (1 - w * w) * TANH_SCALE * (1 + 3 * TANH_CUBIC * t * t) / 2


def _gelu_slope(t: np.ndarray) -> np.ndarray:
    return normal_cdf()(t) + t * np.exp(-t * t / 2) / math.sqrt(2 * math.pi)


SLOPES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "relu": lambda t: (t > 0).astype(np.float64),
    "gelu": _gelu_slope,
    "gelu_tanh": _gelu_tanh_slope,
}  # phi'(t) of each activation, in float64


def _with(tangents: np.ndarray, bound: np.ndarray) -> np.ndarray:
    """The tangents (S, n, d) and one more per entry of a stage's rounding bound (n, d),
    that entry's bound at its place."""
    fresh = (np.eye(bound.size) * bound.ravel()).reshape(bound.size, *bound.shape)
    return np.concatenate([tangents.reshape(-1, *bound.shape), fresh])


def _added(
    x: np.ndarray, carried: np.ndarray, f: np.ndarray, moved: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The residual sum x + f (n, d) and its tangents: the S tangents of x plus the first S
    of f's, whose later ones (roundings inside f) x does not have, and the sum's own
    rounding u|x + f|."""
    total = x + f
    padded = np.concatenate([carried, np.zeros((len(moved) - len(carried), *x.shape))])
    return total, _with(moved + padded, unit_roundoff(total.dtype) * np.abs(total))


def _layer_norm_tangent(x: np.ndarray, t: np.ndarray, gain: np.ndarray, eps: float) -> np.ndarray:
    """The LN Jacobian diag(gain) (I - 11^T/d - yy^T/d) / s of each row applied to the
    tangents t (S, n, d) at the computed input x (n, d)."""
    y, _, _, inv_s = layer_norm_rounding(x, eps)  # (n, d), (n, 1)
    centred = t - t.mean(axis=-1, keepdims=True) - y * (y * t).mean(axis=-1, keepdims=True)
    with np.errstate(over="ignore", invalid="ignore"):  # 1/s = inf: an unbounded error
        moved = np.where(centred == 0, 0.0, centred * inv_s)
    return moved * gain.astype(np.float64)


def _package_attention(z: np.ndarray, p: Mapping[str, np.ndarray], causal: bool) -> np.ndarray:
    _, weights = multi_head_attention(z, p, causal=causal)
    return mha_error_bound(z, p, np.asarray(weights))


def _package_mlp(z: np.ndarray, p: Mapping[str, np.ndarray], activation: str) -> np.ndarray:
    return mlp_error_bound(z, np.zeros(z.shape), p, unit_roundoff(z.dtype), activation)


@dataclass(frozen=True)
class StageBounds:
    """The rounding bound of each stage at its computed input, in the input's dtype:
    numeric's own algorithms by default; another evaluation of the stages (a reader's,
    proofs.bench) gives its own, and the composition carries them all the same."""

    layer_norm: Callable[[np.ndarray, np.ndarray, np.ndarray, float], np.ndarray] = (
        layer_norm_error_bound  # (x, gamma, beta, eps)
    )
    attention: Callable[[np.ndarray, Mapping[str, np.ndarray], bool], np.ndarray] = (
        _package_attention  # (z, the attention's parameters, causal)
    )
    mlp: Callable[[np.ndarray, Mapping[str, np.ndarray], str], np.ndarray] = (
        _package_mlp  # (z, the MLP's parameters, activation)
    )


PACKAGE = StageBounds()


def _normed(
    x: np.ndarray,
    t: np.ndarray,
    ln: Mapping[str, np.ndarray],
    eps: float,
    bounds: StageBounds = PACKAGE,
) -> tuple[np.ndarray, np.ndarray]:
    """LN(x) (n, d) and its tangents: those of x (S, n, d) moved by the LN Jacobian, and
    LN's own rounding (`bounds.layer_norm`)."""
    z = layer_norm(x, ln["gamma"], ln["beta"], eps)
    return z, _with(
        _layer_norm_tangent(x, t, ln["gamma"], eps),
        bounds.layer_norm(x, ln["gamma"], ln["beta"], eps),
    )


def _attention_tangent(
    z: np.ndarray, p: Mapping[str, np.ndarray], t: np.ndarray, causal: bool
) -> np.ndarray:
    """The Jacobian of multi-head attention at z (n, d) applied to t (S, n, d):
    dq = dz W_Q (likewise k, v), ds = (dq k^T + q dk^T) / sqrt(d_k), the softmax's
    dsigma = sigma (ds - sum sigma ds), dH = dsigma v + sigma dv, out = sum_h dH_h W_O,h."""
    z64 = z.astype(np.float64)
    w = {key: value.astype(np.float64) for key, value in p.items()}

    def heads(name: str) -> tuple[np.ndarray, np.ndarray]:
        value = np.einsum("nd,hdk->hnk", z64, w[f"w_{name}"])  # (h, n, k)
        if f"b_{name}" in w:
            value = value + w[f"b_{name}"][:, None, :]
        return value, np.einsum("snd,hdk->shnk", t, w[f"w_{name}"])  # (S, h, n, k)

    (q, tq), (k, tk), (v, tv) = heads("q"), heads("k"), heads("v")
    root = 1 / math.sqrt(q.shape[-1])
    n = z.shape[0]
    allowed = np.tri(n, dtype=bool) | (not causal)  # (n, n)
    scores = np.where(allowed, q @ k.transpose(0, 2, 1) * root, -np.inf)
    sigma = softmax_kernel(scores)  # (h, n, n)
    ts = (tq @ k.transpose(0, 2, 1) + q @ tk.transpose(0, 1, 3, 2)) * root  # (S, h, n, n)
    tsigma = sigma * (ts - (sigma * ts).sum(axis=-1, keepdims=True))
    return np.einsum("shnk,hkd->snd", tsigma @ v + sigma @ tv, w["w_o"])


def _mlp_tangent(
    z: np.ndarray, p: Mapping[str, np.ndarray], activation: str, t: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(The MLP's Jacobian at z (n, d) applied to t (S, n, d), the tangents of ReLU's
    kinks): phi'(z W_1 + b_1) at the pre-activation of z. For ReLU, dt bounds the error of
    the computed pre-activation (the tangents t and the first product's own rounding), and
    the float64 pre-activation p here is within dt of it; unless |p| > 2 dt the sign may
    differ from the exact one's, and whichever slope s in {0, 1} is taken,
    |relu(a) - relu(b) - s (a - b)| <= |a - b| <= dt: a tangent dt e_j W_2."""
    w_1, w_2 = p["w_1"].astype(np.float64), p["w_2"].astype(np.float64)  # (d, f), (f, d)
    pre = z.astype(np.float64) @ w_1 + (p["b_1"] if "b_1" in p else 0)  # (n, f)
    th = t @ w_1  # (S, n, f)
    out = (SLOPES[activation](pre) * th) @ w_2  # (S, n, d)
    if activation != "relu":
        return out, np.zeros((0, *z.shape))
    d = z.shape[1]
    mag = np.abs(z) @ np.abs(w_1) + (np.abs(p["b_1"]) if "b_1" in p else 0)
    dt = np.abs(th).sum(axis=0) + gamma(d + 1, unit_roundoff(z.dtype)) * mag
    dt = dt + (d + 1) * subnormal(z.dtype)  # (n, f)
    rows, cols = np.nonzero(np.abs(pre) <= 2 * dt)
    kinks = np.zeros((len(rows), *z.shape))
    kinks[np.arange(len(rows)), rows] = dt[rows, cols, None] * w_2[cols]
    return out, kinks


def block_tangents(
    x: np.ndarray,
    tangents: np.ndarray,
    p: Mapping[str, np.ndarray],
    activation: str,
    eps: float,
    causal: bool = True,
    post: bool = False,
    bounds: StageBounds = PACKAGE,
) -> tuple[np.ndarray, np.ndarray]:
    """(X' (n, d), its tangents (S', n, d)) of one block of 定義 2.2 at the computed X (n, d):
    Pre-LN Y = X + MHA(LN_1(X)), X' = Y + MLP(LN_2(Y)), or Post-LN Y = LN_1(X + MHA(X)),
    X' = LN_2(Y + MLP(Y)), evaluated by the package's parts; the tangents (S, n, d) of X
    are carried through each stage's Jacobian and every stage's own rounding is added
    (`bounds`: numeric's algorithms' unless another evaluation's are given).

    >>> from numeric.model import init_parameters
    >>> config = ModelConfig(vocab=2, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
    >>> p = sub_parameters(init_parameters(config, np.random.default_rng(0)), "blocks.0")
    >>> out, tangents = block_tangents(np.eye(3, 4), np.zeros((0, 3, 4)), p, "gelu", 1e-5)
    >>> tangents.shape[1:]
    (3, 4)
    """
    ln_1, ln_2 = sub_parameters(p, "ln_1"), sub_parameters(p, "ln_2")
    attn, ffn = sub_parameters(p, "attn"), sub_parameters(p, "mlp")

    def attend(z: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        a, _ = multi_head_attention(z, attn, causal=causal)
        return a, _with(_attention_tangent(z, attn, t, causal), bounds.attention(z, attn, causal))

    def feed(z: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        moved, kinks = _mlp_tangent(z, ffn, activation, t)
        return (
            np.asarray(mlp(z, ffn, activation=activation)),
            _with(np.concatenate([moved, kinks]), bounds.mlp(z, ffn, activation)),
        )

    if post:
        y, t_y = _normed(*_added(x, tangents, *attend(x, tangents)), ln_1, eps, bounds)
        return _normed(*_added(y, t_y, *feed(y, t_y)), ln_2, eps, bounds)
    y, t_y = _added(x, tangents, *attend(*_normed(x, tangents, ln_1, eps, bounds)))
    return _added(y, t_y, *feed(*_normed(y, t_y, ln_2, eps, bounds)))


def block_rounding_bound(
    x: np.ndarray,
    params: Mapping[str, np.ndarray],
    post: bool = False,
    causal: bool = True,
    activation: str = "gelu",
    eps: float = 1e-5,
    bounds: StageBounds = PACKAGE,
) -> tuple[np.ndarray, np.ndarray]:
    """(X' (n, d), entrywise first-order bound on |X' - exact X'|) of one Pre-LN (or
    Post-LN) block evaluated in x's dtype at x (n, d), taken as exact (each stage's
    rounding by `bounds`).

    >>> from numeric.block import post_ln_block
    >>> from numeric.model import init_parameters
    >>> config = ModelConfig(vocab=2, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
    >>> p = sub_parameters(init_parameters(config, np.random.default_rng(0)), "blocks.0")
    >>> low = {k: v.astype(np.float32) for k, v in p.items()}
    >>> x = np.eye(3, 4, dtype=np.float32)
    >>> out, bound = block_rounding_bound(x, low, post=True)
    >>> up = {k: v.astype(np.float64) for k, v in low.items()}
    >>> exact = post_ln_block(x.astype(np.float64), up)
    >>> bool(np.all(np.abs(out - exact) <= bound))
    True
    """
    x = as_array(x, "x", ndim=2)
    out, tangents = block_tangents(
        x, np.zeros((0, *x.shape)), params, activation, eps, causal, post, bounds
    )
    return out, np.abs(tangents).sum(axis=0)


def model_rounding_bound(
    tokens: np.ndarray,
    params: Mapping[str, np.ndarray],
    config: ModelConfig,
    bounds: StageBounds = PACKAGE,
) -> tuple[np.ndarray, np.ndarray]:
    """(logits (n, |V|), entrywise first-order bound on |logits - exact logits|) of the
    decoder-only model in the parameters' dtype: X0 = E_t + P, L causal Pre-LN blocks,
    LN_f and the product with E (or the LM head), composed from the package's parts (each
    stage's rounding by `bounds`).

    >>> from numeric.model import forward, init_parameters
    >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=3)
    >>> params = init_parameters(config, np.random.default_rng(0))
    >>> low = {k: v.astype(np.float32) for k, v in params.items()}
    >>> logits, bound = model_rounding_bound(np.array([0, 4]), low, config)
    >>> exact = forward([0, 4], {k: v.astype(np.float64) for k, v in low.items()}, config)
    >>> bool(np.all(np.abs(logits - exact) <= bound))
    True
    """
    u = unit_roundoff(params["wte"].dtype)
    eps, activation = config.layer_norm_eps, config.activation
    x = params["wte"][tokens]  # (n, d)
    tangents = np.zeros((0, *x.shape))  # (S, n, d): every rounding so far, carried to x
    if "wpe" in params:
        x = x + params["wpe"][: len(tokens)]
        tangents = _with(tangents, u * np.abs(x))
    for layer in range(config.n_layer):
        x, tangents = block_tangents(
            x,
            tangents,
            sub_parameters(params, f"blocks.{layer}"),
            activation,
            eps,
            bounds=bounds,
        )
    ln_f = sub_parameters(params, "ln_f")
    z, tangents = _normed(x, tangents, ln_f, eps, bounds)  # (n, d)
    head = params.get("lm_head", params["wte"])  # (|V|, d)
    logits = z @ head.T  # (n, |V|)
    carried = np.abs(tangents @ head.T.astype(np.float64)).sum(axis=0)  # (n, |V|)
    own = gamma(config.d, u) * (np.abs(z) @ np.abs(head.T)) + config.d * subnormal(z.dtype)
    return logits, carried + own
