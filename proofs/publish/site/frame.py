"""What every page of the site shares: the document around a body, a report's counts and
the legend of the marks. Everything taken from a chapter or a file's name goes through
html_text: every character a page would hide or act on made visible (a control as \\x1b,
a bidirectional override as \\u202e, a name's byte that is not UTF-8 as \\xff), then
html.escape."""

from __future__ import annotations

from html import escape

from proofs.audit.findings import Status
from proofs.audit.reports.report import Report
from proofs.publish.site.style import CSS
from proofs.typeset.shown import visible

MEANINGS = {  # a line's mark -> what it means, as the legend says it
    "mismatched": "mismatched: the chapter says what the package contradicts",
    "not checkable": "not checkable: read, but nothing here could judge it",
    "confirmed": "confirmed: what the chapter says is what the package computes or proves",
    "not examined": "not examined: a number or relation no finding judged",
}


def html_text(text: str) -> str:
    """Text from a chapter, a report or a file's name as HTML character data or an
    attribute's value: made visible (proofs.typeset.shown), then escaped."""
    return escape(visible(text))


def css_class(mark: str) -> str:
    """A mark or status as a class name: "not checkable" -> "not-checkable"."""
    return mark.replace(" ", "-")


def html_page(title: str, body: str) -> str:
    """A whole page: the title escaped, the style inlined, no script."""
    return (
        '<!DOCTYPE html>\n<html lang="ja">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html_text(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"{body}\n</body>\n</html>\n"
    )


def counts(report: Report) -> str:
    """The report's counts: mismatches, not checkable, confirmed, coverage, listings."""
    items = [
        ("mismatched", "mismatches", str(len(report.of(Status.MISMATCHED)))),
        ("not checkable", "not checkable", str(len(report.of(Status.NOT_CHECKABLE)))),
        ("confirmed", "confirmed", str(len(report.of(Status.CONFIRMED)))),
    ]
    if report.coverage is not None:
        items.append(("coverage", "coverage", report.coverage.to_text()))
    if report.listings and not report.listings_run:
        items.append(("listings", "listings", f"{report.listings} not run (--run-listings)"))
    shown = [
        f'<div class="{css_class(key)}"><dt>{html_text(name)}</dt><dd>{html_text(value)}</dd></div>'
        for key, name, value in items
    ]
    return '<dl class="counts">' + "".join(shown) + "</dl>"


def legend() -> str:
    """The marks' colours and what each means."""
    shown = [f'<li class="{css_class(m)}">{html_text(said)}</li>' for m, said in MEANINGS.items()]
    return '<ul class="legend">' + "".join(shown) + "</ul>"


def where(report: Report) -> str:
    """The file, its form and the chapter the audit took it for."""
    chapter = f"chapter {report.chapter}" if report.chapter else "a chapter without checks"
    said = f"{report.path} · {report.form} · {chapter}"
    return f'<p class="where">{html_text(said)}</p>'
