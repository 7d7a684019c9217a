"""§6 計算量 (proofs/chapters/transformer_block/complexity.py): the multiplications
of one block (命題 6.1). The check passes, and rejects wrong variants."""

import pytest
from chapters.transformer_block.variants import transcribed

from numeric.block import post_ln_block, pre_ln_block
from numeric.model import forward
from proofs.book.judge import CheckFailed
from proofs.book.printed import Printed
from proofs.chapters.transformer_block import tables
from proofs.chapters.transformer_block.complexity import prop_block_complexity
from symbolic import symbols as sym


@pytest.mark.symbolic
@pytest.mark.numeric
def test_prop_block_complexity_holds():
    assert prop_block_complexity()


@pytest.mark.symbolic
def test_prop_block_complexity_rejects_a_single_mlp_product():
    n, d, d_ff = sym.n, sym.d, sym.d_ff
    half_mlp = 4 * n * d**2 + 2 * n**2 * d + n * d * d_ff
    with pytest.raises(CheckFailed, match="stated"):
        prop_block_complexity(stated=half_mlp)


@pytest.mark.symbolic
def test_prop_block_complexity_rejects_a_split_that_swaps_the_terms(monkeypatch):
    from symbolic import counts

    split = counts.linear_quadratic

    def swapped(poly, var=sym.n):  # the same crossover, the opposite sign
        linear, quadratic = split(poly, var)
        return quadratic, linear

    monkeypatch.setattr(counts, "linear_quadratic", swapped)
    with pytest.raises(CheckFailed, match=r"linear - quadratic = -2\*d\*n\*\(6\*d - n\)"):
        prop_block_complexity()


@pytest.mark.numeric
def test_prop_block_complexity_rejects_a_block_that_attends_twice():
    def twice(x, params, causal=True):
        pre_ln_block(x, params, causal=causal)
        return pre_ln_block(x, params, causal=causal)

    with pytest.raises(CheckFailed, match="counted"):
        prop_block_complexity(block=twice)


@pytest.mark.numeric
def test_prop_block_complexity_rejects_a_post_ln_block_that_attends_twice():
    def twice(x, params):
        post_ln_block(x, params)
        return post_ln_block(x, params)

    with pytest.raises(CheckFailed, match="a Post-LN pass counted"):
        prop_block_complexity(post_ln=twice)


@pytest.mark.numeric
def test_prop_block_complexity_rejects_a_model_that_runs_twice():
    def twice(tokens, params, config):
        forward(tokens, params, config)
        return forward(tokens, params, config)

    with pytest.raises(CheckFailed, match="a model pass counted"):
        prop_block_complexity(model=twice)


def test_prop_block_complexity_figures():
    linear, quadratic, ratio, _ = tables.block_cost_comparison(d=768, n=1024).column("値")
    assert (linear, quadratic) == (7_247_757_312, 1_610_612_736)
    assert f"{ratio:.3f}" == "0.222"


@pytest.mark.symbolic
@pytest.mark.parametrize(
    "stated, match",
    [
        ({"stated_at_four_d": 12 * sym.n * sym.d**2 + sym.n**2 * sym.d}, "at d_ff = 4d the block"),
        ({"stated_crossover": 8 * sym.d}, "the two terms cross at n = 6"),
        ({"stated_head": 2 * sym.n * sym.d * sym.V}, "the output layer costs"),
        ({"stated_order": sym.n**2 * sym.d}, r"is not Θ\(d\*n\*\*2\)"),
        ({"stated_order": sym.n * sym.d**2 + sym.n * sym.d}, r"is not Θ\(d\*\*2\*n \+ d\*n\)"),
    ],
    ids=["at-4d", "crossover", "head", "order-one-term", "order-linear"],
)
def test_prop_block_complexity_rejects_each_wrong_stated_formula(stated, match):
    with pytest.raises(CheckFailed, match=match):
        prop_block_complexity(**stated)


def test_prop_block_complexity_rejects_a_wrong_printed_ratio():
    figures = dict(transcribed("prop-block-complexity")["figures"], ratio=Printed(0.223, 3))
    with pytest.raises(CheckFailed, match="ratio 0.2222, n/\\(6d\\) = 0.2222, printed 0.223"):
        prop_block_complexity(figures=figures)


def test_prop_block_complexity_rejects_a_wrong_printed_figure():
    with pytest.raises(CheckFailed, match="printed"):
        prop_block_complexity(
            figures=dict(transcribed("prop-block-complexity")["figures"], linear=7_247_757_000)
        )
