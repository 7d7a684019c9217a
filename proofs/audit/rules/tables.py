"""The audit of a chapter's tables: every cell against the package's regenerated table."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from proofs.audit.deciding.defined import read_notation
from proofs.audit.deciding.meaning import normalised
from proofs.audit.findings import Example, Finding, Rule, Section, Severity, Status
from proofs.audit.rules.definitions import Use
from proofs.audit.rules.table_content import audit_reproduced_rows, audit_table_content
from proofs.audit.rules.table_grid import audit_table_grid
from proofs.audit.rules.table_rows import audit_table_rows
from proofs.book.printed import agrees_as_printed
from proofs.book.registry import CHAPTERS
from proofs.reader import ChapterInputError, Document
from proofs.reader.records import Table as Printed
from proofs.typeset.tables import Table

REGENERATED = Rule(
    "TAB001",
    "table-cell",
    Section.TABLE,
    Severity.ERROR,
    "Each cell of a table the package regenerates is the package's value at the precision "
    "the chapter prints it with (a table of words, which no computation makes, is listed).",
    Example(chapter="transformer-block", line=244, old="7,087,872", new="7,087,873"),
    Example(chapter="transformer-block", line=244, old="\t7,087,872", new="\t7{,}087{,}872"),
)
_COMPLEXITY = (  # a fragment of the self-attention chapter with its table of costs
    '# 自己注意の抜粋\n\n## 2. 準備\n\n<Definition id="def-permutation-matrix" '
    'title="置換行列・同変・不変">\n\n置換行列を定める。\n\n</Definition>\n\n'
    "| $n$ | $4nd^2$ | $2n^2d$ | 合計 | $2n^2d$ の前の行との比 |{}\n"
    "|---|---|---|---|---|{}\n"
    "| 64 | 1,048,576 | 524,288 | 1,572,864 | |{}\n"
    "| 128 | 2,097,152 | 2,097,152 | 4,194,304 | 4.00 |{}\n"
)
SHAPE = Rule(
    "TAB002",
    "table-shape",
    Section.TABLE,
    Severity.ERROR,
    "A table the package regenerates has its columns and as many rows as the package's.",
    Example(_COMPLEXITY.format("", "", "", "")),
    Example(_COMPLEXITY.format(" 合計の前の行との比 |", "---|", " |", " 2.67 |")),
)

_HEADER_ONLY = (
    '# 見本\n\n<Remark id="rem-sizes" title="大きさ">\n\n大きさを並べます。\n\n'
    "</Remark>\n\n| $n$ | 合計 |\n|---|---|\n"
)
EMPTY_TABLE = Rule(
    "TAB003",
    "table-without-rows",
    Section.TABLE,
    Severity.ERROR,
    "A table has rows under its header.",
    Example(_HEADER_ONLY),
    Example(_HEADER_ONLY + "| 64 | 1,048,576 |\n"),
)
RULES = (REGENERATED, SHAPE, EMPTY_TABLE)


NO_COLUMNS = "no regenerated table has these columns (a table of words, not of values)"
EMPTY = "the table has a header and no rows"


def normalise_cell(cell: str) -> str:
    """Cells compare without whitespace inside math and at the ends (and by meaning:
    1,048,576 is 1048576 and 1{,}048{,}576, proofs.audit.deciding.meaning)."""
    parts = cell.strip().split("$")
    return "$".join(re.sub(r"\s+", "", p) if i % 2 else p.strip() for i, p in enumerate(parts))


@dataclass(frozen=True)
class Regenerated:
    """The registered table a printed one is, regenerated with the printed settings;
    `shape` says how the printed table's shape differs from it ("" when its cells can be
    compared one by one): a header with no rows, a column added, dropped or renamed."""

    table: Table
    shape: str = ""


class NotRegenerated(ValueError):
    """A registered table the package refuses to compute at the printed settings."""


def regenerate(chapter: str, printed: Printed) -> Regenerated | None:
    """The chapter's registered table with the printed table's header, or one column
    from it, regenerated with the settings the chapter's own first column shows (its d_k
    values, its n values; the registered defaults when the table has no rows).
    NotRegenerated when those settings are beyond what the package computes."""
    header = [normalise_cell(c) for c in printed.rows[0]]
    firsts = [r[0] for r in printed.rows[1:]]
    for entry in CHAPTERS[chapter].tables.values() if chapter in CHAPTERS else ():
        if entry.columns is None:
            continue
        columns = [normalise_cell(c) for c in entry.columns]
        if header != columns and not _one_column_apart(header, columns):
            continue
        if entry.keyed_by is not None and firsts and not all(x.isdigit() for x in firsts):
            return None
        keys = {entry.keyed_by: tuple(int(x) for x in firsts)} if entry.keyed_by and firsts else {}
        try:
            table = entry.build(**keys)
        except ValueError as refused:  # settings beyond what the package computes
            raise NotRegenerated(f"the {entry.name} table is not regenerated: {refused}") from None
        if not firsts:
            return Regenerated(
                table,
                f"the table has a header and no rows; the regenerated "
                f"{table.name} table has {len(table.rows)}",
            )
        if header != columns:
            return Regenerated(table, _columns_differ(header, columns, table.name))
        return Regenerated(table)
    return None


def _one_column_apart(header: list[str], columns: list[str]) -> bool:
    """Whether a printed header is a registered one with one column added, dropped or
    renamed (the first, which holds the settings, kept)."""
    apart = set(header) ^ set(columns)
    return header[0] == columns[0] and 0 < len(apart) <= 2 and len(header) > 2


def _columns_differ(header: list[str], columns: list[str], name: str) -> str:
    extra = [c for c in header if c not in columns]
    missing = [c for c in columns if c not in header]
    said = [
        f"{', '.join(extra)} not in it" if extra else "",
        f"without its {', '.join(missing)}" if missing else "",
    ]
    return (
        f"the table has {len(header)} columns, the regenerated {name} table "
        f"{len(columns)}: " + "; ".join(filter(None, said))
    )


def require_rectangular(path: str, printed: Printed) -> None:
    """ChapterInputError naming the line of a row whose cells its header does not count."""
    header = printed.rows[0]
    for row, line in zip(printed.rows[1:], printed.row_lines[1:], strict=True):
        if len(row) != len(header):
            raise ChapterInputError(
                f"{path}:{line}: table row has {len(row)} cells, its header has {len(header)}"
            )


def audit_tables(
    document: Document,
    chapter: str,
    claimed: dict[int, str] | None = None,
    produced: Sequence[tuple[int, str]] = (),
    uses: list[Use] | None = None,
) -> list[Finding]:
    """Every table cell by cell against the regenerated table with its columns; a table
    with none that a check reads as its claim (`claimed`: its line -> the element id) is
    that check's; any other is checked from its own content (proofs.audit.rules.table_content:
    its formula columns, and its rows against the lines of `produced`, what the chapter's
    listings printed, (chapter line, text)), else not checkable. A table whose shape is
    not the regenerated one's, or any table with a header and no rows, is a mismatch at
    its header. The columns a definition of the chapter computes are added to `uses`
    (proofs.audit.rules.definitions)."""
    claimed = claimed or {}
    findings = []
    notation = functools.cache(lambda: read_notation(document))  # read once, if asked
    for printed in document.tables:
        require_rectangular(document.path, printed)
        header = " | ".join(printed.rows[0])
        try:
            regenerated = regenerate(chapter, printed)
        except NotRegenerated as why:
            findings.append(
                Finding(
                    Section.TABLE,
                    printed.line,
                    header,
                    Status.NOT_CHECKABLE,
                    str(why),
                    code=REGENERATED.code,
                )
            )
            continue
        if regenerated is not None:
            if regenerated.shape:
                findings.append(
                    Finding(
                        Section.TABLE,
                        printed.line,
                        header,
                        Status.MISMATCHED,
                        regenerated.shape,
                        code=SHAPE.code,
                    )
                )
            else:
                findings.extend(_compare(printed, regenerated.table))
        elif len(printed.rows) == 1:
            findings.append(
                Finding(
                    Section.TABLE,
                    printed.line,
                    header,
                    Status.MISMATCHED,
                    EMPTY,
                    code=EMPTY_TABLE.code,
                )
            )
        elif printed.line in claimed:
            findings.append(
                Finding(
                    Section.TABLE,
                    printed.line,
                    header,
                    Status.CONFIRMED,
                    f"read by the check of {claimed[printed.line]} as its claim",
                    code=REGENERATED.code,
                )
            )
        else:
            content = audit_table_content(document, printed, lambda line: notation()(line), uses)
            content += audit_table_grid(document, printed, notation()(printed.line))
            content += audit_reproduced_rows(printed, produced)
            content += audit_table_rows(document, printed)
            findings += content or [
                Finding(
                    Section.TABLE,
                    printed.line,
                    header,
                    Status.NOT_CHECKABLE,
                    NO_COLUMNS,
                    code=REGENERATED.code,
                )
            ]
    return findings


def _compare(printed: Printed, table: Table) -> list[Finding]:
    """Each cell against the regenerated one: the same text or the same meaning, or the
    value behind the regenerated cell at the precision the chapter prints it with."""
    findings = []
    body = printed.rows[1:]
    title = f"{table.name} table"
    if len(body) != len(table.rows):
        findings.append(
            Finding(
                Section.TABLE,
                printed.line,
                title,
                Status.MISMATCHED,
                f"the chapter has {len(body)} rows, the regenerated table {len(table.rows)}",
                code=SHAPE.code,
            )
        )
    rows = zip(body, table.rows, table.values, printed.row_lines[1:], strict=False)
    for k, (cells, ours, behind, line) in enumerate(rows, 1):
        for column, (a, b, value) in enumerate(zip(cells, ours, behind, strict=True)):
            label = f"{title}, row {k} ({cells[0]}), column {table.columns[column]}"
            if normalise_cell(a) == normalise_cell(b) or normalised(a) == normalised(b):
                findings.append(
                    Finding(
                        Section.TABLE,
                        line,
                        f"{label}: {a}",
                        Status.CONFIRMED,
                        "as regenerated",
                        code=REGENERATED.code,
                    )
                )
            elif agrees_as_printed(a, value):  # the chapter's own precision: 0.94 for 0.939…
                findings.append(
                    Finding(
                        Section.TABLE,
                        line,
                        f"{label}: {a}",
                        Status.CONFIRMED,
                        f"regenerated {b}, which is {a} at the precision the chapter prints",
                        code=REGENERATED.code,
                    )
                )
            else:
                findings.append(
                    Finding(
                        Section.TABLE,
                        line,
                        f"{label}: {a or '(blank)'}",
                        Status.MISMATCHED,
                        f"regenerated {b or '(blank)'}{_difference(a, b)}",
                        code=REGENERATED.code,
                    )
                )
    return findings


def _difference(a: str, b: str) -> str:
    try:
        x, y = float(a.replace(",", "")), float(b.replace(",", ""))
    except ValueError:
        return ""
    return f", off by {x - y:+.6g}"
