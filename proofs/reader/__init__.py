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
from proofs.reader.records import ChapterInputError, Document, Math

__all__ = ["ChapterInputError", "Document", "parse", "read_bytes", "read_chapter"]

MAX_BYTES = 16 * 2**20  # a chapter is about 70 kB; far larger input is refused
BOM = "\ufeff"


def read_bytes(path: Path) -> bytes:
    """The file's bytes; ChapterInputError names the file when it cannot be read."""
    if not path.exists():
        raise ChapterInputError(f"{path}: no such file")
    if path.is_dir():
        raise ChapterInputError(f"{path}: is a directory, expected a chapter file")
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
        sections = mdx.headings(lines, code)
        return Document(
            path=path,
            form="MDX",
            title=title,
            lines=tuple(lines),
            code=code,
            headings=tuple(sections),
            elements=tuple(mdx.elements(lines, code, sections, path)),
            math=tuple(math_spans(lines, code)),
            tables=tuple(mdx.tables(lines, code)),
            listings=tuple(mdx.listings(lines, spans)),
            figures=tuple(mdx.figures(lines, path)),
            refs=tuple(mdx.refs(lines, code)),
        )
    if rendered.detect(lines):
        code, listings = rendered.listings(lines)
        sections = rendered.headings(lines, code)
        own = title.split("：")[0].strip()
        return Document(
            path=path,
            form="rendered text",
            title=title,
            lines=tuple(lines),
            code=code,
            headings=tuple(sections),
            elements=tuple(rendered.elements(lines, code, sections)),
            math=tuple(math_spans(lines, code)),
            tables=tuple(rendered.tables(lines, code)),
            listings=tuple(listings),
            figures=(),
            refs=tuple(rendered.refs(lines, code, own)),
        )
    raise ChapterInputError(
        f"{path}:1: neither form of chapter: no <Proposition id=…> (MDX) element and no "
        "命題 3.3（…） heading (rendered text)"
    )


_MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$\n]+?)\$", flags=re.S)


def math_spans(lines: list[str], code: frozenset[int]) -> list[Math]:
    """Every `$…$` and `$$…$$` outside code, with the line of its first character (a
    display's first line of TeX, not the line of its opening `$$`)."""
    text_lines = ["" if i in code else line for i, line in enumerate(lines, 1)]
    text = "\n".join(text_lines)
    out = []
    line, position = 1, 0
    for match in _MATH.finditer(text):
        display = match.group(1) is not None
        group = 1 if display else 2
        tex = match.group(group)
        start = match.start(group) + len(tex) - len(tex.lstrip())  # its first character
        line += text.count("\n", position, start)
        position = start
        out.append(Math(line, tex, display))
    return out
