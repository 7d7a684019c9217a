"""Bad and hostile input on the command line, one named case each. Bad input is answered
with exit code 2 and exactly one line on stderr naming the argument, file or variable;
a hostile line in a chapter is audited, not run: it is reported as a "not checkable"
equality that says which bound it exceeds. In-process through `cli.main`, except where
the behaviour belongs to the process (signals, the environment, memory, two processes
at once): those run the real entry point, `python -m proofs`, in a subprocess."""

import os
import resource
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import early
import pytest
from commands import one_line, run, run_in
from places import ROOT, SEEDS

from proofs.book.registry import load_all


def entry_point(*args: str, env: dict | None = None, **popen) -> subprocess.Popen:
    """`python -m proofs ARGS` (or `python -c SCRIPT ARGS` when popen gives a script)."""
    script = popen.pop("script", None)
    command = ["-c", script, *args] if script else ["-m", "proofs", *args]
    return subprocess.Popen(
        [sys.executable, *command],
        cwd=ROOT,
        env=early.environment(
            **{"PYTHONPATH": str(ROOT), "HYPOTHESIS_PROFILE": "ci", **(env or {})}
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


# exit 2, one line ----------------------------------------------------------------------

CASES = {  # id: (arguments, with {tmp} for the test's directory, what the line must say)
    "tables-seed-negative": (
        ["tables", "scaling", "--seed", "-1"],
        "argument --seed: expected an integer >= 0, got '-1'",
    ),
    "tables-seed-not-an-integer": (
        ["tables", "scaling", "--seed", "1e3"],
        "argument --seed: expected an integer >= 0, got '1e3'",
    ),
    "tables-dims-beyond-the-memory": (
        ["tables", "scaling", "--dims", "1000000000"],
        "the scaling table at d_k = 1000000000 would need 136,000,000,000 bytes for one trial's",
    ),
    "tables-unknown-format": (["tables", "--format", "html"], "argument --format"),
    "tables-option-without-its-value": (["tables", "--d"], "argument --d: expected one argument"),
    "latex-out-unwritable-directory": (
        ["latex", "attention-parameters", "--out", "/proc/formulas.tex"],
        "/proc/formulas.tex: cannot create a file in /proc (",
    ),
    "latex-out-missing-directory": (
        ["latex", "--out", "{tmp}/absent/formulas.tex"],
        "{tmp}/absent/formulas.tex: directory {tmp}/absent does not exist",
    ),
    "latex-out-under-a-file": (
        ["latex", "--out", "{tmp}/file.txt/formulas.tex", "--force"],
        "{tmp}/file.txt/formulas.tex: directory {tmp}/file.txt does not exist",
    ),
    "latex-out-a-directory": (
        ["latex", "--out", "{tmp}/folder.tex", "--force"],
        "{tmp}/folder.tex: is a directory",
    ),
    "latex-out-existing-symlink": (
        ["latex", "--out", "{tmp}/link.tex"],
        "{tmp}/link.tex: exists; pass --force to replace it",
    ),
    "latex-out-dangling-symlink": (
        ["latex", "--out", "{tmp}/dangling.tex"],
        "{tmp}/dangling.tex: exists; pass --force to replace it",
    ),
    "latex-out-empty": (["latex", "--out", ""], "argument --out: expected a file name, got ''"),
    "latex-out-dash": (
        ["latex", "--out", "-"],
        "argument --out: expected a file name, got '-' (without --out the LaTeX is printed",
    ),
    "latex-out-upper-case-suffix": (
        ["latex", "--out", "{tmp}/formulas.TEX"],
        "--out must end in .tex or .json, got '.TEX'",
    ),
    "latex-empty-formula-name": (["latex", ""], "latex: unknown formula ''"),
    "audit-empty-file-name": (["audit", ""], "argument FILE: expected a file name, got ''"),
    "audit-dash-twice": (["audit", "-", "-"], "audit: - (standard input) is given twice"),
    "audit-stdin-filename-without-dash": (
        ["audit", "--stdin-filename", "c.mdx", "chapter.txt"],
        "audit: --stdin-filename names the chapter read from -, which is not given",
    ),
    "audit-select-unknown-code": (
        ["audit", "--select", "EQ999", "chapter.txt"],
        "--select: 'EQ999' is no rule's code nor a prefix of codes; nearest: EQ005",
    ),
    "audit-ignore-empty-code": (
        ["audit", "--ignore", "EQ,", "chapter.txt"],
        "argument --ignore: expected rule codes separated by commas (EQ001,RST), got 'EQ,'",
    ),
    "audit-dev-null": (["audit", "/dev/null"], "/dev/null: not a regular file, expected a chapter"),
    "audit-zero-byte-file": (["audit", "{tmp}/zero.mdx"], "{tmp}/zero.mdx:1: empty file"),
    "audit-non-utf8-bytes": (
        ["audit", "{tmp}/latin1.mdx"],
        "{tmp}/latin1.mdx:3: not UTF-8 text (byte ",
    ),
    "audit-a-directory": (["audit", "{tmp}"], "{tmp}: is a directory, expected a chapter file"),
    "audit-unknown-option": (["audit", "--bogus", "x.mdx"], "unrecognized arguments: --bogus"),
    "verify-empty-selector": (["verify", ""], "verify: no element matches ''"),
    "audit-jobs-zero": (
        ["audit", "--jobs", "0", "chapter.txt"],
        "argument --jobs: expected an integer >= 1, got '0'",
    ),
    "verify-jobs-zero": (
        ["verify", "--jobs", "0"],
        "argument --jobs: expected an integer >= 1, got '0'",
    ),
    "verify-jobs-negative": (
        ["verify", "--jobs", "-1"],
        "argument --jobs: expected an integer >= 1, got '-1'",
    ),
    "verify-jobs-word": (
        ["verify", "--jobs", "x"],
        "argument --jobs: expected an integer >= 1, got 'x'",
    ),
    "unknown-command": (["audits"], "invalid choice: 'audits'"),
}


@pytest.fixture
def places(tmp_path: Path) -> Path:
    """The files and links the cases name."""
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "folder.tex").mkdir()
    (tmp_path / "real.tex").write_text("kept")
    (tmp_path / "link.tex").symlink_to(tmp_path / "real.tex")
    (tmp_path / "dangling.tex").symlink_to(tmp_path / "nowhere.tex")
    (tmp_path / "zero.mdx").write_bytes(b"")
    (tmp_path / "latin1.mdx").write_bytes("# T\n\nla caf\u00e9\n".encode("latin-1"))
    return tmp_path


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_one_line_and_exit_2(capsys, places, case):
    arguments, message = CASES[case]
    before = sorted((p.name, p.is_symlink()) for p in places.iterdir())
    code, _, err = run(capsys, *(a.format(tmp=places) for a in arguments))
    assert code == 2, err
    assert message.format(tmp=places) in one_line(err)
    assert sorted((p.name, p.is_symlink()) for p in places.iterdir()) == before
    assert (places / "real.tex").read_text() == "kept"


@pytest.mark.parametrize("command", ["verify", "audit"])
@pytest.mark.parametrize("value", ["bogus", " ci", "CI"])
def test_a_bogus_hypothesis_profile_is_named_with_its_variable(places, command, value):
    chapter = places / "one.mdx"
    chapter.write_text('# T\n\n<Proposition id="x">\n', encoding="utf-8")
    arguments = [command, *([str(chapter)] if command == "audit" else ["x"])]
    code, _, err = run_in(places, *arguments, environ={"HYPOTHESIS_PROFILE": value})
    assert code == 2
    assert one_line(err) == (
        f"proofs: HYPOTHESIS_PROFILE={value!r} is not a Hypothesis profile; "
        "expected one of ci, dev, thorough"
    )


def test_latex_out_permission_denied_is_one_line(capsys, monkeypatch, tmp_path):
    """The PermissionError of a directory that cannot be written (simulated: root may
    write anywhere), from the creation of the temporary file."""
    real_open = os.open

    def denied(path, flags, mode=0o777, **kwargs):
        if Path(path).parent == tmp_path:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, mode, **kwargs)

    monkeypatch.setattr(os, "open", denied)
    code, _, err = run(capsys, "latex", "attention-parameters", "--out", f"{tmp_path}/f.tex")
    assert code == 2
    assert one_line(err) == (
        f"proofs: {tmp_path}/f.tex: cannot create a file in {tmp_path} (Permission denied)"
    )
    assert list(tmp_path.iterdir()) == []


