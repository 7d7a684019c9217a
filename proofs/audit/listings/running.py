"""Running a chapter's listings: in the order of the text, each in its own process with a
clean environment, all in one temporary directory removed afterwards, each under a
wall-clock time limit, an address-space limit and a limit on the output read."""

from __future__ import annotations

import json
import math
import os
import resource
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from proofs.audit.listings.naming import FILE_NAME, file_names
from proofs.reader import Document
from proofs.reader.records import Listing

TIMEOUT = 30.0  # seconds of wall-clock time per listing
MEMORY = 2**30  # bytes of address space per listing
OUTPUT_LIMIT = 2**20  # bytes of output (stdout and stderr) read per listing
FILE_LIMIT = 64 * 2**20  # the largest file a listing may write
_REPORT = ".listing-error.json"

# Runs the listing as __main__ and, when it raises, writes what and where to the report
# file: the exception's name, whether it is a MemoryError, its message's first line, the
# missing module's name, and (file, line) of the frames in the directory's files.
_BOOTSTRAP = """\
import json, os, runpy, sys, traceback
listing, report = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(listing))
sys.argv = [listing]
sys.path[0] = here
try:
    runpy.run_path(listing, run_name="__main__")
except BaseException as exc:
    if isinstance(exc, SystemExit):
        raise
    frames = [(os.path.basename(f.filename), f.lineno)
              for f in traceback.extract_tb(exc.__traceback__)
              if os.path.dirname(os.path.abspath(f.filename)) == here]
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        frames.append((os.path.basename(exc.filename), exc.lineno))
    try:
        message = (str(exc).strip().splitlines() or [""])[0][:200]
    except Exception:
        message = ""
    with open(report, "w", encoding="utf-8") as handle:
        json.dump({"type": type(exc).__name__, "memory": isinstance(exc, MemoryError),
                   "message": message, "module": getattr(exc, "name", None),
                   "frames": frames}, handle)
    traceback.print_exc()
    sys.exit(1)
"""


@dataclass(frozen=True)
class ListingRun:
    """What one listing printed when run: `problem` is "" when it ran to the end, else
    one line saying why it did not (stopped, out of memory, raised, exited)."""

    listing: Listing
    file: str  # the name it was saved under: kv_cache.py, listing_604.py
    stdout: str  # decoded, as printed (at most the output limit)
    problem: str
    seconds: float

    @property
    def ran(self) -> bool:
        return not self.problem


def _size(count: float) -> str:
    """2**30 -> '1 GiB', 3 * 2**19 -> '1.5 MiB'."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale:
            return f"{count / scale:g} {unit}"
    return f"{count:g} bytes"


def _limits(memory: int, seconds: float):
    """The function that sets the child's limits before it starts Python."""
    wanted = {
        resource.RLIMIT_AS: memory,
        resource.RLIMIT_CPU: math.ceil(seconds) + 1,  # a backstop to the wall clock
        resource.RLIMIT_FSIZE: FILE_LIMIT,
        resource.RLIMIT_CORE: 0,
    }
    pairs = {}
    for which, value in wanted.items():
        hard = resource.getrlimit(which)[1]
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        pairs[which] = (value, value)

    def apply() -> None:
        for which, pair in pairs.items():
            resource.setrlimit(which, pair)

    return apply


def _environment(root: Path) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(root / ".home"),
        "TMPDIR": str(root / ".tmp"),
        "PYTHONHASHSEED": "0",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "LC_ALL": "C.UTF-8",
        "MPLBACKEND": "Agg",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


def _stop(process: subprocess.Popen) -> None:
    """Kill the listing's process group (the listing and whatever it started)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _execute(
    root: Path, file: str, timeout: float, memory: int, output_limit: int
) -> tuple[bytes, str, int | None]:
    """Run one saved file: (stdout, why it was stopped or "", exit status or None)."""
    out, read, stopped = bytearray(), 0, ""
    deadline = time.monotonic() + timeout
    process = subprocess.Popen(
        [sys.executable, "-s", "-B", "-c", _BOOTSTRAP, file, _REPORT],
        cwd=root,
        env=_environment(root),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_limits(memory, timeout),
        start_new_session=True,
    )
    try:
        with selectors.DefaultSelector() as selector:
            assert process.stdout is not None and process.stderr is not None
            selector.register(process.stdout, selectors.EVENT_READ, out)
            selector.register(process.stderr, selectors.EVENT_READ, None)
            while selector.get_map() and not stopped:
                left = deadline - time.monotonic()
                if left <= 0:
                    stopped = f"stopped after {timeout:g} s"
                    break
                for key, _ in selector.select(left):
                    chunk = os.read(key.fd, 65536)
                    if not chunk:
                        selector.unregister(key.fileobj)
                        continue
                    read += len(chunk)
                    if key.data is not None:
                        out += chunk
                    if read > output_limit:
                        stopped = f"printed more than {_size(output_limit)}; stopped"
                        break
        if not stopped:
            try:
                process.wait(max(deadline - time.monotonic(), 0))
            except subprocess.TimeoutExpired:
                stopped = f"stopped after {timeout:g} s"
    finally:
        _stop(process)
        process.wait()
        process.stdout.close()  # type: ignore[union-attr]
        process.stderr.close()  # type: ignore[union-attr]
    return bytes(out[:output_limit]), stopped, None if stopped else process.returncode


def _where(frames: list, files: dict[str, tuple[Listing, str]], own: str) -> str:
    """'line 7 of the listing, line 512 of the chapter' for the deepest frame in a
    listing's file ("" when none is)."""
    for name, number in reversed(frames):
        if name in files:
            listing, chapter = files[name]
            what = "the listing" if name == own else name
            place = "the chapter" if not chapter else Path(chapter).name
            return f"line {number} of {what}, line {listing.line + number - 1} of {place}"
    return ""


