"""The peak memory of a module run (benchmarks/peak_memory.py): its own, not its parent's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from benchmarks import peak_memory

ROOT = Path(__file__).resolve().parents[2]


def peak_of(code: str, folder: Path) -> tuple[int, int, str]:
    """(exit code, peak bytes written down, stderr) of a module holding `code`."""
    (folder / "program.py").write_text(code)
    out = folder / "peak"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}
    command = [sys.executable, "-m", "benchmarks.peak_memory", str(out), "program", "a b"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
    return done.returncode, int(out.read_text()), done.stderr


def test_a_module_that_holds_200_mb_peaks_above_them_and_one_that_does_not_below(tmp_path):
    big = "import sys\nblock = bytearray(200_000_000)\n"
    big += "sys.exit(3 if sys.argv[1:] == ['a b'] else 4)\n"
    code, peak, _ = peak_of(big, tmp_path)
    assert code == 3 and peak >= 200_000_000
    code, peak, _ = peak_of("pass\n", tmp_path)
    assert code == 0 and peak < 200_000_000


def test_an_exit_with_a_message_is_exit_code_1_with_the_message(tmp_path):
    code, peak, err = peak_of("raise SystemExit('no chapter')\n", tmp_path)
    assert (code, err.strip()) == (1, "no chapter") and peak > 0


def test_without_a_file_and_a_module_it_prints_its_usage_and_exits_2():
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.peak_memory", "only-a-file"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert (done.returncode, done.stderr.strip()) == (2, peak_memory.USAGE)


FORKS_A_CHILD_HOLDING_200_MB = """
import os, time
if os.fork() == 0:
    block = bytearray(200_000_000)
    block[::4096] = b"x" * len(block[::4096])  # every page touched: resident
    time.sleep(0.3)
    os._exit(0)
os.wait()
print("x" * 200_000)  # more than a pipe holds
"""


def test_the_sampled_peak_counts_a_forked_childs_memory_and_not_a_pipes_limit():
    done, peak = peak_memory.sampled_peak([sys.executable, "-c", FORKS_A_CHILD_HOLDING_200_MB])
    assert done.returncode == 0 and done.stdout == "x" * 200_000 + "\n"
    assert peak >= 200_000_000
    done, peak = peak_memory.sampled_peak([sys.executable, "-c", "import sys; sys.exit(5)"])
    assert done.returncode == 5 and peak < 200_000_000


def test_a_process_that_is_not_running_has_no_memory_and_no_children():
    absent = 2**22 + 1  # above Linux's largest process id
    assert peak_memory.descendants(absent) == [absent]
    assert peak_memory.proportional_size(absent) == 0
    assert peak_memory.tree_memory(os.getpid()) > 0
