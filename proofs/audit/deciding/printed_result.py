"""A value an example works out and prints, against the chapter's definitions at the values
the text set: the printed number must be the computed one rounded.

「$\\varphi(3) \\approx 0.004432$」 prints φ(3) = 0.0044318… to its last digit: the printed
number stands for 0.0044315 to 0.0044325, and the computed value must lie there. The values
the text sets are taken as written: a number set alone (「$p = 0.2$」, 「$A = 406.4$」) is a
choice or a constant. A vector set with entries of three or more significant digits
(「$\\boldsymbol{p} = (0.3011,\\ 0.1353,\\ 0.0672,\\ 0.4964)$」) was itself worked out and
rounded, and what is computed from its entries may differ from the text's by more than half
a unit of what it prints: the value is widened by what moving each such entry by half a
unit of its last digit moves it (「$\\mu = 2p_1 + p_2 - p_4 = 1.4927$」 from p rounded to
four places: 1.4926 ± 0.0002), doubled for what a first-order estimate leaves out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

import sympy

from proofs.audit.deciding.defined import Notation
from proofs.book.printed import significant_digits
from proofs.tex.tree import Node, TexError
from proofs.tex.witness import DIGITS, Judgement, Point

SIGNIFICANT = 3  # a vector's decimal entry with this many significant digits was rounded
MAX_ROUNDED = 24  # rounded entries moved at most (each costs two evaluations)
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
    notation), widened by the rounding of the vectors of rounded entries it reaches; None
    when a value is no real number or it reaches more than MAX_ROUNDED such entries."""
    moved = [
        (name, k)
        for name in sorted(reached)
        if (node := notation.settings.get(name)) is not None and node.op == "tuple"
        for k, entry in enumerate(node.args)
        if _rounded(entry)
    ]
    if len(moved) > MAX_ROUNDED or any(
        (node := notation.settings.get(name)) is not None
        and node.op == "matrix"
        and any(_rounded(a) for row in node.args for a in row)
        for name in reached
    ):
        return None
    try:
        values = _values(computed, notation)
        spread = [sympy.Integer(0)] * len(values)
        for name, k in moved:  # each rounded entry moved by half a unit of its last digit
            for shifted in _shifted(notation, name, k):
                for j, value in enumerate(_values(computed, shifted)[: len(values)]):
                    spread[j] = max(spread[j], abs(value - values[j]))
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
        widened = 2 * spread[k]
        if (
            computed_value < low - widened - slack * scale
            or computed_value > high + widened + slack * scale
        ):
            shown = sympy.Float(_rational(value), DIGITS)
            return Judgement("fails", 1, Point((), computed_value, shown, k))
    return Judgement("holds", 1)


def _values(computed: Callable[[Notation], list[sympy.Expr]], notation: Notation) -> list:
    return [sympy.N(v, DIGITS) for v in computed(notation)]


def _shifted(notation: Notation, name: str, k: int) -> list[Notation]:
    """The notation with entry k of the vector `name` set to its printed value less and
    more half a unit of its last digit."""
    node = notation.settings[name]
    entry = node.args[k]
    decimals = len(entry.token.split(".")[1]) if "." in entry.token else 0
    half = sympy.Rational(1, 2 * 10**decimals)
    out = []
    for step in (-half, half):
        local = notation.copy()
        args = list(node.args)
        args[k] = replace(entry, args=(entry.args[0] + step,))
        local.settings[name] = replace(node, args=tuple(args))
        out.append(local)
    return out


def _rounded(node: object) -> bool:
    """A printed decimal of SIGNIFICANT digits or more: a value worked out and rounded."""
    if not isinstance(node, Node) or node.op != "num":
        return False
    return "." in node.token and significant_digits(node.token) >= SIGNIFICANT


def _rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)
