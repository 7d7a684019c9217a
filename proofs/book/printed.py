"""Numbers as a chapter prints them: a value and the precision its digits carry."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal


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

    def truncates(self, computed: float) -> bool:
        """Whether the printed value is `computed` truncated (not rounded) to its decimals."""
        places = Decimal(1).scaleb(-self.decimals)
        return Decimal(float(computed)).quantize(places, ROUND_DOWN) == Decimal(
            str(self.value)
        ).quantize(places)


def ungrouped(printed: str) -> str:
    """A printed number without its thousands separators: `1,024` and `1{,}024` -> `1024`."""
    return printed.replace("{,}", "").replace(",", "")


def half_unit(printed: str) -> float:
    """Half a unit in the last printed digit: the precision of a printed number."""
    exponent = Decimal(printed).as_tuple().exponent
    if not isinstance(exponent, int):
        raise ValueError(f"printed must be a finite decimal, got {printed!r}")
    return 0.5 * 10.0**exponent
