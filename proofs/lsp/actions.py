"""Code actions: what the editor can apply for a finding. Each is a WorkspaceEdit that the
editor applies (and can undo); the server never writes a file.

- **sync** a drifted region (a table, a listing's output line, a figure) with the text
  `sync --write` would give it (proofs.audit.sync computes it), one region at a time or
  all of the document's at once (`source.fixAll.proofs`);
- **suppress** one finding with the comment the audit reads (proofs.audit.suppressions;
  MDX: `{/* proofs: ignore[CODE] reason */}`, the reason for the author to write), on a
  line of its own before the finding's or at the end of the finding's line;
- **accept** a mismatch in the baseline (proofs.audit.reports.baseline): the file `baseline = "…"`
  under [tool.proofs] names, else audit-baseline.json beside the chapter, created or
  rewritten whole with the entry added, keyed by the rule's code as `audit
  --write-baseline` writes it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from lsprotocol import types

from proofs.audit import suppressions
from proofs.audit.findings import Finding, Status
from proofs.audit.reports.baseline import BaselineError, accepted_entries, baseline_text, entry
from proofs.audit.sync import Region, regions, rewrite
from proofs.book.locations import SettingsError, baseline_setting
from proofs.lsp.incremental import Analysis
from proofs.lsp.positions import Lines
from proofs.reader import BOM, Document

FIX_ALL = "source.fixAll.proofs"
BASELINE = "audit-baseline.json"
SUPPRESSION = "{/* proofs: ignore[%s] reason */}"

OpenText = Callable[[str], tuple[int, str] | None]  # an open document's version and text


def drifted(analysis: Analysis) -> list[Region]:
    """The document's drifted regions, computed once per analysis (the listings are never
    run: no chapter code runs in the editor)."""
    if "regions" not in analysis.extra:
        document, report = analysis.document, analysis.report
        found = [] if document is None or report is None else regions(document, report.chapter)
        analysis.extra["regions"] = [r for r in found if r.drifted]
    return analysis.extra["regions"]


def _range(lines: Lines, first: int, last: int) -> types.Range:
    """From the start of character offset `first` to `last`."""
    start, end = lines.at_offset(first), lines.at_offset(last)
    return types.Range(types.Position(*start), types.Position(*end))


def region_edit(analysis: Analysis, region: Region) -> types.TextEdit:
    """The edit that makes a region's lines the package's: the lines from the first that
    differs to the last that differs (a table with one drifted cell is one line's edit)."""
    text = analysis.snapshot.text
    body = text[len(BOM) :] if text.startswith(BOM) else text
    new = region.new or ()
    same = 0
    while same < min(len(new), len(region.old)) and new[same] == region.old[same]:
        same += 1
    tail = 0
    while (
        tail < min(len(new), len(region.old)) - same
        and new[len(new) - 1 - tail] == region.old[len(region.old) - 1 - tail]
    ):
        tail += 1
    lines = analysis.snapshot.lines
    starts = lines.reader_starts
    first = region.line - 1 + same
    stop_line = region.line - 1 + len(region.old) - tail
    start = starts[first] if first < len(starts) else len(text)
    stop = starts[stop_line] if stop_line < len(starts) else len(text)
    rewritten = rewrite(body, [region]).splitlines(keepends=True)
    replaced = "".join(rewritten[first : region.line - 1 + len(new) - tail])
    return types.TextEdit(_range(lines, start, stop), replaced)


def _edit(uri: str, version: int, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
    document = types.OptionalVersionedTextDocumentIdentifier(uri, version)
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(document, edits)])


def sync_actions(analysis: Analysis, first: int, last: int) -> list[types.CodeAction]:
    """A quick fix per drifted region on the reader's lines first..last, and one that
    regenerates every drifted region of the document."""
    snapshot = analysis.snapshot
    found = drifted(analysis)
    out = []
    for region in found:
        if region.line <= last and first <= region.line + max(len(region.old), 1) - 1:
            title = (
                f"Regenerate output line {region.line} (sync)"
                if region.kind == "output"
                else f"Regenerate {region.kind} {region.name} (sync)"
            )
            out.append(
                types.CodeAction(
                    title=title,
                    kind=types.CodeActionKind.QuickFix,
                    edit=_edit(snapshot.uri, snapshot.version, [region_edit(analysis, region)]),
                    is_preferred=True,
                )
            )
    if found:
        out.append(
            types.CodeAction(
                title=f"Regenerate every drifted region of the chapter (sync, {len(found)})",
                kind=FIX_ALL,
                edit=_edit(
                    snapshot.uri, snapshot.version, [region_edit(analysis, r) for r in found]
                ),
            )
        )
    return out


def of_kinds(offered: list[types.CodeAction], only: Sequence[str] | None) -> list[types.CodeAction]:
    """The actions of the kinds the editor asked for (`only`; a kind covers the kinds under
    it: "source" covers "source.fixAll.proofs"), every one when it names none."""
    if not only:
        return offered
    asked = [str(getattr(k, "value", k)) for k in only]
    return [
        a
        for a in offered
        if any(
            (kind := str(getattr(a.kind, "value", a.kind))) == k or kind.startswith(k + ".")
            for k in asked
        )
    ]


