"""§6 計算量: the multiplications of one block (命題 6.1)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

import numpy as np
import sympy
from hypothesis import given
from hypothesis import strategies as st

from numeric.block import post_ln_block, pre_ln_block
from numeric.contraction import count_multiplications
from numeric.model import forward, init_parameters
from proofs.book.claims import Claim
from proofs.book.judge import require
from proofs.book.profiles import scaled
from proofs.book.stated import (
    crossover,
    integer,
    leading_terms,
    order,
    polynomial,
    printed,
)
from proofs.chapters.transformer_block import tables
from proofs.chapters.transformer_block.chapter import CHAPTER
from proofs.chapters.transformer_block.strategies import block_parameters, configurations, seeds
from spec.contractions import BLOCK
from symbolic import counts
from symbolic import symbols as sym
from symbolic.identities import is_zero
from symbolic.orders import same_order


def counted_multiplications(run: Callable[[], object]) -> dict[str, int]:
    """The multiplications of the declared contractions while `run` executes, by name."""
    with count_multiplications() as counter:
        run()
    return dict(counter.by_name)


@CHAPTER.element(
    "prop-block-complexity",
    "命題 6.1",
    "1 層の順伝播の計算量",
    "proposition",
    ("symbolic", "numeric"),
    claims=(
        Claim(r"d_{\mathrm{ff}} = 4d"),
        Claim(
            r"\underbrace{4nd^2 + 2n^2 d}_{\text{注意}} + "
            r"\underbrace{2nd\,d_{\mathrm{ff}}}_{\text{MLP}} + O(nd)",
            argument="stated",
            read=leading_terms,
        ),
        Claim(
            "12nd^2 + 2n^2d + O(nd)",
            argument="stated_at_four_d",
            read=leading_terms,
        ),
        Claim(r"O(nd^2 + n^2d)", argument="stated_order", read=order),
        Claim(r"n < 6d", argument="stated_crossover", read=crossover),
        Claim(r"nd\,|V|", argument="stated_head", read=polynomial),
        Claim(r"d = 768", where="text", lhs="d", argument="figures.d", read=integer),
        Claim(r"n = 1024", where="text", lhs="n", argument="figures.n", read=integer),
        Claim(
            "12nd^2 = 7{,}247{,}757{,}312",
            where="text",
            lhs="12nd^2",
            argument="figures.linear",
            read=integer,
        ),
        Claim(
            "2n^2d = 1{,}610{,}612{,}736",
            where="text",
            lhs="2n^2d",
            argument="figures.quadratic",
            read=integer,
        ),
        Claim(r"0.222", where="text", argument="figures.ratio", read=printed),
        Claim(
            "6d = 4608",
            where="text",
            lhs="6d",
            argument="figures.crossover",
            read=integer,
        ),
    ),
)
def prop_block_complexity(
    stated: sympy.Expr,
    stated_at_four_d: sympy.Expr,
    stated_order: sympy.Expr,
    stated_crossover: sympy.Expr,
    stated_head: sympy.Expr,
    figures: Mapping,
    block: Callable = pre_ln_block,
    post_ln: Callable = post_ln_block,
    model: Callable = forward,
) -> list[str]:
    """One block costs 4nd^2 + 2n^2 d + 2 n d d_ff multiplications plus O(nd) (LayerNorm,
    biases); 12nd^2 + 2n^2 d at d_ff = 4d, Θ(`stated_order`); the term linear in n is the
    larger iff n < 6d; the model adds L blocks and n d |V| for the output. Symbolic: symbolic.counts
    multiplies out the sizes of spec's declared contractions (BLOCK, LM_HEAD); the result
    equals `stated`; the crossover of the two terms at d_ff = 4d is
    solved, n = 6d, and linear - quadratic = 2nd (6d - n) (so the sign is that of 6d - n).
    Numeric: the multiplications a real `block` (Pre-LN), `post_ln` and a real `model`
    pass perform, counted by numeric.contraction from the actual operand shapes, equal the
    polynomial at Hypothesis-drawn sizes (n = 1..8, d in {2, 4, 6, 8}, h | d, d_ff = 1..8,
    L = 1..2, |V| = 2..12), contraction by contraction. The figures at d = 768, n = 1024
    (proofs.tables.block_cost_comparison) against the printed ones."""
    evidence = []
    derived = sympy.expand(counts.block_multiplications(BLOCK, width=sym.d_ff))
    require(
        is_zero(derived - stated), f"the block's multiplications are {derived}, stated {stated}"
    )
    at_4d = sympy.expand(derived.subs(sym.d_ff, 4 * sym.d))
    linear, quadratic = counts.linear_quadratic(at_4d, sym.n)
    require(
        is_zero(at_4d - stated_at_four_d),
        f"at d_ff = 4d the block costs {at_4d}, stated {stated_at_four_d}",
    )
    require(
        same_order(at_4d, stated_order),
        f"at d_ff = 4d the block's {at_4d} is not Θ({stated_order})",
    )
    crossover = counts.crossover(at_4d, sym.n)
    require(
        is_zero(crossover - stated_crossover),
        f"the two terms cross at n = {crossover}, the chapter states {stated_crossover}",
    )
    require(
        is_zero(linear - quadratic - 2 * sym.n * sym.d * (crossover - sym.n)),
        f"linear - quadratic = {sympy.factor(linear - quadratic)}",
    )
    head = counts.lm_head_multiplications()
    require(is_zero(head - stated_head), f"the output layer costs {head}, stated {stated_head}")
    evidence.append(
        f"symbolic: {derived}; at d_ff = 4d: {at_4d}, Θ({stated_order}); linear - quadratic = "
        f"{sympy.factor(linear - quadratic)}, positive iff n < {crossover}; "
        f"output layer {head}"
    )
    drawn = [0]

    @scaled(0.5)
    @given(configurations(), st.sampled_from([(2, 1), (4, 2), (6, 3), (8, 2)]), seeds(), st.data())
    def counted(config, dh, seed, data):
        d, h = dh
        rng = np.random.default_rng(seed)
        n = data.draw(st.integers(1, 8))
        p = block_parameters(d, h, config.d_ff, rng)
        x = rng.standard_normal((n, d))
        sizes = {sym.n: n, sym.d: d, sym.h: h, sym.d_ff: config.d_ff, sym.V: config.vocab}
        want = {
            name: int(sympy.sympify(v).subs(sizes))
            for name, v in counts.contraction_multiplications(BLOCK, sym.SIZES).items()
        }
        for causal in (False, True):
            got = counted_multiplications(partial(block, x, p, causal=causal))
            require(
                got == want,
                f"a block pass at n = {n}, d = {d}, h = {h}, d_ff = "
                f"{config.d_ff} counted {got}, the polynomial gives {want}",
            )
        got = counted_multiplications(lambda: post_ln(x, p))
        require(got == want, f"a Post-LN pass counted {got}, the polynomial gives {want}")
        params = init_parameters(config, rng)
        tokens = rng.integers(0, config.vocab, min(n, config.n_ctx))
        m = len(tokens)
        total = sum(counted_multiplications(lambda: model(tokens, params, config)).values())
        sizes = {
            sym.n: m,
            sym.d: config.d,
            sym.h: config.n_head,
            sym.d_ff: config.d_ff,
            sym.V: config.vocab,
        }
        expected = int(
            (
                config.n_layer * counts.block_multiplications(BLOCK, width=sym.d_ff)
                + counts.lm_head_multiplications()
            ).subs(sizes)
        )
        require(
            total == expected,
            f"a model pass counted {total}, the polynomial gives {expected} ({config}, n = {m})",
        )
        drawn[0] += 1

    counted()
    evidence.append(
        f"numeric: real block passes (Pre-LN causal and not, Post-LN) and model "
        f"passes count exactly the polynomial, contraction by contraction, at "
        f"{drawn[0]} drawn sizes"
    )
    lin, quad, ratio, by_crossover = tables.block_cost_comparison(
        d=figures["d"], n=figures["n"]
    ).column("値")
    crossing = int(crossover.subs(sym.d, figures["d"]))
    for key, got in (("linear", lin), ("quadratic", quad), ("crossover", crossing)):
        require(
            got == figures[key],
            f"{key} at d = {figures['d']}, n = {figures['n']}: "
            f"computed {got:,}, printed {figures[key]:,}",
        )
    require(
        figures["ratio"].agrees(ratio) and figures["ratio"].agrees(by_crossover),
        f"ratio {ratio:.4f}, n/(6d) = {by_crossover:.4f}, printed {figures['ratio'].value}",
    )
    evidence.append(
        f"d = {figures['d']}, n = {figures['n']}: 12nd^2 = {lin:,}, "
        f"2n^2d = {quad:,}, ratio {ratio:.4f} = n/(6d); 6d = {crossing:,}"
    )
    return evidence
