"""Checks of the Transformer-block chapter (002_1f7cf506cffefce0.txt), registered on import.

Every element of the chapter is one check, in the chapter's order: LayerNorm
(定義 2.1, 命題 3.1, 例 3.2, 命題 3.3), the blocks and the residual identity path
(定義 2.2, 命題 4.1), the model and its parameter count (定義 2.3, 定理 5.1, 例 5.2,
例 5.3), the cost of a block (命題 6.1), row-wise maps, equivariance and causality
(命題 7.1, 7.2), piecewise linearity (命題 8.1) and the exercises (演習 11.1-11.4).

A check takes what it judges (a function of numeric/, a derivation of symbolic/,
the chapter's printed claim) as keyword arguments with the package's own as
defaults, returns one evidence line per fact established, and raises
`CheckFailed` when the statement does not hold for what it was given.

Float tolerances come from the rounding-error bounds of numeric.error_bounds (u =
2^-53 is float64's unit roundoff and gamma_k = k u / (1 - k u) bounds the relative
error of a k-term sum or dot product; Higham, Accuracy and Stability of Numerical
Algorithms, Lemma 3.1), exact values from the mpmath references of proofs.reference,
and the activation regions of 命題 8.1 from the exact counting of
symbolic.arrangements.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal
from fractions import Fraction

import mpmath
import numpy as np
import sympy
from hypothesis import given
from hypothesis import strategies as st

import spec
from numeric.activations import ACTIVATIONS, gelu, relu
from numeric.attention import multi_head_attention
from numeric.block import post_ln_block, pre_ln_block
from numeric.contraction import count_multiplications
from numeric.error_bounds import (
    GELU_SLOPE,
    U,
    activation_rounding,
    attention_stage_bounds,
    block_error_bound,
    frobenius,
    gamma,
    layer_norm_error_bound,
    layer_norm_jacobian_error_bound,
    layer_norm_stage_bounds,
    mlp_stage_bounds,
    model_error_bound,
)
from numeric.finite_differences import jacobian_with_error
from numeric.kv_cache import Decoder
from numeric.layer_norm import layer_norm, layer_norm_jacobian
from numeric.mlp import mlp
from numeric.model import embed, forward, init_parameters, parameter_count, sub_parameters
from proofs import tables
from proofs.measures import decoded_in_chunks, grid_activation_patterns
from proofs.profiles import scaled
from proofs.reference import mp_central_jacobian, mp_error, mp_gelu, mp_layer_norm
from proofs.registry import REGISTRY, CheckFailed, element, finding, require
from spec.contractions import BLOCK
from symbolic import counts, residual
from symbolic import gelu as symbolic_gelu
from symbolic import layer_norm as symbolic_layer_norm
from symbolic import symbols as sym
from symbolic.arrangements import activation_regions, general_position, region_bound
from symbolic.identities import equal, is_zero

CHAPTER = "transformer-block"

# What the chapter prints ------------------------------------------------------
# These are the chapter's claims, the objects the checks judge (a test hands a
# check a wrong claim and sees it rejected). No result of the package is taken
# from here: every value a check reports is computed.


@dataclass(frozen=True)
class Printed:
    """A number as printed: its value and the decimals it is printed with."""

    value: float
    decimals: int

    def agrees(self, computed: float) -> bool:
        """Whether `computed` rounds (half to even, in decimal) to the printed value."""
        places = Decimal(1).scaleb(-self.decimals)
        return (Decimal(float(computed)).quantize(places, ROUND_HALF_EVEN)
                == Decimal(str(self.value)).quantize(places))

    def truncates(self, computed: float) -> bool:
        """Whether the printed value is `computed` truncated (not rounded) to its decimals."""
        places = Decimal(1).scaleb(-self.decimals)
        return (Decimal(float(computed)).quantize(places, ROUND_DOWN)
                == Decimal(str(self.value)).quantize(places))


EXAMPLE_3_2 = {  # 例 3.2
    "x": (1, 2, 3, 6),
    "a": 3,
    "b": 5,
    "mean": Printed(3, 0),
    "variance": Printed(3.5, 1),
    "sigma": Printed(1.8708, 4),
    "output": tuple(Printed(v, 4) for v in (-1.0690, -0.5345, 0.0, 1.6036)),
    "scaled_mean": Printed(14, 0),
    "scaled_variance": Printed(31.5, 1),
    "scaled_sigma": Printed(5.6125, 4),
    "norm": Printed(2, 0),
    "squares": tuple(Printed(v, 4) for v in (1.1428, 0.2857, 0.0, 2.5714)),
}

SMALL_MODEL = {  # 例 5.2
    "sizes": {"vocab": 10, "d": 4, "d_ff": 16, "n_layer": 2, "n_ctx": 8},
    "parts": {"embeddings": 40, "positions": 32, "attention": 80, "mlp": 148,
              "layer_norms": 16, "per_layer": 244, "final_layer_norm": 8},
    "total": 568,
}

GPT2_SMALL = {  # 例 5.3 and 注意 5.4
    "sizes": {"vocab": 50257, "d": 768, "n_layer": 12, "n_ctx": 1024},
    "rows": (38_597_376, 786_432, 7_087_872, 85_054_464, 1_536),
    "total": 124_439_808,
    "embedding_share": Printed(0.31, 2),
    "paper_total": 117_000_000,
    "paper_precision": 500_000,  # "117M" is rounded to the million
}

EXERCISE_11_1 = {
    "sizes": {"vocab": 1000, "d": 64, "n_layer": 4, "n_ctx": 128},
    "parts": {"embeddings": 64_000, "positions": 8_192, "per_layer": 49_984,
              "layers": 199_936, "final_layer_norm": 128},
    "total": 272_256,
    "embedding_share": Printed(0.235, 3),
}

BLOCK_COST = {  # the figures after 命題 6.1's proof, and the listing's last line
    "d": 768,
    "n": 1024,
    "linear": 7_247_757_312,
    "quadratic": 1_610_612_736,
    "ratio": Printed(0.222, 3),
    "crossover": 4608,
}

DOUBLING = {"multiples": (1, 6, 60), "ratios": (Printed(2.29, 2), Printed(3, 0), Printed(3.82, 2))}

RELU_EXAMPLE = {  # 命題 8.1 after the proof, and the listing
    "w_1": ((1, 0), (0, 1), (1, 1)),  # rows: the normals of a_k(x) = <w_k, x> + b_k
    "b_1": (0, 0, -1),
    "patterns": 7,
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


# 注意 8.2: encoder, decoder (encoder-decoder model), decoder-only; as the chapter tabulates.
ARCHITECTURES = (
    Architecture("エンコーダの層", "none", False, True, 2),
    Architecture("デコーダの層（エンコーダ・デコーダ型）", "causal", True, True, 3),
    Architecture("デコーダのみのモデルの層", "causal", False, True, 2),
)

# Shared helpers -------------------------------------------------------------------


def block_parameters(d: int, h: int, d_ff: int, rng: np.random.Generator) -> dict:
    """Generic parameters of one block: the first block of a one-layer model, allocated from
    spec by init_parameters (gamma = 1 + N(0, 0.01), beta and biases N(0, 0.01))."""
    config = spec.ModelConfig(vocab=2, d=d, n_layer=1, n_head=h, d_ff=d_ff, n_ctx=2)
    return sub_parameters(init_parameters(config, rng), "blocks.0")


def vectors(d_min: int = 2, d_max: int = 16, bound: float = 100.0):
    """Hypothesis: float64 vectors of width d_min..d_max, entries in [-bound, bound],
    not constant (sigma >= 1e-3 max|x|, so that the condition number max|x| / sigma of
    LN is at most 1e3; rows closer to constant are tested apart)."""
    element_ = st.floats(-bound, bound, allow_nan=False, allow_infinity=False)

    def spread(x: np.ndarray) -> bool:
        return bool(x.std() >= 1e-3 * max(np.abs(x).max(), 1e-300))

    return (st.integers(d_min, d_max)
            .flatmap(lambda d: st.lists(element_, min_size=d, max_size=d))
            .map(np.array).filter(spread))


def _seeds():
    """Hypothesis: seeds of the NumPy generators that draw parameters and inputs."""
    return st.integers(0, 2**32 - 1)


# 定義 2.1 ----------------------------------------------------------------------------


@element("def-layer-norm", "定義 2.1", "層正規化", CHAPTER, "definition",
         ("numeric", "high precision"))
def def_layer_norm(normalise: Callable = layer_norm) -> list[str]:
    """LN(x) = gamma * (x - mu 1) / sqrt(sigma^2 + eps) + beta with the biased variance
    (division by d), row by row. Numeric: `normalise` against the definition evaluated by
    mpmath at 50 digits on Hypothesis-drawn rows (d = 2..16, entries in [-100, 100],
    sigma >= 1e-3 max|x|), gamma = 1 + N(0, 1), beta = N(0, 1), eps in {0, 1e-5, 1};
    tolerance: the rounding bound `layer_norm_error_bound` (gamma_{d+2} times the
    condition max|x| / sigma). A matrix is normalised row by row (each row within the
    same bound). Outside the domain: a constant row with eps = 0 (undefined) must be a
    ValueError, and with eps > 0 it gives beta."""
    worst = [0.0, 0.0]

    @scaled(1.0)
    @given(vectors(), _seeds(), st.sampled_from([0.0, 1e-5, 1.0]))
    def matches_definition(x, seed, eps):
        rng = np.random.default_rng(seed)
        d = x.size
        gain, shift = 1 + rng.standard_normal(d), rng.standard_normal(d)
        with mpmath.workdps(50):
            exact = mp_layer_norm(x, gain, shift, eps)
            err = mp_error(normalise(x, gain, shift, eps=eps), exact)
        bound = layer_norm_error_bound(x, gain, shift, eps)
        require(bool(np.all(err <= bound)),
                f"LN(x) differs from the definition by {err.max():.3e} > bound "
                f"{bound[np.argmax(err - bound)]:.3e} at x = {x.tolist()}, eps = {eps}")
        worst[0] = max(worst[0], float((err / bound).max()))
        rows = np.stack([x, x[::-1], -2 * x])  # (3, d)
        whole = normalise(rows, gain, shift, eps=eps)
        for i in range(3):
            gap = np.abs(whole[i] - normalise(rows[i], gain, shift, eps=eps))
            require(bool(np.all(gap <= 2 * layer_norm_error_bound(rows[i], gain, shift, eps))),
                    f"row {i} of LN(X) is not LN of row {i} (gap {gap.max():.3e})")
            worst[1] = max(worst[1], float(gap.max()))

    matches_definition()
    evidence = [
        f"LN equals the definition at 50 digits to within its rounding bound "
        f"(worst error / bound = {worst[0]:.2e}) on drawn rows, d = 2..16, eps in {{0, 1e-5, 1}}",
        f"a matrix is normalised row by row (max gap {worst[1]:.1e})",
    ]
    constant = np.full(5, 2.5)
    try:
        out = normalise(constant, eps=0.0)
    except ValueError as err:
        evidence.append(f"a constant row with eps = 0 is a ValueError: {err}")
    else:
        raise CheckFailed(f"a constant row with eps = 0 gave {out} instead of a ValueError")
    shift = np.arange(5.0)
    out = normalise(constant, np.ones(5), shift, eps=1e-5)
    require(bool(np.array_equal(out, shift)), f"LN of a constant row with eps > 0 is {out}, "
            "not beta")
    evidence.append("a constant row with eps = 1e-5 gives beta exactly")
    return evidence


# 定義 2.2 ----------------------------------------------------------------------------


def _pre_ln_composed(x, p, causal, activation, eps):
    """定義 2.2's Pre-LN formula composed from the parts: Y = X + MHA(LN_1(X)),
    X' = Y + MLP(LN_2(Y))."""
    ln_1, ln_2 = sub_parameters(p, "ln_1"), sub_parameters(p, "ln_2")
    y = x + multi_head_attention(layer_norm(x, ln_1["gamma"], ln_1["beta"], eps),
                                 sub_parameters(p, "attn"), causal=causal)[0]
    z = layer_norm(y, ln_2["gamma"], ln_2["beta"], eps)
    return y + mlp(z, sub_parameters(p, "mlp"), activation)


def _post_ln_composed(x, p, causal, activation, eps):
    """定義 2.2's Post-LN formula: Y = LN_1(X + MHA(X)), X' = LN_2(Y + MLP(Y))."""
    ln_1, ln_2 = sub_parameters(p, "ln_1"), sub_parameters(p, "ln_2")
    a = multi_head_attention(x, sub_parameters(p, "attn"), causal=causal)[0]
    y = layer_norm(x + a, ln_1["gamma"], ln_1["beta"], eps)
    m = mlp(y, sub_parameters(p, "mlp"), activation)
    return layer_norm(y + m, ln_2["gamma"], ln_2["beta"], eps)


def _silenced(p: Mapping) -> dict:
    """The block's parameters with W_O, b_O, W_2, b_2 set to 0: MHA = 0 and MLP = 0."""
    return {k: (np.zeros_like(v) if k in ("attn.w_o", "attn.b_o", "mlp.w_2", "mlp.b_2") else v)
            for k, v in p.items()}


@element("def-transformer-block", "定義 2.2", "残差接続・位置ごとの MLP・ブロック", CHAPTER,
         "definition", ("numeric", "high precision"))
