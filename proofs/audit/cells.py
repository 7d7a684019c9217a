"""The audit of a chapter's tables: every cell against the package's regenerated table."""

from __future__ import annotations

import re

from proofs.audit.report import Finding
from proofs.reader import ChapterInputError, Document
from proofs.reader.records import Table as Printed
from proofs.registry import CHAPTERS
from proofs.tables import Table

NO_COLUMNS = "no regenerated table has these columns (a table of words, not of values)"


def normalise_cell(cell: str) -> str:
    """Cells compare without whitespace inside math and at the ends."""
    parts = cell.strip().split("$")
    return "$".join(re.sub(r"\s+", "", p) if i % 2 else p.strip() for i, p in enumerate(parts))


def regenerate(chapter: str, printed: Printed) -> Table | None:
    """The chapter's registered table with the printed table's header, regenerated with
    the settings the chapter's own first column shows (its d_k values, its n values)."""
    wanted = [normalise_cell(c) for c in printed.rows[0]]
    firsts = [r[0] for r in printed.rows[1:]]
    keyed = all(x.isdigit() for x in firsts) and bool(firsts)
    for entry in CHAPTERS[chapter].tables.values() if chapter in CHAPTERS else ():
        if entry.columns is None or wanted != [normalise_cell(c) for c in entry.columns]:
            continue
        if entry.keyed_by is None:
            return entry.build()
        return entry.build(**{entry.keyed_by: tuple(int(x) for x in firsts)}) if keyed else None
    return None


def require_rectangular(path: str, printed: Printed) -> None:
    """ChapterInputError naming the line of a row whose cells its header does not count."""
    header = printed.rows[0]
    for row, line in zip(printed.rows[1:], printed.row_lines[1:], strict=True):
        if len(row) != len(header):
            raise ChapterInputError(
                f"{path}:{line}: table row has {len(row)} cells, its header has {len(header)}"
            )


def audit_tables(document: Document, chapter: str, claimed: dict[int, str] | None = None
                 ) -> list[Finding]:
    """Every table cell by cell against the regenerated table with its columns; a table
    with none that a check reads as its claim (`claimed`: its line -> the element id) is
    that check's, any other is not checkable."""
    claimed = claimed or {}
    findings = []
    for printed in document.tables:
        require_rectangular(document.path, printed)
        header = printed.rows[0]
        regenerated = regenerate(chapter, printed)
        if regenerated is None and printed.line in claimed:
            findings.append(Finding("table", printed.line, " | ".join(header), "confirmed",
                                    f"read by the check of {claimed[printed.line]} as its claim"))
            continue
        if regenerated is None:
            findings.append(Finding("table", printed.line, " | ".join(header), "not checkable",
                                    NO_COLUMNS))
            continue
        findings.extend(_compare(printed, regenerated))
    return findings


def _compare(printed: Printed, table: Table) -> list[Finding]:
    findings = []
    body = printed.rows[1:]
    title = f"{table.name} table"
    if len(body) != len(table.rows):
        findings.append(
            Finding(
                "table",
                printed.line,
                title,
                "mismatched",
                f"the chapter has {len(body)} rows, the regenerated table {len(table.rows)}",
            )
        )
    rows = zip(body, table.rows, printed.row_lines[1:], strict=False)
    for k, (cells, ours, line) in enumerate(rows, 1):
        for column, (a, b) in enumerate(zip(cells, ours, strict=True)):
            label = f"{title}, row {k} ({cells[0]}), column {table.columns[column]}"
            if normalise_cell(a) == normalise_cell(b):
                findings.append(
                    Finding("table", line, f"{label}: {a}", "confirmed", "as regenerated")
                )
            else:
                findings.append(
                    Finding(
                        "table",
                        line,
                        f"{label}: {a or '(blank)'}",
                        "mismatched",
                        f"regenerated {b or '(blank)'}{_difference(a, b)}",
                    )
                )
    return findings


def _difference(a: str, b: str) -> str:
    try:
        x, y = float(a.replace(",", "")), float(b.replace(",", ""))
    except ValueError:
        return ""
    return f", off by {x - y:+.6g}"
