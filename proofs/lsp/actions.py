"""Code actions: what the editor can apply for a finding. Each is a WorkspaceEdit that the
editor applies (and can undo); the server never writes a file.

- **sync** a drifted region (a table, a listing's output line, a figure) with the text
  `sync --write` would give it (proofs.audit.sync computes it), one region at a time or
  all of the document's at once (`source.fixAll.proofs`);
- **suppress** one finding with a comment on the line before its block (MDX:
  `{/* proofs: ignore[CODE] reason */}`, the reason for the author to write);
- **accept** a mismatch in the baseline (proofs.audit.reports.baseline): the file `baseline = "…"`
  under [tool.proofs] names, else audit-baseline.json beside the chapter, created or
  rewritten whole with the entry added.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from lsprotocol import types

from proofs.audit.findings import Finding, Status
from proofs.audit.reports.baseline import BaselineError, accepted_entries, baseline_text, entry
from proofs.audit.sync import Region, regions, rewrite
from proofs.book.locations import SettingsError, baseline_setting
from proofs.lsp.diagnostics import code_of
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


def block_start(document: Document, line: int) -> int:
    """The first line of the block a line stands in (a table, a listing, a display), where
    a line inserted before it does not break it; the line itself otherwise."""
    for table in document.tables:
        if table.line <= line <= table.row_lines[-1]:
            return table.line
    if line in document.code:
        while line - 1 in document.code:
            line -= 1
        return line
    for m in document.math:
        if m.display and m.line <= line <= m.line + m.tex.strip().count("\n"):
            opener = m.line
            while opener > 1 and "$$" not in document.line(opener):
                opener -= 1
            return opener
    return line


def suppression_action(analysis: Analysis, finding: Finding) -> types.CodeAction | None:
    """Insert `{/* proofs: ignore[CODE] reason */}` on the line before the finding's block
    (MDX only: the rendered form has no comments)."""
    document = analysis.document
    if document is None or document.form != "MDX":
        return None
    line = block_start(document, finding.line)
    text = document.line(line)
    indent = text[: len(text) - len(text.lstrip())]
    lines = analysis.snapshot.lines
    at = types.Position(*lines.position(line, 1))
    full = analysis.snapshot.text
    end = full.find("\n", lines.editor_starts[at.line])
    ending = "\r\n" if end > 0 and full[end - 1] == "\r" else "\n"
    code = code_of(finding)
    comment = indent + SUPPRESSION % code + ending
    return types.CodeAction(
        title=f"Suppress {code} here (a comment; write its reason)",
        kind=types.CodeActionKind.QuickFix,
        edit=_edit(
            analysis.snapshot.uri,
            analysis.snapshot.version,
            [types.TextEdit(types.Range(at, at), comment)],
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
    when the finding is no mismatch, or the baseline file cannot be read."""
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
        accepted = [] if text is None else list(accepted_entries(json.loads(text), path).elements())
    except (OSError, UnicodeDecodeError, ValueError, BaselineError, RecursionError):
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
