"""§10 演習 10.1–10.4 (proofs/chapters/self_attention/exercises.py). Each check passes,
and rejects wrong variants."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp
from chapters.self_attention.variants import (
    OFF_DEFINITION,
    masked_softmax_ignoring_mask,
    mha_ignoring_mask,
    mha_unscaled,
)

from numeric.attention import multi_head_attention
from numeric.softmax import softmax
from proofs.book.judge import CheckFailed
from proofs.book.registry import REGISTRY
from proofs.chapters.self_attention.exercises import (
    exr_causal_last_row,
    exr_jacobian_two,
    exr_mask_limit,
    exr_softmax_compute,
)

symbolic = pytest.mark.symbolic
numeric = pytest.mark.numeric


@symbolic
def test_exr_softmax_compute_holds():
    assert "shift 100: exact ['1/6', '1/3', '1/2']" in exr_softmax_compute()[1]


@symbolic
def test_exr_softmax_compute_rejects_a_swapped_answer():
    with pytest.raises(CheckFailed):
        exr_softmax_compute(answer=(sp.Rational(1, 6), sp.Rational(1, 2), sp.Rational(1, 3)))


@numeric
def test_exr_softmax_compute_rejects_a_numeric_softmax_off_by_1e_10():
    with pytest.raises(CheckFailed, match="NumPy gives"):
        exr_softmax_compute(softmax=lambda z: softmax(z) * (1 + 1e-10))


@symbolic
def test_exr_jacobian_two_holds():
    assert len(exr_jacobian_two()) == 1


@symbolic
def test_exr_jacobian_two_rejects_a_jacobian_without_the_outer_product():
    with pytest.raises(CheckFailed):
        exr_jacobian_two(jacobian=lambda sigma: sp.diag(*sigma))


@symbolic
def test_exr_jacobian_two_rejects_a_wrong_stated_eigenvalue():
    s = sp.Symbol("s", positive=True)
    with pytest.raises(CheckFailed, match="eigenvalues"):
        exr_jacobian_two(stated_eigenvalue=s * (1 - s))


@symbolic
def test_exr_jacobian_two_rejects_wrong_pattern_eigenvalues():
    with pytest.raises(CheckFailed, match=r"has eigenvalues \[0, 2\], stated \(0, 1\)"):
        exr_jacobian_two(pattern_eigenvalues=(0, 1))


@symbolic
@pytest.mark.parametrize("edges", [(0, 1, 1), (0, 1, 2), (1,)])
def test_exr_jacobian_two_rejects_a_wrong_limit_at_the_ends(edges):
    with pytest.raises(CheckFailed, match="as s tends to"):
        exr_jacobian_two(edges=edges)


@symbolic
@pytest.mark.parametrize(
    "stated", [{"stated_maximiser": sp.Rational(1, 3)}, {"stated_maximum": sp.Rational(1, 4)}]
)
def test_exr_jacobian_two_rejects_a_wrong_stated_maximum(stated):
    with pytest.raises(CheckFailed, match="maximum 1/2 at"):
        exr_jacobian_two(**stated)


@symbolic
def test_exr_jacobian_two_rejects_a_matrix_whose_kernel_misses_the_ones():
    s = sp.Symbol("s", positive=True)
    corner = sp.Matrix([[2 * s * (1 - s), 0], [0, 0]])  # eigenvalues 0 and 2s(1 - s)

    with pytest.raises(CheckFailed, match="1 is not in the kernel"):
        exr_jacobian_two(
            stated_closed=corner,
            jacobian=lambda sigma: sp.Matrix([[2 * sigma[0] * sigma[1], 0], [0, 0]]),
        )


@symbolic
def test_exr_jacobian_two_rejects_an_eigenvalue_without_one_interior_maximum():
    s = sp.Symbol("s", positive=True)
    twin = s * (1 - s) * (2 * s - 1) ** 2  # zero at s = 1/2, two interior maxima
    swap = sp.Matrix([[1, -1], [-1, 1]])

    def jacobian(sigma):
        return sigma[0] * sigma[1] * (sigma[0] - sigma[1]) ** 2 / 2 * swap

    with pytest.raises(CheckFailed, match="no interior maximum"):
        exr_jacobian_two(stated_closed=twin / 2 * swap, stated_eigenvalue=twin, jacobian=jacobian)


@numeric
def test_exr_mask_limit_holds():
    assert "bound = 7.406e-6" in exr_mask_limit()[0]


@numeric
def test_exr_mask_limit_rejects_a_misprinted_bound():
    printed = dict(REGISTRY["exr-mask-limit"].arguments()["printed"], bound="7.5e-6")
    with pytest.raises(CheckFailed):
        exr_mask_limit(printed=printed)


@numeric
def test_exr_mask_limit_rejects_a_mask_that_is_ignored():
    with pytest.raises(CheckFailed):
        exr_mask_limit(masked_softmax=masked_softmax_ignoring_mask)


@numeric
def test_exr_mask_limit_rejects_a_reference_softmax_without_its_normaliser():
    def unnormalised(z):
        return [mpmath.exp(v) for v in z]

    with pytest.raises(CheckFailed, match=r"sigma_3 = .* not in \(0, bound\]"):
        exr_mask_limit(exact_softmax=unnormalised)


@numeric
def test_exr_mask_limit_rejects_a_reference_softmax_that_rounds_to_zero():
    def flushed(z):  # a weight driven towards 0 by the mask must stay positive
        return [mpmath.mpf(0) if v < -5 else mpmath.mpf(1) for v in z]

    with pytest.raises(CheckFailed, match=r"sigma_3 = 0\.0 not in \(0, bound\]"):
        exr_mask_limit(exact_softmax=flushed)


@numeric
def test_exr_causal_last_row_rejects_a_witness_whose_swapped_rows_are_equal(monkeypatch):
    from proofs.chapters.self_attention import exercises
    from proofs.chapters.self_attention.strategies import seeded_stack

    def equal_first_rows(seed, **kwargs):  # swapping rows 1 and 2 then changes nothing
        layers, x = seeded_stack(seed, **kwargs)
        x[1] = x[0]
        return layers, x

    monkeypatch.setattr(exercises, "seeded_stack", equal_first_rows)
    with pytest.raises(CheckFailed, match=r"seed 0: two layers left the last row unchanged"):
        exr_causal_last_row()


@numeric
def test_exr_causal_last_row_holds():
    assert len(exr_causal_last_row()) == 6


@numeric
def test_exr_causal_last_row_rejects_a_mask_that_is_ignored():
    with pytest.raises(CheckFailed):
        exr_causal_last_row(multi_head_attention=mha_ignoring_mask)


@numeric
def test_exr_causal_last_row_rejects_unscaled_causal_scores():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        exr_causal_last_row(multi_head_attention=mha_unscaled)


@numeric
def test_exr_causal_last_row_rejects_an_attention_that_reads_the_first_row():
    def first_row_added(x, params, causal=False, context=None):
        out, weights = multi_head_attention(x, params, causal=causal, context=context)
        return out + np.asarray(x)[:1], weights  # every row also sees row 1 as it stands

    with pytest.raises(CheckFailed, match="one causal layer: last row changed"):
        exr_causal_last_row(multi_head_attention=first_row_added)
