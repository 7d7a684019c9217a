"""A rule of the audit that raises does not take the others' findings with it.

The command line lets an exception of a rule end the audit with its traceback: a defect
of the package, to be fixed. An editor must keep answering: in the server each rule
`proofs.audit.audit_document` calls is wrapped so that an exception is recorded as a
Crash of that rule and the rule counts as having found nothing; the other rules' findings
are still delivered, and the crash is shown as an error of its own. `guard_rules` wraps
them once, in the server's process only (the command line and the tests of the audit
call the rules as they are).
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import wraps
from typing import Any

import proofs.audit

# the rules audit_document calls, and what each gives when it has found nothing
RULES: dict[str, Callable[[], Any]] = {
    **dict.fromkeys(
        (
            "audit_structure",
            "audit_elements",
            "audit_refs",
            "judge_elements",
            "audit_checks",
            "audit_claims",
            "audit_tables",
            "audit_equalities",
            "audit_outputs",
            "audit_restated",
            "audit_restated_tuples",
            "audit_rounded",
            "audit_prose",
            "audit_properties",
            "audit_counted",
            "audit_cited",
            "audit_conclusions",
            "registered_pairs",
            "tally_elements",
        ),
        list,
    ),
    "owned_relations": dict,
    "owned_numbers": frozenset,
    "coverage": lambda: None,
}


@dataclass(frozen=True)
class Crash:
    """A rule that raised: its name, the exception on one line, and where it was raised
    (the innermost frame: file and line)."""

    rule: str
    raised: str
    where: str


_recorded = threading.local()


@contextmanager
def recording() -> Iterator[list[Crash]]:
    """The crashes of the guarded rules this thread calls inside the block."""
    crashes: list[Crash] = []
    outer = getattr(_recorded, "crashes", None)
    _recorded.crashes = crashes
    try:
        yield crashes
    finally:
        _recorded.crashes = outer


def _guarded(name: str, rule: Callable[..., Any], nothing: Callable[[], Any]) -> Callable:
    @wraps(rule)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        crashes = getattr(_recorded, "crashes", None)
        if crashes is None:
            return rule(*args, **kwargs)
        try:
            return rule(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - recorded and shown; the other rules go on
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            first = (str(exc).strip().splitlines() or [""])[0]
            where = f"{frame.filename}:{frame.lineno}"
            crashes.append(Crash(name, f"{type(exc).__name__}: {first}", where))
            return nothing()

    guarded.guarded = True  # type: ignore[attr-defined]
    return guarded


def guard_rules() -> list[str]:
    """Wrap each rule proofs.audit calls (once); the names wrapped."""
    wrapped = []
    for name, nothing in RULES.items():
        rule = getattr(proofs.audit, name, None)
        if rule is None:
            continue
        if not getattr(rule, "guarded", False):
            setattr(proofs.audit, name, _guarded(name, rule, nothing))
        wrapped.append(name)
    return wrapped
