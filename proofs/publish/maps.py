"""A chapter's map, as proof assistants' blueprints draw one: every element a node shaped
by its kind and coloured by its check's result, every reference an element makes an
edge from what it uses to it.

The graph is read from the chapter file (proofs.reader: its elements and every `<Ref>`,
or rendered `命題 3.1` citation, inside an element, statement or proof) and from the
checks' results (`run_results`, or `results_from_report` of `verify --json`). A
reference to another chapter or book is a node of its own, drawn dashed. The layout is
layered by dependency: an element stands one layer below the lowest element before it
that it uses, and within a layer near the elements it uses; the SVG is written
directly, in the book's figure style (proofs.typeset.figures).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from xml.sax.saxutils import escape

from proofs.reader import Document

RESULTS = ("passed", "finding", "failed", "unchecked")
REPORTED = ("chapter", "number", "result")  # the strings of a verify --json element
# a check's result in the registry -> its colour on the map
RUN_RESULTS = {"passed": "passed", "failed": "failed", "error": "failed", "unchecked": "unchecked"}
FILL = {
    "passed": "#cfe8d6",
    "finding": "#f3e2a9",
    "failed": "#f4c5bb",
    "unchecked": "#e6e6e6",
    "external": "none",
}
SHAPES = {  # the kinds' shapes: a definition a box, a claim an ellipse, …
    "definition": "box",
    "proposition": "ellipse",
    "lemma": "ellipse",
    "theorem": "ellipse",
    "corollary": "ellipse",
    "example": "rounded",
    "exercise": "rounded",
    "remark": "note",
    "external": "rounded",
}
WIDTH, HEIGHT, GAP, LAYER = 104, 34, 14, 74  # a node, between nodes, between layers' tops
MARGIN = 24
ROW = 9  # nodes in a row at most


@dataclass(frozen=True)
class Node:
    key: str  # the element's number (命題 3.2), or an external reference's target
    label: str
    kind: str  # a kind of proofs.book.registry.KINDS, or "external"
    result: str  # one of RESULTS, or "external"
    title: str = ""  # the element's title, or the reference in full (a tooltip in the SVG)


@dataclass(frozen=True)
class ChapterMap:
    title: str
    nodes: tuple[Node, ...]  # the chapter's elements in its order, then the external nodes
    edges: tuple[tuple[str, str], ...]  # (the element citing, the node cited), sorted


def _external_label(target: str, chapter: str) -> str:
    """命題 3.1［別の章］ as the rendered text has it; an MDX path by its anchor."""
    if "#" in target:
        return target.partition("#")[2]
    return f"{target}［{chapter}］" if chapter else target


def references(document: Document) -> list[tuple[str, str, str]]:
    """(the citing element's number, the node cited, its label) of every reference inside
    an element; a reference to the chapter's own element is cited by its number."""
    out = []
    for ref in document.refs:
        source = document.element_at(ref.line)
        if source is None:
            continue
        target = None if ref.external else document.element(ref.target)
        if target is not None:
            out.append((source.number, target.number, target.number))
        else:
            cited_as = ref.chapter and ref.chapter not in ref.target  # rendered: 命題 3.1［…］
            key = f"{ref.target}［{ref.chapter}］" if cited_as else ref.target
            out.append((source.number, key, _external_label(ref.target, ref.chapter)))
    return out


def chapter_map(document: Document, results: Mapping[str, str]) -> ChapterMap:
    """The map of a chapter file; `results` gives each element's result by number (an
    element missing from it is unchecked) and may give the result of an element of the
    book's other chapters as it is cited (命題 3.1［別の章］; uncoloured when it does not)."""
    unknown = set(results.values()) - set(RESULTS)
    if unknown:
        raise ValueError(f"results must be among {RESULTS}, got {sorted(unknown)}")
    nodes = [
        Node(e.number, e.number, e.kind, results.get(e.number, "unchecked"), e.title)
        for e in document.elements
    ]
    cited = references(document)
    own = {n.key for n in nodes}
    external = dict.fromkeys((key, label) for _, key, label in cited if key not in own)
    nodes += [
        Node(key, label, "external", results.get(key, "external"), key) for key, label in external
    ]
    edges = sorted({(source, target) for source, target, _ in cited})
    return ChapterMap(document.title, tuple(nodes), tuple(edges))


def results_from_runs(runs: Iterable[tuple[str, str, int]]) -> dict[str, str]:
    """(number, registry result, findings) of each check -> the map's result by number:
    a pass with findings is a finding, an error a failure.

    >>> results_from_runs([("命題 3.1", "passed", 0), ("例 3.2", "passed", 2)])
    {'命題 3.1': 'passed', '例 3.2': 'finding'}
    """
    out = {}
    for number, result, findings in runs:
        if result not in RUN_RESULTS:
            raise ValueError(
                f"{number}: result must be one of {sorted(RUN_RESULTS)}, got {result!r}"
            )
        out[number] = "finding" if result == "passed" and findings else RUN_RESULTS[result]
    return out


def results_from_report(
    report: object, chapter: str, others: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The results of a chapter's elements in a `verify --json` report, by number, and
    those of the chapters `others` names (key -> the name citations use) as they are cited:
    命題 7.2［自己注意］. ValueError when the report is not one."""
    elements = report.get("elements") if isinstance(report, dict) else None
    if not isinstance(elements, list) or not all(
        isinstance(e, dict)
        and all(isinstance(e.get(k), str) for k in REPORTED)
        and isinstance(e.get("findings"), list)
        for e in elements
    ):
        raise ValueError(
            "not a report of verify --json: no list of elements with their "
            "chapter, number and result (strings) and findings (a list)"
        )
    for e in elements:
        if e["result"] not in RUN_RESULTS:
            raise ValueError(
                f"{e['number']}: result must be one of {sorted(RUN_RESULTS)}, got {e['result']!r}"
            )
    names = {chapter: "", **(others or {})}
    return results_from_runs(
        (
            f"{e['number']}［{names[e['chapter']]}］" if names[e["chapter"]] else e["number"],
            e["result"],
            len(e["findings"]),
        )
        for e in elements
        if e["chapter"] in names
    )


def run_results(chapter: str) -> dict[str, str]:
    """Run the checks of a chapter's elements (as `verify` does) and give their results."""
    from proofs.book.registry import load_all, run_check

    runs = []
    for element in load_all().values():
        if element.chapter == chapter:
            run = run_check(element)
            runs.append((element.number, run.result, len(run.findings)))
    return results_from_runs(runs)


# Layout --------------------------------------------------------------------------------


def layers(graph: ChapterMap) -> dict[str, int]:
    """Each node's layer: the external nodes in 0, an element one below the lowest element
    before it that it uses (in 1 when it uses none; a forward citation does not move it,
    so the layering has no cycle)."""
    order = {n.key: i for i, n in enumerate(graph.nodes)}
    external = {n.key for n in graph.nodes if n.kind == "external"}
    uses: dict[str, list[str]] = {n.key: [] for n in graph.nodes}
    for source, target in graph.edges:
        if target not in external and order[target] < order[source]:
            uses[source].append(target)
    layer = dict.fromkeys(external, 0)
    for node in graph.nodes:
        if node.key not in external:
            layer[node.key] = 1 + max((layer[t] for t in uses[node.key]), default=0)
    return layer


def positions(graph: ChapterMap) -> dict[str, tuple[int, int]]:
    """The centre of each node: layers top to bottom, each layer's nodes ordered by the
    mean place of the nodes they use above them (the chapter's order breaking ties) and
    wrapped after ROW nodes."""
    layer = layers(graph)
    order = {n.key: i for i, n in enumerate(graph.nodes)}
    place: dict[str, float] = {}
    out: dict[str, tuple[int, int]] = {}
    row = 0
    for depth in range(max(layer.values(), default=-1) + 1):
        here = [n.key for n in graph.nodes if layer[n.key] == depth]

        def anchor(key: str) -> tuple[float, int]:
            above = [place[t] for s, t in graph.edges if s == key and t in place]
            return (sum(above) / len(above) if above else float(order[key]) / ROW, order[key])

        for k, key in enumerate(sorted(here, key=anchor)):
            place[key] = float(k % ROW)
            out[key] = (
                MARGIN + WIDTH // 2 + (k % ROW) * (WIDTH + GAP),
                MARGIN + HEIGHT // 2 + (row + k // ROW) * LAYER,
            )
        row += -(-len(here) // ROW)
    return out


# SVG -----------------------------------------------------------------------------------


def _shape(node: Node, x: int, y: int) -> str:
    """The node's outline, centred at (x, y)."""
    style = f'fill="{FILL[node.result]}"'
    if node.kind == "external":
        style += ' stroke-dasharray="4 3"'
    left, top = x - WIDTH // 2, y - HEIGHT // 2
    shape = SHAPES[node.kind]
    if shape == "ellipse":
        return f'    <ellipse cx="{x}" cy="{y}" rx="{WIDTH // 2}" ry="{HEIGHT // 2}" {style} />'
    if shape == "note":  # a box with its top-right corner cut
        points = [
            (left, top),
            (left + WIDTH - 10, top),
            (left + WIDTH, top + 10),
            (left + WIDTH, top + HEIGHT),
            (left, top + HEIGHT),
        ]
        listed = " ".join(f"{px},{py}" for px, py in points)
        return f'    <polygon points="{listed}" {style} />'
    rounded = ' rx="10"' if shape == "rounded" else ""
    return f'    <rect x="{left}" y="{top}" width="{WIDTH}" height="{HEIGHT}"{rounded} {style} />'


def _edge(start: tuple[int, int], end: tuple[int, int]) -> list[str]:
    """A line from the bottom of the node used to the top of the node using it (or
    between the sides of two nodes of one layer), an arrowhead at its end."""
    (x1, y1), (x2, y2) = start, end
    if y1 == y2:
        step = WIDTH // 2 if x2 > x1 else -WIDTH // 2
        a, b = (x1 + step, y1), (x2 - step, y2)
    elif y1 < y2:
        a, b = (x1, y1 + HEIGHT // 2), (x2, y2 - HEIGHT // 2)
    else:  # a citation of a later element
        a, b = (x1, y1 - HEIGHT // 2), (x2, y2 + HEIGHT // 2)
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = max((dx * dx + dy * dy) ** 0.5, 1.0)
    ux, uy = dx / length, dy / length
    tip = [
        b,
        (round(b[0] - 8 * ux + 4 * uy, 1), round(b[1] - 8 * uy - 4 * ux, 1)),
        (round(b[0] - 8 * ux - 4 * uy, 1), round(b[1] - 8 * uy + 4 * ux, 1)),
    ]
    listed = " ".join(f"{px},{py}" for px, py in tip)
    return [
        f'    <line x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}" />',
        f'    <polygon points="{listed}" fill="currentColor" />',
    ]


def map_svg(graph: ChapterMap) -> str:
    """The map as SVG: the edges under the nodes, a legend of the results below."""
    at = positions(graph)
    width = max((x for x, _ in at.values()), default=0) + WIDTH // 2 + MARGIN
    bottom = max((y for _, y in at.values()), default=0) + HEIGHT // 2
    width = max(width, 560)
    height = bottom + 2 * MARGIN + 20
    label = _xml(f"{graph.title}: 要素と参照の地図", {'"': "&quot;"})
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" role="img" aria-label="{label}">',
        '  <g fill="none" stroke="currentColor" stroke-width="0.8" opacity="0.6">',
    ]
    for source, target in graph.edges:
        out += _edge(at[target], at[source])
    out += ["  </g>", '  <g stroke="currentColor" stroke-width="1.2">']
    for node in graph.nodes:  # each outline in a group of its own, with its tooltip
        named = node.kind != "external" and node.title
        tooltip = _xml(f"{node.key}（{node.title}）" if named else node.title or node.key)
        out += [f"    <g><title>{tooltip}</title>", _shape(node, *at[node.key]), "    </g>"]
    out += ["  </g>", '  <g fill="currentColor" font-size="12" text-anchor="middle">']
    for node in graph.nodes:
        x, y = at[node.key]
        out.append(f'    <text x="{x}" y="{y + 4}">{_xml(_fitted(node.label))}</text>')
    out += ["  </g>", _legend(height - MARGIN), "</svg>"]
    return "\n".join(out)


# the characters XML 1.0 does not allow even as references: C0 controls but TAB, LF and
# CR, lone surrogates, U+FFFE and U+FFFF
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str, entities: Mapping[str, str] | None = None) -> str:
    """Chapter text as XML character data (or, with the quote entity, an attribute): the
    markup characters escaped and those XML cannot hold shown as U+FFFD."""
    return escape(_NOT_XML.sub("\ufffd", text), entities or {})


def _fitted(label: str, room: int = WIDTH - 12) -> str:
    """The label, cut with … to fit the room at 12 px (a wide character counts 12 px,
    another 7)."""
    used = 0
    for k, char in enumerate(label):
        used += 12 if unicodedata.east_asian_width(char) in "WF" else 7
        if used > room:
            return label[: k - 1] + "…"
    return label


def _legend(y: int) -> str:
    """A swatch and the name of each result, in a row."""
    out = ['  <g stroke="currentColor" stroke-width="1.2" font-size="12">']
    for k, result in enumerate(RESULTS):
        x = MARGIN + k * 120
        out.append(
            f'    <rect x="{x}" y="{y - 11}" width="14" height="14" fill="{FILL[result]}" />'
        )
        out.append(
            f'    <text x="{x + 20}" y="{y}" fill="currentColor" stroke="none">{result}</text>'
        )
    out.append("  </g>")
    return "\n".join(out)
