"""The named formulas `python -m proofs latex` exports, each produced by symbolic/.

A formula is built when asked for: a count is the polynomial symbolic.counts
derives from spec's declarations; a Jacobian is the chapter's stated form,
exported only after symbolic/'s derivation has shown it equal to the derivative
(so a formula that has stopped being true is never printed). The TeX is
`symbolic.printing.chapter_latex`, in the chapters' notation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy


@dataclass(frozen=True)
class Formula:
    name: str
    title: str  # where the chapters state it
    build: Callable[[], object]
    printer: str = "chapter_latex"  # the symbolic.printing function that writes it

    def latex(self) -> str:
        from symbolic import printing

        return getattr(printing, self.printer)(self.build())


class FormulaNotProved(RuntimeError):
    """symbolic/'s derivation no longer confirms the chapter's stated form."""


def _proved(derivation) -> None:
    if not derivation.holds:
        raise FormulaNotProved(f"{derivation.name}: derived and stated forms differ")


def _softmax_jacobian() -> sympy.Basic:
    from symbolic import printing, softmax

    _proved(softmax.derive_softmax_jacobian_general())
    return printing.softmax_jacobian_expression()


def _softmax_jacobian_two() -> sympy.Basic:
    """s(1 − s) times the matrix of 1 and −1, both read off the derived closed form."""
    from symbolic import softmax

    closed = softmax.two_by_two().closed_form
    factor = closed[0, 0]
    pattern = (closed / factor).applyfunc(sympy.simplify)
    return sympy.MatMul(factor, sympy.ImmutableMatrix(pattern), evaluate=False)


def _layer_norm_jacobian() -> sympy.Basic:
    from symbolic import layer_norm, printing

    _proved(layer_norm.derive_layer_norm_jacobian_general())
    return printing.layer_norm_jacobian_expression()


def _counts(name: str, *args, **kwargs) -> Callable[[], sympy.Expr]:
    def build() -> sympy.Expr:
        from symbolic import counts

        return getattr(counts, name)(*args, **kwargs)

    return build


def _at_four_d(name: str) -> Callable[[], sympy.Expr]:
    def build() -> sympy.Expr:
        from symbolic import counts
        from symbolic.symbols import d

        return sympy.expand(getattr(counts, name)(width=4 * d))

    return build


def _block_doubling_ratio() -> sympy.Expr:
    from symbolic import counts
    from symbolic.symbols import d

    return counts.doubling_ratio(counts.block_multiplications(width=4 * d))


def _crossover(name: str, four_d: bool) -> Callable[[], sympy.Expr]:
    def build() -> sympy.Expr:
        from symbolic import counts
        from symbolic.symbols import d

        poly = getattr(counts, name)(width=4 * d) if four_d else getattr(counts, name)()
        return counts.crossover(poly)

    return build


def _gelu(order: int) -> Callable[[], sympy.Expr]:
    """GELU' and GELU'' as derived, written with Φ and φ as the chapter does: with
    erf(t/√2) replaced by 2Φ − 1, the derivative is a Φ + p φ; a and p are read off."""

    def build() -> sympy.Expr:
        from symbolic import gelu

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


FORMULAS: dict[str, Formula] = {
    f.name: f
    for f in (
        Formula("softmax-jacobian", "命題 3.2［自己注意］ the softmax Jacobian", _softmax_jacobian),
        Formula(
            "softmax-jacobian-two",
            "演習 10.2［自己注意］ the softmax Jacobian at n = 2",
            _softmax_jacobian_two,
        ),
        Formula(
            "layer-norm-jacobian",
            "命題 3.3［Transformer ブロック］ the LayerNorm Jacobian",
            _layer_norm_jacobian,
        ),
        Formula(
            "attention-parameters",
            "命題 7.1［自己注意］ parameters of multi-head attention",
            _counts("attention_parameters", bias=True),
        ),
        Formula(
            "attention-parameters-no-bias",
            "命題 7.1［自己注意］ the same without biases",
            _counts("attention_parameters", bias=False),
        ),
        Formula(
            "attention-multiplications",
            "命題 7.2［自己注意］ multiplications of one attention layer",
            _counts("attention_multiplications"),
        ),
        Formula(
            "attention-crossover",
            "命題 7.2［自己注意］ the n where the two terms are equal",
            _crossover("attention_multiplications", four_d=False),
        ),
        Formula(
            "attention-weights-memory",
            "命題 7.2［自己注意］ numbers stored for the weights",
            _counts("attention_weights_memory"),
        ),
        Formula(
            "model-parameters",
            "定理 5.1［Transformer ブロック］ parameters of the decoder-only model",
            _counts("model_parameter_parts"),
            printer="model_parameters_latex",
        ),
        Formula(
            "block-parameters",
            "定理 5.1［Transformer ブロック］ parameters of one block at d_ff = 4d",
            _at_four_d("block_parameters"),
        ),
        Formula(
            "block-multiplications",
            "命題 6.1［Transformer ブロック］ multiplications of one block at d_ff = 4d",
            _at_four_d("block_multiplications"),
        ),
        Formula(
            "block-crossover",
            "命題 6.1［Transformer ブロック］ the n where the two terms are equal",
            _crossover("block_multiplications", four_d=True),
        ),
        Formula(
            "lm-head-multiplications",
            "命題 6.1［Transformer ブロック］ multiplications of the output layer",
            _counts("lm_head_multiplications"),
        ),
        Formula(
            "doubling-ratio",
            "演習 11.4［Transformer ブロック］ the doubling ratio T(2n)/T(n)",
            _block_doubling_ratio,
        ),
        Formula(
            "gelu-first-derivative",
            "命題 8.1［Transformer ブロック］ the first derivative of GELU",
            _gelu(1),
        ),
        Formula(
            "gelu-second-derivative",
            "命題 8.1［Transformer ブロック］ the second derivative of GELU",
            _gelu(2),
        ),
    )
}
