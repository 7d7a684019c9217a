"""A process's peak resident memory, and a module run with its peak written down.

Linux's ru_maxrss of a child counts the memory of the process that started it (the
high-water mark before exec is kept), so a command's own peak is read from inside it:

    python -m benchmarks.peak_memory FILE MODULE [ARGUMENT ...]

runs `python -m MODULE ARGUMENT ...` in this process and, when it ends, writes the peak
in bytes to FILE; its exit code is the module's.
"""

from __future__ import annotations

import resource
import runpy
import sys
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
