"""Printed decimals read as the exact constants an author rounded: 1.4142 as √2,
1.8708 as √(7/2), 0.2857 as 2/7, 1.6487 as e^{1/2}.

A reading must lie within half a unit of the printed last place and be simple: a
fraction p/q with q <= MAX_DENOMINATOR and |p| <= MAX_NUMERATOR, the root of one,
or e to a fraction with a denominator of at most MAX_EXP_DENOMINATOR. Only a decimal
printed to 1/20,000 or finer (relative to it when it is above 1) is read, since a
coarser one stands for too many constants, and never one that is already a simple
fraction (0.5, 3.5). Under these bounds a random decimal printed to four places has
a reading 2 to 4 times in 100 (measured between 0.001 and 10), so a reading is
evidence of what the author rounded. A truncated 1.1428 (8/7 = 1.142857…) has no
reading: 8/7 is 0.57 units of its last place away.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

import mpmath

MAX_DENOMINATOR = 16
MAX_NUMERATOR = 256
MAX_EXP_DENOMINATOR = 4
MAX_HALF_UNIT = Fraction(1, 20_000)  # of a number below 1; relative above
MAX_EXP_NUMERATOR = 200  # e^{±50}: beyond, a printed decimal is not an exponential

# a printed decimal: 1.4142, 4.54 \times 10^{-5} (integers are exact and never read)
DECIMAL = re.compile(r"(?<![\d.])(\d+)\.(\d+)(?:\s*\\times\s*10\^(?:\{(-?\d+)\}|(\d)))?")


@dataclass(frozen=True)
class Reading:
    """An exact constant for a printed decimal: `tex` for the evaluator, `shown` for a
    report."""

    printed: str
    tex: str
    shown: str


def reading(printed: str) -> Reading | None:
    """The simplest exact constant within half a unit of the printed decimal's last
    place, other than the decimal itself; None when there is none."""
    match = DECIMAL.fullmatch(printed.strip())
    if match is None:
        raise ValueError(f"printed must be a decimal such as 1.4142, got {printed!r}")
    whole, places, exponent = match.group(1), match.group(2), match.group(3) or match.group(4)
    scale = Fraction(10) ** int(exponent or 0)
    value = Fraction(f"{whole}.{places}") * scale
    half = Fraction(1, 2 * 10 ** len(places)) * scale
    if (
        half > MAX_HALF_UNIT * max(Fraction(1), value)
        or value.limit_denominator(MAX_DENOMINATOR) == value
    ):
        return None
    with mpmath.workdps(40):
        for candidate in (_fraction, _root, _exponential):
            found = candidate(value, half)
            if found is not None:
                tex, shown = found
                return Reading(printed, tex, shown)
    return None


def _fraction(value: Fraction, half: Fraction) -> tuple[str, str] | None:
    near = value.limit_denominator(MAX_DENOMINATOR)
    if abs(near - value) > half or near.denominator == 1 or near.numerator > MAX_NUMERATOR:
        return None
    return _tex_fraction(near), str(near)


def _root(value: Fraction, half: Fraction) -> tuple[str, str] | None:
    square = (value * value).limit_denominator(MAX_DENOMINATOR)
    if square <= 0 or square.numerator > MAX_NUMERATOR or _is_square(square):
        return None
    if (
        abs(
            mpmath.sqrt(mpmath.mpf(square.numerator) / square.denominator)
            - mpmath.mpf(value.numerator) / value.denominator
        )
        > mpmath.mpf(half.numerator) / half.denominator
    ):
        return None
    return (
        f"\\sqrt{{{_tex_fraction(square)}}}",
        f"√({square})" if square.denominator > 1 else f"√{square}",
    )


def _exponential(value: Fraction, half: Fraction) -> tuple[str, str] | None:
    if value <= 0:
        return None
    x = mpmath.mpf(value.numerator) / value.denominator
    power = Fraction(str(mpmath.nstr(mpmath.log(x), 30))).limit_denominator(MAX_EXP_DENOMINATOR)
    if power == 0 or abs(power.numerator) > MAX_EXP_NUMERATOR:
        return None
    if (
        abs(mpmath.exp(mpmath.mpf(power.numerator) / power.denominator) - x)
        > mpmath.mpf(half.numerator) / half.denominator
    ):
        return None
    return f"e^{{{_tex_fraction(power)}}}", f"e^({power})"


def _is_square(q: Fraction) -> bool:
    return all(int(mpmath.sqrt(n)) ** 2 == n for n in (q.numerator, q.denominator))


def _tex_fraction(q: Fraction) -> str:
    sign = "-" if q < 0 else ""
    q = abs(q)
    return (
        f"{sign}{q.numerator}"
        if q.denominator == 1
        else f"{sign}\\frac{{{q.numerator}}}{{{q.denominator}}}"
    )


def read_exactly(member: str) -> tuple[str, tuple[Reading, ...]]:
    """The member with every printed decimal that has a reading replaced by it, and the
    readings used."""
    used: list[Reading] = []

    def replace(match: re.Match) -> str:
        found = reading(match.group(0))
        if found is None:
            return match.group(0)
        used.append(found)
        return f"{{{found.tex}}}"

    return DECIMAL.sub(replace, member), tuple(used)
