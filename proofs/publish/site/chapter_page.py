"""A chapter's page: its text line by line, each line marked by the audit's findings with
their messages below it, each element's heading line carrying its result, and anchors
per line (#L114) and per element (#ex-layer-norm-scale, or #例-3.2 without an id)."""

from __future__ import annotations

from collections import Counter
from html import escape
from urllib.parse import quote

from proofs.audit.findings import Status
from proofs.audit.reports.report import Report
from proofs.audit.reports.tally import ElementTally
from proofs.publish.site.frame import counts, css_class, html_page, html_text, legend, where
from proofs.publish.site.marks import MARKS, ElementMark, LineMark, Note
from proofs.reader import Document

NOTED = (*MARKS[:-1], str(Status.EXTERNAL))  # the order of a line's notes and their count


def chapter_page(
    document: Document,
    report: Report,
    lines: list[LineMark],
    elements: list[ElementMark],
    index: str,
) -> str:
    """The page of one audited chapter; `index` is the file name of the site's index."""
    tallies = {t.line: t for t in report.elements}
    heads = {e.line: e for e in elements}
    body = [
        "<header>",
        f'<p class="where"><a href="{escape(index)}">← all chapters</a></p>',
        f"<h1>{html_text(document.title or report.path)}</h1>",
        where(report),
        counts(report),
        legend(),
        _look_here(document, report),
        "</header>",
        _element_list(elements),
        '<main class="text">',
        *(_line(mark, heads.get(mark.number), tallies.get(mark.number)) for mark in lines),
        "</main>",
    ]
    return html_page(f"{document.title or report.path} — audit", "\n".join(body))


def _href(anchor: str) -> str:
    """A link to an anchor of the same page, as an attribute value."""
    return escape("#" + quote(anchor, safe=""))


def _look_here(document: Document, report: Report) -> str:
    """The mismatches, each a link to its line: where to look first."""
    if not report.mismatched:
        return "<p>No mismatch.</p>"
    items = []
    for f in report.mismatched:
        line = f"line {f.line}"
        at = f'<a href="#L{f.line}">{line}</a>' if 1 <= f.line <= len(document.lines) else line
        items.append(
            f"<li>{at} [{html_text(str(f.section))}] <code>{html_text(f.text)}</code> — "
            f"{html_text(f.detail)}</li>"
        )
    return f'<h2>Mismatches</h2>\n<ul class="mismatches">{"".join(items)}</ul>'


def _element_list(elements: list[ElementMark]) -> str:
    """Every element as a badge of its result linking to its heading line."""
    if not elements:
        return ""
    items = [
        f'<li><a class="badge {e.result}" href="{_href(e.anchor)}">{html_text(e.number)} '
        f"· {e.result}</a></li>"
        for e in elements
    ]
    return f'<nav class="elements"><ul>{"".join(items)}</ul></nav>'


def _line(mark: LineMark, element: ElementMark | None, tally: ElementTally | None) -> str:
    n = mark.number
    out = [
        f'<div class="line {css_class(mark.mark)}" id="L{n}">',
        f'<a class="n" href="#L{n}">{n}</a>',
        f'<span class="t">{_text(mark)}{_badge(element)}</span>',
    ]
    if mark.notes or tally is not None:
        out.append(_notes(mark, element, tally))
    out.append("</div>")
    return "".join(out)


def _text(mark: LineMark) -> str:
    """The line escaped, the text each mismatched finding quotes underlined where it stands
    (overlapping ones: the first)."""
    spans = sorted(
        (n.column - 1, n.column - 1 + len(n.text))
        for n in mark.notes
        if n.status == Status.MISMATCHED and n.text and mark.text.startswith(n.text, n.column - 1)
    )
    out, at = [], 0
    for start, end in spans:
        if start < at:
            continue
        out += [html_text(mark.text[at:start]), f"<mark>{html_text(mark.text[start:end])}</mark>"]
        at = end
    return "".join([*out, html_text(mark.text[at:])])


def _badge(element: ElementMark | None) -> str:
    """An element's anchor and result, and the lines of its mismatches."""
    if element is None:
        return ""
    said = " · ".join(x for x in (element.check or "no check", element.result) if x)
    links = "".join(f' <a href="#L{line}">line {line}</a>' for line in element.mismatches)
    anchor = html_text(element.anchor)
    return f'<span class="badge {element.result}" id="{anchor}">{said}{links}</span>'


def _notes(mark: LineMark, element: ElementMark | None, tally: ElementTally | None) -> str:
    """The findings at the line (and an element's tally), open when one is a mismatch."""
    tallied = Counter(n.status for n in mark.notes)
    said = [f"{tallied[s]} {s}" for s in NOTED if tallied[s]]
    if tally is not None:
        said.append("the element's tally")
    opened = " open" if tallied[Status.MISMATCHED] else ""
    notes = sorted(mark.notes, key=lambda n: NOTED.index(n.status))
    items = "".join(_note(note) for note in notes)
    evidence = f"<pre>{escape(tally.to_text())}</pre>" if tally is not None else ""
    return (
        f"<details{opened}><summary>{html_text(' · '.join(said))}</summary>"
        f"<ul>{items}</ul>{evidence}</details>"
    )


def _note(note: Note) -> str:
    code = f" {html_text(note.code)}" if note.code else ""
    section = f"{code} [{html_text(note.section)}]" if note.section else ""
    status = f"{note.status} ({note.severity})" if note.severity == "warning" else note.status
    return (
        f'<li class="{css_class(note.status)}{" warning" if note.severity == "warning" else ""}">'
        f'<span class="status">{html_text(status)}</span>'
        f"{section} <code>{html_text(note.text)}</code> — {html_text(note.detail)}</li>"
    )
