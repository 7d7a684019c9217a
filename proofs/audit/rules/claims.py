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

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from proofs.audit.deciding.meaning import by_meaning
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.audit.rules.elements import by_title, registered
from proofs.audit.rules.statements import audit_unbound
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
from proofs.reader.records import Element as Record
from proofs.tex.decide import Decision, equal_members
from proofs.tex.symbolic import Evaluator
from proofs.tex.tree import Node, TexError, parse

READ = Rule(
    "CLM001",
    "claim-read-by-its-check",
    Section.CLAIM,
    Severity.ERROR,
    "A claim its check reads (a printed number, a count polynomial, a table, a phrase with "
    "numbers) holds: the check runs on the chapter's version of it, and a finding of the "
    "check about a number the claim prints is the claim's.",
    Example(
        chapter="transformer-block", line=346, old="領域は多くても 7 個", new="領域は多くても 8 個"
    ),
    Example(
        chapter="transformer-block", line=346, old="領域は多くても 7 個", new="領域は高々 7 個"
    ),
)
REWRITTEN = Rule(
    "CLM002",
    "claim-rewritten",
    Section.CLAIM,
    Severity.ERROR,
    "A formula a check proves without reading it, written otherwise in the chapter, is "
    "equal to the check's in the chapter's notation at explicit sizes.",
    Example(
        chapter="self-attention",
        line=181,
        old=r"\frac{Q K^{\mathsf{T}}}{\sqrt{d_k}}",
        new=r"Q K^{\mathsf{T}}",
    ),
    Example(
        chapter="self-attention",
        line=115,
        old="\\sigma_i(\\delta_{ij} - \\sigma_j)",
        new="\\sigma_i\\delta_{ij} - \\sigma_i\\sigma_j",
    ),
)
STATED = Rule(
    "CLM003",
    "claim-stated",
    Section.CLAIM,
    Severity.ERROR,
    "What a check proves without reading it (a phrase, a formula the notation cannot "
    "compare) is stated in its element as the check has it.",
    Example(chapter="self-attention", line=120, old="半正定値", new="正定値"),
    Example(
        chapter="transformer-block", line=540, old="4 倍に近づきます", new="4 倍に近づいていきます"
    ),
)
RULES = (READ, REWRITTEN, STATED)


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


@dataclass(frozen=True)
class Judged:
    """An element of the document with its check's claims located in it, and the check run
    on what the chapter states: `run` is None when the check reads a claim the chapter no
    longer states where the check finds it (`unlocated`) or states in a form the claim's
    reader cannot read (`unread`: the claim and why); the package's transcription is never
    judged in its place. A check that reads nothing from the chapter runs as it is."""

    record: Record
    element: RegisteredElement
    located: tuple[Located, ...]
    run: CheckRun | None
    unlocated: tuple[Located, ...] = ()
    unread: tuple[tuple[Located, str], ...] = ()

    @property
    def fails_on_changes(self) -> bool:
        """Whether the check fails on claims the chapter changed, whose findings then say
        so (the claims the check reads as transcribed are not the suspects)."""
        changed = any(x.status == "changed" and x.claim.argument for x in self.located)
        return changed and self.run is not None and self.run.result == "failed"

    def why_not_run(self) -> str:
        """Why the check was not run on the chapter ("" when it was)."""
        if self.unlocated:
            said = "; ".join(x.claim.label for x in self.unlocated)
            return f"the check reads {said}, which the chapter no longer states where it did"
        said = "; ".join(f"{x.claim.quote(x.text)} ({why})" for x, why in self.unread)
        return f"the check cannot read the chapter's {said}"


def located_claims(
    document: Document, chapter: str
) -> list[tuple[Record, RegisteredElement, tuple[Located, ...]]]:
    """Every element of the document with a registered check, and its check's claims
    located in it."""
    out = []
    for record, element in registered_pairs(document, chapter):
        texts = [normalise_tex(c.text) for c in element.claims]
        located = tuple(
            by_meaning(
                locate(c, document, record, frozenset(texts[:k] + texts[k + 1 :])), document, record
            )
            for k, c in enumerate(element.claims)
        )
        out.append((record, element, located))
    return out


def judge_elements(document: Document, chapter: str) -> list[Judged]:
    """Every element of the document with a registered check: its claims located, and the
    check run once on the chapter's versions of the claims it reads."""
    return [judged(*found) for found in located_claims(document, chapter)]


