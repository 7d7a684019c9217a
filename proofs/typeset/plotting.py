"""matplotlib for the chapters' plots: imported only when a plot is drawn, set up once,
and saved so that the same figure always gives the same bytes.

matplotlib is an optional extra (`pip install 'transformer-proofs[figures]'`); without
it `FiguresUnavailable` says so in one line. Every figure is drawn on a
`matplotlib.figure.Figure` of its own (no pyplot state) under `STYLE`: a fixed
`svg.hashsalt` for the SVG ids, SVG text kept as text (no font needed to read it), DejaVu
Sans for Latin letters and mathtext with Noto Sans CJK JP (Debian's `fonts-noto-cjk`) for
the chapters' Japanese in PDF and PNG. `render` drops the date and the software's
version from every format's metadata.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMATS = ("svg", "pdf", "png")
EXTRA = "pip install 'transformer-proofs[figures]'"
CREATOR = "transformer-proofs"
DPI = 150  # of a PNG

STYLE: dict[str, Any] = {
    "svg.hashsalt": CREATOR,
    "svg.fonttype": "none",
    "pdf.fonttype": 42,
    "font.family": ["DejaVu Sans", "Noto Sans CJK JP"],  # a glyph DejaVu lacks from Noto
    "mathtext.fontset": "dejavusans",
    "font.size": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
}

ACCENT = "#4b6bd6"  # what the book's theme colour var(--sl-color-accent) is drawn as
COLOURS = ("#4b6bd6", "#d6604b", "#3a9a5b", "#9a6bd6", "#c9a227", "#4bb6d6", "#d64b9a", "#7a7a7a")


class FiguresUnavailable(Exception):
    """matplotlib is not installed: one line naming the extra that brings it."""


def matplotlib_module() -> Any:
    """matplotlib with the Agg backend, or FiguresUnavailable naming the extra."""
    try:
        import matplotlib
    except ImportError as exc:
        raise FiguresUnavailable(
            f"figures need matplotlib, which is not installed: {EXTRA}"
        ) from exc
    matplotlib.use("Agg")
    return matplotlib


def new_figure(width: float, height: float) -> Figure:
    """An empty figure of width x height inches (drawn under STYLE by `render`)."""
    matplotlib_module()
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _metadata(fmt: str) -> dict[str, str | None]:
    """Each format's metadata without a date or a version: the same figure, the same bytes."""
    if fmt == "svg":
        return {"Date": None, "Creator": CREATOR}
    if fmt == "pdf":
        return {"CreationDate": None, "ModDate": None, "Creator": CREATOR, "Producer": CREATOR}
    return {"Software": None}


def render(draw: Callable[[], Figure], fmt: str) -> bytes:
    """The file, in the format (one of FORMATS), of the figure `draw` draws under STYLE,
    byte for byte reproducible."""
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {FORMATS}, got {fmt!r}")
    matplotlib = matplotlib_module()
    # a reproducible PDF embeds its fonts with their dates zeroed, which fontTools warns of
    logging.getLogger("fontTools.ttLib.tables._h_e_a_d").setLevel(logging.ERROR)
    buffer = io.BytesIO()
    with matplotlib.rc_context(STYLE):
        draw().savefig(buffer, format=fmt, metadata=_metadata(fmt), dpi=DPI)
    return buffer.getvalue()
