"""The Transformer-block chapter's formulas, as `python -m proofs latex` exports them."""

from __future__ import annotations

from collections.abc import Callable

import sympy

from proofs.book.formulas import FormulaNotProved, proved
from proofs.chapters.transformer_block.chapter import CHAPTER
from symbolic import counts, gelu, printing
from symbolic import layer_norm as symbolic_layer_norm
from symbolic.symbols import d


@CHAPTER.formula("layer-norm-jacobian", "命題 3.3", "the LayerNorm Jacobian")
def layer_norm_jacobian() -> sympy.Basic:
    proved(symbolic_layer_norm.derive_layer_norm_jacobian_general())
    return printing.layer_norm_jacobian_expression()


@CHAPTER.formula(
    "model-parameters",
    "定理 5.1",
    "parameters of the decoder-only model",
    printer="model_parameters_latex",
)
def model_parameters() -> object:
    return counts.model_parameter_parts()


@CHAPTER.formula(
    "block-parameters", "定理 5.1", r"parameters of one block at $d_{\mathrm{ff}} = 4d$"
)
def block_parameter_polynomial() -> sympy.Expr:
    return sympy.expand(counts.block_parameters(width=4 * d))


@CHAPTER.formula(
    "block-multiplications", "命題 6.1", r"multiplications of one block at $d_{\mathrm{ff}} = 4d$"
)
def block_multiplications() -> sympy.Expr:
    return sympy.expand(counts.block_multiplications(width=4 * d))


@CHAPTER.formula("block-crossover", "命題 6.1", "the $n$ where the two terms are equal")
def block_crossover() -> sympy.Expr:
    return counts.crossover(counts.block_multiplications(width=4 * d))


@CHAPTER.formula("lm-head-multiplications", "命題 6.1", "multiplications of the output layer")
def lm_head_multiplications() -> sympy.Expr:
    return counts.lm_head_multiplications()


@CHAPTER.formula("doubling-ratio", "演習 11.4", "the doubling ratio $T(2n)/T(n)$")
def doubling_ratio() -> sympy.Expr:
    return counts.doubling_ratio(counts.block_multiplications(width=4 * d))


def _gelu_derivative(order: int) -> Callable[[], sympy.Expr]:
    """GELU' and GELU'' as derived, written with Φ and φ as the chapter does: with
    erf(t/√2) replaced by 2Φ − 1, the derivative is a Φ + p φ; a and p are read off."""

    def build() -> sympy.Expr:
        t, cdf = gelu.t, sympy.Symbol("Phi_t")
        derived = gelu.derivatives()[order - 1]
        in_cdf = sympy.expand(derived.subs(sympy.erf(t / sympy.sqrt(2)), 2 * cdf - 1))
        cdf_part = sympy.simplify(in_cdf.coeff(cdf))
        rest = sympy.simplify((in_cdf - cdf_part * cdf) / gelu.phi(t))
        if rest.has(sympy.exp, sympy.erf, cdf) or cdf_part.has(t):
            raise FormulaNotProved(f"GELU derivative {order} is not of the form a Φ + p φ")
        big_phi, small_phi = sympy.Function("Phi"), sympy.Function("varphi")
        return cdf_part * big_phi(t) + sympy.factor(rest) * small_phi(t)

    return build


CHAPTER.formula("gelu-first-derivative", "命題 8.1", "the first derivative of GELU")(
    _gelu_derivative(1)
)
CHAPTER.formula("gelu-second-derivative", "命題 8.1", "the second derivative of GELU")(
    _gelu_derivative(2)
)
