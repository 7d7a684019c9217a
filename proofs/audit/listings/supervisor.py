"""The process that runs a chapter's listings, one at a time, as the audit asks: the only
process that talks to the audit, and the one no listing can reach.

The audit starts it (`python -I -S -c <this file>`) in the sandbox as its PID 1, or as a
child of its own where the machine has no namespaces, with a socket to the audit as
argv[1] and its settings as argv[2] (JSON). Inside a PID namespace, PID 1 receives no
signal a listing sends but those it handles, and it handles none (SIGINT is ignored):
SIGKILL and SIGSTOP from a listing do nothing to it. It is not dumpable, so that no
listing can open its socket through /proc or trace it. It is a child subreaper: every
orphan of a listing, whatever session or process group it started, becomes its child,
and after each listing every one of its children is killed and reaped.

Messages are lines of JSON on the socket. The audit sends, for each listing, the files to
save in the folder and the one to run, with its seconds, and two descriptors (the write
ends of the listing's standard output and error) attached; or `{"stop": true}` while one
runs. This process answers `{"ready": true}` once, then for each listing
`{"started": pid}` and `{"ended": how, "record": text}`: how it ended ({"exit": code},
{"signal": number}, {"stopped": "time" | "asked"}, {"unsaved": why}) and what its
bootstrap wrote on descriptor 3 (the exception it raised, as the listing's own process
says; the audit reads it as data). It runs only the standard library, imports nothing of
the package, and is a script, not a module the package imports.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import resource
import select
import shutil
import signal
import socket
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
RECORD = 3  # the listing's descriptor for its bootstrap's record
RECORD_LIMIT = 16384  # bytes of a record kept
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\.py")
LIBC = ctypes.CDLL(None, use_errno=True)


def prctl(option: int, value: int) -> None:
    if LIBC.prctl(ctypes.c_int(option), ctypes.c_ulong(value), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option}, {value})")


class Lines:
    """The audit's messages: lines of JSON on the socket, with the descriptors sent
    beside them."""

    def __init__(self, control: socket.socket) -> None:
        self.control = control
        self.buffer = b""
        self.fds: list[int] = []
        self.open = True

    def fill(self) -> None:
        """Read once from the socket (it must be readable, or this blocks)."""
        data, fds, _, _ = socket.recv_fds(self.control, 1 << 16, 8)
        self.buffer += data
        self.fds += fds
        self.open = bool(data)

    def take(self) -> dict | None:
        """The next whole message, None if none is whole yet."""
        line, found, rest = self.buffer.partition(b"\n")
        if not found:
            return None
        self.buffer = rest
        return json.loads(line)

    def next(self) -> dict | None:
        """The next message, waiting for it; None once the audit has closed the socket."""
        while True:
            message = self.take()
            if message is not None or not self.open:
                return message
            self.fill()


def send(control: socket.socket, message: dict) -> None:
    control.sendall(json.dumps(message).encode() + b"\n")


def children() -> list[int]:
    """The processes whose parent is this one (from /proc, zombies included)."""
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == me:
            found.append(int(entry))
    return found


def reap(listing: int) -> int | None:
    """Reap every child that has ended; the listing's wait status if it was among them."""
    status = None
    while True:
        try:
            pid, code = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return status
        if pid == 0:
            return status
        if pid == listing:
            status = code


def end_descendants() -> None:
    """Kill every child, reap it, and again for the orphans each leaves, until none is
    left: all that a listing started, whatever session it moved to."""
    while True:
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return
        for pid in children():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.001)


