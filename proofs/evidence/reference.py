"""High-precision references: the chapters' definitions evaluated by mpmath.

Each function is written from the definition's formula, loop by loop, not from
the NumPy code it judges. Float inputs convert to mpf exactly, and an input array may
hold mpf already (dtype object: a point moved by less than float64 resolves); the working
precision is the caller's (`with mpmath.workdps(DIGITS):`), so a reference and
the difference taken against it are both at that precision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import mpmath
import numpy as np

from proofs.evidence.remembered import by_content

DIGITS = 50  # the working precision of the references (far beyond float64's 16 digits)


def mp_value(v: object) -> mpmath.mpf:
    """v as an mpf without rounding: an mpf as it is, a float (or NumPy float) exactly."""
    return v if isinstance(v, mpmath.mpf) else mpmath.mpf(float(v))  # type: ignore[arg-type]


def mp_entries(a: np.ndarray) -> list:
    """An array's entries as nested lists of mpf (`mp_value`: without rounding), converted
    once for the loops that read each entry many times. A float array's are kept by its
    content (`by_content`: a reference at many points reads the same weights each time);
    the lists are shared, and read only."""
    if a.dtype == object:
        return _converted(a)
    return _kept_conversion(a, mpmath.mp.prec)


def mp_columns(a: np.ndarray) -> list[tuple]:
    """The columns of a matrix, each a tuple of mpf (`mp_entries`)."""
    return list(zip(*mp_entries(a), strict=True))


def _bias(b: np.ndarray | None, size: int) -> list:
    """A bias vector's entries as mpf (`mp_entries`), or `size` zeros when there is none."""
    return [0] * size if b is None else mp_entries(b)


def _converted(a: np.ndarray) -> list:
    return [_converted(row) for row in a] if a.ndim > 1 else [mp_value(v) for v in a]


@by_content
def _kept_conversion(a: np.ndarray, prec: int) -> list:
    """(keyed by the working precision too: below 53 bits a float's conversion rounds)"""
    return _converted(a)


def mp_softmax_exact(z: Sequence, allowed: Sequence[bool] | None = None) -> list:
    """sigma(z) of mpf entries (no rounding to float on the way in), or sigma^U(z) with
    U = allowed: e^{z_i} / sum_{j in U} e^{z_j} on U, 0 off U."""
    if allowed is not None and (len(allowed) != len(z) or not any(allowed)):
        raise ValueError(
            f"allowed must mark at least one of the {len(z)} entries of z, got {list(allowed)}"
        )
    e = [mpmath.exp(t) for t in z]
    if allowed is not None:
        e = [ei if ok else mpmath.mpf(0) for ei, ok in zip(e, allowed, strict=True)]
    total = mpmath.fsum(e)
    return [ei / total for ei in e]


def mp_softmax(z: Sequence[float] | np.ndarray, allowed: Sequence[bool] | None = None) -> list:
    """sigma(z) (or sigma^U(z) with U = allowed) of float entries, exactly as defined."""
    return mp_softmax_exact([mpmath.mpf(float(zi)) for zi in z], allowed)


def mp_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None) -> list:
    """Attn(Q, K, V) of 定義 4.1［自己注意］ per head, (h, n, d_v) nested lists of mpf."""
    h, n, d_k = q.shape
    m = k.shape[1]
    root = mpmath.sqrt(d_k)
    out = []
    for a in range(h):
        qa, ka = (mp_entries(np.asarray(t[a], dtype=float)) for t in (q, k))
        va = mp_columns(np.asarray(v[a], dtype=float))  # (d_v, m)
        rows = []
        for i in range(n):
            s = [mpmath.fdot(qa[i], ka[j]) / root for j in range(m)]
            allowed = None if mask is None else [bool(x) for x in mask[i]]
            weights = mp_softmax_exact(s, allowed)
            rows.append([mpmath.fdot(weights, column) for column in va])
        out.append(rows)
    return out


