"""The clauses a reader's LayerNorm and GELU answer to: 定義 2.1, 命題 3.1, 例 3.2, 演習 11.2
and 定義 2.2's GELU (exact, or the tanh approximation, said which). The chapter does not
make LayerNorm robust at the float limits, so its cases stay where the definition
evaluated directly is finite and well conditioned; rows of large offset, near-constant
rows and huge entries are probed in a clause of notes, which never fails a reader."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from numeric.activations import gelu_tanh
from proofs.bench.clauses import clause
from proofs.bench.reading import (
    Rejected,
    as_array,
    compare,
    lowered,
    rounded,
    short,
    working_dtype,
)
from proofs.bench.results import Witness
from proofs.bench.session import Reply, Session
from proofs.bench.slips import Slip, answer_array, close_to
from proofs.bench.tolerances import gelu_tolerance, layer_norm_tolerance
from proofs.chapters.self_attention.strategies import bounded_floats
from proofs.evidence.reference import mp_gelu, mp_gelu_tanh, mp_layer_norm

SOURCE = "a bound any two-pass or shifted-data LayerNorm meets in {dtype} (docs/bench.md#layernorm)"
DEFINITION = "def-layer-norm 定義 2.1［Transformer ブロック］"
EPS = (0.0, 1e-5, 0.1, 1.0)


def exact_layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    rows = x.reshape(-1, x.shape[-1]).astype(np.float64)
    g, b = gamma.astype(np.float64), beta.astype(np.float64)
    out = [[float(v) for v in mp_layer_norm(r, g, b, eps)] for r in rows]
    return np.array(out).reshape(x.shape)


@st.composite
def layer_norm_cases(draw: st.DrawFn) -> tuple:
    """(x (d,), (n, d) or (b, n, d), gamma, beta, eps): entries within 10, rows whose spread
    is at least a tenth of their largest entry, float64 or float32."""
    dtype = draw(st.sampled_from([np.float64, np.float32]))
    width = 32 if dtype == np.float32 else 64
    d = draw(st.integers(2, 8))
    lead = draw(st.sampled_from([(), (1,), (3,), (2, 2)]))
    x = draw(hnp.arrays(dtype, (*lead, d), elements=bounded_floats(10.0, width)))
    rows = x.reshape(-1, d).astype(np.float64)
    spread = rows.std(axis=-1)
    top = np.abs(rows).max(axis=-1)
    if not np.all(spread >= 0.1 * np.maximum(top, 1e-3)):
        x = x + np.arange(d, dtype=dtype)  # spread out: a ramp keeps every row far from constant
    gamma = draw(hnp.arrays(dtype, (d,), elements=bounded_floats(3.0, width)))
    beta = draw(hnp.arrays(dtype, (d,), elements=bounded_floats(3.0, width)))
    return x, gamma, beta, draw(st.sampled_from(EPS))


def judge_layer_norm(session: Session, case: tuple) -> str:
    x, gamma, beta, eps = case
    inputs = f"x = {short(x)}, gamma = {short(gamma)}, beta = {short(beta)}, eps = {eps!r}"
    reply = session.call("layer_norm", x, gamma, beta, eps)
    dtype = working_dtype(reply, x, gamma, beta)
    held_x, held_gamma, held_beta = rounded((x, gamma, beta), dtype)
    out = as_array(reply, x.shape, f"x of shape {x.shape}", inputs=inputs)
    exact = exact_layer_norm(held_x, held_gamma, held_beta, eps)
    tolerance = layer_norm_tolerance(held_x, held_gamma, held_beta, eps, dtype)
    compare("layer_norm", out, exact, tolerance, inputs, SOURCE.format(dtype=dtype))
    return lowered(dtype, x, gamma, beta)


def _model(case: tuple, reply: Reply, change: str) -> bool:
    x, gamma, beta, eps = (
        np.asarray(a, dtype=np.float64) if i < 3 else a for i, a in enumerate(case)
    )
    d = x.shape[-1]
    mu = x.mean(axis=-1, keepdims=True)
    c = x - mu
    var = (c * c).mean(axis=-1, keepdims=True)
    if change == "unbiased":
        y = c / np.sqrt(var * d / max(d - 1, 1) + eps)
    elif change == "outside":
        y = c / (np.sqrt(var) + eps)
    elif change == "no_eps":
        y = c / np.sqrt(var)
    elif change == "variance":
        y = c / (var + eps)
    elif change == "no_mean":
        y = x / np.sqrt(var + eps)
    else:  # swapped
        return close_to(answer_array(reply), beta * c / np.sqrt(var + eps) + gamma)
    return close_to(answer_array(reply), gamma * y + beta)


def _slip(change: str, hint: str) -> Slip:
    return Slip(lambda case, reply: _model(case, reply, change), hint, DEFINITION)


LAYER_NORM_SLIPS = (
    _slip(
        "unbiased",
        "the variance divides by d − 1: 定義 2.1 defines σ²(x) = (1/d) Σ_j (x_j − μ)², the "
        "biased variance (NumPy's var with its default ddof = 0)",
    ),
    _slip(
        "outside",
        "ε is added outside the square root: 定義 2.1 divides by √(σ²(x) + ε)",
    ),
    _slip("no_eps", "ε is not used: 定義 2.1 divides by √(σ²(x) + ε)"),
    _slip(
        "variance",
        "the row is divided by the variance: 定義 2.1 divides by its square root √(σ²(x) + ε)",
    ),
    _slip("no_mean", "the mean is not subtracted: 定義 2.1 normalises x − μ(x)1"),
    _slip("swapped", "γ and β are swapped: LN(x) = γ ⊙ (x − μ1)/√(σ² + ε) + β (定義 2.1)"),
)

clause(
    element="def-layer-norm",
    number="定義 2.1［Transformer ブロック］",
    clause="LN(x) = γ ⊙ (x − μ1)/√(σ² + ε) + β, the biased variance, each row",
    function="layer_norm",
    cases=layer_norm_cases(),
    judge=judge_layer_norm,
    fixed=(
        (np.array([1.0, 2.0, 3.0, 6.0]), np.ones(4), np.zeros(4), 0.0),
        (
            np.array([[1.0, 2.0, 3.0, 6.0], [5.0, 0.0, 1.0, 2.0]]),
            np.full(4, 2.0),
            np.full(4, 0.5),
            0.25,
        ),
    ),
    slips=LAYER_NORM_SLIPS,
    examples=50,
)


def judge_invariance(session: Session, case: tuple) -> None:
    """命題 3.1 (1) and (2), ε = 0, γ = 1, β = 0: LN(a x + b 1) = LN(x); mean 0, norm √d.
    The reader is given a x + b 1 as computed in float64; its exact LN differs from
    LN(x) by that rounding, which the tolerance adds (|LN(fl(a x + b 1)) - LN(x)|)."""
    x, a, b = case
    d = x.shape[-1]
    ones, zeros = np.ones(d), np.zeros(d)
    moved = a * x + b
    inputs = f"x = {short(x)}, a x + b 1 with a = {a!r}, b = {b!r}"
    reply = session.call("layer_norm", moved, ones, zeros, 0.0)
    dtype = working_dtype(reply, moved)
    held = rounded(moved, dtype)
    out = as_array(reply, x.shape, "a x + b 1", inputs=inputs)
    exact = exact_layer_norm(x, ones, zeros, 0.0)  # (1): the exact value at x itself
    moved_exact = exact_layer_norm(held, ones, zeros, 0.0)
    tolerance = layer_norm_tolerance(held, ones, zeros, 0.0, dtype) + np.abs(moved_exact - exact)
    compare("layer_norm(a x + b 1)", out, exact, tolerance, inputs, SOURCE.format(dtype=dtype))
    norm = float(np.sqrt((out.astype(np.float64) ** 2).sum()))
    slack = float(np.abs(tolerance).sum()) * 2
    if abs(norm - np.sqrt(d)) > slack or abs(float(out.astype(np.float64).mean())) > slack:
        raise Rejected(
            Witness(
                f"LN(x) has norm {norm!r} and mean {float(out.mean())!r}; "
                f"(2) says √d = {np.sqrt(d)!r} and 0",
                inputs,
            )
        )


@st.composite
def invariance_cases(draw: st.DrawFn) -> tuple:
    d = draw(st.integers(2, 8))
    x = np.arange(d, dtype=np.float64) + draw(
        hnp.arrays(np.float64, (d,), elements=st.floats(-0.4, 0.4))
    )
    return x, draw(st.floats(0.1, 100.0)), draw(st.floats(-100.0, 100.0))


clause(
    element="prop-layer-norm-invariance",
    number="命題 3.1［Transformer ブロック］",
    clause="(1) LN(a x + b1) = LN(x), (2) 平均 0・分散 1・ノルム √d",
    function="layer_norm",
    cases=invariance_cases(),
    judge=judge_invariance,
    fixed=((np.array([1.0, 2.0, 3.0, 6.0]), 3.0, 5.0),),
    slips=LAYER_NORM_SLIPS,
    examples=30,
)


def judge_notes(session: Session, case: tuple) -> str:
    return judge_layer_norm(session, case)


clause(
    element="def-layer-norm",
    number="定義 2.1［Transformer ブロック］",
    clause="beyond the chapter's domain: large offsets, near-constant rows, huge entries",
    function="layer_norm",
    cases=None,
    judge=judge_notes,
    fixed=(
        (1e6 + np.array([1.0, 2.0, 3.0, 6.0]), np.ones(4), np.zeros(4), 0.0),
        (1e8 + np.array([0.0, 1.0, 0.0, 1.0], np.float64), np.ones(4), np.zeros(4), 1e-5),
        (np.array([1.0, 1.0 + 2**-40, 1.0, 1.0]), np.ones(4), np.zeros(4), 1e-5),
        (np.array([1e200, -1e200, 3e199, 0.0]), np.ones(4), np.zeros(4), 1e-5),
        (
            np.array([1e4, 1e4 + 1, 1e4 + 2, 1e4 + 3], np.float32),
            np.ones(4, np.float32),
            np.zeros(4, np.float32),
            1e-5,
        ),
    ),
    note_only=True,
    examples=1,
)


def gelu_cases() -> st.SearchStrategy:
    return st.one_of(
        hnp.arrays(np.float64, st.integers(1, 12), elements=bounded_floats(12.0)),
        hnp.arrays(np.float32, st.integers(1, 12), elements=bounded_floats(12.0, 32)),
    )


def exact_gelu(t: np.ndarray, form: str) -> np.ndarray:
    if form == "gelu":
        return np.array([float(v) for v in mp_gelu(t.astype(np.float64))])
    return np.array([float(mp_gelu_tanh(v)) for v in t.astype(np.float64)])


TANH_FORM = (
    "judged as GPT-2's tanh approximation t(1 + tanh(√(2/π)(t + 0.044715t³)))/2, "
    "not the chapter's GELU(t) = tΦ(t)"
)


def judged_as_gelu(
    name: str,
    out: np.ndarray,
    exact_of: Callable[[str], np.ndarray],
    tolerance_of: Callable[[str], np.ndarray],
    inputs: str,
    source: str,
) -> str:
    """Compare `out` with the value of the chapter's GELU form ("gelu"), else with the
    tanh form's ("gelu_tanh"), each from `exact_of(form)` within `tolerance_of(form)`:
    "" or TANH_FORM for the form it matched; Rejected with the chapter's form's witness
    when it matches neither."""
    try:
        compare(name, out, exact_of("gelu"), tolerance_of("gelu"), inputs, source)
        return ""
    except Rejected as first:
        try:
            compare(name, out, exact_of("gelu_tanh"), tolerance_of("gelu_tanh"), inputs, source)
        except Rejected:
            raise first from None
    return TANH_FORM


def judge_gelu(session: Session, t: np.ndarray) -> str:
    inputs = f"t = {short(t)}"
    reply = session.call("gelu", t)
    dtype = working_dtype(reply, t)
    held = rounded(t, dtype)
    out = as_array(reply, t.shape, f"t of shape {t.shape}", inputs=inputs)
    form = judged_as_gelu(
        "gelu",
        out,
        lambda form: exact_gelu(held, form),
        lambda form: gelu_tolerance(held, form, dtype),
        inputs,
        GELU_SOURCE.format(dtype=dtype),
    )
    return "; ".join(r for r in (form, lowered(dtype, t)) if r)


GELU_SOURCE = (
    "a bound any evaluation of t Φ(t) (or of the tanh form) meets in {dtype} (docs/bench.md#gelu)"
)


def _gelu_constant(t: np.ndarray, reply: Reply) -> bool:
    out = answer_array(reply)
    if out is None or out.shape != t.shape:
        return False
    exact, approx = exact_gelu(t, "gelu"), gelu_tanh(t.astype(np.float64))
    off = np.abs(out - exact).max()
    return bool(off < 0.2 * (1 + np.abs(exact).max()) and np.abs(out - approx).max() > 1e-9)


clause(
    element="def-transformer-block",
    number="定義 2.2［Transformer ブロック］",
    clause="GELU(t) = tΦ(t) (or GPT-2's tanh approximation, said which)",
    function="gelu",
    cases=gelu_cases(),
    judge=judge_gelu,
    fixed=(np.array([-3.0, -1.0, 0.0, 0.5, 1.0, 3.0]),),
    slips=(
        Slip(
            _gelu_constant,
            "close to GELU but off both tΦ(t) and the tanh form: a constant is wrong. "
            "定義 2.2: GELU(t) = tΦ(t), Φ the standard normal distribution function, "
            "Φ(t) = (1 + erf(t/√2))/2",
            "def-transformer-block 定義 2.2［Transformer ブロック］",
        ),
    ),
    examples=40,
)
