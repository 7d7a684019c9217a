"""Edge crossings of the chapter maps' layouts, measured on the two seed chapters.

For each chapter it prints, from one run, the layouts' edge crossings (two edges that
share no node crossing once count one), the (edge, node) pairs whose edge passes through
a node it does not join, and the drawing's size:
- previous: the layered layout the maps had before dot (the external nodes in the order
  they are cited, no frames; `maps.previous_layout`);
- layered: the same layout with the external nodes grouped by chapter, the groups
  ordered to cross fewest edges: what the maps fall back on without Graphviz;
- dot TB, dot LR: Graphviz's dot, ranks top to bottom and left to right (the maps' own);
- grandalf: grandalf 0.8's Sugiyama layout (pure Python), when it is installed; it has
  no clusters, so its groups are not framed.
The measures are proofs.publish.map_layout's `crossings` and `edges_through_nodes`, the
same that tests/publish/test_chapter_map.py holds the maps to.

Run from the repository root:

    python -m benchmarks.map_layout [--chapters DIR]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from proofs.book.locations import CHECKOUT_SEEDS
from proofs.publish.map_layout import (
    MARGIN,
    Box,
    Layout,
    Sketch,
    crossings,
    dot_available,
    dot_layout,
    edges_through_nodes,
    layered_layout,
)
from proofs.publish.maps import chapter_map, previous_layout, sketch_of
from proofs.reader import read_chapter

SEED_FILES = {
    "self-attention": "000_ce182fefa314a82b.txt",
    "transformer-block": "002_1f7cf506cffefce0.txt",
}


def grandalf_layout(sketch: Sketch) -> Layout:
    """The sketch laid out by grandalf's SugiyamaLayout, top to bottom, each connected
    part beside the last; edges as the polylines grandalf routes (straight pieces)."""
    from grandalf.graphs import Edge, Graph, Vertex
    from grandalf.layouts import SugiyamaLayout
    from grandalf.routing import route_with_lines

    class View:
        def __init__(self, width: float = 0.0, height: float = 0.0) -> None:
            self.w, self.h, self.xy = width, height, (0.0, 0.0)
            self.path: list = []

        def setpath(self, points: list) -> None:
            self.path = points

    vertices = [Vertex(k) for k in range(len(sketch.sizes))]
    for vertex, (width, height) in zip(vertices, sketch.sizes, strict=True):
        vertex.view = View(width, height)
    edges = [Edge(vertices[a], vertices[b]) for a, b in sketch.edges]
    for edge in edges:
        edge.view = View()
    graph = Graph(vertices, edges)
    offset = float(MARGIN)
    centres: dict[int, tuple[float, float]] = {}
    for part in graph.C:
        layout = SugiyamaLayout(part)
        layout.route_edge = route_with_lines
        layout.xspace, layout.yspace = 14, 40
        layout.init_all()
        layout.draw()
        members = list(part.sV)
        left = min(v.view.xy[0] - v.view.w / 2 for v in members)
        shift = offset - left
        for v in members:
            centres[v.data] = (v.view.xy[0] + shift, v.view.xy[1] + MARGIN + 20)
        for e in part.sE:
            e.view.path = [(x + shift, y + MARGIN + 20) for x, y in e.view.path]
        offset = max(centres[v.data][0] + v.view.w / 2 for v in members) + 14
    boxes = tuple(Box(*centres[k], *sketch.sizes[k]) for k in range(len(sketch.sizes)))
    curves = []
    for edge in edges:
        points = edge.view.path or [centres[edge.v[0].data], centres[edge.v[1].data]]
        curve = [points[0]]
        for a, b in zip(points, points[1:], strict=False):
            curve += [a, b, b]
        curves.append((*curve, points[-1]))
    width = max(b.right for b in boxes) + MARGIN
    height = max(b.bottom for b in boxes) + MARGIN
    return Layout(width, height, boxes, tuple(curves), (), "grandalf")


def measure(path: Path) -> dict[str, tuple[int, int, Layout]]:
    """Each layout of the chapter file's map: (crossings, edges through nodes, the
    layout), the ones whose program or package is missing left out."""
    graph = chapter_map(read_chapter(path), {})
    sketch = sketch_of(graph)
    layouts = {"previous": previous_layout(graph), "layered": layered_layout(sketch)}
    if dot_available():
        layouts["dot TB"] = dot_layout(sketch, "TB")
        layouts["dot LR"] = dot_layout(sketch, "LR")
    try:
        layouts["grandalf"] = grandalf_layout(sketch)
    except ImportError:
        pass
    return {
        name: (crossings(sketch, drawn), edges_through_nodes(sketch, drawn), drawn)
        for name, drawn in layouts.items()
    }


def main(argv: list[str] | None = None, write: Callable[[str], None] = print) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapters", type=Path, default=CHECKOUT_SEEDS)
    args = parser.parse_args(argv)
    files = {key: args.chapters / name for key, name in SEED_FILES.items()}
    missing = [str(path) for path in files.values() if not path.is_file()]
    if missing:
        parser.error(f"--chapters: no seed chapter at {', '.join(missing)}")
    write(f"{'chapter':<18} {'layout':<10} {'crossings':>9} {'through':>8} {'size':>11}")
    for key, path in files.items():
        measured = measure(path)
        if "dot LR" not in measured:
            write(f"{key:<18} dot        (not installed: apt-get install graphviz)")
        if "grandalf" not in measured:
            write(f"{key:<18} grandalf   (not installed: pip install grandalf==0.8)")
        before = measured["previous"][0]
        for name, (count, through, drawn) in measured.items():
            ratio = f"{count / before:.2f}x" if before else "-"
            size = f"{drawn.width:.0f}x{drawn.height:.0f}"
            write(f"{key:<18} {name:<10} {count:>9} {through:>8} {size:>11}  {ratio} of previous")


if __name__ == "__main__":
    main()
