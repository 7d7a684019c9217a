"""The printer writes the chapters' notation: printed key formulas equal the
chapters' own TeX (copied here from the chapter files) after normalise_tex."""

import pytest
from sympy import (
    Function,
    ImmutableMatrix,
    MatMul,
    Matrix,
    MatrixSymbol,
    Max,
    Symbol,
    exp,
    ones,
)

from symbolic.counts import (
    attention_multiplications,
    attention_parameters,
    attention_weights_memory,
    block_multiplications,
    block_parameters,
    lm_head_multiplications,
    model_parameter_parts,
)
from symbolic.identities import equal
from symbolic.layer_norm_definition import chapter_jacobian
from symbolic.printing import (
    chapter_latex,
    layer_norm_jacobian_expression,
    model_parameters_latex,
    normalise_tex,
    softmax_jacobian_expression,
)
from symbolic.softmax import chapter_matrix
from symbolic.symbols import V, d, n

# the chapters' own strings (000_…: self-attention, 002_…: Transformer block)
SOFTMAX_JACOBIAN = (
    r"\mathrm{diag}(\boldsymbol{\sigma}) - \boldsymbol{\sigma}\boldsymbol{\sigma}^{\mathsf{T}}"
)
LAYER_NORM_JACOBIAN = (
    r"\frac{1}{\sigma}\Big( I - \frac{1}{d}\boldsymbol{1}\boldsymbol{1}^{\mathsf{T}}"
    r" - \frac{1}{d}\boldsymbol{y}\boldsymbol{y}^{\mathsf{T}} \Big)"
)
ATTENTION_PARAMETERS = r"4d^2 + 4d"
ATTENTION_MULTIPLICATIONS = r"4nd^2 + 2n^2 d"
MODEL_PARAMETERS = (
    r"|V|d + L_{\mathrm{ctx}}d + L(4d^2 + 4d + 2d\,d_{\mathrm{ff}} + d_{\mathrm{ff}} + d + 4d)"
    r" + 2d"
)
BLOCK_PARAMETERS = r"12d^2 + 13d"
BLOCK_MULTIPLICATIONS = r"12nd^2 + 2n^2d"
BLOCK_MULTIPLICATIONS_GENERAL = r"4nd^2 + 2n^2 d + 2nd\,d_{\mathrm{ff}}"
WEIGHTS_MEMORY = r"hn^2"
LM_HEAD = r"nd\,|V|"


def same(printed: str, chapter: str) -> bool:
    return normalise_tex(printed) == normalise_tex(chapter)


def test_prop_softmax_jacobian_printed_as_in_the_chapter():
    assert chapter_latex(softmax_jacobian_expression()) == SOFTMAX_JACOBIAN


def test_prop_softmax_jacobian_expression_is_the_derived_formula():
    sigma = MatrixSymbol("sigma", 3, 1)
    explicit = softmax_jacobian_expression(3).as_explicit()
    assert equal(Matrix(explicit), chapter_matrix(Matrix(sigma)))


def test_prop_layer_norm_jacobian_printed_as_in_the_chapter():
    assert same(chapter_latex(layer_norm_jacobian_expression()), LAYER_NORM_JACOBIAN)


def test_prop_layer_norm_jacobian_expression_is_the_derived_formula():
    expr = layer_norm_jacobian_expression(3)
    y, sigma = MatrixSymbol("y", 3, 1), Symbol("sigma", positive=True)
    explicit = expr.subs(MatrixSymbol("1", 3, 1), ones(3, 1)).as_explicit()
    assert equal(Matrix(explicit), chapter_jacobian(Matrix(y), sigma))


def test_prop_attention_parameters_printed_as_in_the_chapter():
    assert chapter_latex(attention_parameters()) == ATTENTION_PARAMETERS


def test_prop_attention_complexity_printed_as_in_the_chapter():
    assert chapter_latex(attention_multiplications()) == ATTENTION_MULTIPLICATIONS
    assert chapter_latex(attention_weights_memory()) == WEIGHTS_MEMORY


def test_thm_transformer_parameters_printed_as_in_the_chapter():
    assert same(model_parameters_latex(model_parameter_parts()), MODEL_PARAMETERS)
    assert chapter_latex(block_parameters(width=4 * d)) == BLOCK_PARAMETERS


