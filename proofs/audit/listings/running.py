"""Running a chapter's listings: in the order of the text, each in its own process, all
in one folder, under a supervisor, in a sandbox where the machine allows it
(`proofs.audit.listings.sandbox`); each under a wall-clock time limit, an address-space
limit and a limit on the output read, all under a time limit for the whole chapter and a
limit on the bytes of their folder."""

from __future__ import annotations

import math
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from proofs.audit.listings.naming import FILE_NAME, file_names
from proofs.audit.listings.record import ErrorRecord, read_record, shown
from proofs.audit.listings.sandbox import NotStarted, Outcome, Sandbox
from proofs.reader import Document
from proofs.reader.records import Listing

TIMEOUT = 30.0  # seconds of wall-clock time per listing
TOTAL_TIMEOUT = 300.0  # seconds of wall-clock time for all the listings of a chapter
MEMORY = 2**30  # bytes of address space per listing
OUTPUT_LIMIT = 2**20  # bytes of output (stdout and stderr) read per listing
DISK = 256 * 2**20  # bytes of the listings' folder


@dataclass(frozen=True)
class ListingRun:
    """What one listing printed when run: `problem` is "" when it ran to the end, else
    one line saying why it did not (stopped, out of memory, raised, exited, not run).
    `contained`: whether it ran in a sandbox; `containment` says so in one line."""

    listing: Listing
    file: str  # the name it was saved under: kv_cache.py, listing_604.py
    stdout: str  # decoded, as printed (at most the output limit), control characters escaped
    problem: str
    seconds: float
    contained: bool = False
    containment: str = ""
    # a file the text names that no listing given holds (attention.py of another chapter
    # not given): the run says nothing of the chapter's numbers
    wanting: str = ""
    # it met a limit of the sandbox (its time, memory, output or folder size, the chapter's
    # time) or the sandbox failed: what it did not print, another machine may print
    limited: bool = False

    @property
    def ran(self) -> bool:
        return not self.problem


def _size(count: float) -> str:
    """2**30 -> '1 GiB', 3 * 2**19 -> '1.5 MiB'."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale:
            return f"{count / scale:g} {unit}"
    return f"{count:g} bytes"


def containment(sandbox: Sandbox, disk: int) -> str:
    """The one line a report says of where the listings ran."""
    if sandbox.contained:
        return (
            "listings ran contained (bubblewrap): no network, no process but their own, of "
            f"the machine only /usr and the Python installation, read-only; a {_size(disk)} "
            "folder"
        )
    return (
        f"listings ran NOT contained ({shown(sandbox.why)}): each ran as you, able to read "
        "and write your files, use the network and signal your processes"
    )


def _where(
    frames: Sequence[tuple[str, int]], files: dict[str, tuple[Listing, str]], own: str
) -> str:
    """'line 7 of the listing, line 512 of the chapter' for the deepest frame in a
    listing's file ("" when none is)."""
    for name, number in reversed(frames):
        if name in files:
            listing, chapter = files[name]
            what = "the listing" if name == own else name
            place = "the chapter" if not chapter else Path(chapter).name
            return f"line {number} of {what}, line {listing.line + number - 1} of {place}"
    return ""


@dataclass(frozen=True)
class _Limits:
    timeout: float
    total: float
    memory: int
    output: int
    disk: int


def _raised(record: str, limits: _Limits, files: dict, own: str, mentioned: set[str]) -> str:
    """What the listing's error record says it raised, "" when it holds no record."""
    error = read_record(record)
    if error is None:
        return ""
    where = _where(error.frames, files, own)
    at = f" at {where}" if where else ""
    if error.memory:
        return f"exceeded its {_size(limits.memory)} of memory (MemoryError{at})"
    if error.type == "ModuleNotFoundError" and error.module in mentioned:
        return (
            f"needs {error.module}.py, which the text names but no listing before it gives: "
            f"audit the chapter that has it first, in the same run (ModuleNotFoundError{at})"
        )
    message = f": {error.message}" if error.message else ""
    return f"raised {error.type}{message}" + (f" ({where})" if where else "")


def _problem(
    outcome: Outcome,
    seconds: float,
    limits: _Limits,
    files: dict[str, tuple[Listing, str]],
    own: str,
    mentioned: set[str],
) -> str:
    """One line saying why a listing given `seconds` did not run to its end ("" when it
    did)."""
    if outcome.lost:
        return f"the process running the listings was lost while it ran ({outcome.lost})"
    if outcome.unsaved:
        return f"could not be saved as {own} ({outcome.unsaved})"
    if outcome.stopped == "time":
        if seconds < limits.timeout:
            return (
                f"stopped after {seconds:.1f} s, when the chapter's listings had run their "
                f"{limits.total:g} s"
            )
        return f"stopped after {limits.timeout:g} s"
    if outcome.stopped == "output":
        return f"printed more than {_size(limits.output)}; stopped"
    if outcome.stopped == "disk":
        return (
            f"stopped: the listings' folder held more than {_size(limits.disk)}, or too many "
            "files to measure"
        )
    unread = " (its error record could not be read)" if outcome.record else ""
    if outcome.exit == 1:
        raised = _raised(outcome.record, limits, files, own, mentioned)
        if raised:
            return raised
    if outcome.signal is not None:
        name = signal.Signals(outcome.signal).name
        if outcome.signal in (signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT):
            return f"crashed with {name} (perhaps at its {_size(limits.memory)} memory limit)"
        if outcome.signal == signal.SIGXCPU:
            return "used more CPU time than its time limit"
        return f"was killed by {name}{unread}"
    if outcome.exit:
        return f"exited with status {outcome.exit}{unread}"
    return ""


