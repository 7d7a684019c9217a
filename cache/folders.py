"""The cache folder on disk: root / version / name / entry, read and written without ever
following a link, and cleaned of nothing but its own files.

Every level below the root (and the root itself, its last component) is opened with
O_NOFOLLOW relative to the level above, so a link planted anywhere in the tree, or swapped
in while a run walks it, makes the operation fail instead of reaching the folder it
points to: nothing is read from, written into or deleted from outside the tree. An entry
is opened and read without blocking (a FIFO in its place cannot hang a run), and at most
LIMIT bytes of it are read: a larger one does not verify (`cache.seal`).

A version's first entry removes the other versions' entries: in each folder of the root
named as a version is named (16 hexadecimal digits), in each of its folders named as an
entry's kind is named, the regular files named as this cache names its entries (64
hexadecimal digits and .json, or .pickle for those of the earlier format, which are
removed but never read) and its unfinished writes; then those folders, if they are empty.
Nothing else is touched, and nothing is removed recursively: a file of the user's in the
tree, or a link, stays, and keeps its folder. Every failure is a miss (None) or a write
skipped, never an error: deleting any part of the folder is always safe.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import Iterator, Sequence
from pathlib import Path

VERSION = re.compile(r"[0-9a-f]{16}")
NAME = re.compile(r"[a-z][a-z0-9_]*")
ENTRY = re.compile(r"[0-9a-f]{64}\.json")
OWN = re.compile(r"[0-9a-f]{64}\.(json|pickle)|\.[0-9a-f]{64}\.json\.[0-9a-f]+\.part")
LIMIT = 1 << 24  # bytes of an entry read at most (the largest today: 14 kB)

_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def entry_name(digest: str) -> str:
    """The file name of the entry whose inputs have the SHA-256 `digest`."""
    return f"{digest}.json"


@contextlib.contextmanager
def _opened_in(parent: int | None, name: str | Path) -> Iterator[int]:
    """The folder `name` of the folder `parent` (None: `name` is a path), opened without
    following a link."""
    fd = os.open(name, _FOLDER, dir_fd=parent)
    try:
        yield fd
    finally:
        os.close(fd)


@contextlib.contextmanager
def _opened(root: Path, names: Sequence[str], make: bool) -> Iterator[tuple[int, int, bool]]:
    """The descriptors of the root and of root/names[0]/names[1]/..., each level opened
    without following a link; with `make`, a missing level is made first (mode 0700).
    Also yields whether the first level was made."""
    with contextlib.ExitStack() as stack:
        root_fd = fd = stack.enter_context(_opened_in(None, root))
        first = False
        for level, name in enumerate(names):
            if make:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, 0o700, dir_fd=fd)
                    first = first or level == 0
            fd = stack.enter_context(_opened_in(fd, name))
        yield root_fd, fd, first


def read_entry(root: Path, version: str, name: str, entry: str) -> bytes | None:
    """The first LIMIT bytes of root/version/name/entry, or None: missing, a link anywhere
    on the way, or unreadable. Read without waiting: a FIFO gives what it holds, or None."""
    try:
        with _opened(root, (version, name), make=False) as (_, folder, _):
            handle = os.open(
                entry, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder
            )
            with os.fdopen(handle, "rb") as f:
                return f.read(LIMIT)  # more is cut short, and will not verify
    except OSError:
        return None


def write_entry(root: Path, version: str, name: str, entry: str, data: bytes) -> None:
    """Write root/version/name/entry whole or not at all (a hidden file renamed over it),
    making the folders below the root; a version's first entry forgets the others'. A
    root that is missing or a link, or any failure, keeps nothing."""
    try:
        with _opened(root, (version, name), make=True) as (root_fd, folder, first):
            scratch = f".{entry}.{secrets.token_hex(8)}.part"
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            handle = os.open(scratch, flags, 0o600, dir_fd=folder)
            try:
                with os.fdopen(handle, "wb") as f:
                    f.write(data)
                os.replace(scratch, entry, src_dir_fd=folder, dst_dir_fd=folder)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(scratch, dir_fd=folder)
                raise
            if first:
                forget_other_versions(root_fd, version)
    except OSError:
        return


def forget_other_versions(root_fd: int, keep: str) -> None:
    """Remove the entries of every version but `keep` under the root, then their folders
    where that leaves them empty."""
    for version in _folders(root_fd, VERSION):
        if version != keep:
            with contextlib.suppress(OSError):
                _forget_version(root_fd, version)


def _folders(fd: int, pattern: re.Pattern[str]) -> list[str]:
    """The names of the folders (not links to one) in the folder `fd` that match `pattern`."""
    with os.scandir(fd) as entries:
        return [
            e.name for e in entries if pattern.fullmatch(e.name) and e.is_dir(follow_symlinks=False)
        ]


def _files(fd: int, pattern: re.Pattern[str]) -> list[str]:
    """The names of the regular files (not links) in the folder `fd` that match `pattern`."""
    with os.scandir(fd) as entries:
        return [
            e.name
            for e in entries
            if pattern.fullmatch(e.name) and e.is_file(follow_symlinks=False)
        ]


def _forget_version(root_fd: int, version: str) -> None:
    with _opened_in(root_fd, version) as version_fd:
        for name in _folders(version_fd, NAME):
            with contextlib.suppress(OSError):
                _forget_entries(version_fd, name)
    os.rmdir(version, dir_fd=root_fd)


def _forget_entries(version_fd: int, name: str) -> None:
    with _opened_in(version_fd, name) as folder:
        for entry in _files(folder, OWN):
            os.unlink(entry, dir_fd=folder)
    os.rmdir(name, dir_fd=version_fd)
