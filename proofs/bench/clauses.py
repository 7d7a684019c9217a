"""A clause of an element, as the bench judges it on a reader's function: Hypothesis draws
cases from the clause's domain (and its fixed cases come first), each case is judged
(`judge` raises Rejected with its witness), and a failing case is shrunk to a minimal one,
replayed last, and reported with the seed that finds it again. On a failure, each known
slip of the clause is tried on that case: when the reader's output is the slip's, the
hint says so in the book's words and names the element to reread."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import mpmath
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from proofs.bench.reading import Beyond, Rejected
from proofs.bench.results import ClauseResult, Witness
from proofs.bench.session import Reply, Session
from proofs.bench.slips import Slip
from proofs.evidence.reference import DIGITS

Judge = Callable[[Session, object], object]  # raises Rejected; returns an optional remark


@dataclass(frozen=True)
class Clause:
    """A clause of an element judged on one of the reader's functions: its cases (a
    Hypothesis strategy; None for the fixed cases alone), its judge, its known slips."""

    element: str
    number: str
    clause: str
    function: str  # the reader's function it judges
    cases: st.SearchStrategy | None  # None: the fixed cases alone
    judge: Judge
    fixed: Sequence[object] = ()
    slips: Sequence[Slip] = ()
    examples: int = 40
    note_only: bool = False  # beyond the definition's domain: a failure is a note
    also: tuple[str, ...] = field(default=())  # other reader functions it calls


CLAUSES: list[Clause] = []


def clause(**kwargs: object) -> Clause:
    """Register a clause (in the order of the chapters)."""
    made = Clause(**kwargs)  # type: ignore[arg-type]
    CLAUSES.append(made)
    return made


class _Failed(Exception):
    pass


def _slip(c: Clause, case: object, reply: Reply | None, witness: Witness) -> tuple[str, str]:
    """(hint, element to reread) of the first known slip whose output the reader's is,
    ("", "") when none is or the failure is a rounding one (`Witness.slight`)."""
    if reply is None or witness.slight:
        return "", ""
    for slip in c.slips:
        try:
            if slip.matches(case, reply):
                return slip.hint, slip.reread
        except Exception:  # a slip's model that cannot run on this case explains nothing
            continue
    return "", ""


def run_clause(c: Clause, session: Session, seed: int, scale: float = 1.0) -> ClauseResult:
    """Judge clause `c` on the session's reader: the fixed cases, then Hypothesis's draws
    from `seed` (`scale` times the clause's number of examples), shrinking a failure."""
    began = time.monotonic()
    failure: dict[str, object] = {}
    judged = [0]
    remarks: list[str] = []

    def judge(case: object) -> None:
        judged[0] += 1
        session.last = None
        try:
            with mpmath.workdps(DIGITS):
                remark = c.judge(session, case)
        except Beyond as exc:
            remark = str(exc)
        except Rejected as exc:
            failure["witness"], failure["case"] = exc.witness, case
            failure["reply"] = session.last
            raise _Failed() from None
        except Exception as exc:  # the judge never crashes: what it could not judge fails
            reason = f"{c.function} could not be judged on this case ({type(exc).__name__}: {exc})"
            failure["witness"], failure["case"] = Witness(reason[:400]), case
            failure["reply"] = session.last
            raise _Failed() from None
        if isinstance(remark, str) and remark and remark not in remarks:
            remarks.append(remark)

    def done(verdict: str, **more: object) -> ClauseResult:
        return ClauseResult(
            c.element,
            c.number,
            c.clause,
            c.function,
            verdict,
            judged[0],
            seconds=time.monotonic() - began,
            said="; ".join(remarks),
            **more,  # type: ignore[arg-type]
        )

    try:
        for case in c.fixed:
            judge(case)
        if c.cases is None:
            return done("passed")
        examples = max(1, round(c.examples * scale))

        @settings(
            max_examples=examples,
            database=None,
            deadline=None,
            derandomize=False,
            verbosity=Verbosity.quiet,
            suppress_health_check=list(HealthCheck),
            phases=(Phase.generate, Phase.shrink),
            report_multiple_bugs=False,
        )
        @hypothesis_seed(seed)
        @given(c.cases)
        def drawn(case: object) -> None:
            judge(case)

        drawn()
    except _Failed:
        witness = failure["witness"]
        if c.cases is None:
            seed = None  # type: ignore[assignment]  # a fixed case needs no seed
        assert isinstance(witness, Witness)
        hint, reread = _slip(c, failure["case"], failure.get("reply"), witness)  # type: ignore[arg-type]
        verdict = "note" if c.note_only else "failed"
        return done(verdict, witness=witness, seed=seed, hint=hint, reread=reread)
    except HypothesisException as exc:
        return done(
            "not run", witness=Witness(f"the cases could not be drawn ({type(exc).__name__})")
        )
    return done("passed")
