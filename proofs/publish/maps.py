"""A chapter's map, as proof assistants' blueprints draw one: every element a node shaped
by its kind and coloured by its check's result, every reference an element makes an
edge from what it uses to it.

The graph is read from the chapter file (proofs.reader: its elements and every `<Ref>`,
or rendered `命題 3.1` citation, inside an element, statement or proof) and from the
checks' results (`run_results`, or `results_from_report` of `verify --json`). A
reference to another chapter or book is a node of its own, drawn dashed, inside a frame
of the chapter or book it cites. proofs.publish.map_layout places the nodes (Graphviz
dot when installed); the SVG is written here, in the book's figure style
(proofs.typeset.figures), every label whole (wrapped over lines, never cut), with a
legend of the nodes' shapes and colours.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from xml.sax.saxutils import escape

from proofs.publish.map_layout import Box, Layout, Sketch, layer_of, layered_layout
from proofs.publish.map_layout import layout as laid_out
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
# the legend's words for the shapes, in the order the legend shows them
SHAPE_NAMES = {
    "box": "definition",
    "ellipse": "proposition, lemma, theorem, corollary",
    "rounded": "example, exercise",
    "note": "remark",
}
EXTERNAL_NAME = "another chapter or book"
ELSEWHERE = "elsewhere"  # the group of a reference that names no chapter or book
WIDTH, HEIGHT = 104, 34  # a node of one line
GROUP_ROOM = 150  # a group's label's lines at most (dot widens the frame to hold them)
FONT, LINE = 12, 15  # a label's size and the distance between its lines' baselines
PAD = 6  # between a label and its node's outline
FRAME = 'fill="none"'  # a group's frame
LEGEND_SWATCH, LEGEND_GAP = 30, 18  # a legend sample's width, between two entries


@dataclass(frozen=True)
class Node:
    key: str  # the element's number (命題 3.2), or an external reference's target
    label: str
    kind: str  # a kind of proofs.book.registry.KINDS, or "external"
    result: str  # one of RESULTS, or "external"
    title: str = ""  # the element's title, or the reference in full (a tooltip in the SVG)
    group: str = ""  # an external node's chapter or book, as cited


@dataclass(frozen=True)
class ChapterMap:
    title: str
    nodes: tuple[Node, ...]  # the chapter's elements in its order, then the external nodes
    edges: tuple[tuple[str, str], ...]  # (the element citing, the node cited), sorted


def _external_label(target: str, chapter: str) -> str:
    """命題 3.1 of 命題 3.1［別の章］ (its chapter names its group); an MDX path by its
    anchor."""
    if "#" in target:
        return target.partition("#")[2]
    return target


def _external_group(target: str, chapter: str) -> str:
    """The chapter or book a reference cites: 別の章 of 命題 3.1［別の章］, the page of
    an MDX path (mathematics/linear-algebra/determinants#def-sign); "" when it names
    none."""
    if "#" in target:
        return target.partition("#")[0]
    return chapter


def references(document: Document) -> list[tuple[str, str, str, str]]:
    """(the citing element's number, the node cited, its label, the chapter or book it
    is in, "" for this one) of every reference inside an element; a reference to the
    chapter's own element is cited by its number."""
    out = []
    for ref in document.refs:
        source = document.element_at(ref.line)
        if source is None:
            continue
        target = None if ref.external else document.element(ref.target)
        if target is not None:
            out.append((source.number, target.number, target.number, ""))
        else:
            cited_as = ref.chapter and ref.chapter not in ref.target  # rendered: 命題 3.1［…］
            key = f"{ref.target}［{ref.chapter}］" if cited_as else ref.target
            group = _external_group(ref.target, ref.chapter)
            out.append((source.number, key, _external_label(ref.target, ref.chapter), group))
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
    external = dict.fromkeys(
        (key, label, group) for _, key, label, group in cited if key not in own
    )
    nodes += [
        Node(key, label, "external", results.get(key, "external"), key, group or ELSEWHERE)
        for key, label, group in external
    ]
    edges = sorted({(source, target) for source, target, _, _ in cited})
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


def text_width(text: str) -> int:
    """The width of text at 12 px: a wide character 12, another 7 (a bound on DejaVu
    Sans and Noto Sans CJK at that size, as drawn in the PNGs)."""
    return sum(12 if unicodedata.east_asian_width(c) in "WF" else 7 for c in text)


BREAKS = "-/_ ・、，,"  # a line may break after these, best after a slash or a space
FIRST_BREAKS = "/ "
NO_START = "ー・、。，）」』ぁぃぅぇぉゃゅょっァィゥェォャュョッ"  # nor may a line open with these


def _greedy(text: str, room: int) -> list[str]:
    """The text over lines of at most `room` px, each filled as far as it goes, broken
    after the last break character on it when there is one."""
    lines: list[str] = []
    line, used = "", 0
    for char in text:
        wide = text_width(char)
        if line and used + wide > room:
            cut = max(line.rfind(b) for b in FIRST_BREAKS) + 1
            if cut <= 0:
                cut = max(line.rfind(b) for b in BREAKS) + 1
            if not 0 < cut < len(line):
                cut = len(line)
                while cut > 1 and (line + char)[cut] in NO_START:
                    cut -= 1
            lines.append(line[:cut])
            line = line[cut:].lstrip(" ")
            used = text_width(line)
            if char == " " and not line:
                continue
        line += char
        used += wide
    lines.append(line)
    return [part.rstrip() for part in lines if part.strip()] or [""]


def wrapped(text: str, room: int = WIDTH - 2 * PAD) -> list[str]:
    """The text whole over as few lines as fit `room` at 12 px: broken after a hyphen,
    slash, space or comma where the line has one; a text without any, in lines as even
    as they can be, none opening with a prolonged sound mark or a small kana.

    >>> wrapped("prop-inner-product-variance")
    ['prop-inner-', 'product-', 'variance']
    >>> wrapped("ニューラルネットワークと逆伝播", 108)
    ['ニューラルネット', 'ワークと逆伝播']
    """
    lines = _greedy(text, room)
    if any(b in text for b in BREAKS):
        return lines
    narrow = room
    while narrow > 12 and len(_greedy(text, narrow - 1)) == len(lines):
        narrow -= 1
    return _greedy(text, narrow)


def node_size(node: Node) -> tuple[int, int]:
    """A node's width and height: WIDTH wide, tall enough for its label's lines (an
    ellipse enough for the lines' box to stand inside it)."""
    lines = wrapped(node.label)
    half_height = len(lines) * LINE / 2
    height = max(HEIGHT, 2 * half_height + 2 * PAD)
    if SHAPES[node.kind] == "ellipse":
        half_width = max(text_width(line) for line in lines) / 2
        inside = 1 - (half_width / (WIDTH / 2)) ** 2  # (x/a)^2 + (y/b)^2 <= 1 at the corner
        height = max(HEIGHT, 2 * half_height / math.sqrt(inside) + 2)
    return WIDTH, int(math.ceil(height))


def group_label(group: str) -> list[str]:
    """A group's frame label: the chapter or book, over lines at most GROUP_ROOM wide."""
    return wrapped(group, GROUP_ROOM)


def sketch_of(graph: ChapterMap) -> Sketch:
    """What the layout places: every node at its size, the external nodes in their
    chapter's or book's group, an edge from each node cited to the node citing it."""
    index = {n.key: k for k, n in enumerate(graph.nodes)}
    groups = tuple(n.group for n in graph.nodes)
    return Sketch(
        tuple(node_size(n) for n in graph.nodes),
        groups,
        tuple((index[target], index[source]) for source, target in graph.edges),
        tuple(
            (g, max(map(text_width, group_label(g))) + 4.0, len(group_label(g)) * LINE + 4.0)
            for g in dict.fromkeys(groups)
            if g
        ),
        frozenset(k for k, n in enumerate(graph.nodes) if SHAPES[n.kind] == "ellipse"),
    )


@lru_cache(maxsize=16)
def map_layout(graph: ChapterMap) -> Layout:
    """The map's layout: dot's when Graphviz is installed, else the layered one."""
    return laid_out(sketch_of(graph))


def layers(graph: ChapterMap) -> dict[str, int]:
    """Each node's layer in the layered layout (map_layout.layer_of), by key."""
    return dict(zip((n.key for n in graph.nodes), layer_of(sketch_of(graph)), strict=True))


def positions(graph: ChapterMap) -> dict[str, tuple[float, float]]:
    """The centre of each node, by key, as map_svg draws it."""
    drawn = map_layout(graph)
    return {n.key: (b.x, b.y) for n, b in zip(graph.nodes, drawn.boxes, strict=True)}


def previous_layout(graph: ChapterMap) -> Layout:
    """The layered layout without the groups: the external nodes in the order they are
    first cited, as the maps were laid out before dot (benchmarks/map_layout.py)."""
    sketch = sketch_of(graph)
    ungrouped = Sketch(
        sketch.sizes, tuple("" for _ in sketch.groups), sketch.edges, (), sketch.ellipses
    )
    external = tuple(n.kind == "external" for n in graph.nodes)
    return layered_layout(ungrouped, external)


# SVG -----------------------------------------------------------------------------------


def _number(value: float) -> str:
    """A coordinate as the SVG writes it: a whole number bare, else to 2 places."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _shape(shape: str, box: Box, style: str) -> str:
    """An outline of a shape filling the box."""
    x, y, w, h = (_number(v) for v in (box.x, box.y, box.width, box.height))
    left, top = _number(box.left), _number(box.top)
    if shape == "ellipse":
        rx, ry = _number(box.width / 2), _number(box.height / 2)
        return f'<ellipse cx="{x}" cy="{y}" rx="{rx}" ry="{ry}" {style} />'
    if shape == "note":  # a box with its top-right corner cut
        corner = min(10.0, box.height / 3)
        points = [
            (box.left, box.top),
            (box.right - corner, box.top),
            (box.right, box.top + corner),
            (box.right, box.bottom),
            (box.left, box.bottom),
        ]
        listed = " ".join(f"{_number(px)},{_number(py)}" for px, py in points)
        return f'<polygon points="{listed}" {style} />'
    rounded = f' rx="{_number(min(10.0, box.height / 3))}"' if shape == "rounded" else ""
    return f'<rect x="{left}" y="{top}" width="{w}" height="{h}"{rounded} {style} />'


def _node_style(kind: str, result: str) -> str:
    style = f'fill="{FILL[result]}"'
    return style + (' stroke-dasharray="4 3"' if kind == "external" else "")


def _edge(curve: tuple[tuple[float, float], ...]) -> list[str]:
    """The edge's curve and its arrowhead, from the curve's end to its tip."""
    *spline, tip = curve
    moves = [f"M{_number(spline[0][0])},{_number(spline[0][1])}"]
    for k in range(1, len(spline), 3):
        points = " ".join(f"{_number(px)},{_number(py)}" for px, py in spline[k : k + 3])
        moves.append(f"C{points}")
    base = spline[-1]
    dx, dy = tip[0] - base[0], tip[1] - base[1]
    length = max(math.hypot(dx, dy), 1e-9)
    ux, uy = dx / length, dy / length
    head = [
        tip,
        (base[0] + 4 * uy, base[1] - 4 * ux),
        (base[0] - 4 * uy, base[1] + 4 * ux),
    ]
    listed = " ".join(f"{_number(px)},{_number(py)}" for px, py in head)
    return [
        f'    <path d="{" ".join(moves)}" />',
        f'    <polygon points="{listed}" fill="currentColor" />',
    ]


def _lines(lines: list[str], x: float, middle: float, anchor: str = "") -> list[str]:
    """Text lines centred on `middle`, one below the other."""
    first = middle - (len(lines) - 1) * LINE / 2 + FONT / 3
    extra = f' text-anchor="{anchor}"' if anchor else ""
    return [
        f'    <text x="{_number(x)}" y="{_number(first + k * LINE)}"{extra}>{_xml(line)}</text>'
        for k, line in enumerate(lines)
    ]


def map_svg(graph: ChapterMap) -> str:
    """The map as SVG: the groups' frames, the edges under the nodes, every label whole,
    the legend below."""
    drawn = map_layout(graph)
    entries = legend_entries(graph)
    legend_top = drawn.height
    width = max(drawn.width, 560.0)
    rows = _legend_rows(entries, width)
    height = legend_top + len(rows) * (LINE + 8) + 16
    label = _xml(f"{graph.title}: 要素と参照の地図", {'"': "&quot;"})
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_number(width)} '
        f'{_number(height)}" width="{_number(width)}" role="img" aria-label="{label}">',
        '  <g fill="none" stroke="currentColor" stroke-width="0.8" opacity="0.5">',
    ]
    out += [f"    {_shape('rounded', box, FRAME)}" for _, box, _ in drawn.groups]
    out += ["  </g>", '  <g fill="currentColor" font-size="11" text-anchor="middle">']
    for group, _, (x, y) in drawn.groups:
        out += _lines(group_label(group), x, y)
    out += ["  </g>", '  <g fill="none" stroke="currentColor" stroke-width="0.8" opacity="0.6">']
    for curve in drawn.curves:
        out += _edge(curve)
    out += ["  </g>", '  <g stroke="currentColor" stroke-width="1.2">']
    for node, box in zip(graph.nodes, drawn.boxes, strict=True):  # each with its tooltip
        named = node.kind != "external" and node.title
        tooltip = _xml(f"{node.key}（{node.title}）" if named else node.title or node.key)
        shape = _shape(SHAPES[node.kind], box, _node_style(node.kind, node.result))
        out += [f"    <g><title>{tooltip}</title>", f"    {shape}", "    </g>"]
    out += ["  </g>", f'  <g fill="currentColor" font-size="{FONT}" text-anchor="middle">']
    for node, box in zip(graph.nodes, drawn.boxes, strict=True):
        out += _lines(wrapped(node.label), box.x, box.y)
    out += ["  </g>", *_legend(rows, legend_top), "</svg>"]
    return "\n".join(out)


# the characters XML 1.0 does not allow even as references: C0 controls but TAB, LF and
# CR, lone surrogates, U+FFFE and U+FFFF
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str, entities: Mapping[str, str] | None = None) -> str:
    """Chapter text as XML character data (or, with the quote entity, an attribute): the
    markup characters escaped and those XML cannot hold shown as U+FFFD."""
    return escape(_NOT_XML.sub("\ufffd", text), entities or {})


# Legend --------------------------------------------------------------------------------


def legend_entries(graph: ChapterMap) -> list[tuple[str, str, str]]:
    """(shape, fill, words) of each entry: every shape and the dashed outline of another
    chapter's node, then every result's colour."""
    shapes = [(shape, FILL["unchecked"], words) for shape, words in SHAPE_NAMES.items()]
    shapes.append(("external", "none", EXTERNAL_NAME))
    return shapes + [("swatch", FILL[result], result) for result in RESULTS]


def _legend_rows(entries: list[tuple[str, str, str]], width: float) -> list[list[tuple]]:
    """The entries in rows that fit the width, the shapes and the colours apart."""
    rows: list[list[tuple]] = []
    for part in (entries[: -len(RESULTS)], entries[-len(RESULTS) :]):
        used = width
        for entry in part:
            wide = LEGEND_SWATCH + 6 + text_width(entry[2]) + LEGEND_GAP
            if used + wide > width - 24:
                rows.append([])
                used = 24.0
            rows[-1].append(entry)
            used += wide
    return rows


def _legend(rows: list[list[tuple]], top: float) -> list[str]:
    """The legend: a sample of each shape and colour with its words."""
    out = ['  <g stroke="currentColor" stroke-width="1.2" font-size="12">']
    for r, row in enumerate(rows):
        y = top + r * (LINE + 8) + 8
        x = 24.0
        for shape, fill, words in row:
            box = Box(x + LEGEND_SWATCH / 2, y + 7, LEGEND_SWATCH, 14)
            if shape == "swatch":
                box = Box(x + 7, y + 7, 14, 14)
                drawn = _shape("box", box, f'fill="{fill}"')
            elif shape == "external":
                drawn = _shape("rounded", box, _node_style("external", "external"))
            else:
                drawn = _shape(shape, box, f'fill="{fill}"')
            out.append(f"    {drawn}")
            text_x = box.right + 6
            out.append(
                f'    <text x="{_number(text_x)}" y="{_number(y + 11)}" fill="currentColor" '
                f'stroke="none">{_xml(words)}</text>'
            )
            x = text_x + text_width(words) + LEGEND_GAP
    out.append("  </g>")
    return out
