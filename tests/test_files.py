"""The atomic writer of the command line's files: the mode of a new or replaced file, the
name published so that of two writers exactly one wins, nothing left behind on an error
or a signal, and every OSError an OutputError naming the path and the reason."""

import errno
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from proofs import files
from proofs.files import OutputError, check_target, write_atomically

ROOT = Path(__file__).resolve().parents[1]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask():
    """Set the process's umask for one test."""
    previous = os.umask(0o022)
    yield os.umask
    os.umask(previous)


@pytest.mark.parametrize(
    "mask, expected",
    [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)],
    ids=["umask-022", "umask-077", "umask-002"],
)
def test_a_new_file_gets_the_mode_of_a_plain_open(tmp_path, umask, mask, expected):
    umask(mask)
    target = tmp_path / "new.tex"
    write_atomically(target, "x\n", force=False)
    assert mode(target) == expected and target.read_text() == "x\n"


@pytest.mark.parametrize("kept", [0o644, 0o640, 0o755, 0o600], ids=oct)
def test_a_replaced_file_keeps_its_mode(tmp_path, umask, kept):
    umask(0o077)
    target = tmp_path / "old.tex"
    target.write_text("old\n")
    target.chmod(kept)
    write_atomically(target, "new\n", force=True)
    assert mode(target) == kept and target.read_text() == "new\n"


def test_without_force_a_taken_name_is_refused_whatever_takes_it(tmp_path):
    (tmp_path / "file.tex").write_text("kept")
    (tmp_path / "real.tex").write_text("kept")
    (tmp_path / "link.tex").symlink_to(tmp_path / "real.tex")
    (tmp_path / "dangling.tex").symlink_to(tmp_path / "nowhere.tex")
    for name in ("file.tex", "link.tex", "dangling.tex"):
        with pytest.raises(OutputError, match=rf"{name}: exists; pass --force to replace it"):
            write_atomically(tmp_path / name, "new", force=False)
    assert (tmp_path / "real.tex").read_text() == "kept"
    assert not (tmp_path / "nowhere.tex").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "dangling.tex",
        "file.tex",
        "link.tex",
        "real.tex",
    ]


def test_with_force_a_link_is_followed_and_kept(tmp_path):
    real = tmp_path / "real.tex"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.tex"
    link.symlink_to(real)
    write_atomically(link, "new", force=True)
    assert link.is_symlink() and real.read_text() == "new" and mode(real) == 0o640


def test_a_name_taken_during_the_write_is_refused_not_replaced(tmp_path, monkeypatch):
    """The race of two writers without --force: the other one publishes first."""
    target = tmp_path / "out.tex"
    fsync = os.fsync

    def the_other_writer_wins(fd: int) -> None:
        fsync(fd)
        target.write_text("the other writer's")

    monkeypatch.setattr(os, "fsync", the_other_writer_wins)
    with pytest.raises(OutputError, match="out.tex: exists; pass --force"):
        write_atomically(target, "mine", force=False)
    assert target.read_text() == "the other writer's"
    assert [p.name for p in tmp_path.iterdir()] == ["out.tex"]


