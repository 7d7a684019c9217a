"""The audit's findings as an editor's diagnostics.

Each error, warning and notice of the report is one diagnostic: at its line, from its
column to the end of the number or formula it quotes; its severity (an error is an
Error, a warning a Warning, a notice — an item that could not be checked — Information);
its rule's code (`code_of`), linked to the rule's entry on the rules page (docs/rules.md)
where the page is beside the package; its message (what the chapter says — what it should
say); and the other places it names: the line a restated number is printed at, the
listing that prints an output line, the table a cell is in. Confirmed items are not
shown, nor the findings of the rules the project's settings leave out (`reported`). A
document that is not audited (not a chapter, a binary file, a rule that raised, an audit
stopped) gets one diagnostic that says why, at the line it names or at the top.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types

import proofs
from proofs.audit.findings import Finding, Severity
from proofs.audit.selection import SelectionError, selection
from proofs.book.locations import SettingsError, rule_settings
from proofs.lsp.incremental import Analysis, Refusal
from proofs.lsp.positions import Lines, units
from proofs.reader import Document
from proofs.typeset.shown import shortened, visible

SOURCE = "proofs"
SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.NOTICE: types.DiagnosticSeverity.Information,
}
_NUMBER = re.compile(r"(?<![\d.,])\d[\d,]*(?:\.\d+)?(?![\d])")
_FIRST = re.compile(r"[\d.,]+\d|\S+")  # the first number or word of a finding's text
_NAMED_LINES = re.compile(r"\blines? (\d+(?:(?:, | and |-)\d+)*)")
RULES_PAGE = Path(proofs.__file__).resolve().parent.parent / "docs" / "rules.md"
_RULE_HEADING = re.compile(r"^### ([A-Z]+[0-9]+)$", re.M)


def code_of(finding: Finding) -> str:
    """The code of the rule that made the finding (EQ001); its section (equality, table,
    …) for a finding made without one."""
    return finding.code or str(finding.section)


@functools.cache
def _documented(page: Path) -> frozenset[str]:
    """The codes the rules page has an entry for (a `### EQ001` heading); none when the
    page is not there (the package installed without its docs)."""
    try:
        return frozenset(_RULE_HEADING.findall(page.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError):
        return frozenset()


def code_description(code: str, page: Path = RULES_PAGE) -> types.CodeDescription | None:
    """A link to the rule's entry on the rules page (its heading's anchor, `#eq001`), for
    a code the page documents."""
    if code not in _documented(page):
        return None
    return types.CodeDescription(href=f"{page.as_uri()}#{code.lower()}")


def quoted_span(finding: Finding, text: str) -> tuple[int, int]:
    """Where on its line (0-based characters, end excluded) the finding's number or
    formula stands: what it quotes at its column; else the first number its detail quotes
    that the line prints; else the word at its column."""
    start = max(finding.column - 1, 0)
    keys = [
        finding.text.strip().strip("$"),
        finding.text.rsplit(": ", 1)[-1].strip(),
        *_FIRST.findall(finding.text)[:1],
    ]
    for key in keys:
        if key and text.startswith(key, start):
            return start, start + len(key)
    for m in _NUMBER.finditer(finding.detail):
        found = re.search(rf"(?<![\d.,]){re.escape(m.group(0))}(?![\d])", text)
        if found is not None:
            return found.span()
    word = re.compile(r"\S+").search(text, start)
    if word is None:
        return start, len(text)
    return word.span()


def related_lines(finding: Finding, document: Document) -> list[tuple[int, str]]:
    """The other lines a finding concerns, with what each is: the lines its detail names,
    the listing printing an output line, the table holding a cell."""
    out: list[tuple[int, str]] = []
    for m in _NAMED_LINES.finditer(finding.detail):
        for part in re.split(r", | and ", m.group(1)):
            first = part.split("-")[0]
            line = int(first)
            if line != finding.line and 1 <= line <= len(document.lines):
                out.append((line, "named by the finding"))
    if finding.section == "output":
        for listing in document.listings:
            first = listing.output_line or 0
            if first <= finding.line < first + len(listing.output):
                out.append((listing.line, "the listing that prints this line"))
    if finding.section == "table":
        for table in document.tables:
            if finding.line in table.row_lines and finding.line != table.line:
                out.append((table.line, "the table's header"))
    return list(dict.fromkeys(out))


def message(finding: Finding) -> str:
    """What the chapter says — what it should say, every character shown as it is."""
    return visible(f"{finding.text} — {finding.detail}")


def finding_range(finding: Finding, document: Document, lines: Lines) -> types.Range:
    """The finding's range in the editor's positions."""
    line = min(max(finding.line, 1), max(len(document.lines), 1))
    text = document.lines[line - 1] if document.lines else ""
    start, end = quoted_span(finding, text)
    return types.Range(_position(lines, line, start + 1), _position(lines, line, end + 1))


def _position(lines: Lines, line: int, column: int) -> types.Position:
    editor_line, character = lines.position(line, column)
    return types.Position(editor_line, character)


def of_finding(
    index: int, finding: Finding, document: Document, lines: Lines, uri: str
) -> types.Diagnostic:
    related = [
        types.DiagnosticRelatedInformation(
            types.Location(
                uri,
                types.Range(_position(lines, line, 1), _position(lines, line + 1, 1)),
            ),
            f"line {line}: {what}: {visible(shortened(document.lines[line - 1].strip()))}",
        )
        for line, what in related_lines(finding, document)
    ]
    code = code_of(finding)
    return types.Diagnostic(
        range=finding_range(finding, document, lines),
        message=message(finding),
        severity=SEVERITIES[finding.severity],
        code=code,
        code_description=code_description(code),
        source=SOURCE,
        related_information=related or None,
        data={"finding": index},
    )


def at_top(text: str, severity: types.DiagnosticSeverity, code: str) -> types.Diagnostic:
    """A diagnostic about the whole document, on its first line."""
    return types.Diagnostic(
        range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        message=visible(text),
        severity=severity,
        code=code,
        source=SOURCE,
    )


def _refused(refused: Refusal, lines: Lines) -> types.Diagnostic:
    """Why the text is not audited: no chapter (neither form, a binary file) is
    information at the top; bad input an error at the line it names (a fence never
    closed, a row of more cells), or a warning at the top."""
    if refused.not_a_chapter:
        return at_top(refused.message, types.DiagnosticSeverity.Information, "not-a-chapter")
    if not refused.line:
        return at_top(refused.message, types.DiagnosticSeverity.Warning, "input")
    start = types.Position(*lines.position(refused.line, 1))
    end = types.Position(start.line, units(lines.editor_line(start.line), lines.encoding))
    return types.Diagnostic(
        range=types.Range(start, end),
        message=visible(refused.message),
        severity=types.DiagnosticSeverity.Error,
        code="input",
        source=SOURCE,
    )


def diagnostics(analysis: Analysis) -> list[types.Diagnostic]:
    """Every diagnostic of one version of a document."""
    snapshot = analysis.snapshot
    lines = snapshot.lines
    out = []
    if snapshot.out_of_step:
        out.append(
            at_top(
                f"this copy of the document may differ from the editor's ({snapshot.out_of_step}); "
                "close and reopen the file to audit it again",
                types.DiagnosticSeverity.Warning,
                "out-of-step",
            )
        )
    if analysis.refused is not None:
        return [*out, _refused(analysis.refused, lines)]
    if analysis.stopped:
        said = (
            f"the audit stopped: it {analysis.stopped}; `python -m proofs audit FILE` "
            "audits the file without a limit"
        )
        return [*out, at_top(said, types.DiagnosticSeverity.Warning, "stopped")]
    for crash in analysis.crashes:
        said = (
            f"the rule {crash.rule} raised {crash.raised} (at {crash.where}): its findings are "
            "missing, the other rules' are shown"
        )
        out.append(at_top(said, types.DiagnosticSeverity.Error, "crash"))
    report, document = analysis.report, analysis.document
    if report is None or document is None:
        return out
    reports, wrong = reported(report.path)
    if wrong:
        said = f"{wrong}; every rule's findings are shown until the settings are mended"
        out.append(at_top(said, types.DiagnosticSeverity.Warning, "settings"))
    out += [
        of_finding(k, f, document, lines, snapshot.uri)
        for k, f in enumerate(report.findings)
        if f.severity in SEVERITIES and reports(f.code)
    ]
    return out


def reported(path: str) -> tuple[Callable[[str], bool], str]:
    """Which rules' findings are shown for the chapter at `path`: those `select`, `ignore`
    and `per-file-ignores` under [tool.proofs] in the pyproject.toml nearest above it
    report, as `audit` does from there; every rule's, with what is wrong, when the
    settings cannot be read."""
    try:
        project, select, ignore, per_file = rule_settings(Path(path).parent)
        chosen = selection(select, ignore, per_file, project.parent, f"{project}: [tool.proofs] ")
    except (SettingsError, SelectionError) as exc:
        return (lambda code: True), str(exc)
    ignored = chosen.ignored_in(path)
    return (lambda code: chosen.reports(code, ignored)), ""
