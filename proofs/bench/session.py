"""A reader's file, running: the harness (`harness.py`) imports it in the listings' sandbox,
under their supervisor and limits (`proofs.audit.listings.sandbox`), and answers the
judge's calls over a channel of its own, while the sandbox's `run` waits in a thread for
it to end. Nothing of the reader's runs in the judge's process.

A call answers a Reply: what the function returned (decoded strictly, `wire.py`), or why
it returned nothing (it raised, ran out of its time, printed too much), with its time and
the arguments it changed. When the harness is gone (it crashed, the supervisor stopped
it, it said what it never says) every later call answers the same one-line reason.
"""

from __future__ import annotations

import json
import signal
import socket
import struct
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from proofs.audit.listings.record import shown
from proofs.audit.listings.running import DISK, MEMORY, OUTPUT_LIMIT
from proofs.audit.listings.sandbox import NotStarted, Outcome, Sandbox
from proofs.bench import wire

HARNESS = "_proofs_check_harness.py"
RUNNER = "_proofs_check.py"
CALL_SECONDS = 10.0  # one call of a reader's function
IMPORT_SECONDS = 20.0  # importing the reader's file
SESSION_SECONDS = 600.0  # everything the harness runs, from the import to the last call
GRACE = 5.0  # past a call's time for the harness to say it stopped it


@dataclass(frozen=True)
class Reply:
    """One call's answer: `value` when it returned (`returned` True), else `problem`, one
    line naming the function; `mutated`: the arguments it changed."""

    name: str
    returned: bool
    value: object = None
    problem: str = ""
    seconds: float = 0.0
    mutated: tuple[str, ...] = ()


@dataclass
class Imported:
    """What the import of the reader's file said: "" when it imported, else why not."""

    problem: str = ""
    functions: dict[str, object] = field(default_factory=dict)


