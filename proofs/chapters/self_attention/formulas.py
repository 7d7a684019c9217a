"""The self-attention chapter's formulas, as `python -m proofs latex` exports them."""

from __future__ import annotations

import sympy

from proofs.book.formulas import proved
from proofs.chapters.self_attention.chapter import CHAPTER
from symbolic import counts, printing
from symbolic import softmax as symbolic_softmax


@CHAPTER.formula("softmax-jacobian", "命題 3.2", "the softmax Jacobian")
def softmax_jacobian() -> sympy.Basic:
    proved(symbolic_softmax.derive_softmax_jacobian_general())
    return printing.softmax_jacobian_expression()


@CHAPTER.formula("softmax-jacobian-two", "演習 10.2", "the softmax Jacobian at $n = 2$")
def softmax_jacobian_two() -> sympy.Basic:
    """s(1 − s) times the matrix of 1 and −1, both read off the derived closed form."""
    closed = symbolic_softmax.two_by_two().closed_form
    factor = closed[0, 0]
    pattern = (closed / factor).applyfunc(sympy.simplify)
    return sympy.MatMul(factor, sympy.ImmutableMatrix(pattern), evaluate=False)


@CHAPTER.formula("attention-parameters", "命題 7.1", "parameters of multi-head attention")
def attention_parameters() -> sympy.Expr:
    return counts.attention_parameters(bias=True)


@CHAPTER.formula("attention-parameters-no-bias", "命題 7.1", "the same without biases")
def attention_parameters_no_bias() -> sympy.Expr:
    return counts.attention_parameters(bias=False)


@CHAPTER.formula("attention-multiplications", "命題 7.2", "multiplications of one attention layer")
def attention_multiplications() -> sympy.Expr:
    return counts.attention_multiplications()


@CHAPTER.formula("attention-crossover", "命題 7.2", "the $n$ where the two terms are equal")
def attention_crossover() -> sympy.Expr:
    return counts.crossover(counts.attention_multiplications())


@CHAPTER.formula("attention-weights-memory", "命題 7.2", "numbers stored for the weights")
def attention_weights_memory() -> sympy.Expr:
    return counts.attention_weights_memory()
