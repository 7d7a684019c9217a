"""§4 残差接続: the identity path of the Jacobian (命題 4.1) and 注意 4.2."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import sympy

import spec
from numeric.attention import multi_head_attention
from numeric.block import pre_ln_block
from numeric.error_bounds import gamma, layer_norm_jacobian_error_bound
from numeric.layer_norm import layer_norm, layer_norm_jacobian
from numeric.mlp import mlp
from numeric.model import init_parameters, sub_parameters
from numeric.running_error import block_tangents
from proofs.book.claims import Claim
from proofs.book.judge import Cases, CheckFailed, Verdict, judge_within, require
from proofs.book.registry import REGISTRY
from proofs.book.stated import expression_in, prose_integer
from proofs.chapters.transformer_block.chapter import CHAPTER
from proofs.evidence.reference import (
    DIGITS,
    mp_central_jacobian,
    mp_layer_norm,
    mp_mlp,
    mp_multi_head_attention,
)
from symbolic import residual

STACK = spec.ModelConfig(vocab=2, d=4, n_layer=2, n_head=2, d_ff=8, n_ctx=3)  # M = 2L = 4 sublayers


@dataclass(frozen=True)
class Kernels:
    """The three parts a sublayer is built from, on (n, d) arrays of one kind: the causal
    MHA, the MLP and a row-wise LN, each given its parameters."""

    attention: Callable
    mlp: Callable
    norm: Callable


FLOAT = Kernels(  # numeric's forward model, in float64
    attention=lambda x, q: multi_head_attention(x, q, causal=True)[0],
    mlp=mlp,
    norm=lambda x, g, eps: layer_norm(x, g["gamma"], g["beta"], eps),
)


def _rows(values: list) -> np.ndarray:
    return np.array(values, dtype=object)


MP = Kernels(  # the definitions (proofs.evidence.reference) on arrays of mpf
    attention=lambda x, q: _rows(mp_multi_head_attention(x, q, causal=True)),
    mlp=lambda x, q, activation: _rows(mp_mlp(x, q, activation)),
    norm=lambda x, g, eps: _rows([mp_layer_norm(r, g["gamma"], g["beta"], eps) for r in x]),
)


def _parts(params: Mapping, config: spec.ModelConfig) -> list[tuple[str, Mapping, Mapping]]:
    """(part, its parameters, the LN's parameters) of each sublayer: attention with LN_1,
    then the MLP with LN_2, block by block."""
    out: list[tuple[str, Mapping, Mapping]] = []
    for layer in range(config.n_layer):
        p = sub_parameters(params, f"blocks.{layer}")
        out += [
            (part, sub_parameters(p, part), sub_parameters(p, ln))
            for part, ln in (("attn", "ln_1"), ("mlp", "ln_2"))
        ]
    return out


def _part(kernels: Kernels, part: str, q: Mapping, activation: str) -> Callable:
    if part == "attn":
        return lambda x: kernels.attention(x, q)
    return lambda x: kernels.mlp(x, q, activation)


def pre_ln_sublayers(
    params: Mapping, config: spec.ModelConfig, kernels: Kernels = FLOAT
) -> list[Callable]:
    """G_1..G_M of 命題 4.1 for the model's Pre-LN blocks: block b gives G = MHA o LN_1
    (causal) and G = MLP o LN_2, so that x_k = x_{k-1} + G_k(x_{k-1})."""
    eps, out = config.layer_norm_eps, []
    for part, q, g in _parts(params, config):
        f = _part(kernels, part, q, config.activation)
        out.append(lambda x, f=f, g=g: f(kernels.norm(x, g, eps)))
    return out


def post_ln_sublayers(
    params: Mapping, config: spec.ModelConfig, kernels: Kernels = FLOAT
) -> list[tuple]:
    """(F_k, N_k, LN parameters) of 命題 4.1's Post-LN form: x_k = N_k(x_{k-1} + F_k(x_{k-1}))
    with F = MHA (causal) then MLP, N = LN_1 then LN_2 of each block."""
    eps = config.layer_norm_eps
    return [
        (_part(kernels, part, q, config.activation), lambda x, g=g: kernels.norm(x, g, eps), g)
        for part, q, g in _parts(params, config)
    ]


def _residual_step(x: np.ndarray, g: Callable) -> np.ndarray:
    return x + g(x)


FD_STEP = mpmath.mpf("1e-20")  # the central differences' step, at DIGITS = 50
# The differences' error: truncation h^2 M / 6 <= 1e-20 while the third derivatives stay
# below M = 6e20 on the step's segment, plus rounding 10^-50 |f| / h = 1e-30 |f|.
FD_ERROR = 1e-20


def mp_jacobian(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray) -> np.ndarray:
    """(nd, nd) central-difference Jacobian of f: (n, d) -> (n, d) at x, in mpmath at the
    caller's precision with step FD_STEP: within FD_ERROR of d f / d x entrywise."""

    def flat(values: list) -> list:
        return list(f(np.array(values, dtype=object).reshape(x.shape)).ravel())

    return np.array(mp_central_jacobian(flat, list(x.ravel()), FD_STEP), dtype=object)


def _norm(a: np.ndarray) -> float:
    """The spectral norm of an array of mpf, in float64."""
    return float(np.linalg.norm(a.astype(float), 2))


def largest(a: np.ndarray) -> float:
    """max |a_ij| of an array of mpf, as a float."""
    return float(max(abs(v) for v in a.ravel()))


def _block_diagonal_layer_norm_jacobian(
    s: np.ndarray, norm: Mapping, eps: float, jacobian: Callable = layer_norm_jacobian
) -> np.ndarray:
    """K = d LN(S) / dS for a row-wise LN with gain gamma: block-diagonal, block i =
    diag(gamma) J(s_i) with J of 命題 3.3 (`jacobian`, numeric.layer_norm_jacobian)."""
    n, d = s.shape
    blocks = norm["gamma"][None, :, None] * jacobian(s, eps)  # (n, d, d)
    out = np.zeros((n * d, n * d))
    for i in range(n):
        out[i * d : (i + 1) * d, i * d : (i + 1) * d] = blocks[i]
    return out


def _product_error(factors: list[np.ndarray], errors: list[float]) -> float:
    """Bound on max|prod(A_k) - prod(A_k + E_k)| to first order, |E_k| <= e_k entrywise:
    sum_k e_k N prod_{j != k} ||A_j||_2 (an N x N matrix with entries <= e has norm <= N e)."""
    size = factors[0].shape[0]
    norms = [float(np.linalg.norm(a, 2)) for a in factors]
    return sum(e * size * math.prod(norms[:k] + norms[k + 1 :]) for k, e in enumerate(errors))


def residual_jacobians(
    step: Callable = _residual_step,
    seed: int = 0,
    config: spec.ModelConfig = STACK,
    depth: int | None = None,
    identity: bool = True,
) -> dict:
    """The Pre-LN stack at a drawn x_0 (n = n_ctx): its points in float64
    (`pre_ln_sublayers`), and at 50 digits (the same with `MP`), for
    every l, the central difference D_l of x_l -> x_M and the product P_l = (I + J_M)...
    (I + J_{l+1}) of the central differences J_k of G_k at x_{k-1} (J_M...J_{l+1} when
    `identity` is False), with the bound FD_ERROR propagated through the product
    (`_product_error`). `step(x, G)` is one step (x + G(x) with the residual); `depth`
    keeps the first M sublayers."""
    rng = np.random.default_rng(seed)
    params = init_parameters(config, rng)
    x = rng.standard_normal((config.n_ctx, config.d))
    subs = pre_ln_sublayers(params, config)[:depth]
    points = [x]
    for g in subs:
        points.append(step(points[-1], g))
    out: dict[str, Any] = {"points": points, "sublayers": subs, "params": params, "stages": []}
    jacobians, directs = _central_differences(step, seed, config, depth)
    size = x.size
    with mpmath.workdps(DIGITS):
        for start, direct in enumerate(directs):
            factors = [
                identity * np.eye(size, dtype=int).astype(object) + j for j in jacobians[start:]
            ][::-1]  # M first
            product = functools.reduce(np.matmul, factors)
            bound = FD_ERROR + _product_error(
                [f.astype(float) for f in factors], [FD_ERROR] * len(factors)
            )
            out["stages"].append((start, largest(direct - product), bound))
    return out


@functools.lru_cache(maxsize=8)
def _central_differences(
    step: Callable, seed: int, config: spec.ModelConfig, depth: int | None
) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """At 50 digits, for the stack `residual_jacobians` draws: the central differences J_k
    of each G_k at x_{k-1}, and D_l of x_l -> x_M for each l. The costly part of a check,
    computed once per process for the same stack (the arrays are only read)."""
    rng = np.random.default_rng(seed)
    params = init_parameters(config, rng)
    x = rng.standard_normal((config.n_ctx, config.d))
    with mpmath.workdps(DIGITS):
        mp_subs = pre_ln_sublayers(params, config, MP)[:depth]
        mp_points = [x.astype(object)]
        for g in mp_subs:
            mp_points.append(step(mp_points[-1], g))
        jacobians = tuple(mp_jacobian(g, z) for g, z in zip(mp_subs, mp_points[:-1], strict=True))
        directs = []
        for start in range(len(mp_subs)):

            def rest(z, start=start):
                for g in mp_subs[start:]:
                    z = step(z, g)
                return z

            directs.append(mp_jacobian(rest, mp_points[start]))
    return jacobians, tuple(directs)


def post_ln_factor(k: np.ndarray, d: np.ndarray) -> np.ndarray:
    """K_k (I + D_k): one Post-LN sublayer's factor of dx_M/dx_l (命題 4.1)."""
    return k @ (np.eye(len(d)).astype(d.dtype) + d)


DEPTH_M, DEPTH_L = sympy.symbols("M l", integer=True, nonnegative=True)


@CHAPTER.element(
    "prop-residual-identity-path",
    "命題 4.1",
    "残差接続の恒等経路",
    "proposition",
    ("symbolic", "numeric"),
    claims=(
        Claim(
            r"\boldsymbol{x}_l := \boldsymbol{x}_{l-1} + "
            r"F_l\big(N_l(\boldsymbol{x}_{l-1})\big)",
        ),
        Claim(r"G_l := F_l \circ N_l"),
        Claim(
            r"\boldsymbol{x}_M = \boldsymbol{x}_0 + \sum_{l=1}^{M} "
            r"G_l(\boldsymbol{x}_{l-1})",
        ),
        Claim(
            r"\frac{\partial \boldsymbol{x}_M}{\partial \boldsymbol{x}_l} = (I + "
            r"J_M)(I + J_{M-1})\cdots(I + J_{l+1}) = I + \sum_{\emptyset \ne S "
            r"\subset \{l+1, \ldots, M\}} \ \prod_{k \in S}^{\leftarrow} J_k",
        ),
        Claim(
            r"\boldsymbol{x}_l := N_l\big(\boldsymbol{x}_{l-1} + "
            r"F_l(\boldsymbol{x}_{l-1})\big)",
        ),
        Claim(
            r"\frac{\partial \boldsymbol{x}_M}{\partial \boldsymbol{x}_l} = K_M(I + "
            r"D_M)\,K_{M-1}(I + D_{M-1})\cdots K_{l+1}(I + D_{l+1})",
        ),
        Claim(
            "恒等行列 $I$ がちょうど 1 つある",
            phrase=True,
            argument="identity_count",
            read=prose_integer,
        ),
        Claim(
            r"2^{M-l}",
            where="proof",
            argument="term_count",
            read=expression_in(M=DEPTH_M, l=DEPTH_L),
        ),
        Claim(
            "行ごとに 2 方向を消して",
            phrase=True,
            where="text",
            argument="vanishing_per_row",
            read=prose_integer,
        ),
    ),
)
def prop_residual_identity_path(
    identity_count: int,
    term_count: sympy.Expr,
    vanishing_per_row: int,
    step: Callable = _residual_step,
    pre_ln_product: Callable = residual.pre_ln_product,
    post_ln_product: Callable = residual.post_ln_product,
    depths: tuple[int, ...] = (1, 2, 3, 4),
    block: Callable = pre_ln_block,
    factor: Callable = post_ln_factor,
    jacobian: Callable = layer_norm_jacobian,
) -> list[str]:
    """Pre-LN: x_M = x_0 + sum G_l(x_{l-1}) and dx_M/dx_l = (I + J_M)...(I + J_{l+1}) = I + sum
    over non-empty S of the ordered products, 2^(M-l) terms with exactly one bare I;
    Post-LN: dx_M/dx_l = K_M (I + D_M)...K_{l+1}(I + D_{l+1}), whose D-free term is
    K_M...K_{l+1}, not I. Symbolic (non-commutative symbols, symbolic.residual): for M - l
    in `depths` the expanded Pre-LN product has `term_count` (2^(M-l), read from the proof)
    distinct terms and `identity_count` (1) bare I; the Post-LN product has no bare I and
    its D-free term is K_M...K_{l+1}. Numeric, on the package's model (two Pre-LN blocks, M
    = 4 sublayers G = MHA o LN_1, MLP o LN_2, n = 3, d = 4, seeds 0 and 1): the sublayer
    stack equals the blocks (`block`) entry by entry (within twice the rounding bound of the
    two blocks, `block_tangents`) and telescopes (x_M = x_0 + sum G_l within gamma_M); for
    every l the central-difference Jacobian of x_l -> x_M equals the product of the (I +
    J_k), each J_k a central difference of G_k (`mp_jacobian`: 50 digits, step 1e-20, within
    FD_ERROR of the derivative), within those errors propagated through the product. Post-LN
    likewise: the stack's Jacobian equals the product of the `factor`s K_k (I + D_k) (both
    central differences); and K_M...K_1 sends the direction "add 1 to row 1" to 0, so it is
    not I: K_1 = diag(gamma) J row by row, J of 命題 3.3 (`jacobian`)."""
    evidence = []
    for depth in depths:
        expansion = residual.expand_product(pre_ln_product(depth, 0))
        terms = term_count.subs({DEPTH_M: depth, DEPTH_L: 0})
        require(
            len(expansion.terms) == terms and expansion.distinct,
            f"M - l = {depth}: {len(expansion.terms)} terms "
            f"({'' if expansion.distinct else 'not '}distinct), stated {terms}",
        )
        require(
            expansion.bare_identity_count == identity_count,
            f"M - l = {depth}: {expansion.bare_identity_count} bare I terms, stated "
            f"{identity_count}",
        )
        post = residual.expand_product(post_ln_product(depth, 0))
        require(
            post.bare_identity_count == 0,
            f"Post-LN, M - l = {depth}: {post.bare_identity_count} bare I terms",
        )
    if depths:
        evidence.append(
            f"symbolic, M - l = {', '.join(map(str, depths))}: the Pre-LN product "
            f"expands to 2^(M-l) distinct terms with exactly one bare I; the "
            f"Post-LN product has none (for M - l = 2 its D-free term is "
            f"{residual.d_free_term(post_ln_product(2, 0))})"
        )
    stages: list[Verdict] = []
    post_ln: list[Verdict] = []
    for seed in (0, 1):
        result = residual_jacobians(step, seed)
        points, subs, params = result["points"], result["sublayers"], result["params"]
        x_0, x_m = points[0], points[-1]
        telescoped = x_0 + sum(g(x) for g, x in zip(subs, points[:-1], strict=True))
        scale = np.abs(x_0) + sum(np.abs(g(x)) for g, x in zip(subs, points[:-1], strict=True))
        judge_within(
            telescoped - x_m,
            2 * gamma(len(subs) + 1) * scale,
            f"x_M != x_0 + sum G_l(x_(l-1)) (seed {seed})",
        )
        blocks, tangents = x_0, np.zeros((0, *x_0.shape))  # (n, d), (S, n, d)
        for layer in range(STACK.n_layer):
            p = sub_parameters(params, f"blocks.{layer}")
            tangents = block_tangents(blocks, tangents, p, STACK.activation, STACK.layer_norm_eps)[
                1
            ]
            blocks = block(blocks, p)
        judge_within(
            blocks - x_m,
            2 * np.abs(tangents).sum(axis=0),
            f"the sublayer stack differs from the blocks (seed {seed})",
        )
        stages.extend(
            judge_within(gap, bound, f"dx_M/dx_{start} differs from prod (I + J_k) (seed {seed})")
            for start, gap, bound in result["stages"]
        )
        post_ln.append(_post_ln_stack(seed, factor, jacobian, vanishing_per_row))
    evidence.append(
        f"numeric (2 blocks, M = 4, seeds 0, 1): the sublayers compose to the "
        f"blocks and telescope; dx_M/dx_l = prod (I + J_k) for l = 0..3 (worst "
        f"gap / bound = {Cases(tuple(stages)).ratio:.2e}); Post-LN: dx_M/dx_0 = prod "
        f"K_k (I + D_k) (worst gap / bound = {Cases(tuple(post_ln)).ratio:.2e}); its "
        f"D-free term K_4...K_1 is not I: K_1 already sends 'add 1 to row 1' to 0"
    )
    return evidence


def _post_ln_stack(
    seed: int,
    factor: Callable,
    jacobian: Callable,
    vanishing_per_row: int,
    config: spec.ModelConfig = STACK,
) -> Verdict:
    """Post-LN half of 命題 4.1 at a drawn point; returns the verdict on the product. K_1
    must take 「add 1 to row 1」 to 0 and, at ε = 0 (命題 3.3's setting), row by row have
    `vanishing_per_row` singular values of 0 (the directions it removes) and the others
    clear of 0."""
    rng = np.random.default_rng(seed)
    params = init_parameters(config, rng)
    x = rng.standard_normal((config.n_ctx, config.d))
    eps, size = config.layer_norm_eps, x.size
    with mpmath.workdps(DIGITS):
        layers = post_ln_sublayers(params, config, MP)
        factors: list[np.ndarray] = []
        errors: list[float] = []
        z = x.astype(object)
        for f, norm, _ in layers:
            s = z + f(z)
            d_k, k_k = mp_jacobian(f, z), mp_jacobian(norm, s)  # D_k at z, K_k at s
            step = np.eye(size).astype(object) + d_k
            factors.insert(0, factor(k_k, d_k))
            # |K (I + D) - K' (I + D')| <= (||K|| e + e ||I + D||) N entrywise
            errors.insert(0, (_norm(k_k) + _norm(step)) * FD_ERROR * size)
            z = norm(s)

        def stack(v):
            for f, norm, _ in layers:
                v = norm(v + f(v))
            return v

        gap = largest(mp_jacobian(stack, x.astype(object)) - functools.reduce(np.matmul, factors))
    bound = FD_ERROR + _product_error([a.astype(float) for a in factors], errors)
    verdict = judge_within(
        gap, bound, f"Post-LN: dx_M/dx_0 differs from prod K_k (I + D_k) (seed {seed})"
    )
    # The D-free term K_M...K_1 is not I: already K_1 sends v = "add 1 to row 1" to 0, since
    # J(s) 1 = 0 (命題 3.3); computed, |K_1 v| <= |gamma| (d max|fl J - J| + gamma_d sum|J|).
    f, _, ln = post_ln_sublayers(params, config)[0]
    first_s = x + f(x)
    k_1 = _block_diagonal_layer_norm_jacobian(first_s, ln, eps, jacobian)
    row = np.zeros(x.shape)
    row[0] = 1.0
    d = config.d
    allowed = float(np.abs(ln["gamma"]).max()) * (
        d * float(layer_norm_jacobian_error_bound(first_s[0], eps))
        + gamma(d) * float(np.abs(k_1[:d, :d]).sum(axis=1).max())
    )
    judge_within(k_1 @ row.ravel(), allowed, "K_1 does not annihilate 'add 1 to row 1'")
    # each row's block of K_1 at ε = 0, 命題 3.3's setting (with ε > 0 the direction x - μ1
    # is only shrunk, by about ε/σ²): its zero singular values, within Weyl's bound
    exact = _block_diagonal_layer_norm_jacobian(first_s, ln, 0.0, jacobian)
    for i in range(len(x)):
        values = np.linalg.svd(exact[i * d : (i + 1) * d, i * d : (i + 1) * d], compute_uv=False)
        zero = float(np.abs(ln["gamma"]).max()) * d * float(
            layer_norm_jacobian_error_bound(first_s[i], 0.0)
        ) + gamma(d) * float(values.max())
        removed = int((values <= zero).sum())
        require(
            removed == vanishing_per_row and values[values > zero].min() > 2 * zero,
            f"K_1's row {i + 1} removes {removed} directions (singular values "
            f"{np.round(values, 6).tolist()}, zero below {zero:.1e}), the text says "
            f"{vanishing_per_row}",
        )
    return verdict


@CHAPTER.element(
    "rem-pre-post-ln-empirical",
    "注意 4.2",
    "どちらが学習しやすいかは経験的な事柄",
    "remark",
    ("not a theorem",),
    claims=(Claim("定理ではありません", phrase=True, where="text"),),
)
def rem_pre_post_ln_empirical(
    refers_to: str = "命題 4.1", statement_id: str = "prop-residual-identity-path"
) -> list[str]:
    """Not a theorem: which placement (Pre-LN or Post-LN) trains better is an empirical
    matter (the chapter cites Xiong et al. and He et al. for particular initialisations
    and settings), so there is nothing to prove. What the remark does assert is that
    命題 4.1 says only that the expansion has an I term; the check verifies that the
    element it refers to is registered under that number, and that element's own check
    proves the statement (run it with `pytest -k prop_residual_identity_path`)."""
    target = REGISTRY.get(statement_id)
    if target is None:
        raise CheckFailed(f"the remark refers to {statement_id!r}, which is not registered")
    require(
        target.number == refers_to and target.chapter == CHAPTER.key,
        f"the remark refers to {refers_to}, but {statement_id} is {target.number}",
    )
    return [
        f"not a theorem: the training behaviour of Pre-LN vs Post-LN is empirical; the "
        f"formal fact it qualifies is {refers_to} ({statement_id}), checked there"
    ]
