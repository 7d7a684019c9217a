"""No test changes what the background jobs of the suite read from the process they share
(tests/early.py): the environment (os.environ), tempfile's folder (tempfile.tempdir) and
the working directory. A job that read one of them while a test had changed it would make
its files, or run its subprocesses, where that test pointed them: a test that moved the
temporary folder once found the folder of a job's runs in its own, and failed.

A test that needs a command to see another folder or environment runs it in
tests/command_worker.py (commands.run_in), or passes the folder or the variables to the
function it tests. Every file of tests/ is read for the ways of changing them; a file that
may is listed in ALLOWED with the reason it is safe there."""

from __future__ import annotations

import re

import pytest
from places import TESTS

CHANGES = re.compile(
    r"\.(?:setenv|delenv|chdir)\("  # monkeypatch's, and os.chdir, contextlib.chdir
    r"|\bos\.(?:putenv|unsetenv)\("
    r"|\bos\.environ(?:\[[^\]]*\]\s*=(?!=)|\.(?:update|pop|popitem|clear|setdefault)\()"
    r"|\bsetitem\(\s*os\.environ\b"
    r"|\btempfile\.tempdir\b|[\"']tempfile\.tempdir[\"']|\(\s*tempfile\s*,\s*[\"']tempdir"
)
ALLOWED = {
    "conftest.py": "sets the run's folder in os.environ while pytest configures, before the "
    "jobs start, and puts it back when pytest ends, after them",
    "command_worker.py": "a process of its own, with one thread: it sets each command's "
    "folder and environment, and no job runs in it",
    "test_process_state.py": "the ways of changing them, as the patterns it looks for",
}


def changes(text: str) -> list[str]:
    """The lines of a test file that change the environment, tempfile's folder or the
    working directory."""
    return [line.strip() for line in text.splitlines() if CHANGES.search(line)]


@pytest.mark.parametrize(
    "line",
    [
        'monkeypatch.setenv("PATH", "/nowhere")',
        'monkeypatch.delenv("TRANSFORMER_PROOFS_CHAPTERS", raising=False)',
        "monkeypatch.chdir(tmp_path)",
        "os.chdir(folder)",
        "with contextlib.chdir(self.directory):",
        'os.environ["HYPOTHESIS_PROFILE"] = "ci"',
        "os.environ.update(values)",
        'os.environ.pop("XDG_CACHE_HOME", None)',
        'os.putenv("A", "b")',
        'monkeypatch.setitem(os.environ, "A", "b")',
        'monkeypatch.setattr("tempfile.tempdir", str(tmp))',
        'monkeypatch.setattr(tempfile, "tempdir", str(tmp))',
        "tempfile.tempdir = str(tmp)",
    ],
)
def test_each_way_of_changing_the_process_is_found(line):
    assert changes(f"def test_x(monkeypatch, tmp_path):\n    {line}\n") == [line]


@pytest.mark.parametrize(
    "line",
    [
        'env = {**os.environ, "PYTHONPATH": str(path)}',
        'value = os.environ.get("HYPOTHESIS_PROFILE")',
        'assert os.environ["A"] == "b"',
        'run_in(folder, "audit", environ={"HYPOTHESIS_PROFILE": "ci"})',
        "subprocess.run(command, cwd=ROOT, env=early.environment())",
    ],
)
def test_reading_them_or_passing_them_on_is_not_a_change(line):
    assert changes(line) == []


def test_no_test_changes_the_environment_tempfiles_folder_or_the_working_directory():
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        name = path.relative_to(TESTS).as_posix()
        if name not in ALLOWED:
            found.update({f"{name}: {line}": line for line in changes(path.read_text("utf-8"))})
    assert list(found) == []


def test_every_file_allowed_is_there_and_still_needs_it():
    for name in ALLOWED:
        assert changes((TESTS / name).read_text(encoding="utf-8")), name
