"""A value an example works out and prints, against the chapter's definitions at the values
the text set: the printed number must be the computed one rounded.

「$\\varphi(3) \\approx 0.004432$」 prints φ(3) = 0.0044318… to its last digit: the printed
number stands for 0.0044315 to 0.0044325, and the computed value must lie there. The values
the text sets are taken as written: a number set alone (「$p = 0.2$」, 「$A = 406.4$」) is a
choice or a constant. A vector set with entries of three or more significant digits
(「$\\boldsymbol{p} = (0.3011,\\ 0.1353,\\ 0.0672,\\ 0.4964)$」) was itself worked out and
rounded, and what is computed from its entries may differ from the text's by more than half
a unit of what it prints: that judgement is left to the witness module's relative
tolerance.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

import sympy

from proofs.audit.deciding.defined import Notation
from proofs.tex.tree import Node, TexError
from proofs.tex.witness import DIGITS, Judgement, Point

SIGNIFICANT = 3  # a vector's decimal entry with this many significant digits was rounded
_PRINTED = re.compile(r"-?\d+(?:\.(\d+))?")
_SEPARATORS = re.compile(r"\\[,;!]|\\\s|\\quad|\s|\{,\}")
_POWER_OF_TEN = re.compile(r"\\times\s*10\^(?:\{-?\d+\}|\d)")
_TRANSPOSED = re.compile(r"\^(?:\{\\mathsf\{T\}\}|\\top|T)$")


def printed_entries(member: str, about: bool = False) -> list[tuple[Fraction, Fraction]] | None:
    """(value, half a unit of its last digit) of each number a member prints (`2.5`,
    `(0.3011,\\ 0.1353)^{\\mathsf{T}}`, `3.249 \\times 10^{10}` as 3.249); an integer is
    exact, or under `about` (after ≈) rounded to its last digit too. None when the member
    is anything but printed numbers."""
    text = _SEPARATORS.sub("", _POWER_OF_TEN.sub("", member))
    text = _TRANSPOSED.sub("", text.replace("\\left", "").replace("\\right", ""))
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    entries = []
    for entry in text.split(","):
        match = _PRINTED.fullmatch(entry)
        if match is None:
            return None
        decimals = len(match.group(1) or "")
        half = Fraction(1, 2 * 10**decimals) if decimals or about else Fraction(0)
        entries.append((Fraction(match.group()), half))
    return entries


def judge_printed(
    computed: Callable[[Notation], list[sympy.Expr]],
    notation: Notation,
    reached: set[str],
    printed: list[tuple[Fraction, Fraction]],
) -> Judgement | None:
    """The printed entries against `computed` (the worked-out side's entries in the
    notation); None when it reaches a vector of rounded entries or a value is no real
    number."""
    for name in reached:
        node = notation.settings.get(name)
        if node is not None and node.op != "num" and any(_rounded(a) for a in node.args):
            return None
    try:
        values = [sympy.N(v, DIGITS) for v in computed(notation)]
    except (TexError, TypeError, ValueError, ArithmeticError):
        return None
    if len(values) != len(printed) or not all(v.is_real and v.is_finite for v in values):
        return None
    slack = sympy.Rational(1, 10**20)  # of the evaluation at DIGITS digits
    for k, (computed_value, (value, half)) in enumerate(zip(values, printed, strict=True)):
        low, high = (
            sympy.Rational(b.numerator, b.denominator) for b in (value - half, value + half)
        )
        scale = max(abs(computed_value), sympy.Integer(1))
        if computed_value < low - slack * scale or computed_value > high + slack * scale:
            shown = sympy.Float(_rational(value), DIGITS)
            return Judgement("fails", 1, Point((), computed_value, shown, k))
    return Judgement("holds", 1)


def _rounded(node: object) -> bool:
    """A printed decimal of SIGNIFICANT digits or more: a value worked out and rounded."""
    if not isinstance(node, Node) or node.op != "num":
        return False
    digits = node.token.replace("{,}", "").lstrip("-").replace(".", "").lstrip("0")
    return "." in node.token and len(digits) >= SIGNIFICANT


def _rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)
