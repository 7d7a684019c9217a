"""The audit of what each check proves against what the chapter states.

For every element of the document with a registered check: each of the check's
claims is located (proofs.book.claims). Found as transcribed, it is confirmed (the
check proves it; `verify` runs it). Changed, it is judged: a claim that feeds the
check is read from the chapter and the check is run on the chapter's version; a
formula the check proves without taking it as an argument is compared with the
transcription in the chapter's notation (proofs.tex.decide) — equal at explicit sizes
is a rewriting, different is a slip. Not found, the chapter no longer states
what the check proves. Then every relation of the element's statement that no
claim binds is decided in the notation, or listed with the reason it is not.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from proofs.audit.elements import registered
from proofs.audit.meaning import by_meaning
from proofs.audit.report import Finding, Section, Status
from proofs.audit.sentence import LARGE_LITERAL, condition_of, is_hypothesis
from proofs.book.claims import Claim, Located, locate, normalise_tex
from proofs.book.registry import (
    CHAPTERS,
    CheckRun,
    RegisteredElement,
    claim_arguments,
    load_all,
    run_check,
)
from proofs.reader import Document
from proofs.reader.math import statement_lines
from proofs.reader.records import THEORY_KINDS as DECIDED_KINDS
from proofs.reader.records import Element as Record
from proofs.tex.decide import Decision, decide_once, equal_members
from proofs.tex.symbolic import Evaluator
from proofs.tex.tree import Node, TexError, parse

DECLARATION = (
    "\\in",
    "\\notin",
    "\\subset",
    "\\mapsto",
    "\\to",
    ":",
    "\\ldots",
    "\\cdots",
    "\\mathbb",
    "\\perp",
)


def kind_of(statement: str) -> str:
    """relation (a claim to judge), declaration (a domain, a type, a range) or notation
    (a name or an expression standing alone)."""
    try:
        tree = parse(statement)
    except TexError:
        return "declaration" if any(d in statement for d in DECLARATION) else "unread"
    return "relation" if tree.op == "chain" else "notation"


def _equivalent(
    chapter: str, transcription: str, environment: Callable[..., Evaluator]
) -> Decision:
    """Whether the chapter's changed formula says what the transcription says: the same
    relations, and each member equal to the transcription's in the notation."""
    try:
        ours, theirs = parse(transcription), parse(chapter)
    except TexError as why:
        return Decision("not checkable", f"not read: {why}")
    if ours.op != "chain" or theirs.op != "chain":
        return _member_equal(theirs, ours, environment)
    if ours.args[0] != theirs.args[0]:
        return Decision(
            "mismatched",
            f"relations {' '.join(theirs.args[0])} where the check proves {' '.join(ours.args[0])}",
        )
    for a, b in zip(theirs.args[1], ours.args[1], strict=True):
        verdict = _member_equal(a, b, environment)
        if verdict.status != "confirmed":
            return verdict
    return Decision("confirmed", "rewritten: equal to what the check proves at explicit sizes")


def _member_equal(a: Node, b: Node, environment: Callable[..., Evaluator]) -> Decision:
    return equal_members(a, b, environment)


def audit_claims(document: Document, chapter: str) -> list[Finding]:
    environment = CHAPTERS[chapter].environment if chapter in CHAPTERS else None
    out: list[Finding] = []
    for record, element in registered_pairs(document, chapter):
        texts = [normalise_tex(c.text) for c in element.claims]
        located = [
            by_meaning(
                locate(c, document, record, frozenset(texts[:k] + texts[k + 1 :])), document, record
            )
            for k, c in enumerate(element.claims)
        ]
        out += _judge(element, located, environment)
        bound = {normalise_tex(x.text) for x in located if x.status != "missing"}
        out += _statement_formulas(document, record, bound, environment)
    return out


def registered_pairs(document: Document, chapter: str) -> list[tuple[Record, RegisteredElement]]:
    """Each element of the document with the registered element it resolves to."""
    registry = load_all()
    pairs = [(r, registered(r, chapter, registry)) for r in document.elements]
    return [(r, e) for r, e in pairs if e is not None]


