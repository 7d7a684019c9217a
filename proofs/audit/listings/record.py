"""What a listing says about itself, read as data: the record its bootstrap writes when it
raises (`bootstrap.py`), which the listing, running in the same process, can write too.

A record is read strictly: exactly the fields the bootstrap writes, of their types and
lengths, an exception's name a Python name, no line break in its message; anything else
is no record. The text of a record that is read, and everything a listing prints, is
shown with its control characters escaped, so that nothing a listing writes can start a
line of the report, move the cursor of a terminal or turn text around.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}(?:\.[A-Za-z_][A-Za-z0-9_]{0,99}){0,9}")
_FIELDS = ("type", "memory", "message", "module", "frames")
_HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # control, format, line breaks, unassigned
MESSAGE = 200  # the characters of a message bootstrap.py keeps
FRAMES = 20  # the frames it keeps (its FRAMES)


@dataclass(frozen=True)
class ErrorRecord:
    """The exception a listing raised: its name, whether it is a MemoryError, its
    message's first line (shown), the missing module's name, and (file, line) of the
    deepest frames in the listing's folder."""

    type: str
    memory: bool
    message: str
    module: str | None
    frames: tuple[tuple[str, int], ...]


def shown(text: str, keep: str = "") -> str:
    r"""`text` with every control, format or line-break character but those in `keep`
    written as its escape; letters of every script, and spaces, as they are.

    >>> shown("a\n::error::b\x1b[2K 自己注意\u202e")
    'a\\n::error::b\\x1b[2K 自己注意\\u202e'
    >>> shown("x\ty\n", keep="\t\n")
    'x\ty\n'
    """
    return "".join(
        repr(ch)[1:-1] if ch not in keep and unicodedata.category(ch) in _HIDDEN else ch
        for ch in text
    )


def _is_line(value: object, longest: int) -> bool:
    return (
        isinstance(value, str)
        and len(value) <= longest
        and (value == "" or value.splitlines() == [value])
    )


def _is_frame(value: object) -> bool:
    if not isinstance(value, list) or len(value) != 2:
        return False
    name, line = value
    return (
        _is_line(name, 255)
        and isinstance(line, int)
        and not isinstance(line, bool)
        and 1 <= line <= 10**9
    )


def read_record(text: str) -> ErrorRecord | None:
    """The record in `text`, or None when `text` holds none the bootstrap could write.

    >>> error = read_record('{"type": "ZeroDivisionError", "memory": false, "message": '
    ...                     '"division by zero", "module": null, "frames": [["a.py", 4]]}')
    >>> error.type, error.message, error.frames
    ('ZeroDivisionError', 'division by zero', (('a.py', 4),))
    >>> read_record('{"type": "X\\n::error::", "memory": false, "message": "", '
    ...             '"module": null, "frames": []}') is None
    True
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or set(data) != set(_FIELDS):
        return None
    kind, memory, message, module, frames = (data[k] for k in _FIELDS)
    if not (isinstance(kind, str) and _NAME.fullmatch(kind)):
        return None
    if not isinstance(memory, bool) or not _is_line(message, MESSAGE):
        return None
    if module is not None and not (isinstance(module, str) and _MODULE.fullmatch(module)):
        return None
    if not isinstance(frames, list) or len(frames) > FRAMES or not all(map(_is_frame, frames)):
        return None
    return ErrorRecord(
        kind, memory, shown(message), module, tuple((shown(n), line) for n, line in frames)
    )
