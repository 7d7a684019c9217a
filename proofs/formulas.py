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
    build: Callable[[], sympy.Basic]

    def latex(self) -> str:
        from symbolic.printing import chapter_latex

        return chapter_latex(self.build())


class FormulaNotProved(RuntimeError):
    """symbolic/'s derivation no longer confirms the chapter's stated form."""


def _proved(derivation) -> None:
    if not derivation.holds:
        raise FormulaNotProved(f"{derivation.name}: derived and stated forms differ")


def _softmax_jacobian_entry() -> sympy.Expr:
    from symbolic import softmax

    _proved(softmax.derive_softmax_jacobian_general())
    i, j = sympy.symbols("i j", integer=True, positive=True)
    return softmax.chapter_entry(sympy.IndexedBase("sigma"), i, j)


def _softmax_jacobian_matrix() -> sympy.Matrix:
    from symbolic import softmax

    _proved(softmax.derive_softmax_jacobian(3))
    return softmax.chapter_matrix(sympy.Matrix(sympy.symbols("sigma_1:4", positive=True)))


def _softmax_jacobian_two() -> sympy.Basic:
    from symbolic import softmax

    return softmax.two_by_two().closed_form


def _layer_norm_jacobian_entry() -> sympy.Expr:
    from symbolic import layer_norm
    from symbolic.symbols import d

    _proved(layer_norm.derive_layer_norm_jacobian_general())
    i, j = sympy.symbols("i j", integer=True, positive=True)
    y, sigma = sympy.IndexedBase("y"), sympy.Symbol("sigma", positive=True)
    return layer_norm.chapter_entry(y[i], y[j], sympy.KroneckerDelta(i, j), sigma, d)


def _counts(name: str, *args, **kwargs) -> Callable[[], sympy.Expr]:
    def build() -> sympy.Expr:
        from symbolic import counts

        return getattr(counts, name)(*args, **kwargs)

    return build


def _at_four_d(name: str) -> Callable[[], sympy.Expr]:
    def build() -> sympy.Expr:
        from symbolic import counts
        from symbolic.symbols import d

        return sympy.expand(getattr(counts, name)(d_ff=4 * d))

    return build


def _block_doubling_ratio() -> sympy.Expr:
    from symbolic import counts
    from symbolic.symbols import d

    return counts.doubling_ratio(counts.block_multiplications(d_ff=4 * d))


def _crossover(name: str, four_d: bool) -> Callable[[], sympy.Expr]:
    def build() -> sympy.Expr:
        from symbolic import counts
        from symbolic.symbols import d

        poly = getattr(counts, name)(d_ff=4 * d) if four_d else getattr(counts, name)()
        return counts.crossover(poly)

    return build


def _gelu(order: int) -> Callable[[], sympy.Expr]:
    def build() -> sympy.Expr:
        from symbolic import gelu

        return gelu.derivatives()[order - 1]

    return build


FORMULAS: dict[str, Formula] = {
    f.name: f
    for f in (
        Formula("softmax-jacobian", "命題 3.2［自己注意］ ∂σ_i/∂z_j", _softmax_jacobian_entry),
        Formula(
            "softmax-jacobian-matrix",
            "命題 3.2［自己注意］ diag(σ) − σσᵀ at n = 3",
            _softmax_jacobian_matrix,
        ),
        Formula("softmax-jacobian-two", "演習 10.2［自己注意］ n = 2", _softmax_jacobian_two),
        Formula(
            "layer-norm-jacobian",
            "命題 3.3［Transformer ブロック］ ∂y_i/∂x_j",
            _layer_norm_jacobian_entry,
        ),
        Formula(
            "attention-parameters",
            "命題 7.1［自己注意］ 4d² + 4d",
            _counts("attention_parameters", bias=True),
        ),
        Formula(
            "attention-parameters-no-bias",
            "命題 7.1［自己注意］ 4d²",
            _counts("attention_parameters", bias=False),
        ),
        Formula(
            "attention-multiplications",
            "命題 7.2［自己注意］ 4nd² + 2n²d",
            _counts("attention_multiplications"),
        ),
        Formula(
            "attention-crossover",
            "命題 7.2［自己注意］ n = 2d",
            _crossover("attention_multiplications", four_d=False),
        ),
        Formula(
            "attention-weights-memory",
            "命題 7.2［自己注意］ hn²",
            _counts("attention_weights_memory"),
        ),
        Formula(
            "model-parameters", "定理 5.1［Transformer ブロック］", _counts("model_parameters")
        ),
        Formula(
            "block-parameters",
            "定理 5.1［Transformer ブロック］ 12d² + 13d",
            _at_four_d("block_parameters"),
        ),
        Formula(
            "block-multiplications",
            "命題 6.1［Transformer ブロック］ 12nd² + 2n²d",
            _at_four_d("block_multiplications"),
        ),
        Formula(
            "block-crossover",
            "命題 6.1［Transformer ブロック］ n = 6d",
            _crossover("block_multiplications", four_d=True),
        ),
        Formula(
            "lm-head-multiplications",
            "命題 6.1［Transformer ブロック］ nd|V|",
            _counts("lm_head_multiplications"),
        ),
        Formula(
            "doubling-ratio",
            "演習 11.4［Transformer ブロック］ T(2n)/T(n)",
            _block_doubling_ratio,
        ),
        Formula("gelu-first-derivative", "命題 8.1［Transformer ブロック］ GELU'", _gelu(1)),
        Formula("gelu-second-derivative", "命題 8.1［Transformer ブロック］ GELU''", _gelu(2)),
    )
}
