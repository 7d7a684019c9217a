"""A witness that a relation of a chapter is false: values of its symbols at which its two
sides, evaluated at DIGITS digits, differ by more than their rounding — or the finding
that no such values were met.

SymPy failing to reduce a difference to zero proves nothing (100^{-i/2} = 10^{-i} is true
for every i, and `expand` leaves it). A relation is therefore judged at points: each
symbol takes simple exact values (halves, quarters, eighths, small integers), so that a
reader can check the witness by hand. Which values a symbol may take the chapter says or
implies, and a relation may hold only on part of the space (a probability in (0, 1), an
index an integer, a base above 1); so the points are drawn in REGIONS — every symbol a
small integer, every symbol in (0, 1), in (1, 4), above 4 — and a relation is false only
when it fails in every region where it can be evaluated, at all but at most one point of
each (two sides may meet by chance: 2^n = n^2 at n = 2, 4). A relation that fails in
some regions and holds throughout another is true on part of the space: "not decided",
with the point where it fails and the region where it holds. A relation that holds at
every point is confirmed numerically, at that many points, and said so: that is no
proof.

A symbol the caller marks as an integer (an index, a size) takes integers in every
region; a symbol with a stated range (0 < p < 1) takes values inside it only.

>>> x, i = sympy.symbols("x i", positive=True)
>>> judged = judge("=", 100 ** (-i / 2), 10 ** (-i), seed=0)
>>> judged.outcome, judged.points
('holds', 16)
>>> wrong = judge("=", (x + 1) ** 2, x**2 + 1, seed=0)
>>> wrong.outcome
'fails'
>>> print(wrong.witness)  # doctest: +ELLIPSIS
at x = ...: left ..., right ...
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import sympy

DIGITS = 40  # digits each side is evaluated at
EXACT = sympy.Rational(1, 10**30)  # a difference below this (relative) is none
PER_REGION = 4  # points drawn in each region
SECONDS = 2.0  # the most one relation's points may take; past it, what was drawn decides
MAX_OPERATIONS = 2_000  # a side larger than this (SymPy's count_ops) is not evaluated
MAX_FOLD_TERMS = 1_000  # of a sum or product evaluated term by term at a point

# Each region draws a value for a real symbol and for an integer one.
_EIGHTHS = [Fraction(k, 8) for k in range(1, 8) if k != 4]
_QUARTERS = [Fraction(k, 4) for k in range(5, 16) if k % 4]
_LARGE = [Fraction(k, 2) for k in range(9, 41, 3)]
REGIONS: dict[str, tuple[list[Fraction], list[int]]] = {
    "every symbol an integer from 2 to 7": ([Fraction(k) for k in range(2, 8)], [2, 3, 4, 5, 6, 7]),
    "every symbol in (0, 1)": (_EIGHTHS, [1, 2, 3]),
    "every symbol in (1, 4)": (_QUARTERS, [2, 3, 4, 5, 6, 7]),
    "every symbol above 4": (_LARGE, [8, 9, 12, 16, 20, 24]),
}
# a symbol whose stated range holds none of a region's values takes one of another's
_ALL_REALS = sorted({v for reals, _ in REGIONS.values() for v in reals})
_ALL_WHOLE = sorted({Fraction(k) for _, whole in REGIONS.values() for k in whole})


@dataclass(frozen=True)
class Range:
    """A range the chapter states for a symbol: low < s < high (None: unbounded), and
    whether it is an integer."""

    low: Fraction | None = None
    high: Fraction | None = None
    integer: bool = False

    def admits(self, value: Fraction) -> bool:
        return (self.low is None or value > self.low) and (self.high is None or value < self.high)

    def nonempty(self) -> bool:
        return self.low is None or self.high is None or self.low < self.high

    def within(self, other: Range) -> Range:
        """Where both ranges hold (an integer if either is)."""
        lows = [b for b in (self.low, other.low) if b is not None]
        highs = [b for b in (self.high, other.high) if b is not None]
        return Range(
            max(lows) if lows else None,
            min(highs) if highs else None,
            self.integer or other.integer,
        )


@dataclass(frozen=True)
class Point:
    """Values of the symbols, and both sides there (None: not a real number there)."""

    values: tuple[tuple[str, Fraction], ...]
    left: sympy.Float | None
    right: sympy.Float | None
    entry: int = 0  # which entry of the sides (matrices compared entry by entry) these are

    def __str__(self) -> str:
        where = ", ".join(f"{name} = {_shown(v)}" for name, v in self.values)
        sides = f"left {_number(self.left)}, right {_number(self.right)}"
        return f"at {where}: {sides}" if where else sides


@dataclass(frozen=True)
class Judgement:
    """`outcome`: "fails" (a witness: false in every region it could be evaluated in),
    "holds" (true at every point), "partly" (false in some region, true throughout
    another), "unknown" (too few points could be evaluated, or too costly)."""

    outcome: str
    points: int  # the points at which both sides could be evaluated
    witness: Point | None = None  # where it fails
    holds_in: tuple[str, ...] = ()  # the regions in which it held at every point
    reason: str = ""
    regions: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (failed, of)

    def detail(self) -> str:
        """One line a reader can act on."""
        if self.outcome == "fails":
            return f"false {self.witness} (evaluated at {DIGITS} digits)"
        if self.outcome == "holds":
            if self.points == 1:  # nothing left free: the values the text sets
                return "confirmed numerically at the values set, not proved"
            return f"confirmed numerically at {self.points} points, not proved"
        if self.outcome == "partly":
            return (
                f"not decided: false {self.witness}, but true at every point with "
                f"{self.holds_in[0]}: it holds on part of the space, which the text must state"
            )
        return f"not decided: {self.reason}"


def judge(
    op: str,
    left: sympy.Basic,
    right: sympy.Basic,
    integers: frozenset[str] = frozenset(),
    ranges: Mapping[str, Range] | None = None,
    relative: sympy.Rational | None = None,
    seed: int = 0,
) -> Judgement:
    """Judge `left op right` (op one of = ≈ < ≤ > ≥ ≠, as "=", "<=", …) at points drawn in
    every region; `integers` names the symbols that are integers, `ranges` the stated
    ranges, `relative` how far apart (relative to the larger side) two printed sides may
    be and still agree (their rounding; exact sides agree to EXACT)."""
    ranges = dict(ranges or {})
    try:
        sides = [_entries(left), _entries(right)]
    except TypeError as why:
        return Judgement("unknown", 0, reason=str(why))
    if len(sides[0]) != len(sides[1]):
        return Judgement("unknown", 0, reason="the sides have different shapes")
    if any(sympy.count_ops(e) > MAX_OPERATIONS for side in sides for e in side):
        return Judgement("unknown", 0, reason=f"a side of more than {MAX_OPERATIONS} operations")
    symbols = sorted(
        {s for side in sides for e in side for s in e.free_symbols}, key=lambda s: s.name
    )
    tolerance = max(relative or EXACT, EXACT)
    rng = random.Random(seed)
    started = time.monotonic()
    tally: dict[str, tuple[int, int]] = {}
    first: dict[str, Point] = {}
    evaluated = 0
    for region, (reals, whole) in REGIONS.items():
        failed = of = 0
        for _ in range(PER_REGION if symbols else 1):
            if time.monotonic() - started > SECONDS:
                break
            values = _draw(symbols, integers, ranges, reals, whole, rng)
            if values is None:
                continue
            point, holds = _at(op, sides, values, tolerance)
            if holds is None:
                continue
            of += 1
            if not holds:
                failed += 1
                first.setdefault(region, point)
        evaluated += of
        if of:
            tally[region] = (failed, of)
        if not symbols:
            break
    return _verdict(tally, first, evaluated, bool(symbols))


def _verdict(
    tally: dict[str, tuple[int, int]], first: dict[str, Point], evaluated: int, symbolic: bool
) -> Judgement:
    """The outcome from each region's count of failed points."""
    if not tally:
        return Judgement("unknown", 0, reason="the sides are real numbers at no point drawn")
    failing = [r for r, (failed, of) in tally.items() if failed and failed >= of - 1]
    holding = tuple(r for r, (failed, _) in tally.items() if not failed)
    witness = next((first[r] for r in tally if r in first), None)
    if not symbolic:
        outcome = "fails" if failing else "holds"
        return Judgement(outcome, evaluated, witness, holding, regions=tally)
    if len(failing) == len(tally) and (len(tally) >= 2 or tally[failing[0]][1] >= 3):
        return Judgement("fails", evaluated, first[failing[0]], regions=tally)
    if witness is None:
        return Judgement("holds", evaluated, holds_in=holding, regions=tally)
    if holding:
        return Judgement("partly", evaluated, witness, holding, regions=tally)
    return Judgement(
        "unknown",
        evaluated,
        witness,
        reason="false at some points and true at others of every region",
        regions=tally,
    )