def def_transformer_block(pre_ln: Callable = pre_ln_block, post_ln: Callable = post_ln_block,
                          network: Callable = mlp) -> list[str]:
    """The parts and the two blocks as defined. MLP: row i of MLP(X) is
    g(x_i) = W_2^T phi(W_1^T x_i + b_1) + b_2, with phi = ReLU (max(0, t)) or GELU
    (t Phi(t), against mpmath's erfc at 30 digits); the ReLU MLP exactly, the GELU one
    within gamma-bounds of the two products. Blocks (causal and not, ReLU and GELU,
    drawn n = 1..5, d in {2, 4, 6}, h | d, d_ff = 1..8): `pre_ln` and `post_ln` equal the
    compositions X + MHA(LN_1(X)), Y + MLP(LN_2(Y)) and LN_1(X + MHA(X)),
    LN_2(Y + MLP(Y)) of the package's parts within twice the first-order rounding bound
    `block_error_bound` (a Lipschitz bound of each stage times the rounding before it).
    Exact witnesses of the residual connection: with MHA = MLP = 0 (W_O, b_O, W_2, b_2
    set to 0) the Pre-LN block is the identity bit for bit, the Post-LN block is
    LN_2(LN_1(X))."""
    evidence = []
    worst = [0.0, 0.0]

    @scaled(1.0)
    @given(st.integers(1, 5), st.sampled_from([(2, 1), (2, 2), (4, 2), (6, 3)]),
           st.integers(1, 8), _seeds(), st.booleans(), st.sampled_from(["relu", "gelu"]))
    def blocks_compose(n, dh, d_ff, seed, causal, activation):
        d, h = dh
        rng = np.random.default_rng(seed)
        p = block_parameters(d, h, d_ff, rng)
        x = rng.standard_normal((n, d))
        eps = 1e-5
        ff = sub_parameters(p, "mlp")
        rows = np.stack([
            ff["w_2"].T @ ACTIVATIONS[activation](ff["w_1"].T @ x[i] + ff["b_1"]) + ff["b_2"]
            for i in range(n)])  # (n, d), g(x_i) row by row
        got = network(x, ff, activation)
        # the two evaluations differ by at most the rounding of the two products, each
        # gamma_k times |W_2|^T |phi| + |b_2| and |W_2|^T phi' |W_1|^T |x| (first order)
        width = max(d, d_ff) + 2
        pre = np.abs(x) @ np.abs(ff["w_1"]) + np.abs(ff["b_1"])
        bound = 2 * gamma(width) * (GELU_SLOPE * pre @ np.abs(ff["w_2"]) * 2 + np.abs(ff["b_2"]))
        require(bool(np.all(np.abs(got - rows) <= bound)),
                f"MLP row i is not g(x_i): gap {np.abs(got - rows).max():.3e} ({activation})")
        worst[0] = max(worst[0], float(np.abs(got - rows).max()))
        for post, block, composed in ((False, pre_ln, _pre_ln_composed),
                                      (True, post_ln, _post_ln_composed)):
            rounding, _ = block_error_bound(x, p, post=post, eps=eps)
            got = block(x, p, causal=causal, activation=activation, eps=eps)
            want = composed(x, p, causal, activation, eps)
            gap = frobenius(got - want)
            name = "Post-LN" if post else "Pre-LN"
            require(gap <= 2 * rounding,
                    f"the {name} block differs from its definition by {gap:.3e} > "
                    f"{2 * rounding:.3e} (n = {n}, d = {d}, h = {h}, causal = {causal})")
            worst[1] = max(worst[1], gap / (2 * rounding))

    blocks_compose()
    evidence.append(f"MLP(X) row i = W_2^T phi(W_1^T x_i + b_1) + b_2 (max gap {worst[0]:.1e}) "
                    "for ReLU and GELU")
    evidence.append(f"Pre-LN and Post-LN blocks equal their defining compositions "
                    f"(worst gap / bound = {worst[1]:.2e})")
    t = np.linspace(-6, 6, 25)
    require(bool(np.array_equal(relu(t), np.where(t > 0, t, 0.0))), "ReLU is not max(0, t)")
    with mpmath.workdps(30):
        err = mp_error(gelu(t), mp_gelu(t))
    bound = activation_rounding(t, "gelu")  # Phi to NDTR_ULPS ulps, and the product
    require(bool(np.all(err <= bound)), f"GELU differs from t Phi(t) by {err.max():.2e}")
    evidence.append(f"ReLU(t) = max(0, t) exactly; GELU(t) = t Phi(t) to {err.max():.1e} "
                    "(mpmath, 30 digits) on [-6, 6]")
    rng = np.random.default_rng(0)
    p = _silenced(block_parameters(4, 2, 8, rng))
    x = rng.standard_normal((3, 4))
    require(bool(np.array_equal(pre_ln(x, p), x)),
            "with MHA = MLP = 0 the Pre-LN block is not the identity: the residual is missing")
    ln_1, ln_2 = sub_parameters(p, "ln_1"), sub_parameters(p, "ln_2")
    want = layer_norm(layer_norm(x, ln_1["gamma"], ln_1["beta"]), ln_2["gamma"], ln_2["beta"])
    require(bool(np.array_equal(post_ln(x, p), want)),
            "with MHA = MLP = 0 the Post-LN block is not LN_2(LN_1(X))")
    evidence.append("with MHA = MLP = 0: Pre-LN block = X and Post-LN block = LN_2(LN_1(X)), "
                    "bit for bit")
    return evidence


# 定義 2.3 ----------------------------------------------------------------------------


def configurations(max_layers: int = 2):
    """Hypothesis: small model configurations, with the variants of 定理 5.1 (biases,
    tied output, learned positions) switched independently."""
    widths = st.sampled_from([(2, 1), (2, 2), (4, 1), (4, 2), (6, 3)])
    return st.builds(
        lambda dh, vocab, layers, d_ff, n_ctx, bias, tied, positions: spec.ModelConfig(
            vocab=vocab, d=dh[0], n_layer=layers, n_head=dh[1], d_ff=d_ff, n_ctx=n_ctx,
            bias=bias, tied=tied, positions=positions),
        widths, st.integers(2, 12), st.integers(1, max_layers), st.integers(1, 8),
        st.integers(1, 8), st.booleans(), st.booleans(), st.booleans())


@st.composite
def model_cases(draw):
    """Hypothesis: a drawn configuration, its generator, its initialised parameters and a
    token sequence that fits its context."""
    config = draw(configurations())
    rng = np.random.default_rng(draw(_seeds()))
    params = init_parameters(config, rng)
    n = draw(st.integers(1, config.n_ctx))
    return config, rng, params, rng.integers(0, config.vocab, n)


def _composed_logits(tokens, params, config) -> np.ndarray:
    """定義 2.3 step by step from the package's parts: X^(0) = E_t + P, the L causal Pre-LN
    blocks, Z = LN_f(X^(L)) E^T (or the separate output matrix when untied)."""
    eps = config.layer_norm_eps
    x = params["wte"][tokens] + (params["wpe"][: len(tokens)] if config.positions else 0.0)
    for layer in range(config.n_layer):
        x = pre_ln_block(x, sub_parameters(params, f"blocks.{layer}"), causal=True,
                         activation=config.activation, eps=eps)
    ln_f = sub_parameters(params, "ln_f")
    z = layer_norm(x, ln_f["gamma"], ln_f["beta"], eps)
    return z @ (params["wte"] if config.tied else params["lm_head"]).T


@element("def-decoder-only-transformer", "定義 2.3", "デコーダのみの Transformer", CHAPTER,
         "definition", ("numeric", "witness"))
def def_decoder_only_transformer(model: Callable = forward,
                                 embedding: Callable = embed) -> list[str]:
    """Z = LN_f(X^(L)) E^T, X^(0) with rows E_{t_i} + P_i, X^(l) = the l-th causal Pre-LN
    block of X^(l-1). Numeric, on Hypothesis-drawn configurations (|V| = 2..12, d in
    {2, 4, 6}, h | d, L = 1..2, d_ff = 1..8, L_ctx = 1..8, with and without biases,
    tying and learned positions) and token sequences (1 <= n <= L_ctx): `embedding` is
    E_t + P (E_t without positions) exactly; `model` equals that composition of the
    package's parts within twice `model_error_bound` (the blocks' first-order rounding
    bounds chained); softmax of every row of Z is a distribution. Bad input: a sequence
    longer than L_ctx, an id outside [0, |V|) and an empty sequence are ValueErrors.
    Witness: with learned positions X^(0) is not permutation-equivariant (reversing the
    tokens is not reversing the rows, seed 0), while without positions it is, exactly."""
    worst = [0.0]

    @scaled(0.5)
    @given(model_cases())
    def composes(case):
        config, _, params, tokens = case
        n = len(tokens)
        x0 = embedding(tokens, params, config)
        want = params["wte"][tokens] + (params["wpe"][:n] if config.positions else 0.0)
        require(bool(np.array_equal(x0, want)), f"X^(0) is not E_t + P ({config})")
        got = model(tokens, params, config)
        gap = frobenius(got - _composed_logits(tokens, params, config))
        bound = 2 * model_error_bound(tokens, params, config)
        require(gap <= bound, f"the model differs from 定義 2.3's composition by {gap:.3e} > "
                              f"{bound:.3e} ({config}, tokens {tokens.tolist()})")
        worst[0] = max(worst[0], gap / bound)
        p = np.exp(got - got.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        require(bool(np.all(np.abs(p.sum(axis=1) - 1) <= gamma(config.vocab + 2))),
                "softmax of the logits is not a distribution")

    composes()
    evidence = [f"X^(0) = E_t + P exactly, and the model equals LN_f(X^(L)) E^T of the "
                f"causal Pre-LN blocks (worst gap / bound = {worst[0]:.2e}) on drawn "
                f"configurations with and without biases, tying and positions"]
    config = spec.ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=4)
    params = init_parameters(config, np.random.default_rng(0))
    for bad, what in (([0, 1, 2, 3, 4], "longer than L_ctx"), ([0, 5], "id out of range"),
                      ([], "empty")):
        try:
            model(np.array(bad, dtype=int), params, config)
        except ValueError:
            continue
        raise CheckFailed(f"a token sequence {bad} ({what}) did not raise ValueError")
    evidence.append("sequences longer than L_ctx, ids outside [0, |V|) and empty sequences "
                    "are ValueErrors")
    tokens = np.array([0, 1, 2, 3])
    x0, x0_reversed = embedding(tokens, params, config), embedding(tokens[::-1], params, config)
    gap = float(np.abs(x0_reversed - x0[::-1]).max())
    require(gap > 0, "with learned positions, reversing the tokens reversed the rows of X^(0)")
    unpositioned = spec.ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=4,
                                    positions=False)
    plain = {k: v for k, v in params.items() if k != "wpe"}
    require(bool(np.array_equal(embedding(tokens[::-1], plain, unpositioned),
                                embedding(tokens, plain, unpositioned)[::-1])),
            "without positions, reversing the tokens does not reverse the rows of X^(0)")
    evidence.append(f"witness: with learned positions X^(0)(reversed tokens) differs from the "
                    f"reversed X^(0) by {gap:.3f} (not equivariant); without positions they "
                    f"are equal bit for bit")
    return evidence


# 命題 3.1 ----------------------------------------------------------------------------


def _moments_bound(x: np.ndarray) -> tuple[float, float, float]:
    """Bounds on the float errors of mean(y), var(y) and ||y|| for y = fl(LN(x)) (gamma = 1):
    entries err by dy (`layer_norm_error_bound`), |y_j| <= sqrt d, sums by gamma_{d+1}."""
    d = x.size
    dy = float(layer_norm_error_bound(x).max())
    root = math.sqrt(d)
    return (dy + gamma(d + 1) * root, 2 * root * dy + dy * dy + 2 * gamma(d + 2),
            root * dy + gamma(d + 2) * root)


@element("prop-layer-norm-invariance", "命題 3.1", "層正規化はスケールと平行移動に不変", CHAPTER,
         "proposition", ("symbolic", "numeric", "witness"))