def mp_multi_head_attention(
    x: np.ndarray,
    params: Mapping[str, np.ndarray],
    causal: bool = False,
    context: np.ndarray | None = None,
) -> list:
    """MHA(X) of 定義 4.1［自己注意］ as written: per head Q = X W_Q + 1 b_Q^T (and K, V from
    the context), A = sigma(Q K^T / sqrt(d_k)) (sigma^{U_i} under the causal mask), then
    [H^(1) ... H^(h)] W_O + 1 b_O^T. (n, d) nested lists of mpf."""
    c = x if context is None else context
    h, d, d_k = params["w_q"].shape
    n, m = x.shape[0], c.shape[0]

    xs, cs = mp_entries(x), mp_entries(c)

    def project(rows: list, w: str, b: str, a: int) -> list:
        columns = mp_columns(params[w][a])  # (d_k, d)
        bias = params.get(b)
        shift = _bias(None if bias is None else bias[a], d_k)
        return [[mpmath.fdot(row, columns[c_]) + shift[c_] for c_ in range(d_k)] for row in rows]

    root = mpmath.sqrt(d_k)
    heads = []
    for a in range(h):
        q = project(xs, "w_q", "b_q", a)
        k, v = project(cs, "w_k", "b_k", a), project(cs, "w_v", "b_v", a)
        rows = []
        for i in range(n):
            s = [mpmath.fdot(q[i], k[j]) / root for j in range(m)]
            allowed = [j <= i + (m - n) for j in range(m)] if causal else None
            w = mp_softmax_exact(s, allowed)
            rows.append([mpmath.fdot(w, column) for column in zip(*v, strict=True)])
        heads.append(rows)
    w_o = mp_columns(params["w_o"].reshape(h * d_k, d))  # (d, h d_k): the heads side by side
    b_o = params.get("b_o")
    shift = _bias(b_o, d)
    joined = ([heads[a][i][t] for a in range(h) for t in range(d_k)] for i in range(n))
    return [[mpmath.fdot(row, w_o[col]) + shift[col] for col in range(d)] for row in joined]


def mp_layer_norm(
    x: Sequence | np.ndarray,
    gain: Sequence | np.ndarray | None = None,
    shift: Sequence | np.ndarray | None = None,
    eps: float = 0,
) -> list:
    """定義 2.1［Transformer ブロック］: gamma (x - mu 1) / sqrt(sigma^2 + eps) + beta with the
    biased variance, for one row of floats or mpf (both convert without rounding)."""
    x = [mpmath.mpf(v) for v in x]
    d = len(x)
    mu = mpmath.fsum(x) / d
    s = mpmath.sqrt(mpmath.fsum((v - mu) ** 2 for v in x) / d + mpmath.mpf(eps))
    gain = [1] * d if gain is None else [mpmath.mpf(g) for g in gain]
    shift = [0] * d if shift is None else [mpmath.mpf(b) for b in shift]
    return [gain[j] * (x[j] - mu) / s + shift[j] for j in range(d)]


def mp_gelu(t: Iterable[float]) -> list:
    """GELU(t) = t Phi(t) = t erfc(-t / sqrt 2) / 2 for each float t."""
    return [mpmath.mpf(v) * mpmath.erfc(-mpmath.mpf(v) / mpmath.sqrt(2)) / 2 for v in t]


def mp_gelu_tanh(t: object) -> mpmath.mpf:
    """GPT-2's approximation t (1 + tanh(sqrt(2/pi) (t + 0.044715 t^3))) / 2 of one float or
    mpf t, the constant 0.044715 taken as the decimal it is written as."""
    v = mp_value(t)
    inner = mpmath.sqrt(2 / mpmath.pi) * (v + mpmath.mpf("0.044715") * v**3)
    return v * (1 + mpmath.tanh(inner)) / 2


def mp_mlp(x: np.ndarray, params: Mapping[str, np.ndarray], activation: str) -> list:
    """MLP(X) of 定義 2.2［Transformer ブロック］ as written: phi(X W_1 + 1 b_1^T) W_2 + 1 b_2^T
    with phi = ReLU, the exact GELU or its tanh approximation, (n, d) nested lists of mpf."""
    if activation not in ("relu", "gelu", "gelu_tanh"):
        raise ValueError(f"activation must be 'relu', 'gelu' or 'gelu_tanh', got {activation!r}")
    w_1, w_2 = params["w_1"], params["w_2"]
    b_1, b_2 = params.get("b_1"), params.get("b_2")
    d_ff = w_1.shape[1]

    def phi(t):
        if activation == "gelu_tanh":
            return mp_gelu_tanh(t)
        return (
            max(t, mpmath.mpf(0))
            if activation == "relu"
            else t * mpmath.erfc(-t / mpmath.sqrt(2)) / 2
        )

    into, back = mp_columns(w_1), mp_columns(w_2)  # (d_ff, d), (d, d_ff)
    shift_1 = _bias(b_1, d_ff)
    shift_2 = _bias(b_2, len(back))
    out = []
    for row in mp_entries(x):
        hidden = [phi(mpmath.fdot(row, into[c]) + shift_1[c]) for c in range(d_ff)]
        out.append([mpmath.fdot(hidden, back[col]) + shift_2[col] for col in range(len(back))])
    return out


