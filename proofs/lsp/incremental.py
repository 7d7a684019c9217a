"""The audit of a document's versions, each reusing what the audits before it decided.

An edit changes a line or two of a chapter; the rest of its formulas, claims and checks
are the same text as before, and what the audit decided about each is kept by content in
this process: a relation is decided once per (formula, notation) (proofs.tex.decide's
decide_once), an element's check once per text of the claims it reads from the chapter
(proofs.audit.rules.claims' run_on), the TeX trees and the printed readings once per text.
The report of a whole text is kept too (the last few), so that a save, an undo or a
reopened file costs nothing. What is left to redo on each edit is the rules' pass over
the chapter's lines, which costs tens of milliseconds on a chapter of 70 kB
(benchmarks/editor_latency.py measures it).

What comes out for a text equals the audit of that text in a fresh process, byte for
byte in its JSON (tests/lsp/test_incremental.py holds it over random edits): nothing
kept depends on anything but the text it was computed from.

A text that is not a chapter is not audited: its Analysis says why (`refused`).
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from proofs.audit import audit_document
from proofs.audit.reports.report import Report
from proofs.lsp.guard import Crash, recording
from proofs.lsp.store import Snapshot
from proofs.reader import MAX_BYTES, ChapterInputError, Document, parse

REMEMBERED = 8  # whole reports kept, by text


def path_of(uri: str) -> str:
    """The file path a `file:` URI names (the URI itself for another scheme)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return uri
    return str(Path(unquote(parsed.path)))


@dataclass(frozen=True)
class Refusal:
    """Why a text is not audited: `line` the line it names (0: the whole text), and
    whether it is no chapter at all (a README, a picture) rather than a chapter's bad
    input."""

    message: str
    line: int = 0
    not_a_chapter: bool = False


@dataclass(frozen=True)
class Analysis:
    """What the audit made of one version of a document: its Document and Report, or
    why it was not audited (`refused`; `stopped`: the audit ran past its time, or a newer
    version superseded it). `crashes`: rules that raised."""

    snapshot: Snapshot
    document: Document | None = None
    report: Report | None = None
    refused: Refusal | None = None
    stopped: str = ""
    crashes: tuple[Crash, ...] = ()
    seconds: float = 0.0
    extra: dict = field(default_factory=dict, compare=False)  # what handlers derive, kept


_LINE = re.compile(r":(\d+): ")  # ChapterInputError's "path:line: why"


def refusal(text: str, path: str) -> Refusal | None:
    """Why a text cannot be audited as a chapter; None when the reader may read it."""
    if "\x00" in text:
        said = f"{path}: a binary file (it holds NUL characters), not a chapter"
        return Refusal(said, not_a_chapter=True)
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        return Refusal(
            f"{path}: {size / 2**20:.1f} MiB, larger than the {MAX_BYTES // 2**20} MiB "
            "any chapter is; not audited"
        )
    return None


def unread(exc: ChapterInputError) -> Refusal:
    """The reader's refusal: at the line its message names; a text in neither form is
    no chapter."""
    said = str(exc)
    found = _LINE.search(said)
    line = int(found.group(1)) if found else 0
    return Refusal(f"not audited: {said}", line, "neither form of chapter" in said)


class Auditor:
    """Audits snapshots, keeping the reports of the last REMEMBERED texts."""

    def __init__(self, remembered: int = REMEMBERED) -> None:
        self.remembered = remembered
        self.reports: OrderedDict[tuple[str, str], tuple[Document, Report, tuple]] = OrderedDict()

    def analyse(self, snapshot: Snapshot) -> Analysis:
        """The Analysis of one version."""
        start = time.perf_counter()
        path = path_of(snapshot.uri)
        refused = refusal(snapshot.text, path)
        if refused is not None:
            return Analysis(snapshot, refused=refused)
        key = (path, snapshot.text)
        if key in self.reports:
            self.reports.move_to_end(key)
            document, report, crashes = self.reports[key]
            seconds = time.perf_counter() - start
            return Analysis(snapshot, document, report, crashes=crashes, seconds=seconds)
        try:
            document = parse(snapshot.text, path)
        except ChapterInputError as exc:
            return Analysis(snapshot, refused=unread(exc))
        with recording() as raised:
            report = audit_document(document)
        self.reports[key] = (document, report, tuple(raised))
        while len(self.reports) > self.remembered:
            self.reports.popitem(last=False)
        seconds = time.perf_counter() - start
        return Analysis(snapshot, document, report, crashes=tuple(raised), seconds=seconds)