def test_latex_out_symlink_with_force_replaces_its_file_and_keeps_the_link(capsys, places):
    (places / "real.tex").chmod(0o640)
    code, _, err = run(
        capsys, "latex", "attention-parameters", "--out", f"{places}/link.tex", "--force"
    )
    assert code == 0, err
    assert (places / "link.tex").is_symlink()
    assert "4d^2 + 4d" in (places / "real.tex").read_text()
    assert (places / "real.tex").stat().st_mode & 0o777 == 0o640


# hostile lines in a chapter: audited, not run -------------------------------------------

HOSTILE = {  # id: (the line's math, its finding's status, what the finding says)
    "audit-tower-of-powers": (
        r"10^{10^{10^{10}}} = 1",
        "not checkable",
        "too large: the exponent 1e+10 of a power exceeds 1000000 in magnitude",
    ),
    "audit-tower-of-exponentials": (
        r"e^{e^{e^{e^{10}}}} = 1",
        "not checkable",
        "too large: e^{x} with x about 2.2e+04 is beyond 10^{±4000}",
    ),
    "audit-200-nested-parentheses": (
        "(" * 200 + "1" + ")" * 200 + " = 1",
        "not checkable",
        "too large: groups nested deeper than 50 levels",
    ),
    "audit-4301-digit-literal": (
        "9" * 4301 + " = 1",
        "not checkable",
        "too large: a number of 4301 digits exceeds the limit of 1000",
    ),
    "audit-setting-of-4301-digits": (
        "d = " + "9" * 4301,
        "not checkable",
        "too large: a number of 4301 digits exceeds the limit of 1000",
    ),
    "audit-1001-tokens": (
        "1" + "+1" * 1000 + " = 1001",
        "not checkable",
        "too large: more than 1000 tokens",
    ),
    "audit-beyond-the-float-range": (
        r"10^{400} = 10^{401}",
        "mismatched",
        "left side recomputes to 1e+400, right side to 1e+401; "
        "they differ by 9e+400 beyond the printed precision",
    ),
    "audit-negative-power-of-zero": (
        r"0^{-1} = 1",
        "not checkable",
        "one side is not arithmetic on numbers (negative power of an interval containing 0)",
    ),
}


