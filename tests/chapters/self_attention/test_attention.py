"""§4 注意 (proofs/chapters/self_attention/attention.py): scaled dot-product and
multi-head attention (定義 4.1), convex combinations (命題 4.2), the worked example (例 4.3).
Each check passes, and rejects wrong variants."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from chapters.self_attention.variants import (
    OFF_DEFINITION,
    attention_unscaled,
    mha_ignoring_mask,
    mha_unscaled,
)

from numeric.attention import attention, multi_head_attention
from proofs.book.judge import CheckFailed, Finding
from proofs.book.printed import Printed
from proofs.book.registry import REGISTRY, claim_arguments
from proofs.chapters.self_attention.attention import (
    convexity_violations,
    def_attention,
    ex_attention_by_hand,
    prop_attention_convex_combination,
)

numeric = pytest.mark.numeric


@numeric
def test_def_attention_holds():
    assert len(def_attention()) == 2


@numeric
def test_def_attention_rejects_a_mask_letting_the_next_key_through():
    def leaky(n, m=None):
        m = n if m is None else m
        return np.tri(n, m, m - n + 1, dtype=bool)

    with pytest.raises(CheckFailed):
        def_attention(causal_mask=leaky)


@numeric
def test_def_attention_rejects_an_unscaled_product():
    with pytest.raises(CheckFailed):
        def_attention(attention=attention_unscaled)


def weights_changed(change):
    """multi_head_attention whose returned weights are change(weights): the output (the
    only thing the definition's comparison sees) is untouched."""

    def mha(x, params, causal=False, context=None):
        out, weights = multi_head_attention(x, params, causal=causal, context=context)
        return out, change(np.asarray(weights))

    return mha


def leaked(weights):  # 1e-300 on every entry above the diagonal
    return weights + np.triu(np.full(weights.shape[-2:], 1e-300), 1)


@numeric
def test_def_attention_rejects_an_unscaled_multi_head_attention():
    with pytest.raises(CheckFailed, match="multi_head_attention off the definition"):
        def_attention(multi_head_attention=mha_unscaled)


@numeric
def test_def_attention_rejects_causal_weights_not_exactly_zero_above_the_diagonal():
    with pytest.raises(CheckFailed, match="causal weights are not exactly 0"):
        def_attention(multi_head_attention=weights_changed(leaked))


@numeric
def test_prop_attention_convex_combination_holds():
    assert len(prop_attention_convex_combination()) == 2


@numeric
def test_prop_attention_convex_combination_rejects_unnormalised_weights():
    def unnormalised(q, k, v, mask=None):
        out, weights = attention(q, k, v, mask)
        return 2 * out, 2 * weights

    with pytest.raises(CheckFailed):
        prop_attention_convex_combination(attention=unnormalised)


@numeric
def test_prop_attention_convex_combination_rejects_unscaled_attention():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        prop_attention_convex_combination(attention=attention_unscaled)


@numeric
def test_prop_attention_convex_combination_rejects_unscaled_multi_head_attention():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        prop_attention_convex_combination(multi_head_attention=mha_unscaled)


@numeric
def test_prop_attention_convex_combination_rejects_unmasked_multi_head_weights():
    with pytest.raises(CheckFailed, match="multi-head weights negative or unmasked"):
        prop_attention_convex_combination(multi_head_attention=weights_changed(leaked))


@numeric
def test_prop_attention_convex_combination_rejects_multi_head_rows_not_summing_to_1():
    with pytest.raises(CheckFailed, match="multi-head weight rows sum to"):
        prop_attention_convex_combination(
            multi_head_attention=weights_changed(lambda w: w * (1 + 1e-9))
        )


def _one_head(weights, v):
    """(out, v, weights, mask, bound, scores) of one head with exact out = weights v."""
    weights, v = np.array([weights], dtype=float), np.array([v], dtype=float)
    return (
        weights @ v,
        v,
        weights,
        None,
        np.zeros((1, weights.shape[1], v.shape[2])),
        np.zeros(weights.shape),
    )


@numeric
def test_prop_attention_convex_combination_judge_accepts_a_convex_combination():
    assert convexity_violations(*_one_head([[0.25, 0.75]], [[1.0, 0.0], [0.0, 1.0]])) == []


@numeric
def test_prop_attention_convex_combination_judge_names_every_way_a_negative_weight_breaks_it():
    # out = -0.5 v_1 + 1.5 v_2 = (-0.5, 1.5): longer than every value and outside their box
    assert convexity_violations(*_one_head([[-0.5, 1.5]], [[1.0, 0.0], [0.0, 1.0]])) == [
        "a negative weight -5.00e-01",
        f"||out|| = {float(np.linalg.norm([-0.5, 1.5]))!r} > max ||v_j|| = 1.0 (head 0, row 0)",
        "a component leaves [min v, max v] (head 0, row 0)",
    ]


@numeric
def test_prop_attention_convex_combination_judge_rejects_an_output_beyond_the_values():
    out, v, weights, mask, bound, scores = _one_head([[0.5, 0.5]], [[1.0, 0.0], [0.0, 1.0]])
    assert convexity_violations(3 * out, v, weights, mask, bound, scores) == [
        f"||out|| = {float(np.linalg.norm([1.5, 1.5]))!r} > max ||v_j|| = 1.0 (head 0, row 0)",
        "a component leaves [min v, max v] (head 0, row 0)",
    ]
    beside = np.array([[[0.8, -0.5]]])  # ||.|| <= 1, but below min_j (v_j)_2 = 0
    assert convexity_violations(beside, v, weights, mask, bound, scores) == [
        "a component leaves [min v, max v] (head 0, row 0)"
    ]


@numeric
def test_prop_attention_convex_combination_judge_rejects_a_masked_weight_and_a_row_sum():
    out, v, weights, _, bound, scores = _one_head([[0.5, 0.5]], [[1.0, 0.0], [0.0, 1.0]])
    first_only = np.array([[True, False]])
    assert convexity_violations(out, v, weights, first_only, bound, scores) == [
        "a masked weight is not exactly 0"
    ]
    heavy = weights * 1.25  # out = (0.625, 0.625) stays within the values' norm and box
    assert convexity_violations(heavy @ v, v, heavy, None, bound, scores) == [
        "weights of row (0, 0) sum to 1.25"
    ]


@numeric
def test_ex_attention_by_hand_holds():
    evidence = ex_attention_by_hand()
    assert (
        "weights: [[0.4011, 0.1978, 0.4011], [0.1978, 0.4011, 0.4011], "
        "[0.2483, 0.2483, 0.5035]]" in evidence
    )
    assert "changed_unmasked_row_1: [4.6488, -1.811]" in evidence
    # e^1.4142 = 4.1133 is e^sqrt(2) with sqrt(2) printed rounded: a note, not a finding
    assert not any(isinstance(line, Finding) for line in evidence)
    assert any(line.startswith("note: the printed 'e^1.4142 = 4.1133'") for line in evidence)


@numeric
def test_ex_attention_by_hand_rejects_a_misprinted_weight():
    printed = claim_arguments(REGISTRY["ex-attention-by-hand"].claims)["printed"]
    printed["weights"] = [
        [Printed(v, 4) for v in row]
        for row in ([0.4012, 0.1978, 0.4011], [0.1978, 0.4011, 0.4011], [0.2483, 0.2483, 0.5035])
    ]
    with pytest.raises(
        CheckFailed,
        match=r"^weights: computed .* but the chapter prints .*: 1 of "
        r"9 entries exceed their bound; worst at \[0, 0\]",
    ):
        ex_attention_by_hand(printed=printed)


@numeric
def test_ex_attention_by_hand_takes_a_weight_printed_with_fewer_digits_at_its_precision():
    """2.028 is e^(1/sqrt 2) = 2.028115… at 3 decimals; 2.029 is not."""
    printed = claim_arguments(REGISTRY["ex-attention-by-hand"].claims)["printed"]
    printed["exp_score_1_1"] = Printed(2.028, 3)
    assert ex_attention_by_hand(printed=printed)
    printed["exp_score_1_1"] = Printed(2.029, 3)
    with pytest.raises(CheckFailed, match=r"^exp_score_1_1: computed 2\.028115"):
        ex_attention_by_hand(printed=printed)


@numeric
def test_ex_attention_by_hand_rejects_a_wrong_self_score():
    with pytest.raises(CheckFailed, match="not 27"):
        ex_attention_by_hand(stated_self_score=sp.sympify("27/sqrt(2)"))


@numeric
def test_ex_attention_by_hand_rejects_a_mask_that_is_ignored():
    with pytest.raises(CheckFailed):
        ex_attention_by_hand(multi_head_attention=mha_ignoring_mask)


@numeric
def test_ex_attention_by_hand_rejects_causal_outputs_reading_the_last_row_by_1e_9():
    """Into row 2, far below its printed 4 decimals, and the weights stay exact: only the
    bit-for-bit comparison of rows 1-2 sees it (row 1's printed (1, 0) is exact, and a
    leak there is already a printed number that is wrong)."""

    def leaking(x, params, causal=False, context=None):
        out, weights = multi_head_attention(x, params, causal=causal)
        if causal:
            out = out.copy()
            out[1] += 1e-9 * x[-1].sum()
        return out, weights

    with pytest.raises(CheckFailed, match="changing row 3 changed the causal output rows 1-2"):
        ex_attention_by_hand(multi_head_attention=leaking)
