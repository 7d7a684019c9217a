"""A number written again in the form a chapter printed another one in: its decimals, its
exponent, its digit grouping and its minus sign, so that a value `sync` writes back
reads as the chapter's own."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

_FORM = re.compile(
    r"(?P<sign>[-−+]?)(?P<whole>\d{1,3}(?:,\d{3})+|\d*)(?:\.(?P<decimals>\d*))?"
    r"(?:(?P<e>[eE])(?P<esign>[-+]?)(?P<exponent>\d+))?"
)


def reprinted(value: Fraction, like: str) -> str:
    """`value` written as the printed number `like` is: as many decimals (rounded half to
    even), in its exponent form with as many exponent digits, grouped by commas when it
    is, with its kind of minus sign. ValueError when `like` is not a printed number.

    >>> reprinted(Fraction(1, 80), "0.0152"), reprinted(Fraction(3, 16), "1.87500e-01")
    ('0.0125', '1.87500e-01')
    >>> reprinted(Fraction(7087872), "7,087,827"), reprinted(Fraction(-1, 4), "−0.3")
    ('7,087,872', '−0.2')
    """
    match = _FORM.fullmatch(like.strip())
    if match is None or not (match.group("whole") or match.group("decimals")):
        raise ValueError(f"like: expected a printed number, got {like!r}")
    decimals = len(match.group("decimals") or "")
    minus = "−" if match.group("sign") == "−" else "-"
    with localcontext() as context:
        context.prec = 60
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        if match.group("e"):
            text = f"{exact:.{decimals}e}"
            mantissa, _, exponent = text.partition("e")
            power = int(exponent)
            digits = max(len(match.group("exponent")), len(str(abs(power))))
            esign = "-" if power < 0 else ("+" if match.group("esign") == "+" else "")
            text = f"{mantissa}{match.group('e')}{esign}{abs(power):0{digits}d}"
        else:
            rounded = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_EVEN)
            grouping = "," if "," in match.group("whole") else ""
            text = f"{rounded:{grouping}.{decimals}f}"
    if text.startswith("-"):
        return minus + text[1:]
    return ("+" if match.group("sign") == "+" else "") + text
