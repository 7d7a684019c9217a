"""The clauses a reader's MLP, Pre-LN and Post-LN blocks, decoder-only forward and counts
answer to: 定義 2.2, 定義 2.3, 定理 5.1 and 命題 6.1［Transformer ブロック］. A GELU that
matches GPT-2's tanh form instead of tΦ(t) is accepted and said so, as for `gelu`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
from hypothesis import strategies as st

import spec
from numeric.model import init_parameters
from proofs.bench.clauses import clause
from proofs.bench.layer_norm_clauses import judged_as_gelu
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
from proofs.bench.tolerances import block_tolerance, mlp_tolerance, model_tolerance
from proofs.chapters.transformer_block.strategies import block_cases, configurations, seeds
from proofs.evidence.reference import mp_block, mp_forward, mp_mlp
from symbolic import counts
from symbolic import symbols as sym

SOURCE = (
    "a bound any evaluation of its stages meets in {dtype}, each stage's rounding carried "
    "through the exact Jacobians of the later ones (docs/bench.md#blocks)"
)
BLOCK = "def-transformer-block 定義 2.2［Transformer ブロック］"
EPS = 1e-5


def judged(
    name: str,
    out: np.ndarray,
    activation: str,
    exact_of: Callable[[str], np.ndarray],
    tolerance: np.ndarray,
    inputs: str,
    source: str,
) -> str:
    """Compare with the exact value for `activation`; a GELU may be the tanh form (said)."""
    if activation != "gelu":
        compare(name, out, exact_of(activation), tolerance, inputs, source)
        return ""
    return judged_as_gelu(name, out, exact_of, lambda form: tolerance, inputs, source)


def judge_mlp(session: Session, case: tuple) -> str:
    p, x, activation, _ = case
    ffn = {k[4:]: v for k, v in p.items() if k.startswith("mlp.")}
    inputs = f"x = {short(x)}, params = {short(ffn)}, activation = {activation!r}"
    reply = session.call("mlp", x, ffn, activation=activation)
    dtype = working_dtype(reply, x, ffn)
    held_x, held = rounded((x, ffn), dtype)
    out = as_array(reply, x.shape, f"x of shape {x.shape}", inputs=inputs)
    low = {k: v.astype(dtype) for k, v in held.items()}
    form = judged(
        "mlp",
        out,
        activation,
        lambda form: np.array(mp_mlp(held_x, held, form), dtype=float),
        np.maximum(
            mlp_tolerance(held_x.astype(dtype), low, activation),
            mlp_tolerance(held_x.astype(dtype), low, "gelu_tanh") if activation == "gelu" else 0,
        ),
        inputs,
        SOURCE.format(dtype=dtype),
    )
    return "; ".join(r for r in (form, lowered(dtype, x, ffn)) if r)


clause(
    element="def-transformer-block",
    number="定義 2.2［Transformer ブロック］",
    clause="MLP(X) = φ(XW₁ + 1b₁ᵀ)W₂ + 1b₂ᵀ, φ = ReLU or GELU",
    function="mlp",
    cases=block_cases(),
    judge=judge_mlp,
    examples=25,
)


def _exact_block(x: np.ndarray, p: dict, post: bool, causal: bool, activation: str) -> np.ndarray:
    return np.array(mp_block(x, p, post, causal, activation, EPS), dtype=float)


def judge_block(post: bool) -> Callable[[Session, tuple], str]:
    name = "post_ln_block" if post else "pre_ln_block"

    def judge(session: Session, case: tuple) -> str:
        p, x, activation, causal = case
        inputs = (
            f"x = {short(x)}, params = {short(p)}, causal = {causal}, "
            f"activation = {activation!r}, eps = {EPS}"
        )
        reply = session.call(name, x, p, causal=causal, activation=activation, eps=EPS)
        dtype = working_dtype(reply, x, p, first=True)
        held_x, held = rounded((x, p), dtype)
        out = as_array(reply, x.shape, f"x of shape {x.shape}", first=True, inputs=inputs)
        low_x, low = held_x.astype(dtype), {k: v.astype(dtype) for k, v in held.items()}
        forms = ("gelu", "gelu_tanh") if activation == "gelu" else (activation,)
        tolerance = np.maximum.reduce(
            [block_tolerance(low_x, low, post, causal, form, EPS) for form in forms]
        )
        form = judged(
            name,
            out,
            activation,
            lambda form: _exact_block(held_x, held, post, causal, form),
            tolerance,
            inputs,
            SOURCE.format(dtype=dtype),
        )
        return "; ".join(r for r in (form, lowered(dtype, x, p)) if r)

    return judge


def _block_slip(as_post: bool) -> Callable[[tuple, Reply], bool]:
    def matches(case: tuple, reply: Reply) -> bool:
        p, x, activation, causal = case
        return close_to(answer_array(reply), _exact_block(x, p, as_post, causal, activation))

    return matches


clause(
    element="def-transformer-block",
    number="定義 2.2［Transformer ブロック］",
    clause="Pre-LN: Y = X + MHA(LN₁(X)), X′ = Y + MLP(LN₂(Y))",
    function="pre_ln_block",
    cases=block_cases(),
    judge=judge_block(False),
    slips=(
        Slip(
            _block_slip(True),
            "the output is the Post-LN block's: in Pre-LN the residual is added after the "
            "sublayer of the normalised input, X + MHA(LN₁(X)), and the residual stream itself "
            "is never normalised (定義 2.2)",
            BLOCK,
        ),
    ),
    examples=15,
)
clause(
    element="def-transformer-block",
    number="定義 2.2［Transformer ブロック］",
    clause="Post-LN: Y = LN₁(X + MHA(X)), X′ = LN₂(Y + MLP(Y))",
    function="post_ln_block",
    cases=block_cases(),
    judge=judge_block(True),
    slips=(
        Slip(
            _block_slip(False),
            "the output is the Pre-LN block's: Post-LN normalises after the residual sum, "
            "LN₁(X + MHA(X)) (定義 2.2)",
            BLOCK,
        ),
    ),
    examples=15,
)


def reader_config(config: spec.ModelConfig) -> SimpleNamespace:
    """The configuration as the reader's function gets it: spec.ModelConfig's fields."""
    return SimpleNamespace(**{f: getattr(config, f) for f in config.__dataclass_fields__})


@st.composite
def model_cases(draw: st.DrawFn) -> tuple:
    config = draw(configurations(max_layers=2))
    config = spec.ModelConfig(
        **{**vars(reader_config(config)), "bias": True, "tied": True, "positions": True}
    )
    rng = np.random.default_rng(draw(seeds()))
    params = init_parameters(config, rng)
    n = draw(st.integers(1, config.n_ctx))
    return config, params, rng.integers(0, config.vocab, n)


def judged_forward(
    session: Session, config: spec.ModelConfig, params: dict, tokens: np.ndarray, inputs: str
) -> tuple[np.ndarray, Callable[[str], np.ndarray], np.ndarray, np.dtype, str]:
    """The reader's logits of `tokens` read as an array, the exact logits for a form of
    GELU at the parameters as the reader holds them, the tolerance (the larger of the
    two forms'), its working precision and the remark on it."""
    reply = session.call("forward", tokens, params, reader_config(config))
    dtype = working_dtype(reply, params)
    held: dict = rounded(params, dtype)
    out = as_array(reply, (len(tokens), config.vocab), "the logits", inputs=inputs)
    low = {k: v.astype(dtype) for k, v in held.items()}
    forms = ("gelu", "gelu_tanh") if config.activation == "gelu" else (config.activation,)
    tolerance = np.maximum.reduce(
        [model_tolerance(tokens, low, replace(config, activation=form)) for form in forms]
    )

    def exact_of(form: str) -> np.ndarray:
        logits = mp_forward(tokens.tolist(), held, config.n_layer, form, config.layer_norm_eps)
        return np.array(logits, dtype=float)

    return out, exact_of, tolerance, dtype, lowered(dtype, params)


def judge_forward(session: Session, case: tuple) -> str:
    config, params, tokens = case
    inputs = f"tokens = {tokens.tolist()}, config = {reader_config(config)}"
    out, exact_of, tolerance, dtype, remark = judged_forward(
        session, config, params, tokens, inputs
    )
    form = judged(
        "forward", out, config.activation, exact_of, tolerance, inputs, SOURCE.format(dtype=dtype)
    )
    return "; ".join(r for r in (form, remark) if r)


clause(
    element="def-decoder-only-transformer",
    number="定義 2.3［Transformer ブロック］",
    clause="Z = LN_f(X⁽ᴸ⁾)Eᵀ, X⁽⁰⁾ = E_t + P, L causal Pre-LN blocks",
    function="forward",
    cases=model_cases(),
    judge=judge_forward,
    examples=10,
)


def judge_prefix(session: Session, case: tuple) -> str:
    """The logits of the first half of `tokens` against the exact logits of all of them,
    first rows (rows of a causal model depend on the prefix alone)."""
    config, params, tokens = case
    prefix = tokens[: max(1, len(tokens) // 2)]
    inputs = (
        f"the prefix {prefix.tolist()} of tokens {tokens.tolist()}, "
        f"config = {reader_config(config)}"
    )
    out, _, tolerance, dtype, remark = judged_forward(session, config, params, prefix, inputs)
    held = rounded(params, dtype)
    form = judged(
        "forward of a prefix",
        out,
        config.activation,
        lambda form: np.array(
            mp_forward(tokens.tolist(), held, config.n_layer, form, config.layer_norm_eps),
            dtype=float,
        )[: len(prefix)],
        tolerance,
        inputs,
        SOURCE.format(dtype=dtype),
    )
    return "; ".join(r for r in (form, remark) if r)


clause(
    element="prop-block-equivariance-causality",
    number="命題 7.2［Transformer ブロック］",
    clause="(3) the logits of a prefix are the first rows of the whole sequence's",
    function="forward",
    cases=model_cases(),
    judge=judge_prefix,
    examples=8,
)

# ------------------------------------------------------------------------ counts


def sizes_of(config: spec.ModelConfig, n: int = 0) -> dict:
    return {
        sym.V: config.vocab,
        sym.d: config.d,
        sym.L: config.n_layer,
        sym.h: config.n_head,
        sym.d_ff: config.d_ff,
        sym.L_ctx: config.n_ctx,
        sym.n: n,
    }


def judge_parameters(session: Session, config: spec.ModelConfig) -> None:
    from proofs.bench.answers import explain

    poly = counts.model_parameters(config.bias, config.tied, config.positions)
    want = int(poly.subs(sizes_of(config)))
    reply = session.call("model_parameters", reader_config(config))
    got = _integer(reply, f"config = {reader_config(config)}")
    if got != want:
        raise Rejected(
            Witness(
                f"model_parameters is off by {got - want:+,}; "
                + (explain(got - want, poly, sizes_of(config)) or "not one part's count"),
                f"config = {reader_config(config)}",
                f"{got:,}",
            )
        )


def _integer(reply: Reply, inputs: str) -> int:
    if not reply.returned:
        raise Rejected(Witness(reply.problem, inputs))
    value = reply.value
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu":
        value = int(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if type(value) is not int:
        raise Rejected(Witness(f"{reply.name} returned {short(value)}, not a whole number", inputs))
    return value


clause(
    element="thm-transformer-parameters",
    number="定理 5.1［Transformer ブロック］",
    clause="|V|d + L_ctx d + L(4d² + 4d + 2d d_ff + d_ff + d + 4d) + 2d, and its variants",
    function="model_parameters",
    cases=configurations(max_layers=4),
    judge=judge_parameters,
    fixed=(spec.ModelConfig(vocab=10, d=4, n_layer=2, n_head=2, d_ff=16, n_ctx=8),),
    examples=30,
)


def judge_multiplications(session: Session, case: tuple) -> None:
    from proofs.bench.answers import explain

    config, n = case
    poly = counts.block_multiplications()
    want = int(poly.subs(sizes_of(config, n)))
    inputs = f"config = {reader_config(config)}, n = {n}"
    got = _integer(session.call("block_multiplications", reader_config(config), n), inputs)
    if got != want:
        raise Rejected(
            Witness(
                f"block_multiplications is off by {got - want:+,}; "
                + (explain(got - want, poly, sizes_of(config, n)) or "not one product's count"),
                inputs,
                f"{got:,}",
            )
        )


clause(
    element="prop-block-complexity",
    number="命題 6.1［Transformer ブロック］",
    clause="4nd² + 2n²d + 2nd·d_ff multiplications of one block's products",
    function="block_multiplications",
    cases=st.tuples(configurations(max_layers=2), st.integers(1, 64)),
    judge=judge_multiplications,
    examples=30,
)
