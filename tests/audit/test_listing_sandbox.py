"""What a chapter's listing can do to the audit that runs it, as an adversary would try it
from a pull request: read the audit's environment, outlive it, kill or stop it, forge its
error record, reach the network, the user's files and the disk.

Contained (a bubblewrap sandbox, where the machine allows one) a listing can do none of
it; the tests that need the sandbox say why they skip where there is none. Not contained
(forced with `contain=False`, or by tests/listings_uncontained.py on the command line),
what it still cannot do is tested too, and what it can is stated by a test of its own, so
that docs/audit.md's list stays true.
"""

from __future__ import annotations

import _thread
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from pathlib import Path

import pytest
from places import TESTS

from proofs.audit.listings import run_listings
from proofs.audit.listings.bubblewrap import python_installation
from proofs.audit.listings.running import DISK, MEMORY
from proofs.audit.listings.sandbox import NotStarted, why_not_contained
from proofs.audit.reports.report import Report
from proofs.reader import parse

FENCE = "```"
HEAD = (
    '# 見本：閉じ込め\n\n<Definition id="def-jail" title="閉じ込め">\n\n本文。\n\n</Definition>\n\n'
)


NOT_CONTAINED = why_not_contained(MEMORY, DISK)
contained_only = pytest.mark.skipif(
    bool(NOT_CONTAINED), reason=f"the machine allows no sandbox for listings: {NOT_CONTAINED}"
)
MODES = [
    pytest.param(True, marks=contained_only, id="contained"),
    pytest.param(False, id="not-contained"),
]


def chapter_text(*listings: str | tuple[str, str]) -> str:
    """A chapter of these listings in the order given, each a code or (code, the output the
    chapter prints for it); the first listing's fence is on line 9, its code from line 10."""
    text = HEAD
    for listing in listings:
        code, printed = listing if isinstance(listing, tuple) else (listing, None)
        text += f"{FENCE}python\n{textwrap.dedent(code).strip()}\n{FENCE}\n\n"
        if printed is not None:
            text += f"{FENCE}text\n{printed}\n{FENCE}\n\n"
    return text


def chapter(*listings: str | tuple[str, str]):
    return parse(chapter_text(*listings), "jail.mdx")


