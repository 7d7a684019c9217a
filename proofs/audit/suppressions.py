"""Suppressions an author writes in an MDX chapter: `{/* proofs: ignore[EQ001] why */}`
on the line of a finding or on the line before it keeps the findings of those codes
there out of the report.

A suppression is chapter text, read as data, never run: a comment (proofs.reader keeps
the MDX comments apart from the text they stand in) whose words start with `proofs:` is a
directive, and a directive is read by this grammar alone, any other shape being
malformed:

    proofs: ignore[CODE, CODE, …] reason

where a CODE is letters then digits: a rule's code (EQ001) or the letters of its family
(RST), and the reason is any words. Rendered text has no comments; a baseline
(proofs.audit.reports.baseline) accepts its findings by code, element and text instead.

Three rules report on the suppressions themselves: one that no longer suppresses
anything, a code no rule has, a directive this grammar does not read.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.reader import Document
from proofs.typeset.shown import shortened

DIRECTIVE = re.compile(r"proofs\s*:")
SUPPRESSION = re.compile(
    r"proofs\s*:\s*ignore\[(?P<codes>[A-Za-z0-9,\s]*)\](?:\s+(?P<reason>.*))?", re.S
)
CODE = re.compile(r"[A-Za-z]+[0-9]*")
WEIGHED = ("error", "warning", "notice")  # the severities a suppression keeps out

_SLIPPED = (
    '# 見本\n\n<Remark id="rem-sum" title="和">\n\n足し算を確かめます。\n\n</Remark>\n\n'
    "{/* proofs: ignore[EQ001] 手で確かめた */}\n$2 \\times 384 = 768$ 個です。\n"
)
UNUSED = Rule(
    "SUP001",
    "unused-suppression",
    Section.STRUCTURE,
    Severity.WARNING,
    "A suppression keeps out a finding of each code it names, on its line or the next; "
    "one that keeps out nothing (the slip was fixed, the line moved) is said so.",
    Example(_SLIPPED),
    Example(_SLIPPED.replace("768", "786")),
)
UNKNOWN = Rule(
    "SUP002",
    "unknown-code",
    Section.STRUCTURE,
    Severity.WARNING,
    "A suppression names codes that rules have (or their families' letters); another is "
    "said with the nearest codes.",
    Example(_SLIPPED.replace("768", "786").replace("EQ001", "EQ01")),
    Example(_SLIPPED.replace("768", "786")),
)
MALFORMED = Rule(
    "SUP003",
    "malformed-suppression",
    Section.STRUCTURE,
    Severity.WARNING,
    "A comment starting with `proofs:` is a suppression in the form "
    "`proofs: ignore[CODE, …] reason`.",
    Example(_SLIPPED.replace("768", "786").replace("ignore[EQ001]", "ignore EQ001")),
    Example(_SLIPPED.replace("768", "786")),
)
RULES = (UNUSED, UNKNOWN, MALFORMED)


@dataclass(frozen=True)
class Suppression:
    """A directive read: its line, the codes it names and its reason."""

    line: int
    codes: tuple[str, ...]
    reason: str

    def covers(self, finding: Finding) -> bool:
        """Whether it keeps the finding out: a finding it can weigh, of a code it names
        (or of a family it names), on its line or the next."""
        return (
            str(finding.severity) in WEIGHED
            and finding.line in (self.line, self.line + 1)
            and any(finding.code.startswith(c) for c in self.codes if c)
        )


@dataclass(frozen=True)
class Malformed:
    """A directive the grammar does not read: its line, the comment and why."""

    line: int
    text: str
    why: str


def read_suppressions(document: Document) -> tuple[list[Suppression], list[Malformed]]:
    """The suppressions of a document's comments, and the directives not read."""
    read, malformed = [], []
    for comment in document.comments:
        if DIRECTIVE.match(comment.text) is None:
            continue  # a comment of the author's, not to this package
        if comment.last != comment.line:
            malformed.append(Malformed(comment.line, comment.text, "a suppression is one line"))
            continue
        match = SUPPRESSION.fullmatch(comment.text)
        if match is None:
            why = "expected proofs: ignore[CODE, …] and a reason"
            malformed.append(Malformed(comment.line, comment.text, why))
            continue
        codes = [c.strip() for c in match.group("codes").split(",")]
        if not all(CODE.fullmatch(c) for c in codes):
            why = "expected codes (letters, then digits) separated by commas inside ignore[…]"
            malformed.append(Malformed(comment.line, comment.text, why))
            continue
        read.append(Suppression(comment.line, tuple(codes), (match.group("reason") or "").strip()))
    return read, malformed


def suppressed(
    findings: Sequence[Finding], document: Document, known: Collection[str]
) -> tuple[list[Finding], list[tuple[Finding, Suppression]], list[Finding]]:
    """The findings the document's suppressions keep out, apart: (the findings kept, each
    finding kept out with its suppression, the findings about the suppressions: one that
    keeps out nothing, a code no rule has, a directive not read). `known`: every rule's
    code."""
    read, malformed = read_suppressions(document)
    about = [
        _about(MALFORMED, m.line, m.text, f"not read as a suppression: {m.why}") for m in malformed
    ]
    out: list[tuple[Finding, Suppression]] = []
    usable = []
    for s in read:
        unknown = [c for c in s.codes if not any(k.startswith(c) for k in known)]
        for code in unknown:
            near = _nearest(code, known)
            said = f"; nearest: {', '.join(near)}" if near else ""
            about.append(_about(UNKNOWN, s.line, _shown(s), f"no rule has the code {code}{said}"))
        usable.append(Suppression(s.line, tuple(c for c in s.codes if c not in unknown), s.reason))
    kept = []
    for f in findings:
        by = next((s for s in usable if s.covers(f)), None)
        if by is None:
            kept.append(f)
        else:
            out.append((f, by))
    for s in usable:
        idle = [c for c in s.codes if not any(f.code.startswith(c) for f, by in out if by == s)]
        if idle:
            about.append(
                _about(
                    UNUSED,
                    s.line,
                    _shown(s),
                    f"suppresses nothing: no finding of {', '.join(idle)} on this line or the next",
                )
            )
    return kept, out, sorted(about, key=lambda f: f.line)


def _about(rule: Rule, line: int, text: str, detail: str) -> Finding:
    return Finding(rule.section, line, text, Status.MISMATCHED, detail, code=rule.code)


def _shown(s: Suppression) -> str:
    reason = f" {s.reason}" if s.reason else ""
    return shortened(f"proofs: ignore[{', '.join(s.codes)}]{reason}")


def _nearest(code: str, known: Collection[str]) -> list[str]:
    from proofs.book.registry import nearest

    return nearest(code.upper(), sorted(known))