def test_of_writers_at_the_same_moment_exactly_one_wins(tmp_path):
    target = tmp_path / "out.tex"
    start = threading.Barrier(8)
    outcomes: dict[int, str] = {}

    def write(k: int) -> None:
        start.wait()
        try:
            write_atomically(target, f"writer {k}\n" * 10_000, force=False)
            outcomes[k] = "wrote"
        except OutputError as exc:
            outcomes[k] = str(exc)

    threads = [threading.Thread(target=write, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [k for k, outcome in outcomes.items() if outcome == "wrote"]
    assert len(winners) == 1, outcomes
    assert all("exists" in o for k, o in outcomes.items() if k != winners[0])
    assert target.read_text() == f"writer {winners[0]}\n" * 10_000
    assert [p.name for p in tmp_path.iterdir()] == ["out.tex"]


def test_without_hard_links_the_name_is_claimed_exclusively(tmp_path, monkeypatch):
    def no_links(source, destination):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    target = tmp_path / "out.tex"
    write_atomically(target, "first", force=False)
    assert target.read_text() == "first"
    with pytest.raises(OutputError, match="exists"):
        write_atomically(target, "second", force=False)
    assert target.read_text() == "first"
    assert [p.name for p in tmp_path.iterdir()] == ["out.tex"]


@pytest.mark.parametrize(
    "patched, error, step",
    [
        ("open", PermissionError(errno.EACCES, "Permission denied"), "create a file in"),
        ("write", OSError(errno.ENOSPC, "No space left on device"), "write"),
        ("fsync", OSError(errno.EIO, "Input/output error"), "write"),
        ("link", OSError(errno.EROFS, "Read-only file system"), "create it"),
    ],
    ids=["permission-denied", "disk-full", "io-error", "read-only"],
)
def test_every_oserror_is_an_output_error_naming_path_step_and_reason(
    tmp_path, monkeypatch, patched, error, step
):
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(os, patched, fail)
    target = tmp_path / "out.tex"
    with pytest.raises(OutputError) as raised:
        write_atomically(target, "x", force=False)
    assert str(raised.value).startswith(f"{target}: cannot {step}")
    assert str(raised.value).endswith(f"({error.strerror})")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


def test_a_directory_the_system_refuses_is_an_output_error():
    with pytest.raises(OutputError, match=r"^/proc/out\.tex: cannot create a file in /proc \("):
        write_atomically(Path("/proc/out.tex"), "x", force=False)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in a read-only directory")
def test_a_read_only_directory_is_an_output_error(tmp_path):
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="Permission denied"):
            write_atomically(tmp_path / "out.tex", "x", force=False)
    finally:
        tmp_path.chmod(0o700)


def test_check_target_refuses_before_any_work(tmp_path):
    with pytest.raises(OutputError, match="is a directory"):
        check_target(tmp_path, force=True)
    with pytest.raises(OutputError, match=r"directory .*absent does not exist"):
        check_target(tmp_path / "absent" / "out.tex", force=False)
    (tmp_path / "file").write_text("")
    with pytest.raises(OutputError, match=r"directory .*file does not exist"):
        check_target(tmp_path / "file" / "out.tex", force=True)
    check_target(tmp_path / "out.tex", force=False)


# signals ---------------------------------------------------------------------------------


def test_a_signal_during_the_write_removes_the_temporary_file(tmp_path, monkeypatch):
    """A handler that carries on: the write stops, nothing is written, the handler is
    called once and is back in place afterwards."""
    calls = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: calls.append(signum))
    try:
        slept_through = []

        def signalled(fd: int) -> None:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler interrupts this
            slept_through.append(fd)

        monkeypatch.setattr(os, "fsync", signalled)
        with pytest.raises(OutputError, match="out.tex: interrupted by SIGTERM; nothing written"):
            write_atomically(tmp_path / "out.tex", "x" * 100_000, force=False)
        assert slept_through == []
        assert calls == [signal.SIGTERM]
        assert list(tmp_path.iterdir()) == []
    finally:
        restored = signal.signal(signal.SIGTERM, previous)
    assert restored is not files._stop


def test_handlers_are_restored_and_ignored_signals_left_alone(tmp_path):
    before = {s: signal.getsignal(s) for s in files._SIGNALS}
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        write_atomically(tmp_path / "out.tex", "x", force=False)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, previous)
    assert {s: signal.getsignal(s) for s in files._SIGNALS} == before


def test_a_write_outside_the_main_thread_sets_no_handler(tmp_path):
    errors = []

    def write() -> None:
        try:
            write_atomically(tmp_path / "out.tex", "x", force=False)
        except BaseException as exc:  # noqa: BLE001 - reported to the test below
            errors.append(exc)

    thread = threading.Thread(target=write)
    thread.start()
    thread.join()
    assert errors == [] and (tmp_path / "out.tex").read_text() == "x"


BLOCKED_WRITER = """
import os, signal, sys, time

# the dispositions a user's shell gives; a background job inherits SIGINT and SIGHUP ignored
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.signal(signal.SIGHUP, signal.SIG_DFL)
from pathlib import Path
from proofs.files import write_atomically

# a slow write, in short sleeps: a signal that reaches another thread runs its handler
# only once the main thread's sleep returns
def blocked(fd):
    print("writing", flush=True)
    for _ in range(1200):
        time.sleep(0.05)

os.fsync = blocked
write_atomically(Path(sys.argv[1]), "x" * 1_000_000, force=False)
"""


@pytest.mark.parametrize(
    "signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=["SIGTERM", "SIGHUP", "SIGINT"]
)
def test_a_process_killed_mid_write_leaves_nothing_and_dies_of_the_signal(tmp_path, signum):
    child = subprocess.Popen(
        [sys.executable, "-c", BLOCKED_WRITER, str(tmp_path / "out.tex")],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline() == "writing\n"
        assert [p.name for p in tmp_path.iterdir()][0].startswith(".out.tex.")
        child.send_signal(signum)
        _, err = child.communicate(timeout=30)
    finally:
        child.kill()
    # SIGINT: Python's handler raises KeyboardInterrupt, which then ends the process by SIGINT
    assert child.returncode == -signum, err
    assert list(tmp_path.iterdir()) == []