def _blank(document: Document, line: int) -> bool:
    """Whether a line holds nothing: no text, no comment."""
    return not document.line(line).strip() and not any(
        c.line <= line <= c.last for c in document.comments
    )


def _in_display(document: Document, line: int) -> bool:
    """Whether a line is one of a display's over several lines, from its opening `$$` to
    its closing one (text after either is no longer the display's fence)."""
    for m in document.math:
        if m.display and "\n" in m.tex:
            opener = m.line - m.tex[: len(m.tex) - len(m.tex.lstrip())].count("\n")
            if opener <= line <= opener + m.tex.count("\n"):
                return True
    return False


def suppression_place(document: Document, line: int) -> tuple[int, bool] | None:
    """Where a suppression of a finding on `line` goes, so that it covers the finding
    (proofs.audit.suppressions: a comment covers its own line and the next): (the line,
    True) for a line of its own before the finding's, where the line before is blank (a
    comment-only line there is read as blank: it splits no paragraph, list, table or
    display, and moves no other comment off the line it covers); else (the 1-based column,
    False) at the end of the finding's line, inside the last cell of a table's row. None
    where no comment can stand: in a listing, or on a line of a display over several lines
    (a comment there is TeX, or spoils its fence)."""
    if line in document.code:
        return None
    if line == 1 or _blank(document, line - 1):
        return line, True
    for table in document.tables:
        if line in table.row_lines and table.spans:
            cells = table.spans[table.row_lines.index(line)]
            if cells:
                return cells[-1][1] + 1, False
    if _in_display(document, line):
        return None
    return len(document.line(line).rstrip()) + 1, False


def suppression_action(analysis: Analysis, finding: Finding) -> types.CodeAction | None:
    """Insert `{/* proofs: ignore[CODE] reason */}` where it covers the finding
    (`suppression_place`); None where the audit reads no suppression of it: rendered text
    (no comments), a finding without a rule's code, a finding about a suppression, a
    place where no comment can stand."""
    document = analysis.document
    if document is None or document.form != "MDX" or not finding.code:
        return None
    if finding.code in {rule.code for rule in suppressions.RULES}:
        return None
    place = suppression_place(document, finding.line)
    if place is None:
        return None
    lines = analysis.snapshot.lines
    comment = SUPPRESSION % finding.code
    where, own_line = place
    if own_line:
        text = document.line(where)
        at = types.Position(*lines.position(where, 1))
        full = analysis.snapshot.text
        end = full.find("\n", lines.editor_starts[at.line])
        ending = "\r\n" if end > 0 and full[end - 1] == "\r" else "\n"
        inserted = text[: len(text) - len(text.lstrip())] + comment + ending
    else:
        at = types.Position(*lines.position(finding.line, where))
        inserted = " " + comment
    return types.CodeAction(
        title=f"Suppress {finding.code} here (a comment; write its reason)",
        kind=types.CodeActionKind.QuickFix,
        edit=_edit(
            analysis.snapshot.uri,
            analysis.snapshot.version,
            [types.TextEdit(types.Range(at, at), inserted)],
        ),
    )


def baseline_file(chapter: Path) -> Path:
    """The baseline a chapter's accepted mismatches go to: the one [tool.proofs] names,
    else audit-baseline.json beside the chapter."""
    try:
        named = baseline_setting(chapter.parent)
    except SettingsError:
        named = None
    return named if named is not None else chapter.parent / BASELINE


def baseline_action(
    analysis: Analysis, finding: Finding, open_text: OpenText, can_create: bool
) -> types.CodeAction | None:
    """Add the mismatch to the baseline file, creating it when it does not exist; None
    when the finding is no mismatch, the baseline file cannot be read, or it was written
    before the codes (its entries keyed by section: `audit --write-baseline` rewrites it
    keyed by code, which this action does not guess)."""
    document, report = analysis.document, analysis.report
    if document is None or report is None or finding.status != Status.MISMATCHED:
        return None
    path = baseline_file(Path(document.path))
    uri = path.resolve().as_uri()
    opened = open_text(uri)
    try:
        if opened is not None:
            version, text = opened
        elif path.is_file():
            version, text = None, path.read_text(encoding="utf-8")
        else:
            version, text = None, None
        data = None if text is None else json.loads(text)
        accepted = [] if data is None else list(accepted_entries(data, path).elements())
    except (OSError, UnicodeDecodeError, ValueError, BaselineError, RecursionError):
        return None
    if data is not None and any("code" not in e for e in data["accepted"]):
        return None
    new = baseline_text([*accepted, entry(report, document, finding)])
    title = f"Accept this mismatch in the baseline ({path.name})"
    target = types.OptionalVersionedTextDocumentIdentifier(uri, version)
    if text is None:
        if not can_create:
            return None
        start = types.Position(0, 0)
        changes: list = [
            types.CreateFile(uri=uri, options=types.CreateFileOptions(ignore_if_exists=True)),
            types.TextDocumentEdit(target, [types.TextEdit(types.Range(start, start), new)]),
        ]
    else:
        lines = Lines(text)
        whole = _range(lines, 0, len(text))
        changes = [types.TextDocumentEdit(target, [types.TextEdit(whole, new)])]
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        edit=types.WorkspaceEdit(document_changes=changes),
    )
