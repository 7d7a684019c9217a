"""The chapter's outline (its sections and their elements) and where an element's check
is written (go to definition, from the element's heading or its id)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from lsprotocol import types

from proofs.audit.rules.elements import registered
from proofs.book.registry import RegisteredElement, load_all
from proofs.lsp.incremental import Analysis
from proofs.lsp.positions import Lines, units
from proofs.reader import Document
from proofs.reader.records import Element

_KINDS = {  # an element's kind as the outline draws it
    "definition": types.SymbolKind.Constant,
    "example": types.SymbolKind.Event,
    "exercise": types.SymbolKind.Event,
    "remark": types.SymbolKind.String,
}
_ID = re.compile(r"""\b(?:id|to|of)\s*=\s*["']([^"']+)["']""")


def _line_range(lines: Lines, first: int, last: int) -> types.Range:
    """The reader's lines first..last, whole."""
    start = lines.position(first, 1)
    end_line = lines.position(last, 1)[0]
    end = (end_line, units(lines.editor_line(end_line), lines.encoding))
    return types.Range(types.Position(*start), types.Position(*end))


def _element_symbol(e: Element, lines: Lines) -> types.DocumentSymbol:
    last = (e.proof or e.statement)[1]
    return types.DocumentSymbol(
        name=f"{e.number}（{e.title}）" if e.title else e.number,
        kind=_KINDS.get(e.kind, types.SymbolKind.Function),
        range=_line_range(lines, e.line, max(last, e.line)),
        selection_range=_line_range(lines, e.line, e.line),
        detail=e.id or e.kind,
    )


def document_symbols(analysis: Analysis) -> list[types.DocumentSymbol]:
    """Each section with its elements as children; elements before the first section at
    the top."""
    document = analysis.document
    if document is None:
        return []
    lines = analysis.snapshot.lines
    headings = sorted(document.headings, key=lambda h: h.line)
    ends = [h.line - 1 for h in headings[1:]] + [len(document.lines)]
    out: list[types.DocumentSymbol] = []
    elements = sorted(document.elements, key=lambda e: e.line)
    taken: set[int] = set()
    for heading, end in zip(headings, ends, strict=True):
        inside = [e for e in elements if heading.line <= e.line <= end]
        taken.update(e.line for e in inside)
        out.append(
            types.DocumentSymbol(
                name=f"{heading.number}. {heading.title}",
                kind=types.SymbolKind.Namespace,
                range=_line_range(lines, heading.line, max(end, heading.line)),
                selection_range=_line_range(lines, heading.line, heading.line),
                children=[_element_symbol(e, lines) for e in inside] or None,
            )
        )
    before = [_element_symbol(e, lines) for e in elements if e.line not in taken]
    return before + out


def element_named(analysis: Analysis, line: int, character: int) -> RegisteredElement | None:
    """The registered element at the reader's line and character: the element whose
    heading is on the line, or the id under the cursor (`id="…"`, `<Ref to="…"/>`,
    `<Proof of="…">`)."""
    document: Document | None = analysis.document
    if document is None:
        return None
    registry = load_all()
    text = document.lines[line - 1] if line <= len(document.lines) else ""
    for m in _ID.finditer(text):
        if m.start() <= character <= m.end() and m.group(1) in registry:
            return registry[m.group(1)]
    record = next((e for e in document.elements if e.line == line), None)
    if record is None:
        return None
    chapter = analysis.report.chapter if analysis.report is not None else ""
    return registered(record, chapter, registry)


def check_location(element: RegisteredElement) -> types.Location | None:
    """Where the element's check function is written: its file and first line."""
    check = inspect.unwrap(element.check)
    try:
        source = inspect.getsourcefile(check)
        _, first = inspect.getsourcelines(check)
    except (OSError, TypeError):
        return None
    if source is None:
        return None
    at = types.Position(max(first - 1, 0), 0)
    return types.Location(Path(source).resolve().as_uri(), types.Range(at, at))