def _entries(value: sympy.Basic) -> list[sympy.Expr]:
    if isinstance(value, sympy.MatrixBase):
        return list(value)
    if isinstance(value, sympy.Expr):
        return [value]
    value = sympy.sympify(value, strict=True)
    if not isinstance(value, sympy.Expr):
        raise TypeError(f"not a number or a matrix: {type(value).__name__}")
    return [value]


def _draw(
    symbols: Sequence[sympy.Symbol],
    integers: frozenset[str],
    ranges: Mapping[str, Range],
    reals: list[Fraction],
    whole: list[int],
    rng: random.Random,
) -> dict[sympy.Symbol, Fraction] | None:
    """A value for each symbol from the region's lists (their negatives for a range below
    0: 「$x < 0$ のとき」), inside its stated range. A symbol whose range holds none of the
    region's values takes one of another region's (ε in (0, 1) beside a size V ≥ 2), so
    long as some symbol takes the region's own; None when none does (the region lies
    outside every stated range) or a range admits no value at all."""
    admitted: dict[sympy.Symbol, list[Fraction]] = {}
    native = not symbols  # some symbol takes the region's own values (or there is none)
    for s in symbols:
        stated = ranges.get(s.name, Range())
        integer = s.name in integers or stated.integer or bool(s.is_integer)
        sign = -1 if stated.high is not None and stated.high <= 0 else 1
        choices = [Fraction(k) for k in whole] if integer else reals
        inside = [sign * v for v in choices if stated.admits(sign * v)]
        native = native or bool(inside)
        if not inside:
            every = _ALL_WHOLE if integer else _ALL_REALS
            inside = [sign * v for v in every if stated.admits(sign * v)]
        if not inside:
            return None
        admitted[s] = inside
    if not native:
        return None
    values: dict[sympy.Symbol, Fraction] = {}
    for s in symbols:
        unused = [v for v in admitted[s] if v not in values.values()]
        values[s] = rng.choice(unused or admitted[s])  # distinct where it can: a = b is special
    return values


