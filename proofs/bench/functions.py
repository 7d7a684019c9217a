"""The functions a reader writes, by the names and signatures of the package's own: what
`proofs check` looks for in a reader's file, how it calls each, and whether the reader's
function can be called so (docs/bench.md lists them with a template)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Expected:
    """A function the bench can judge: its name, the arguments it is given positionally,
    the keywords it is given (each must be a parameter, or **kwargs), and what it does."""

    name: str
    positional: tuple[str, ...]
    keywords: tuple[str, ...]
    does: str

    @property
    def signature(self) -> str:
        return f"{self.name}({', '.join(self.positional + tuple(k + '=…' for k in self.keywords))})"


EXPECTED = (
    Expected("softmax", ("z",), (), "sigma(z) along the last axis (定義 2.2［自己注意］)"),
    Expected(
        "masked_softmax",
        ("z", "mask"),
        (),
        "sigma^U(z), mask boolean with True on U, along the last axis (定義 2.2［自己注意］)",
    ),
    Expected(
        "attention",
        ("q", "k", "v"),
        ("mask",),
        "Attn(Q, K, V) per head, q (h, n, d_k): out (h, n, d_v), or (out, weights) "
        "(定義 4.1［自己注意］)",
    ),
    Expected(
        "multi_head_attention",
        ("x", "params"),
        ("causal",),
        "MHA(X), x (n, d), params w_q w_k w_v (h, d, d/h), w_o (h, d/h, d), optional "
        "b_q b_k b_v (h, d/h), b_o (d,): out (n, d), or (out, weights) (定義 4.1［自己注意］)",
    ),
    Expected(
        "layer_norm",
        ("x", "gamma", "beta", "eps"),
        (),
        "LN over the last axis (定義 2.1［Transformer ブロック］)",
    ),
    Expected("gelu", ("t",), (), "GELU(t) = t Phi(t) entrywise (定義 2.2［Transformer ブロック］)"),
    Expected(
        "mlp",
        ("x", "params"),
        ("activation",),
        "phi(X W_1 + b_1) W_2 + b_2, params w_1 (d, d_ff), b_1, w_2 (d_ff, d), b_2; "
        "activation 'relu' or 'gelu' (定義 2.2［Transformer ブロック］)",
    ),
    Expected(
        "pre_ln_block",
        ("x", "params"),
        ("causal", "activation", "eps"),
        "Y = X + MHA(LN_1(X)), X' = Y + MLP(LN_2(Y)); params 'ln_1.gamma', 'attn.w_q', "
        "'mlp.w_1', ... (定義 2.2［Transformer ブロック］)",
    ),
    Expected(
        "post_ln_block",
        ("x", "params"),
        ("causal", "activation", "eps"),
        "Y = LN_1(X + MHA(X)), X' = LN_2(Y + MLP(Y)) (定義 2.2［Transformer ブロック］)",
    ),
    Expected(
        "forward",
        ("tokens", "params", "config"),
        (),
        "the logits (n, |V|) of the decoder-only model; params 'wte', 'wpe', "
        "'blocks.0.attn.w_q', ..., 'ln_f.gamma'; config with vocab, d, n_layer, n_head, "
        "d_ff, n_ctx, activation, layer_norm_eps (定義 2.3［Transformer ブロック］)",
    ),
    Expected(
        "model_parameters",
        ("config",),
        (),
        "the number of parameters of a configuration (config.bias, config.tied, "
        "config.positions switch the variants) (定理 5.1［Transformer ブロック］)",
    ),
    Expected(
        "block_multiplications",
        ("config", "n"),
        (),
        "the multiplications of one block's products on n positions "
        "(命題 6.1［Transformer ブロック］)",
    ),
)
BY_NAME = {e.name: e for e in EXPECTED}


def mismatch(expected: Expected, found: object) -> str:
    """Why the reader's `found` (the harness's description of it) cannot be called as
    `expected` is, "" when it can."""
    if not isinstance(found, list):
        if isinstance(found, dict) and "missing" in found:
            return f"no function {expected.name} in the file; expected {expected.signature}"
        if isinstance(found, dict) and "not_callable" in found:
            kind = str(found["not_callable"])[:40]
            return f"{expected.name} is a {kind}, not a function; expected {expected.signature}"
        return ""  # a callable without a signature to read: it is tried
    params = [
        (str(p[0]), str(p[1]), bool(p[2])) for p in found if isinstance(p, list) and len(p) == 3
    ]
    names = {name for name, _, _ in params}
    varargs = any(kind == "VAR_POSITIONAL" for _, kind, _ in params)
    varkw = any(kind == "VAR_KEYWORD" for _, kind, _ in params)
    positional = [p for p in params if p[1] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
    wanted = len(expected.positional)
    if len(positional) < wanted and not varargs:
        shown = ", ".join(name for name, _, _ in params)
        return (
            f"{expected.name}({shown}) takes {len(positional)} positional arguments; "
            f"expected {expected.signature}"
        )
    extra = [name for name, kind, default in positional[wanted:] if not default]
    extra += [name for name, kind, default in params if kind == "KEYWORD_ONLY" and not default]
    extra = [name for name in extra if name not in expected.keywords]
    if extra:
        return (
            f"{expected.name} needs an argument {extra[0]!r} the bench does not give; "
            f"expected {expected.signature}"
        )
    missing = [k for k in expected.keywords if k not in names and not varkw]
    if missing:
        return f"{expected.name} has no parameter {missing[0]!r}; expected {expected.signature}"
    return ""