@pytest.fixture(scope="module")
def proposition() -> str:
    """A registered proposition's id: an MDX file holding it alone is a chapter whose
    other elements are missing, with only the hostile line to compute."""
    found = [e.id for e in load_all().values() if e.kind == "proposition"]
    if not found:
        pytest.skip("no proposition is registered")
    return found[0]


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_line_is_reported_not_computed(capsys, tmp_path, proposition, case):
    math, status, detail = HOSTILE[case]
    chapter = tmp_path / "hostile.mdx"
    chapter.write_text(
        f'# T\n\n<Proposition id="{proposition}">\n\n${math}$\n\n</Proposition>\n', encoding="utf-8"
    )
    code, out, err = run(capsys, "audit", str(chapter), "--verbose")  # the detail says the
    # bound refused it (before the bounds: minutes and 8.7 GB)
    assert (code, err) == (1, "")  # the file lacks the chapter's other elements
    assert "line    5  EQ001 [equality] " in out
    (found,) = [line for line in out.splitlines() if "[equality]" in line]
    assert f"  —  {detail}" in found and f"\n{status} (" in out


# through the entry point ------------------------------------------------------------------


def test_entry_point_bogus_hypothesis_profile():
    result = entry_point("verify", env={"HYPOTHESIS_PROFILE": "bogus"})
    out, err = result.communicate(timeout=120)
    assert result.returncode == 2, err
    assert one_line(err) == (
        "proofs: HYPOTHESIS_PROFILE='bogus' is not a Hypothesis profile; "
        "expected one of ci, dev, thorough"
    )


def test_the_test_suite_names_a_bogus_hypothesis_profile():
    """The suite's conftest loads the profile: a bogus one stops it with the variable named."""
    suite = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_files.py"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "HYPOTHESIS_PROFILE": "bogus"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert suite.returncode != 0
    assert "HYPOTHESIS_PROFILE='bogus' is not a Hypothesis profile" in suite.stdout + suite.stderr


