"""One relation, one verdict: a relation whose printed numbers a check reads is that
check's claim, and its claim's finding is the relation's verdict.

Two rules look at such a relation: the claim rule (proofs.audit.rules.claims: the check run on
the chapter's numbers, each judged against its exact value) and the equality rule
(proofs.audit.rules.equalities: the members recomputed from the printed inputs). The equality
rule defers on the rounding of the check's numbers (it says nothing of a last digit
there: `owned` in audit_equalities), and what it still finds there — members that no
choice of the printed inputs within their rounding makes equal, a witness of its own —
becomes the claim's verdict, said once: a claim it contradicts is mismatched with that
witness, and the equality's own record is dropped, as it is where the claim is already
mismatched.
"""

from __future__ import annotations

import re
from dataclasses import replace

from proofs.audit.findings import Finding, Section, Status
from proofs.audit.rules.claims import Judged
from proofs.book.claims import normalise_tex

Relation = tuple[int, str]  # (line, statement normalised by normalise_tex)


def owned_relations(judged: list[Judged]) -> dict[Relation, tuple[str, str]]:
    """The relations the checks read, each with the (element id, claim label) owning it:
    every located claim that feeds its check, as the chapter states it."""
    out: dict[Relation, tuple[str, str]] = {}
    for j in judged:
        for x in _read_formulas(j):
            out.setdefault((x.line, normalise_tex(x.text)), (j.element.id, x.claim.label))
    return out


# a printed number as the restatement rules read it (proofs.audit.rules.rounded, .restated)
_NUMBER = re.compile(r"-?\d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?")


def owned_numbers(judged: list[Judged]) -> frozenset[tuple[int, str]]:
    """(line, text) of every number printed in a relation a check reads: the check judges
    it against its exact value, and the rules that guess a slip from other numbers
    (proofs.audit.rules.rounded, proofs.audit.rules.restated) leave it to the check."""
    out = set()
    for j in judged:
        for x in _read_formulas(j):
            for m in _NUMBER.finditer(x.text):
                out.add((x.line + x.text.count("\n", 0, m.start()), m.group(0)))
                out.add((x.line + x.text.count("\n", 0, m.start()), m.group(0).lstrip("-")))
    return frozenset(out)


def _read_formulas(j: Judged) -> list:
    """The located claims of an element that feed its check and are formulas."""
    return [
        x
        for x in j.located
        if x.claim.argument is not None
        and x.status != "missing"
        and not (x.claim.phrase or x.claim.table)
    ]


def one_verdict(
    claims: list[Finding], equalities: list[Finding], owned: dict[Relation, tuple[str, str]]
) -> tuple[list[Finding], list[Finding]]:
    """The claims' and the equalities' findings with each mismatch of an equality that a
    check's claim owns made the claim's: (claims, equalities)."""
    by_line: dict[int, list[tuple[str, tuple[str, str]]]] = {}
    for (line, statement), owner in owned.items():
        by_line.setdefault(line, []).append((statement, owner))
    records = {(f.line, f.ref, f.text): k for k, f in enumerate(claims) if f.section == "claim"}
    claims = list(claims)
    kept = []
    for f in equalities:
        owning = _owner(f, by_line) if f.status == Status.MISMATCHED else None
        k = records.get((f.line, *owning)) if owning is not None else None
        if k is None or claims[k].status == Status.NOT_CHECKABLE:
            kept.append(f)
            continue
        if claims[k].status == Status.CONFIRMED:
            number = claims[k].detail.split(":", 1)[0]
            claims[k] = replace(
                claims[k],
                status=Status.MISMATCHED,
                detail=f"{number}: the check passes on the numbers it reads, but {f.text} "
                f"does not hold: {f.detail}",
            )
    return claims, kept


def _owner(
    f: Finding, by_line: dict[int, list[tuple[str, tuple[str, str]]]]
) -> tuple[str, str] | None:
    """The owner of the relation an equality's finding judges a part of, if a claim owns it."""
    if f.section != Section.EQUALITY:
        return None
    part = normalise_tex(f.text.replace("≈", r"\approx"))
    return next((owner for statement, owner in by_line.get(f.line, ()) if part in statement), None)