class Session:
    """The reader's file `name` among `files` (name -> text, saved side by side), imported
    and ready for calls; `close()` ends it. `contain` as for the listings (None: a sandbox
    where the machine allows one)."""

    def __init__(
        self,
        files: dict[str, str],
        name: str,
        contain: bool | None = None,
        call_seconds: float = CALL_SECONDS,
        session_seconds: float = SESSION_SECONDS,
    ) -> None:
        self.call_seconds = call_seconds
        self.last: Reply | None = None  # the latest call's answer, for the slips' hints
        self.lost = ""
        self.outcome: Outcome | None = None
        settings = {"file": name, "seconds": IMPORT_SECONDS}
        runner = (
            f"import json\nimport {HARNESS[:-3]}\n\n"
            f"{HARNESS[:-3]}.main(json.loads({json.dumps(json.dumps(settings))}))\n"
        )
        harness = (Path(__file__).parent / "harness.py").read_text(encoding="utf-8")
        saved = {**files, HARNESS: harness, RUNNER: runner}
        self.sandbox = Sandbox(contain, None, MEMORY, DISK)
        self.contained = self.sandbox.contained
        self.containment = self.sandbox.why
        self.channel, theirs = socket.socketpair()
        self._thread = threading.Thread(
            target=self._run, args=(saved, session_seconds, theirs), daemon=True
        )
        self._thread.start()
        first = self._receive(time.monotonic() + IMPORT_SECONDS + GRACE + 10)
        theirs.close()  # handed over by now, or never: the harness holds the only other end
        self.imported = Imported()
        if first is None:
            self.imported.problem = f"did not import: {self.lost}"
        elif first == {"imported": True}:
            pass
        elif isinstance(first, dict) and isinstance(first.get("import_failed"), dict):
            self.imported.problem = "did not import: " + _raised(first["import_failed"], "")
        else:
            self.imported.problem = "did not import: the harness said what it never says"

    def _run(self, files: dict[str, str], seconds: float, theirs: socket.socket) -> None:
        self.outcome = self.sandbox.run(files, RUNNER, seconds, OUTPUT_LIMIT, channel=theirs)

    def _ended(self) -> str:
        """Why the harness is gone, once the sandbox's run has returned."""
        outcome = self.outcome
        if outcome is None:
            return "the harness ended"
        if outcome.lost:
            return f"the sandbox was lost ({outcome.lost})"
        if outcome.stopped == "output":
            return f"it printed more than {OUTPUT_LIMIT // 2**20} MiB; stopped"
        if outcome.stopped == "time":
            return "the reader's file had run its time; stopped"
        if outcome.stopped == "disk":
            return "it wrote more files than its folder holds; stopped"
        if outcome.signal is not None:
            name = signal.Signals(outcome.signal).name
            return f"its process was killed by {name} (perhaps at its memory limit)"
        if outcome.exit:
            return f"its process exited with status {outcome.exit}"
        return "its process ended"

    def _receive(self, deadline: float) -> object | None:
        """The harness's next message, None (and `lost` set) if it sends none by then."""
        if self.lost:
            return None
        buffer = bytearray()
        wanted = 8
        size = None
        while len(buffer) < wanted:
            left = deadline - time.monotonic()
            if left <= 0:
                self.lost = "it did not answer in time"
                self.sandbox.stop()
                return None
            self.channel.settimeout(min(left, 0.25))
            try:
                chunk = self.channel.recv(min(1 << 20, wanted - len(buffer)))
            except TimeoutError:
                if not self._thread.is_alive():
                    self.lost = self._ended()
                    return None
                continue
            except OSError as exc:
                self.lost = f"its channel failed ({exc.strerror or type(exc).__name__})"
                return None
            if not chunk:
                self._thread.join(GRACE)
                self.lost = self._ended()
                return None
            buffer += chunk
            if size is None and len(buffer) == 8:
                (size,) = struct.unpack(">Q", bytes(buffer))
                if size > wire.LARGEST:
                    self.lost = f"it sent more than {wire.LARGEST // 2**20} MiB at once"
                    self.sandbox.stop()
                    return None
                buffer.clear()
                wanted = size
        try:
            return json.loads(bytes(buffer))
        except (ValueError, RecursionError):
            self.lost = "the harness said what it never says"
            self.sandbox.stop()
            return None

    def _send(self, message: object) -> bool:
        if self.lost:
            return False
        try:
            self.channel.settimeout(GRACE)
            self.channel.sendall(wire.frame(message))
        except OSError:
            self._thread.join(GRACE)
            self.lost = self._ended()
            return False
        return True

    def probe(self, names: list[str]) -> dict[str, object]:
        """For each name, the reader's function's parameters ([name, kind, has a default]),
        or why it is none ({"missing": True}, {"not_callable": type})."""
        if self.imported.problem or not self._send({"probe": names}):
            return {}
        answer = self._receive(time.monotonic() + GRACE + 10)
        if not isinstance(answer, dict) or not isinstance(answer.get("functions"), dict):
            return {}
        return answer["functions"]

    def call(self, name: str, *args: object, **kwargs: object) -> Reply:
        """The reader's `name` on these arguments, within the call's time."""
        self.last = self._call(name, args, kwargs)
        return self.last

    def _call(self, name: str, args: tuple, kwargs: dict) -> Reply:
        if self.imported.problem:
            return Reply(name, False, problem=f"{name}: the file {self.imported.problem}")
        request = {
            "name": name,
            "args": [wire.encode(a) for a in args],
            "kwargs": {k: wire.encode(v) for k, v in kwargs.items()},
            "seconds": self.call_seconds,
        }
        if not self._send(request):
            return Reply(name, False, problem=f"{name} was not run: {self.lost}")
        answer = self._receive(time.monotonic() + self.call_seconds + GRACE)
        if answer is None:
            return Reply(name, False, problem=f"{name} was not run to its end: {self.lost}")
        return _reply(name, answer)

    def close(self) -> None:
        """End the harness and the sandbox."""
        try:
            self.channel.close()
        finally:
            self._thread.join(GRACE)
            if self._thread.is_alive():
                self.sandbox.stop()
                self._thread.join(GRACE)
            self.sandbox.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _raised(record: object, name: str) -> str:
    """One line of what a call (or the import) raised, read strictly."""
    if not isinstance(record, dict):
        return "it raised (the record could not be read)"
    kind, message, at = record.get("type"), record.get("message"), record.get("at")
    if kind == "timeout":
        return f"it ran past its {IMPORT_SECONDS:g} s"
    if kind == "printed":
        return "it printed more than 1 MiB"
    kind = shown(str(kind))[:100]
    text = f": {shown(str(message))[:300]}" if message else ""
    where = ""
    if isinstance(at, list) and at and isinstance(at[-1], list) and len(at[-1]) == 2:
        file, line = at[-1]
        where = f" (line {int(line)} of {shown(str(file))[:100]})" if type(line) is int else ""
    return f"{name + ' ' if name else ''}raised {kind}{text}{where}"


def _reply(name: str, answer: object) -> Reply:
    if not isinstance(answer, dict):
        return Reply(name, False, problem=f"{name}: the harness said what it never says")
    if "timeout" in answer:
        return Reply(name, False, problem=f"{name} ran past its {answer['timeout']:g} s; stopped")
    if "printed" in answer:
        return Reply(name, False, problem=f"{name} printed more than 1 MiB in one call; stopped")
    if "raised" in answer:
        return Reply(name, False, problem=_raised(answer["raised"], name))
    seconds, mutated = answer.get("seconds"), answer.get("mutated")
    if not isinstance(seconds, float | int) or not isinstance(mutated, list):
        return Reply(name, False, problem=f"{name}: the harness said what it never says")
    try:
        value = wire.decode(answer.get("ok"))
    except (wire.Garbled, ValueError) as exc:
        return Reply(name, False, problem=f"{name} returned what cannot be read ({exc})")
    return Reply(
        name, True, value, seconds=float(seconds), mutated=tuple(shown(str(m)) for m in mutated)
    )


__all__ = ["NotStarted", "Reply", "Session"]