def marked(mark: str) -> list[int]:
    """The live processes whose command line holds `mark`."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and mark.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                found.append(int(entry))
        except OSError:
            continue
    return found


def survivors(mark: str) -> list[int]:
    """The live processes whose command line holds `mark`, once SIGKILL has had its time
    (it is delivered asynchronously)."""
    for _ in range(500):
        found = marked(mark)
        if not found:
            return []
        time.sleep(0.02)
    return found


@pytest.fixture
def scratch(tmp_path):
    """Where the runner makes its folder when the listings run as the user's processes
    (contained, it makes none on the machine): empty again afterwards."""
    folder = tmp_path / "scratch"
    folder.mkdir()
    yield folder
    assert list(folder.iterdir()) == []


# ---- the environment ---------------------------------------------------------------------


def reads_environments(values: bool = False, every: bool = False) -> str:
    """A listing that prints the environment of its own process and its parent's: the
    names, one line each; with `values`, the whole variables and, with `every`, those of
    each process it sees, all on one line (the line the report quotes)."""
    shown = "v.decode()" if values else 'v.split(b"=")[0].decode()'
    places = '[("own", "self"), ("parent", os.getppid())]'
    if every:
        places += ' + [(p, p) for p in sorted(p for p in os.listdir("/proc") if p.isdigit())]'
    return f"""
        import os
        def environment(pid):
            try:
                with open(f"/proc/{{pid}}/environ", "rb") as handle:
                    return sorted({shown} for v in handle.read().split(b"\\0") if v)
            except OSError as exc:
                return exc.strerror
        seen = [f"{{name}} {{environment(pid)}}" for name, pid in {places}]
        print(*seen, sep=" | " if {values} else "\\n")
    """


MINIMAL = [
    "HOME",
    "LC_ALL",
    "MKL_NUM_THREADS",
    "MPLBACKEND",
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "PATH",
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONHASHSEED",
    "PYTHONIOENCODING",
    "TMPDIR",
]


@pytest.mark.parametrize("contain", MODES)
def test_a_listing_and_its_parent_hold_only_the_runners_few_variables(contain, scratch):
    (run,) = run_listings(chapter(reads_environments()), contain=contain, scratch=scratch)
    own, parent = run.stdout.splitlines()
    assert own == f"own {MINIMAL}"
    # its parent is the supervisor; contained, PID 1 of the sandbox, whose /proc entries
    # no listing may read
    assert parent in (f"parent {MINIMAL}", "parent Permission denied")
    assert parent.endswith("denied") is contain


@contained_only
def test_contained_no_process_of_the_machine_is_visible():
    code = """
        import os
        print(os.getppid(), sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
    """
    (run,) = run_listings(chapter(code), contain=True)
    parent, seen = run.stdout.split(" ", 1)
    assert parent == "1" and json.loads(seen) == [1, 2]  # the supervisor and the listing


# ---- processes it leaves -----------------------------------------------------------------


def leaves_processes(mark: str) -> str:
    """A listing that starts a child in a session of its own, a grandchild whose parent
    exits at once, and a process group of its own, each sleeping for ever, then ends."""
    sleeper = f"import time; time.sleep(1000)  # {mark}"
    return f"""
        import os, subprocess, sys
        sleep = [sys.executable, "-c", {sleeper!r}]
        subprocess.Popen(sleep, start_new_session=True)
        subprocess.Popen(sleep, process_group=0)
        if os.fork() == 0:
            os.setsid()
            subprocess.Popen(sleep)
            os._exit(0)
        os.wait()
        print("left them")
    """


@pytest.mark.parametrize("contain", MODES)
def test_what_a_listing_leaves_running_ends_with_it_and_it_ran(contain, scratch):
    mark = f"mark-{uuid.uuid4().hex}"
    runs = run_listings(
        chapter(leaves_processes(mark), "print('next')"), contain=contain, scratch=scratch
    )
    assert [(r.stdout, r.problem) for r in runs] == [("left them\n", ""), ("next\n", "")]
    assert runs[0].seconds < 10  # not held until its time limit by what it left
    assert survivors(mark) == []


@pytest.mark.parametrize("contain", MODES)
def test_what_a_listing_stopped_at_its_time_limit_started_ends_with_it(contain, scratch):
    mark = f"mark-{uuid.uuid4().hex}"
    code = f"""
        import subprocess, sys
        subprocess.Popen([sys.executable, "-c", "while True: pass  # {mark}"]).wait()
    """
    (run,) = run_listings(chapter(code), contain=contain, scratch=scratch, timeout=1.0)
    assert run.problem == "stopped after 1 s"
    assert survivors(mark) == []


@pytest.mark.parametrize("contain", MODES)
def test_an_interrupt_ends_the_listing_its_processes_and_its_folder(contain, scratch):
    mark = f"mark-{uuid.uuid4().hex}"
    forever = leaves_processes(mark).replace('print("left them")', "while True: pass")
    done = threading.Event()

    def interrupt_once_running() -> None:  # its three sleepers started, however loaded
        deadline = time.monotonic() + 60
        while len(marked(mark)) < 3 and time.monotonic() < deadline and not done.is_set():
            time.sleep(0.02)
        if not done.is_set():
            _thread.interrupt_main()

    # Python's own SIGINT handler for the test's length: a run started as a background job
    # inherits SIGINT ignored, and then interrupt_main does nothing
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    interrupter = threading.Thread(target=interrupt_once_running)
    interrupter.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_listings(chapter(forever), contain=contain, scratch=scratch)
    finally:
        done.set()
        interrupter.join()
        signal.signal(signal.SIGINT, previous)
    assert survivors(mark) == []


# ---- signals to the audit ----------------------------------------------------------------

KILL_PARENT = "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nprint('still here')"
STOP_PARENT = "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\nprint('still here')"
KILL_EVERY_PROCESS = """
    import os, signal
    for pid in [int(p) for p in os.listdir("/proc") if p.isdigit()]:
        if pid != os.getpid():
            for sent in (signal.SIGSTOP, signal.SIGKILL):
                try:
                    os.kill(pid, sent)
                except OSError:
                    pass
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass
    print('still here')
"""


@contained_only
def test_contained_a_listing_can_neither_kill_nor_stop_its_parent_nor_anything_else():
    runs = run_listings(
        chapter(KILL_PARENT, STOP_PARENT, KILL_EVERY_PROCESS, "print('next')"), contain=True
    )
    assert [(r.stdout, r.problem) for r in runs] == [("still here\n", "")] * 3 + [("next\n", "")]


def test_not_contained_a_listing_that_kills_its_parent_kills_its_supervisor_not_the_audit(
    scratch,
):
    runs = run_listings(chapter(KILL_PARENT, "print('next')"), contain=False, scratch=scratch)
    assert [r.problem for r in runs] == [
        "the process running the listings was lost while it ran (it was killed by SIGKILL)",
        "not run: the process running the listings was lost at line 10",
    ]


def test_not_contained_a_listing_that_stops_its_parent_is_ended_after_its_time(scratch):
    runs = run_listings(
        chapter(STOP_PARENT, "print('next')"), contain=False, scratch=scratch, timeout=1.0
    )
    assert [r.problem for r in runs] == [
        "the process running the listings was lost while it ran (it did not answer in 6 s)",
        "not run: the process running the listings was lost at line 10",
    ]


# ---- the error record --------------------------------------------------------------------

UNREADABLE = " (its error record could not be read)"


def forged(record: object) -> str:
    """A listing that writes `record` (JSON, or bytes as they are) where its bootstrap
    writes its error record, and exits with the bootstrap's status."""
    data = record if isinstance(record, bytes) else json.dumps(record).encode()
    return f"import os, sys\nos.write(3, {data!r})\nsys.exit(1)"


GOOD = {"type": "ValueError", "memory": False, "message": "m", "module": None, "frames": []}


@pytest.mark.parametrize("contain", MODES)
@pytest.mark.parametrize(
    ("listing", "problem"),
    [
        (forged(b"{"), "exited with status 1" + UNREADABLE),
        (forged(b"[" * 100_000), "exited with status 1" + UNREADABLE),
        (forged({"type": "ValueError"}), "exited with status 1" + UNREADABLE),
        (forged({**GOOD, "frames": "x"}), "exited with status 1" + UNREADABLE),
        (forged({**GOOD, "frames": [["a.py", True]]}), "exited with status 1" + UNREADABLE),
        (forged({**GOOD, "type": "X\n::error::forged"}), "exited with status 1" + UNREADABLE),
        (forged({**GOOD, "message": "a\n::error::forged"}), "exited with status 1" + UNREADABLE),
        (forged({**GOOD, "memory": 1}), "exited with status 1" + UNREADABLE),
        (forged({**GOOD, "frames": [["jail.py", 3]]}), "raised ValueError: m"),
        (forged({**GOOD, "message": "a\x1b[2Kb\u202e"}), "raised ValueError: a\\x1b[2Kb\\u202e"),
        ("import os, sys\nos.mkdir('.listing-error.json')\nsys.exit(1)", "exited with status 1"),
        (
            "raise ValueError('a\\x1b[2K')",
            "raised ValueError: a\\x1b[2K (line 1 of the listing, line 10 of the chapter)",
        ),
    ],
    ids=[
        "not-json",
        "nested-too-deep",
        "fields-missing",
        "frames-not-a-list",
        "line-not-a-number",
        "name-with-a-line-break",
        "message-with-a-line-break",
        "memory-not-a-bool",
        "frames-of-no-file-of-the-chapter",
        "message-with-control-characters",
        "a-folder-for-the-old-record-file",
        "raised-with-control-characters",
    ],
)
def test_a_forged_error_record_is_data_read_strictly(contain, listing, problem, scratch):
    (run,) = run_listings(chapter(listing), contain=contain, scratch=scratch)
    assert run.problem == problem


@pytest.mark.parametrize("contain", MODES)
def test_what_a_listing_prints_is_shown_with_its_control_characters_escaped(contain, scratch):
    code = "print('\\x1b[31mred\\tand\\u202eturned')"
    (run,) = run_listings(chapter(code), contain=contain, scratch=scratch)
    assert run.stdout == "\\x1b[31mred\tand\\u202eturned\n"


# ---- the network and the files -----------------------------------------------------------


def connects(port: int) -> str:
    return f"""
        import errno, socket
        with socket.socket() as client:
            client.settimeout(5)
            try:
                client.connect(("127.0.0.1", {port}))
                print("connected")
            except OSError as exc:
                print(errno.errorcode.get(exc.errno, exc))
    """


@pytest.mark.parametrize("contain", MODES)
def test_only_a_listing_not_contained_reaches_a_port_of_the_machine(contain, scratch):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.setblocking(False)
        (run,) = run_listings(
            chapter(connects(server.getsockname()[1])), contain=contain, scratch=scratch
        )
        if contain:
            assert run.stdout in ("ECONNREFUSED\n", "ENETUNREACH\n")
            with pytest.raises(BlockingIOError):
                server.accept()
        else:
            assert run.stdout == "connected\n"


@contained_only
def test_contained_a_listing_sees_nothing_of_home_the_chapters_folder_or_the_cwd(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    (book / "secret.txt").write_text("hunter2", encoding="utf-8")
    places = {"home": str(Path.home()), "book": str(book), "cwd": os.getcwd()}
    places |= {"usr": "/usr", "root": "/", "python": python_installation()[0]}
    code = f"""
        import json, os
        seen = {{}}
        for name, place in {places!r}.items():
            try:
                listed = sorted(os.listdir(place))
            except OSError as exc:
                listed = exc.strerror
            try:
                with open(os.path.join(place, "written.txt"), "w") as handle:
                    handle.write("x")
                wrote = True
            except OSError:
                wrote = False
            seen[name] = [listed, wrote]
        print(json.dumps(seen))
    """
    (run,) = run_listings(chapter(code), contain=True)
    seen = json.loads(run.stdout)
    # a place under /tmp (a clone made there, its virtual environment) stands, in the
    # sandbox, inside the listings' own /tmp: writing there reaches no file of the machine,
    # as the last line checks; anywhere else the listing cannot write at all
    outside = {n for n, place in places.items() if not place.startswith("/tmp/")}
    assert {n: wrote for n, (_, wrote) in seen.items() if n in outside} == dict.fromkeys(
        outside, False
    )
    assert seen["book"][0] == "No such file or directory"
    installation = [Path(p) for p in python_installation()]
    for name in ("home", "cwd"):  # at most the way to the Python installation
        place = Path(places[name])
        ways = {p.relative_to(place).parts[0] for p in installation if place in p.parents}
        listed = seen[name][0]  # a list of names, or why there is none (not there at all)
        assert isinstance(listed, str) or set(listed) <= ways, (name, listed)
    assert [p for p in places.values() if os.path.exists(os.path.join(p, "written.txt"))] == []


@contained_only
def test_contained_the_listings_folder_holds_at_most_its_disk_and_a_file_64_mib():
    fill = """
        for k in range(3):
            with open(f"big{k}", "wb") as handle:
                handle.write(b"x" * (40 * 2**20))
    """
    one = "open('huge', 'wb').write(b'x' * (65 * 2**20))"
    runs = run_listings(chapter(fill), contain=True, disk=100 * 2**20)
    assert runs[0].problem == (
        "raised OSError: [Errno 28] No space left on device (line 3 of the listing, line 12 "
        "of the chapter)"
    )
    runs = run_listings(chapter(one), contain=True)
    assert runs[0].problem.startswith("raised OSError: [Errno 27] File too large")


def test_not_contained_the_listings_folder_is_measured_and_a_listing_stopped_past_it(
    scratch,
):
    fill = """
        import time
        for k in range(100):
            with open(f"part{k}", "wb") as handle:
                handle.write(b"x" * 2**20)
            time.sleep(0.05)
    """
    (run,) = run_listings(chapter(fill), contain=False, scratch=scratch, disk=4 * 2**20)
    assert run.problem == (
        "stopped: the listings' folder held more than 4 MiB, or too many files to measure"
    )


# ---- time --------------------------------------------------------------------------------


@pytest.mark.parametrize("contain", MODES)
def test_the_chapters_listings_run_within_their_total_time(contain, scratch):
    runs = run_listings(
        chapter("print('first')", "while True: pass", "print('third')"),
        contain=contain,
        scratch=scratch,
        total_timeout=5.0,
    )
    assert runs[0].problem == ""
    assert runs[1].problem.startswith("stopped after ")
    assert runs[1].problem.endswith(" s, when the chapter's listings had run their 5 s")
    assert runs[2].problem == "not run: the chapter's listings had run their 5 s"


def test_contain_true_where_the_machine_allows_no_sandbox_is_an_error_not_a_fallback():
    document = chapter("print(1)")
    if NOT_CONTAINED:
        with pytest.raises(NotStarted):
            run_listings(document, contain=True)
    else:
        (run,) = run_listings(document, contain=True)
        assert run.contained and run.containment.startswith("listings ran contained")
    with pytest.raises(TypeError, match="^contain: expected True, False or None, got str$"):
        run_listings(document, contain="yes")  # type: ignore[arg-type]


# ---- the command line, a pull request's chapters -----------------------------------------


def audit(folder: Path, script: list[str], *files: str) -> subprocess.CompletedProcess:
    """`proofs audit FILES --run-listings --jobs 2` in `folder`, in a process of its own
    whose environment holds MY_SECRET and whose temporary folder is folder/tmp."""
    (folder / "tmp").mkdir()
    environment = {**os.environ, "MY_SECRET": "hunter2", "TMPDIR": str(folder / "tmp")}
    return subprocess.run(
        [sys.executable, *script, "audit", *files, "--run-listings", "--jobs", "2"],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def pull_request(folder: Path, *listings: str | tuple[str, str]) -> None:
    """Two chapters, a.mdx and b.mdx, each of the listings."""
    for name in ("a.mdx", "b.mdx"):
        (folder / name).write_text(chapter_text(*listings), encoding="utf-8")


@contained_only
def test_contained_the_audit_of_a_pull_requests_chapters_survives_them_and_keeps_secrets(
    tmp_path,
):
    mark = f"mark-{uuid.uuid4().hex}"
    pull_request(
        tmp_path,
        (reads_environments(values=True, every=True), "環境"),  # printed in the report
        leaves_processes(mark),
        (KILL_PARENT, "still here"),
        (STOP_PARENT, "still here"),
        (KILL_EVERY_PROCESS, "still here"),
    )
    done = audit(tmp_path, ["-m", "proofs"], "a.mdx", "b.mdx")
    assert done.returncode == 1, done.stderr  # the environments' lines, which the chapter lacks
    for name in ("a.mdx", "b.mdx"):
        assert f"{name}: 1 error, " in done.stdout
        assert f"{name}: listings ran contained (bubblewrap)" in done.stdout
    said = "output: 環境 — the chapter prints '環境', the listing prints 'own ['HOME=/tmp/listings/"
    assert said in done.stdout
    assert " | parent Permission denied | 1 Permission denied | 2 ['HOME=" in done.stdout
    assert "hunter2" not in done.stdout + done.stderr
    assert survivors(mark) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.mdx", "b.mdx", "tmp"]
    assert list((tmp_path / "tmp").iterdir()) == []


def test_not_contained_the_audit_of_chapters_whose_listing_kills_its_parent_survives(tmp_path):
    mark = f"mark-{uuid.uuid4().hex}"
    pull_request(
        tmp_path,
        (reads_environments(values=True), "環境"),
        leaves_processes(mark),
        (KILL_PARENT, "still here"),
        "print('not run')",
    )
    script = ["-P", str(TESTS / "listings_uncontained.py")]
    done = audit(tmp_path, script, "a.mdx", "b.mdx")
    assert done.returncode == 1, done.stderr
    assert "the listing prints 'own ['HOME=/" in done.stdout  # its environment, and its parent's
    for name in ("a.mdx", "b.mdx"):
        assert f"{name}: listings ran NOT contained (contain=False)" in done.stdout
        assert (
            "the listing does not run: the process running the listings was lost while it ran "
            "(it was killed by SIGKILL)"
        ) in done.stdout
    assert "hunter2" not in done.stdout + done.stderr
    assert survivors(mark) == []
    assert list((tmp_path / "tmp").iterdir()) == []


@pytest.mark.parametrize("contain", MODES)
def test_the_report_says_in_one_line_where_the_listings_ran(contain, scratch):
    (run,) = run_listings(chapter("print(1)"), contain=contain, scratch=scratch)
    report = Report("c.mdx", "MDX", "", listings=1, listings_run=True)
    report.listings_contained, report.listings_containment = run.contained, run.containment
    assert report.to_lint().splitlines()[-1] == f"c.mdx: {run.containment}"
    level = "notice" if contain else "warning"
    assert report.to_github().splitlines()[-1] == f"::{level} file=c.mdx::{run.containment}"
    assert report.to_dict()["listings"]["contained"] is contain
    assert run.containment.startswith(
        "listings ran contained (bubblewrap)" if contain else "listings ran NOT contained"
    )
