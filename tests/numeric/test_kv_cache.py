"""numeric.kv_cache.Decoder: incremental decoding equals the full pass (系 6.4［自己注意］)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import numeric.attention
from numeric.kv_cache import Decoder
from numeric.model import forward, init_parameters
from numeric.running_error import model_rounding_bound
from proofs.book.profiles import scaled
from spec import ModelConfig

pytestmark = pytest.mark.numeric

CONFIG = ModelConfig(vocab=17, d=8, n_layer=2, n_head=2, d_ff=24, n_ctx=12, activation="gelu_tanh")


def chunks_of(n: int):
    """Hypothesis: a split of range(n) into consecutive non-empty chunks."""
    return st.sets(st.integers(1, n - 1), max_size=n - 1).map(
        lambda cuts: list(zip([0, *sorted(cuts)], [*sorted(cuts), n], strict=True))
    )


def assert_decoding_matches_forward(config, params, tokens, chunks):
    """Both evaluations are within model_rounding_bound of the exact logits, entry by
    entry, so within twice it of each other."""
    decoder = Decoder(params, config)
    logits = np.concatenate([decoder.feed(tokens[a:b]) for a, b in chunks])
    full = forward(tokens, params, config)
    assert decoder.position == len(tokens)
    assert (np.abs(logits - full) <= 2 * model_rounding_bound(tokens, params, config)[1]).all()


@scaled(0.5)  # every example runs the model's rounding-bound propagation
@given(
    st.integers(2, 12).flatmap(lambda n: st.tuples(st.just(n), chunks_of(n))),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
@pytest.mark.element("cor-parallel-next-token")
def test_decoding_in_chunks_equals_the_full_pass(n_chunks, tied, seed):
    n, chunks = n_chunks
    config = ModelConfig(**{**CONFIG.__dict__, "tied": tied})
    rng = np.random.default_rng(seed)
    params = init_parameters(config, rng)
    tokens = rng.integers(0, config.vocab, size=n)
    assert_decoding_matches_forward(config, params, tokens, chunks)


@pytest.mark.element("cor-parallel-next-token")
def test_decoding_one_token_at_a_time_equals_the_full_pass():
    params = init_parameters(CONFIG, np.random.default_rng(1))
    tokens = np.random.default_rng(2).integers(0, CONFIG.vocab, size=CONFIG.n_ctx)
    assert_decoding_matches_forward(CONFIG, params, tokens, [(i, i + 1) for i in range(12)])


@pytest.mark.element("cor-parallel-next-token")
def test_decoding_across_several_causal_blocks(monkeypatch):
    """Blocks of 2 query rows: chunks then attend with an offset into the cached keys."""
    monkeypatch.setattr(numeric.attention, "CAUSAL_BLOCK", 2)
    params = init_parameters(CONFIG, np.random.default_rng(3))
    tokens = np.random.default_rng(4).integers(0, CONFIG.vocab, size=11)
    assert_decoding_matches_forward(CONFIG, params, tokens, [(0, 5), (5, 6), (6, 11)])


def test_decoder_accepts_an_int_and_keeps_float32():
    params = init_parameters(CONFIG, np.random.default_rng(5), dtype=np.float32)
    decoder = Decoder(params, CONFIG)
    first = decoder.feed(3)
    assert first.shape == (1, CONFIG.vocab) and first.dtype == np.float32
    assert decoder.position == 1
    decoder.reset()
    assert decoder.position == 0
    assert np.array_equal(decoder.feed(np.int64(3)), first)


def test_decoder_rejects_feeding_past_the_context_length():
    params = init_parameters(CONFIG, np.random.default_rng(6))
    decoder = Decoder(params, CONFIG)
    decoder.feed(list(range(10)))
    with pytest.raises(ValueError, match="feeding 3 at position 10 exceeds the context length 12"):
        decoder.feed([1, 2, 3])
    assert decoder.position == 10  # a rejected feed changes nothing
    decoder.feed([1, 2])
    with pytest.raises(ValueError, match="exceeds the context length 12"):
        decoder.feed(1)


def test_decoder_rejects_bad_tokens():
    decoder = Decoder(init_parameters(CONFIG, np.random.default_rng(7)), CONFIG)
    with pytest.raises(ValueError, match=r"got 17 at position 0"):
        decoder.feed(17)
    with pytest.raises(ValueError, match="must not be empty"):
        decoder.feed([])
    with pytest.raises(TypeError, match="integer token ids"):
        decoder.feed(1.0)
