"""The chapter reader: a chapter file, in either form, read once into a `Document`.

Two forms are read: MDX with `<Proposition id="…">` elements (`mdx`), and
rendered text with `命題 3.3（…）✓` headings (`rendered`). Both give the same
records (`records`): elements with their statement and proof lines, every
formula, table, listing with its printed output, figure and reference, each
with its line. The reader never judges; the audit, sync and the claims do.
"""

from __future__ import annotations

import re
from pathlib import Path

from proofs.reader import mdx, rendered
from proofs.reader.records import ChapterInputError, Document, Math, Problem

__all__ = ["ChapterInputError", "Document", "parse", "read_bytes", "read_chapter"]

MAX_BYTES = 16 * 2**20  # a chapter is about 70 kB; far larger input is refused
BOM = "\ufeff"


def read_bytes(path: Path) -> bytes:
    """The file's bytes; ChapterInputError names the file when it cannot be read."""
    if not path.exists():
        raise ChapterInputError(f"{path}: no such file")
    if path.is_dir():
        raise ChapterInputError(f"{path}: is a directory, expected a chapter file")
    if not path.is_file():  # a FIFO or a device would block or never end
        raise ChapterInputError(f"{path}: not a regular file, expected a chapter file")
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ChapterInputError(f"{path}: cannot be read ({exc.strerror})") from exc
    return data


def decode(data: bytes, path: str) -> str:
    """UTF-8 text without a byte-order mark; ChapterInputError names file and line."""
    if len(data) > MAX_BYTES:
        raise ChapterInputError(
            f"{path}: larger than {MAX_BYTES // 2**20} MiB, which no chapter is"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ChapterInputError(f"{path}:{line}: not UTF-8 text (byte {exc.start})") from exc
    text = text.removeprefix(BOM)
    if not text.strip():
        raise ChapterInputError(f"{path}:1: empty file, expected a chapter")
    return text


def read_chapter(path: Path | str) -> Document:
    """Read a chapter file (read only) into its Document."""
    path = Path(path)
    return parse(decode(read_bytes(path), str(path)), str(path))


def parse(text: str, path: str = "<text>") -> Document:
    """The Document of a chapter's text in either form."""
    lines = text.removeprefix(BOM).splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    title = lines[first].strip().lstrip("#").strip() if lines else ""
    if mdx.detect(lines):
        spans = mdx.fences(lines, path)
        code = frozenset(i for start, end, _ in spans for i in range(start, end + 1))
        lines, comments = mdx.comments(lines, code)
        sections = mdx.headings(lines, code)
        problems: list[Problem] = []
        found = mdx.elements(lines, code, sections, path, problems)
        figures = mdx.figures(lines, code, problems)
        math = math_spans(lines, code, problems)
        return Document(
            path=path,
            form="MDX",
            title=title,
            lines=tuple(lines),
            code=code,
            headings=tuple(sections),
            elements=tuple(found),
            math=tuple(math),
            tables=tuple(mdx.tables(lines, code | _displayed(math))),
            listings=tuple(mdx.listings(lines, spans)),
            figures=tuple(figures),
            refs=tuple(mdx.refs(lines, code)),
            problems=tuple(sorted(problems, key=lambda p: p.line)),
            comments=tuple(comments),
        )
    if rendered.detect(lines):
        code, listings = rendered.listings(lines)
        sections = rendered.headings(lines, code)
        own = title.split("：")[0].strip()
        problems = []
        found = rendered.elements(lines, code, sections, problems)
        math = math_spans(lines, code, problems)
        return Document(
            path=path,
            form="rendered text",
            title=title,
            lines=tuple(lines),
            code=code,
            headings=tuple(sections),
            elements=tuple(found),
            math=tuple(math),
            tables=tuple(rendered.tables(lines, code | _displayed(math))),
            listings=tuple(listings),
            figures=(),
            refs=tuple(rendered.refs(lines, code, own)),
            problems=tuple(sorted(problems, key=lambda p: p.line)),
        )
    raise ChapterInputError(
        f"{path}:1: neither form of chapter: no <Proposition id=…> (MDX) element and no "
        "命題 3.3（…） heading (rendered text)"
    )


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def _displayed(math: list[Math]) -> frozenset[int]:
    """The lines a display's TeX runs over: a line of it that starts with `|`
    (`|\\mathrm{fl}(x) - x| = …`) is mathematics, not a table's row."""
    return frozenset(
        line for m in math if m.display for line in range(m.line, m.line + m.tex.count("\n") + 1)
    )


def math_spans(lines: list[str], code: frozenset[int], problems: list[Problem]) -> list[Math]:
    """Every `$…$` and `$$…$$` outside code, with the line of its first character (a
    display's first line of TeX, not the line of its opening `$$`). A `$` without its
    pair on its line, or a `$$` not closed before its paragraph ends, is a Problem at
    its line and opens nothing: the text after it is read as prose, not as math."""
    text = "\n".join("" if i in code else line for i, line in enumerate(lines, 1))
    out: list[Math] = []
    line, position = 1, 0  # the line of text[position], advanced as the scan goes

    def line_of(index: int) -> int:
        nonlocal line, position
        line += text.count("\n", position, index)
        position = index
        return line

    last_display = text.rfind("$$")
    i = text.find("$")
    while i >= 0:
        display = text.startswith("$$", i)
        start = i + (2 if display else 1)
        if display:
            close = text.find("$$", start) if i < last_display else -1
            stop = close if close >= 0 else len(text)
            paragraph = _PARAGRAPH_BREAK.search(text, start, stop)
            if close < 0 or paragraph is not None:
                where = "its paragraph ends" if paragraph is not None else "the file ends"
                problems.append(Problem(line_of(i), f"$$ is not closed before {where}", "unpaired"))
                i = text.find("$", paragraph.end() if paragraph is not None else len(text))
                continue
        else:
            close = text.find("$", start)
            if close < 0 or "\n" in text[start:close]:
                problems.append(Problem(line_of(i), "$ has no closing $ on its line", "unpaired"))
                i = text.find("$", start)
                continue
        tex = text[start:close]
        first = start + len(tex) - len(tex.lstrip())  # its first character
        out.append(Math(line_of(first), tex, display))
        i = text.find("$", close + (2 if display else 1))
    return out
