"""Where a chapter's listings run: a sandbox of their own where the machine allows it
(`bubblewrap`), else processes of the user's; either way under a supervisor
(`supervisor.py`) that the audit alone talks to, over a socket no listing holds.

Contained, the supervisor is PID 1 of the sandbox: a listing sees no process but its
sandbox's, no network, of the machine only /usr and the Python installation, read-only,
and it writes only in /tmp, a tmpfs of `disk` bytes that holds the listings' folder.
Nothing is written on the machine; the sandbox ends with its supervisor, and with the
audit.

Not contained, the supervisor is a process of the user's in a session of its own, the
folder a temporary folder whose size the audit measures five times a second, and a listing
runs as the user: it can read and write the user's files, use the network and signal the
user's processes, the audit's among them, though not by its parent's id (the
supervisor's). Either way the environment is the few variables below, nothing of the
user's.
"""

from __future__ import annotations

import json
import math
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from proofs.audit.listings import bubblewrap
from proofs.audit.listings.reaping import descendants, in_session, kill_all
from proofs.audit.listings.record import shown

FILE_LIMIT = 64 * 2**20  # the largest file a listing may write
PROCESSES = 256  # processes (threads included) of a contained listing at once
STARTING = 10.0  # seconds a sandbox may take to start
GRACE = 5.0  # seconds past a listing's time for the supervisor to say it stopped it
DRAIN = 2.0  # seconds to read the rest of what a listing printed once it has ended
MEASURING = 0.2  # seconds between two measures of an uncontained folder
ENTRIES = 100_000  # entries of an uncontained folder measured at most
INSIDE = "/tmp/listings"  # the folder, in the sandbox
_LONGEST = 2**20  # bytes of a line of the supervisor's


@dataclass(frozen=True)
class Outcome:
    """How one listing ended: its exit status or the signal that ended it, as the
    supervisor saw it; or why it was stopped ("time", "output", "disk"), why its file
    could not be saved, or why the supervisor is gone; what it printed, and the record
    its bootstrap (or the listing) wrote."""

    stdout: bytes
    exit: int | None = None
    signal: int | None = None
    stopped: str = ""
    unsaved: str = ""
    lost: str = ""
    record: str = ""


class NotStarted(Exception):
    """A sandbox that did not start, and why (one line)."""