def prop_layer_norm_invariance(normalise: Callable = layer_norm,
                               symbolic_normalise: Callable = symbolic_layer_norm.layer_norm,
                               widths: tuple[int, ...] = (2, 3, 4, 5)) -> list[str]:
    """(1) LN(a x + b 1) = LN(x) for a > 0, b real; (2) with gamma = 1, beta = 0, eps = 0:
    mean 0, variance 1, norm sqrt d. Symbolic: for d in `widths` explicit variables, the
    difference normalise(a x + b 1) - normalise(x) with a > 0 and the moments of
    normalise(x) reduce to 0, 1, sqrt d (judge: symbolic.identities); for symbolic d,
    sum y_k = 0 and sum y_k^2 = d from the definition (symbolic.layer_norm.output_sums);
    for a = -1 the output is -LN(x), so the hypothesis a > 0 is needed. Numeric, on Hypothesis-drawn
    rows (d = 2..16, entries in [-100, 100], sigma >= 1e-3 max|x|), a in [0.01, 100],
    b = t a sigma(x) with t in [-100, 100] (so that a x + b 1 is as well conditioned,
    max|.| / sigma <= 1100; a larger b can round a x + b 1 to a constant vector, where LN
    is undefined: tested apart): |LN(fl(a x + b)) - LN(x)| within the two rounding bounds plus the
    input rounding 2u(a max|x| + |b|) times ||J|| = 1/sigma(ax + b) times sqrt d; the
    moments within their rounding bounds; and LN(-a x + b) = -LN(x), a witness that the
    statement fails for a < 0 (the two differ by 2 max|LN(x)| >= 2)."""
    evidence = []
    for d in widths:
        x = symbolic_layer_norm.variables(d)
        y = symbolic_normalise(x)
        require(is_zero(symbolic_layer_norm.invariance_difference(d, symbolic_normalise)),
                f"LN(a x + b 1) - LN(x) does not reduce to 0 for d = {d}")
        require(is_zero(symbolic_normalise(-x) + y), f"LN(-x) != -LN(x) for d = {d}")
        norm = sympy.sqrt(sum(v**2 for v in y))
        require(is_zero(symbolic_layer_norm.mean(y)), f"mean of LN(x) is not 0 for d = {d}")
        require(equal(symbolic_layer_norm.variance(y), 1),
                f"variance of LN(x) is not 1 for d = {d}")
        require(equal(norm**2, d), f"||LN(x)||^2 is not d for d = {d}")
    evidence.append(f"symbolic, d = {', '.join(map(str, widths))}: LN(a x + b 1) - LN(x) = 0 "
                    "(a > 0), LN(-x) = -LN(x), mean 0, variance 1, ||LN(x)||^2 = d")
    total, squares = symbolic_layer_norm.output_sums()
    require(is_zero(total) and is_zero(squares - sym.d),
            f"symbolic d: sum y_k = {total}, sum y_k^2 = {squares}, not 0 and d")
    evidence.append("symbolic d: sum y_k = 0 and sum y_k^2 = d, so mean 0, variance 1, "
                    "norm sqrt d")
    worst = [0.0, math.inf, 0.0]

    @scaled(1.0)
    @given(vectors(), st.floats(0.01, 100), st.floats(-100, 100))
    def invariant(x, scale, units):
        d = x.size
        sigma = float(x.std())
        shift = units * scale * sigma  # b in units of a sigma: a x + b keeps condition <= 1100
        y = normalise(x, eps=0.0)
        for sign in (1, -1):
            moved = sign * scale * x + shift
            bound = (layer_norm_error_bound(x) + layer_norm_error_bound(moved)
                     + math.sqrt(d) * 2 * U * (scale * np.abs(x).max() + abs(shift))
                     / (scale * sigma))
            gap = np.abs(normalise(moved, eps=0.0) - sign * y)
            require(bool(np.all(gap <= bound)),
                    f"LN({sign * scale} x + {shift}) != {sign} LN(x): gap {gap.max():.3e} > "
                    f"{bound.max():.3e} at x = {x.tolist()}")
            worst[0] = max(worst[0], float((gap / bound).max()))
        worst[1] = min(worst[1], float(np.abs(normalise(-scale * x + shift, eps=0.0) - y).max()))
        m_bound, v_bound, n_bound = _moments_bound(x)
        stats = (abs(y.mean()), abs(y.var() - 1), abs(np.linalg.norm(y) - math.sqrt(d)))
        require(stats[0] <= m_bound and stats[1] <= v_bound and stats[2] <= n_bound,
                f"mean, variance - 1, norm - sqrt d of LN(x) = {stats} exceed "
                f"{(m_bound, v_bound, n_bound)} at x = {x.tolist()}")
        worst[2] = max(worst[2], max(stats))

    invariant()
    evidence.append(f"numeric: LN(a x + b 1) = LN(x) and LN(-a x + b 1) = -LN(x) within the "
                    f"rounding bounds (worst gap / bound = {worst[0]:.2e}); LN(-a x + b 1) "
                    f"differs from LN(x) by at least {worst[1]:.3f} (max entry) at every drawn "
                    f"point, so a > 0 is needed; mean 0, variance 1, norm sqrt d to {worst[2]:.1e}")
    return evidence


# 例 3.2 ------------------------------------------------------------------------------


@element("ex-layer-norm-scale", "例 3.2", "3 倍しても出力は変わらない", CHAPTER, "example",
         ("symbolic", "numeric"))
def ex_layer_norm_scale(
    stated: Mapping = EXAMPLE_3_2, normalise: Callable = layer_norm
) -> list[str]:
    """x = (1, 2, 3, 6) and 3x + 5: the mean, variance, sigma and LN computed exactly
    (SymPy rationals and square roots) and compared with the printed numbers at their
    printed precision; LN(3x + 5) = LN(x) and ||LN(x)|| = 2 = sqrt d exactly; the numeric
    `normalise` (eps = 0) agrees with the exact values to 4 decimals."""
    x = sympy.Matrix(stated["x"])
    moved = stated["a"] * x + stated["b"] * sympy.ones(x.rows, 1)
    evidence = []
    for label, vec, keys in (("x", x, ("mean", "variance", "sigma")),
                             (f"{stated['a']}x + {stated['b']}", moved,
                              ("scaled_mean", "scaled_variance", "scaled_sigma"))):
        mu, var = symbolic_layer_norm.mean(vec), symbolic_layer_norm.variance(vec)
        for key, value in zip(keys, (mu, var, sympy.sqrt(var)), strict=True):
            require(stated[key].agrees(float(value)),
                    f"{key} of {label}: printed {stated[key].value}, exact {value} = "
                    f"{float(value):.6f}")
        evidence.append(f"{label}: mu = {mu}, sigma^2 = {var}, sigma = {sympy.sqrt(var)} "
                        f"= {float(sympy.sqrt(var)):.4f}")
    y = symbolic_layer_norm.layer_norm(x)
    require(equal(symbolic_layer_norm.layer_norm(moved), y), "LN(3x + 5) != LN(x)")
    numeric_y = normalise(np.array(stated["x"], dtype=float), eps=0.0)
    for printed, exact, computed in zip(stated["output"], y, numeric_y, strict=True):
        require(printed.agrees(float(exact)) and printed.agrees(float(computed)),
                f"LN(x) entry printed {printed.value}, exact {exact} = {float(exact):.6f}, "
                f"numeric {computed:.6f}")
    evidence.append(f"LN(x) = LN(3x + 5) = {[str(v) for v in y]} = "
                    f"{[round(float(v), 4) for v in y]}, as printed")
    norm = sympy.sqrt(sum(v**2 for v in y))
    require(equal(norm**2, 4) and stated["norm"].agrees(float(norm)),
            f"||LN(x)|| = {norm}, printed {stated['norm'].value}")
    squares = [sympy.nsimplify(v**2) for v in y]
    evidence.append(f"||LN(x)|| = sqrt({' + '.join(map(str, squares))}) = 2 = sqrt d exactly")
    for printed, exact in zip(stated["squares"], squares, strict=True):
        if printed.agrees(float(exact)):
            continue
        places = printed.decimals
        require(printed.truncates(float(exact)),
                f"the square {exact} = {float(exact):.6f} is printed {printed.value}")
        evidence.append(finding(f"the chapter prints {printed.value:.{places}f} for {exact} = "
                        f"{float(exact):.6f}..., which rounds to {float(exact):.{places}f}: the "
                        f"printed value is truncated, not rounded (the exact squares still sum to "
                        f"{x.rows} = d)"))
    return evidence


# 命題 3.3 ----------------------------------------------------------------------------


def _mp_jacobian(x: np.ndarray, eps: float = 0.0) -> list[list]:
    """d LN(x) / dx by mpmath central differences at 50 digits (step 1e-20 sigma(x): the
    O((h / sigma)^2) truncation, about 1e-40 relative, is far below float64's resolution)."""
    d = x.size
    values = [mpmath.mpf(v) for v in x]
    mu = mpmath.fsum(values) / d
    step = mpmath.mpf("1e-20") * mpmath.sqrt(mpmath.fsum((v - mu) ** 2 for v in values) / d)
    return mp_central_jacobian(lambda v: mp_layer_norm(v, eps=eps), [float(v) for v in x], step)


@element("prop-layer-norm-jacobian", "命題 3.3", "層正規化のヤコビ行列", CHAPTER, "proposition",
         ("symbolic", "numeric", "high precision"))
def prop_layer_norm_jacobian(
    jacobian: Callable = layer_norm_jacobian,
    stated: Callable = symbolic_layer_norm.chapter_jacobian,
    stated_entry: Callable = symbolic_layer_norm.chapter_entry,
    widths: Sequence[int] = range(2, 17),
    property_widths: tuple[int, ...] = (2, 3, 4),
) -> list[str]:
    """J(x) = (1/sigma)(I - 11^T/d - yy^T/d). Symbolic: derived by differentiating LN for
    symbolic d (IndexedBase sums, symbolic.layer_norm; compared with the entry formula
    `stated_entry`, and J1 = 0, Jy = 0, sigma J symmetric, idempotent, of trace d - 2
    for that entry formula) and in explicit variables for d in `widths` (d = 2..16, about
    20 s together), compared with `stated` (judge: symbolic.identities); for d in
    `property_widths`: J1 = 0, J(x - mu 1) = 0, sigma J symmetric and idempotent of trace
    d - 2 (the orthogonal projection onto W-perp), J(a x) = J(x)/a; J = 0 at d = 2.
    Numeric, on Hypothesis-drawn rows (d = 2..8, entries in [-100, 100],
    sigma >= 1e-3 max|x|): `jacobian` against mpmath central differences of 定義 2.1 at
    50 digits within `layer_norm_jacobian_error_bound`; J1 = 0 and J(x - mu 1) = 0
    within that bound times the vectors' 1-norms; the eigenvalues of sigma J are d - 2
    ones and 2 zeros (Weyl: within d times the entry bound times sigma); J(a x) = J(x)/a
    for a = 2^k, k in -8..8 (a x exact in float); at d = 2, J = 0 and LN(x) = +-(1, -1).
    Near-constant rows, outside the
    domain: with sigma = 1e-9 max|x| the NumPy Jacobian still matches mpmath within the
    same bound (which grows with max|x| / sigma), a constant row with eps = 0 is a
    ValueError, and with eps > 0 J = (I - 11^T/d)/sqrt(eps)."""
    evidence = []
    general = symbolic_layer_norm.derive_layer_norm_jacobian_general(stated_entry)
    require(general.holds, f"symbolic d: dLN/dx differs from the stated J by {general.difference}")
    evidence.append("symbolic d: the derived entry (delta_ij - 1/d - y_i y_j/d)/sigma equals "
                    "the stated one")
    properties = symbolic_layer_norm.general_jacobian_properties(stated_entry)
    for name, defect in properties.items():
        require(is_zero(defect), f"symbolic d: {name} fails for the stated J ({defect})")
    evidence.append(f"symbolic d: {', '.join(properties)} for the stated J")
    for d in widths:
        derivation = symbolic_layer_norm.derive_layer_norm_jacobian(d, stated)
        require(derivation.holds, f"d = {d}: dLN/dx differs from the stated J")
    if widths:
        evidence.append(f"explicit d = {min(widths)}..{max(widths)}: dLN/dx equals the stated J")
    wanted = ("J 1 = 0", "J c = 0", "s J symmetric", "s J idempotent", "tr(s J) = d - 2",
              "J(a x) = J(x) / a")
    for d in property_widths:
        holds = symbolic_layer_norm.jacobian_properties(d).holds
        for name in wanted + (("J = 0",) if d == 2 else ()):
            require(holds[name], f"d = {d}: {name} does not hold for the derived J")
    evidence.append(f"symbolic, d = {', '.join(map(str, property_widths))}: J1 = 0, "
                    "J(x - mu 1) = 0, sigma J symmetric, idempotent, trace d - 2, "
                    "J(a x) = J(x)/a; d = 2: J = 0")
    worst = [0.0, 0.0, 0.0]

    @scaled(0.5)
    @given(vectors(2, 8), st.integers(-8, 8))
    def numeric_properties(x, k):
        d = x.size
        got = jacobian(x)
        with mpmath.workdps(50):
            exact = _mp_jacobian(x)
            err = max(float(abs(mpmath.mpf(float(got[i, j])) - exact[i][j]))
                      for i in range(d) for j in range(d))
        bound = float(layer_norm_jacobian_error_bound(x))
        require(err <= bound, f"J differs from mpmath's by {err:.3e} > {bound:.3e} at "
                              f"x = {x.tolist()}")
        worst[0] = max(worst[0], err / bound)
        ones, centred = np.ones(d), x - x.mean()
        for name, v in (("1", ones), ("x - mu 1", centred)):
            # |J v| <= |(J - fl J) v| + rounding of the product, |v| bounded by its 1-norm
            # (centred entries err by 3 gamma_{d+1} max|x| and J by at most 3/sigma)
            v_err = 3 * gamma(d + 1) * np.abs(x).max() if name != "1" else 0.0
            tol = (bound + gamma(d) * np.abs(got).max()) * np.abs(v).sum() \
                + 3 / x.std() * v_err * d
            require(float(np.abs(got @ v).max()) <= tol,
                    f"|J ({name})| = {np.abs(got @ v).max():.3e} > {tol:.3e}")
        sigma = float(x.std())
        eigen = np.sort(np.linalg.eigvalsh(sigma * got))
        want = np.array([0.0, 0.0] + [1.0] * (d - 2))
        tol = d * sigma * bound + gamma(d) * d
        require(float(np.abs(eigen - want).max()) <= tol,
                f"eigenvalues of sigma J are {eigen}, not {want}")
        worst[1] = max(worst[1], float(np.abs(eigen - want).max()))
        a = 2.0**k
        gap = float(np.abs(jacobian(a * x) - got / a).max())
        require(gap <= 2 * bound / a, f"J({a} x) - J(x)/{a} = {gap:.3e}")
        if d == 2:
            require(float(np.abs(got).max()) <= bound, f"d = 2 but J = {got}")
            y = layer_norm(x, eps=0.0)  # (1, -1) or (-1, 1): the only outputs at d = 2
            corner = np.sign(x[0] - x[1]) * np.array([1.0, -1.0])
            require(bool(np.all(np.abs(y - corner) <= layer_norm_error_bound(x))),
                    f"d = 2: LN(x) = {y}, not {corner}")
        worst[2] = max(worst[2], gap * a)

    numeric_properties()
    evidence.append(f"numeric J equals mpmath's 50-digit central differences within the "
                    f"rounding bound (worst error / bound = {worst[0]:.2e}); J1 = 0, "
                    f"J(x - mu 1) = 0; eigenvalues of sigma J: d - 2 ones, 2 zeros (to "
                    f"{worst[1]:.1e}); a J(a x) = J(x) (to {worst[2]:.1e}); at d = 2, J = 0 and "
                    f"LN(x) = +-(1, -1)")
    rng = np.random.default_rng(0)
    x = 3.0 + 1e-9 * 3.0 * rng.standard_normal(6)
    got = jacobian(x)
    with mpmath.workdps(50):
        exact = _mp_jacobian(x)
        err = max(float(abs(mpmath.mpf(float(got[i, j])) - exact[i][j]))
                  for i in range(6) for j in range(6))
    bound = float(layer_norm_jacobian_error_bound(x))
    require(err <= bound, f"near-constant row: J differs from mpmath's by {err:.3e} > {bound:.3e}")
    evidence.append(f"near-constant row (sigma / max|x| = {x.std() / 3:.1e}): |J| = "
                    f"{np.abs(got).max():.2e}, error {err:.1e} <= bound {bound:.1e}")
    try:
        jacobian(np.full(4, 1.5))
    except ValueError:
        evidence.append("a constant row with eps = 0 is a ValueError")
    else:
        raise CheckFailed("the Jacobian of a constant row with eps = 0 did not raise")
    eps = 1e-2
    got = jacobian(np.full(4, 1.5), eps=eps)
    want = (np.eye(4) - 0.25) / math.sqrt(eps)
    require(float(np.abs(got - want).max()) <= 8 * U / math.sqrt(eps),
            f"constant row, eps = {eps}: J = {got}, not (I - 11^T/d)/sqrt(eps)")
    evidence.append("a constant row with eps = 1e-2 gives J = (I - 11^T/d)/sqrt(eps)")
    return evidence


