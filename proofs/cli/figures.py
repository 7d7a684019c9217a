"""`proofs figures`: the chapters' pictures, their plots and the chapters' maps, drawn to
files in --out."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from proofs.book.locations import HOW, chapter_folders
from proofs.cli.arguments import UsageError
from proofs.cli.tables import nearest
from proofs.files import check_target, write_atomically
from proofs.typeset.shown import shown


def _chosen_pictures(args: argparse.Namespace, known: dict) -> list:
    """The pictures the names choose (`map` every map, or --chapter's), in their order."""
    from proofs.publish.pictures import MAP

    maps = [p for p in known.values() if p.sort == "map"]
    if args.chapter is not None:
        if args.names and MAP not in args.names:
            raise UsageError("figures: --chapter chooses the chapter of `map`, which is not named")
        maps = [p for p in maps if p.chapter == args.chapter]
        if not maps:
            chapters = ", ".join(p.chapter for p in known.values() if p.sort == "map")
            raise UsageError(f"figures: no chapter {args.chapter!r}; known: {chapters}")
    chosen: dict[str, object] = {}
    for name in args.names or list(known):
        if name == MAP:
            chosen.update((p.name, p) for p in maps)
        elif name in known:
            chosen[name] = known[name]
        else:
            raise UsageError(f"figures: unknown figure {name!r}{nearest(name, known)}")
    return list(chosen.values())


def _report(path: Path | None, chapters: Iterable[str]) -> object:
    """The verify --json report a map is coloured by (None without --results), checked as
    one before anything is drawn, and holding elements of each of the maps' `chapters`;
    UsageError naming the file when it is not one."""
    from proofs.files import read_json
    from proofs.publish.maps import results_from_report

    if path is None:
        return None
    try:
        report = read_json(path, "a report of verify --json")
        results_from_report(report, "")
    except ValueError as exc:  # read_json's name the file, results_from_report's do not
        said = str(exc)
        raise UsageError(said if said.startswith(str(path)) else f"{path}: {said}") from exc
    held = {e["chapter"] for e in report["elements"]}
    for chapter in chapters:
        if chapter not in held:
            has = ", ".join(sorted(held)) or "none"
            raise UsageError(
                f"{path}: the report has no element of chapter {chapter} (it has "
                f"elements of: {has}); run verify on that chapter for its map"
            )
    return report


def figures(args: argparse.Namespace) -> int:
    from proofs.publish.maps import results_from_report
    from proofs.publish.pictures import catalogue, chapter_file, map_of, picture_file
    from proofs.typeset.plotting import FiguresUnavailable, matplotlib_module

    known = catalogue()
    if args.list:
        for picture in known.values():
            print(f"{picture.name:24} {picture.sort:6} {picture.title}")
        return 0
    chosen = _chosen_pictures(args, known)
    if args.out is None:
        raise UsageError("figures: --out DIR is required (the pictures are files)")
    folders = chapter_folders([args.chapters] if args.chapters else [])
    files = {p.chapter: chapter_file(p.chapter, folders) for p in chosen if p.sort == "map"}
    unfound = [p for p in chosen if p.sort == "map" and files[p.chapter] is None]
    chosen = [p for p in chosen if p not in unfound]
    if unfound and not chosen:  # nothing left to draw: a refusal, not an empty success
        keys = list(dict.fromkeys(p.chapter for p in unfound))
        which = (
            f"file of chapter {keys[0]} is"
            if len(keys) == 1
            else (f"files of chapters {', '.join(keys)} are")
        )
        raise UsageError(f"figures: the {which} not found; {HOW}")
    for picture in unfound:
        print(
            f"skipped {picture.name}: the file of chapter {picture.chapter} is not found; {HOW}",
            file=sys.stderr,
        )
    _make_folder(args.out)
    try:
        matplotlib_module()
    except FiguresUnavailable as exc:  # the SVG of the book's figures and maps needs none
        drawable = [p for p in chosen if p.sort != "plot" and args.format == "svg"]
        if not drawable:
            raise UsageError(str(exc)) from exc
        for picture in [p for p in chosen if p not in drawable]:
            print(f"skipped {picture.name}: {exc}", file=sys.stderr)
        chosen = drawable
    targets = [args.out / f"{p.name}.{args.format}" for p in chosen]
    read = [f for f in files.values() if f is not None]
    read += [args.results] if args.results else []
    for target in targets:  # before anything is drawn
        check_target(target, args.force, inputs=read)
    report = _report(args.results, [p.chapter for p in chosen if p.sort == "map"])
    from proofs.book.profiles import load_profile
    from proofs.book.registry import CHAPTERS

    load_profile(None, in_cache=True)  # for the checks a map runs without a report

    def svg_of_map(chapter: str) -> str:
        """The chapter's map, coloured by the report (the other chapters' elements by their
        citations, 命題 7.2［…］) or by running its checks."""
        others = {c.key: c.short for c in CHAPTERS.values() if c.key != chapter}
        results = None if report is None else results_from_report(report, chapter, others)
        path = files[chapter]
        assert path is not None  # the maps without a file were skipped
        return map_of(chapter, path, results)

    for picture, target in zip(chosen, targets, strict=True):
        start = time.perf_counter()
        data = picture_file(picture, args.format, svg_of_map)
        write_atomically(target, data, args.force)
        said = (
            f"wrote {picture.name} to {target} ({len(data):,} bytes, "
            f"{time.perf_counter() - start:.1f} s)"
        )
        print(shown(said), file=sys.stderr)
    return 0


def _make_folder(out: Path) -> None:
    """Create --out (and its parents) unless it is there; UsageError when it cannot be."""
    if out.is_dir():
        return
    if out.exists():
        raise UsageError(f"{out}: is not a directory")
    try:
        out.mkdir(parents=True)
    except OSError as exc:
        raise UsageError(f"{out}: cannot be created ({exc.strerror or exc})") from exc