BLOCKED_IN_THE_WRITE = """
import os, signal, runpy, sys, time

# the dispositions a user's shell gives; a background job inherits SIGINT and SIGHUP ignored
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.signal(signal.SIGHUP, signal.SIG_DFL)

# a slow write, in short sleeps: the signal may reach another thread (NumPy's BLAS starts
# some), and then Python runs its handler only once the main thread's sleep returns
def blocked(fd):
    print("writing", file=sys.stderr, flush=True)
    for _ in range(1200):
        time.sleep(0.05)

os.fsync = blocked
sys.argv = ["proofs", *sys.argv[1:]]
runpy.run_module("proofs", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_latex_out_killed_mid_write_leaves_no_temporary_file(tmp_path, signum):
    target = tmp_path / "formulas.tex"
    child = entry_point(
        "latex", "attention-parameters", "--out", str(target), script=BLOCKED_IN_THE_WRITE
    )
    try:
        assert child.stderr.readline() == "writing\n"
        assert len(list(tmp_path.iterdir())) == 1  # the hidden temporary file
        child.send_signal(signum)
        _, err = child.communicate(timeout=60)
    finally:
        child.kill()
    if signum == signal.SIGINT:
        assert (child.returncode, err) == (130, "proofs: interrupted\n")
    else:
        assert (child.returncode, err) == (-signal.SIGTERM, "")
    assert list(tmp_path.iterdir()) == []


TWO_WRITERS = """
import os, runpy, sys, time
from pathlib import Path

ready, fsync = Path(sys.argv[1]), os.fsync

def meet_the_other_writer(fd):
    fsync(fd)
    (ready / str(os.getpid())).touch()
    while len(list(ready.iterdir())) < 2:
        time.sleep(0.01)

os.fsync = meet_the_other_writer
sys.argv = ["proofs", *sys.argv[2:]]
runpy.run_module("proofs", run_name="__main__", alter_sys=True)
"""


def test_latex_out_of_two_writers_at_once_exactly_one_wins(tmp_path):
    """Both pass the check of the name, both have written when either publishes."""
    ready, out = tmp_path / "ready", tmp_path / "out"
    ready.mkdir()
    out.mkdir()
    target = out / "formulas.tex"
    writers = [
        entry_point(
            str(ready), "latex", "attention-parameters", "--out", str(target), script=TWO_WRITERS
        )
        for _ in range(2)
    ]
    results = [(w.wait(timeout=120), w.stderr.read()) for w in writers]
    for w in writers:
        w.stdout.close()
        w.stderr.close()
    codes = sorted(code for code, _ in results)
    assert codes == [0, 2], results
    loser = next(err for code, err in results if code == 2)
    assert one_line(loser) == f"proofs: {target}: exists; pass --force to replace it"
    assert [p.name for p in out.iterdir()] == ["formulas.tex"]


HOSTILE_COPY = "the audit of a seed chapter with every hostile line"


def limited_memory() -> None:
    """In the child: at most 3 GB of address space (the tower of powers took 8.7 GB)."""
    resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))


@early.job(HOSTILE_COPY)
def audit_hostile_copy(items: object) -> tuple[int, str, str] | None:
    """(exit code, stdout, stderr) of `proofs audit` of the seed chapter with every hostile
    line appended, at most 3 GB of memory; None without the seed chapter."""
    seed = SEEDS / "000_ce182fefa314a82b.txt"
    if not seed.is_file():
        return None
    with tempfile.TemporaryDirectory(prefix="hostile-copy-") as folder:
        chapter = Path(folder) / seed.name
        lines = [math for math, _, _ in HOSTILE.values()]
        chapter.write_text(
            seed.read_text(encoding="utf-8") + "\n" + "".join(f"${m}$\n" for m in lines),
            encoding="utf-8",
        )
        child = entry_point("audit", str(chapter), preexec_fn=limited_memory)
        out, err = child.communicate(timeout=300)
    return child.returncode, out, err


@pytest.mark.early(HOSTILE_COPY)
def test_audit_of_a_chapter_copy_with_every_hostile_line_is_bounded():
    audited = early.result(HOSTILE_COPY)
    if audited is None:
        pytest.skip(f"{SEEDS / '000_ce182fefa314a82b.txt'} is not here")
    code, out, err = audited
    assert (code, err) == (1, "")  # 10^{400} = 10^{401} is mismatched
    for *_, detail in HOSTILE.values():
        assert detail in out