# 命題 4.1 ----------------------------------------------------------------------------

STACK = spec.ModelConfig(vocab=2, d=4, n_layer=2, n_head=2, d_ff=8, n_ctx=3)  # M = 2L = 4 sublayers


def pre_ln_sublayers(params: Mapping, config: spec.ModelConfig) -> list[Callable]:
    """G_1..G_M of 命題 4.1 for the model's Pre-LN blocks: block b gives G = MHA o LN_1
    (causal) and G = MLP o LN_2, so that x_k = x_{k-1} + G_k(x_{k-1})."""
    eps, out = config.layer_norm_eps, []
    for layer in range(config.n_layer):
        p = sub_parameters(params, f"blocks.{layer}")
        ln_1, ln_2 = sub_parameters(p, "ln_1"), sub_parameters(p, "ln_2")
        attn, ff = sub_parameters(p, "attn"), sub_parameters(p, "mlp")
        out.append(lambda x, ln=ln_1, a=attn: multi_head_attention(
            layer_norm(x, ln["gamma"], ln["beta"], eps), a, causal=True)[0])
        out.append(lambda x, ln=ln_2, f=ff: mlp(layer_norm(x, ln["gamma"], ln["beta"], eps), f,
                                               config.activation))
    return out


def post_ln_sublayers(params: Mapping, config: spec.ModelConfig) -> list[tuple]:
    """(F_k, N_k, LN parameters) of 命題 4.1's Post-LN form: x_k = N_k(x_{k-1} + F_k(x_{k-1}))
    with F = MHA (causal) then MLP, N = LN_1 then LN_2 of each block."""
    eps, out = config.layer_norm_eps, []
    for layer in range(config.n_layer):
        p = sub_parameters(params, f"blocks.{layer}")
        for part, ln in (("attn", "ln_1"), ("mlp", "ln_2")):
            q, norm = sub_parameters(p, part), sub_parameters(p, ln)
            if part == "attn":
                def f(x, q=q):
                    return multi_head_attention(x, q, causal=True)[0]
            else:
                def f(x, q=q):
                    return mlp(x, q, config.activation)
            out.append((f, lambda x, g=norm: layer_norm(x, g["gamma"], g["beta"], eps), norm))
    return out


def _residual_step(x: np.ndarray, g: Callable) -> np.ndarray:
    return x + g(x)


def _block_diagonal_layer_norm_jacobian(s: np.ndarray, norm: Mapping, eps: float) -> np.ndarray:
    """K = d LN(S) / dS for a row-wise LN with gain gamma: block-diagonal, block i =
    diag(gamma) J(s_i) with J of 命題 3.3 (numeric.layer_norm_jacobian)."""
    n, d = s.shape
    blocks = norm["gamma"][None, :, None] * layer_norm_jacobian(s, eps)  # (n, d, d)
    out = np.zeros((n * d, n * d))
    for i in range(n):
        out[i * d:(i + 1) * d, i * d:(i + 1) * d] = blocks[i]
    return out


def _product_error(factors: list[np.ndarray], errors: list[float]) -> float:
    """Bound on max|prod(A_k) - prod(A_k + E_k)| to first order, |E_k| <= e_k entrywise:
    sum_k e_k N prod_{j != k} ||A_j||_2 (an N x N matrix with entries <= e has norm <= N e)."""
    size = factors[0].shape[0]
    norms = [float(np.linalg.norm(a, 2)) for a in factors]
    return sum(e * size * math.prod(norms[:k] + norms[k + 1:]) for k, e in enumerate(errors))


def pre_ln_sublayer_bounds(x: np.ndarray, params: Mapping, config: spec.ModelConfig,
                           step: Callable = None) -> list[tuple[float, float]]:
    """(Lipschitz bound, rounding bound) of each G_k at x_{k-1} along the Pre-LN stack from
    x: LN's and the part's bounds composed (`layer_norm_stage_bounds`,
    `attention_stage_bounds`, `mlp_stage_bounds`)."""
    eps, out = config.layer_norm_eps, []
    subs = pre_ln_sublayers(params, config)
    for k, g in enumerate(subs):
        p = sub_parameters(params, f"blocks.{k // 2}")
        norm = sub_parameters(p, "ln_1" if k % 2 == 0 else "ln_2")
        l_n, r_n = layer_norm_stage_bounds(x, norm, eps)
        z = layer_norm(x, norm["gamma"], norm["beta"], eps)
        if k % 2 == 0:
            l_f, r_f = attention_stage_bounds(z, sub_parameters(p, "attn"))
        else:
            l_f, r_f = mlp_stage_bounds(z, sub_parameters(p, "mlp"))
        out.append((l_n * l_f, r_n * l_f + r_f))
        x = (step or _residual_step)(x, g)
    return out


def _chained(bounds: list[tuple[float, float]], points: list[np.ndarray]) -> float:
    """Rounding bound of the residual stack x_k = x_{k-1} + G_k(x_{k-1}) from its stages:
    e -> e (1 + L_k) + r_k + u ||x_k||."""
    error = 0.0
    for (lip, rounding), x in zip(bounds, points[1:], strict=True):
        error = error * (1 + lip) + rounding + U * frobenius(x)
    return error


def residual_jacobians(step: Callable = _residual_step, seed: int = 0,
                       config: spec.ModelConfig = STACK, depth: int | None = None,
                       identity: bool = True) -> dict:
    """The Pre-LN stack's Jacobians at a drawn x_0 (n = n_ctx): for every l, the central
    difference D_l of x_l -> x_M, and the product P_l = (I + J_M)...(I + J_{l+1}) of the
    central differences J_k of G_k at x_{k-1} (J_M...J_{l+1} when `identity` is False),
    with error bounds (`jacobian_with_error`, `_product_error`). `step(x, G)` is one step
    (x + G(x) with the residual); `depth` keeps the first M sublayers."""
    rng = np.random.default_rng(seed)
    params = init_parameters(config, rng)
    x = rng.standard_normal((config.n_ctx, config.d))
    subs = pre_ln_sublayers(params, config)[:depth]
    bounds = pre_ln_sublayer_bounds(x, params, config, step)[:depth]
    points, jacobians, errors = [x], [], []
    for g, (_, rounding) in zip(subs, bounds, strict=True):
        j, e = jacobian_with_error(g, points[-1], rounding)
        jacobians.append(j)
        errors.append(e)
        points.append(step(points[-1], g))
    size = x.size
    out = {"points": points, "jacobians": jacobians, "errors": errors, "sublayers": subs,
           "params": params, "error": _chained(bounds, points), "stages": []}
    for start in range(len(subs)):
        def rest(z, start=start):
            for g in subs[start:]:
                z = step(z, g)
            return z

        error = _chained(bounds[start:], points[start:])
        direct, direct_error = jacobian_with_error(rest, points[start], error)
        factors = [identity * np.eye(size) + j for j in jacobians[start:]][::-1]  # M first
        product = np.linalg.multi_dot(factors) if len(factors) > 1 else factors[0]
        bound = direct_error + _product_error(factors, errors[start:][::-1])
        out["stages"].append((start, direct, product, bound))
    return out


@element("prop-residual-identity-path", "命題 4.1", "残差接続の恒等経路", CHAPTER, "proposition",
         ("symbolic", "numeric"))
def prop_residual_identity_path(step: Callable = _residual_step,
                                pre_ln_product: Callable = residual.pre_ln_product,
                                post_ln_product: Callable = residual.post_ln_product,
                                depths: tuple[int, ...] = (1, 2, 3, 4)) -> list[str]:
    """Pre-LN: x_M = x_0 + sum G_l(x_{l-1}) and dx_M/dx_l = (I + J_M)...(I + J_{l+1}) = I +
    sum over non-empty S of the ordered products, 2^(M-l) terms with exactly one bare I;
    Post-LN: dx_M/dx_l = K_M (I + D_M)...K_{l+1}(I + D_{l+1}), whose D-free term is
    K_M...K_{l+1}, not I. Symbolic (non-commutative symbols, symbolic.residual): for
    M - l in `depths` the expanded Pre-LN product has 2^(M-l) distinct terms and one bare
    I; the Post-LN product has no bare I and its D-free term is K_M...K_{l+1}. Numeric, on
    the package's model (two Pre-LN blocks, M = 4 sublayers G = MHA o LN_1, MLP o LN_2,
    n = 3, d = 4, seeds 0 and 1): the sublayer stack equals the blocks (within
    `block_error_bound`) and telescopes (x_M = x_0 + sum G_l within gamma_M); for every l
    the central-difference Jacobian of x_l -> x_M equals the product of the (I + J_k),
    each J_k a central difference of G_k, within the Richardson error bounds of
    `jacobian_with_error` propagated through the product. Post-LN likewise: the stack's
    Jacobian equals prod K_k (I + D_k) with K_k = diag(gamma) J of 命題 3.3 row by row;
    and K_M...K_1 sends the direction "add 1 to row 1" to 0, so it is not I."""
    evidence = []
    for depth in depths:
        expansion = residual.expand_product(pre_ln_product(depth, 0))
        require(len(expansion.terms) == 2**depth and expansion.distinct,
                f"M - l = {depth}: {len(expansion.terms)} terms, not 2^{depth}")
        require(expansion.bare_identity_count == 1,
                f"M - l = {depth}: {expansion.bare_identity_count} bare I terms, not 1")
        post = residual.expand_product(post_ln_product(depth, 0))
        require(post.bare_identity_count == 0,
                f"Post-LN, M - l = {depth}: {post.bare_identity_count} bare I terms")
    if depths:
        evidence.append(f"symbolic, M - l = {', '.join(map(str, depths))}: the Pre-LN product "
                        f"expands to 2^(M-l) distinct terms with exactly one bare I; the "
                        f"Post-LN product has none (for M - l = 2 its D-free term is "
                        f"{residual.d_free_term(post_ln_product(2, 0))})")
    worst = [0.0, 0.0]
    for seed in (0, 1):
        result = residual_jacobians(step, seed)
        points, subs, params = result["points"], result["sublayers"], result["params"]
        x_0, x_m = points[0], points[-1]
        telescoped = x_0 + sum(g(x) for g, x in zip(subs, points[:-1], strict=True))
        scale = np.abs(x_0) + sum(np.abs(g(x)) for g, x in zip(subs, points[:-1], strict=True))
        require(bool(np.all(np.abs(telescoped - x_m) <= 2 * gamma(len(subs) + 1) * scale)),
                f"x_M != x_0 + sum G_l(x_(l-1)) (seed {seed})")
        blocks = x_0
        for layer in range(STACK.n_layer):
            blocks = pre_ln_block(blocks, sub_parameters(params, f"blocks.{layer}"))
        gap = frobenius(blocks - x_m)
        require(gap <= 2 * result["error"], f"the sublayer stack differs from the blocks by "
                                            f"{gap:.3e} (seed {seed})")
        for start, direct, product, bound in result["stages"]:
            gap = float(np.abs(direct - product).max())
            require(gap <= bound, f"dx_M/dx_{start} differs from prod (I + J_k) by {gap:.3e} > "
                                  f"{bound:.3e} (seed {seed})")
            worst[0] = max(worst[0], gap / bound)
        worst[1] = max(worst[1], _post_ln_stack(seed))
    evidence.append(f"numeric (2 blocks, M = 4, seeds 0, 1): the sublayers compose to the "
                    f"blocks and telescope; dx_M/dx_l = prod (I + J_k) for l = 0..3 (worst "
                    f"gap / bound = {worst[0]:.2e}); Post-LN: dx_M/dx_0 = prod K_k (I + D_k) "
                    f"(worst gap / bound = {worst[1]:.2e}); its D-free term K_4...K_1 is "
                    f"not I: K_1 already sends 'add 1 to row 1' to 0")
    return evidence


