"""A value an example works out and prints, against the chapter's definitions at the values
the text set: the printed number must be the computed one rounded.

「$\\varphi(3) \\approx 0.004432$」 prints φ(3) = 0.0044318… to its last digit: the printed
number stands for 0.0044315 to 0.0044325, and the computed value must lie there. A value
set by the text with three or more significant digits (「$p_4 = 0.4964$」) was itself worked
out and rounded, so the computed value is taken over every corner of those settings'
rounding (at most CORNERS of them; more, or such a setting inside a vector, and the
judgement is left to the witness module's relative tolerance). A value set with fewer
digits (「$p = 0.2$」, 「$\\boldsymbol{x} = (2, -1, 0.5, 3)$」) is a choice, exact.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from fractions import Fraction

import sympy

from proofs.audit.deciding.defined import Notation
from proofs.tex.tree import Node, TexError
from proofs.tex.witness import DIGITS, Judgement, Point

CORNERS = 3  # rounded settings taken at both ends of their rounding, at most
SIGNIFICANT = 3  # a decimal setting with this many significant digits was rounded
_PRINTED = re.compile(r"-?\d+(?:\.(\d+))?")
_SEPARATORS = re.compile(r"\\[,;!]|\\\s|\\quad|\s|\{,\}")


def printed_entries(member: str) -> list[tuple[Fraction, Fraction]] | None:
    """(value, half a unit of its last digit) of each number a member prints (`2.5`,
    `(0.3011,\\ 0.1353)`); None when the member is anything but printed numbers."""
    text = _SEPARATORS.sub("", member).replace("\\left", "").replace("\\right", "")
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    entries = []
    for entry in text.split(","):
        match = _PRINTED.fullmatch(entry)
        if match is None:
            return None
        decimals = len(match.group(1) or "")
        half = Fraction(1, 2 * 10**decimals) if decimals else Fraction(0)
        entries.append((Fraction(match.group()), half))
    return entries


def judge_printed(
    computed: Callable[[Notation], list[sympy.Expr]],
    notation: Notation,
    reached: set[str],
    printed: list[tuple[Fraction, Fraction]],
) -> Judgement | None:
    """The printed entries against `computed` (the worked-out side's entries in a
    notation) over the corners of the rounded settings it reaches; None when those
    settings cannot be spread (a rounded entry of a vector, more than CORNERS) or a value is
    no real number."""
    rounded = []
    for name in sorted(reached):
        node = notation.settings.get(name)
        if node is None:
            continue
        if node.op == "num" and _rounded(node):
            rounded.append((name, node))
        elif any(isinstance(a, Node) and a.op == "num" and _rounded(a) for a in node.args):
            return None
    if len(rounded) > CORNERS:
        return None
    spread: list[tuple[sympy.Float, sympy.Float]] | None = None
    for signs in itertools.product((-1, 1), repeat=len(rounded)):
        local = notation.copy()
        for (name, node), sign in zip(rounded, signs, strict=True):
            local.settings[name] = Node("num", (node.args[0] + sign * _half(node.token),))
        try:
            values = [sympy.N(v, DIGITS) for v in computed(local)]
        except (TexError, TypeError, ValueError, ArithmeticError):
            return None
        if len(values) != len(printed) or not all(v.is_real and v.is_finite for v in values):
            return None
        spread = (
            [(v, v) for v in values]
            if spread is None
            else [(min(lo, v), max(hi, v)) for (lo, hi), v in zip(spread, values, strict=True)]
        )
    assert spread is not None
    slack = sympy.Rational(1, 10**20)  # of the evaluation at DIGITS digits
    for k, ((low, high), (value, half)) in enumerate(zip(spread, printed, strict=True)):
        below = sympy.Rational((value - half).numerator, (value - half).denominator)
        above = sympy.Rational((value + half).numerator, (value + half).denominator)
        scale = max(abs(low), abs(high), sympy.Integer(1))
        if high < below - slack * scale or low > above + slack * scale:
            near = low if low > above else high
            shown = sympy.Float(sympy.Rational(value.numerator, value.denominator), DIGITS)
            return Judgement("fails", 1, Point((), near, shown, k))
    return Judgement("holds", 1)


def _rounded(node: Node) -> bool:
    digits = node.token.replace("{,}", "").lstrip("-").replace(".", "").lstrip("0")
    return "." in node.token and len(digits) >= SIGNIFICANT


def _half(token: str) -> sympy.Rational:
    decimals = len(token.partition(".")[2])
    return sympy.Rational(1, 2 * 10**decimals)