def _judge(
    element: RegisteredElement, located: list[Located], environment: Callable[..., Evaluator] | None
) -> list[Finding]:
    out = []
    rerun: dict[Claim, Located] = {}
    for x in located:
        name = f"{element.number} {element.id}"
        if x.status == "found":
            out.append(
                Finding(
                    Section.CLAIM,
                    x.line,
                    x.claim.label,
                    Status.CONFIRMED,
                    f"{name}: as the check proves it",
                    ref=element.id,
                )
            )
        elif x.status == "changed" and x.claim.argument is not None:
            rerun[x.claim] = x
        elif (
            x.status == "changed"
            and environment is not None
            and not (x.claim.phrase or x.claim.table)
        ):
            verdict = _equivalent(x.text, x.claim.text, partial(environment, element.number))
            status = Status.CONFIRMED if verdict.status == "confirmed" else Status.MISMATCHED
            detail = (
                verdict.detail
                if status == Status.CONFIRMED
                else (
                    f"{name}: the chapter states {x.claim.quote(x.text)}, the check proves "
                    f"{x.claim.label} ({verdict.detail})"
                )
            )
            out.append(
                Finding(Section.CLAIM, x.line, x.claim.label, status, detail, ref=element.id)
            )
        else:
            said = f" (closest: {x.claim.quote(x.text)})" if x.text else ""
            out.append(
                Finding(
                    Section.CLAIM,
                    x.line,
                    x.claim.label,
                    Status.MISMATCHED,
                    f"{name}: the check proves {x.claim.label}, which the chapter no longer "
                    f"states{said}",
                    ref=element.id,
                )
            )
    if rerun:
        out += _rerun(element, rerun)
    return out


def _rerun(element: RegisteredElement, changed: dict[Claim, Located]) -> list[Finding]:
    """Run the check on the chapter's versions of its changed claims."""
    name = f"{element.number} {element.id}"
    try:
        arguments = claim_arguments(element.claims, {c: x.text for c, x in changed.items()})
    except (TexError, ValueError, TypeError) as why:
        return [
            Finding(
                Section.CLAIM,
                x.line,
                c.label,
                Status.MISMATCHED,
                f"{name}: the chapter's {c.quote(x.text)} cannot be read ({why})",
                ref=element.id,
            )
            for c, x in changed.items()
        ]
    run = _run_once(element, arguments, tuple((c, x.text) for c, x in changed.items()))
    out = []
    for claim, x in changed.items():
        if run.result == "passed":
            out.append(
                Finding(
                    Section.CLAIM,
                    x.line,
                    claim.label,
                    Status.CONFIRMED,
                    f"{name}: the check passes on the chapter's {claim.quote(x.text)}",
                    ref=element.id,
                )
            )
        else:
            out.append(
                Finding(
                    Section.CLAIM,
                    x.line,
                    claim.label,
                    Status.MISMATCHED,
                    f"{name}: the check fails on the chapter's {claim.quote(x.text)}: "
                    f"{run.message}",
                    ref=element.id,
                )
            )
    return out


_RERUNS: dict[tuple, CheckRun] = {}


def _run_once(
    element: RegisteredElement, arguments: dict, texts: tuple[tuple[Claim, str], ...]
) -> CheckRun:
    """The check run on the chapter's versions of its claims, once per process for the
    same texts (keyed by the check itself, as proofs.audit.elements keys its runs): an
    audit repeated after an edit elsewhere does not run it again."""
    key = (element.id, element.check, texts)
    if key not in _RERUNS:
        _RERUNS[key] = run_check(_bound_check(element, arguments))
    return _RERUNS[key]


def _bound_check(element: RegisteredElement, arguments: dict) -> RegisteredElement:
    from dataclasses import replace

    return replace(element, check=lambda: element.check(**arguments))


def _statement_formulas(
    document: Document,
    record: Record,
    bound: set[str],
    environment: Callable[..., Evaluator] | None,
) -> list[Finding]:
    """The statement's relations no claim binds: decided in the notation (theory elements;
    an example's or exercise's settings and computations are its check's), or listed."""
    out = []
    first, last = record.statement
    for m in document.math_in(first, last):
        for line, statement in statement_lines(m.line, m.tex):
            if not statement or normalise_tex(statement) in bound:
                continue
            if kind_of(statement) != "relation" or record.kind not in DECIDED_KINDS:
                continue
            if LARGE_LITERAL.search(statement):
                continue  # a setting of an illustration (d = 512), not a claim
            if not m.display and is_hypothesis(document, line, statement):
                continue
            conditional, given = condition_of(document, line, statement)
            text = f"{record.number}: ${statement}$"
            undecided = (
                "unbound: the chapter has no notation to decide it in"
                if environment is None
                else "unbound: follows from a hypothesis of its sentence"
                if conditional and given is None
                else ""
            )
            if undecided or environment is None:
                out.append(Finding(Section.FORMULA, line, text, Status.NOT_CHECKABLE, undecided))
                continue
            verdict = decide_once(
                (id(environment), record.number),
                statement,
                partial(environment, record.number),
                given,
            )
            detail = (
                f"unbound, decided: {verdict.detail}"
                if verdict.status != "not checkable"
                else f"unbound: {verdict.detail}"
            )
            out.append(Finding(Section.FORMULA, line, text, Status(verdict.status), detail))
    return out
