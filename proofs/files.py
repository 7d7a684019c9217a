"""Writing the files the command line produces, whole or not at all; reading the JSON
files it takes.

A file is written to a temporary file in the same directory, then published under
its name: without `force` by a hard link, which fails when the name is taken, so of
two writers at the same moment exactly one wins and the other is told the file
exists (a check followed by a rename would let both succeed); with `force` by
os.replace. A new file gets the mode a plain open gives (0666 less the umask), a
replaced file keeps its mode. An existing symbolic link is refused without `force`
and followed with it: the file it points to is replaced, the link stays; with
`follow=False` (files a command owns, such as the pages of a site) a link is never
followed but replaced itself, atomically, by the new file.

A file rewritten in place (`sync --write`) can be replaced only if it still holds the
bytes it was read with (`expected`): just before the rename its content is compared
under an exclusive lock of the file, so an edit saved meanwhile, or another writer
that replaced it first, makes this write refuse (`Changed`) instead of losing that edit.

A reader never sees half a file, and nothing is left behind: not on an error, nor
on SIGINT, SIGTERM or SIGHUP during the write (the temporary file is removed, then
the signal takes its course); only SIGKILL leaves the hidden `.NAME.*.tmp` file.
Every OSError is an OutputError naming the path, the step and the system's reason.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import secrets
import signal
import stat
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any


class OutputError(ValueError):
    """The output file cannot be written: the message names the path and why."""


class InputError(ValueError):
    """An input file cannot be read as what it should be: the message names the path."""


def read_json(path: Path, what: str) -> Any:
    """The JSON value of the file `path`, which should be `what` ("a baseline file"); an
    InputError naming the file and what is wrong (missing, unreadable, not UTF-8, not
    JSON and where, nested deeper than the parser goes)."""
    try:
        if path.is_dir():
            raise InputError(f"{path}: is a directory, expected {what}")
        if path.exists() and not path.is_file():  # a FIFO or a device would block
            raise InputError(f"{path}: not a regular file, expected {what}")
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file, expected {what}") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{exc.lineno}: not JSON ({exc.msg})") from exc
    except RecursionError:
        raise InputError(f"{path}: JSON nested too deeply, expected {what}") from None


class Changed(Exception):
    """The file no longer holds the bytes it was read with: nothing was written."""


_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
# filesystems without hard links answer os.link with one of these
_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EMLINK}


def check_target(
    path: Path, force: bool, inputs: Iterable[Path] = (), *, follow: bool = True
) -> None:
    """OutputError when `path` cannot receive the output: a directory, a name taken
    (a file, a link, even a dangling one) without `force`, one of the command's `inputs`
    (with `force` too: an input is never overwritten), or a directory that does not
    exist (the link's, when `force` follows it). Cheap, so that a command can refuse
    before it does its work."""
    try:
        for given in inputs:
            if path.exists() and given.exists() and os.path.samefile(path, given):
                raise OutputError(
                    f"{path}: is {given}, an input of this command; choose another file to write"
                )
        if path.is_dir():
            raise OutputError(f"{path}: is a directory")
        if (path.is_symlink() or path.exists()) and not force:
            raise OutputError(f"{path}: exists; pass --force to replace it")
        target = _followed(path) if force and follow else path
        if not target.parent.is_dir():
            raise OutputError(f"{path}: directory {target.parent} does not exist")
    except OSError as exc:
        raise OutputError(f"{path}: cannot be examined ({exc.strerror or exc})") from exc


def _kept_mode(target: Path) -> int | None:
    """The mode of the file `target` names, which its replacement keeps; None when there
    is none (absent, or a link, which is replaced and not followed)."""
    try:
        status = os.lstat(target)
    except FileNotFoundError:
        return None
    return stat.S_IMODE(status.st_mode) if stat.S_ISREG(status.st_mode) else None


def _followed(path: Path) -> Path:
    """The file a symbolic link leads to (the path itself when it is not a link)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def write_atomically(
    path: Path,
    text: str | bytes,
    force: bool,
    expected: bytes | None = None,
    *,
    follow: bool = True,
) -> None:
    """Write `text` (str as UTF-8, or bytes) to `path` whole or not at all, as the module
    describes; refuse an existing name unless `force`; with `follow` False, replace a
    symbolic link at `path` instead of the file it leads to. OutputError on any failure;
    Changed when `expected` is given and the file no longer holds it."""
    check_target(path, force, follow=follow)
    target = _followed(path) if force and follow else path
    data = memoryview(text.encode("utf-8") if isinstance(text, str) else text)
    step = "read the mode of the file it replaces"
    with _Scratch(path) as scratch:
        try:
            mode = _kept_mode(target) if force else None
            step = f"create a file in {target.parent}"
            fd, temporary = scratch.create(target)
            step = "write"
            if mode is not None:
                os.fchmod(fd, mode)
            while data:
                data = data[os.write(fd, data) :]
            os.fsync(fd)
            scratch.close()
            step = "replace it" if force else "create it"
            if expected is not None:
                with _unchanged(target, expected, path):
                    os.replace(temporary, target)
            elif force:
                os.replace(temporary, target)
            else:
                _publish_new(temporary, target)
            scratch.published = True
        except OSError as exc:
            raise OutputError(f"{path}: cannot {step} ({exc.strerror or exc})") from exc


@contextlib.contextmanager
def _unchanged(target: Path, expected: bytes, path: Path) -> Iterator[None]:
    """Hold an exclusive lock of `target` while it still holds `expected`; Changed when it
    does not, or when it was replaced (another inode under its name) while the lock was
    awaited. Writers that take the lock replace the file one after the other."""
    try:
        fd = os.open(target, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise Changed(f"{path}: changed while syncing (removed); nothing written") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            current = os.stat(target).st_ino
        except FileNotFoundError:
            current = None
        if os.fstat(fd).st_ino != current:
            raise Changed(f"{path}: changed while syncing (replaced); nothing written")
        held = bytearray()
        while chunk := os.read(fd, 1 << 20):
            held += chunk
        if held != expected:
            raise Changed(f"{path}: changed while syncing; nothing written")
        yield
    finally:
        os.close(fd)  # releases the lock


def _publish_new(temporary: Path, target: Path) -> None:
    """Give the written file the name `target`, refusing if the name is taken: a hard
    link is atomic; where hard links are not supported, the name is claimed with
    O_EXCL and the file renamed over the claim."""
    try:
        os.link(temporary, target)
        return
    except FileExistsError:
        raise OutputError(f"{target}: exists; pass --force to replace it") from None
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        raise OutputError(f"{target}: exists; pass --force to replace it") from None
    os.replace(temporary, target)


class _Interrupted(BaseException):
    """A signal arrived during the write; raised by the handler, so that the write
    stops where it is and the temporary file is removed."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _Scratch:
    """The temporary file of one write, removed on leaving however the block ends.

    Within the block SIGINT, SIGTERM and SIGHUP raise _Interrupted; on leaving, the
    previous handlers come back and the signal is raised again for them (SIGTERM then
    ends the process, as it would have). Signals that are ignored or handled outside
    Python are left alone, and so is every signal outside the main thread (only it
    may set handlers)."""

    def __init__(self, path: Path) -> None:
        self.output = path  # as the user named it, for messages
        self.path: Path | None = None
        self.fd: int | None = None
        self.published = False
        self.previous: dict[int, Any] = {}  # signal -> its handler before the write

    def __enter__(self) -> _Scratch:
        if threading.current_thread() is threading.main_thread():
            for s in _SIGNALS:
                handler = signal.getsignal(s)
                if handler not in (signal.SIG_IGN, None):
                    self.previous[s] = handler
                    signal.signal(s, _stop)
        return self

    def create(self, target: Path) -> tuple[int, Path]:
        """Create and open `.NAME.<random>.tmp` beside `target` with mode 0666 (less
        the umask, as any new file); signals are held off meanwhile, so the file
        never exists without self.path naming it."""
        held = signal.pthread_sigmask(signal.SIG_BLOCK, list(self.previous))
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
            for _ in range(100):
                candidate = target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"
                with contextlib.suppress(FileExistsError):
                    fd = self.fd = os.open(candidate, flags, 0o666)
                    self.path = candidate
                    return fd, candidate
            raise FileExistsError(errno.EEXIST, "no free temporary name", str(target.parent))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)

    def __exit__(self, kind: type | None, error: BaseException | None, trace: object) -> bool:
        try:
            self.close()
        finally:
            if self.path is not None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.path)
            for s, handler in self.previous.items():
                signal.signal(s, handler)
        if not isinstance(error, _Interrupted):
            return False
        signal.raise_signal(error.signum)  # as if it came now
        if self.published:
            return True  # the file was complete; the handler chose to carry on
        name = signal.Signals(error.signum).name
        raise OutputError(f"{self.output}: interrupted by {name}; nothing written")


def _stop(signum: int, frame: object) -> None:
    raise _Interrupted(signum)
