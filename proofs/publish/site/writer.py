"""Writing the site: the page of each chapter, then the index, each file whole or not at
all (proofs.files), into a folder made if it is not there. The site's own files are
replaced on every run; a chapter audited is never overwritten.

Nothing is written through a link: the folder must be a folder, not a symbolic link to
one (its target is named in the refusal: give that folder itself), and a page whose name
is a link in it is replaced, the link itself, never the file it leads to. A page's file
name is made of the chapter file's stem, its letters, digits, `-`, `_` and `.` kept and
every other character (a space, a line break, a byte that is not UTF-8) written as `_`.
The folder is taken by its name at each write: a folder another process replaces by a
link while the site is written is not guarded against."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from proofs.audit.reports.report import Report
from proofs.files import OutputError, check_target, write_atomically
from proofs.publish.site.chapter_page import chapter_page
from proofs.publish.site.index_page import Chapter, index_page
from proofs.publish.site.marks import element_marks, line_marks
from proofs.reader import Document

INDEX = "index.html"


def page_names(paths: Sequence[Path]) -> list[str]:
    """The page of each chapter file: its stem (every character but letters, digits and
    `-_.` as `_`), numbered where two files share one or a stem is the index's.

    >>> page_names([Path("a/ch.txt"), Path("b/ch.mdx"), Path("index.txt")])
    ['ch.html', 'ch-2.html', 'index-2.html']
    >>> page_names([Path("第 1 章.txt"), Path("b\\udcff\\n::x.txt")])
    ['第_1_章.html', 'b____x.html']
    """
    taken = {INDEX}
    out = []
    for path in paths:
        stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in path.stem) or "_"
        name, k = f"{stem}.html", 1
        while name in taken:
            k += 1
            name = f"{stem}-{k}.html"
        taken.add(name)
        out.append(name)
    return out


def check_site(directory: Path, inputs: Sequence[Path]) -> None:
    """OutputError, before any work, when the site cannot be written in `directory`: it
    is a symbolic link, it is not a folder, or one of its pages would replace a chapter
    file audited."""
    if directory.is_symlink():
        raise OutputError(
            f"{directory}: is a symbolic link (to {os.readlink(directory)}); the site is "
            "written only into a folder itself: give its path"
        )
    if directory.exists() and not directory.is_dir():
        raise OutputError(f"{directory}: is not a directory")
    if directory.is_dir():
        for name in [INDEX, *page_names(inputs)]:
            check_target(directory / name, True, inputs=inputs, follow=False)


def write_site(directory: Path, audited: Sequence[tuple[Report, Document]]) -> list[Path]:
    """Write the annotated site of the audited chapters (report, document) in
    `directory`: a page per chapter, then index.html; the files written, in that order."""
    inputs = [Path(report.path) for report, _ in audited]
    check_site(directory, inputs)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{directory}: cannot be created ({exc.strerror or exc})") from exc
    chapters = []
    written = []
    for name, (report, document) in zip(page_names(inputs), audited, strict=True):
        elements = element_marks(document, report)
        html = chapter_page(document, report, line_marks(document, report), elements, INDEX)
        write_atomically(directory / name, html, force=True, follow=False)
        written.append(directory / name)
        chapters.append(Chapter(name, document, report, elements))
    write_atomically(directory / INDEX, index_page(chapters), force=True, follow=False)
    return [*written, directory / INDEX]