def test_prop_block_complexity_printed_as_in_the_chapter():
    assert same(chapter_latex(block_multiplications(width=4 * d)), BLOCK_MULTIPLICATIONS)
    assert same(chapter_latex(block_multiplications()), BLOCK_MULTIPLICATIONS_GENERAL)
    assert same(chapter_latex(lm_head_multiplications(), factor_order=(n, d, V)), LM_HEAD)


@pytest.mark.parametrize(
    "wrong, chapter",
    [
        (4 * d**2 + 3 * d, ATTENTION_PARAMETERS),
        (4 * n * d**2 + n**2 * d, ATTENTION_MULTIPLICATIONS),
        (12 * d**2 + 12 * d, BLOCK_PARAMETERS),
    ],
)
def test_printed_comparison_rejects_wrong_polynomials(wrong, chapter):
    assert not same(chapter_latex(wrong), chapter)


def test_normalise_tex_drops_only_spacing_and_redundant_braces():
    assert normalise_tex(r"4 d^{2} + 4\,d") == "4d^2+4d"
    assert normalise_tex(r"\Big( x \Big)") == "(x)"
    assert normalise_tex(r"d_{\mathrm{ff}}") == r"d_{\mathrm{ff}}"
    assert normalise_tex(r"n^{2}") != normalise_tex(r"n^{3}")


def test_exr_doubling_ratio_printed_as_a_fraction_of_the_chapters_terms():
    from symbolic.counts import doubling_ratio, quadratic_share

    T = block_multiplications(width=4 * d)
    assert chapter_latex(doubling_ratio(T)) == r"\frac{12d + 4n}{6d + n}"
    assert chapter_latex(quadratic_share(T)) == r"\frac{n}{6d}"


# sums in the chapters' order: a positive constant opens a sum that would open with a minus
JACOBIAN_TWO = r"s(1-s)\begin{pmatrix} 1 & -1 \\ -1 & 1 \end{pmatrix}"  # 演習 10.2
GELU_FIRST = r"\Phi(t) + t\,\varphi(t)"  # 命題 8.1
GELU_SECOND = r"(2 - t^2)\,\varphi(t)"  # 命題 8.1

s, t = Symbol("s"), Symbol("t")
Phi, varphi = Function("Phi"), Function("varphi")


def test_exr_jacobian_two_printed_as_in_the_chapter():
    printed = chapter_latex(MatMul(s * (1 - s), ImmutableMatrix([[1, -1], [-1, 1]])))
    assert printed == r"s (1 - s)\begin{pmatrix}1 & -1\\-1 & 1\end{pmatrix}"
    assert same(printed, JACOBIAN_TWO)


def test_prop_relu_piecewise_linear_gelu_derivatives_printed_as_in_the_chapter():
    assert same(chapter_latex(Phi(t) + t * varphi(t)), GELU_FIRST)
    assert chapter_latex((2 - t**2) * varphi(t)) == r"(2 - t^2) \varphi(t)"
    assert same(chapter_latex((2 - t**2) * varphi(t)), GELU_SECOND)


def test_a_sum_opening_with_a_minus_opens_with_its_positive_constant():
    assert chapter_latex(1 - s) == "1 - s"
    assert chapter_latex(2 - t**2) == "2 - t^2"
    assert chapter_latex(1 - Max(s, t)) == r"1 - \max(s, t)"


def test_other_sums_keep_the_descending_order():
    assert chapter_latex(s - 1) == "s - 1"
    assert chapter_latex(s + 1) == "s + 1"
    assert chapter_latex(-s - 1) == "-s - 1"
    assert chapter_latex(3 * s**2 - s + 1) == "3s^2 - s + 1"
    assert chapter_latex(exp(-s) - 1) == "e^{-s} - 1"


@pytest.mark.parametrize(
    "wrong, chapter",
    [
        ((1 + s) * s, "s(1-s)"),
        ((2 + t**2) * varphi(t), GELU_SECOND),
        (Phi(t) + varphi(t), GELU_FIRST),
    ],
    ids=["sign-of-s", "sign-of-t-squared", "missing-t"],
)
def test_printed_comparison_rejects_wrong_sums(wrong, chapter):
    assert not same(chapter_latex(wrong), chapter)


def test_normalise_tex_keeps_a_row_break_before_a_space():
    assert normalise_tex(r"1 & -1 \\ -1 & 1") == r"1&-1\\-1&1"