def _at(
    op: str, sides: list[list[sympy.Expr]], values: dict, tolerance: sympy.Rational
) -> tuple[Point, bool | None]:
    """Both sides at the point, and whether the relation holds there (None: a side is not
    a real number there). The sides are evaluated fast first; where that finds the
    relation false, they are evaluated again by SymPy to DIGITS digits, which decides."""
    exact = tuple((s, sympy.Rational(v.numerator, v.denominator)) for s, v in values.items())
    shown = tuple((s.name, v) for s, v in values.items())
    first: tuple[sympy.Float | None, sympy.Float | None] = (None, None)
    for k, (a, b) in enumerate(zip(*sides, strict=True)):
        x, y = _real(a, exact), _real(b, exact)
        if x is not None and y is not None and not _compare(op, x, y, tolerance):
            x, y = _real_at(a, exact), _real_at(b, exact)  # a witness is SymPy's
        if k == 0:
            first = (x, y)
        if x is None or y is None:
            return Point(shown, x, y, k), None
        if not _compare(op, x, y, tolerance):
            return Point(shown, x, y, k), False
    return Point(shown, *first), True


def _real(expression: sympy.Expr, point: tuple) -> sympy.Float | None:
    """The expression at the point, if that is a finite real number: from its compiled
    form at twice DIGITS working digits where that gives one, else from SymPy (a number
    alone, met at one point, is not worth compiling)."""
    fast = _fast_at(expression, point) if expression.free_symbols else None
    return fast if fast is not None else _real_at(expression, point)


@functools.lru_cache(maxsize=1 << 12)
def _real_at(expression: sympy.Expr, point: tuple) -> sympy.Float | None:
    """The expression at the point, to DIGITS digits, if that is a finite real number
    (not evaluated where a sum runs over more than MAX_FOLD_TERMS terms or none whole);
    once per expression and point, which a statement restated in a proof meets again."""
    try:
        at = expression.xreplace(dict(point))
        if not short_folds(at):
            return None
        value = sympy.N(at, DIGITS)
    except (TypeError, ValueError, ArithmeticError, RecursionError, NotImplementedError):
        return None
    if not value.is_number or not value.is_real or not value.is_finite:
        return None
    return sympy.Float(value, DIGITS)


