"""The documents an editor has open: one snapshot per document, replaced whole on each
change, so that the audit of a version reads a text nothing changes under it.

A change that cannot be applied — to a document the editor never opened, or with a range
outside the text — is refused with StoreError and leaves the snapshot as it was; the
document is then marked out of step with the editor (its copy here may differ from the
editor's: it keeps the text it had, under the editor's new version) until the editor
sends its whole text again.

>>> store = Store()
>>> store.open("file:///c.txt", 1, "a\\nb\\n").version
1
>>> store.change("file:///c.txt", 2, [((1, 0), (1, 1), "c")]).text
'a\\nc\\n'
>>> store.change("file:///c.txt", 3, [((9, 0), (9, 0), "x")])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
proofs.lsp.store.StoreError: file:///c.txt: the edit's range starts at line 9, ... (3 lines)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from proofs.lsp.positions import Lines, OutOfRange

Point = tuple[int, int]  # an editor position: line and code unit, 0-based
Edit = tuple[Point, Point, str] | str  # a range replaced by a text, or the whole text


class StoreError(ValueError):
    """A change the store cannot apply: the message names the document and why."""


@dataclass(frozen=True)
class Snapshot:
    """One version of a document as the editor sent it."""

    uri: str
    version: int
    text: str
    encoding: str = "utf-16"
    out_of_step: str = ""  # why this copy may differ from the editor's, when it may

    @cached_property
    def lines(self) -> Lines:
        return Lines(self.text, self.encoding)


@dataclass
class Store:
    """The open documents by URI; `encoding` is the position encoding the client chose."""

    encoding: str = "utf-16"
    documents: dict[str, Snapshot] = field(default_factory=dict)

    def open(self, uri: str, version: int, text: str) -> Snapshot:
        self.documents[uri] = Snapshot(uri, version, text, self.encoding)
        return self.documents[uri]

    def get(self, uri: str) -> Snapshot:
        """The document's snapshot; StoreError when the editor has not opened it."""
        if uri not in self.documents:
            raise StoreError(f"{uri}: not an open document (no didOpen was received for it)")
        return self.documents[uri]

    def change(self, uri: str, version: int, edits: Iterable[Edit]) -> Snapshot:
        """The document with the edits applied in order (each range in the text the edits
        before it left); StoreError, the document then out of step, when one cannot be."""
        old = self.get(uri)
        text, out_of_step = old.text, old.out_of_step
        for edit in edits:
            if isinstance(edit, str):
                text, out_of_step = edit, ""
                continue
            start, end, new = edit
            lines = Lines(text, self.encoding)
            try:
                first = lines.offset(*start)
                last = lines.offset(*end)
            except OutOfRange as exc:
                which = "starts at" if _outside(lines, start) else "ends at"
                why = f"the edit's range {which} {exc}"
                self.documents[uri] = Snapshot(uri, version, old.text, self.encoding, why)
                raise StoreError(f"{uri}: {why}") from None
            if last < first:
                why = f"the edit's range ends ({end}) before it starts ({start})"
                self.documents[uri] = Snapshot(uri, version, old.text, self.encoding, why)
                raise StoreError(f"{uri}: {why}")
            text = text[:first] + new + text[last:]
        self.documents[uri] = Snapshot(uri, version, text, self.encoding, out_of_step)
        return self.documents[uri]

    def close(self, uri: str) -> None:
        self.documents.pop(uri, None)


def _outside(lines: Lines, point: Point) -> bool:
    try:
        lines.offset(*point)
    except OutOfRange:
        return True
    return False
