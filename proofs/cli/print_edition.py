"""`proofs latex --chapter FILE`: the print edition of chapter files, one chapter as a
document (on standard output or --out) or several as a book (--book DIR), each element
marked with its check's result; the figures the package draws are written beside the
LaTeX as PDF files."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from proofs.cli.arguments import UsageError
from proofs.files import check_target, read_json, write_atomically
from proofs.typeset.shown import inert, visible


def _refuse_mixed(args: argparse.Namespace) -> None:
    """A UsageError for an option of the formulas given with --chapter, or an option of
    the print edition without it."""
    if not args.chapter:
        given = [
            flag
            for flag, value in (
                ("--book", args.book),
                ("--run-checks", args.run_checks),
                ("--results", args.results),
                ("--profile", args.profile),
            )
            if value
        ]
        raise UsageError(f"latex: {given[0]} sets the print edition of --chapter FILE, not given")
    if args.names or args.list:
        raise UsageError("latex: --chapter prints a chapter; NAME and --list are the formulas'")
    if args.book is not None and args.out is not None:
        raise UsageError("latex: --book writes its files in DIR; --out is for one chapter")
    if args.book is None and len(args.chapter) > 1:
        raise UsageError(
            f"latex: {len(args.chapter)} chapters make a book: give --book DIR to write them"
        )
    if args.results is not None and args.profile is not None:
        raise UsageError("latex: --profile sets the checks run here; --results runs none")
    if args.out is not None and args.out.suffix != ".tex":
        raise UsageError(
            f"{args.out}: --out must end in .tex with --chapter, got {args.out.suffix!r}"
        )


def _documents(paths: list[Path]) -> list:
    from proofs.reader import ChapterInputError, read_chapter

    try:
        return [read_chapter(path) for path in paths]
    except ChapterInputError as exc:
        raise UsageError(str(exc)) from exc


def _marks(args: argparse.Namespace, parts: list) -> tuple[list[dict], str]:
    """Each chapter's marks and where they come from: the report of --results, or the
    checks run here (every one with --run-checks)."""
    from proofs.publish.edition.marks import report_marks, run_marks

    if args.results is not None:
        report = read_json(args.results, "a report of verify --json")
        try:
            return [report_marks(part, report) for part in parts], args.results.name
        except ValueError as exc:
            raise UsageError(f"{args.results}: {exc}") from exc
    from proofs.book.profiles import load_profile

    profile = load_profile(args.profile, in_cache=True)
    which = "すべての検査を実行" if args.run_checks else "例と演習の検査を実行"
    return [run_marks(part, args.run_checks) for part in parts], f"{which}、profile {profile}"


def _pictures(names: set[str]) -> dict[str, bytes]:
    """The PDF of each figure the package draws, by name; none (and a line on stderr)
    without matplotlib: the edition then prints a placeholder with each caption."""
    from proofs.publish.pictures import catalogue, picture_file
    from proofs.typeset.plotting import FiguresUnavailable, matplotlib_module

    if not names:
        return {}
    try:
        matplotlib_module()
    except FiguresUnavailable as exc:
        print(inert(visible(f"figures left as placeholders: {exc}")), file=sys.stderr)
        return {}
    known = catalogue()

    def no_map(chapter: str) -> str:
        raise ValueError(f"the print edition draws no map ({chapter})")

    return {name: picture_file(known[name], "pdf", no_map) for name in sorted(names)}


def _folder(path: Path) -> None:
    """--book's DIR, made (with its parents) unless it is there."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"{path}: is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{path}: cannot be created ({exc.strerror or exc})") from exc


def print_edition(args: argparse.Namespace) -> int:
    from proofs.publish.edition.blocks import Note
    from proofs.publish.edition.files import (
        MAIN,
        Printed,
        book,
        chapter_file_name,
        figure_file_name,
        standalone,
    )
    from proofs.publish.edition.marks import tally
    from proofs.publish.edition.parts import Unprintable, part_of

    _refuse_mixed(args)
    start = time.perf_counter()
    paper = args.paper or "a4"
    try:
        parts = [part_of(document, k) for k, document in enumerate(_documents(args.chapter), 1)]
    except Unprintable as exc:
        raise UsageError(str(exc)) from exc
    if args.book is not None:
        folder: Path | None = args.book
        names = [f"{MAIN}.tex", *(f"{chapter_file_name(p, k)}.tex" for k, p in enumerate(parts, 1))]
        prefix = ""
    else:
        folder = args.out.parent if args.out is not None else None
        names = [args.out.name] if args.out is not None else []
        prefix = args.out.stem if args.out is not None else ""
    drawn = {f.name for part in parts for f in part.figures if f.name} if folder else set()
    figure_files = {name: figure_file_name(prefix, name) for name in sorted(drawn)}
    if args.book is not None:
        _folder(args.book)
    inputs = [*args.chapter, *([args.results] if args.results else [])]
    for name in [*names, *figure_files.values()]:  # refused before any check runs
        assert folder is not None
        check_target(folder / name, args.force, inputs=inputs)
    marks, source = _marks(args, parts)
    pictures = _pictures(drawn)
    shown = {name: path for name, path in figure_files.items() if name in pictures}
    printed = [Printed(p, m, shown, source) for p, m in zip(parts, marks, strict=True)]
    for chapter in printed:
        counts = ", ".join(f"{n} {result}" for result, n in tally(chapter.marks).items())
        said = f"{visible(chapter.part.document.path)}: {counts or 'no elements'}"
        print(inert(said), file=sys.stderr)
    notes: list[Note] = []  # the lines not printed as written, said on stderr
    if args.book is not None:
        files: dict[str, str | bytes] = {**book(printed, paper, notes)}
    else:
        text = standalone(printed[0], paper, notes)
        files = {names[0]: text} if names else {}
    for note in notes:
        print(inert(visible(str(note))), file=sys.stderr)
    if folder is None:
        print(text, end="")
        return 0
    files.update((figure_files[name], data) for name, data in pictures.items())
    for name, data in files.items():
        write_atomically(folder / name, data, args.force)
    written = ", ".join(str(folder / name) for name in files)
    said = f"wrote {written} ({time.perf_counter() - start:.1f} s)"
    print(inert(visible(said)), file=sys.stderr)
    return 0
