"""The book's hand-drawn SVG figures (proofs.typeset.figures, the chapter map) drawn again with
matplotlib, for the PDF and PNG files of the `figures` command.

Those SVGs use a small subset, which this module reads with ElementTree: `<g>` groups
whose fill, stroke, stroke-width, opacity, font-size and text-anchor their children
inherit, and `<rect>` (rx for rounded corners), `<ellipse>`, `<polygon>`, `<line>`,
`<path>` (absolute M and C commands: the maps' curved edges), `<text>` in viewBox units
(one unit = one CSS pixel, 1/96 inch). The theme's colours are
fixed for paper: var(--sl-color-accent) is `plotting.ACCENT`, currentColor black. An
element outside the subset is a ValueError, never a silently missing stroke.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any

from proofs.typeset.plotting import ACCENT, new_figure

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SVG = "{http://www.w3.org/2000/svg}"
INHERITED = (
    "fill",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "opacity",
    "font-size",
    "text-anchor",
    "font-weight",
)
POINTS_PER_UNIT = 72 / 96
ANCHORS = {"start": "left", "middle": "center", "end": "right"}


def _colour(value: str | None) -> str:
    if value in (None, "none"):
        return "none"
    if value == "currentColor":
        return "black"
    if value is not None and value.startswith("var("):
        return ACCENT
    return value


def _dashes(value: str | None) -> Any:
    if not value:
        return "solid"
    return (0, tuple(float(v) for v in value.replace(",", " ").split()))


def _draw(ax: Axes, node: ET.Element, style: dict[str, str]) -> None:
    from matplotlib import patches

    tag = node.tag.removeprefix(SVG)
    style = {**style, **{k: v for k, v in node.attrib.items() if k in INHERITED}}
    if tag in ("g", "svg"):
        for child in node:
            _draw(ax, child, style)
        return
    if tag in ("title", "desc"):
        return
    number = {
        k: float(v)
        for k, v in node.attrib.items()
        if k in ("x", "y", "width", "height", "rx", "cx", "cy", "ry", "x1", "y1", "x2", "y2")
    }
    paint = {
        "facecolor": _colour(style.get("fill", "black")),
        "edgecolor": _colour(style.get("stroke")),
        "linewidth": float(style.get("stroke-width", 1)) * POINTS_PER_UNIT,
        "linestyle": _dashes(style.get("stroke-dasharray")),
        "alpha": float(style.get("opacity", 1)),
    }
    if tag == "rect":
        radius = number.get("rx", 0.0)
        ax.add_patch(
            patches.FancyBboxPatch(
                (number["x"], number["y"]),
                number["width"],
                number["height"],
                boxstyle=f"round,pad=0,rounding_size={radius}" if radius else "square,pad=0",
                **paint,
            )
        )
    elif tag == "ellipse":
        ax.add_patch(
            patches.Ellipse(
                (number["cx"], number["cy"]), 2 * number["rx"], 2 * number["ry"], **paint
            )
        )
    elif tag == "polygon":
        values = [float(v) for v in node.attrib["points"].replace(",", " ").split()]
        ax.add_patch(
            patches.Polygon(list(zip(values[::2], values[1::2], strict=True)), closed=True, **paint)
        )
    elif tag == "path":
        ax.add_patch(patches.PathPatch(path_of(node.attrib["d"]), **{**paint, "facecolor": "none"}))
    elif tag == "line":
        ax.plot(
            [number["x1"], number["x2"]],
            [number["y1"], number["y2"]],
            color=paint["edgecolor"],
            linewidth=paint["linewidth"],
            linestyle=paint["linestyle"],
            alpha=paint["alpha"],
            solid_capstyle="butt",
        )
    elif tag == "text":
        ax.text(
            number["x"],
            number["y"],
            node.text or "",
            color=paint["facecolor"],
            fontsize=float(style.get("font-size", 16)) * POINTS_PER_UNIT,
            ha=ANCHORS[style.get("text-anchor", "start")],
            va="baseline",
            fontweight=style.get("font-weight", "normal"),
            alpha=paint["alpha"],
        )
    else:
        raise ValueError(f"the SVG element <{tag}> is outside the subset drawn here")


def path_of(d: str) -> Any:
    """A matplotlib Path of an SVG path's data made of absolute M (move) and C (cubic
    Bézier) commands; any other command is a ValueError.

    >>> path_of("M0,0 C1,0 2,1 2,2").codes.tolist()
    [1, 4, 4, 4]
    """
    from matplotlib.path import Path

    vertices: list[tuple[float, float]] = []
    codes: list[Any] = []  # matplotlib's codes are numpy integers
    for command in re.findall(r"[A-Za-z][^A-Za-z]*", d.strip()):
        values = [float(v) for v in command[1:].replace(",", " ").split()]
        letter = command[0]
        if letter not in "MC" or len(values) % 2 or (letter == "C" and len(values) % 6):
            raise ValueError(f"the SVG path command {command.strip()!r} is outside the subset")
        pairs = list(zip(values[::2], values[1::2], strict=True))
        if letter == "M":
            codes += [Path.MOVETO] + [Path.LINETO] * (len(pairs) - 1)
        else:
            codes += [Path.CURVE4] * len(pairs)
        vertices += pairs
    if not codes or codes[0] != Path.MOVETO:
        raise ValueError(f"an SVG path must start with M, got {d!r}")
    return Path(vertices, codes)


def svg_figure(svg: str) -> Figure:
    """The figure of one of the book's SVGs (the subset above), its viewBox at 96 units
    an inch."""
    root = ET.fromstring(svg)
    _, _, width, height = (float(v) for v in root.attrib["viewBox"].split())
    figure = new_figure(width / 96, height / 96)
    figure.set_layout_engine("none")
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    _draw(ax, root, {})
    return figure


def standalone_svg(svg: str) -> str:
    """A book's SVG as a file of its own: the SVG namespace, a width in pixels instead of
    the page's 100 %, the theme's accent colour fixed (`plotting.ACCENT`).

    >>> svg = standalone_svg('<svg viewBox="0 0 8 4" width="100%"><rect '
    ...                      'fill="var(--sl-color-accent)" width="1" height="1" /></svg>')
    >>> svg.split(">")[0], "#4b6bd6" in svg
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 4" width="8"', True)
    """
    root = ET.fromstring(svg)
    width = root.attrib["viewBox"].split()[2]
    head, _, rest = svg.partition(">")
    head = head.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    head = head.replace('width="100%"', f'width="{width}"')
    return head + ">" + rest.replace("var(--sl-color-accent)", ACCENT) + "\n"