def judged(record: Record, element: RegisteredElement, located: tuple[Located, ...]) -> Judged:
    """The element's check run on the chapter's versions of the claims it reads."""
    feeding = [x for x in located if x.claim.argument is not None]
    unlocated = tuple(x for x in feeding if x.status == "missing")
    if unlocated:
        return Judged(record, element, located, None, unlocated)
    unread = tuple((x, why) for x in feeding if (why := _unreadable(x)))
    if unread:
        return Judged(record, element, located, None, unread=unread)
    return Judged(record, element, located, run_on(element, {x.claim: x.text for x in feeding}))


def _unreadable(x: Located) -> str:
    """Why the claim's reader cannot read the chapter's version ("" when it can)."""
    try:
        x.claim.value(x.text)
    except (TexError, ValueError, TypeError, ArithmeticError) as why:
        return str(why) or type(why).__name__
    return ""


_RUNS: dict[tuple, CheckRun] = {}


def run_on(element: RegisteredElement, texts: dict[Claim, str]) -> CheckRun:
    """The element's check run on its claims' `texts` (the chapter's), once per process for
    the same texts (keyed by the check itself too, so a check replaced in the registry runs
    afresh); with no texts, on nothing read from the chapter."""
    key = (element.id, element.check, tuple(texts.get(c, "") for c in element.claims))
    if key not in _RUNS:
        if texts:
            arguments = claim_arguments(element.claims, texts)
            element = replace(element, check=partial(element.check, **arguments))
        _RUNS[key] = run_check(element)
    return _RUNS[key]


class NotRunOnChapter(Exception):  # noqa: N818 - an outcome, reported as the check's error
    """The check reads a claim its chapter's file no longer states or states unreadably."""


def _not_run(why: str) -> list[str]:
    raise NotRunOnChapter(why)


def on_chapter_files(
    elements: list[RegisteredElement], folders: list[Path]
) -> tuple[list[RegisteredElement], dict[str, str]]:
    """The elements with their checks judging what their chapter's file states, where the
    folders hold it (proofs.book.locations): each check receives the claims it reads as
    the file states them, or, when the file no longer states one, raises NotRunOnChapter
    saying which; an element of a chapter without a file keeps its transcriptions. And,
    by chapter key, what was judged: the file's path, or "" for the transcriptions."""
    from proofs.book.locations import find_chapter_file
    from proofs.reader import read_chapter

    judged_in: dict[str, str] = {}
    bound: dict[str, RegisteredElement] = {}
    for key in dict.fromkeys(e.chapter for e in elements):
        chapter = CHAPTERS[key]
        path = find_chapter_file(chapter.title, chapter.file, folders)
        judged_in[key] = str(path) if path is not None else ""
        if path is None:
            continue
        wanted = {e.id for e in elements if e.chapter == key}
        for record, element, located in located_claims(read_chapter(path), key):
            feeding = [x for x in located if x.claim.argument is not None]
            if element.id not in wanted or not feeding:
                continue
            missing = tuple(x for x in feeding if x.status == "missing")
            unread = () if missing else tuple((x, w) for x in feeding if (w := _unreadable(x)))
            if missing or unread:
                why = Judged(record, element, located, None, missing, unread).why_not_run()
                bound[element.id] = replace(element, check=partial(_not_run, f"{path}: {why}"))
                continue
            arguments = claim_arguments(element.claims, {x.claim: x.text for x in feeding})
            bound[element.id] = replace(element, check=partial(element.check, **arguments))
    return [bound.get(e.id, e) for e in elements], judged_in


def audit_claims(document: Document, judged_elements: list[Judged], chapter: str) -> list[Finding]:
    """Each claim's verdict, one per relation the claims locate, then every relation of each
    statement no claim binds, decided in the notation or listed."""
    environment = CHAPTERS[chapter].environment if chapter in CHAPTERS else None
    out: list[Finding] = []
    for j in judged_elements:
        out += _one_per_relation(_judge(j, environment))
        bound = {normalise_tex(x.text) for x in j.located if x.status != "missing"}
        out += audit_unbound(document, j.record, bound, environment)
    return out


def registered_pairs(document: Document, chapter: str) -> list[tuple[Record, RegisteredElement]]:
    """Each element of the document with the registered element it resolves to."""
    registry = load_all()
    pairs = [
        (r, registered(r, chapter, registry) or by_title(r, chapter, registry))
        for r in document.elements
    ]
    return [(r, e) for r, e in pairs if e is not None]


def _judge(j: Judged, environment: Callable[..., Evaluator] | None) -> list[Finding]:
    """Each claim's finding, at the line where it stands."""
    out = []
    for x in j.located:
        status, detail, line = _verdict(j, x, environment)
        rule = _rule_of(x, environment)
        out.append(
            Finding(
                Section.CLAIM, line, x.claim.label, status, detail, ref=j.element.id, code=rule.code
            )
        )
    return out


