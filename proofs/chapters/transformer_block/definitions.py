"""§2 準備: LayerNorm (定義 2.1), residual connection, MLP and blocks (定義 2.2), the decoder-only
model (定義 2.3)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import mpmath
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import spec
from numeric.activations import ACTIVATIONS, gelu, relu
from numeric.attention import multi_head_attention
from numeric.block import post_ln_block, pre_ln_block
from numeric.error_bounds import (
    GELU_SLOPE,
    activation_rounding,
    gamma,
    layer_norm_error_bound,
)
from numeric.layer_norm import layer_norm
from numeric.mlp import mlp
from numeric.model import embed, forward, init_parameters, sub_parameters
from numeric.running_error import block_rounding_bound, model_rounding_bound
from proofs.book.claims import Claim
from proofs.book.judge import CheckFailed, Verdict, judge_cases, judge_within, require, weigh
from proofs.book.profiles import scaled
from proofs.chapters.transformer_block.chapter import CHAPTER
from proofs.chapters.transformer_block.strategies import (
    block_parameters,
    model_cases,
    seeds,
    vectors,
)
from proofs.evidence.anchors import layer_norm_off_definition
from proofs.evidence.reference import mp_error, mp_gelu


@CHAPTER.element(
    "def-layer-norm",
    "定義 2.1",
    "層正規化",
    "definition",
    ("numeric", "high precision"),
    claims=(
        Claim(r"\varepsilon = 0"),
        Claim(r"\mu(\boldsymbol{x}) := \frac{1}{d}\sum_{j=1}^{d} x_j"),
        Claim(
            r"\sigma^2(\boldsymbol{x}) := \frac{1}{d}\sum_{j=1}^{d}\big(x_j - "
            r"\mu(\boldsymbol{x})\big)^2",
        ),
        Claim(
            r"\mathrm{LN}(\boldsymbol{x}) := \boldsymbol{\gamma} \odot "
            r"\frac{\boldsymbol{x} - "
            r"\mu(\boldsymbol{x})\boldsymbol{1}}{\sqrt{\sigma^2(\boldsymbol{x}) + "
            r"\varepsilon}} + \boldsymbol{\beta}",
        ),
        Claim(r"\varepsilon \ge 0"),
        Claim(r"\sigma^2(\boldsymbol{x}) > 0"),
    ),
)
def def_layer_norm(normalise: Callable = layer_norm) -> list[str]:
    """LN(x) = gamma * (x - mu 1) / sqrt(sigma^2 + eps) + beta with the biased variance
    (division by d), row by row. Numeric: `normalise` against the definition evaluated by
    mpmath at 50 digits on Hypothesis-drawn rows (d = 2..16, entries in [-100, 100],
    sigma >= 1e-3 max|x|), gamma = 1 + N(0, 1), beta = N(0, 1), eps in {0, 1e-5, 1};
    tolerance: the rounding bound `layer_norm_error_bound` (gamma_{d+2} times the
    condition max|x| / sigma). A matrix is normalised row by row (each row within the
    same bound). Outside the domain: a constant row with eps = 0 (undefined) must be a
    ValueError, and with eps > 0 it gives beta."""
    defined: list[Verdict] = []
    row_by_row: list[Verdict] = []

    @scaled(1.0)
    @given(vectors(), seeds(), st.sampled_from([0.0, 1e-5, 1.0]))
    def matches_definition(x, seed, eps):
        rng = np.random.default_rng(seed)
        d = x.size
        gain, shift = 1 + rng.standard_normal(d), rng.standard_normal(d)
        defined.append(
            weigh(
                *layer_norm_off_definition(normalise, x, gain, shift, eps),
                f"x = {x.tolist()}, eps = {eps}",
            )
        )
        rows = np.stack([x, x[::-1], -2 * x])  # (3, d)
        each = np.stack([normalise(row, gain, shift, eps=eps) for row in rows])
        bound = np.stack([2 * layer_norm_error_bound(row, gain, shift, eps) for row in rows])
        row_by_row.append(
            weigh(
                normalise(rows, gain, shift, eps=eps) - each,
                bound,
                f"rows x, reversed x, -2 x for x = {x.tolist()}, eps = {eps}",
            )
        )

    matches_definition()
    definition = judge_cases(defined, "LN(x) against the definition")
    rows = judge_cases(row_by_row, "row i of LN(X) against LN of row i (at [i, j])")
    evidence = [
        f"LN equals the definition at 50 digits to within its rounding bound (worst error / "
        f"bound = {definition.ratio:.2e}) on drawn rows, d = 2..16, eps in {{0, 1e-5, 1}}",
        f"a matrix is normalised row by row (max gap {rows.largest:.1e})",
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
    require(
        bool(np.array_equal(out, shift)), f"LN of a constant row with eps > 0 is {out}, not beta"
    )
    evidence.append("a constant row with eps = 1e-5 gives beta exactly")
    return evidence


def _pre_ln_composed(x, p, causal, activation, eps):
    """定義 2.2's Pre-LN formula composed from the parts: Y = X + MHA(LN_1(X)),
    X' = Y + MLP(LN_2(Y))."""
    ln_1, ln_2 = sub_parameters(p, "ln_1"), sub_parameters(p, "ln_2")
    y = (
        x
        + multi_head_attention(
            layer_norm(x, ln_1["gamma"], ln_1["beta"], eps),
            sub_parameters(p, "attn"),
            causal=causal,
        )[0]
    )
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
    return {
        k: (np.zeros_like(v) if k in ("attn.w_o", "attn.b_o", "mlp.w_2", "mlp.b_2") else v)
        for k, v in p.items()
    }