def mp_block(
    x: np.ndarray,
    params: Mapping[str, np.ndarray],
    post: bool,
    causal: bool,
    activation: str,
    eps: float,
) -> np.ndarray:
    """A block of 定義 2.2［Transformer ブロック］ as written, (n, d) of mpf (dtype object):
    Pre-LN Y = X + MHA(LN_1(X)), X' = Y + MLP(LN_2(Y)); Post-LN Y = LN_1(X + MHA(X)),
    X' = LN_2(Y + MLP(Y)); params keyed as numeric.block's ("attn.w_q", "ln_1.gamma", ...)."""

    def part(prefix: str) -> dict:
        return {k[len(prefix) + 1 :]: v for k, v in params.items() if k.startswith(prefix + ".")}

    def norm(rows: np.ndarray, which: str) -> np.ndarray:
        ln = part(which)
        return np.array([mp_layer_norm(r, ln["gamma"], ln["beta"], eps) for r in rows], object)

    def attend(rows: np.ndarray) -> np.ndarray:
        return np.array(mp_multi_head_attention(rows, part("attn"), causal), dtype=object)

    def feed(rows: np.ndarray) -> np.ndarray:
        return np.array(mp_mlp(rows, part("mlp"), activation), dtype=object)

    xs = np.array(_converted(np.asarray(x)), dtype=object)
    if post:
        y = norm(xs + attend(xs), "ln_1")
        return norm(y + feed(y), "ln_2")
    y = xs + attend(norm(xs, "ln_1"))
    return y + feed(norm(y, "ln_2"))


def mp_forward(
    tokens: Sequence[int],
    params: Mapping[str, np.ndarray],
    n_layer: int,
    activation: str,
    eps: float,
) -> np.ndarray:
    """定義 2.3［Transformer ブロック］ as written: X^(0) = E_t + P, n_layer causal Pre-LN
    blocks, Z = LN_f(X^(L)) E^T (or the LM head when params has one), (n, |V|) of mpf."""
    wte = params["wte"]
    rows = [[mp_value(v) for v in wte[t]] for t in tokens]
    if "wpe" in params:
        rows = [
            [a + mp_value(b) for a, b in zip(r, params["wpe"][i], strict=True)]
            for i, r in enumerate(rows)
        ]
    x = np.array(rows, dtype=object)
    for layer in range(n_layer):
        prefix = f"blocks.{layer}."
        block = {k[len(prefix) :]: v for k, v in params.items() if k.startswith(prefix)}
        x = mp_block(x, block, post=False, causal=True, activation=activation, eps=eps)
    z = [mp_layer_norm(r, params["ln_f.gamma"], params["ln_f.beta"], eps) for r in x]
    head = mp_entries(params.get("lm_head", wte))
    return np.array([[mpmath.fdot(r, e) for e in head] for r in z], dtype=object)


def mp_central_jacobian(f: Callable[[list], list], point: Sequence, step) -> list[list]:
    """J_ij = (f(p + h e_j)_i - f(p - h e_j)_i) / 2h at the working precision, for f mapping
    a list of mpf to a list of mpf; rows i, columns j. The caller chooses h and states the
    truncation (h^2 times a third-derivative bound) and rounding (10^-digits / h) errors."""
    h = mpmath.mpf(step)
    base = [mpmath.mpf(t) for t in point]
    columns = []
    for j in range(len(base)):
        up, down = list(base), list(base)
        up[j] += h
        down[j] -= h
        plus, minus = f(up), f(down)
        columns.append([(a - b) / (2 * h) for a, b in zip(plus, minus, strict=True)])
    return [[columns[j][i] for j in range(len(base))] for i in range(len(columns[0]))]


def mp_error(computed: np.ndarray, exact: list) -> np.ndarray:
    """|computed - exact| entrywise (nested lists of mpf matching computed's shape), the
    difference taken at the working precision."""
    flat = np.asarray(computed, dtype=np.float64).ravel()
    ex = list(_flatten(exact))
    if len(ex) != flat.size:
        raise ValueError(
            f"exact must hold one value per entry of computed ({flat.size}), got {len(ex)}"
        )
    return np.array(
        [float(abs(mpmath.mpf(float(c)) - e)) for c, e in zip(flat, ex, strict=True)]
    ).reshape(np.shape(computed))


def _flatten(nested: Iterable) -> Iterable:
    for item in nested:
        if isinstance(item, list):
            yield from _flatten(item)
        else:
            yield item
