"""The relations of a statement that no claim of its check binds: each decided in the
chapter's notation (proofs.tex.decide), or listed with the reason it is not.

A check's claims bind what it proves (proofs.audit.rules.claims); the rest of its element's
statement — a relation the check does not take, in a definition, proposition, lemma,
theorem, corollary or remark — is still the chapter's claim. Each is decided at explicit
sizes and drawn points in the notation of the chapter's package; an example's or an
exercise's settings and computations are its check's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from functools import partial

from proofs.audit.deciding.sentence import LARGE_LITERAL, condition_of, is_hypothesis
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.book.claims import normalise_tex
from proofs.book.registry import load_all
from proofs.reader import Document
from proofs.reader.math import statement_lines
from proofs.reader.records import THEORY_KINDS as DECIDED_KINDS
from proofs.reader.records import Element as Record
from proofs.tex.decide import decide_once
from proofs.tex.symbolic import Evaluator
from proofs.tex.tree import TexError, parse

UNBOUND = Rule(
    "REL001",
    "unbound-relation",
    Section.FORMULA,
    Severity.ERROR,
    "A relation of a definition's, proposition's, lemma's, theorem's or remark's statement "
    "that no claim of its check binds holds in the chapter's notation, decided at explicit "
    "sizes and drawn points.",
    Example(
        chapter="self-attention",
        line=91,
        old=r"P\sigma(\boldsymbol{z})$。",
        new=r"P\sigma(\boldsymbol{z})$。また $\sigma(2\boldsymbol{z}) = 2\sigma(\boldsymbol{z})$。",
    ),
    Example(
        chapter="self-attention",
        line=91,
        old=r"P\sigma(\boldsymbol{z})$。",
        new=r"P\sigma(\boldsymbol{z})$。また $\sigma(2\boldsymbol{z})_i > 0$。",
    ),
)
RULES = (UNBOUND,)


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


def notation_at(number: str) -> str:
    """What a chapter's notation at the element `number` depends on, as a key of its
    decisions: the number when some chapter registers an element with it (a notation
    gives such an element names of its own: 命題 4.4's random q and k), else nothing, as
    every other element has the chapter's names. A formula met again (a chapter repeating
    its paragraphs under other numbers) is then decided once."""
    return number if number in _registered_numbers() else ""


@functools.cache
def _registered_numbers() -> frozenset[str]:
    return frozenset(e.number for e in load_all().values())


def kind_of(statement: str) -> str:
    """relation (a claim to judge), declaration (a domain, a type, a range) or notation
    (a name or an expression standing alone)."""
    try:
        tree = parse(statement)
    except TexError:
        return "declaration" if any(d in statement for d in DECLARATION) else "unread"
    return "relation" if tree.op == "chain" else "notation"


def audit_unbound(
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
                out.append(
                    Finding(
                        Section.FORMULA,
                        line,
                        text,
                        Status.NOT_CHECKABLE,
                        undecided,
                        code=UNBOUND.code,
                    )
                )
                continue
            verdict = decide_once(
                (id(environment), notation_at(record.number)),
                statement,
                partial(environment, record.number),
                given,
            )
            detail = (
                f"unbound, decided: {verdict.detail}"
                if verdict.status != "not checkable"
                else f"unbound: {verdict.detail}"
            )
            out.append(
                Finding(
                    Section.FORMULA, line, text, Status(verdict.status), detail, code=UNBOUND.code
                )
            )
    return out