def save(folder: int, name: str, text: str) -> str:
    """Write a listing's file in the folder, replacing whatever a listing left under its
    name (a link is replaced, never followed); "" or why it could not."""
    if not NAME.fullmatch(name):
        return "not a file name"
    try:
        try:
            os.unlink(name, dir_fd=folder)
        except FileNotFoundError:
            pass
        except IsADirectoryError:
            shutil.rmtree(name, dir_fd=folder)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        handle = os.open(name, flags, 0o644, dir_fd=folder)
        with open(handle, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return ""


def start(settings: dict, folder: int, name: str, seconds: float, out: int, err: int, record: int):
    """Fork the listing's process: its own session, the settings' limits and environment,
    its standard streams the audit's pipes, its record descriptor 3, nothing else open."""
    parent = os.getpid()
    pid = os.fork()
    if pid:
        return pid
    try:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        prctl(PR_SET_NO_NEW_PRIVS, 1)  # no set-user-ID program it starts escapes its kill
        if os.getppid() != parent:
            os._exit(1)
        os.setsid()
        os.fchdir(folder)
        stdin = os.open(os.devnull, os.O_RDONLY)
        for source, target in ((stdin, 0), (out, 1), (err, 2), (record, RECORD)):
            os.dup2(source, target)
            os.set_inheritable(target, True)
        os.closerange(RECORD + 1, 1 << 16)
        limits = {
            resource.RLIMIT_AS: settings["memory"],
            resource.RLIMIT_CPU: int(seconds) + 2,  # a backstop to the wall clock
            resource.RLIMIT_FSIZE: settings["file"],
            resource.RLIMIT_CORE: 0,
        }
        if settings["processes"]:
            limits[resource.RLIMIT_NPROC] = settings["processes"]
        for which, value in limits.items():
            hard = resource.getrlimit(which)[1]
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(which, (value, value))
        python = settings["python"]
        arguments = [python, "-s", "-B", "-c", settings["bootstrap"], name, str(RECORD)]
        os.execve(python, arguments, settings["environment"])
    except BaseException as exc:
        os.write(2, f"the listing could not start: {exc!r}\n".encode())
    finally:
        os._exit(127)


def run(settings: dict, folder: int, request: dict, fds: list[int], lines: Lines) -> dict:
    """Save the request's files, run its listing until it ends, its time is up or the
    audit asks to stop it, then end everything it started."""
    out, err = fds
    for name, text in request["files"].items():
        why = save(folder, name, text)
        if why:
            os.close(out)
            os.close(err)
            return {"ended": {"unsaved": why}, "record": ""}
    seconds = float(request["seconds"])
    reading, writing = os.pipe()
    pid = start(settings, folder, request["run"], seconds, out, err, writing)
    for fd in (out, err, writing):
        os.close(fd)
    send(lines.control, {"started": pid})
    try:
        waker = os.pidfd_open(pid)
    except OSError:
        waker = -1  # no pidfd (Linux before 5.3): woken every 20 ms to look
    deadline = time.monotonic() + seconds
    record, status = bytearray(), None
    how: dict[str, int | str] | None = None
    while status is None and how is None:
        left = deadline - time.monotonic()
        if left <= 0:
            how = {"stopped": "time"}
            break
        watched = [lines.control] + [fd for fd in (reading, waker) if fd >= 0]
        ready = select.select(watched, [], [], left if waker >= 0 else min(left, 0.02))[0]
        if lines.control in ready:
            lines.fill()
            if not lines.open or lines.take() is not None:
                how = {"stopped": "asked"}
        if reading in ready:
            chunk = os.read(reading, 65536)
            record += chunk[: max(RECORD_LIMIT - len(record), 0)]
            if not chunk:
                os.close(reading)
                reading = -1
        status = reap(pid)
    end_descendants()
    if waker >= 0:
        os.close(waker)
    if reading >= 0:  # every writer is gone: what is left is read to its end
        while chunk := os.read(reading, 65536):
            record += chunk[: max(RECORD_LIMIT - len(record), 0)]
        os.close(reading)
    if how is None:
        assert status is not None
        signalled = os.WIFSIGNALED(status)
        how = {"signal": os.WTERMSIG(status)} if signalled else {"exit": os.WEXITSTATUS(status)}
    return {"ended": how, "record": record.decode("utf-8", errors="replace")}


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    prctl(PR_SET_DUMPABLE, 0)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    control = socket.socket(fileno=int(sys.argv[1]))
    settings = json.loads(sys.argv[2])
    for name in (".home", ".tmp"):
        os.makedirs(os.path.join(settings["folder"], name), exist_ok=True)
    folder = os.open(settings["folder"], os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    lines = Lines(control)
    send(control, {"ready": True})
    while (request := lines.next()) is not None:
        if "run" not in request:
            continue  # a stop that came after its listing had ended
        fds, lines.fds = lines.fds[:2], lines.fds[2:]
        send(control, run(settings, folder, request, fds, lines))
    end_descendants()


if __name__ == "__main__":
    main()