def _post_ln_stack(seed: int, config: spec.ModelConfig = STACK) -> float:
    """Post-LN half of 命題 4.1 at a drawn point; returns the worst gap / bound."""
    rng = np.random.default_rng(seed)
    params = init_parameters(config, rng)
    x = rng.standard_normal((config.n_ctx, config.d))
    eps, layers = config.layer_norm_eps, post_ln_sublayers(params, config)
    size = x.size
    factors, errors, error, z = [], [], 0.0, x
    for k, (f, norm, ln) in enumerate(layers):
        part = sub_parameters(params, f"blocks.{k // 2}.{'attn' if k % 2 == 0 else 'mlp'}")
        l_f, r_f = (attention_stage_bounds if k % 2 == 0 else mlp_stage_bounds)(z, part)
        d_k, e_k = jacobian_with_error(f, z, r_f)
        s = z + f(z)
        l_n, r_n = layer_norm_stage_bounds(s, ln, eps)
        error = (error * (1 + l_f) + r_f + U * frobenius(s)) * l_n + r_n  # the stack's rounding
        k_k = _block_diagonal_layer_norm_jacobian(s, ln, eps)
        k_error = float(np.abs(ln["gamma"]).max() * layer_norm_jacobian_error_bound(s, eps).max())
        step = np.eye(size) + d_k
        factors.insert(0, k_k @ step)
        # |K (I + D) - K' (I + D')| <= ||K|| N e_D + N e_K ||I + D|| entrywise-to-norm
        errors.insert(0, (float(np.linalg.norm(k_k, 2)) * e_k
                          + k_error * float(np.linalg.norm(step, 2))) * size)
        z = norm(s)

    def stack(v):
        for f, norm, _ in layers:
            v = norm(v + f(v))
        return v

    direct, direct_error = jacobian_with_error(stack, x, error)
    product = np.linalg.multi_dot(factors)
    bound = direct_error + _product_error(factors, errors)
    gap = float(np.abs(direct - product).max())
    require(gap <= bound, f"Post-LN: dx_M/dx_0 differs from prod K_k (I + D_k) by {gap:.3e} > "
                          f"{bound:.3e} (seed {seed})")
    # The D-free term K_M...K_1 is not I: already K_1 sends v = "add 1 to row 1" to 0, since
    # J(s) 1 = 0 (命題 3.3); computed, |K_1 v| <= |gamma| (d max|fl J - J| + gamma_d sum|J|).
    f, _, ln = layers[0]
    first_s = x + f(x)
    k_1 = _block_diagonal_layer_norm_jacobian(first_s, ln, eps)
    row = np.zeros(x.shape)
    row[0] = 1.0
    moved = float(np.abs(k_1 @ row.ravel()).max())
    d = config.d
    allowed = float(np.abs(ln["gamma"]).max()) * (
        d * float(layer_norm_jacobian_error_bound(first_s[0], eps))
        + gamma(d) * float(np.abs(k_1[:d, :d]).sum(axis=1).max()))
    require(moved <= allowed, f"K_1 does not annihilate 'add 1 to row 1' (moved {moved:.3e})")
    return gap / bound


# 注意 4.2 ----------------------------------------------------------------------------


@element("rem-pre-post-ln-empirical", "注意 4.2", "どちらが学習しやすいかは経験的な事柄", CHAPTER,
         "remark", ("not a theorem",))
def rem_pre_post_ln_empirical(refers_to: str = "命題 4.1",
                              statement_id: str = "prop-residual-identity-path") -> list[str]:
    """Not a theorem: which placement (Pre-LN or Post-LN) trains better is an empirical
    matter (the chapter cites Xiong et al. and He et al. for particular initialisations
    and settings), so there is nothing to prove. What the remark does assert is that
    命題 4.1 says only that the expansion has an I term; the check verifies that the
    element it refers to is registered under that number, and that element's own check
    proves the statement (run it with `pytest -k prop_residual_identity_path`)."""
    target = REGISTRY.get(statement_id)
    require(target is not None, f"the remark refers to {statement_id!r}, which is not registered")
    require(target.number == refers_to and target.chapter == CHAPTER,
            f"the remark refers to {refers_to}, but {statement_id} is {target.number}")
    return [f"not a theorem: the training behaviour of Pre-LN vs Post-LN is empirical; the "
            f"formal fact it qualifies is {refers_to} ({statement_id}), checked there"]


# 定理 5.1 ----------------------------------------------------------------------------


def _stated_parameters(bias: bool = True, tied: bool = True, positions: bool = True):
    """定理 5.1's count: |V| d + L_ctx d + L (4d^2 + 4d + 2 d d_ff + d_ff + d + 4d) + 2d, without
    L_ctx d for RoPE or sinusoids, plus |V| d untied; without biases the attention has 4d^2
    (命題 7.1［自己注意］) and the MLP 2 d d_ff."""
    V, d, L, d_ff, L_ctx = sym.V, sym.d, sym.L, sym.d_ff, sym.L_ctx
    attention = 4 * d**2 + (4 * d if bias else 0)
    feed_forward = 2 * d * d_ff + (d_ff + d if bias else 0)
    total = V * d + L * (attention + feed_forward + 4 * d) + 2 * d
    return total + (L_ctx * d if positions else 0) + (0 if tied else V * d)


def _stated_per_layer():
    """定理 5.1: 12d^2 + 13d per layer at d_ff = 4d."""
    return 12 * sym.d**2 + 13 * sym.d


def _at(expr: sympy.Expr, config: spec.ModelConfig) -> int:
    """A count polynomial evaluated at a configuration's sizes (exact integer)."""
    values = {sym.V: config.vocab, sym.d: config.d, sym.L: config.n_layer,
              sym.d_ff: config.d_ff, sym.L_ctx: config.n_ctx, sym.h: config.n_head}
    value = sympy.sympify(expr).subs(values)
    require(value.is_Integer, f"the count {expr} is not an integer at {config}: {value}")
    return int(value)


VARIANTS = tuple(itertools.product((True, False), repeat=3))  # (bias, tied, positions)


@element("thm-transformer-parameters", "定理 5.1", "デコーダのみの Transformer のパラメータ数",
         CHAPTER, "theorem", ("symbolic", "numeric"))
def thm_transformer_parameters(stated: Callable = _stated_parameters,
                               stated_per_layer: Callable = _stated_per_layer,
                               allocate: Callable = init_parameters,
                               count: Callable = parameter_count) -> list[str]:
    """The parameter count of 定義 2.3's model, with its variants. Symbolic: the polynomial
    symbolic.counts derives from spec's declaration of every array equals `stated` for
    all 8 combinations of biases, tying and learned positions, and one block at
    d_ff = 4d equals `stated_per_layer` (12d^2 + 13d). Numeric: the arrays `allocate`
    makes for Hypothesis-drawn configurations (every variant; |V| = 2..12, d in
    {2, 4, 6}, L = 1..3, d_ff = 1..8, L_ctx = 1..8) number exactly the polynomial's value
    (`count`, exact integers)."""
    evidence = []
    for bias, tied, positions in VARIANTS:
        derived = counts.model_parameters(bias=bias, tied=tied, positions=positions)
        want = stated(bias=bias, tied=tied, positions=positions)
        require(is_zero(sympy.expand(derived - want)),
                f"bias = {bias}, tied = {tied}, positions = {positions}: derived {derived}, "
                f"stated {sympy.expand(want)}")
    evidence.append(f"symbolic: the count derived from spec equals the stated formula for all "
                    f"{len(VARIANTS)} variants; with biases, tied, positions: "
                    f"{sympy.expand(counts.model_parameters())}")
    per_layer = sympy.expand(counts.block_parameters(width=4 * sym.d))
    require(is_zero(per_layer - stated_per_layer()),
            f"one block at d_ff = 4d has {per_layer} parameters, stated {stated_per_layer()}")
    evidence.append(f"one block at d_ff = 4d: {per_layer}")
    drawn = [0]

    @scaled(1.0)
    @given(configurations(max_layers=3), _seeds())
    def allocated(config, seed):
        params = allocate(config, np.random.default_rng(seed))
        want = _at(counts.model_parameters(config.bias, config.tied, config.positions), config)
        got = count(params)
        require(got == want, f"{config}: {got} parameters allocated, the polynomial gives {want}")
        drawn[0] += 1

    allocated()
    evidence.append(f"numeric: the allocated arrays number exactly the polynomial's value on "
                    f"{drawn[0]} drawn configurations (all variants)")
    return evidence


def _parts(sizes: Mapping[str, int]) -> dict[str, int]:
    """例 5.2's parts, each the polynomial of the spec parameters it groups, evaluated."""
    config = spec.ModelConfig(vocab=sizes["vocab"], d=sizes["d"], n_layer=sizes["n_layer"],
                              n_head=1, d_ff=sizes.get("d_ff", 4 * sizes["d"]),
                              n_ctx=sizes["n_ctx"])
    declared = {p.name: p for p in spec.model_parameters()}
    block = spec.parameters

    def poly(params) -> int:
        return _at(counts.parameter_polynomial(params), config)

    per_layer = _at(counts.block_parameters(width=sym.d_ff), config)
    return {
        "embeddings": poly([declared["wte"]]),
        "positions": poly([declared["wpe"]]),
        "attention": poly(block.attention_parameters()),
        "mlp": poly(block.mlp_parameters()),
        "layer_norms": poly(block.layer_norm_parameters("ln_1")
                            + block.layer_norm_parameters("ln_2")),
        "per_layer": per_layer,
        "layers": config.n_layer * per_layer,
        "final_layer_norm": poly(block.layer_norm_parameters("ln_f")),
        "total": _at(counts.model_parameters(), config),
    }


@element("ex-small-model-count", "例 5.2", "小さなモデルで数える", CHAPTER, "example",
         ("symbolic", "numeric"))
def ex_small_model_count(stated: Mapping = SMALL_MODEL) -> list[str]:
    """|V| = 10, d = 4, d_ff = 16, L = 2, L_ctx = 8: every part (embeddings, positions, one
    layer's attention, MLP and LayerNorms, one layer, the final LayerNorm) is the polynomial
    of the spec parameters it groups, evaluated, and equals the stated part; the total is
    定理 5.1's polynomial, and the arrays of a real model allocated by
    `numeric.model.init_parameters` (proofs.tables.small_model_count, h = 2) number the
    same (the listing's "count: 568  formula: 568")."""
    parts = _parts(stated["sizes"])
    for name, value in stated["parts"].items():
        require(parts[name] == value, f"{name}: computed {parts[name]}, stated {value}")
    require(parts["total"] == stated["total"],
            f"total: computed {parts['total']}, stated {stated['total']}")
    table = tables.small_model_count(**stated["sizes"])
    values = dict(table.values)
    require(values["allocated"] == values["formula"] == stated["total"],
            f"allocated {values['allocated']}, formula {values['formula']}, stated "
            f"{stated['total']}")
    return [f"parts {', '.join(f'{k} {v}' for k, v in parts.items() if k != 'total')}",
            f"total {parts['total']}; a real model's arrays number {values['allocated']} "
            f"({table.listing[0]})"]


@element("ex-gpt2-small-count", "例 5.3", "12 層・d = 768 の構成での検算", CHAPTER, "example",
         ("symbolic", "numeric"))
def ex_gpt2_small_count(stated: Mapping = GPT2_SMALL) -> list[str]:
    """|V| = 50,257, d = 768, L = 12, L_ctx = 1,024, d_ff = 4d: the table regenerated by
    proofs.tables.gpt2_parameter_table (each row a polynomial of spec parameters,
    evaluated) equals the stated table row by row and in total; the total is confirmed by
    a second path that multiplies out spec's declared shapes at the configuration's sizes
    (the arrays' sizes, without allocating 124M floats). The embeddings' share
    |V| d / total is compared with the printed percentage (the text after 注意 5.4)."""
    table = tables.gpt2_parameter_table(**stated["sizes"])
    values = [v for _, v in table.values]
    rows, total = values[:-1], values[-1]
    for (label, *_), got, want in zip(table.rows[:-1], rows, stated["rows"], strict=True):
        require(got == want, f"row {label}: computed {got:,}, stated {want:,}")
    require(total == stated["total"], f"total: computed {total:,}, stated {stated['total']:,}")
    sizes = stated["sizes"]
    config = spec.ModelConfig(vocab=sizes["vocab"], d=sizes["d"], n_layer=sizes["n_layer"],
                              n_head=12, d_ff=4 * sizes["d"], n_ctx=sizes["n_ctx"])
    dims = config.sizes()
    by_shapes = sum(math.prod(dims[name] for name in p.dims)
                    * (config.n_layer if p.per_layer else 1) for p in spec.model_parameters())
    require(by_shapes == total, f"the declared shapes give {by_shapes:,}, the table {total:,}")
    share = rows[0] / total
    require(stated["embedding_share"].agrees(share),
            f"the embeddings' share is {share:.4f}, printed {stated['embedding_share'].value}")
    return [f"rows {', '.join(f'{v:,}' for v in rows)}; total {total:,} (also from the "
            f"declared shapes)", f"embeddings' share {share:.4f} ≈ {share:.0%}"]


@element("rem-paper-parameter-count", "注意 5.4", "論文の表の値との違い", CHAPTER, "remark",
         ("numeric",))
def rem_paper_parameter_count(stated: Mapping = GPT2_SMALL) -> list[str]:
    """The count of 例 5.3 and the paper's 117M do not agree: the package's count (定理 5.1's
    polynomial at the GPT-2 small sizes, as regenerated by proofs.tables) minus 117,000,000
    is stated as a number and must exceed the rounding of "117M" (half a million), so that
    the remark's "the two numbers do not agree" holds. How 117M was computed is not
    guessed (the chapter declines to, and so does the package)."""
    total = [v for _, v in tables.gpt2_parameter_table(**stated["sizes"]).values][-1]
    require(total == stated["total"], f"the count is {total:,}, stated {stated['total']:,}")
    difference = total - stated["paper_total"]
    require(abs(difference) > stated["paper_precision"],
            f"{total:,} and {stated['paper_total']:,} agree to the paper's precision "
            f"({stated['paper_precision']:,}), but the remark says they do not")
    return [f"{total:,} - {stated['paper_total']:,} = {difference:,} "
            f"({difference / stated['paper_total']:+.2%}): more than the rounding of the "
            f"paper's figure, so the two do not agree"]


