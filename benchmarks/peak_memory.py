"""A process's peak resident memory, and a module run with its peak written down; the
memory of a process with the processes it started, sampled from outside.

Linux's ru_maxrss of a child counts the memory of the process that started it (the
high-water mark before exec is kept), so a command's own peak is read from inside it:

    python -m benchmarks.peak_memory FILE MODULE [ARGUMENT ...]

runs `python -m MODULE ARGUMENT ...` in this process and, when it ends, writes the peak
in bytes to FILE; its exit code is the module's.

A command whose work is shared with processes it forks (the audit of several chapters)
holds memory in each; their resident sizes would count twice the pages they share since
the fork. `tree_memory` sums their proportional set sizes instead (each shared page
divided among the processes sharing it), and `sampled_peak` samples that sum while the
command runs: a peak shorter than the sampling interval can be missed.
"""

from __future__ import annotations

import os
import resource
import runpy
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path


def reset_peak() -> None:
    """Reset the process's resident high-water mark, where the system lets it (Linux)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def peak_bytes() -> int:
    """The process's resident high-water mark: VmHWM (Linux) or ru_maxrss."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB elsewhere
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def descendants(pid: int) -> list[int]:
    """`pid` and every process it started that is still running, from Linux's /proc (the
    threads' children lists); [pid] where the system does not say."""
    found = [pid]
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for thread in threads:
        try:
            children = Path(f"/proc/{pid}/task/{thread}/children").read_text().split()
        except OSError:
            continue
        for child in children:
            found += descendants(int(child))
    return found


def proportional_size(pid: int) -> int:
    """The process's proportional set size in bytes (Linux's smaps_rollup), 0 when it has
    ended or the system does not say."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def tree_memory(pid: int) -> int:
    """The proportional set sizes of `pid` and of the processes it started, summed."""
    return sum(proportional_size(p) for p in descendants(pid))


def sampled_peak(
    command: Sequence[str], interval: float = 0.01, **run: object
) -> tuple[subprocess.CompletedProcess, int]:
    """Run `command` (subprocess.Popen's keywords `run`) and return what it printed, as
    text, with the largest `tree_memory` seen, sampled every `interval` seconds while it
    ran. Its output goes to files meanwhile: a full pipe would stop it."""
    peak = 0
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        with subprocess.Popen(list(command), stdout=out, stderr=err, **run) as process:
            while process.poll() is None:
                peak = max(peak, tree_memory(process.pid))
                time.sleep(interval)
        printed = []
        for file in (out, err):
            file.seek(0)
            printed.append(file.read().decode(errors="replace"))
    return subprocess.CompletedProcess(process.args, process.returncode, *printed), peak


USAGE = "usage: python -m benchmarks.peak_memory FILE MODULE [ARGUMENT ...]"


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(USAGE, file=sys.stderr)
        return 2
    out, module, *arguments = argv
    sys.argv = [module, *arguments]
    code: int | str | None = 0
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as exit_:
        code = exit_.code
    finally:
        Path(out).write_text(str(peak_bytes()))
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
