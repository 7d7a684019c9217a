"""The audit of the lines a chapter's listings print, against the package's lines."""

from __future__ import annotations

import functools
import re

from proofs.audit.report import Finding
from proofs.reader import Document
from proofs.registry import CHAPTERS
from proofs.tables import ListingLine

_OUT_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])")


def _template(line: str) -> re.Pattern:
    """A pattern matching the line with any numbers in the places of its numbers."""
    parts = _OUT_NUMBER.split(line.strip())
    number = r"([-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)"
    pieces = []
    for k, part in enumerate(parts):
        words = part.split()
        inner = 0 < k < len(parts) - 1
        if words:
            pieces.append(r"\s*" + r"\s+".join(re.escape(w) for w in words) + r"\s*")
        else:
            pieces.append(r"\s+" if inner and part else r"\s*")
        if k < len(parts) - 1:
            pieces.append(number)
    return re.compile("".join(pieces))


def audit_outputs(document: Document, chapter: str) -> list[Finding]:
    """Every printed output line of the document's listings, against the line the package
    prints for the same quantity."""
    package = listing_lines(chapter)
    templates = [(p, _template(p.text)) for p in package]
    findings = []
    for listing in document.listings:
        if listing.output_line is None:
            continue
        for k, raw in enumerate(listing.output):
            if not raw.strip():
                continue
            line = listing.output_line + k
            matches = [(e, m) for e, t in templates if (m := t.fullmatch(raw)) is not None]
            if matches:
                # the package line agreeing in the most numbers (the row's own key first)
                expected, match = max(matches, key=lambda em: _agreement(em[0], em[1]))
                findings.append(_compare_output(line, raw.strip(), expected, match))
            else:
                findings.append(
                    Finding(
                        "output",
                        line,
                        raw.strip(),
                        "not checkable",
                        "no computation in the package prints this line",
                    )
                )
    return findings


@functools.cache
def listing_lines(chapter: str) -> tuple[ListingLine, ...]:
    """Every listing line the package reproduces for a chapter, computed once."""
    if chapter not in CHAPTERS:
        return ()
    return tuple(line for lines in CHAPTERS[chapter].listings for line in lines())


def _agreement(expected, match: re.Match) -> tuple[int, ...]:
    ours = _OUT_NUMBER.findall(expected.text.strip())
    return tuple(int(a == b) for a, b in zip(match.groups(), ours, strict=True))


def _compare_output(line: int, printed: str, expected, match: re.Match) -> Finding:
    ours = _OUT_NUMBER.findall(expected.text.strip())
    theirs = list(match.groups())
    notes, bad = [], []
    for a, b in zip(theirs, ours, strict=True):
        if a == b:
            continue
        x, y = float(a), float(b)
        if abs(x) <= expected.rounding and abs(y) <= expected.rounding:
            notes.append(f"{a} vs {b}: both at rounding level (≤ {expected.rounding:.1e})")
        else:
            bad.append(f"printed {a}, the package gives {b} (off by {x - y:+.3g})")
    if bad:
        return Finding(
            "output", line, printed, "mismatched", "; ".join(bad) + f" [{expected.source}]"
        )
    detail = f"reproduced by {expected.source}"
    if notes:
        detail += "; " + "; ".join(notes)
    return Finding("output", line, printed, "confirmed", detail)
