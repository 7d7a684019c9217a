"""Where a chapter map's nodes, edges and groups stand, and how good a place that is.

Two engines lay out a `Sketch` (the nodes' sizes and groups, the edges from the node used
to the node using it): Graphviz's `dot` when the program is installed and runs
(`dot_layout`, a subprocess given no chapter text, ranks left to right, each group a
cluster, its JSON read back), else `layered_layout` in pure Python (an element one layer
below the lowest earlier element it uses, the other chapters' nodes on top, framed by
group). `crossings` and `edges_through_nodes` measure a layout without judging it;
benchmarks/map_layout.py prints them for every candidate on the seed chapters (dot was
chosen: 8 % and 13 % of the previous layout's crossings, no edge through a node).
Coordinates are SVG units, y downwards; an edge is a cubic Bézier (3k + 1 control points)
ending at the base of its arrowhead, then the arrowhead's tip.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

Point = tuple[float, float]

DOT = "dot"
GAP, LAYER_GAP, MARGIN = 14, 40, 24  # between nodes, between layers, around the map
DOT_GAP = 22  # between dot's nodes of one rank: room for two groups' frames
FRAME_INSET = 3  # a group's frame inside dot's box of its cluster
GROUP_PAD = 8  # between a group's frame and its nodes
ARROW = 8  # an arrowhead's length
ROW = 9  # nodes in a row at most, in the layered layout
SWEEPS = 2  # the layered layout's reorderings of the groups by where their users stand
RANKDIRS = ("LR", "TB")  # dot's ranks: left to right, top to bottom


@dataclass(frozen=True)
class Box:
    """A rectangle by its centre and size."""

    x: float
    y: float
    width: float
    height: float

    @property
    def left(self) -> float:
        return self.x - self.width / 2

    @property
    def top(self) -> float:
        return self.y - self.height / 2

    @property
    def right(self) -> float:
        return self.x + self.width / 2

    @property
    def bottom(self) -> float:
        return self.y + self.height / 2


@dataclass(frozen=True)
class Sketch:
    """What a layout is asked to place: nodes in the chapter's order (their sizes and
    groups, "" for none), the edges between them by index, and the width and height a
    group's label takes above its nodes."""

    sizes: tuple[tuple[float, float], ...]
    groups: tuple[str, ...]
    edges: tuple[tuple[int, int], ...]  # (the node used, the node using it)
    group_heads: tuple[tuple[str, float, float], ...] = ()  # a group's label: its size
    ellipses: frozenset[int] = frozenset()  # the nodes drawn as ellipses, not boxes

    def __post_init__(self) -> None:
        if len(self.sizes) != len(self.groups):
            raise ValueError(
                f"sizes and groups must be as many, got {len(self.sizes)} and {len(self.groups)}"
            )
        bad = [e for e in self.edges if not all(0 <= k < len(self.sizes) for k in e)]
        if bad:
            raise ValueError(f"edges must join nodes 0..{len(self.sizes) - 1}, got {bad}")


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    boxes: tuple[Box, ...]  # one per node of the sketch
    curves: tuple[tuple[Point, ...], ...]  # one per edge: Bézier points, the last the tip
    groups: tuple[tuple[str, Box, Point], ...]  # each group's frame and its label's centre
    engine: str


def dot_available() -> bool:
    """Whether Graphviz's dot is on the PATH."""
    return shutil.which(DOT) is not None


def layout(sketch: Sketch) -> Layout:
    """The sketch laid out by dot when it is installed and works, else by the layered
    layout: a map is drawn whatever the machine has."""
    if dot_available():
        try:
            return dot_layout(sketch)
        except RuntimeError:
            pass
    return layered_layout(sketch)


# Graphviz dot --------------------------------------------------------------------------