# 命題 6.1 ----------------------------------------------------------------------------


def _stated_block_cost():
    """命題 6.1's leading terms: 4nd^2 + 2n^2 d (attention) + 2 n d d_ff (MLP)."""
    n, d, d_ff = sym.n, sym.d, sym.d_ff
    return 4 * n * d**2 + 2 * n**2 * d + 2 * n * d * d_ff


def _counted(run: Callable[[], object]) -> dict[str, int]:
    """The multiplications of the declared contractions while `run` executes, by name."""
    with count_multiplications() as counter:
        run()
    return dict(counter.by_name)


@element("prop-block-complexity", "命題 6.1", "1 層の順伝播の計算量", CHAPTER, "proposition",
         ("symbolic", "numeric"))
def prop_block_complexity(stated: Callable = _stated_block_cost,
                          block: Callable = pre_ln_block, model: Callable = forward,
                          figures: Mapping = BLOCK_COST) -> list[str]:
    """One block costs 4nd^2 + 2n^2 d + 2 n d d_ff multiplications plus O(nd) (LayerNorm,
    biases); 12nd^2 + 2n^2 d at d_ff = 4d; the term linear in n is the larger iff n < 6d;
    the model adds L blocks and n d |V| for the output. Symbolic: symbolic.counts
    multiplies out the sizes of spec's declared contractions (BLOCK, LM_HEAD); the result
    equals `stated`, does not contain h; the crossover of the two terms at d_ff = 4d is
    solved, n = 6d, and linear - quadratic = 2nd (6d - n) (so the sign is that of 6d - n).
    Numeric: the multiplications a real `block` (Pre-LN and Post-LN) and a real `model`
    pass perform, counted by numeric.contraction from the actual operand shapes, equal the
    polynomial at Hypothesis-drawn sizes (n = 1..8, d in {2, 4, 6, 8}, h | d, d_ff = 1..8,
    L = 1..2, |V| = 2..12), contraction by contraction. The figures at d = 768, n = 1024
    (proofs.tables.block_cost_comparison) against the printed ones."""
    evidence = []
    derived = sympy.expand(counts.block_multiplications(BLOCK, width=sym.d_ff))
    require(is_zero(derived - sympy.expand(stated())),
            f"the block's multiplications are {derived}, stated {sympy.expand(stated())}")
    require(sym.h not in derived.free_symbols, f"{derived} depends on h")
    at_4d = sympy.expand(derived.subs(sym.d_ff, 4 * sym.d))
    linear, quadratic = counts.linear_quadratic(at_4d, sym.n)
    crossover = counts.crossover(at_4d, sym.n)
    require(is_zero(crossover - 6 * sym.d), f"the two terms cross at n = {crossover}, not 6d")
    require(is_zero(linear - quadratic - 2 * sym.n * sym.d * (6 * sym.d - sym.n)),
            f"linear - quadratic = {sympy.factor(linear - quadratic)}")
    head = counts.lm_head_multiplications()
    require(is_zero(head - sym.n * sym.d * sym.V), f"the output layer costs {head}")
    evidence.append(f"symbolic: {derived} (no h); at d_ff = 4d: {at_4d}; linear - quadratic = "
                    f"{sympy.factor(linear - quadratic)}, positive iff n < {crossover}; "
                    f"output layer {head}")
    drawn = [0]

    @scaled(0.5)
    @given(configurations(), st.sampled_from([(2, 1), (4, 2), (6, 3), (8, 2)]), _seeds(),
           st.data())
    def counted(config, dh, seed, data):
        d, h = dh
        rng = np.random.default_rng(seed)
        n = data.draw(st.integers(1, 8))
        p = block_parameters(d, h, config.d_ff, rng)
        x = rng.standard_normal((n, d))
        sizes = {sym.n: n, sym.d: d, sym.h: h, sym.d_ff: config.d_ff, sym.V: config.vocab}
        want = {name: int(sympy.sympify(v).subs(sizes))
                for name, v in counts.contraction_multiplications(BLOCK, sym.SIZES).items()}
        for causal in (False, True):
            got = _counted(lambda c=causal: block(x, p, causal=c))
            require(got == want, f"a block pass at n = {n}, d = {d}, h = {h}, d_ff = "
                                 f"{config.d_ff} counted {got}, the polynomial gives {want}")
        got = _counted(lambda: post_ln_block(x, p))
        require(got == want, f"a Post-LN pass counted {got}, the polynomial gives {want}")
        params = init_parameters(config, rng)
        tokens = rng.integers(0, config.vocab, min(n, config.n_ctx))
        m = len(tokens)
        total = sum(_counted(lambda: model(tokens, params, config)).values())
        sizes = {sym.n: m, sym.d: config.d, sym.h: config.n_head, sym.d_ff: config.d_ff,
                 sym.V: config.vocab}
        expected = int((config.n_layer * counts.block_multiplications(BLOCK, width=sym.d_ff)
                        + counts.lm_head_multiplications()).subs(sizes))
        require(total == expected, f"a model pass counted {total}, the polynomial gives "
                                   f"{expected} ({config}, n = {m})")
        drawn[0] += 1

    counted()
    evidence.append(f"numeric: real block passes (Pre-LN causal and not, Post-LN) and model "
                    f"passes count exactly the polynomial, contraction by contraction, at "
                    f"{drawn[0]} drawn sizes")
    values = dict(tables.block_cost_comparison(d=figures["d"], n=figures["n"]).values)
    crossing = int(crossover.subs(sym.d, figures["d"]))
    for key, got in (("linear", values["12nd^2"]), ("quadratic", values["2n^2d"]),
                     ("crossover", crossing)):
        require(got == figures[key], f"{key} at d = {figures['d']}, n = {figures['n']}: "
                                     f"computed {got:,}, printed {figures[key]:,}")
    require(figures["ratio"].agrees(values["ratio"]) and figures["ratio"].agrees(
        values["n/(6d)"]), f"ratio {values['ratio']:.4f}, n/(6d) = {values['n/(6d)']:.4f}, "
                           f"printed {figures['ratio'].value}")
    evidence.append(f"d = {figures['d']}, n = {figures['n']}: 12nd^2 = {values['12nd^2']:,}, "
                    f"2n^2d = {values['2n^2d']:,}, ratio {values['ratio']:.4f} = n/(6d); "
                    f"6d = {crossing:,}")
    return evidence


# 命題 7.1 ----------------------------------------------------------------------------


@element("prop-row-wise-maps", "命題 7.1", "MLP と層正規化は位置の間で情報を混ぜない", CHAPTER,
         "proposition", ("numeric",))
def prop_row_wise_maps(network: Callable = mlp, normalise: Callable = layer_norm,
                       model: Callable = forward) -> list[str]:
    """MLP and LN act row by row: row i of the output is a function of row i of the input,
    so the off-diagonal row blocks of their Jacobians are 0. Shown exactly, for finite
    changes rather than derivatives: on Hypothesis-drawn X (n = 2..6, d in {2, 4, 6},
    d_ff = 1..8, ReLU and GELU, generic parameters) and a drawn replacement of row j,
    every other output row is unchanged bit for bit (which implies the zero blocks). A
    model without attention (W_O = 0: attention then adds the constant b_O to every row)
    gives position i logits that depend only on t_i and i: two drawn sequences that
    agree at position i give bit-identical logits there."""
    changed = [0]

    @scaled(1.0)
    @given(st.integers(2, 6), st.sampled_from([2, 4, 6]), st.integers(1, 8), _seeds(),
           st.sampled_from(["relu", "gelu"]))
    def row_wise(n, d, d_ff, seed, activation):
        rng = np.random.default_rng(seed)
        ff = sub_parameters(block_parameters(d, 1, d_ff, rng), "mlp")
        x = rng.standard_normal((n, d))
        j = int(rng.integers(n))
        moved = x.copy()
        moved[j] = 3 * rng.standard_normal(d)
        gain, shift = 1 + rng.standard_normal(d), rng.standard_normal(d)
        others = np.arange(n) != j
        for name, f in (("MLP", lambda z: network(z, ff, activation)),
                        ("LN", lambda z: normalise(z, gain, shift, eps=1e-5))):
            before, after = f(x), f(moved)
            require(bool(np.array_equal(before[others], after[others])),
                    f"{name}: changing row {j} changed other rows by "
                    f"{np.abs(before[others] - after[others]).max():.3e}")
            changed[0] += int(not np.array_equal(before[j], after[j]))

    row_wise()
    evidence = ["MLP and LN: replacing row j leaves every other output row unchanged bit for "
                f"bit on every drawn case (row j itself changed in {changed[0]} of the cases): "
                "the off-diagonal row blocks of the Jacobians are 0"]
    config = spec.ModelConfig(vocab=7, d=4, n_layer=2, n_head=2, d_ff=8, n_ctx=6)
    rng = np.random.default_rng(0)
    params = init_parameters(config, rng)
    for layer in range(config.n_layer):
        params[f"blocks.{layer}.attn.w_o"] = np.zeros_like(params[f"blocks.{layer}.attn.w_o"])
    agree = 0
    for _ in range(10):
        first, second = rng.integers(0, 7, 6), rng.integers(0, 7, 6)
        same = first == second
        same[0] = True  # at least one shared position
        second[0] = first[0]
        z_1, z_2 = model(first, params, config), model(second, params, config)
        require(bool(np.array_equal(z_1[same], z_2[same])),
                "without attention, logits at a position where the tokens agree differ: "
                f"{np.abs(z_1[same] - z_2[same]).max():.3e}")
        agree += int(same.sum())
    evidence.append(f"without attention (W_O = 0), logits at positions where two sequences "
                    f"agree are equal bit for bit ({agree} positions in 10 pairs)")
    return evidence


# 命題 7.2 ----------------------------------------------------------------------------


@element("prop-block-equivariance-causality", "命題 7.2", "ブロックとモデル全体の同変性・因果性",
         CHAPTER, "proposition", ("numeric", "witness"))
def prop_block_equivariance_causality(
    pre_ln: Callable = pre_ln_block, post_ln: Callable = post_ln_block,
    model: Callable = forward, decoder: Callable = Decoder,
) -> list[str]:
    """(1) Pre-LN and Post-LN blocks without a mask are permutation-equivariant; (2) with the
    causal mask they are causal; (3) the model's logits at position i depend only on
    t_1..t_i and equal the last logits of the prefix. Numeric, on Hypothesis-drawn blocks
    (n = 1..6, d in {2, 4, 6}, h | d, d_ff = 1..8, ReLU and GELU) and permutations:
    block(P X) = P block(X) within the two evaluations' rounding bounds
    (`block_error_bound`); replacing rows i+1..n leaves rows 1..i of a causal block within
    the same bound. On drawn models (`configurations`) and sequences: changing the tokens
    after position i leaves logits 1..i within the bound (`model_error_bound`); the logits
    of every prefix equal the corresponding rows; the key/value-cache `decoder`, fed one
    token at a time and in two chunks, equals the full forward pass within the bound.
    Witness that the mask matters: an unmasked block's first row changes when a later row
    does (seed 0)."""
    worst = [0.0, 0.0, 0.0, 0.0]

    @scaled(1.0)
    @given(st.integers(1, 6), st.sampled_from([(2, 1), (2, 2), (4, 2), (6, 3)]),
           st.integers(1, 8), _seeds(), st.sampled_from(["relu", "gelu"]))
    def blocks(n, dh, d_ff, seed, activation):
        d, h = dh
        rng = np.random.default_rng(seed)
        p = block_parameters(d, h, d_ff, rng)
        x = rng.standard_normal((n, d))
        perm = rng.permutation(n)
        i = int(rng.integers(n))
        later = x.copy()
        later[i + 1:] = rng.standard_normal((n - i - 1, d))
        for post, block in ((False, pre_ln), (True, post_ln)):
            name = "Post-LN" if post else "Pre-LN"
            bound = block_error_bound(x, p, post)[0] + block_error_bound(x[perm], p, post)[0]
            out = block(x, p, causal=False, activation=activation)
            gap = frobenius(block(x[perm], p, causal=False, activation=activation) - out[perm])
            require(gap <= bound, f"{name} block without mask: f(PX) - P f(X) = {gap:.3e} > "
                                  f"{bound:.3e} (n = {n}, d = {d}, h = {h})")
            worst[0] = max(worst[0], gap / bound)
            bound = block_error_bound(x, p, post)[0] + block_error_bound(later, p, post)[0]
            before = block(x, p, causal=True, activation=activation)[: i + 1]
            after = block(later, p, causal=True, activation=activation)[: i + 1]
            gap = frobenius(after - before)
            require(gap <= bound, f"causal {name} block: rows 1..{i + 1} moved by {gap:.3e} "
                                  f"when rows after {i + 1} changed")
            worst[1] = max(worst[1], gap)

    blocks()
    evidence = [f"Pre-LN and Post-LN blocks without mask: f(PX) = P f(X) within the rounding "
                f"bound (worst gap / bound = {worst[0]:.2e}); with the causal mask rows 1..i "
                f"do not move when later rows change (max {worst[1]:.1e})"]

    @scaled(0.5)
    @given(model_cases(), st.data())
    def models(case, data):
        config, rng, params, tokens = case
        n = len(tokens)
        i = data.draw(st.integers(1, n))
        logits = model(tokens, params, config)
        full = model_error_bound(tokens, params, config)
        changed = tokens.copy()
        changed[i:] = rng.integers(0, config.vocab, n - i)
        gap = frobenius(model(changed, params, config)[:i] - logits[:i])
        bound = full + model_error_bound(changed, params, config)
        require(gap <= bound, f"logits 1..{i} moved by {gap:.3e} when tokens after {i} "
                              f"changed ({config})")
        worst[2] = max(worst[2], gap)
        for k in range(1, n + 1):
            prefix = model(tokens[:k], params, config)[-1]
            bound = full + model_error_bound(tokens[:k], params, config)
            gap = frobenius(prefix - logits[k - 1])
            require(gap <= bound, f"logits of the prefix 1..{k} differ from row {k} by "
                                  f"{gap:.3e} > {bound:.3e}")
            worst[3] = max(worst[3], gap / bound)
        for chunks in ([1] * n, [i, n - i]):
            gap = frobenius(decoded_in_chunks(decoder, params, config, tokens, chunks) - logits)
            require(gap <= 2 * full, f"the KV-cache decoder fed in chunks {chunks} differs "
                                     f"from forward by {gap:.3e} > {2 * full:.3e}")
            worst[3] = max(worst[3], gap / (2 * full))

    models()
    evidence.append(f"the model: logits 1..i do not move when later tokens change (max "
                    f"{worst[2]:.1e}); every prefix's last logits and the KV-cache decoder "
                    f"(one token at a time, two chunks) equal the full pass (worst gap / "
                    f"bound = {worst[3]:.2e})")
    rng = np.random.default_rng(0)
    p = block_parameters(4, 2, 8, rng)
    x = rng.standard_normal((4, 4))
    later = x.copy()
    later[3] = rng.standard_normal(4)  # (adding a constant would not do: LN_1 removes it)
    gap = float(np.abs(pre_ln(later, p, causal=False)[0] - pre_ln(x, p, causal=False)[0]).max())
    require(gap > block_error_bound(x, p)[0] + block_error_bound(later, p)[0],
            "witness lost: without the mask the first row did not react to the last")
    evidence.append(f"witness: without the mask, changing row 4 moves row 1 by {gap:.2e}")
    return evidence


