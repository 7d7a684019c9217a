"""The functions and constants every notation knows: what `\\log x`, `\\exp(x)`, `\\sin x`,
`\\sqrt{x}`, `\\pi` mean when a chapter's notation gives the name no meaning of its own.

A chapter's notation (or a reader of `proofs.book.stated`) names what its symbols are; a
name it does not give is looked up here before it is refused. Each entry is the SymPy
function the name stands for and what it means, as docs/api.md lists them.

>>> from proofs.tex.symbolic import Evaluator
>>> from proofs.tex.tree import parse
>>> Evaluator({})(parse(r"\\log e^{2} + \\exp(0)"))
3
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy


@dataclass(frozen=True)
class Known:
    """A name every notation knows: its value (a SymPy function or number) and meaning."""

    value: Callable[..., Any] | sympy.Expr
    meaning: str


KNOWN: dict[str, Known] = {
    "log": Known(sympy.log, "the natural logarithm: `\\log x` is ln x (base e)"),
    "ln": Known(sympy.log, "the natural logarithm, as `\\log`"),
    "exp": Known(sympy.exp, "the exponential: `\\exp(x)` is e^x, as `e^{x}` is"),
    "sqrt": Known(sympy.sqrt, "the square root: `\\sqrt{x}`, also `\\mathrm{sqrt}(x)`"),
    "sin": Known(sympy.sin, "the sine, in radians"),
    "cos": Known(sympy.cos, "the cosine, in radians"),
    "tan": Known(sympy.tan, "the tangent, in radians"),
    "tanh": Known(sympy.tanh, "the hyperbolic tangent"),
    "erf": Known(sympy.erf, "the error function: `\\mathrm{erf}(x)` is 2/√π ∫_0^x e^{-u^2} du"),
    "pi": Known(sympy.pi, "π, the number: `\\pi`"),
    "e": Known(sympy.E, "Euler's number, e = exp(1); `e^{x}` is exp(x)"),
}


def known(name: str) -> Callable[..., Any] | sympy.Expr | None:
    """The value of a name every notation knows, None for any other name."""
    entry = KNOWN.get(name)
    return entry.value if entry is not None else None