def dot_source(sketch: Sketch, rankdir: str = "LR") -> str:
    """The sketch as a DOT graph: nodes named n0, n1, … (no chapter text reaches dot),
    fixed at their sizes in inches (72 units), each group a cluster whose label is an
    empty cell of the size its label takes; ranks left to right (LR) or top to bottom
    (TB)."""
    if rankdir not in RANKDIRS:
        raise ValueError(f"rankdir must be one of {RANKDIRS}, got {rankdir!r}")
    heads = {group: (width, height) for group, width, height in sketch.group_heads}
    lines = [
        "digraph map {",
        f"  graph [rankdir={rankdir}, nodesep={DOT_GAP / 72:.4f}, ranksep={LAYER_GAP / 72:.4f}, "
        "margin=0];",
        '  node [shape=box, fixedsize=true, label=""];',
    ]
    for k, group in enumerate(dict.fromkeys(g for g in sketch.groups if g)):
        width, height = heads.get(group, (1.0, 1.0))
        cell = (
            '<table border="0" cellborder="0" cellspacing="0" cellpadding="0"><tr>'
            f'<td fixedsize="true" width="{math.ceil(width)}" height="{math.ceil(height)}">'
            "</td></tr></table>"
        )
        lines.append(f"  subgraph cluster_{k} {{ margin={GROUP_PAD + FRAME_INSET}; label=<{cell}>;")
        lines += [f"    n{i};" for i, g in enumerate(sketch.groups) if g == group]
        lines.append("  }")
    for i, (width, height) in enumerate(sketch.sizes):
        shape = ", shape=ellipse" if i in sketch.ellipses else ""
        lines.append(f"  n{i} [width={width / 72:.4f}, height={height / 72:.4f}{shape}];")
    lines += [f"  n{a} -> n{b};" for a, b in sketch.edges]
    lines.append("}")
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=16)
def dot_layout(sketch: Sketch, rankdir: str = "LR") -> Layout:
    """The sketch laid out by `dot -Tjson`. RuntimeError when dot fails."""
    source = dot_source(sketch, rankdir)
    try:
        run = subprocess.run(
            [DOT, "-Tjson"],
            input=source,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RuntimeError(f"Graphviz dot could not run: {exc}") from exc
    if run.returncode:
        raise RuntimeError(f"Graphviz dot failed: {run.stderr.strip()}")
    return read_dot_json(json.loads(run.stdout), sketch)


def _numbers(text: str) -> list[float]:
    return [float(v) for v in text.replace(",", " ").split()]


def read_dot_json(drawn: Mapping, sketch: Sketch) -> Layout:
    """A layout from dot's JSON of `dot_source(sketch)`: y flipped downwards, shifted by
    the margin."""
    _, _, right, top = _numbers(drawn["bb"])

    def at(x: float, y: float) -> Point:
        return (round(x + MARGIN, 2), round(top - y + MARGIN, 2))

    objects = drawn.get("objects", [])
    boxes: dict[int, Box] = {}
    names: dict[int, int] = {}
    groups = []
    cluster_names = list(dict.fromkeys(g for g in sketch.groups if g))
    for gvid, item in enumerate(objects):
        name = item.get("name", "")
        if name.startswith("cluster_"):
            x1, y1, x2, y2 = _numbers(item["bb"])
            (left, bottom), (right_, up) = at(x1, y1), at(x2, y2)
            inset = 2 * FRAME_INSET  # two groups' frames side by side do not touch
            frame = Box(
                (left + right_) / 2, (up + bottom) / 2, right_ - left - inset, bottom - up - inset
            )
            label = at(*_numbers(item["lp"]))
            groups.append((cluster_names[int(name.removeprefix("cluster_"))], frame, label))
        elif name.startswith("n"):
            k = int(name[1:])
            names[gvid] = k
            x, y = at(*_numbers(item["pos"]))
            boxes[k] = Box(x, y, *sketch.sizes[k])
    curves: dict[tuple[int, int], list[tuple[Point, ...]]] = {}
    for edge in drawn.get("edges", []):
        key = (names[edge["tail"]], names[edge["head"]])
        tip, *points = edge["pos"].split()
        if not tip.startswith("e,"):
            raise ValueError(f"dot drew edge {key} without its arrowhead: {edge['pos']!r}")
        spline = [at(*_numbers(p)) for p in points]
        curves.setdefault(key, []).append((*spline, at(*_numbers(tip[2:]))))
    ordered = tuple(curves[e].pop(0) for e in sketch.edges)
    return Layout(
        right + 2 * MARGIN,
        top + 2 * MARGIN,
        tuple(boxes[k] for k in range(len(sketch.sizes))),
        ordered,
        tuple(groups),
        "dot",
    )


# The layered layout in pure Python -----------------------------------------------------


def layer_of(sketch: Sketch, top: Sequence[bool] | None = None) -> list[int]:
    """Each node's layer: a node on `top` (by default a grouped one, another chapter's) in
    0, any other one below the lowest earlier node it uses that is not on top (in 1 when
    it uses none; a forward citation does not move it, so the layering has no cycle)."""
    on_top = [bool(g) for g in sketch.groups] if top is None else list(top)
    layer = [0] * len(sketch.sizes)
    for k in range(len(layer)):
        if not on_top[k]:
            used = [a for a, b in sketch.edges if b == k and a < k and not on_top[a]]
            layer[k] = 1 + max((layer[a] for a in used), default=0)
    return layer


def _rows(ordered: list[int], groups: tuple[str, ...]) -> list[list[int]]:
    """A layer's nodes in rows of at most ROW, a group kept in one row where it fits in
    one (a larger group takes rows of its own)."""
    rows: list[list[int]] = [[]]
    for group in dict.fromkeys(groups[k] for k in ordered):
        members = [k for k in ordered if groups[k] == group] if group else []
        if not group:  # ungrouped nodes: wrapped after ROW
            for k in (k for k in ordered if not groups[k]):
                if len(rows[-1]) == ROW:
                    rows.append([])
                rows[-1].append(k)
            continue
        if len(rows[-1]) + len(members) > ROW and rows[-1]:
            rows.append([])
        for start in range(0, len(members), ROW):
            if start:
                rows.append([])
            rows[-1] += members[start : start + ROW]
    return [row for row in rows if row]


def layered_layout(sketch: Sketch, on_top: Sequence[bool] | None = None) -> Layout:
    """Layers top to bottom (`layer_of`); the grouped nodes first, each group in a frame,
    the groups in the order, of the SWEEPS + 1 tried, that crosses fewest edges: by name,
    then each time by where the nodes using them stood in the last; each layer's nodes
    ordered by the mean place in its row of the nodes they use above them (the chapter's
    order breaking ties) and wrapped after ROW nodes; straight edges."""
    tried = [_layered(sketch, on_top, {})]
    if not any(sketch.groups):
        return tried[0]
    for _ in range(SWEEPS):
        users: dict[str, list[float]] = {}
        for a, b in sketch.edges:
            if sketch.groups[a] and not sketch.groups[b]:
                users.setdefault(sketch.groups[a], []).append(tried[-1].boxes[b].x)
        where = {group: sum(xs) / len(xs) for group, xs in users.items()}
        tried.append(_layered(sketch, on_top, where))
    return min(tried, key=lambda drawn: crossings(sketch, drawn))


def _layered(sketch: Sketch, on_top: Sequence[bool] | None, where: Mapping[str, float]) -> Layout:
    """The layered layout, the groups ordered by `where` (then by name)."""
    layer = layer_of(sketch, on_top)
    heads = {group: height for group, _, height in sketch.group_heads}
    label_widths = {group: width for group, width, _ in sketch.group_heads}
    place: dict[int, float] = {}
    boxes: dict[int, Box] = {}
    y_top = float(MARGIN)
    for depth in range(max(layer, default=-1) + 1):
        here = [k for k in range(len(layer)) if layer[k] == depth]

        def anchor(k: int) -> tuple[float, str, float, int]:
            above = [place[a] for a, b in sketch.edges if b == k and a in place]
            mean = sum(above) / len(above) if above else k / ROW
            return (where.get(sketch.groups[k], 0.0), sketch.groups[k], mean, k)

        for row in _rows(sorted(here, key=anchor), sketch.groups):
            head = max((heads.get(sketch.groups[k], 0.0) for k in row), default=0.0)
            pad = GROUP_PAD if any(sketch.groups[k] for k in row) else 0
            tall = max(sketch.sizes[k][1] for k in row)
            y = y_top + pad + head + tall / 2
            x = float(MARGIN + pad)
            for j, k in enumerate(row):
                group = sketch.groups[k]
                if j and group != sketch.groups[row[j - 1]]:
                    x += 2 * GROUP_PAD  # room for two frames between groups
                if group and (j == 0 or group != sketch.groups[row[j - 1]]):
                    x += _spare(sketch, row, j, label_widths.get(group, 0.0)) / 2
                width, height = sketch.sizes[k]
                boxes[k] = Box(x + width / 2, y, width, height)
                place[k] = float(j)
                x += width + GAP
                if group and (j == len(row) - 1 or group != sketch.groups[row[j + 1]]):
                    first = next(i for i in range(j + 1) if sketch.groups[row[i]] == group)
                    x += _spare(sketch, row, first, label_widths.get(group, 0.0)) / 2
            y_top = y + tall / 2 + pad + LAYER_GAP
    frames = []
    for group in dict.fromkeys(g for g in sketch.groups if g):
        members = [boxes[k] for k, g in enumerate(sketch.groups) if g == group]
        head = heads.get(group, 0.0)
        middle = (min(b.left for b in members) + max(b.right for b in members)) / 2
        half = max(max(b.right for b in members) - middle, label_widths.get(group, 0.0) / 2)
        left, right = middle - half - GROUP_PAD, middle + half + GROUP_PAD
        up = min(b.top for b in members) - GROUP_PAD - head
        down = max(b.bottom for b in members) + GROUP_PAD
        frame = Box((left + right) / 2, (up + down) / 2, right - left, down - up)
        frames.append((group, frame, (frame.x, up + GROUP_PAD / 2 + head / 2)))
    every = [boxes[k] for k in range(len(sketch.sizes))] + [b for _, b, _ in frames]
    width = max((b.right for b in every), default=0.0) + MARGIN
    height = max((b.bottom for b in every), default=0.0) + MARGIN
    curves = tuple(_straight(boxes[a], boxes[b]) for a, b in sketch.edges)
    return Layout(
        width,
        height,
        tuple(boxes[k] for k in range(len(sketch.sizes))),
        curves,
        tuple(frames),
        "layered",
    )


def _spare(sketch: Sketch, row: list[int], first: int, label: float) -> float:
    """How much wider than the nodes of its group from row[first] on its label is."""
    group = sketch.groups[row[first]]
    widths = []
    for k in row[first:]:
        if sketch.groups[k] != group:
            break
        widths.append(sketch.sizes[k][0])
    return max(0.0, label - (sum(widths) + GAP * (len(widths) - 1)))


def _straight(start: Box, end: Box) -> tuple[Point, ...]:
    """A straight edge from the bottom of `start` to the top of `end` (the sides when they
    share a row, the top and bottom for an edge going up), as a Bézier, then the tip."""
    if start.y == end.y:
        step = 1 if end.x > start.x else -1
        a, b = (start.x + step * start.width / 2, start.y), (end.x - step * end.width / 2, end.y)
    elif start.y < end.y:
        a, b = (start.x, start.bottom), (end.x, end.top)
    else:
        a, b = (start.x, start.top), (end.x, end.bottom)
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = max((dx * dx + dy * dy) ** 0.5, 1.0)
    base = (b[0] - ARROW * dx / length, b[1] - ARROW * dy / length)
    return (
        a,
        (a[0] + (base[0] - a[0]) / 3, a[1] + (base[1] - a[1]) / 3),
        (a[0] + 2 * (base[0] - a[0]) / 3, a[1] + 2 * (base[1] - a[1]) / 3),
        base,
        b,
    )


# Measures ------------------------------------------------------------------------------


def polyline(curve: Sequence[Point], steps: int = 12) -> list[Point]:
    """An edge as the line through `steps` points of each Bézier piece, then its tip."""
    *spline, tip = curve
    out = [spline[0]]
    for k in range(0, len(spline) - 3, 3):
        p0, p1, p2, p3 = spline[k : k + 4]
        if _orientation(p0, p3, p1) == 0 == _orientation(p0, p3, p2):  # a straight piece
            out.append(p3)
            continue
        for s in range(1, steps + 1):
            t = s / steps
            u = 1 - t
            out.append(
                (
                    u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
                    u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
                )
            )
    out.append(tip)
    return out


def _orientation(p: Point, q: Point, r: Point) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ab and cd cross at a point inside both (touching is not crossing).

    >>> segments_cross((0, 0), (2, 2), (0, 2), (2, 0))
    True
    >>> segments_cross((0, 0), (1, 1), (1, 1), (2, 0))  # they touch at (1, 1)
    False
    """
    d1, d2 = _orientation(c, d, a), _orientation(c, d, b)
    d3, d4 = _orientation(a, b, c), _orientation(a, b, d)
    return d1 * d2 < 0 and d3 * d4 < 0


def _meet_once(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ab and cd, each without its end point (which the next segment
    of its line holds), meet at a point; parallel segments never do here."""
    r = (b[0] - a[0], b[1] - a[1])
    s = (d[0] - c[0], d[1] - c[1])
    denominator = r[0] * s[1] - r[1] * s[0]
    if denominator == 0:
        return False
    q = (c[0] - a[0], c[1] - a[1])
    t = (q[0] * s[1] - q[1] * s[0]) / denominator
    u = (q[0] * r[1] - q[1] * r[0]) / denominator
    return 0 <= t < 1 and 0 <= u < 1


def crossings(sketch: Sketch, drawn: Layout) -> int:
    """How many times two edges of the drawn layout cross, over every pair of edges that
    share no node (two edges of one node meet there by design)."""
    lines = [polyline(c) for c in drawn.curves]
    count = 0
    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            if set(sketch.edges[i]) & set(sketch.edges[j]):
                continue
            p, q = lines[i], lines[j]
            count += sum(
                _meet_once(p[s], p[s + 1], q[t], q[t + 1])
                for s in range(len(p) - 1)
                for t in range(len(q) - 1)
            )
    return count


def _meets_box(a: Point, b: Point, box: Box) -> bool:
    """Whether segment ab passes through the inside of the box."""
    corners = [
        (box.left, box.top),
        (box.right, box.top),
        (box.right, box.bottom),
        (box.left, box.bottom),
    ]
    inside = [box.left < p[0] < box.right and box.top < p[1] < box.bottom for p in (a, b)]
    return any(inside) or any(
        segments_cross(a, b, corners[k], corners[(k + 1) % 4]) for k in range(4)
    )


def edges_through_nodes(sketch: Sketch, drawn: Layout) -> int:
    """How many (edge, node) pairs have the edge pass through a node it does not join."""
    count = 0
    for (a, b), curve in zip(sketch.edges, drawn.curves, strict=True):
        line = polyline(curve)
        for k, box in enumerate(drawn.boxes):
            if k not in (a, b) and any(
                _meets_box(line[s], line[s + 1], box) for s in range(len(line) - 1)
            ):
                count += 1
    return count
