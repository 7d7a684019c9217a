"""Judging: the one place where a check decides that a statement does not hold.

A check measures (proofs.evidence.measures, numeric.error_bounds) and then judges here:
`require` for a plain condition, `within_bound` for "this defect is within its
rounding bound", which names the worst entry and its error/bound ratio and
returns the largest ratio for the evidence line. `finding` marks an evidence
line reporting a wrong printed value where the statement itself holds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class CheckFailed(AssertionError):
    """A chapter's statement does not hold for the objects the check was given."""


class Unchecked(Exception):  # noqa: N818 - a result, like CheckFailed, not an error
    """The element has no check yet (a skeleton's stub): never reported as passed."""


def require(condition: bool, message: str) -> None:
    """Raise CheckFailed with `message` unless `condition` holds."""
    if not condition:
        raise CheckFailed(message)


def bound_ratio(error: object, bound: object) -> float:
    """The largest error/bound over the entries (0/0 counts as 0, e/0 as inf)."""
    e, b = np.broadcast_arrays(np.abs(np.asarray(error, dtype=float)), np.asarray(bound, float))
    if e.size == 0:
        return 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(e == 0, 0.0, e / b)
    return float(np.nanmax(np.where(np.isnan(r), np.inf, r)))


def within_bound(error: object, bound: object, what: str) -> float:
    """Judge |error| <= bound entrywise (broadcast); return the largest error/bound.

    On failure the message names `what`, how many entries exceed their bound, the
    worst one (its index, error, bound and ratio), so one line says where and by
    how much. A NaN error always fails.
    """
    e, b = np.broadcast_arrays(np.abs(np.asarray(error, dtype=float)), np.asarray(bound, float))
    bad = ~(e <= b)  # NaN fails
    if not bad.any():
        return bound_ratio(e, b)
    with np.errstate(divide="ignore", invalid="ignore"):
        excess = np.where(bad, np.where(b > 0, e / b, np.inf), -np.inf)
        excess = np.where(np.isnan(excess), np.inf, excess)
    worst = np.unravel_index(int(np.argmax(excess)), e.shape)
    where = f" at {_index(worst)}" if e.ndim else ""
    raise CheckFailed(
        f"{what}: {int(bad.sum())} of {e.size} entries exceed their bound; worst{where}: "
        f"{e[worst]:.3e} > {b[worst]:.3e} (error/bound {excess[worst]:.3g})"
    )


def _index(index: Sequence[np.integer]) -> str:
    return "[" + ", ".join(str(int(i)) for i in index) + "]"


FINDING = "FINDING: "


def finding(message: str) -> str:
    """An evidence line reporting that the chapter prints a wrong value.

    The check still passes when the statement itself holds (a slip in a printed
    intermediate); `verify` and the audit list every finding.
    """
    return FINDING + message


def findings(evidence: Sequence[str]) -> list[str]:
    """The findings among a check's evidence lines, without the prefix."""
    return [line[len(FINDING):] for line in evidence if line.startswith(FINDING)]
