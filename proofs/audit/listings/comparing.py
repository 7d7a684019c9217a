"""Comparing what a listing printed with what the chapter prints: line by line, token by
token, numbers at the chapter's printed precision and, below ROUNDOFF, as rounding
error whatever their digits."""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass

from proofs.audit.listings.running import ListingRun
from proofs.reader.records import Listing

# Numbers printed and produced both below this are measured rounding errors: float64's
# unit roundoff 1.1e-16 grown by the listings' sums (1e-16..1e-13) and by central
# differences with h = 1e-6 (roundoff/h, about 1e-10). Their digits depend on the BLAS
# and on the order of the sums (the chapter prints 2.2e-16 where another machine prints
# 1.1e-16), so both tiny is agreement, whatever the digits. Every other number the
# listings print is above 1e-5, so a slip such as 2.4e-05 printed for 2.4e-15 is found.
ROUNDOFF = 1e-9

_NUMBER = re.compile(r"(?<![A-Za-z_\d.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


@dataclass(frozen=True)
class OutputComparison:
    """One printed output line of the chapter against the line the listing produced.

    `printed` is "" for a line the listing prints and the chapter does not; `produced`
    is "" for a line the chapter prints and the listing does not. `roundoff` is True
    when the line agrees only because numbers on it are both at rounding level.
    """

    line: int  # the chapter's line
    printed: str
    produced: str
    status: str  # "confirmed" | "mismatched" | "not checkable" (a line a run stopped before)
    detail: str = ""
    roundoff: bool = False


def _tokens(line: str) -> list[str]:
    """Numbers and the words between them, spaces dropped: `[-1.069  0.]` gives
    `[`, `-1.069`, `0.`, `]`."""
    out = []
    for chunk in line.split():
        at = 0
        for match in _NUMBER.finditer(chunk):
            if match.start() > at:
                out.append(chunk[at : match.start()])
            out.append(match.group())
            at = match.end()
        if at < len(chunk):
            out.append(chunk[at:])
    return out


def _is_number(token: str) -> bool:
    return _NUMBER.fullmatch(token) is not None


def _shape(line: str) -> str:
    return " ".join("#" if _is_number(t) else t for t in _tokens(line))


def _half_unit(printed: str) -> float:
    """Half a unit in the last printed place: 0.8420 -> 5e-5, 3.300e-4 -> 5e-8, 768 -> 0.5."""
    mantissa, _, exponent = printed.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    try:
        return 0.5 * 10.0 ** (int(exponent or 0) - decimals)
    except OverflowError:
        return math.inf


def agree(printed: str, produced: str) -> tuple[bool, bool]:
    """(whether two numbers agree, whether only as both at rounding level): the produced
    value rounds to the printed one at its printed precision, or both are below ROUNDOFF.

    >>> agree("0.8420", "0.84204"), agree("0.8402", "0.8420")
    ((True, False), (False, False))
    >>> agree("2.2e-16", "1.1e-16"), agree("2.4e-15", "2.4e-05")
    ((True, True), (False, False))
    """
    for name, value in (("printed", printed), ("produced", produced)):
        if not isinstance(value, str) or _NUMBER.fullmatch(value) is None:
            raise ValueError(f"{name}: expected a number as printed, got {value!r}")
    if printed == produced:
        return True, False
    p, q = float(printed), float(produced)
    if abs(p) < ROUNDOFF and abs(q) < ROUNDOFF:
        return True, True
    return abs(q - p) <= _half_unit(printed) * (1 + 1e-9) + 1e-300, False


def _compare_line(line: int, printed: str, produced: str) -> OutputComparison:
    """One printed line against one produced line, token by token."""
    chapter_tokens, listing_tokens = _tokens(printed), _tokens(produced)
    if len(chapter_tokens) != len(listing_tokens):
        detail = (
            f"the chapter prints '{' '.join(printed.split())}', "
            f"the listing prints '{' '.join(produced.split())}'"
        )
        return OutputComparison(line, printed, produced, "mismatched", detail)
    differences, tiny = [], []
    for a, b in zip(chapter_tokens, listing_tokens, strict=True):
        same, rounding = agree(a, b) if _is_number(a) and _is_number(b) else (a == b, False)
        pair = f"the chapter prints {a}, the listing prints {b}"
        if not same:
            differences.append(pair)
        elif rounding:
            tiny.append(pair)
    if differences:
        return OutputComparison(line, printed, produced, "mismatched", "; ".join(differences))
    detail = f"at rounding level: {'; '.join(tiny)}" if tiny else ""
    return OutputComparison(line, printed, produced, "confirmed", detail, bool(tiny))


def compare_output(
    listing: Listing, produced: str, problem: str = "", limited: bool = False
) -> list[OutputComparison]:
    """The chapter's printed output of the listing against what it produced, one record
    per line (none when the chapter prints no output for it). Lines are aligned on their
    words, so that a line missing or extra is one mismatch at its line; `problem` (a
    run's) explains the lines it never printed. `limited`: the run stopped at a limit of
    its sandbox, so a line it never printed (or cut off as it stopped) is not checkable:
    given the time, it might print it.

    >>> listing = Listing(10, ("print(0.842)",), 12, ("p = 0.8402",))
    >>> [(c.line, c.status, c.detail) for c in compare_output(listing, "p =  0.8420\\n")]
    [(12, 'mismatched', 'the chapter prints 0.8402, the listing prints 0.8420')]
    """
    if not isinstance(listing, Listing):
        raise TypeError(f"listing: expected a Listing, got {type(listing).__name__}")
    if not isinstance(produced, str):
        raise TypeError(f"produced: expected the printed text, got {type(produced).__name__}")
    if listing.output_line is None:
        return []
    printed = list(listing.output)
    made = produced.splitlines()
    while printed and not printed[-1].strip():
        printed.pop()
    while made and not made[-1].strip():
        made.pop()
    if limited and made and not produced.endswith("\n"):
        made.pop()  # the line it was printing when it was stopped
    first = listing.output_line
    last = first + max(len(printed) - 1, 0)
    missing = "the listing does not print this line" + (f": it {problem}" if problem else "")
    unprinted = "not checkable" if limited else "mismatched"
    out = []
    matcher = difflib.SequenceMatcher(
        None, [_shape(t) for t in printed], [_shape(t) for t in made], autojunk=False
    )
    for _, i1, i2, j1, j2 in matcher.get_opcodes():
        paired = min(i2 - i1, j2 - j1)
        for k in range(paired):
            out.append(_compare_line(first + i1 + k, printed[i1 + k], made[j1 + k]))
        for i in range(i1 + paired, i2):
            out.append(OutputComparison(first + i, printed[i], "", unprinted, missing))
        for j in range(j1 + paired, j2):
            line = min(first + i1 + paired, last)
            detail = f"the listing prints a line the chapter does not: '{made[j].strip()}'"
            out.append(OutputComparison(line, "", made[j], "mismatched", detail))
    return out


def compare_run(run: ListingRun) -> list[OutputComparison]:
    """`compare_output` of a run: its stdout, its problem explaining missing lines."""
    return compare_output(run.listing, run.stdout, run.problem, run.limited)
