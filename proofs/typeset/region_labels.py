"""Labels written inside the regions of a shaded grid, where no line drawn between the
regions crosses them.

A region's centroid is a poor place for its label when the region is small or thin: the
label's box reaches over the region's border and the border's line is drawn across it
(the 110 triangle of 命題 8.1's example). `fitting_centre` finds, on the grid itself,
the place nearest the centroid where the label's whole box, with a margin, stays inside
the region; `label_regions` measures each label as matplotlib draws it and writes it
there, at the largest of the sizes offered that fits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.text import Text

SIZES = (9.0, 8.0, 7.0, 6.0)  # a label's font sizes in points, tried in turn
MARGIN = 3.0  # points between a label's box and its region's border


def fitting_centre(
    region: np.ndarray, axis: np.ndarray, width: float, height: float
) -> tuple[float, float] | None:
    """The centre, nearest the region's centroid, of a `width` x `height` box (in the
    axis' units) every grid point under which, and under a cell around it, belongs to
    `region` (a boolean grid, region[i, j] at x = axis[j], y = axis[i]); None when the
    box fits nowhere.

    >>> axis = np.linspace(0.0, 1.0, 11)
    >>> lower = np.repeat(axis[:, None] < 0.5, axis.size, axis=1)  # the half y < 0.5
    >>> fitting_centre(lower, axis, 0.25, 0.25)
    (0.5, 0.2)
    >>> fitting_centre(lower, axis, 0.2, 0.6) is None
    True
    """
    if region.ndim != 2 or region.shape != (axis.size, axis.size) or region.dtype != np.bool_:
        raise ValueError(
            f"region must be a boolean grid of shape ({axis.size}, {axis.size}), "
            f"got {region.dtype} of shape {region.shape}"
        )
    if not (width > 0 and height > 0):
        raise ValueError(f"width and height must be positive, got {width} and {height}")
    step = float(axis[1] - axis[0])
    across = math.ceil(width / step) + 2  # grid points a box covers, and a cell each side
    up = math.ceil(height / step) + 2
    if across > axis.size or up > axis.size or not region.any():
        return None
    total = np.zeros((axis.size + 1, axis.size + 1), dtype=np.int64)
    total[1:, 1:] = region.astype(np.int64).cumsum(0).cumsum(1)
    inside = (
        total[up:, across:] - total[:-up, across:] - total[up:, :-across] + total[:-up, :-across]
    ) == up * across  # windows [i, i + up) x [j, j + across) wholly in the region
    rows, columns = np.nonzero(inside)
    if rows.size == 0:
        return None
    centre_x = axis[columns] + (across - 1) * step / 2
    centre_y = axis[rows] + (up - 1) * step / 2
    ys, xs = np.nonzero(region)
    distance = (centre_x - axis[xs].mean()) ** 2 + (centre_y - axis[ys].mean()) ** 2
    best = int(np.argmin(distance))
    return round(float(centre_x[best]), 12), round(float(centre_y[best]), 12)


def label_regions(
    ax: Axes,
    image: np.ndarray,
    axis: np.ndarray,
    labels: Sequence[str],
    sizes: Sequence[float] = SIZES,
) -> list[Text]:
    """Label k written inside the region image == k of the grid drawn on `ax` (origin
    lower, x and y both along `axis`), at the largest of `sizes` whose box fits with a
    MARGIN; out of the figure's layout, so that labels do not move the axes they are
    measured on. ValueError naming the label that fits at no size."""
    from matplotlib.figure import Figure

    figure = ax.get_figure(root=True)
    if not isinstance(figure, Figure):
        raise TypeError(f"ax must be on a figure, got {figure!r}")
    figure.draw_without_rendering()  # the axes at their final place and aspect
    to_data = ax.transData.inverted()
    points = figure.dpi / 72
    out = []
    for k, label in enumerate(labels):
        for size in sizes:
            text = ax.text(0, 0, label, ha="center", va="center", fontsize=size)
            text.set_in_layout(False)
            box = text.get_window_extent()
            pad = 2 * MARGIN * points
            (x0, y0), (x1, y1) = to_data.transform(
                [(box.x0 - pad / 2, box.y0 - pad / 2), (box.x1 + pad / 2, box.y1 + pad / 2)]
            )
            centre = fitting_centre(image == k, axis, abs(x1 - x0), abs(y1 - y0))
            if centre is not None:
                text.set_position(centre)
                out.append(text)
                break
            text.remove()
        else:
            raise ValueError(f"the label {label!r} fits inside its region at no size of {sizes}")
    return out
