"""The key that seals the cache's entries (`cache.seal`): 32 random bytes in a file of the
user's configuration directory, not in the cache folder.

Why a key, and why there: an entry is data that a later run believes (a verdict, a
table the chapter is rewritten with), and the cache folder is the place other programs
are most likely to write into or share: a CI cache restored from another branch's run,
a cache directory copied between machines, or one that another account can write. A
plain digest stored beside the value protects against none of them, since whoever
changes the value can compute it again. A digest under a key they cannot read can only
be made by this user's own runs. The key lives in `$XDG_CONFIG_HOME/transformer-proofs/`
(`~/.config/...`), which those routes do not carry: a CI job that restores only the cache
folder gets a fresh key, so its entries are derived again rather than believed.

What it does not protect against: a program running as the user, which can read the key,
or simply edit the package. The decoders are the defence that holds even then: nothing in
an entry is ever run as code, and a value of the wrong type or shape is a miss.

The file is made once, with mode 0600, by writing a hidden temporary file and linking it
to its name (two processes that start at once keep the first one's key). It is used only
while it is a regular file (not a link) of 32 bytes owned by the user and readable by
nobody else; otherwise nothing is kept or read (every derivation is computed), and the
file is left as it is, never replaced.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path

SIZE = 32  # bytes of key


def key_file(environment: Mapping[str, str] = os.environ) -> Path:
    """Where the key lives: $XDG_CONFIG_HOME (or ~/.config) / transformer-proofs / cache-key."""
    root = environment.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(root) / "transformer-proofs" / "cache-key"


def usable(status: os.stat_result, owner: int) -> bool:
    """Whether a key file with this status may be trusted: a regular file of SIZE bytes,
    owned by `owner`, that neither its group nor others can read or write."""
    return (
        stat.S_ISREG(status.st_mode)
        and status.st_uid == owner
        and not status.st_mode & 0o077
        and status.st_size == SIZE
    )


def secret(path: Path) -> bytes | None:
    """The key in `path`, made there first if there is none; None when it cannot be made
    or read, or is not `usable`."""
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    except OSError:
        return None
    try:
        _make(path)
        return _read(path)
    except OSError:
        return None


def _read(path: Path) -> bytes | None:
    handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not usable(os.fstat(handle), os.geteuid()):
            return None
        key = os.read(handle, SIZE)
    finally:
        os.close(handle)
    return key if len(key) == SIZE else None


def _make(path: Path) -> None:
    """A new key at `path`, unless another process made one first (then theirs stays)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    scratch = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    handle = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(secrets.token_bytes(SIZE))
        with contextlib.suppress(FileExistsError):
            os.link(scratch, path)
    finally:
        os.unlink(scratch)
