"""Every picture the `figures` command writes, by name, and its file in a format.

Three sorts, all drawn from the package: the figures a chapter draws in the book's own
SVG style (`@CHAPTER.figure`, which `sync` writes into the chapter), the plots a chapter
registers (`@CHAPTER.plot`, matplotlib), and each chapter's map (`map-<key>`,
proofs.publish.maps). An SVG figure or a map is written as it is drawn for `svg` and drawn
again with matplotlib (proofs.typeset.svg_pictures) for `pdf` and `png`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from proofs.typeset.plotting import FORMATS, render

MAP = "map"


@dataclass(frozen=True)
class Picture:
    name: str
    chapter: str  # the key of the chapter it belongs to
    sort: str  # "figure" (the book's SVG), "plot" or "map"
    title: str


def catalogue() -> dict[str, Picture]:
    """Every picture, by name, chapter by chapter: its figures, its plots, its map."""
    from proofs.book.registry import CHAPTERS, load_all

    load_all()
    out: dict[str, Picture] = {}
    for chapter in CHAPTERS.values():
        for figure in chapter.figures.values():
            out[figure.name] = Picture(
                figure.name, chapter.key, "figure", f"［{chapter.short}］ {figure.caption}…"
            )
        for plot in chapter.plots.values():
            out[plot.name] = Picture(plot.name, chapter.key, "plot", plot.title)
        name = f"{MAP}-{chapter.key}"
        out[name] = Picture(
            name, chapter.key, "map", f"［{chapter.short}］ its elements and references, by result"
        )
    return out


def chapter_file(chapter: str, folders: Sequence[Path]) -> Path | None:
    """The chapter's file among the chapter files in `folders` (proofs.book.locations),
    None when none of them holds it."""
    from proofs.book.locations import find_chapter_file
    from proofs.book.registry import chapter_of

    registered = chapter_of(chapter)
    return find_chapter_file(registered.title, registered.file, folders)


def map_of(chapter: str, path: Path, results: Mapping[str, str] | None = None) -> str:
    """The SVG of a chapter's map, read from its file `path`, coloured by `results` (by
    element number) or, without them, by running the chapter's checks."""
    from proofs.publish.maps import chapter_map, map_svg, run_results
    from proofs.reader import read_chapter

    document = read_chapter(path)
    return map_svg(chapter_map(document, run_results(chapter) if results is None else results))


def picture_file(picture: Picture, fmt: str, svg_of_map: Callable[[str], str]) -> bytes:
    """The picture's file in the format; `svg_of_map(chapter)` draws a chapter's map."""
    from proofs.book.registry import CHAPTERS
    from proofs.typeset.svg_pictures import standalone_svg, svg_figure

    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {FORMATS}, got {fmt!r}")
    chapter = CHAPTERS[picture.chapter]
    if picture.sort == "plot":
        return render(chapter.plots[picture.name].build, fmt)
    if picture.sort == "figure":
        svg = standalone_svg(chapter.figures[picture.name].build())
    else:
        svg = svg_of_map(picture.chapter)
    if fmt == "svg":
        return svg.encode("utf-8")
    return render(lambda: svg_figure(svg), fmt)
