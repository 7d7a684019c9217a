"""Readers of claims: the chapter's TeX turned into what a check judges.

Each reader takes a claim's text (the transcription, or the chapter's version
when the audit found it changed) and returns the value the check's argument
expects: a count polynomial in the chapters' symbols, an entry formula as a
function of (sigma, i, j), a printed number with its precision. A text the
reader cannot read raises TexError, which the audit reports at the claim's line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import sympy

from proofs.printed import Printed
from proofs.reader.math import split_relations
from proofs.tex_sympy import Evaluator, Indexed, TexError, parse
from symbolic import symbols

SIZES = {  # the chapters' size names -> symbolic.symbols
    "n": symbols.n, "d": symbols.d, "h": symbols.h, "m": symbols.m, "d_k": symbols.d_k,
    "d_ff": symbols.d_ff, "|V|": symbols.V, "V": symbols.V, "L": symbols.L,
    "L_ctx": symbols.L_ctx,
}


def right_side(tex: str) -> str:
    """The last member of a relation chain (the whole text when it has no relation)."""
    members, _ = split_relations(tex)
    return members[-1].strip()


def left_side(tex: str) -> str:
    members, _ = split_relations(tex)
    return members[0].strip()


def polynomial(tex: str) -> sympy.Expr:
    """A count's right side in the chapters' size symbols: 4nd^2 + 2n^2 d."""
    value = Evaluator(SIZES)(parse(right_side(tex)))
    if not isinstance(value, sympy.Expr):
        raise TexError(f"{tex!r} is not a polynomial in the sizes")
    return sympy.expand(value)


def entry_formula(sigma: str, *indices: str, **constants: Any) -> Callable[[str], Callable]:
    """A reader of an entry formula's right side as a function of (sigma, *indices):
    `\\sigma_i(\\delta_{ij} - \\sigma_j)` -> (sigma, i, j) -> sigma[i] (delta_ij - sigma[j]),
    with the caller's own index convention."""

    def read(tex: str) -> Callable:
        tree = parse(right_side(tex))

        def formula(values: Any, *index_values: Any) -> Any:
            names = {sigma: Indexed(values), "delta": sympy.KroneckerDelta, **constants,
                     **dict(zip(indices, index_values, strict=True))}
            return Evaluator(names, entries={sigma.split()[-1]: sigma})(tree)

        return formula

    return read


def matrix_formula(**names: str) -> Callable[[str], Callable]:
    """A reader of a matrix formula's right side as a function of the named arguments:
    matrix_formula(sigma="bold sigma") reads `diag(sigma) - sigma sigma^T` as
    sigma -> diag(sigma) - sigma sigma^T."""

    def read(tex: str) -> Callable:
        tree = parse(right_side(tex))

        def formula(*values: Any) -> Any:
            bound = {tex_name: v for tex_name, v in zip(names.values(), values, strict=True)}
            return Evaluator({**bound, "diag": lambda v: sympy.diag(*v)})(tree)

        return formula

    return read


_NUMBER = re.compile(r"-?\d+(?:\{,\}\d{3})*(?:\.\d+)?")


def printed(tex: str) -> Printed:
    """The number on the right of the last relation, with its printed decimals."""
    text = right_side(tex).replace(r"\,", "").strip()
    match = _NUMBER.fullmatch(text.replace(" ", ""))
    if match is None:
        raise TexError(f"{text!r} is not a printed number")
    digits = match.group(0).replace("{,}", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return Printed(float(digits), decimals)


def integer(tex: str) -> int:
    """An integer on the right of the last relation: 1{,}050{,}624 -> 1050624."""
    text = right_side(tex).replace(" ", "")
    if not re.fullmatch(r"\d+(?:\{,\}\d{3})*", text):
        raise TexError(f"{text!r} is not a printed integer")
    return int(text.replace("{,}", ""))


def function_of(*names: str) -> Callable[[str], Callable]:
    """A reader of a right side in the chapters' sizes as a function of the named ones:
    function_of("d_k") reads `d_k` as d_k -> d_k and `1` as d_k -> 1."""

    def read(tex: str) -> Callable:
        value = Evaluator(SIZES)(parse(right_side(tex)))
        keys = [SIZES[name] for name in names]

        def at(*values: Any) -> Any:
            return sympy.sympify(value).subs(dict(zip(keys, values, strict=True)))

        return at

    return read


def number(tex: str) -> sympy.Expr:
    """The right side as an exact number: `0`, `1`, `1/2`."""
    value = Evaluator(SIZES)(parse(right_side(tex)))
    if not isinstance(value, sympy.Expr) or not value.is_number:
        raise TexError(f"{right_side(tex)!r} is not a number")
    return value


def crossover(tex: str) -> sympy.Expr:
    """The size where two terms meet, as the chapter writes it: `n = 2d = 128` -> 2d (the
    first member in other sizes)."""
    members, _ = split_relations(tex)
    if len(members) < 2:
        raise TexError(f"{tex!r} states no crossover")
    return sympy.expand(Evaluator(SIZES)(parse(members[1].strip())))


def tuple_of_numbers(tex: str) -> tuple[sympy.Expr, ...]:
    """A tuple on the right side as exact numbers: `(1/6, 1/3, 1/2)`."""
    value = Evaluator(SIZES)(parse(right_side(tex)))
    if not isinstance(value, sympy.MatrixBase) or not all(v.is_number for v in value):
        raise TexError(f"{right_side(tex)!r} is not a tuple of numbers")
    return tuple(value)


def values(tex: str) -> Any:
    """The printed numbers on the right side, nested as written: a pmatrix is a list of
    rows, a tuple of tuples a list of lists, a tuple a list, a number a float."""
    value = Evaluator({})(parse(right_side(tex)))
    if not isinstance(value, sympy.MatrixBase):
        return float(value)
    if value.cols == 1:  # a tuple (a, b, c) reads as a column
        return [float(v) for v in value]
    return [[float(v) for v in value.row(r)] for r in range(value.rows)]


def divisor(tex: str) -> float:
    """The divisor of the left side `(a, b, c)/x`: the row sum the chapter divides by."""
    value = parse(left_side(tex))
    if value.op != "div":
        raise TexError(f"{left_side(tex)!r} is not a division")
    return float(Evaluator({})(value.args[1]))


def expression(tex: str) -> sympy.Expr:
    """The right side as an exact SymPy expression of numbers: `29/\\sqrt2`."""
    return sympy.sympify(Evaluator({})(parse(right_side(tex))))