def _problem(
    status: int | None,
    report: Path,
    memory: int,
    files: dict[str, tuple[Listing, str]],
    own: str,
    mentioned: set[str],
) -> str:
    """One line saying why a listing that was not stopped did not run to its end."""
    if report.exists():
        error = json.loads(report.read_text(encoding="utf-8"))
        where = _where(error["frames"], files, own)
        if error["memory"]:
            at = f" at {where}" if where else ""
            return f"exceeded its {_size(memory)} of memory (MemoryError{at})"
        module = error.get("module")
        if error["type"] == "ModuleNotFoundError" and module in mentioned:
            at = f" at {where}" if where else ""
            return (
                f"needs {module}.py, which the text names but no listing before it gives "
                f"(ModuleNotFoundError{at})"
            )
        message = f": {error['message']}" if error["message"] else ""
        return f"raised {error['type']}{message}" + (f" ({where})" if where else "")
    if status is None or status == 0:
        return ""
    if status < 0:
        name = signal.Signals(-status).name
        if -status in (signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT):
            return f"crashed with {name} (perhaps at its {_size(memory)} memory limit)"
        if -status == signal.SIGXCPU:
            return "used more CPU time than its time limit"
        return f"was killed by {name}"
    return f"exited with status {status}"


def _check_limits(timeout: float, memory: int, output_limit: int) -> None:
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise TypeError(f"timeout: expected seconds as a number, got {type(timeout).__name__}")
    if not (math.isfinite(timeout) and timeout > 0):
        raise ValueError(f"timeout: expected a positive number of seconds, got {timeout!r}")
    for name, value, least in (("memory", memory, 64 * 2**20), ("output_limit", output_limit, 1)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name}: expected a number of bytes, got {type(value).__name__}")
        if value < least:
            raise ValueError(f"{name}: expected at least {_size(least)}, got {value!r}")


def run_listings(
    document: Document,
    *,
    timeout: float = TIMEOUT,
    memory: int = MEMORY,
    output_limit: int = OUTPUT_LIMIT,
    earlier_chapters: Sequence[Document] = (),
) -> list[ListingRun]:
    r"""Run the chapter's listings with code in the order of the text, each saved under
    its file name (`file_names`) in one temporary directory and run in its own process
    with `timeout` seconds, `memory` bytes of address space and `output_limit` bytes of
    output. The files the text of `earlier_chapters` names are saved there first.

    >>> from proofs.reader import parse
    >>> chapter = parse('<Example id="ex-sum">\n</Example>\n```python\nprint(6 * 7)\n```\n')
    >>> [(run.file, run.stdout, run.problem) for run in run_listings(chapter)]
    [('listing_4.py', '42\n', '')]
    """
    if not isinstance(document, Document):
        raise TypeError(f"document: expected a Document, got {type(document).__name__}")
    _check_limits(timeout, memory, output_limit)
    for k, other in enumerate(earlier_chapters):
        if not isinstance(other, Document):
            raise TypeError(
                f"earlier_chapters[{k}]: expected a Document, got {type(other).__name__}"
            )
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
    runs = []
    with tempfile.TemporaryDirectory(prefix="listings-") as directory:
        root = Path(directory)
        (root / ".home").mkdir()
        (root / ".tmp").mkdir()
        for name, code in given.items():
            (root / name).write_text(code, encoding="utf-8")
        for listing in document.listings:
            if not listing.code:
                continue
            name = names[listing.line]
            files[name] = (listing, "")
            (root / name).write_text("\n".join(listing.code) + "\n", encoding="utf-8")
            (root / _REPORT).unlink(missing_ok=True)
            start = time.monotonic()
            out, stopped, status = _execute(root, name, timeout, memory, output_limit)
            problem = stopped or _problem(status, root / _REPORT, memory, files, name, mentioned)
            seconds = time.monotonic() - start
            text = out.decode("utf-8", errors="replace")
            runs.append(ListingRun(listing, name, text, problem, seconds))
    return runs