@CHAPTER.element(
    "def-transformer-block",
    "定義 2.2",
    "残差接続・位置ごとの MLP・ブロック",
    "definition",
    ("numeric", "high precision"),
    claims=(
        Claim(r"d = 512"),
        Claim(r"d_{\mathrm{ff}} = 2048 = 4d"),
        Claim(
            r"\mathrm{MLP}(X) := \phi\big(XW_1 + "
            r"\boldsymbol{1}\boldsymbol{b}_1^{\mathsf{T}}\big)W_2 + "
            r"\boldsymbol{1}\boldsymbol{b}_2^{\mathsf{T}}",
        ),
        Claim(
            r"g(\boldsymbol{x}_i) := "
            r"W_2^{\mathsf{T}}\phi(W_1^{\mathsf{T}}\boldsymbol{x}_i + "
            r"\boldsymbol{b}_1) + \boldsymbol{b}_2",
        ),
        Claim(r"\mathrm{ReLU}(t) := \max(0, t)"),
        Claim(r"\mathrm{GELU}(t) := t\,\Phi(t)"),
        Claim(r"X' = \mathrm{LN}_2\big(Y + \mathrm{MLP}(Y)\big)"),
        Claim(r"X' = Y + \mathrm{MLP}\big(\mathrm{LN}_2(Y)\big)"),
        Claim(r"Y = \mathrm{LN}_1\big(X + \mathrm{MHA}(X)\big)"),
        Claim(r"Y = X + \mathrm{MHA}\big(\mathrm{LN}_1(X)\big)"),
    ),
)
def def_transformer_block(
    pre_ln: Callable = pre_ln_block,
    post_ln: Callable = post_ln_block,
    network: Callable = mlp,
    relu: Callable = relu,
    gelu: Callable = gelu,
) -> list[str]:
    """The parts and the two blocks as defined. MLP: row i of MLP(X) is
    g(x_i) = W_2^T phi(W_1^T x_i + b_1) + b_2, with phi = `relu` (max(0, t)) or `gelu`
    (t Phi(t), against mpmath's erfc at 30 digits); the ReLU MLP exactly, the GELU one
    within gamma-bounds of the two products. Blocks (causal and not, ReLU and GELU,
    drawn n = 1..5, d in {2, 4, 6}, h | d, d_ff = 1..8): `pre_ln` and `post_ln` equal the
    compositions X + MHA(LN_1(X)), Y + MLP(LN_2(Y)) and LN_1(X + MHA(X)),
    LN_2(Y + MLP(Y)) of the package's parts entry by entry within twice the first-order
    rounding bound `block_rounding_bound` (each stage's rounding carried through the exact
    Jacobians of the later stages).
    Exact witnesses of the residual connection: with MHA = MLP = 0 (W_O, b_O, W_2, b_2
    set to 0) the Pre-LN block is the identity bit for bit, the Post-LN block is
    LN_2(LN_1(X))."""
    evidence = []
    rows_mapped: list[Verdict] = []
    pre_blocks: list[Verdict] = []
    post_blocks: list[Verdict] = []

    @scaled(1.0)
    @given(
        st.integers(1, 5),
        st.sampled_from([(2, 1), (2, 2), (4, 2), (6, 3)]),
        st.integers(1, 8),
        seeds(),
        st.booleans(),
        st.sampled_from(["relu", "gelu"]),
    )
    def blocks_compose(n, dh, d_ff, seed, causal, activation):
        d, h = dh
        rng = np.random.default_rng(seed)
        p = block_parameters(d, h, d_ff, rng)
        x = rng.standard_normal((n, d))
        eps = 1e-5
        ff = sub_parameters(p, "mlp")
        rows = np.stack(
            [
                ff["w_2"].T @ ACTIVATIONS[activation](ff["w_1"].T @ x[i] + ff["b_1"]) + ff["b_2"]
                for i in range(n)
            ]
        )  # (n, d), g(x_i) row by row
        got = network(x, ff, activation)
        # the two evaluations differ by at most the rounding of the two products, each
        # gamma_k times |W_2|^T |phi| + |b_2| and |W_2|^T phi' |W_1|^T |x| (first order)
        width = max(d, d_ff) + 2
        pre = np.abs(x) @ np.abs(ff["w_1"]) + np.abs(ff["b_1"])
        bound = 2 * gamma(width) * (GELU_SLOPE * pre @ np.abs(ff["w_2"]) * 2 + np.abs(ff["b_2"]))
        rows_mapped.append(
            weigh(got - rows, bound, f"{activation}, n = {n}, d = {d}, d_ff = {d_ff}")
        )
        for post, block, composed, verdicts in (
            (False, pre_ln, _pre_ln_composed, pre_blocks),
            (True, post_ln, _post_ln_composed, post_blocks),
        ):
            _, rounding = block_rounding_bound(x, p, post, causal, activation, eps)  # (n, d)
            got = block(x, p, causal=causal, activation=activation, eps=eps)
            want = composed(x, p, causal, activation, eps)
            verdicts.append(
                weigh(got - want, 2 * rounding, f"n = {n}, d = {d}, h = {h}, causal = {causal}")
            )

    blocks_compose()
    mlp_rows = judge_cases(rows_mapped, "MLP row i against g(x_i)")
    pre = judge_cases(pre_blocks, "the Pre-LN block differs from its definition")
    post = judge_cases(post_blocks, "the Post-LN block differs from its definition")
    evidence.append(
        f"MLP(X) row i = W_2^T phi(W_1^T x_i + b_1) + b_2 (max gap "
        f"{mlp_rows.largest:.1e}) for ReLU and GELU"
    )
    evidence.append(
        f"Pre-LN and Post-LN blocks equal their defining compositions "
        f"(worst gap / bound = {max(pre.ratio, post.ratio):.2e})"
    )
    t = np.linspace(-6, 6, 25)
    require(bool(np.array_equal(relu(t), np.where(t > 0, t, 0.0))), "ReLU is not max(0, t)")
    with mpmath.workdps(30):
        err = mp_error(gelu(t), mp_gelu(t))
    # Phi to NDTR_ULPS ulps, and the product
    judged = judge_within(err, activation_rounding(t, "gelu"), "GELU against t Phi(t)")
    evidence.append(
        f"ReLU(t) = max(0, t) exactly; GELU(t) = t Phi(t) to {judged.largest:.1e} "
        "(mpmath, 30 digits) on [-6, 6]"
    )
    rng = np.random.default_rng(0)
    p = _silenced(block_parameters(4, 2, 8, rng))
    x = rng.standard_normal((3, 4))
    require(
        bool(np.array_equal(pre_ln(x, p), x)),
        "with MHA = MLP = 0 the Pre-LN block is not the identity: the residual is missing",
    )
    ln_1, ln_2 = sub_parameters(p, "ln_1"), sub_parameters(p, "ln_2")
    want = layer_norm(layer_norm(x, ln_1["gamma"], ln_1["beta"]), ln_2["gamma"], ln_2["beta"])
    require(
        bool(np.array_equal(post_ln(x, p), want)),
        "with MHA = MLP = 0 the Post-LN block is not LN_2(LN_1(X))",
    )
    evidence.append(
        "with MHA = MLP = 0: Pre-LN block = X and Post-LN block = LN_2(LN_1(X)), bit for bit"
    )
    return evidence


