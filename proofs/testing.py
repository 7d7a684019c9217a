"""What a chapter's test suite needs to hold its checks to the chapter file: the same
functions for the chapters of this package's checkout and for a chapter's package of
checks written elsewhere (`new-chapter --package` writes a test that uses them).

Run without a chapter file, a check judges its claims' transcriptions. These say whether
the transcriptions are the chapter's text: every claim found as transcribed in the
pristine file, and every argument a claim feeds what the file, read, gives the check.
"""

from __future__ import annotations

from typing import Any

from proofs.book.claims import locate
from proofs.book.locations import HOW, chapter_folders, find_chapter_file
from proofs.book.registry import chapter_of, claim_arguments, load_all
from proofs.reader import Document, read_chapter


def element_ids(key: str) -> list[str]:
    """The ids of the chapter's registered elements, in the order of their numbers (for
    `pytest.mark.parametrize`); KeyError naming the known chapters for an unknown key.

    >>> element_ids("self-attention")[:2]
    ['def-permutation-matrix', 'def-softmax']
    """
    chapter_of(key)
    return [e.id for e in load_all().values() if e.chapter == key]


def pristine(key: str) -> Document:
    """The chapter's file, read, from the folders the settings name
    (proofs.book.locations); the test that asks for it is skipped, saying how to point at
    the file, when none holds it.

    >>> pristine("self-attention").title.split("：")[0]  # the checkout's ../shared/seeds
    '自己注意'
    """
    import pytest

    chapter = chapter_of(key)
    path = find_chapter_file(chapter.title, chapter.file, chapter_folders())
    if path is None:
        pytest.skip(f"the file of the chapter {chapter.title!r} is not found: {HOW}")
    return read_chapter(path)


def comparable(arguments: dict[str, Any]) -> dict[str, Any]:
    """Arguments as values that compare: a reader's function by being one, anything else
    by its text."""
    out: dict[str, Any] = {}
    for name, value in arguments.items():
        if isinstance(value, dict):
            out[name] = comparable(value)
        elif callable(value):
            out[name] = "function"
        else:
            out[name] = str(value)
    return out


def claims_differences(element_id: str, document: Document) -> list[str]:
    """Where the element's check and the chapter file part, one line each: a claim not
    found as transcribed (its status and where it stands), the arguments read from the
    file otherwise than from the transcriptions, or the element missing from the file.
    An empty list: the check judges exactly what the file prints.

    >>> from proofs.reader import parse
    >>> document = parse('# 自己注意\\n\\n<Proposition id="prop-other">\\n\\n</Proposition>\\n')
    >>> claims_differences("prop-softmax-jacobian", document)
    ['命題 3.2 prop-softmax-jacobian: not in the chapter file']
    """
    element = load_all()[element_id]
    record = document.element(element.id) or document.element(element.number)
    if record is None:
        return [f"{element.number} {element.id}: not in the chapter file"]
    out = []
    texts = {}
    for claim in element.claims:
        located = locate(claim, document, record)
        texts[claim] = located.text
        if located.status != "found":
            out.append(
                f"{element.number} {element.id}: the claim {claim.label} is {located.status} "
                f"at line {located.line}" + (f": {located.text}" if located.text else "")
            )
    if not out:
        read = comparable(claim_arguments(element.claims, texts))
        transcribed = comparable(claim_arguments(element.claims))
        if read != transcribed:
            out.append(
                f"{element.number} {element.id}: the file gives the check {read}, the "
                f"transcriptions {transcribed}"
            )
    return out


__all__ = ["claims_differences", "comparable", "element_ids", "pristine"]
