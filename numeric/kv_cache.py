"""Incremental decoding with a key/value cache (補題 6.2 (3), 系 6.4［自己注意］).

Under the causal mask, the keys and values of positions 1..i do not change when
tokens are appended (the model is causal), so they are computed once, kept,
and each new token costs one row of every projection plus attention over the
cached keys. Feeding a sequence one token or one chunk at a time gives the
logits of `model.forward` on the whole sequence, to rounding.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from numeric.attention import causal_attention_kernel, merge_heads, project_heads
from numeric.block import pre_ln_kernel
from numeric.model import check_model_parameters
from numeric.validation import as_tokens, require_allocation
from spec.config import ModelConfig
from spec.contractions import K_PROJECTION, Q_PROJECTION, V_PROJECTION


class Decoder:
    """The model of 定義 2.3 fed a few tokens at a time; positions continue across feeds.

    The parameters are copied when the Decoder is made: the cached keys and values
    were computed with them, so a later change to the caller's arrays must not mix
    two models in one sequence (make a new Decoder for new parameters).

    >>> from numeric.model import init_parameters
    >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=4)
    >>> decoder = Decoder(init_parameters(config, np.random.default_rng(0)), config)
    >>> decoder.feed(2).shape, decoder.feed([0, 4]).shape, decoder.position
    ((1, 5), (2, 5), 3)
    """

    def __init__(self, params: Mapping[str, object], config: ModelConfig):
        self.model = check_model_parameters(params, config, copy=True)
        self.config = config
        h, d_head = config.n_head, config.d // config.n_head
        shape = (h, config.n_ctx, d_head)
        dtype = self.model.dtype
        require_allocation((2 * config.n_layer,) + shape, dtype, "the key/value cache")
        self.keys = [np.empty(shape, dtype=dtype) for _ in range(config.n_layer)]  # (h, L_ctx, k)
        self.values = [np.empty(shape, dtype=dtype) for _ in range(config.n_layer)]
        self.position = 0  # tokens fed so far

    def reset(self) -> None:
        """Forget the cached sequence.

        >>> from numeric.model import init_parameters
        >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=4)
        >>> decoder = Decoder(init_parameters(config, np.random.default_rng(0)), config)
        >>> _ = decoder.feed([1, 2])
        >>> decoder.reset()
        >>> decoder.position
        0
        """
        self.position = 0

    def _attend(
        self, z: np.ndarray, layer: int, start: int, end: int
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Attention of layer `layer` for the new rows z (k, d) at positions start..end - 1,
        appending their keys and values to the cache."""
        p = self.model.blocks[layer]["attn"]
        keys, values = self.keys[layer], self.values[layer]
        keys[:, start:end] = project_heads(z, p["w_k"], p.get("b_k"), K_PROJECTION)  # (h, k, .)
        values[:, start:end] = project_heads(z, p["w_v"], p.get("b_v"), V_PROJECTION)
        q = project_heads(z, p["w_q"], p.get("b_q"), Q_PROJECTION)  # (h, k, d_head)
        o, _ = causal_attention_kernel(q, keys[:, :end], values[:, :end], need_weights=False)
        return merge_heads(o, p["w_o"], p.get("b_o")), None

    def feed(self, tokens: object) -> np.ndarray:
        """Logits (k, |V|) of the k new tokens (an int or a 1-D sequence of ids).

        >>> from numeric.model import init_parameters
        >>> config = ModelConfig(vocab=5, d=4, n_layer=1, n_head=2, d_ff=8, n_ctx=4)
        >>> decoder = Decoder(init_parameters(config, np.random.default_rng(0)), config)
        >>> decoder.feed([1, 2, 3]).shape
        (3, 5)
        >>> decoder.feed([4, 0])
        Traceback (most recent call last):
        ValueError: tokens: feeding 2 at position 3 exceeds the context length 4
        """
        ids = as_tokens(tokens, "tokens", self.config.vocab, self.config.n_ctx)
        if len(ids) > self.config.n_ctx - self.position:
            raise ValueError(
                f"tokens: feeding {len(ids)} at position {self.position} exceeds the context "
                f"length {self.config.n_ctx}"
            )
        start, end = self.position, self.position + len(ids)
        with np.errstate(over="ignore", invalid="ignore"):  # reported by require_finite
            x = self.model.embed(ids, start)  # (k, d)
            eps = self.config.layer_norm_eps
            for layer, block in enumerate(self.model.blocks):

                def attend(
                    z: np.ndarray, layer: int = layer
                ) -> tuple[np.ndarray, np.ndarray | None]:
                    return self._attend(z, layer, start, end)

                x, _ = pre_ln_kernel(x, block, attend, self.model.phi, eps)
            logits = self.model.logits(x)  # (k, |V|)
        logits = self.model.require_finite(logits)
        self.position = end
        return logits
