"""§7 同変性と因果性: row-wise maps (命題 7.1), equivariance and causality of blocks and model
(命題 7.2)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import spec
from numeric.block import post_ln_block, pre_ln_block
from numeric.kv_cache import Decoder
from numeric.layer_norm import layer_norm
from numeric.mlp import mlp
from numeric.model import forward, init_parameters, sub_parameters
from numeric.running_error import block_rounding_bound, model_rounding_bound
from proofs.book.claims import Claim
from proofs.book.judge import Verdict, judge_cases, judge_within, require, weigh
from proofs.book.profiles import scaled
from proofs.chapters.transformer_block.chapter import CHAPTER
from proofs.chapters.transformer_block.strategies import block_parameters, model_cases, seeds
from proofs.evidence.anchors import layer_norm_off_definition, mlp_off_definition
from proofs.evidence.measures import decoded_in_chunks
from proofs.evidence.remembered import by_content


@CHAPTER.element(
    "prop-row-wise-maps",
    "命題 7.1",
    "MLP と層正規化は位置の間で情報を混ぜない",
    "proposition",
    ("numeric",),
    claims=(
        Claim(r"i \ne j"),
        Claim("位置ごとの MLP と層正規化は行ごとに働く写像である", phrase=True),
        Claim("ヤコビ行列は 0 である", phrase=True),
    ),
)
def prop_row_wise_maps(
    network: Callable = mlp, normalise: Callable = layer_norm, model: Callable = forward
) -> list[str]:
    """MLP and LN act row by row: row i of the output is a function of row i of the input,
    so the off-diagonal row blocks of their Jacobians are 0. Shown exactly, for finite
    changes rather than derivatives: on Hypothesis-drawn X (n = 2..6, d in {2, 4, 6},
    d_ff = 1..8, ReLU and GELU, generic parameters) and a drawn replacement of row j,
    every other output row is unchanged bit for bit (which implies the zero blocks). A
    model without attention (W_O = 0: attention then adds the constant b_O to every row)
    gives position i logits that depend only on t_i and i: two drawn sequences that
    agree at position i give bit-identical logits there. On the same draws `network` and
    `normalise` are 定義 2.2's MLP and 定義 2.1's LN at 50 digits within their rounding
    bounds, so the property is shown of the defined maps."""
    changed = [0]

    @scaled(1.0)
    @given(
        st.integers(2, 6),
        st.sampled_from([2, 4, 6]),
        st.integers(1, 8),
        seeds(),
        st.sampled_from(["relu", "gelu"]),
    )
    def row_wise(n, d, d_ff, seed, activation):
        rng = np.random.default_rng(seed)
        ff = sub_parameters(block_parameters(d, 1, d_ff, rng), "mlp")
        x = rng.standard_normal((n, d))
        j = int(rng.integers(n))
        moved = x.copy()
        moved[j] = 3 * rng.standard_normal(d)
        gain, shift = 1 + rng.standard_normal(d), rng.standard_normal(d)
        others = np.arange(n) != j
        for name, f in (
            ("MLP", lambda z: network(z, ff, activation)),
            ("LN", lambda z: normalise(z, gain, shift, eps=1e-5)),
        ):
            before, after = f(x), f(moved)
            require(
                bool(np.array_equal(before[others], after[others])),
                f"{name}: changing row {j} changed other rows by "
                f"{np.abs(before[others] - after[others]).max():.3e}",
            )
            changed[0] += int(not np.array_equal(before[j], after[j]))
        judge_within(
            *mlp_off_definition(network, x, ff, activation),
            f"network is not 定義 2.2's {activation} MLP at 50 digits (x {x.shape})",
        )
        judge_within(
            *layer_norm_off_definition(normalise, x, gain, shift, 1e-5),
            f"normalise is not 定義 2.1's LN at 50 digits (x {x.shape})",
        )

    row_wise()
    evidence = [
        "MLP and LN: replacing row j leaves every other output row unchanged bit for "
        f"bit on every drawn case (row j itself changed in {changed[0]} of the cases): "
        "the off-diagonal row blocks of the Jacobians are 0"
    ]
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
        require(
            bool(np.array_equal(z_1[same], z_2[same])),
            "without attention, logits at a position where the tokens agree differ: "
            f"{np.abs(z_1[same] - z_2[same]).max():.3e}",
        )
        agree += int(same.sum())
    evidence.append(
        f"without attention (W_O = 0), logits at positions where two sequences "
        f"agree are equal bit for bit ({agree} positions in 10 pairs)"
    )
    return evidence


# the rounding bounds are the reference of every draw: a test that feeds the check a wrong
# block or model draws the same inputs and finds them computed
_block_bound = by_content(block_rounding_bound)
_model_bound = by_content(model_rounding_bound)


@CHAPTER.element(
    "prop-block-equivariance-causality",
    "命題 7.2",
    "ブロックとモデル全体の同変性・因果性",
    "proposition",
    ("numeric", "witness"),
    claims=(
        Claim(
            "マスクのない注意を使った Pre-LN・Post-LN のブロックは置換同変である",
            phrase=True,
        ),
        Claim(
            "因果マスクつきの注意を使った Pre-LN・Post-LN のブロックは因果的",
            phrase=True,
        ),
        Claim("写像は因果的である", phrase=True),
    ),
)
def prop_block_equivariance_causality(
    pre_ln: Callable = pre_ln_block,
    post_ln: Callable = post_ln_block,
    model: Callable = forward,
    decoder: Callable = Decoder,
) -> list[str]:
    """(1) Pre-LN and Post-LN blocks without a mask are permutation-equivariant; (2) with the
    causal mask they are causal; (3) the model's logits at position i depend only on
    t_1..t_i and equal the last logits of the prefix. Numeric, on Hypothesis-drawn blocks
    (n = 1..6, d in {2, 4, 6}, h | d, d_ff = 1..8, ReLU and GELU) and permutations:
    block(P X) = P block(X) entry by entry within the two evaluations' rounding bounds
    (`block_rounding_bound`: each stage's rounding carried through the exact Jacobians of
    the later ones); replacing rows i+1..n leaves rows 1..i of a causal block within the
    same bound. On drawn models (`configurations`) and sequences: changing the tokens
    after position i leaves logits 1..i within the two passes' entrywise rounding bounds
    (`model_rounding_bound`); the logits
    of every prefix equal the corresponding rows; the key/value-cache `decoder`, fed one
    token at a time and in two chunks, equals the full forward pass within the bound.
    Witness that the mask matters: an unmasked block's first row changes when a later row
    does, beyond the two evaluations' rounding bounds (seed 0)."""
    # the blocks measured on every draw, then judged: equivariance first, causality after
    equivariant: list[Verdict] = []
    causal_rows: list[Verdict] = []

    @scaled(1.0)
    @given(
        st.integers(1, 6),
        st.sampled_from([(2, 1), (2, 2), (4, 2), (6, 3)]),
        st.integers(1, 8),
        seeds(),
        st.sampled_from(["relu", "gelu"]),
    )
    def blocks(n, dh, d_ff, seed, activation):
        d, h = dh
        rng = np.random.default_rng(seed)
        p = block_parameters(d, h, d_ff, rng)
        x = rng.standard_normal((n, d))
        perm = rng.permutation(n)
        i = int(rng.integers(n))
        later = x.copy()
        later[i + 1 :] = rng.standard_normal((n - i - 1, d))
        for post, block in ((False, pre_ln), (True, post_ln)):
            name = "Post-LN" if post else "Pre-LN"

            def rounding(z, causal, post=post):
                return _block_bound(z, p, post, causal, activation)[1]  # (n, d)

            out = block(x, p, causal=False, activation=activation)
            gap = block(x[perm], p, causal=False, activation=activation) - out[perm]
            equivariant.append(
                weigh(
                    gap,
                    rounding(x[perm], False) + rounding(x, False)[perm],
                    f"{name} block without mask (n = {n}, d = {d}, h = {h})",
                )
            )
            before = block(x, p, causal=True, activation=activation)[: i + 1]
            after = block(later, p, causal=True, activation=activation)[: i + 1]
            causal_rows.append(
                weigh(
                    after - before,
                    (rounding(x, True) + rounding(later, True))[: i + 1],
                    f"causal {name} block: rows 1..{i + 1} when rows after "
                    f"{i + 1} changed (n = {n}, d = {d}, h = {h})",
                )
            )

    blocks()
    equivariance = judge_cases(equivariant, "f(PX) - P f(X)")
    causality = judge_cases(
        causal_rows, "rows 1..i of a causal block moved when later rows changed"
    )
    evidence = [
        f"Pre-LN and Post-LN blocks without mask: f(PX) = P f(X) within the rounding "
        f"bound (worst gap / bound = {equivariance.ratio:.2e}); with the causal mask rows "
        f"1..i do not move when later rows change (max {causality.largest:.1e})"
    ]
    # the models measured on every draw, then judged: causality, the prefixes, the decoder
    unmoved: list[Verdict] = []
    prefixes: list[Verdict] = []
    decoded: list[Verdict] = []

    @scaled(0.5)
    @given(model_cases(), st.data())
    def models(case, data):
        config, rng, params, tokens = case
        n = len(tokens)
        i = data.draw(st.integers(1, n))
        logits = model(tokens, params, config)
        full = _model_bound(tokens, params, config)[1]  # (n, |V|)
        changed = tokens.copy()
        changed[i:] = rng.integers(0, config.vocab, n - i)
        gap = model(changed, params, config)[:i] - logits[:i]
        bound = full[:i] + _model_bound(changed, params, config)[1][:i]
        at = f"tokens {tokens.tolist()}, {config}"
        unmoved.append(weigh(gap, bound, f"logits 1..{i}, tokens after {i} changed, {at}"))
        for k in range(1, n + 1):
            prefix = model(tokens[:k], params, config)[-1]
            bound = full[k - 1] + _model_bound(tokens[:k], params, config)[1][-1]
            prefixes.append(
                weigh(prefix - logits[k - 1], bound, f"the prefix 1..{k} against row {k}, {at}")
            )
        for chunks in ([1] * n, [i, n - i]):
            fed = decoded_in_chunks(decoder, params, config, tokens, chunks)
            require(
                fed.shape == logits.shape,
                f"the KV-cache decoder fed in chunks {chunks} gives logits of shape {fed.shape}",
            )
            decoded.append(weigh(fed - logits, 2 * full, f"fed in chunks {chunks}, {at}"))

    models()
    causal_logits = judge_cases(unmoved, "logits 1..i moved when the tokens after i changed")
    prefix = judge_cases(prefixes, "logits of the prefix 1..k differ from row k")
    cache = judge_cases(decoded, "the KV-cache decoder differs from forward")
    evidence.append(
        f"the model: logits 1..i do not move when later tokens change (max "
        f"{causal_logits.largest:.1e}); every prefix's last logits and the KV-cache "
        f"decoder (one token at a time, two chunks) equal the full pass (worst gap / "
        f"bound = {max(prefix.ratio, cache.ratio):.2e})"
    )
    rng = np.random.default_rng(0)
    p = block_parameters(4, 2, 8, rng)
    x = rng.standard_normal((4, 4))
    later = x.copy()
    later[3] = rng.standard_normal(4)  # (adding a constant would not do: LN_1 removes it)
    gap = np.abs(pre_ln(later, p, causal=False)[0] - pre_ln(x, p, causal=False)[0])  # (d,)
    bound = (
        block_rounding_bound(x, p, causal=False)[1][0]
        + block_rounding_bound(later, p, causal=False)[1][0]
    )  # (d,)
    require(
        bool((gap > bound).any()),
        "witness lost: without the mask the first row did not react to the last",
    )
    evidence.append(
        f"witness: without the mask, changing row 4 moves row 1 by up to "
        f"{gap.max():.2e}, {(gap / bound).max():.1e} times the rounding bound"
    )
    return evidence