def _composed_logits(tokens, params, config) -> np.ndarray:
    """定義 2.3 step by step from the package's parts: X^(0) = E_t + P, the L causal Pre-LN
    blocks, Z = LN_f(X^(L)) E^T (or the separate output matrix when untied)."""
    eps = config.layer_norm_eps
    x = params["wte"][tokens] + (params["wpe"][: len(tokens)] if config.positions else 0.0)
    for layer in range(config.n_layer):
        x = pre_ln_block(
            x,
            sub_parameters(params, f"blocks.{layer}"),
            causal=True,
            activation=config.activation,
            eps=eps,
        )
    ln_f = sub_parameters(params, "ln_f")
    z = layer_norm(x, ln_f["gamma"], ln_f["beta"], eps)
    return z @ (params["wte"] if config.tied else params["lm_head"]).T


@CHAPTER.element(
    "def-decoder-only-transformer",
    "定義 2.3",
    "デコーダのみの Transformer",
    "definition",
    ("numeric", "witness"),
    claims=(
        Claim(
            r"Z := \mathrm{LN}_f\big(X^{(L)}\big)\,E^{\mathsf{T}} \in \mathbb{R}^{n "
            r"\times |V|}",
        ),
        Claim(r"n \le L_{\mathrm{ctx}}"),
        Claim(
            r"Z_{iv} = \langle \mathrm{LN}_f(\boldsymbol{x}^{(L)}_i), E_v\rangle",
            where="text",
        ),
    ),
)
def def_decoder_only_transformer(
    model: Callable = forward, embedding: Callable = embed
) -> list[str]:
    """Z = LN_f(X^(L)) E^T, X^(0) with rows E_{t_i} + P_i, X^(l) = the l-th causal Pre-LN
    block of X^(l-1). Numeric, on Hypothesis-drawn configurations (|V| = 2..12, d in
    {2, 4, 6}, h | d, L = 1..2, d_ff = 1..8, L_ctx = 1..8, with and without biases,
    tying and learned positions) and token sequences (1 <= n <= L_ctx): `embedding` is
    E_t + P (E_t without positions) exactly; `model` equals that composition of the
    package's parts within twice `model_rounding_bound` entry by entry (every stage's
    first-order rounding carried to the logits by the model's Jacobian). Bad input: a
    sequence longer than L_ctx, an id outside [0, |V|) and an empty sequence are
    ValueErrors.
    Witness: with learned positions X^(0) is not permutation-equivariant (reversing the
    tokens is not reversing the rows, seed 0), while without positions it is, exactly."""
    # the witness first: an embedding without positions fails it, one adding them when
    # there are none fails its second half, and E_t + P is then judged on drawn configurations
    config = spec.ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=4)
    params = init_parameters(config, np.random.default_rng(0))
    tokens = np.array([0, 1, 2, 3])
    x0, x0_reversed = embedding(tokens, params, config), embedding(tokens[::-1], params, config)
    gap = float(np.abs(x0_reversed - x0[::-1]).max())
    require(gap > 0, "with learned positions, reversing the tokens reversed the rows of X^(0)")
    unpositioned = spec.ModelConfig(
        vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=4, positions=False
    )
    plain = {k: v for k, v in params.items() if k != "wpe"}
    require(
        bool(
            np.array_equal(
                embedding(tokens[::-1], plain, unpositioned),
                embedding(tokens, plain, unpositioned)[::-1],
            )
        ),
        "without positions, reversing the tokens does not reverse the rows of X^(0)",
    )
    evidence = [
        f"witness: with learned positions X^(0)(reversed tokens) differs from the "
        f"reversed X^(0) by {gap:.3f} (not equivariant); without positions they are "
        f"equal bit for bit"
    ]
    models: list[Verdict] = []

    @scaled(0.5)
    @given(model_cases())
    def composes(case):
        config, _, params, tokens = case
        n = len(tokens)
        x0 = embedding(tokens, params, config)
        want = params["wte"][tokens] + (params["wpe"][:n] if config.positions else 0.0)
        require(bool(np.array_equal(x0, want)), f"X^(0) is not E_t + P ({config})")
        got = model(tokens, params, config)
        bound = 2 * model_rounding_bound(tokens, params, config)[1]  # (n, |V|)
        models.append(
            weigh(
                got - _composed_logits(tokens, params, config),
                bound,
                f"{config}, tokens {tokens.tolist()}",
            )
        )

    composes()
    judged = judge_cases(models, "the model differs from 定義 2.3's composition")
    evidence.append(
        f"X^(0) = E_t + P exactly, and the model equals LN_f(X^(L)) E^T of the "
        f"causal Pre-LN blocks (worst gap / bound = {judged.ratio:.2e}) on drawn "
        f"configurations with and without biases, tying and positions"
    )
    for bad, what in (
        ([0, 1, 2, 3, 4], "longer than L_ctx"),
        ([0, 5], "id out of range"),
        ([], "empty"),
    ):
        try:
            model(np.array(bad, dtype=int), params, config)
        except ValueError:
            continue
        raise CheckFailed(f"a token sequence {bad} ({what}) did not raise ValueError")
    evidence.append(
        "sequences longer than L_ctx, ids outside [0, |V|) and empty sequences are ValueErrors"
    )
    return evidence