# The fast evaluation's own mpmath context (the global one is other code's to set), and the
# names its compiled expressions call.
_FAST = mpmath.MPContext()
_FAST.dps = 2 * DIGITS
_FAST_NAMES = {name: getattr(_FAST, name) for name in dir(_FAST) if not name.startswith("_")}


def _fast_at(expression: sympy.Expr, point: tuple) -> sympy.Float | None:
    """The expression at the point from its compiled form, or None where that gives no
    finite real number (a fold, a function it cannot call, a complex value, an error):
    SymPy then evaluates it. Its working digits are twice DIGITS, so that an agreement
    to EXACT is no accident of rounding; a disagreement SymPy confirms."""
    compiled = _compiled(expression)
    if compiled is None:
        return None
    symbols, function = compiled
    values = dict(point)
    try:
        value = function(*(_FAST.mpf(values[s].p) / values[s].q for s in symbols))
    except (TypeError, ValueError, ArithmeticError, NameError, KeyError, RecursionError):
        return None
    if not isinstance(value, _FAST.mpf) or not _FAST.isfinite(value):
        return None
    return sympy.Float(value, DIGITS)


@functools.lru_cache(maxsize=1 << 10)
def _compiled(expression: sympy.Expr) -> tuple[tuple[sympy.Symbol, ...], Callable] | None:
    """The expression as a function of its symbols (in name order) over mpmath numbers;
    None for one with a sum or a product (SymPy bounds their terms) or that does not
    compile."""
    if expression.atoms(sympy.Sum, sympy.Product):
        return None
    symbols = tuple(sorted(expression.free_symbols, key=lambda s: s.name))
    try:
        return symbols, sympy.lambdify(symbols, expression, modules=[_FAST_NAMES, "mpmath"])
    except (TypeError, ValueError, NameError, SyntaxError, KeyError, RecursionError):
        return None


def short_folds(value: sympy.Basic) -> bool:
    """Whether every sum and product in the value runs over whole numbers, at most
    MAX_FOLD_TERMS of them: one over a range a point makes fractional (Σ_{t=1}^{bm - w} at
    b = 3/7) has no terms to add, one over thousands costs seconds at DIGITS digits, and
    SymPy's attempts at either can run without end."""
    folds = value.atoms(sympy.Sum, sympy.Product)
    indices = {index for fold in folds for index, _, _ in fold.limits}
    for fold in folds:
        for _, low, high in fold.limits:
            if (low.free_symbols | high.free_symbols) and (
                low.free_symbols | high.free_symbols
            ) <= indices:
                continue  # an inner range in an outer sum's index: the outer one bounds it
            if not (low.is_Integer and high.is_Integer and high - low <= MAX_FOLD_TERMS):
                return False
    return True


def _compare(op: str, x: sympy.Float, y: sympy.Float, tolerance: sympy.Rational) -> bool:
    """Whether x op y may hold: two sides within `tolerance` of each other (relative) count
    as equal, so that an inequality between sides that close is given the benefit of the
    doubt (the witness must be beyond the rounding)."""
    close = bool(abs(x - y) <= tolerance * max(abs(x), abs(y), sympy.Integer(1)))
    if op in ("=", ":=", "≈"):
        return close
    if op == "!=":
        return not close
    order = {"<=": x <= y, "<": x < y, ">=": x >= y, ">": x > y}[op]
    return close or bool(order)


def _shown(value: Fraction) -> str:
    """1/2 as 0.5, 5/4 as 1.25, 1/3 as 1/3: a decimal where one is exact."""
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    while denominator % 2 == 0:
        denominator //= 2
    while denominator % 5 == 0:
        denominator //= 5
    if denominator == 1:
        return format(value.numerator / value.denominator, "g")
    return f"{value.numerator}/{value.denominator}"


def _number(value: sympy.Float | None) -> str:
    """A side's value to 7 significant digits ("no real number" when it has none)."""
    if value is None:
        return "no real number"
    return format(float(value), ".7g")