def _limited(outcome: Outcome, error: ErrorRecord | None) -> bool:
    """Whether the listing ended at a limit of the sandbox rather than by its own doing:
    stopped for its time, output or folder size, out of memory (a MemoryError, or a
    crash that may be one), over its CPU time, or its supervisor lost."""
    crashed = outcome.signal in (signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT, signal.SIGXCPU)
    return bool(outcome.lost or outcome.stopped or crashed or (error is not None and error.memory))


def _check_limits(limits: _Limits) -> None:
    for name, seconds in (("timeout", limits.timeout), ("total_timeout", limits.total)):
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise TypeError(f"{name}: expected seconds as a number, got {type(seconds).__name__}")
        if not (math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"{name}: expected a positive number of seconds, got {seconds!r}")
    for name, value, least in (
        ("memory", limits.memory, 64 * 2**20),
        ("output_limit", limits.output, 1),
        ("disk", limits.disk, 2**20),
    ):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name}: expected a number of bytes, got {type(value).__name__}")
        if value < least:
            raise ValueError(f"{name}: expected at least {_size(least)}, got {value!r}")


def run_listings(
    document: Document,
    *,
    timeout: float = TIMEOUT,
    total_timeout: float = TOTAL_TIMEOUT,
    memory: int = MEMORY,
    output_limit: int = OUTPUT_LIMIT,
    disk: int = DISK,
    earlier_chapters: Sequence[Document] = (),
    contain: bool | None = None,
    scratch: Path | None = None,
) -> list[ListingRun]:
    r"""Run the chapter's listings with code in the order of the text, each saved under
    its file name (`file_names`) in one folder and run in its own process with `timeout`
    seconds, `memory` bytes of address space and `output_limit` bytes of output, all of
    them within `total_timeout` seconds and `disk` bytes of files. The files the text of
    `earlier_chapters` names are saved there first.

    `contain`: True runs them in a sandbox (`proofs.audit.listings.sandbox`; an error
    where the machine allows none), False as processes of the user's, None (the default)
    in a sandbox where the machine allows it. Not contained, their folder is made in
    `scratch` (the system's temporary folder by default) and removed afterwards.

    >>> from proofs.reader import parse
    >>> chapter = parse('<Example id="ex-sum">\n</Example>\n```python\nprint(6 * 7)\n```\n')
    >>> [(run.file, run.stdout, run.problem) for run in run_listings(chapter)]
    [('listing_4.py', '42\n', '')]
    """
    if not isinstance(document, Document):
        raise TypeError(f"document: expected a Document, got {type(document).__name__}")
    limits = _Limits(timeout, total_timeout, memory, output_limit, disk)
    _check_limits(limits)
    for k, other in enumerate(earlier_chapters):
        if not isinstance(other, Document):
            raise TypeError(
                f"earlier_chapters[{k}]: expected a Document, got {type(other).__name__}"
            )
    if contain is not None and not isinstance(contain, bool):
        raise TypeError(f"contain: expected True, False or None, got {type(contain).__name__}")
    names = file_names(document)
    files: dict[str, tuple[Listing, str]] = {}
    given: dict[str, str] = {}
    for other in earlier_chapters:
        theirs = file_names(other)
        for listing in other.listings:
            name = theirs.get(listing.line, "")
            if name and not name.startswith("listing_"):
                files[name] = (listing, other.path)
                given[name] = "\n".join(listing.code) + "\n"
    mentioned = {
        m.group(1)
        for number, text in enumerate(document.lines, 1)
        if number not in document.code or text.lstrip().startswith("#")
        for m in FILE_NAME.finditer(text)
    }
    listings = [listing for listing in document.listings if listing.code]
    if not listings:
        return []
    runs: list[ListingRun] = []
    try:
        sandbox = Sandbox(contain, scratch, memory, disk)
    except NotStarted as exc:
        raise NotStarted(f"contain: the machine allows no sandbox for listings: {exc}") from exc
    start, lost = time.monotonic(), ""
    try:
        said = containment(sandbox, disk)
        for listing in listings:
            name = names[listing.line]
            files[name] = (listing, "")
            left = total_timeout - (time.monotonic() - start)
            if lost or left <= 0:
                why = lost or f"the chapter's listings had run their {total_timeout:g} s"
                runs.append(
                    ListingRun(
                        listing,
                        name,
                        "",
                        f"not run: {why}",
                        0.0,
                        sandbox.contained,
                        said,
                        limited=True,
                    )
                )
                continue
            seconds = min(timeout, left)
            code = "\n".join(listing.code) + "\n"
            began = time.monotonic()
            outcome = sandbox.run({**given, name: code}, name, seconds, output_limit)
            given = {}
            problem = _problem(outcome, seconds, limits, files, name, mentioned)
            if outcome.lost:
                lost = f"the process running the listings was lost at line {listing.line}"
            stdout = shown(outcome.stdout.decode("utf-8", errors="replace"), keep="\t\n\r")
            spent = time.monotonic() - began
            error = read_record(outcome.record) if outcome.record else None
            wanting = (
                f"{error.module}.py"
                if error is not None
                and error.type == "ModuleNotFoundError"
                and error.module in mentioned
                else ""
            )
            runs.append(
                ListingRun(
                    listing,
                    name,
                    stdout,
                    problem,
                    spent,
                    sandbox.contained,
                    said,
                    wanting,
                    limited=_limited(outcome, error),
                )
            )
    finally:
        sandbox.close()
    return runs
