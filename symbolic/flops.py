"""The published FLOP conventions, derived: the multiplications of the declared
contractions (symbolic.counts, the polynomial of 命題 6.1 and 7.2) with the five switches
of spec.flop_conventions applied, term by term; and the difference of two conventions
split exactly into the steps of their switches.

Nothing here is a published formula: the tests hold each publication's formula, typed as
printed, equal to what these functions derive under its switches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from sympy import Expr, Integer, Mul, Rational, Symbol, expand

from spec import contractions as declared
from spec import parameters as spec_parameters
from spec.flop_conventions import TRAINING_PASSES, Switches
from symbolic.counts import contraction_multiplications
from symbolic.symbols import SIZES, L, L_ctx, V, d, d_ff, h, n

QUADRATIC = ("scores", "weighted_sum")  # the two n^2 products, run by a fused kernel
VOCABULARY_PRODUCTS = {
    "none": (),
    "logits": (declared.LM_HEAD,),
    "logits and embeddings": (declared.LM_HEAD, declared.ONE_HOT_EMBEDDING),
}
# The order in which `explain` turns one convention's switches into another's: a softmax
# counts only where the attention kernel is seen, and a multiply-add's worth changes last,
# on the products that the switches before it left.
STEPS = ("fused_attention", "vocabulary", "causal_half", "softmax", "normalisation", "multiply_add")


def layer_norms(sizes: Mapping[str, Expr] = SIZES) -> Expr:
    """How many LayerNorms the model of spec.parameters has: 2L + 1 (two per block, the
    final one), counted from its declared gains.

    >>> layer_norms()
    2*L + 1
    """
    gains = [p for p in spec_parameters.model_parameters() if p.name.endswith(".gamma")]
    return sum((sizes["n_layer"] if p.per_layer else Integer(1) for p in gains), Integer(0))


def forward_terms(switches: Switches, sizes: Mapping[str, Expr] = SIZES) -> dict[str, Expr]:
    """The forward FLOPs of one sequence of n tokens, term by term: each declared
    contraction of the blocks (times L) and of the vocabulary that `switches` counts, at
    `multiply_add` FLOPs a multiplication, the two n^2 products halved by `causal_half` and
    left out with an unseen fused kernel; the softmax over the declared score array and the
    LayerNorms over their n x d inputs at their FLOPs per element. Terms that count
    nothing are left out.

    >>> from spec.flop_conventions import CONVENTIONS
    >>> forward_terms(CONVENTIONS["chinchilla"].switches)["softmax"]
    3*L*h*n**2
    """
    if not isinstance(switches, Switches):
        raise TypeError(f"switches must be spec.flop_conventions.Switches, got {switches!r}")
    terms: dict[str, Expr] = {}
    for name, count in contraction_multiplications(declared.BLOCK, sizes).items():
        if name in QUADRATIC:
            if not switches.fused_attention:
                continue
            if switches.causal_half:
                count = count * Rational(1, 2)
        terms[name] = switches.multiply_add * sizes["n_layer"] * count
    vocabulary = VOCABULARY_PRODUCTS[switches.vocabulary]
    for name, count in contraction_multiplications(vocabulary, sizes).items():
        terms[name] = switches.multiply_add * count
    if switches.softmax and switches.fused_attention:
        scores = Mul(*(sizes[dim] for dim in declared.ATTENTION_WEIGHTS_MEMORY))
        terms["softmax"] = switches.softmax * sizes["n_layer"] * scores
    if switches.normalisation:
        normalised = layer_norms(sizes) * sizes["n"] * sizes["d"]
        terms["layer_norm"] = switches.normalisation * normalised
    return {name: expand(term) for name, term in terms.items()}


def forward_flops(switches: Switches, sizes: Mapping[str, Expr] = SIZES) -> Expr:
    """The forward FLOPs of one sequence of n tokens under `switches`.

    >>> from spec.flop_conventions import CONVENTIONS
    >>> forward_flops(CONVENTIONS["chapters"].switches).coeff(L)
    4*d**2*n + 2*d*d_ff*n + 2*d*n**2
    """
    return expand(sum(forward_terms(switches, sizes).values(), Integer(0)))


def training_flops(switches: Switches, sizes: Mapping[str, Expr] = SIZES) -> Expr:
    """Forward and backward: TRAINING_PASSES (3) forward passes.

    >>> from spec.flop_conventions import CONVENTIONS
    >>> training_flops(CONVENTIONS["kaplan"].switches).coeff(n**2)
    6*L*d
    """
    return expand(TRAINING_PASSES * forward_flops(switches, sizes))


@dataclass(frozen=True)
class Step:
    """One switch turned from `before` to `after`, and the forward FLOPs that adds."""

    switch: str
    before: object
    after: object
    flops: Expr


def explain(a: Switches, b: Switches, sizes: Mapping[str, Expr] = SIZES) -> list[Step]:
    """forward(a) - forward(b) as the steps that turn b's switches into a's one at a time,
    in the order of STEPS; the steps telescope, so they add up to the difference exactly.
    A switch whose change adds nothing at its place in the order is still listed.

    >>> from spec.flop_conventions import CONVENTIONS
    >>> [(s.switch, s.flops) for s in explain(CONVENTIONS["kaplan"].switches,
    ...                                       CONVENTIONS["palm"].switches)]
    [('vocabulary', -2*V*d*n), ('causal_half', -2*L*d*n**2)]
    """
    current = b
    steps = []
    for switch in STEPS:
        target = getattr(a, switch)
        if getattr(current, switch) == target:
            continue
        turned = replace(current, **{switch: target})
        added = expand(forward_flops(turned, sizes) - forward_flops(current, sizes))
        steps.append(Step(switch, getattr(current, switch), target, added))
        current = turned
    return steps


def values(sizes: Mapping[str, int], tokens: int) -> dict[Symbol, int]:
    """The symbols of a configuration (spec.ModelConfig.sizes()) and of a sequence of
    `tokens` tokens, for `subs`.

    >>> from spec import ModelConfig
    >>> config = ModelConfig(vocab=10, d=4, n_layer=2, n_head=2, d_ff=16, n_ctx=8)
    >>> values(config.sizes(), 8)[n]
    8
    """
    return {
        V: sizes["vocab"],
        d: sizes["d"],
        L: sizes["n_layer"],
        h: sizes["h"],
        d_ff: sizes["d_ff"],
        L_ctx: sizes["n_ctx"],
        n: tokens,
    }
