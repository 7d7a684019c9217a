"""Parameter and multiplication polynomials, derived from spec's declarations.

Parameters: each declared array contributes the product of its dimensions'
symbols (times L when it lives in every block). Multiplications: each declared
einsum multiplies once per assignment of all its index letters, so it costs
the product of their sizes. Nothing here is typed in: 4d^2 + 4d, 4nd^2 + 2n^2 d
and the crossovers come out of these two rules (命題 7.1, 7.2, 定理 5.1, 命題 6.1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sympy import Expr, Mul, Poly, Symbol, cancel, expand, limit, oo, solve

from spec import contractions as declared
from spec import parameters as spec_parameters
from spec.contractions import Contraction
from spec.parameters import Parameter
from symbolic.symbols import SIZES, L, d, d_ff, h, n  # noqa: F401 (d and h: the doctests')

# ---------------------------------------------------------------- parameters


def parameter_polynomial(params: Iterable[Parameter], sizes: Mapping[str, Expr] = SIZES) -> Expr:
    """sum over arrays of the product of their dimensions (times L for per-layer arrays).

    >>> parameter_polynomial(spec_parameters.attention_parameters(True))
    4*d**2 + 4*d
    """
    total = 0
    for p in params:
        if not isinstance(p, Parameter):
            raise TypeError(f"params must hold spec.Parameter, got {type(p).__name__} {p!r}")
        size = Mul(*(sizes[dim] for dim in p.dims))
        total += size * (sizes["n_layer"] if p.per_layer else 1)
    return expand(total)


def attention_parameters(bias: bool = True) -> Expr:
    """Multi-head attention: 4d^2 + 4d (4d^2 without biases), free of h (命題 7.1).

    >>> attention_parameters(bias=False)
    4*d**2
    """
    return parameter_polynomial(spec_parameters.attention_parameters(bias))


def block_parameters(bias: bool = True, width: Expr = d_ff) -> Expr:
    """One block (two LayerNorms, attention, MLP of width `width`).

    >>> block_parameters(width=4 * d)
    12*d**2 + 13*d
    """
    return parameter_polynomial(spec_parameters.block_parameters(bias), {**SIZES, "d_ff": width})


def model_parameters(
    bias: bool = True, tied: bool = True, positions: bool = True, width: Expr = d_ff
) -> Expr:
    """The decoder-only model of 定理 5.1 and its variants.

    >>> model_parameters(width=4 * d).coeff(L)
    12*d**2 + 13*d
    """
    return parameter_polynomial(
        spec_parameters.model_parameters(bias, tied, positions), {**SIZES, "d_ff": width}
    )


MODEL_GROUPS = (
    ("embeddings", ("wte",)),
    ("positions", ("wpe",)),
    ("attention", ("blocks.attn.",)),
    ("mlp", ("blocks.mlp.",)),
    ("layer norms", ("blocks.ln_",)),
    ("final layer norm", ("ln_f.",)),
    ("output", ("lm_head",)),
)


def model_parameter_parts(
    bias: bool = True, tied: bool = True, positions: bool = True
) -> dict[str, Expr]:
    """定理 5.1's groups in the chapter's order; per-layer groups are given per layer
    (the model total is embeddings + positions + L (attention + mlp + layer norms) + ...).

    >>> list(model_parameter_parts())
    ['embeddings', 'positions', 'attention', 'mlp', 'layer norms', 'final layer norm']
    """
    params = spec_parameters.model_parameters(bias, tied, positions)
    parts: dict[str, Expr] = {}
    for label, prefixes in MODEL_GROUPS:
        chosen = [p for p in params if p.name.startswith(prefixes)]
        if chosen:
            per_layer = [Parameter(p.name, p.dims) for p in chosen]
            parts[label] = parameter_polynomial(per_layer)
    return parts


# ---------------------------------------------------------- multiplications


def contraction_multiplications(
    contractions: Iterable[Contraction], sizes: Mapping[str, Expr] = SIZES
) -> dict[str, Expr]:
    """Each contraction's multiplication count: the product of all its letters' sizes.

    >>> contraction_multiplications(declared.ATTENTION)["scores"]
    d*n**2
    """
    out: dict[str, Expr] = {}
    for c in contractions:
        if not isinstance(c, Contraction):
            raise TypeError(f"contractions must hold spec.Contraction, got {c!r}")
        out[c.name] = out.get(c.name, 0) + Mul(*(sizes[dim] for dim in c.dims))
    return out


def multiplications(contractions: Iterable[Contraction], sizes: Mapping[str, Expr] = SIZES) -> Expr:
    """Total multiplications of a list of contractions (the matmul part of a forward pass).

    >>> multiplications(declared.ATTENTION)
    4*d**2*n + 2*d*n**2
    """
    return expand(sum(contraction_multiplications(contractions, sizes).values(), 0))


def attention_multiplications(contractions: Iterable[Contraction] = declared.ATTENTION) -> Expr:
    """4nd^2 + 2n^2 d, free of h (命題 7.2).

    >>> attention_multiplications().has(h)
    False
    """
    return multiplications(contractions)


def block_multiplications(
    contractions: Iterable[Contraction] = declared.BLOCK, width: Expr = d_ff
) -> Expr:
    """4nd^2 + 2n^2 d + 2nd d_ff (命題 6.1); 12nd^2 + 2n^2 d at width = 4d.

    >>> block_multiplications(width=4 * d)
    12*d**2*n + 2*d*n**2
    """
    return multiplications(contractions, {**SIZES, "d_ff": width})


def lm_head_multiplications() -> Expr:
    """The output layer: n d |V|.

    >>> lm_head_multiplications()
    V*d*n
    """
    return multiplications((declared.LM_HEAD,))


def model_multiplications(width: Expr = d_ff) -> Expr:
    """L blocks and the output layer.

    >>> model_multiplications(width=4 * d).coeff(L)
    12*d**2*n + 2*d*n**2
    """
    return expand(L * block_multiplications(width=width) + lm_head_multiplications())


def attention_weights_memory() -> Expr:
    """Numbers stored for the attention weights: h n^2.

    >>> attention_weights_memory()
    h*n**2
    """
    return Mul(*(SIZES[dim] for dim in declared.ATTENTION_WEIGHTS_MEMORY))


def linear_quadratic(poly: Expr, var: Symbol = n) -> tuple[Expr, Expr]:
    """(the term linear in var, the term quadratic in var); other degrees are an error.

    >>> linear_quadratic(4 * n * d**2 + 2 * n**2 * d)
    (4*d**2*n, 2*d*n**2)
    """
    p = Poly(expand(poly), var)
    if p.degree() > 2 or p.coeff_monomial(1) != 0:
        raise ValueError(f"poly must be a1 {var} + a2 {var}^2, got {poly}")
    return p.coeff_monomial(var) * var, p.coeff_monomial(var**2) * var**2


def crossover(poly: Expr, var: Symbol = n) -> Expr:
    """The positive var where the linear and quadratic terms are equal (solved; var must
    be a positive symbol, as n is, so that solve leaves out the root var = 0).

    >>> crossover(4 * n * d**2 + 2 * n**2 * d)
    2*d
    """
    linear, quadratic = linear_quadratic(poly, var)
    match solve(linear - quadratic, var):
        case [root]:
            return root
        case roots:
            raise ValueError(f"expected one positive crossover of {poly} in {var}, got {roots}")


def quadratic_share(poly: Expr, var: Symbol = n) -> Expr:
    """quadratic term / linear term (n/(6d) for the block at d_ff = 4d).

    >>> quadratic_share(12 * n * d**2 + 2 * n**2 * d)
    n/(6*d)
    """
    linear, quadratic = linear_quadratic(poly, var)
    return cancel(quadratic / linear)


def doubling_ratio(poly: Expr, var: Symbol = n) -> Expr:
    """T(2 var) / T(var), cancelled (演習 11.4: (12d + 4n)/(6d + n) for the block).

    >>> doubling_ratio(12 * n * d**2 + 2 * n**2 * d)
    (12*d + 4*n)/(6*d + n)
    """
    return cancel(poly.subs(var, 2 * var) / poly)


def doubling_limit(poly: Expr, var: Symbol = n) -> Expr:
    """The doubling ratio as var -> oo (4 for any count with an n^2 term).

    >>> doubling_limit(12 * n * d**2 + 2 * n**2 * d)
    4
    """
    return limit(doubling_ratio(poly, var), var, oo)
