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

from numeric.attention import _attend_causal, _heads, _merge
from numeric.block import _pre_ln
from numeric.model import check_model_parameters
from numeric.validation import as_tokens
from spec.config import ModelConfig
from spec.contractions import K_PROJECTION, Q_PROJECTION, V_PROJECTION


class Decoder:
    """The model of 定義 2.3 fed a few tokens at a time; positions continue across feeds."""

    def __init__(self, params: Mapping[str, object], config: ModelConfig):
        self.model = check_model_parameters(params, config)
        self.config = config
        h, d_head = config.n_head, config.d // config.n_head
        shape = (h, config.n_ctx, d_head)
        dtype = self.model.dtype
        self.keys = [np.empty(shape, dtype=dtype) for _ in range(config.n_layer)]  # (h, L_ctx, k)
        self.values = [np.empty(shape, dtype=dtype) for _ in range(config.n_layer)]
        self.position = 0  # tokens fed so far

    def reset(self) -> None:
        """Forget the cached sequence."""
        self.position = 0

    def feed(self, tokens: object) -> np.ndarray:
        """Logits (k, |V|) of the k new tokens (an int or a 1-D sequence of ids)."""
        tokens = as_tokens(tokens, "tokens", self.config.vocab, self.config.n_ctx)
        if len(tokens) > self.config.n_ctx - self.position:
            raise ValueError(
                f"tokens: feeding {len(tokens)} at position {self.position} exceeds the context "
                f"length {self.config.n_ctx}"
            )
        start, end = self.position, self.position + len(tokens)

        def attend(z: np.ndarray, layer: int) -> tuple[np.ndarray, None]:
            p = self.model.blocks[layer]["attn"]
            keys, values = self.keys[layer], self.values[layer]
            keys[:, start:end] = _heads(z, p["w_k"], p.get("b_k"), K_PROJECTION)  # (h, k, d_head)
            values[:, start:end] = _heads(z, p["w_v"], p.get("b_v"), V_PROJECTION)
            q = _heads(z, p["w_q"], p.get("b_q"), Q_PROJECTION)  # (h, k, d_head)
            o, _ = _attend_causal(q, keys[:, :end], values[:, :end], need_weights=False)
            return _merge(o, p["w_o"], p.get("b_o")), None

        with np.errstate(over="ignore", invalid="ignore"):  # reported by require_finite
            x = self.model.embed(tokens, start)  # (k, d)
            eps = self.config.layer_norm_eps
            for layer, block in enumerate(self.model.blocks):
                x, _ = _pre_ln(x, block, lambda z, layer=layer: attend(z, layer),
                               self.model.phi, eps)
            logits = self.model.logits(x)  # (k, |V|)
        logits = self.model.require_finite(logits)
        self.position = end
        return logits
