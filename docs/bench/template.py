"""A reader's file for `python -m proofs check`: write any of these functions (the bench
judges those it finds), with these names and signatures. Arrays are NumPy arrays."""


def softmax(z):
    """σ(z) along the last axis (定義 2.2［自己注意］)."""
    raise NotImplementedError


def masked_softmax(z, mask):
    """σ^U(z) along the last axis, mask boolean and True on U (定義 2.2)."""
    raise NotImplementedError


def attention(q, k, v, mask=None):
    """Attn(Q, K, V) per head, q (h, n, d_k): out (h, n, d_v), or (out, weights)."""
    raise NotImplementedError


def multi_head_attention(x, params, causal=False):
    """MHA(X), x (n, d); params w_q w_k w_v (h, d, d/h), w_o (h, d/h, d), optional
    b_q b_k b_v (h, d/h), b_o (d,): out (n, d), or (out, weights)."""
    raise NotImplementedError


def layer_norm(x, gamma, beta, eps):
    """LN over the last axis (定義 2.1［Transformer ブロック］)."""
    raise NotImplementedError


def gelu(t):
    """GELU(t) = tΦ(t) entrywise (定義 2.2［Transformer ブロック］)."""
    raise NotImplementedError


def mlp(x, params, activation="gelu"):
    """φ(XW₁ + 1b₁ᵀ)W₂ + 1b₂ᵀ; params w_1 (d, d_ff), b_1, w_2 (d_ff, d), b_2."""
    raise NotImplementedError


def pre_ln_block(x, params, causal=True, activation="gelu", eps=1e-5):
    """Y = X + MHA(LN₁(X)), X' = Y + MLP(LN₂(Y)); params "ln_1.gamma", "attn.w_q", "mlp.w_1", …"""
    raise NotImplementedError


def post_ln_block(x, params, causal=True, activation="gelu", eps=1e-5):
    """Y = LN₁(X + MHA(X)), X' = LN₂(Y + MLP(Y)); the same keys."""
    raise NotImplementedError


def forward(tokens, params, config):
    """The logits (n, |V|); params "wte", "wpe", "blocks.0.attn.w_q", …, "ln_f.gamma"."""
    raise NotImplementedError


def model_parameters(config):
    """The parameter count of a configuration (定理 5.1): config.vocab, .d, .n_layer,
    .d_ff, .n_ctx, and the variants .bias, .tied, .positions."""
    raise NotImplementedError


def block_multiplications(config, n):
    """The multiplications of one block's products on n positions (命題 6.1)."""
    raise NotImplementedError