# 命題 8.1 ----------------------------------------------------------------------------


def _affine_piece(x: np.ndarray, ff: Mapping) -> np.ndarray:
    """W_2^T D_s (W_1^T x + b_1) + b_2 with s = 1[a(x) > 0]: the affine map of x's region."""
    a = x @ ff["w_1"] + ff["b_1"]  # (n, d_ff)
    return ((a > 0) * a) @ ff["w_2"] + ff["b_2"]


@element("prop-relu-piecewise-linear", "命題 8.1", "ReLU の MLP は区分線形", CHAPTER, "proposition",
         ("symbolic", "numeric", "witness"))
def prop_relu_piecewise_linear(
    relu_network: Callable = lambda x, p: mlp(x, p, "relu"),
    smooth: Callable = gelu,
    derivatives: Callable = symbolic_gelu.derivatives,
    stated_second: Callable = symbolic_gelu.chapter_second,
    example: Mapping = RELU_EXAMPLE,
) -> list[str]:
    """(1) The ReLU MLP is affine on each of at most 2^{d_ff} convex regions R_s; (2) GELU is
    smooth, GELU'' = (2 - t^2) phi(t), and GELU is affine on no open interval. Numeric, on
    Hypothesis-drawn MLPs (d = 1..4, d_ff = 1..6) and points: `relu_network` equals the
    affine map W_2^T D_s (W_1^T x + b_1) + b_2 of the point's pattern s within the two
    evaluations' gamma-bounds. Exact: the chapter's example (normals (1, 0), (0, 1),
    (1, 1), offsets 0, 0, -1) has exactly the stated patterns, every one of the 8
    decided by Fourier-Motzkin elimination over the rationals (not a grid); on
    Hypothesis-drawn integer arrangements (d = 1..3, m = 1..5 hyperplanes) the non-empty
    regions number at most 2^m, and exactly sum_{i<=d} C(m, i) when the arrangement is
    in general position (decided exactly). Symbolic: `derivatives` of t Phi(t) give
    GELU'' = `stated_second`, whose real zeros are {-sqrt 2, sqrt 2} only. Witness for
    every Hypothesis-drawn interval (a, a + w), a in [-8, 4], w in [0.05, 2]: three points
    in it where the second difference of `smooth` exceeds its rounding bound, so `smooth`
    is affine on no such interval. The domain stops at 6 because float64 cannot see the
    curvature further right: GELU(t) = t to within an ulp for t >= 8 (there the symbolic
    GELU'' != 0 is the proof)."""
    evidence = []
    worst = [0.0]

    @scaled(1.0)
    @given(st.integers(1, 4), st.integers(1, 6), _seeds())
    def affine_on_regions(d, d_ff, seed):
        rng = np.random.default_rng(seed)
        ff = {"w_1": rng.standard_normal((d, d_ff)), "b_1": rng.standard_normal(d_ff),
              "w_2": rng.standard_normal((d_ff, d)), "b_2": rng.standard_normal(d)}
        x = 2 * rng.standard_normal((8, d))
        got, want = relu_network(x, ff), _affine_piece(x, ff)
        a = np.abs(x) @ np.abs(ff["w_1"]) + np.abs(ff["b_1"])  # (8, d_ff)
        bound = 2 * (gamma(d + 1) * a @ np.abs(ff["w_2"])
                     + gamma(d_ff + 1) * (a @ np.abs(ff["w_2"]) + np.abs(ff["b_2"])))
        require(bool(np.all(np.abs(got - want) <= bound)),
                f"the ReLU MLP differs from its region's affine map by "
                f"{np.abs(got - want).max():.3e} (d = {d}, d_ff = {d_ff})")
        worst[0] = max(worst[0], float(np.abs(got - want).max()))

    affine_on_regions()
    evidence.append(f"the ReLU MLP equals W_2^T D_s (W_1^T x + b_1) + b_2 on the region of "
                    f"every drawn point (max gap {worst[0]:.1e})")
    patterns = activation_regions(example["w_1"], example["b_1"])
    everything = ["".join(p) for p in itertools.product("01", repeat=len(example["b_1"]))]
    missing = sorted(set(everything) - set(patterns))
    require(len(patterns) == example["patterns"] and tuple(missing) == tuple(example["missing"]),
            f"the example has {len(patterns)} non-empty regions (missing {missing}), stated "
            f"{example['patterns']} (missing {list(example['missing'])})")
    on_grid = grid_activation_patterns(example["w_1"], example["b_1"])  # the listing's grid
    require(on_grid == patterns, f"the listing's grid finds {on_grid}, the exact count {patterns}")
    m, d = len(example["b_1"]), len(example["w_1"][0])
    require(general_position(example["w_1"], example["b_1"])
            and len(patterns) == region_bound(m, d),
            f"the example's {m} lines are not in general position with {region_bound(m, d)} "
            "regions")
    evidence.append(f"the chapter's example, exactly: {len(patterns)} of {len(everything)} "
                    f"patterns {patterns}; {missing} is infeasible; the {m} lines are in "
                    f"general position, and sum_(i<={d}) C({m}, i) = {region_bound(m, d)}; the "
                    f"listing's 601 x 601 grid on [-3, 3]^2 finds the same {len(on_grid)}")
    counted = [0, 0]

    @scaled(1.0)
    @given(st.integers(1, 3), st.integers(1, 5), _seeds())
    def arrangements(d, m, seed):
        rng = np.random.default_rng(seed)
        w_1 = rng.integers(-4, 5, (m, d)).tolist()
        b_1 = rng.integers(-4, 5, m).tolist()
        count = len(activation_regions(w_1, b_1))
        require(count <= 2**m, f"{count} regions > 2^{m}")
        if general_position(w_1, b_1):
            require(count == region_bound(m, d),
                    f"{count} regions for {m} hyperplanes in general position in R^{d}, not "
                    f"{region_bound(m, d)}")
            counted[0] += 1
        else:
            counted[1] += 1

    arrangements()
    evidence.append(f"drawn integer arrangements: regions <= 2^m always; = sum_(i<=d) C(m, i) "
                    f"on the {counted[0]} in general position ({counted[1]} others)")
    first, second = derivatives()
    t = symbolic_gelu.t
    require(is_zero(first - symbolic_gelu.chapter_first(t)),
            f"GELU' = {first}, not Phi + t phi")
    require(is_zero(second - stated_second(t)), f"GELU'' = {second}, stated {stated_second(t)}")
    zeros = symbolic_gelu.second_derivative_zeros(stated_second)
    require(zeros == {-sympy.sqrt(2), sympy.sqrt(2)},
            f"the real zeros of GELU'' are {zeros}")
    evidence.append(f"GELU' = {first}, GELU'' = {second} = (2 - t^2) phi(t), zero only at "
                    f"t = +-sqrt 2, so GELU is affine on no open interval")
    smallest = [math.inf]

    @scaled(1.0)
    @given(st.floats(-8, 4), st.floats(0.05, 2))
    def nowhere_affine(a, w):
        # the half of (a, a + w) farther from +-sqrt 2, where GELU'' is bounded away from 0
        halves = ((a, a + w / 2), (a + w / 2, a + w))
        lo, hi = max(halves, key=lambda iv: min(abs(abs((iv[0] + iv[1]) / 2) - math.sqrt(2)),
                                                10))
        h = (hi - lo) / 4
        f = smooth(np.array([lo + h, lo + 2 * h, lo + 3 * h]))
        second = float(f[0] - 2 * f[1] + f[2])
        bound = 8 * U * float(np.abs(f).sum() + np.abs(f[1]))  # a few ulps each, 2 sums
        require(abs(second) > bound, f"the second difference on ({a}, {a + w}) is {second:.3e}"
                                     f" <= rounding {bound:.3e}: affine there")
        smallest[0] = min(smallest[0], abs(second) / bound)

    nowhere_affine()
    evidence.append(f"witness: on every drawn interval the second difference exceeds its "
                    f"rounding bound (smallest ratio {smallest[0]:.1e})")
    return evidence


# 注意 8.2 ----------------------------------------------------------------------------


@element("rem-out-of-scope", "注意 8.2", "この章で扱わなかったこと", CHAPTER, "remark",
         ("not a theorem", "witness"))
def rem_out_of_scope(table: tuple[Architecture, ...] = ARCHITECTURES,
                     model: Callable = forward) -> list[str]:
    """Not a theorem: universal approximation, dropout and initialisation, and the
    encoder-decoder model are outside the chapter. The remark's table (encoder layer,
    decoder layer of the encoder-decoder model, decoder-only layer) is kept as data
    (`ARCHITECTURES`) and checked for consistency: each layer's count of parts is its
    self-attention, its cross-attention if any and its MLP; the decoder-only column
    matches the package's model, whose blocks declare one attention and one MLP and no
    cross-attention (spec.parameters), and whose attention is causal (changing the last
    token leaves the other logits unchanged, seed 0); cross-attention (keys and values
    from another sequence of length m != n) is available as attention with a context."""
    evidence = []
    for column in table:
        parts = 1 + int(column.cross_attention) + int(column.mlp)
        require(parts == column.parts, f"{column.name}: {column.parts} parts listed, but "
                                       f"self-attention, cross-attention and MLP make {parts}")
        evidence.append(f"{column.name}: mask {column.self_attention_mask}, cross-attention "
                        f"{'yes' if column.cross_attention else 'no'}, MLP "
                        f"{'yes' if column.mlp else 'no'}, {column.parts} parts")
    ours = table[-1]
    groups = {p.name.split(".")[1] for p in spec.model_parameters() if p.per_layer}
    require(groups == {"ln_1", "attn", "ln_2", "mlp"},
            f"the model's blocks declare the groups {sorted(groups)}")
    require(ours.self_attention_mask == "causal" and not ours.cross_attention and ours.mlp,
            f"the decoder-only column says {ours}, but the package's model has a causal "
            "self-attention, no cross-attention and an MLP")
    config = spec.ModelConfig(vocab=6, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=4)
    params = init_parameters(config, np.random.default_rng(0))
    tokens = np.array([1, 2, 3, 4])
    changed = np.array([1, 2, 3, 5])
    require(bool(np.array_equal(model(tokens, params, config)[:3],
                                model(changed, params, config)[:3])),
            "the package's model is not causal")
    rng = np.random.default_rng(0)
    attn = sub_parameters(block_parameters(4, 2, 8, rng), "attn")
    out, weights = multi_head_attention(rng.standard_normal((3, 4)), attn,
                                        context=rng.standard_normal((5, 4)))
    require(out.shape == (3, 4) and weights.shape == (2, 3, 5),
            f"cross-attention gave shapes {out.shape}, {weights.shape}")
    evidence.append("the decoder-only column is the package's model (causal, one attention "
                    "and one MLP per block, no cross-attention); cross-attention with n = 3 "
                    "queries and m = 5 keys gives weights (2, 3, 5)")
    return evidence


# 演習 11.1 ---------------------------------------------------------------------------


@element("exr-parameter-count", "演習 11.1", "小さなモデルのパラメータ数と埋め込みの割合", CHAPTER,
         "exercise", ("symbolic", "numeric"))
def exr_parameter_count(stated: Mapping = EXERCISE_11_1,
                        allocate: Callable = init_parameters) -> list[str]:
    """|V| = 1000, d = 64, L = 4, d_ff = 4d, L_ctx = 128: the parts (embeddings, positions,
    one layer 12d^2 + 13d, four layers, the final LayerNorm) and the total from the
    polynomials, against the stated solution; the arrays of a real model (`allocate`,
    h = 4) number the same; the embeddings' share against the printed percentage."""
    parts = _parts(stated["sizes"])
    for name, value in stated["parts"].items():
        require(parts[name] == value, f"{name}: computed {parts[name]:,}, stated {value:,}")
    require(parts["total"] == stated["total"], f"total: computed {parts['total']:,}, stated "
                                               f"{stated['total']:,}")
    sizes = stated["sizes"]
    config = spec.ModelConfig(vocab=sizes["vocab"], d=sizes["d"], n_layer=sizes["n_layer"],
                              n_head=4, d_ff=4 * sizes["d"], n_ctx=sizes["n_ctx"])
    allocated = parameter_count(allocate(config, np.random.default_rng(0)))
    require(allocated == parts["total"], f"a real model has {allocated:,} parameters")
    share = parts["embeddings"] / parts["total"]
    require(stated["embedding_share"].agrees(share),
            f"the embeddings' share is {share:.4f}, printed {stated['embedding_share'].value}")
    return [f"total {parts['total']:,} = {parts['embeddings']:,} + {parts['positions']:,} + "
            f"{parts['layers']:,} + {parts['final_layer_norm']:,}; a real model's arrays "
            f"number {allocated:,}", f"embeddings' share {share:.4f} ≈ {share:.1%}"]


