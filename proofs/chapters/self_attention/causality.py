"""§6 因果性: causal maps (定義 6.1), closure (補題 6.2), the causal mask (定理 6.3), parallel next-
token prediction (系 6.4)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from numeric.attention import multi_head_attention
from numeric.kv_cache import Decoder
from numeric.mlp import mlp
from numeric.model import forward as model_forward
from numeric.model import init_parameters
from numeric.running_error import model_rounding_bound
from proofs.book.claims import Claim
from proofs.book.judge import Cases, Verdict, judge_within, require
from proofs.book.profiles import scaled
from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.chapters.self_attention.strategies import (
    float_arrays,
    mha_case,
    seeded_stack,
    stack_case,
)
from proofs.evidence.anchors import stack_attention_off_definition
from proofs.evidence.measures import (
    causal_defect,
    decoded_in_chunks,
    model_prefix_defect,
    run_stack,
)
from spec.config import ModelConfig

Causal = tuple[Verdict | None, Verdict]  # on the future rows (None when n = 1), the prefixes


def _causal_judge(layers, x, positions, mha, label: str) -> Causal:
    """The stack is causal, and the handed mha is 定義 4.1's causal MHA at the stack's input
    (with each attention layer's parameters)."""
    # changing the future rows i+1..n leaves rows 1..i unchanged; judged before the prefixes,
    # which imply it, so a map that reads the future fails here and one whose rows depend on
    # the length n alone fails there
    n = x.shape[0]
    future = None
    if n > 1:
        i = n // 2
        changed = x.copy()
        changed[i:] = changed[i:][::-1] * 1.5 + 0.25
        y, b = run_stack(layers, x, True, positions, mha)
        yc, bc = run_stack(layers, changed, True, positions, mha)
        future = judge_within(
            yc[:i] - y[:i],
            b[:i] + bc[:i],
            f"{label}: changing rows {i + 1}..{n} changed rows 1..{i}",
        )
    defect, tol = causal_defect(layers, x, positions, mha)
    prefix = judge_within(
        defect,
        tol,
        f"{label}: f_n(X)_(1:i) != f_i(X_(1:i)) (n = "
        f"{x.shape[0]}, layers {[k for k, _ in layers]})",
    )
    start = x if positions is None else x + positions[: x.shape[0]]
    for err, bound in stack_attention_off_definition(mha, layers, start, causal=True):
        judge_within(
            err,
            bound,
            f"{label}: the attention is not 定義 4.1's causal MHA at 50 digits (x {x.shape})",
        )
    return future, prefix


def _causal_summary(judged: list[Causal], what: str) -> str:
    bitwise = sum(prefix.largest == 0 for _, prefix in judged)
    future_bitwise = sum(future is not None and future.largest == 0 for future, _ in judged)
    return (
        f"{what}: the attention = 定義 4.1's causal MHA at 50 digits within its rounding "
        f"bound; prefix consistency f_n(X)_(1:i) = f_i(X_(1:i)) and independence of the "
        f"future rows within the rounding bound on {len(judged)} drawn cases "
        f"(prefix bit for bit in {bitwise}, future rows bit for bit in {future_bitwise})"
    )


def _fixed_causal_cases(mha) -> list[str]:
    """The listing's sizes (n = 6, d = 8, h = 2, seeds 0..2): one causal layer and a
    residual stack; raises CheckFailed on a violation."""
    judged = []
    for seed in range(3):
        layers, x = seeded_stack(seed, kinds=("attn",))
        judged.append(_causal_judge(layers, x, None, mha, f"seed {seed}"))
        layers, x = seeded_stack(seed, kinds=("res_attn", "res_mlp", "res_attn"))
        judged.append(_causal_judge(layers, x, None, mha, f"seed {seed} stack"))
    return [_causal_summary(judged, "listing sizes")]


@CHAPTER.element(
    "def-causal-map",
    "定義 6.1",
    "因果的な写像の族",
    "definition",
    ("numeric", "witness"),
    claims=(
        Claim(r"n \ge 1"),
        Claim(r"i \le n"),
        Claim(r"f_n(X)_i = f_i(X_{1:i})_i"),
        Claim(r"f = (f_n)_{n \ge 1}"),
    ),
)
def def_causal_map(multi_head_attention=multi_head_attention) -> list[str]:
    """The definition f_n(X)_i = f_i(X_{1:i})_i as a measurement (causal_defect, prefix by
    prefix) that separates causal from non-causal families: causal multi-head attention
    meets it within the rounding bound on Hypothesis-drawn inputs (n <= 5, h | d, d <= 9)
    and on the listing's sizes; the same attention unmasked violates it by far more than
    the bound on a witness (seed 0, n = 6, d = 8, h = 2), so the measurement can fail."""
    evidence = _fixed_causal_cases(multi_head_attention)
    judged: list[Causal] = []

    @given(mha_case())
    def drawn(case):
        x, params = case
        judged.append(
            _causal_judge([("attn", params)], x, None, multi_head_attention, "causal MHA")
        )

    drawn()
    evidence.append(_causal_summary(judged, "causal MHA"))
    layers, x = seeded_stack(0)
    full, full_bound = run_stack(layers, x, False, mha=multi_head_attention)
    part, part_bound = run_stack(layers, x[:3], False, mha=multi_head_attention)
    excess = np.abs(full[:3] - part) - (full_bound[:3] + part_bound)  # (3, d)
    gap = float(np.abs(full[:3] - part).max())
    require(
        bool(np.any(excess > 0)),
        f"unmasked attention looks causal (gap {gap:.2e} within the rounding bound)",
    )
    evidence.append(f"unmasked attention is not causal: f_6(X)_(1:3) - f_3(X_(1:3)) = {gap:.2f}")
    return evidence


@CHAPTER.element(
    "lem-causal-closure",
    "補題 6.2",
    "因果的な写像の組み立て",
    "lemma",
    ("numeric",),
    claims=(
        Claim(r"j \le i \le n"),
        Claim(r"G_n(X)_i := g_i(\boldsymbol{x}_i)"),
        Claim(r"f_n(X)_j = f_i(X_{1:i})_j"),
        Claim(r"f_n(X)_{1:i} = f_i(X_{1:i})"),
    ),
)
def lem_causal_closure(position_wise=None) -> list[str]:
    """Position-wise maps G_n(X)_i = g_i(x_i) are causal, and so are composition, sum,
    concatenation and X + f(X); f_n(X)_{1:i} = f_i(X_{1:i}). Checked bit for bit on
    Hypothesis-drawn integer inputs (|.| <= 8, n <= 6) with integer parameters, where
    every operation is exact: g_i(x) = ReLU MLP(x) + p_i (a position vector per row) and
    the closures of it, for every prefix length. `position_wise(x)` is the map under
    test (default: the ReLU MLP plus position vectors)."""

    ints = st.integers(-8, 8).map(float)
    stats = {"cases": 0}

    def closure(case):
        x, w1, w2, pos = case
        p = {"w_1": w1, "w_2": w2}

        def g(y):
            if position_wise is not None:
                return np.asarray(position_wise(y))
            return np.asarray(mlp(y, p, activation="relu")) + pos[: y.shape[0]]

        maps = {
            "position-wise": g,
            "composition": lambda y: g(g(y)),
            "sum": lambda y: g(y) + y @ w1 @ w2,
            "concatenation": lambda y: np.concatenate([g(y), y], axis=1),
            "residual": lambda y: y + g(y),
        }
        for name, fn in maps.items():
            full = fn(x)
            for t in range(1, x.shape[0] + 1):
                require(
                    np.array_equal(fn(x[:t]), full[:t]),
                    f"{name}: f_n(X)_(1:{t}) != f_{t}(X_(1:{t})) for x = {x.tolist()}",
                )
        stats["cases"] += 1

    grid = np.arange(-6.0, 6.0)
    closure(
        (grid.reshape(4, 3), grid.reshape(3, 4), grid.reshape(4, 3), np.arange(18.0).reshape(6, 3))
    )
    given(
        st.integers(1, 6).flatmap(
            lambda n: st.tuples(
                hnp.arrays(np.float64, (n, 3), elements=ints),
                hnp.arrays(np.float64, (3, 4), elements=ints),
                hnp.arrays(np.float64, (4, 3), elements=ints),
                hnp.arrays(np.float64, (6, 3), elements=ints),
            )
        )
    )(closure)()
    return [
        f"position-wise maps and their compositions, sums, concatenations, residuals: "
        f"f_n(X)_(1:i) = f_i(X_(1:i)) bit for bit for every i on {stats['cases']} drawn "
        "integer inputs"
    ]


@CHAPTER.element(
    "thm-causal-mask",
    "定理 6.3",
    "因果マスクつきの自己注意は未来に依存しない",
    "theorem",
    ("numeric",),
    claims=(
        Claim("因果マスクつきのマルチヘッド自己注意は因果的である", phrase=True),
        Claim("何層重ねた写像も因果的である", phrase=True),
    ),
)
def thm_causal_mask(multi_head_attention=multi_head_attention) -> list[str]:
    """Causal MHA, and any stack of causal attention, ReLU MLPs, residuals and position
    vectors, is causal: on Hypothesis-drawn stacks (up to 3 layers, n <= 5, d <= 4) with
    drawn position vectors, f_n(X)_{1:i} = f_i(X_{1:i}) for every i and changing rows
    i+1..n leaves rows 1..i unchanged, within the propagated rounding bounds (the
    evidence counts the cases that hold bit for bit); also at the listing's sizes."""
    evidence = _fixed_causal_cases(multi_head_attention)
    judged: list[Causal] = []

    @scaled(0.5)
    @given(stack_case(), st.data())
    def drawn(case, data):
        layers, x = case
        pos = (
            data.draw(float_arrays((x.shape[0], x.shape[1]), 1.0))
            if data.draw(st.booleans())
            else None
        )
        judged.append(_causal_judge(layers, x, pos, multi_head_attention, "causal stack"))

    drawn()
    evidence.append(_causal_summary(judged, "causal stacks with positions"))
    return evidence


@CHAPTER.element(
    "cor-parallel-next-token",
    "系 6.4",
    "1 回の順伝播で n 個の予測が得られる",
    "corollary",
    ("numeric",),
    claims=(
        Claim(r"f = (f_n)"),
        Claim(r"f_n(X)_t = f_t(X_{1:t})_t"),
    ),
)
def cor_parallel_next_token(
    multi_head_attention=multi_head_attention, forward=None, decoder=None
) -> list[str]:
    """One pass gives all n prefix predictions. Stacks: for causal stacks (residual
    attention and ReLU MLP with position vectors; the listing's sizes n = 6, d = 8, h = 2,
    seeds 0..2), row t of f_n(X) equals the last row of f_t(X_{1:t}) for every t within
    the propagated rounding bounds. Model: numeric.model.forward of a decoder-only model
    with ReLU MLPs (|V| = 11, d = 8, h = 2, L = 2, d_ff = 16, L_ctx = 8, seeds 0..2 and
    Hypothesis-drawn token sequences) equals, to its first-order rounding bound
    (numeric.running_error.model_rounding_bound: the rounding bound of every LayerNorm,
    attention, MLP and residual sum carried to the logits by the model's Jacobian), the
    model composed from the chapter's parts, and its row t - 1 equals the last row of
    forward on the prefix of length t for every t, within the sum of the two bounds. The
    KV-cache decoder (numeric.kv_cache.Decoder) fed one token at a time, and in two
    chunks, gives the same logits within twice the bound (both are within it of the
    exact values)."""

    forward = model_forward if forward is None else forward
    decoder = Decoder if decoder is None else decoder
    evidence = _fixed_causal_cases(multi_head_attention)
    judged = []
    for seed in range(3):
        layers, x = seeded_stack(seed, kinds=("res_attn", "res_mlp"))
        pos = np.random.default_rng(100 + seed).standard_normal(x.shape)
        judged.append(
            _causal_judge(layers, x, pos, multi_head_attention, f"seed {seed} with positions")
        )
    evidence.append(_causal_summary(judged, "stacks with position vectors"))

    config = ModelConfig(vocab=11, d=8, n_layer=2, n_head=2, d_ff=16, n_ctx=8, activation="relu")
    models = [init_parameters(config, np.random.default_rng(seed)) for seed in range(3)]
    # judged case by case, the composition first: a forward exact only at the fixed
    # sequences' full length must fail at their prefixes, not at the shorter drawn sequences
    prefixes: list[Verdict] = []
    caches: list[Verdict] = []

    def judge(tokens: np.ndarray, params) -> None:
        defect, tol, gap, gap_tol = model_prefix_defect(tokens, params, config, forward)
        judge_within(
            gap,
            gap_tol,
            f"forward differs from the model composed of attention, LN "
            f"and MLP (tokens {tokens.tolist()})",
        )
        prefixes.append(
            judge_within(
                defect,
                tol,
                f"forward(tokens)[t-1] != forward(tokens[:t])[-1] (tokens {tokens.tolist()})",
            )
        )
        full = np.asarray(forward(tokens, params, config))
        bound = model_rounding_bound(tokens, params, config)[1]
        split = max(1, len(tokens) // 2)
        for sizes in ([1] * len(tokens), [split, len(tokens) - split]):
            fed = decoded_in_chunks(decoder, params, config, tokens, sizes)
            require(
                fed.shape == full.shape,
                f"the KV-cache decoder fed {sizes} tokens gives "
                f"logits of shape {fed.shape}, not {full.shape}",
            )
            caches.append(
                judge_within(
                    fed - full,
                    2 * bound,
                    f"the KV-cache decoder fed {sizes} "
                    f"tokens differs from forward (tokens {tokens.tolist()})",
                )
            )

    for params in models:
        judge(np.array([3, 1, 4, 1, 5, 9, 2, 6]), params)

    @scaled(0.3)
    @given(st.lists(st.integers(0, 10), min_size=1, max_size=8), st.integers(0, 2))
    def drawn(tokens, which):
        judge(np.array(tokens), models[which])

    drawn()
    prefix, cache = Cases(tuple(prefixes)), Cases(tuple(caches))
    evidence.append(
        f"decoder-only model: prefix logits = one pass's rows on {len(prefixes)} "
        f"token sequences (largest difference {prefix.largest:.1e}, "
        f"{prefix.ratio:.1e} of the rounding bound); the KV-cache decoder, token by "
        f"token and in two chunks, = forward (largest difference "
        f"{cache.largest:.1e})"
    )
    return evidence
