"""Claims compared by what they say, not by how they are typed.

A check's claim is transcribed once; the chapter may write the same words or the same
formula in another of its notations: a number with or without its thousands separators
(`1,024`, `1024`, `1{,}024`), in full-width digits (`１０２４`), other spacing (TeX's `\\,`
and `\\ `, a space or none), full-width punctuation. Such a rewriting says what the
claim says. Numbers are compared by value at their printed precision: the digits as
printed, their grouping aside (1.50 is not 1.5: it states another precision). A changed
number, word or relation is still a change.
"""

from __future__ import annotations

import re
import unicodedata

from proofs.book.claims import Claim, Located, normalise_tex, region, statements_in
from proofs.reader import Document
from proofs.reader.records import Element as Record

# digits grouped by three with a separator (1,024 1{,}024 1\,024): the groups joined
_GROUPED = re.compile(r"(?<![\d.])\d{1,3}(?:(?:\{,\}|,|\\,)\d{3})+(?![\d])")
_TEX_SPACING = re.compile(r"\\[,;:! ]|\\q?quad(?![A-Za-z])|~")


def normalised(text: str) -> str:
    """The text in one notation: full-width forms as their ASCII ones (NFKC), digits
    ungrouped, TeX spacing, `$` and white space removed, a final period dropped."""
    text = unicodedata.normalize("NFKC", text)
    text = _GROUPED.sub(lambda m: re.sub(r"\{,\}|,|\\,", "", m.group(0)), text)
    text = _TEX_SPACING.sub("", text).replace("$", "")
    return re.sub(r"\s+", "", text).rstrip(".。")


def by_meaning(located: Located, document: Document, record: Record) -> Located:
    """The claim found where the chapter states it in another notation; as located when
    the chapter does not."""
    if located.status == "found":
        return located
    claim: Claim = located.claim
    if claim.table:
        same = located.status == "changed" and _cells(located.text) == _cells(claim.text)
        return Located(claim, "found", located.line, located.text) if same else located
    want = normalised(claim.text)
    if not want:
        return located
    first, last = region(document, record, claim.where)
    if not claim.phrase:
        want = normalised(normalise_tex(claim.text))
        for line, statement in statements_in(document, first, last):
            if normalised(normalise_tex(statement)) == want:
                return Located(claim, "found", line, statement)
        return located
    for line in range(first, last + 1):
        if want in normalised(document.line(line)):
            return Located(claim, "found", line, claim.text)
    return located


def _cells(table: str) -> list[list[str]]:
    """A table claim's text (rows of cells joined by " | ") cell by cell, by meaning."""
    return [[normalised(cell) for cell in row.split(" | ")] for row in table.splitlines()]