def _rule_of(x: Located, environment: Callable[..., Evaluator] | None) -> Rule:
    """Which rule judges a located claim: the check's run when it reads the claim, the
    notation when the chapter rewrote a formula the check proves, else its being stated."""
    claim = x.claim
    if claim.argument is not None:
        return READ
    if x.status == "changed" and environment is not None and not (claim.phrase or claim.table):
        return REWRITTEN
    return STATED


def _verdict(
    j: Judged, x: Located, environment: Callable[..., Evaluator] | None
) -> tuple[Status, str, int]:
    """A located claim's (status, detail, line): a claim the check reads takes the
    verdict of the check run on the chapter; one it proves without reading is found, or
    compared with the transcription in the notation, or no longer stated."""
    claim, element = x.claim, j.element
    name = f"{element.number} {element.id}"
    if claim.argument is not None and x.status == "missing":
        said = f" (closest: {claim.quote(x.text)} at line {x.line})" if x.text else ""
        return (
            Status.NOT_CHECKABLE,
            f"{name}: not located: the check reads {claim.label}, which the chapter no "
            f"longer states where the check finds it{said}; the check is not run",
            j.record.line,
        )
    if claim.argument is not None and j.run is None:
        why = next((w for u, w in j.unread if u is x), None)
        if why is not None:
            return (
                Status.NOT_CHECKABLE,
                f"{name}: the chapter's {claim.quote(x.text)} cannot be read ({why})",
                x.line,
            )
        return Status.NOT_CHECKABLE, f"{name}: not checked: {j.why_not_run()}", x.line
    if claim.argument is not None and j.run is not None:
        if claim.phrase and x.status == "changed" and _reads_the_same(x):
            return (
                Status.MISMATCHED,
                f"{name}: the chapter states {claim.quote(x.text)} where the check proves "
                f"{claim.label}: a number the check does not read from it changed",
                x.line,
            )
        return (*_verdict_of_run(j.run, x, name), x.line)
    if x.status == "found":
        return Status.CONFIRMED, f"{name}: as the check proves it", x.line
    if x.status == "changed" and environment is not None and not (claim.phrase or claim.table):
        verdict = _equivalent(x.text, claim.text, partial(environment, element.number))
        if verdict.status == "confirmed":
            return Status.CONFIRMED, verdict.detail, x.line
        return (
            Status.MISMATCHED,
            f"{name}: the chapter states {claim.quote(x.text)}, the check proves "
            f"{claim.label} ({verdict.detail})",
            x.line,
        )
    said = f" (closest: {claim.quote(x.text)})" if x.text else ""
    return (
        Status.MISMATCHED,
        f"{name}: the check proves {claim.label}, which the chapter no longer states{said}",
        x.line,
    )


def _reads_the_same(x: Located) -> bool:
    """Whether the claim's reader reads the same from the chapter's version as from the
    transcription: what the chapter changed is not what the check reads."""
    return repr(x.claim.value(x.text)) == repr(x.claim.value())


def _verdict_of_run(run: CheckRun, x: Located, name: str) -> tuple[Status, str]:
    """A claim the check read, by the check's run on the chapter: a finding of the check
    about a number the claim prints is the claim's (the check knows its exact value)."""
    if run.result != "passed":
        if x.status == "found":  # not the suspect: the claims the chapter changed are
            return Status.CONFIRMED, f"{name}: as the check proves it"
        return (
            Status.MISMATCHED,
            f"{name}: the check fails on the chapter's {x.claim.quote(x.text)}: {run.message}",
        )
    about = [f.message for f in run.findings if prints(x.text, f.printed)]
    if about:
        return Status.MISMATCHED, f"{name}: " + "; ".join(about)
    if x.status == "found":
        return Status.CONFIRMED, f"{name}: as the check proves it"
    return (
        Status.CONFIRMED,
        f"{name}: the check passes on the chapter's {x.claim.quote(x.text)}",
    )


def prints(text: str, number: str) -> bool:
    """Whether `text` prints the number (not as a part of a longer one)."""
    return re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text) is not None


_SEVERITY = (Status.MISMATCHED, Status.NOT_CHECKABLE, Status.CONFIRMED)


def _one_per_relation(findings: list[Finding]) -> list[Finding]:
    """The claims' findings with one for each relation: two claims of the check stating the
    same relation at the same line (one relation read twice) have one verdict, the
    gravest of theirs, where the first of them stands."""
    kept: dict[tuple[int, str], Finding] = {}
    for f in findings:
        key = (f.line, f.text)
        if key not in kept or _SEVERITY.index(f.status) < _SEVERITY.index(kept[key].status):
            kept[key] = f
    order = list(dict.fromkeys((f.line, f.text) for f in findings))
    return [kept[key] for key in order]