def environment(folder: str) -> dict[str, str]:
    """The whole environment of the supervisor and of each listing."""
    return {
        "PATH": os.pathsep.join(
            [os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"]
        ),
        "HOME": f"{folder}/.home",
        "TMPDIR": f"{folder}/.tmp",
        "PYTHONHASHSEED": "0",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "LC_ALL": "C.UTF-8",
        "MPLBACKEND": "Agg",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


def _script(name: str) -> str:
    return (Path(__file__).parent / name).read_text(encoding="utf-8")


def used(folder: str) -> float:
    """The bytes the files under `folder` take on disk (links not followed); infinite
    past ENTRIES entries."""
    total, seen, pending = 0, 0, [folder]
    while pending:
        try:
            entries = list(os.scandir(pending.pop()))
        except OSError:
            continue
        seen += len(entries)
        if seen > ENTRIES:
            return math.inf
        for entry in entries:
            try:
                total += entry.stat(follow_symlinks=False).st_blocks * 512
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
            except OSError:
                continue
    return total


def read_message(line: bytes) -> dict | None:
    """A line of the supervisor's, if it is one the supervisor says: read strictly, since
    where the listings run as the user one of them might answer in its place."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict):
        return None
    if message == {"ready": True}:
        return message
    if set(message) == {"started"}:
        return message if type(message["started"]) is int and message["started"] > 1 else None
    if set(message) != {"ended", "record"} or not isinstance(message["record"], str):
        return None
    ended = message["ended"]
    if not isinstance(ended, dict) or len(ended) != 1:
        return None
    ((how, value),) = ended.items()
    if how == "stopped":
        return message if value in ("time", "asked") else None
    kinds = {"exit": int, "signal": int, "unsaved": str}
    return message if how in kinds and type(value) is kinds[how] else None


class Sandbox:
    """A chapter's supervisor, running: `run` one listing after another in its folder,
    then `close`. Contained when `contain` is True (NotStarted if it cannot be), not when
    False, and where the machine allows it when None; `why` says why it is not."""

    def __init__(self, contain: bool | None, scratch: Path | None, memory: int, disk: int) -> None:
        self.disk = disk
        self.why = "contain=False"
        if contain is not False:
            try:
                self._start(True, scratch, memory)
                self.why = ""
                return
            except NotStarted as exc:
                if contain:
                    raise
                self.why = str(exc)
        self._start(False, scratch, memory)

    @property
    def contained(self) -> bool:
        return not self.why

    def _start(self, contained: bool, scratch: Path | None, memory: int) -> None:
        """Start the supervisor and wait for its first word."""
        bwrap = bubblewrap.bwrap()
        if contained and bwrap is None:
            raise NotStarted("bubblewrap (bwrap) is not installed")
        self._buffer = b""
        self._messages: list[dict] = []
        self._listing = 0  # the pid of the listing running, as the supervisor said
        self._folder = None
        if not contained:
            self._folder = tempfile.TemporaryDirectory(
                prefix="listings-", dir=scratch, ignore_cleanup_errors=True
            )
        self.folder = self._folder.name if self._folder else None
        inside = self.folder or INSIDE
        settings = {
            "python": sys.executable,
            "bootstrap": _script("bootstrap.py"),
            "folder": inside,
            "environment": environment(inside),
            "memory": memory,
            "file": FILE_LIMIT,
            "processes": PROCESSES if contained else None,
        }
        self.control, theirs = socket.socketpair()
        self.control.settimeout(GRACE)  # a send to a supervisor that no longer reads fails
        command = [sys.executable, "-I", "-S", "-c", _script("supervisor.py")]
        command += [str(theirs.fileno()), json.dumps(settings)]
        if bwrap is not None and contained:
            command = [bwrap, *bubblewrap.arguments(self.disk), "--", *command]
        try:
            with theirs:
                self.process = subprocess.Popen(
                    command,
                    cwd=self.folder or "/",
                    env=environment(inside),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    pass_fds=[theirs.fileno()],
                    start_new_session=True,
                )
        except OSError as exc:
            self.control.close()
            self._remove_folder()
            raise NotStarted(f"{Path(command[0]).name}: {exc.strerror}") from exc
        try:
            ready = self._next(time.monotonic() + STARTING) == {"ready": True}
        except BaseException:
            self._end()
            self.close()
            raise
        if not ready:
            self._end()
            said = self.process.stderr.read() if self.process.stderr else b""
            self.close()
            lines = said.decode("utf-8", "replace").strip().splitlines()
            why = lines[-1][:200] if lines else "it did not start"
            raise NotStarted(f"{Path(command[0]).name}: {shown(why)}")

    def _receive(self) -> bool:
        """Read what the socket holds now into the messages; False when the supervisor is
        gone or said what it never says."""
        try:
            chunk = self.control.recv(65536)
        except OSError:
            return False
        if not chunk:
            return False
        self._buffer += chunk
        while b"\n" in self._buffer:
            line, _, self._buffer = self._buffer.partition(b"\n")
            message = read_message(line)
            if message is None:
                return False
            self._messages.append(message)
        return len(self._buffer) <= _LONGEST

    def _next(self, deadline: float) -> dict | None:
        """The supervisor's next message, None when it says none by `deadline`."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.control, selectors.EVENT_READ)
            while not self._messages:
                left = deadline - time.monotonic()
                if left <= 0 or (selector.select(left) and not self._receive()):
                    return None
        return self._messages.pop(0)

    def run(self, files: dict[str, str], name: str, seconds: float, output_limit: int) -> Outcome:
        """Save `files` in the folder and run `name` for at most `seconds`, reading at most
        `output_limit` bytes of what it prints (stdout and stderr together)."""
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        request = json.dumps({"files": files, "run": name, "seconds": seconds}).encode() + b"\n"
        try:
            socket.send_fds(self.control, [request[:1]], [out_w, err_w])
            self.control.sendall(request[1:])
        except OSError:
            os.close(out_r)
            os.close(err_r)
            return self._lost(b"", "it was gone")
        finally:
            os.close(out_w)
            os.close(err_w)
        out, read, stopped, ended = bytearray(), 0, "", None
        deadline = time.monotonic() + seconds + GRACE
        measure = time.monotonic()
        with selectors.DefaultSelector() as selector:
            pipes = {out_r: True, err_r: False}
            for fd, kept in pipes.items():
                selector.register(fd, selectors.EVENT_READ, kept)
            selector.register(self.control, selectors.EVENT_READ, None)
            try:
                while ended is None or pipes:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        if ended is None:
                            why = f"it did not answer in {seconds + GRACE:g} s"
                            return self._lost(bytes(out), why)
                        break  # something the listing left holds its output: no more is read
                    for key, _ in selector.select(min(left, MEASURING)):
                        if key.data is None:
                            if not self._receive():
                                return self._lost(
                                    bytes(out), "it ended, or said what it never says"
                                )
                            continue
                        chunk = os.read(key.fd, 65536)
                        if not chunk:
                            selector.unregister(key.fd)
                            del pipes[key.fd]
                            os.close(key.fd)
                            continue
                        read += len(chunk)
                        if key.data and len(out) <= output_limit:
                            out += chunk
                        if read > output_limit and not stopped:
                            stopped = "output"
                            self._stop()
                    while ended is None and self._messages:
                        message = self._messages.pop(0)
                        if "started" in message:
                            self._listing = message["started"]
                        elif "ended" in message:
                            ended = message
                            selector.unregister(self.control)
                            deadline = time.monotonic() + DRAIN
                        else:
                            return self._lost(bytes(out), "it said it was ready again")
                    if self.folder and not stopped and time.monotonic() >= measure:
                        measure = time.monotonic() + MEASURING
                        if used(self.folder) > self.disk:
                            stopped = "disk"
                            self._stop()
            finally:
                for fd in pipes:
                    os.close(fd)
        ((how, value),) = ended["ended"].items()
        return Outcome(
            bytes(out[:output_limit]),
            exit=value if how == "exit" else None,
            signal=value if how == "signal" else None,
            stopped=stopped or ("time" if how == "stopped" else ""),
            unsaved=value if how == "unsaved" else "",
            record=ended["record"],
        )

    def _stop(self) -> None:
        """Ask the supervisor to stop the listing (if it is gone, `run` finds out)."""
        try:
            self.control.sendall(b'{"stop": true}\n')
        except OSError:
            pass

    def _lost(self, printed: bytes, why: str) -> Outcome:
        """The supervisor is gone or no longer to be trusted: end everything it ran."""
        try:
            status = self.process.wait(0.1)
        except subprocess.TimeoutExpired:
            status = 0
        if status < 0:
            why = f"it was killed by {signal.Signals(-status).name}"
        self._end()
        return Outcome(printed, lost=why)

    def _end(self) -> None:
        """Kill the supervisor and whatever is below it, and (not contained) what is left
        of the listing's session: its orphans, if the listing killed the supervisor."""
        root = self.process.pid
        kill_all(lambda table: descendants(root, table))
        self.process.kill()
        self.process.wait()
        if self.folder and self._listing:
            leader = self._listing
            kill_all(lambda table: in_session(leader, table))

    def close(self) -> None:
        """End the supervisor (it ends what is left of the listings) and remove the folder."""
        self.control.close()
        try:
            self.process.wait(GRACE)
        except subprocess.TimeoutExpired:
            self._end()
        if self.process.stderr is not None:
            self.process.stderr.close()
        self._remove_folder()

    def _remove_folder(self) -> None:
        if self._folder is not None:
            self._folder.cleanup()


def why_not_contained(memory: int, disk: int) -> str:
    """Why this machine runs no sandbox for listings ("" when it does): one started, then
    ended."""
    try:
        Sandbox(True, None, memory, disk).close()
    except NotStarted as exc:
        return str(exc)
    return ""
