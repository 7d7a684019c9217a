r"""Text the package did not write — a chapter's, a file's name, a value read from a file — as
a report shows it on a terminal, in a CI log, in a page or in JSON.

A terminal acts on an escape sequence (ESC [ 2 J clears it), a line break in a name starts
a line the package did not write, a bidirectional override reorders what follows it, and a
file's name may hold bytes that are not UTF-8 at all. So a report shows every character
that is not plainly printable as its escape, the way Python writes it: ESC as \x1b, a line
break as \n, U+202E as \u202e, and a byte of a file name that is not UTF-8 as \xff. The
characters kept as they are form an allow-list: everything printable (Japanese, TeX,
U+3000 and the other spaces among them) and TAB. A chapter's backslashes are kept as they
are, so `\x1b` shown may also be those four characters in the chapter.

A line a CI runner reads can also be a command to it: GitHub's runner takes a line that
starts with `::` (after spaces) for a workflow command (`::error::…`), and `##[` anywhere
in a line for one of its older form. `shown` writes the first `:` of such a start as
\x3a and the `[` of `##[` as \x5b, so that no line of a report commands the runner.

>>> visible("a\x1b[2Jb\tc\u202ed")
'a\\x1b[2Jb\tc\\u202ed'
>>> visible("b\udcff.txt")  # the byte 0xff of a file name, decoded with surrogateescape
'b\\xff.txt'
>>> print(shown("::error::forged\n  ::warning::too ##[error]old"))
\x3a:error::forged
  \x3a:warning::too ##\x5berror]old
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

# controls, format characters (bidirectional overrides, zero widths), lone surrogates, and
# the line and paragraph separators: what a report never prints as it is
HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
KEPT = frozenset("\t")
_SURROGATE_BYTES = range(0xDC80, 0xDD00)  # os.fsdecode's stand-ins for the bytes 0x80-0xff
_COMMAND_START = re.compile(r"^(\s*):(?=:)")
_OLD_COMMAND = re.compile(r"##\[")


def _escape(ch: str) -> str:
    if ord(ch) in _SURROGATE_BYTES:
        return f"\\x{ord(ch) - 0xDC00:02x}"
    return ch.encode("unicode_escape").decode("ascii")


def _hidden(ch: str) -> bool:
    return ch not in KEPT and unicodedata.category(ch) in HIDDEN


def visible(text: str) -> str:
    """`text` with every character a report does not print as it is written as its escape
    (the module says which); one line, whatever it held."""
    if text.isprintable():
        return text
    return "".join(_escape(ch) if _hidden(ch) else ch for ch in text)


def visible_lines(text: str) -> str:
    """`text` made visible line by line: its line breaks (LF) kept, everything else as
    `visible` shows it (a CR as \\r)."""
    return "\n".join(visible(line) for line in text.split("\n"))


def inert(line: str) -> str:
    """A line of a report with what a CI runner would take for a command in it made
    inert: a leading `::` (after spaces) as `\\x3a:`, every `##[` as `##\\x5b`."""
    line = _COMMAND_START.sub(r"\1\\x3a", line)
    return _OLD_COMMAND.sub(r"##\\x5b", line)


def shown(text: str) -> str:
    """Text a command prints on a terminal or into a log, one line or several: each line
    visible and inert. A line break in a piece taken from a chapter or a name should be
    made visible before the piece is put in a line (`visible`), or it starts a line here."""
    return "\n".join(inert(visible(line)) for line in text.split("\n"))


def shortened(text: str, width: int = 60) -> str:
    """`text` cut to `width` characters, the last of them an ellipsis, when it is longer:
    a quotation in a one-line message (a chapter's line, a setting's value)."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _json_line(line: str) -> str:
    if line.isprintable():
        return line
    return "".join(json.dumps(ch)[1:-1] if _hidden(ch) else ch for ch in line)


def json_shown(value: Any) -> str:
    """`value` as JSON (indented, Japanese kept) that a terminal shows as it is: every
    character `visible` would escape written as its \\uXXXX escape, which a JSON reader
    reads back as the same character (json.dumps escapes only the controls below 0x20)."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return "\n".join(_json_line(line) for line in text.split("\n"))
