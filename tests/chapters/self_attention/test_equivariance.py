"""§5 置換同変性 (proofs/chapters/self_attention/equivariance.py): closure (補題 5.1),
equivariance of attention (定理 5.2), bag of tokens (系 5.3), the causal witness (注意 5.4).
Each check passes, and rejects wrong variants."""

from __future__ import annotations

import numpy as np
import pytest
from chapters.self_attention.variants import (
    OFF_DEFINITION,
    mha_ignoring_mask,
    mha_unscaled,
    mha_with_positions,
)

from numeric.attention import multi_head_attention
from proofs.book.judge import CheckFailed
from proofs.chapters.self_attention.equivariance import (
    cor_bag_of_tokens,
    lem_equivariant_closure,
    rem_causal_not_equivariant,
    thm_attention_equivariance,
)

numeric = pytest.mark.numeric


@numeric
def test_lem_equivariant_closure_holds():
    assert len(lem_equivariant_closure()) == 1


@numeric
def test_lem_equivariant_closure_rejects_a_position_dependent_map():
    def positional(x, params):
        return np.asarray(x) + np.arange(np.shape(x)[0])[:, None]

    with pytest.raises(CheckFailed):
        lem_equivariant_closure(row_wise=positional)


@numeric
def test_thm_attention_equivariance_holds():
    evidence = thm_attention_equivariance()
    assert evidence[0].startswith("listing sizes")


@numeric
def test_thm_attention_equivariance_rejects_attention_with_positions():
    with pytest.raises(CheckFailed):
        thm_attention_equivariance(multi_head_attention=mha_with_positions)


@numeric
def test_thm_attention_equivariance_rejects_positions_everywhere_but_at_the_listings_sizes():
    def positions_off_listing(x, params, causal=False, context=None):
        if np.shape(x) == (6, 8):
            return multi_head_attention(x, params, causal=causal)
        return mha_with_positions(x, params, causal)

    # equivariance is judged on every draw before the definition is
    with pytest.raises(
        CheckFailed,
        match=r"^MHA\(PX\) != P MHA\(X\): \d+ of \d+ cases exceed "
        r"their bound; worst: pi = ",
    ):
        thm_attention_equivariance(multi_head_attention=positions_off_listing)


@numeric
def test_thm_attention_equivariance_rejects_unscaled_scores_everywhere_but_at_the_listings_sizes():
    def unscaled_off_listing(x, params, causal=False, context=None):
        if np.shape(x) == (6, 8):
            return multi_head_attention(x, params, causal=causal)
        return mha_unscaled(x, params, causal)

    with pytest.raises(
        CheckFailed,
        match=r"^the attention against 定義 4\.1's MHA at 50 digits: "
        r"\d+ of \d+ cases exceed their bound; worst: x \(",
    ):
        thm_attention_equivariance(multi_head_attention=unscaled_off_listing)


@numeric
def test_thm_attention_equivariance_rejects_unscaled_scores():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        thm_attention_equivariance(multi_head_attention=mha_unscaled)


@numeric
def test_cor_bag_of_tokens_holds():
    assert len(cor_bag_of_tokens()) == 1


@numeric
def test_cor_bag_of_tokens_rejects_attention_with_positions():
    with pytest.raises(CheckFailed):
        cor_bag_of_tokens(multi_head_attention=mha_with_positions)


@numeric
def test_cor_bag_of_tokens_rejects_unscaled_scores():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        cor_bag_of_tokens(multi_head_attention=mha_unscaled)


@numeric
def test_rem_causal_not_equivariant_holds():
    assert len(rem_causal_not_equivariant()) == 5


@numeric
def test_rem_causal_not_equivariant_rejects_a_mask_that_is_ignored():
    with pytest.raises(CheckFailed):
        rem_causal_not_equivariant(multi_head_attention=mha_ignoring_mask)


@numeric
def test_rem_causal_not_equivariant_rejects_unscaled_causal_scores():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        rem_causal_not_equivariant(multi_head_attention=mha_unscaled)
