"""The map of the book a print edition belongs to: the chapters found where the settings
say the chapter files are (proofs.book.locations), so that a reference to a chapter the
edition does not print reads as that chapter's element, 定義 2.1［行列式］, and never as
its raw target (`determinants#def-sign`).

A reference names a chapter by its page (the last part of its path): a chapter of the map
is that page when its address ends in it, its file is named after it, or its registered
key is it. A reference the map cannot place is printed as a readable title made from its
target: the element's kind and the words of its id, and the page's words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from proofs.book.locations import SUFFIXES
from proofs.reader import Document
from proofs.reader.records import ID_PREFIXES, LABELS

_ADDRESS = re.compile(r"^>\s*(https?://\S+)\s*$")
KIND_WORDS = {  # the words of an id's kind prefix: def -> 定義 (ja), definition (en)
    "ja": {ID_PREFIXES[kind]: label for label, kind in LABELS.items()},
    "en": {prefix: kind for kind, prefix in ID_PREFIXES.items()},
}
MAX_FILES = 200  # chapter files of a folder the map reads at most


@dataclass(frozen=True)
class Mapped:
    """A chapter of the book: its Document, the name citations give it, its page names."""

    document: Document
    short: str
    pages: frozenset[str]


class BookMap:
    """The chapters of the book, by the pages references name them by."""

    def __init__(self, documents: Iterable[Document], keys: dict[str, str] | None = None) -> None:
        """`keys`: the registered chapter key of a document's title, where it has one."""
        self.chapters: list[Mapped] = []
        for document in documents:
            pages = {Path(document.path).stem}
            address = next(
                (m.group(1) for line in document.lines[:12] if (m := _ADDRESS.match(line))), ""
            )
            if address:
                pages.add(address.rstrip("/").split("/")[-1])
            if keys and document.title in keys:
                pages.add(keys[document.title])
            short = document.title.split("：")[0].strip()
            self.chapters.append(Mapped(document, short, frozenset(pages)))

    @classmethod
    def found(cls, folders: Sequence[Path]) -> BookMap:
        """The map of the chapter files in the folders (any file of a chapter's suffix that
        reads as a chapter; the others are not the book's)."""
        from proofs.book.registry import CHAPTERS, load_all
        from proofs.reader import ChapterInputError, read_chapter

        load_all()
        keys = {chapter.title: key for key, chapter in CHAPTERS.items()}
        documents = []
        for folder in folders:
            try:
                paths = sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES)
            except OSError:
                continue
            for path in paths[:MAX_FILES]:
                try:
                    documents.append(read_chapter(path))
                except (ChapterInputError, OSError):
                    continue
        return cls(documents, keys)

    def element(self, page: str, anchor: str) -> tuple[str, str] | None:
        """(number, chapter's short name) of the element `anchor` of the chapter `page`
        names (a path; its last part counts), None when the map has no such element."""
        name = page.rstrip("/").split("/")[-1]
        for chapter in self.chapters:
            if name in chapter.pages:
                found = chapter.document.element(anchor) if anchor else None
                if found is not None:
                    return found.number, chapter.short
        return None

    def chapter(self, page: str) -> str | None:
        """The short name of the chapter `page` names, None when the map has none."""
        name = page.rstrip("/").split("/")[-1]
        return next((c.short for c in self.chapters if name in c.pages), None)


def readable(target: str, language: str) -> str:
    """A reference's target as a title a reader can read, for a chapter the book map does
    not hold: the kind of the element and the words of its id, then the page's words.

    >>> readable("mathematics/determinants#def-sign-rule", "ja")
    '定義「sign rule」［determinants］'
    >>> readable("linear-maps", "en")
    'the chapter “linear maps”'
    """
    page, _, anchor = target.partition("#")
    chapter = page.rstrip("/").split("/")[-1].replace("-", " ").replace("_", " ").strip()
    if not anchor:
        return f"「{chapter}」の章" if language == "ja" else f"the chapter “{chapter}”"
    prefix, _, rest = anchor.partition("-")
    kind = KIND_WORDS["ja" if language == "ja" else "en"].get(prefix)
    words = (rest if kind else anchor).replace("-", " ").replace("_", " ")
    titled = f"{kind}「{words}」" if kind and language == "ja" else f"{kind} “{words}”"
    if not kind:
        titled = f"「{words}」" if language == "ja" else f"“{words}”"
    return f"{titled}［{chapter}］" if chapter else titled
