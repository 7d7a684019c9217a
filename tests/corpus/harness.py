"""What the two recomputation scripts share: reading the chapter, rendering a recomputed
value the way the chapter prints it, and checking it on its line (`check`), with the
failures, the numbers covered and the count of checks kept here.

Standalone: NumPy, math and fractions only; the transformer-proofs package is not
imported.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from decimal import ROUND_HALF_EVEN, Decimal, getcontext
from fractions import Fraction
from pathlib import Path

import numpy as np

getcontext().prec = 80
HERE = Path(__file__).resolve().parent
ARGS = [a for a in sys.argv[1:] if not a.startswith("-")]
LINES: list[str] = []  # the chapter's lines, once `load` has read them
VERBOSE = "-v" in sys.argv[1:]

FAILURES: list[str] = []
COVERED: Counter = Counter()  # (line, token) -> times checked
COUNT: Counter = Counter()  # "checks": how many numbers were compared
TALLY: Counter = Counter()

# ---------------------------------------------------------------- formatting

TOKEN = re.compile(r"(?<![\w.^])-?\d+(?:(?:\{,\}|,)\d{3})*(?:\.\d+)?(?:e[+-]\d+)?")
SCI_TEX = re.compile(r"^(-?\d+(?:\.\d+)?) \\times 10\^\{(-?\d+)\}$")
SCI_E = re.compile(r"^(-?\d+(?:\.\d+)?)e([+-]\d+)$")
PLAIN = re.compile(r"^(-?)(\d{1,3}(?:(?:\{,\}|,)\d{3})+|\d+)(?:\.(\d+))?$")


def to_decimal(value) -> Decimal:
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)
    if isinstance(value, (int, np.integer)):
        return Decimal(int(value))
    return Decimal(float(value))  # the exact binary value


def rounded(value, decimals: int) -> Decimal:
    d = to_decimal(value)
    scaled = d.scaleb(decimals)
    fraction = scaled - scaled.to_integral_value(rounding="ROUND_FLOOR")
    if decimals >= 0 and abs(fraction - Decimal("0.5")) < Decimal("1e-9") and fraction != 0:
        FAILURES.append(f"tie: {d} at {decimals} decimals")
    return d.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_EVEN)


def group(digits: str, sep: str) -> str:
    if not sep:
        return digits
    out = []
    while len(digits) > 3:
        out.insert(0, digits[-3:])
        digits = digits[:-3]
    out.insert(0, digits)
    return sep.join(out)


def render(printed: str, value) -> str:
    """`value` written the way `printed` is written."""
    m = SCI_TEX.match(printed)
    if m:
        mantissa, exponent = m.groups()
        decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
        scaled = to_decimal(value).scaleb(-int(exponent))
        return f"{format(rounded(scaled, decimals), 'f')} \\times 10^{{{exponent}}}"
    m = SCI_E.match(printed)
    if m:
        mantissa, exponent = m.groups()
        decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
        return f"{float(value):.{decimals}e}".replace("e-0", "e-").replace("e+0", "e+")
    m = PLAIN.match(printed)
    if not m:
        raise ValueError(f"cannot read the printed number {printed!r}")
    _, integer, fraction = m.groups()
    decimals = len(fraction or "")
    sep = "{,}" if "{,}" in integer else ("," if "," in integer else "")
    text = format(rounded(value, decimals), "f")
    sign = "-" if text.startswith("-") else ""
    text = text.lstrip("-")
    whole, _, frac = text.partition(".")
    if sign and set(whole + frac) <= {"0"}:
        sign = ""
    return sign + group(whole, sep) + ("." + frac if frac else "")


# ---------------------------------------------------------------- locating


def line_of(anchor: str) -> int:
    hits = [i for i, line in enumerate(LINES, 1) if anchor in line]
    if len(hits) != 1:
        FAILURES.append(f"anchor {anchor!r} is on {len(hits)} lines {hits[:5]}, not on one")
        return hits[0] if hits else 0
    return hits[0]


def check(
    anchor: str | int, printed: str, value, times: int = 1, context: str | None = None
) -> None:
    """The number `printed` on the line of `anchor` equals `value` at its precision.
    `times`: how many occurrences of the same printed number on the line this covers.
    `context`: the words around a small number that is also elsewhere on the line
    ("7 本以上"); it must be on the line and end with the printed number's claim."""
    n = anchor if isinstance(anchor, int) else line_of(anchor)
    text = LINES[n - 1] if n else ""
    if context is not None and (context not in text or printed not in context):
        FAILURES.append(f"line {n}: {context!r} (the claim of {printed}) is not on the line")
        return
    if printed not in text:
        FAILURES.append(f"line {n}: {printed!r} is not on the line")
        return
    recomputed = render(printed, value)
    COUNT["checks"] += 1
    ok = recomputed == printed
    mark = "" if ok else "   <-- MISMATCH"
    print(f"line {n}: {printed} == {recomputed}{mark}")
    if VERBOSE and not isinstance(value, (int, np.integer)):
        print(f"          exact {to_decimal(value):.12g}")
    if not ok:
        FAILURES.append(f"line {n}: printed {printed}, recomputed {recomputed}")
    for token in TOKEN.findall(printed):
        COVERED[(n, token)] += times


def check_text(anchor: str, printed: str) -> int:
    """A non-numeric claim that must be on the line (a word in a table, a label)."""
    n = line_of(anchor)
    if printed not in LINES[n - 1]:
        FAILURES.append(f"line {n}: {printed!r} is not on the line")
    return n


def load(default: str) -> Path:
    """Read the chapter named on the command line, else `default` beside this file."""
    chapter = Path(ARGS[0]) if ARGS else HERE / default
    LINES[:] = chapter.read_text(encoding="utf-8").split("\n")
    return chapter
