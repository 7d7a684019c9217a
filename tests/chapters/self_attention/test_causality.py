"""§6 因果性 (proofs/chapters/self_attention/causality.py): causal maps (定義 6.1),
closure (補題 6.2), the causal mask (定理 6.3), parallel next-token prediction (系 6.4). Each
check passes, and rejects wrong variants."""

from __future__ import annotations

import numpy as np
import pytest
from chapters.self_attention.variants import (
    OFF_DEFINITION,
    mha_attending_to_itself,
    mha_ignoring_mask,
    mha_leaking_next,
    mha_scaled_by_length,
)

from numeric.attention import multi_head_attention
from proofs.book.judge import CheckFailed
from proofs.chapters.self_attention.causality import (
    cor_parallel_next_token,
    def_causal_map,
    lem_causal_closure,
    thm_causal_mask,
)

numeric = pytest.mark.numeric


@numeric
def test_def_causal_map_holds():
    assert len(def_causal_map()) == 3


@numeric
def test_def_causal_map_rejects_a_mask_letting_the_next_key_through():
    with pytest.raises(CheckFailed):
        def_causal_map(multi_head_attention=mha_leaking_next)


@numeric
def test_def_causal_map_rejects_a_leak_at_the_future_rows():
    with pytest.raises(CheckFailed, match=r"changing rows \d+\.\.\d+ changed rows 1\.\."):
        def_causal_map(multi_head_attention=mha_leaking_next)


@numeric
def test_def_causal_map_rejects_rows_that_depend_on_the_length_at_the_prefixes():
    with pytest.raises(CheckFailed, match=r"f_n\(X\)_\(1:i\) != f_i\(X_\(1:i\)\)"):
        def_causal_map(multi_head_attention=mha_scaled_by_length)


@numeric
def test_def_causal_map_rejects_attention_masked_even_when_unmasked_is_asked():
    def always_masked(x, params, causal=False, context=None):
        return multi_head_attention(x, params, causal=True)

    with pytest.raises(CheckFailed, match="unmasked attention looks causal"):
        def_causal_map(multi_head_attention=always_masked)


@numeric
def test_def_causal_map_rejects_attention_to_itself_only():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        def_causal_map(multi_head_attention=mha_attending_to_itself)


@numeric
def test_lem_causal_closure_holds():
    assert len(lem_causal_closure()) == 1


@numeric
def test_lem_causal_closure_rejects_a_map_reading_the_future():
    def reverse_cumsum(y):
        return np.cumsum(np.asarray(y)[::-1], axis=0)[::-1]

    with pytest.raises(CheckFailed):
        lem_causal_closure(position_wise=reverse_cumsum)


@numeric
def test_thm_causal_mask_holds():
    assert len(thm_causal_mask()) == 2


@numeric
def test_thm_causal_mask_rejects_a_mask_letting_the_next_key_through():
    with pytest.raises(CheckFailed):
        thm_causal_mask(multi_head_attention=mha_leaking_next)


@numeric
def test_thm_causal_mask_rejects_attention_to_itself_only():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        thm_causal_mask(multi_head_attention=mha_attending_to_itself)


@numeric
def test_cor_parallel_next_token_holds():
    assert len(cor_parallel_next_token()) == 3


@numeric
def test_cor_parallel_next_token_rejects_a_mask_that_is_ignored():
    with pytest.raises(CheckFailed):
        cor_parallel_next_token(multi_head_attention=mha_ignoring_mask)


@numeric
def test_cor_parallel_next_token_rejects_attention_to_itself_only():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        cor_parallel_next_token(multi_head_attention=mha_attending_to_itself)


@numeric
def test_cor_parallel_next_token_rejects_a_decoder_forgetting_its_cache():
    from numeric.kv_cache import Decoder

    class Forgetful(Decoder):
        def feed(self, tokens):
            self.reset()  # every feed starts a new sequence: earlier keys are lost
            return super().feed(tokens)

    with pytest.raises(CheckFailed):
        cor_parallel_next_token(decoder=Forgetful)


@numeric
def test_cor_parallel_next_token_rejects_a_decoder_giving_each_chunks_last_logits():
    from numeric.kv_cache import Decoder

    class LastOnly(Decoder):
        def feed(self, tokens):
            return super().feed(tokens)[-1:]

    with pytest.raises(
        CheckFailed,
        match=r"the KV-cache decoder fed \[4, 4\] tokens gives logits "
        r"of shape \(2, 11\), not \(8, 11\)",
    ):
        cor_parallel_next_token(decoder=LastOnly)


@numeric
def test_cor_parallel_next_token_rejects_logits_that_drift_with_the_length_by_1e_12():
    """Row t of a length-n pass off by a relative 1e-12 n: the entrywise bound built from
    |W||dx| chains let it through (and 1e-9 n), the Jacobian-carried bound does not."""
    from numeric.model import forward

    def drifting(tokens, params, config):
        return forward(tokens, params, config) * (1 + 1e-12 * len(tokens))

    with pytest.raises(CheckFailed):
        cor_parallel_next_token(forward=drifting)


@numeric
def test_cor_parallel_next_token_rejects_logits_that_drift_below_the_full_context():
    """Exact at the full context (the fixed sequences' length 8), so only the prefixes
    differ from the one pass's rows."""
    from numeric.model import forward

    def drifting(tokens, params, config):
        return forward(tokens, params, config) * (1 + 1e-9 * (config.n_ctx - len(tokens)))

    with pytest.raises(CheckFailed, match=r"forward\(tokens\)\[t-1\] != forward\(tokens\[:t\]\)"):
        cor_parallel_next_token(forward=drifting)


@numeric
def test_cor_parallel_next_token_rejects_a_model_reading_the_next_token():
    from numeric.model import forward

    def peeking(tokens, params, config):
        """Each row's logits plus the next token's embedding: reads the future."""
        logits = forward(tokens, params, config)
        later = np.append(np.asarray(tokens)[1:], 0)
        return logits + params["wte"][later] @ params["wte"].T

    with pytest.raises(CheckFailed):
        cor_parallel_next_token(forward=peeking)
