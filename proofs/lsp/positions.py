"""Where things stand in a text, as the reader counts and as an editor does.

The reader numbers lines as `str.splitlines` cuts them (1-based) and columns in
characters; an editor speaking the Language Server Protocol numbers lines from 0, cut at
\\n, \\r\\n and \\r only, and columns in code units of the negotiated encoding (UTF-16
unless the client offers another). A chapter whose text holds another line separator
(U+2028, a form feed) is counted differently by the two: every position goes through the
text's character offsets, so both countings meet.

>>> lines = Lines("a\\r\\n𝑥 = 1\\n")
>>> lines.position(2, 5)  # the reader's line 2, its 5th character: "1"
(1, 5)
>>> lines.offset(1, 5)
7
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cached_property

ENCODINGS = ("utf-16", "utf-8", "utf-32")
_BREAK = re.compile(r"\r\n|\r|\n")


def encoding_name(kind: object) -> str:
    """The name of a position encoding (an lsprotocol PositionEncodingKind or its string
    value); utf-16, the protocol's default, for one it does not know.

    >>> encoding_name("utf-8")
    'utf-8'
    """
    name = str(getattr(kind, "value", kind))
    return name if name in ENCODINGS else "utf-16"


class OutOfRange(ValueError):
    """A position that is not in the text: the message says which and how long it is."""


def units(text: str, encoding: str = "utf-16") -> int:
    """How many code units of `encoding` the text takes."""
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(ord(c) > 0xFFFF for c in text)


def characters(text: str, count: int, encoding: str = "utf-16") -> int:
    """How many characters of `text` the first `count` code units cover (a count that
    falls inside a character covers it; one past the end is the text's length)."""
    if encoding == "utf-32":
        return min(count, len(text))
    taken = 0
    for k, c in enumerate(text):
        if taken >= count:
            return k
        taken += units(c, encoding)
    return len(text)


class Lines:
    """A text's line starts in both countings, to turn one position into the other."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding if encoding in ENCODINGS else "utf-16"

    @cached_property
    def editor_starts(self) -> list[int]:
        """The offset of every editor line's first character."""
        return [0, *(m.end() for m in _BREAK.finditer(self.text))]

    @cached_property
    def reader_starts(self) -> list[int]:
        """The offset of every reader line's first character (after a byte-order mark,
        which the reader drops)."""
        starts, at = [], 1 if self.text.startswith("\ufeff") else 0
        for line in self.text[at:].splitlines(keepends=True):
            starts.append(at)
            at += len(line)
        return starts or [at]

    def editor_line(self, line: int) -> str:
        """The text of an editor line (0-based), without its break."""
        starts = self.editor_starts
        end = starts[line + 1] if line + 1 < len(starts) else len(self.text)
        return self.text[starts[line] : end].rstrip("\r\n")

    @property
    def count(self) -> int:
        """The editor's number of lines."""
        return len(self.editor_starts)

    def at_offset(self, offset: int) -> tuple[int, int]:
        """The editor position (line, code unit) of a character offset."""
        line = bisect_right(self.editor_starts, offset) - 1
        start = self.editor_starts[line]
        return line, units(self.text[start:offset], self.encoding)

    def position(self, line: int, column: int) -> tuple[int, int]:
        """The editor position of the reader's 1-based line and column (characters,
        1-based); a line past the end is the end of the text."""
        starts = self.reader_starts
        if line > len(starts):
            return self.at_offset(len(self.text))
        start = starts[max(line, 1) - 1]
        end = starts[line] if line < len(starts) else len(self.text)
        return self.at_offset(min(start + max(column, 1) - 1, end))

    def offset(self, line: int, character: int) -> int:
        """The character offset of an editor position; OutOfRange when the line is not in
        the text or the character is past the line's end (the end itself is in it)."""
        if not 0 <= line < self.count or character < 0:
            raise OutOfRange(
                f"line {line}, character {character} is outside the document ({self.count} lines)"
            )
        text = self.editor_line(line)
        if character > units(text, self.encoding):
            raise OutOfRange(
                f"line {line}, character {character} is past the line's end "
                f"({units(text, self.encoding)} {self.encoding} code units)"
            )
        return self.editor_starts[line] + characters(text, character, self.encoding)

    def reader_position(self, line: int, character: int) -> tuple[int, int]:
        """The reader's 1-based line and 0-based character index of an editor position."""
        offset = self.offset(line, character)
        starts = self.reader_starts
        index = max(bisect_right(starts, offset) - 1, 0)
        return index + 1, offset - starts[index]
