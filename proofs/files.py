"""Writing the files the command line produces: whole or not at all.

A file is written through a temporary file in the same directory and renamed
over the target, so a reader never sees half of it and a failure leaves
nothing behind.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class OutputError(ValueError):
    """The output file cannot be written: the message names the path and why."""


def write_atomically(path: Path, text: str, force: bool) -> None:
    """Write `text` to `path` through a temporary file in the same directory and
    os.replace, so that no partial file is ever left; refuse to replace an
    existing file unless `force`."""
    if path.exists() and not force:
        raise OutputError(f"{path}: exists; pass --force to replace it")
    if path.is_dir():
        raise OutputError(f"{path}: is a directory")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise OutputError(f"{path}: directory {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
