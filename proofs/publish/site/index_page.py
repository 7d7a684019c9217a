"""The site's index: the chapters audited with their counts, and each chapter's map
(proofs.publish.maps) coloured by its elements' results, every element a link to its
heading line in the chapter's page.

The map is drawn by map_svg as it is; the links are laid over it, one transparent box
per element node at the place proofs.publish.maps.positions gives it, so that the map
itself stays the picture the `figures` command writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from urllib.parse import quote

from proofs.audit.findings import Status
from proofs.audit.reports.report import Report
from proofs.publish.maps import HEIGHT, WIDTH, chapter_map, map_svg, positions
from proofs.publish.site.frame import counts, html_page, html_text, where
from proofs.publish.site.marks import ElementMark
from proofs.reader import Document


@dataclass(frozen=True)
class Chapter:
    """One audited chapter as the index shows it."""

    page: str  # its page's file name, chapter.html
    document: Document
    report: Report
    elements: list[ElementMark]


def index_page(chapters: Sequence[Chapter]) -> str:
    """The index of the site."""
    body = [
        '<div class="index">',
        f"<h1>Audit of {len(chapters)} chapter{'s' if len(chapters) != 1 else ''}</h1>",
        _summary(chapters),
        "<p>Each chapter's map: its elements, shaped by kind, coloured by what the audit found "
        "of each (passed: its check covers it and nothing disagrees; finding: a claim of its "
        "check, or its example's check, disagrees with the chapter; failed: the element is not "
        "the one registered; unchecked: no check covers it), an arrow from what an element "
        "uses to it. A node links to the element in the chapter's page.</p>",
        "</div>",
        *(_section(k, chapter) for k, chapter in enumerate(chapters, 1)),
    ]
    return html_page("Audit of the chapters", "\n".join(body))


def _summary(chapters: Sequence[Chapter]) -> str:
    """One row per chapter: its page, its file and its counts (mismatches in red)."""
    rows = []
    for k, c in enumerate(chapters, 1):
        r = c.report
        mismatches = len(r.of(Status.MISMATCHED))
        cells = [
            f'<td><a href="{escape(quote(c.page))}">{html_text(c.document.title or r.path)}</a>'
            f' (<a href="#chapter-{k}">map</a>)</td>',
            f"<td>{html_text(r.path)}</td>",
            f'<td class="count{" mismatched" if mismatches else ""}">{mismatches}</td>',
            f'<td class="count">{len(r.of(Status.NOT_CHECKABLE))}</td>',
            f'<td class="count">{len(r.of(Status.CONFIRMED))}</td>',
            f"<td>{html_text(r.coverage.to_text()) if r.coverage is not None else ''}</td>",
        ]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head = "".join(
        f"<th>{name}</th>"
        for name in ("chapter", "file", "mismatches", "not checkable", "confirmed", "coverage")
    )
    return f'<table class="summary"><tr>{head}</tr>{"".join(rows)}</table>'


def _section(k: int, chapter: Chapter) -> str:
    title = chapter.document.title or chapter.report.path
    return "\n".join(
        [
            f'<section class="chapter" id="chapter-{k}">',
            f'<h2><a href="{escape(quote(chapter.page))}">{html_text(title)}</a></h2>',
            where(chapter.report),
            counts(chapter.report),
            f'<div class="map">{linked_map(chapter)}</div>',
            "</section>",
        ]
    )


def linked_map(chapter: Chapter) -> str:
    """The chapter's map coloured by its elements' results, a link over each element."""
    results = {e.number: e.result for e in chapter.elements}
    graph = chapter_map(chapter.document, results)
    svg = map_svg(graph)
    anchors: dict[str, ElementMark] = {}
    for e in chapter.elements:
        anchors.setdefault(e.number, e)
    links = ['  <g class="links">']
    for key, (x, y) in positions(graph).items():
        element = anchors.get(key)
        if element is None:  # a node of another chapter: nothing to link to here
            continue
        target = escape(f"{quote(chapter.page)}#{quote(element.anchor, safe='')}")
        named = f"{element.number}（{element.title}）" if element.title else element.number
        said = html_text(f"{named}: {element.result}")
        links.append(
            f'    <a href="{target}"><title>{said}</title><rect x="{x - WIDTH // 2}" '
            f'y="{y - HEIGHT // 2}" width="{WIDTH}" height="{HEIGHT}" fill="#000" '
            'fill-opacity="0" /></a>'
        )
    drawn, end, _ = svg.rpartition("</svg>")
    return drawn + "\n".join([*links, "  </g>"]) + "\n" + end
