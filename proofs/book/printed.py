"""Numbers as a chapter prints them: a value and the precision its digits carry."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal
from numbers import Integral, Real


@dataclass(frozen=True)
class Printed:
    """A number as printed: its value and the decimals it is printed with."""

    value: float
    decimals: int

    def agrees(self, computed: float) -> bool:
        """Whether `computed` rounds (half to even, in decimal) to the printed value."""
        places = Decimal(1).scaleb(-self.decimals)
        return Decimal(float(computed)).quantize(places, ROUND_HALF_EVEN) == Decimal(
            str(self.value)
        ).quantize(places)

    def half_unit(self) -> float:
        """Half a unit in the last printed place; 0 for an integer, which is exact."""
        return 0.5 * 10.0**-self.decimals if self.decimals else 0.0

    def truncates(self, computed: float) -> bool:
        """Whether the printed value is `computed` truncated (not rounded) to its decimals."""
        places = Decimal(1).scaleb(-self.decimals)
        return Decimal(float(computed)).quantize(places, ROUND_DOWN) == Decimal(
            str(self.value)
        ).quantize(places)


_NUMBER = re.compile(r"-?\d{1,3}(?:(?:\{,\}|,|\\,)\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?")


def as_printed(text: str) -> Printed | None:
    """A text that is one number as printed (its digits grouped or not) as a Printed;
    None for any other text."""
    text = text.strip().strip("$").strip()
    if _NUMBER.fullmatch(text) is None:
        return None
    digits = ungrouped(text.replace("\\,", ""))
    return Printed(float(digits), len(digits.split(".")[1]) if "." in digits else 0)


def agrees_as_printed(text: str, value: object) -> bool:
    """Whether a printed number `text` is `value` at the precision it is printed with (an
    integer: exactly); False when either is not a number."""
    printed = as_printed(text)
    if printed is None or isinstance(value, bool) or not isinstance(value, Real):
        return False
    if printed.decimals == 0:  # exactly, in integers where both are (beyond 2^53 too)
        digits = int(ungrouped(text.strip().strip("$").strip().replace("\\,", "")))
        return digits == value if isinstance(value, Integral) else float(digits) == value
    return printed.agrees(float(value))


def cell_agrees(regenerated: str, value: object, printed: str) -> bool:
    """Whether a printed table cell says what the regenerated one says: the same text, or
    a number that is the value behind it at the precision the cell is printed with (0.94
    for 0.939…, 4.0 for 4.00)."""
    return regenerated == printed or agrees_as_printed(printed, value)


def ungrouped(printed: str) -> str:
    """A printed number without its thousands separators: `1,024` and `1{,}024` -> `1024`."""
    return printed.replace("{,}", "").replace(",", "")


def half_unit(printed: str) -> float:
    """Half a unit in the last printed digit: the precision of a printed number."""
    exponent = Decimal(printed).as_tuple().exponent
    if not isinstance(exponent, int):
        raise ValueError(f"printed must be a finite decimal, got {printed!r}")
    return 0.5 * 10.0**exponent


def significant_digits(printed: str) -> int:
    """The significant digits a printed number shows, its power of ten aside (0.0361: 3;
    27.71: 4; 2,294: 4; 1.75 \\times 10^{-46}: 3); at least 1."""
    digits = re.sub(r"\\times.*|[^0-9]", "", printed.replace("{,}", ""))
    return max(len(digits.lstrip("0")), 1)
