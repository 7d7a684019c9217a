"""Judging: the one place where a check decides that a statement does not hold.

A check measures (proofs.evidence.measures, numeric.error_bounds) and then judges here:
`require` for a plain condition; `judge_within` for "this defect is within its rounding
bound", whose Verdict names the worst entry and its error/bound ratio for the evidence
line; `weigh` and `judge_cases` for a property judged on many drawn cases, measured
first and judged once, in one message naming the worst case and how many failed.
A `finding` among the evidence reports a wrong printed value where the statement itself holds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike


class CheckFailed(AssertionError):
    """A chapter's statement does not hold for the objects the check was given: an
    AssertionError, which pytest reports as a failed assertion.

    >>> issubclass(CheckFailed, AssertionError)
    True
    """


class Unchecked(Exception):  # noqa: N818 - a result, like CheckFailed, not an error
    """The element has no check yet (a skeleton's stub): never reported as passed.

    >>> print(Unchecked("定義 1.1 has no check yet"))
    定義 1.1 has no check yet
    """


def require(condition: bool, message: str) -> None:
    """Raise CheckFailed with `message` unless `condition` holds.

    >>> require(2 + 2 == 4, "2 + 2 is not 4")
    >>> require(2 + 2 == 5, "2 + 2 is not 5")
    Traceback (most recent call last):
    ...
    proofs.book.judge.CheckFailed: 2 + 2 is not 5
    """
    __tracebackhide__ = True  # pytest shows the check's line, not the judge's
    if not condition:
        raise CheckFailed(message)


@dataclass(frozen=True)
class Verdict:
    """|error| weighed against its bound entry by entry: the entry with the largest
    error/bound, how many entries were judged and how many exceed their bound.

    The ratio counts 0/0 as 0 and e/0 as inf. A NaN error, and a bound that is NaN,
    infinite or negative (a bound that could let anything through), count as inf and as
    exceeded, so no such entry ever passes.

    >>> v = weigh([0.5, -3.0, 1.0], [1.0, 2.0, 4.0], "gap")
    >>> v.holds, v.ratio, v.index, v.exceeded, v.largest
    (False, 1.5, (1,), 1, 3.0)
    >>> print(v)
    gap: 1 of 3 entries exceed their bound; worst at [1]: 3.000e+00 > 2.000e+00 (error/bound 1.5)
    """

    what: str
    ratio: float  # the largest error/bound
    index: tuple[int, ...]  # where it is (() for a scalar or no entries)
    error: float  # |error| there
    bound: float  # the bound there
    largest: float  # the largest |error| of all the entries
    entries: int
    exceeded: int

    @property
    def holds(self) -> bool:
        return self.exceeded == 0

    def __str__(self) -> str:
        where = f" at {_index(self.index)}" if self.index else ""
        if not (math.isfinite(self.bound) and self.bound >= 0):
            worst = f"{self.error:.3e} against the bound {self.bound}, which bounds nothing"
        else:
            sign = "<=" if self.error <= self.bound else ">"
            worst = f"{self.error:.3e} {sign} {self.bound:.3e} (error/bound {self.ratio:.3g})"
        return (
            f"{self.what}: {self.exceeded} of {self.entries} entries exceed their bound; "
            f"worst{where}: {worst}"
        )


def weigh(error: ArrayLike, bound: ArrayLike, what: str) -> Verdict:
    """Weigh |error| against `bound` entrywise without judging (judge_within judges).

    The bound broadcasts to the error's shape, never the error to the bound's (that would
    judge entries the error does not have): a ValueError names both shapes.

    >>> verdict = weigh([1e-17, -3e-16], 2.2e-16, "softmax sums")
    >>> verdict.holds, verdict.index, round(verdict.ratio, 2)
    (False, (1,), 1.36)
    """
    e = np.abs(np.asarray(error, dtype=float))
    b = np.asarray(bound, dtype=float)
    try:
        b = np.broadcast_to(b, e.shape)
    except ValueError:
        raise ValueError(
            f"{what}: a bound of shape {b.shape} does not broadcast to the error's shape {e.shape}"
        ) from None
    if e.size == 0:
        return Verdict(
            what, ratio=0.0, index=(), error=0.0, bound=0.0, largest=0.0, entries=0, exceeded=0
        )
    valid = np.isfinite(b) & (b >= 0)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        ratios = np.where(e == 0, 0.0, e / b)
    ratios = np.where(valid & ~np.isnan(ratios), ratios, np.inf)
    worst = np.unravel_index(int(np.argmax(ratios)), e.shape)
    return Verdict(
        what,
        ratio=float(ratios[worst]),
        index=tuple(int(i) for i in worst),
        error=float(e[worst]),
        bound=float(b[worst]),
        largest=float(e.max()),
        entries=e.size,
        exceeded=int(np.sum(~(e <= b) | ~valid)),
    )


def judge_within(error: ArrayLike, bound: ArrayLike, what: str) -> Verdict:
    """Judge |error| <= bound entrywise: the verdict (its ratio for the evidence line), or
    CheckFailed naming `what`, how many entries exceed their bound and the worst one (its
    index, error, bound and error/bound), so one line says where and by how much.

    >>> judge_within([1e-17, 2e-16], 2.2e-16, "softmax sums").ratio
    0.9090909090909091
    >>> judge_within([1e-17, 3e-16], [2.2e-16, 2.2e-16], "softmax sums")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    proofs.book.judge.CheckFailed: softmax sums: 1 of 2 entries exceed their bound; worst at ...
    """
    __tracebackhide__ = True
    verdict = weigh(error, bound, what)
    if not verdict.holds:
        raise CheckFailed(str(verdict))
    return verdict


@dataclass(frozen=True)
class Cases:
    """The verdicts on the cases of one property (drawn inputs, seeds): their worst figures
    for the evidence line."""

    verdicts: tuple[Verdict, ...]

    @property
    def ratio(self) -> float:
        """The largest error/bound over every case (0 with no cases)."""
        return max((v.ratio for v in self.verdicts), default=0.0)

    @property
    def largest(self) -> float:
        """The largest |error| over every case (0 with no cases)."""
        return max((v.largest for v in self.verdicts), default=0.0)


def judge_cases(verdicts: Iterable[Verdict], what: str) -> Cases:
    """Judge the cases of one property at once, measured first (`weigh`) and judged after:
    the cases for the evidence line, or one CheckFailed naming `what`, how many cases
    exceed their bound and the worst of them (the largest error/bound) with its entry.

    >>> cases = [weigh(1.0, 2.0, "z = 1"), weigh(5.0, 2.0, "z = 2"), weigh(3.0, 2.0, "z = 3")]
    >>> judge_cases(cases, "sigma(z)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    proofs.book.judge.CheckFailed: sigma(z): 2 of 3 cases exceed their bound; worst: z = 2: ...
    """
    __tracebackhide__ = True
    cases = Cases(tuple(verdicts))
    failed = [v for v in cases.verdicts if not v.holds]
    if failed:
        worst = max(failed, key=lambda v: v.ratio)
        raise CheckFailed(
            f"{what}: {len(failed)} of {len(cases.verdicts)} cases exceed their "
            f"bound; worst: {worst}"
        )
    return cases


def _index(index: Sequence[int]) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]"


@dataclass(frozen=True)
class Finding:
    """A value the chapter prints wrong while the statement holds (a slip in a printed
    intermediate): the check still passes, and `verify`, the audit and the maps list it.
    `printed` is the value as the chapter prints it, by which the audit finds its line."""

    printed: str
    message: str

    def __str__(self) -> str:
        return self.message


def finding(printed: str, message: str) -> Finding:
    """A check's report that the chapter prints `printed` wrong, to return among its
    evidence lines.

    >>> print(finding("1.1428", "8/7 = 1.142857... rounds to 1.1429"))
    8/7 = 1.142857... rounds to 1.1429
    """
    return Finding(printed, message)
