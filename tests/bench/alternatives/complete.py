"""Every function of the bench, as the chapters write them (§8 and §9), in one file."""

import numpy as np


def softmax(z):
    z = np.asarray(z)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def masked_softmax(z, mask):
    if not np.asarray(mask).any(axis=-1).all():
        raise ValueError("a row with nothing to attend to")
    return softmax(np.where(mask, z, -np.inf))


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta


def gelu(t):
    from scipy.special import erf

    return 0.5 * t * (1 + erf(t / np.sqrt(2)))


def attention(q, k, v, mask=None):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = softmax(s)
    return w @ v, w


def multi_head_attention(x, params, causal=False):
    p = params
    q = (
        np.einsum("nd,hdk->hnk", x, p["w_q"]) + p.get("b_q", 0)[..., None, :]
        if "b_q" in p
        else np.einsum("nd,hdk->hnk", x, p["w_q"])
    )
    k = np.einsum("nd,hdk->hnk", x, p["w_k"]) + (p["b_k"][:, None, :] if "b_k" in p else 0)
    v = np.einsum("nd,hdk->hnk", x, p["w_v"]) + (p["b_v"][:, None, :] if "b_v" in p else 0)
    n = x.shape[0]
    mask = np.tril(np.ones((n, n), bool)) if causal else None
    heads, w = attention(q, k, v, mask)
    out = np.einsum("hnk,hkd->nd", heads, p["w_o"]) + p.get("b_o", 0)
    return out, w


def mlp(x, params, activation="gelu"):
    phi = gelu if activation == "gelu" else (lambda t: np.maximum(t, 0))
    h = x @ params["w_1"] + params.get("b_1", 0)
    return phi(h) @ params["w_2"] + params.get("b_2", 0)


def _sub(p, prefix):
    return {k[len(prefix) + 1 :]: v for k, v in p.items() if k.startswith(prefix + ".")}


def pre_ln_block(x, params, causal=True, activation="gelu", eps=1e-5):
    ln1, ln2 = _sub(params, "ln_1"), _sub(params, "ln_2")
    y = (
        x
        + multi_head_attention(
            layer_norm(x, ln1["gamma"], ln1["beta"], eps), _sub(params, "attn"), causal
        )[0]
    )
    return y + mlp(layer_norm(y, ln2["gamma"], ln2["beta"], eps), _sub(params, "mlp"), activation)


def post_ln_block(x, params, causal=True, activation="gelu", eps=1e-5):
    ln1, ln2 = _sub(params, "ln_1"), _sub(params, "ln_2")
    y = layer_norm(
        x + multi_head_attention(x, _sub(params, "attn"), causal)[0], ln1["gamma"], ln1["beta"], eps
    )
    return layer_norm(y + mlp(y, _sub(params, "mlp"), activation), ln2["gamma"], ln2["beta"], eps)


def forward(tokens, params, config):
    x = params["wte"][tokens] + params["wpe"][: len(tokens)]
    for layer in range(config.n_layer):
        x = pre_ln_block(
            x, _sub(params, f"blocks.{layer}"), True, config.activation, config.layer_norm_eps
        )
    lf = _sub(params, "ln_f")
    return layer_norm(x, lf["gamma"], lf["beta"], config.layer_norm_eps) @ params["wte"].T


def model_parameters(config):
    d, f, L = config.d, config.d_ff, config.n_layer
    per = 4 * d * d + 2 * d * f + 4 * d
    if config.bias:
        per += 4 * d + f + d
    total = config.vocab * d + L * per + 2 * d
    if config.positions:
        total += config.n_ctx * d
    if not config.tied:
        total += config.vocab * d
    return total


def block_multiplications(config, n):
    d, f = config.d, config.d_ff
    return 4 * n * d * d + 2 * n * n * d + 2 * n * d * f