# 演習 11.2 ---------------------------------------------------------------------------


def _stated_affine_moments(d, g, b):
    """演習 11.2's answer: mean b, variance g^2, norm sqrt(d (g^2 + b^2))."""
    return b, g**2, sympy.sqrt(d * (g**2 + b**2))


def _same_moment(name: str, value, expected) -> bool:
    """Equal moments; two norms (square roots, so both >= 0) are equal iff their squares are."""
    if name == "norm":
        return equal(sympy.expand(value**2), sympy.expand(expected**2))
    return equal(value, expected)


@element("exr-layer-norm-affine", "演習 11.2", "γ = g1、β = b1 の層正規化の平均・分散・ノルム",
         CHAPTER, "exercise", ("symbolic", "numeric", "witness"))
def exr_layer_norm_affine(stated: Callable = _stated_affine_moments,
                          normalise: Callable = layer_norm,
                          widths: tuple[int, ...] = (2, 3)) -> list[str]:
    """gamma = g1 (g > 0), beta = b1, eps = 0: the output has mean b, variance g^2 and norm
    sqrt(d (g^2 + b^2)); 命題 3.1 (1) holds for any gamma, beta, (2) does not. Symbolic:
    the moments for symbolic d (symbolic.layer_norm.moments_general) and for d in `widths`
    explicitly equal `stated` (norms by their squares, both being square roots);
    LN_{gamma,beta}(a x + c 1) - LN_{gamma,beta}(x) reduces to 0
    for symbolic vectors gamma, beta (d in `widths`). Numeric, on Hypothesis-drawn rows
    (d = 2..16, entries in [-100, 100], sigma >= 1e-3 max|x|), g in (0, 10], b in
    [-10, 10]: the three moments within their rounding bounds; invariance for drawn
    gamma, beta. Witness: gamma = (1, 2, ..., d) gives a variance far from 1 (seed 0)."""
    evidence = []
    g, b = sympy.Symbol("g", positive=True), sympy.Symbol("b", real=True)
    general = symbolic_layer_norm.moments_general()
    want = stated(sym.d, g, b)
    got = (general.mean, general.variance, general.norm)
    for name, value, expected in zip(("mean", "variance", "norm"), got, want, strict=True):
        value = value.subs(sympy.Symbol("g", real=True), g)
        require(_same_moment(name, value, expected),
                f"symbolic d: the {name} is {sympy.simplify(value)}, stated {expected}")
    for d in widths:
        m = symbolic_layer_norm.moments(d, g, b)
        for name, value, expected in zip(("mean", "variance", "norm"),
                                         (m.mean, m.variance, m.norm), stated(d, g, b),
                                         strict=True):
            require(_same_moment(name, value, expected),
                    f"d = {d}: the {name} is {value}, stated {expected}")
        x = symbolic_layer_norm.variables(d)
        gains = sympy.Matrix(sympy.symbols(f"gamma_1:{d + 1}", real=True))
        shifts = sympy.Matrix(sympy.symbols(f"beta_1:{d + 1}", real=True))
        a, c = sympy.Symbol("a", positive=True), sympy.Symbol("c", real=True)
        moved = symbolic_layer_norm.layer_norm(a * x + c * sympy.ones(d, 1), 0, gains, shifts)
        diff = moved - symbolic_layer_norm.layer_norm(x, 0, gains, shifts)
        require(is_zero(diff),
                f"d = {d}: LN_(gamma, beta)(a x + c 1) != LN_(gamma, beta)(x)")
    evidence.append(f"symbolic d and d = {', '.join(map(str, widths))}: mean b, variance g^2, "
                    f"norm sqrt(d (g^2 + b^2)); invariance for symbolic gamma, beta")
    worst = [0.0]

    @scaled(1.0)
    @given(vectors(), st.floats(1e-3, 10), st.floats(-10, 10), _seeds())
    def moments_hold(x, gain, shift, seed):
        d = x.size
        y = normalise(x, np.full(d, gain), np.full(d, shift), eps=0.0)
        mean_, var_, norm_ = (float(v) for v in stated(d, gain, shift))
        err = float(layer_norm_error_bound(x, np.full(d, gain), np.full(d, shift)).max())
        scale = gain * math.sqrt(d) + abs(shift)  # max |y_j|
        bounds = (err + gamma(d + 1) * scale,
                  2 * gain * math.sqrt(d) * err + err * err + gamma(d + 3) * scale**2,
                  math.sqrt(d) * err + gamma(d + 2) * math.sqrt(d) * scale)
        gaps = (abs(y.mean() - mean_), abs(y.var() - var_), abs(np.linalg.norm(y) - norm_))
        require(all(gp <= bd for gp, bd in zip(gaps, bounds, strict=True)),
                f"moments of LN with gamma = {gain} 1, beta = {shift} 1 differ from the stated "
                f"ones by {gaps} > {bounds} at x = {x.tolist()}")
        worst[0] = max(worst[0], max(gp / bd for gp, bd in zip(gaps, bounds, strict=True)))
        rng = np.random.default_rng(seed)
        gains, shifts = rng.standard_normal(d), rng.standard_normal(d)
        offset = 7.0 * x.std()  # a shift in units of sigma keeps a x + b well conditioned
        moved = 2.5 * x - offset
        bound = (layer_norm_error_bound(x, gains, shifts)
                 + layer_norm_error_bound(moved, gains, shifts)
                 + np.abs(gains) * math.sqrt(d) * 2 * U * (2.5 * np.abs(x).max() + offset)
                 / (2.5 * x.std()))
        gap = np.abs(normalise(moved, gains, shifts, eps=0.0) - normalise(x, gains, shifts,
                                                                          eps=0.0))
        require(bool(np.all(gap <= bound)), f"invariance fails for gamma = {gains}, "
                                            f"beta = {shifts}: gap {gap.max():.3e}")

    moments_hold()
    evidence.append(f"numeric: the moments within their rounding bounds (worst gap / bound = "
                    f"{worst[0]:.2e}); invariance for drawn gamma, beta")
    x = np.random.default_rng(0).standard_normal(6)
    y = normalise(x, np.arange(1.0, 7.0), np.zeros(6), eps=0.0)
    require(abs(y.var() - 1) > 0.5, "witness lost: gamma = (1..6) kept the variance at 1")
    evidence.append(f"witness: gamma = (1, ..., 6), beta = 0 gives mean {y.mean():.3f} and "
                    f"variance {y.var():.3f}, so 命題 3.1 (2) fails for general gamma")
    return evidence


# 演習 11.3 ---------------------------------------------------------------------------

# The chapter's 8 terms of (I + J_3)(I + J_2)(I + J_1), each as the indices of its factors
# from left to right (() is I).
EXPANSION_TERMS = ((), (1,), (2,), (3,), (2, 1), (3, 1), (3, 2), (3, 2, 1))


def _factor_indices(term: sympy.Expr) -> tuple[int, ...]:
    """The indices k of the J_k in a non-commutative product, left to right (I has none)."""
    out = []
    for factor in sympy.Mul.make_args(term):
        base, power = factor.as_base_exp()
        name = str(base)
        if name.startswith("J"):
            out += [int(re.search(r"\d+", name).group())] * int(power)
    return tuple(out)


def _term_name(indices: tuple[int, ...]) -> str:
    return "".join(f"J_{k}" for k in indices) or "I"


def _no_residual_step(x: np.ndarray, g: Callable) -> np.ndarray:
    return g(x)


@element("exr-residual-expansion", "演習 11.3", "3 段の展開の 8 項", CHAPTER, "exercise",
         ("symbolic", "numeric", "witness"))
def exr_residual_expansion(stated: tuple = EXPANSION_TERMS,
                           pre_ln_product: Callable = residual.pre_ln_product,
                           step: Callable = _no_residual_step) -> list[str]:
    """(I + J_3)(I + J_2)(I + J_1) = I + J_1 + J_2 + J_3 + J_2J_1 + J_3J_1 + J_3J_2 + J_3J_2J_1,
    and without residuals only J_3J_2J_1 remains. Symbolic: symbolic.residual expands the
    product in non-commutative symbols; its terms are exactly the stated ones, in the
    stated order of factors. Numeric, on the package's model (first three sublayers
    MHA o LN_1, MLP o LN_2, MHA o LN_1 of its Pre-LN blocks, n = 3, d = 4, seed 0): the
    central-difference Jacobian of G_3 o G_2 o G_1 (`step` = no residual) equals J_3 J_2 J_1
    of the central differences at the chain's own points, within the propagated error
    bounds; witness: it differs from (I + J_3)(I + J_2)(I + J_1) by far more."""
    expansion = residual.expand_product(pre_ln_product(3, 0))
    got = sorted(_factor_indices(term) for term in expansion.terms)
    require(got == sorted(stated), f"the expansion has the terms {got}, stated {sorted(stated)}")
    evidence = [f"symbolic: the 8 terms {', '.join(_term_name(t) for t in stated)}"]
    chain = residual_jacobians(step=step, depth=3, identity=False)
    start, direct, product, bound = chain["stages"][0]
    gap = float(np.abs(direct - product).max())
    require(gap <= bound, f"the chain's Jacobian differs from J_3 J_2 J_1 by {gap:.3e} > "
                          f"{bound:.3e}")
    with_identity = residual_jacobians(step=step, depth=3, identity=True)["stages"][0]
    missing = float(np.abs(direct - with_identity[2]).max())
    require(missing > with_identity[3], "without residuals the Jacobian still equals "
                                        "(I + J_3)(I + J_2)(I + J_1)")
    evidence.append(f"numeric: without residuals d x_3 / d x_0 = J_3 J_2 J_1 (gap {gap:.1e} <= "
                    f"bound {bound:.1e}); it differs from (I + J_3)(I + J_2)(I + J_1) by "
                    f"{missing:.2f}")
    return evidence


# 演習 11.4 ---------------------------------------------------------------------------


def _stated_doubling():
    """演習 11.4: T(2n)/T(n) = (12d + 4n)/(6d + n) for T = 12nd^2 + 2n^2 d."""
    return (12 * sym.d + 4 * sym.n) / (6 * sym.d + sym.n)


@element("exr-doubling-ratio", "演習 11.4", "n を 2 倍にしたときの比", CHAPTER, "exercise",
         ("symbolic", "numeric"))
def exr_doubling_ratio(stated: Callable = _stated_doubling, block: Callable = pre_ln_block,
                       printed: Mapping = DOUBLING) -> list[str]:
    """T(n) = 12nd^2 + 2n^2 d (the block polynomial of symbolic.counts at d_ff = 4d):
    T(2n)/T(n), cancelled by symbolic.counts.doubling_ratio, equals `stated`; at n = d,
    6d, 60d it is the exact rational 16/7, 3, 42/11, compared with the printed 2.29, 3,
    3.82; it tends to 2 as n -> 0 and to 4 as n -> oo. Numeric: the multiplications a real
    `block` performs at n and 2n (d = 8, h = 2, d_ff = 32, n = d, 6d), counted from the
    actual operand shapes, have exactly that ratio (exact fractions)."""
    t = sympy.expand(counts.block_multiplications(BLOCK, width=4 * sym.d))
    ratio = sympy.cancel(counts.doubling_ratio(t, sym.n))
    require(is_zero(sympy.cancel(ratio - stated())), f"T(2n)/T(n) = {ratio}, stated {stated()}")
    evidence = [f"T(2n)/T(n) = {ratio}"]
    exact = []
    for multiple, shown in zip(printed["multiples"], printed["ratios"], strict=True):
        value = sympy.nsimplify(ratio.subs(sym.n, multiple * sym.d))
        require(shown.agrees(float(value)), f"n = {multiple}d: {value} = {float(value):.4f}, "
                                            f"printed {shown.value}")
        exact.append(f"n = {multiple}d: {value} = {float(value):.4f}")
    limits = (sympy.limit(ratio, sym.n, 0), sympy.limit(ratio, sym.n, sympy.oo))
    require(limits == (2, 4), f"the ratio tends to {limits} as n -> 0, oo")
    evidence.append("; ".join(exact) + "; limits 2 (n -> 0) and 4 (n -> oo)")
    d, h, d_ff = 8, 2, 32
    rng = np.random.default_rng(0)
    p = block_parameters(d, h, d_ff, rng)
    for multiple in (1, 6):
        n = multiple * d
        small = sum(_counted(lambda n=n: block(rng.standard_normal((n, d)), p)).values())
        large = sum(_counted(lambda n=n: block(rng.standard_normal((2 * n, d)), p)).values())
        want = ratio.subs({sym.n: n, sym.d: d})
        require(Fraction(large, small) == Fraction(int(want.p), int(want.q)),
                f"counted T(2n)/T(n) = {Fraction(large, small)} at n = {n}, d = {d}; "
                f"the formula gives {want}")
        evidence.append(f"counted at d = {d}, n = {n}: {large:,} / {small:,} = "
                        f"{Fraction(large, small)}")
    return evidence
