"""An author outside the repository, as docs/adding-a-chapter.md tells them: a book folder
of their own in a folder outside this checkout, a fresh virtual environment, and the
page's commands run as written, from a chapter file to its first check passing.

The environment is made without pip and sees the checkout first and then the packages of
the environment running the tests (a `.pth` file), which stands for the page's
`pip install 'transformer-proofs[figures]'` without downloading anything; the page's
`pip install -e` runs pip of that environment, without build isolation (the test extra
installs the build backend), so that nothing is fetched. The whole run is a job of
tests/early.py: it spends its time in subprocesses.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path

import early
import pytest
from places import ROOT, SAMPLES

OUTSIDE = "an author outside the repository"
PAGE = ROOT / "docs" / "adding-a-chapter.md"
SECTION = "## Outside this repository"


def section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    return text.split(SECTION, 1)[1].split("\n## ", 1)[0]


def fenced(text: str, language: str) -> list[str]:
    """The bodies of the section's blocks fenced as `language`, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)


def commands() -> list[str]:
    return [line for line in fenced(section(), "shell")[0].splitlines() if line.strip()]


def book_folder(scratch: Path) -> Path:
    """The book folder the page starts from: its settings and the chapter file."""
    book = scratch / "my-book"
    book.mkdir()
    setting = fenced(section(), "toml")[0]
    (book / "pyproject.toml").write_text(setting, encoding="utf-8")
    shutil.copyfile(SAMPLES / "unseen.mdx", book / "decay.mdx")
    return book


def environment(scratch: Path) -> Path:
    """A fresh virtual environment that imports the checkout, then the packages of this
    one; its python."""
    folder = scratch / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(folder)],
        check=True,
        env=early.environment(),
        timeout=120,
    )
    python = folder / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        env=early.environment(),
    ).stdout.strip()
    outer = sysconfig.get_paths()["purelib"]
    (Path(site) / "transformer_proofs_checkout.pth").write_text(f"{ROOT}\n{outer}\n")
    return python


def write_check(book: Path) -> None:
    """The author's edit: the page's check in place of the stub of 命題 1.2, its test
    added to the section's test file."""
    check, test = fenced(section(), "python")
    module = book / "decay-checks" / "decay_checks" / "section_1.py"
    text = module.read_text(encoding="utf-8")
    start = text.index('@CHAPTER.element("prop-decay-ratio"')
    end = text.index("\n\n\n", start) if "\n\n\n" in text[start:] else len(text)
    module.write_text(text[:start] + check + text[end:], encoding="utf-8")
    tests = book / "decay-checks" / "tests" / "test_decay_checks_section_1.py"
    tests.write_text(tests.read_text(encoding="utf-8") + "\n\n" + test, encoding="utf-8")


@early.job(OUTSIDE)
def outside_run(items: Sequence[pytest.Item]) -> dict[str, subprocess.CompletedProcess]:
    """Each of the page's commands, run in the book folder, by its text."""
    scratch = early.scratch("outside-")
    book = book_folder(scratch)
    python = environment(scratch)
    out = {}
    for command in commands():
        words = shlex.split(command)
        if words[0] == "pip":
            words = [str(python), "-m", "pip", *words[1:], "--no-build-isolation", "-q"]
        elif words[0] == "python":
            words = [str(python), *words[1:]]
        if command.startswith("python -m proofs verify prop-decay-ratio"):
            write_check(book)
        out[command] = subprocess.run(
            words,
            cwd=book,
            env=early.environment(PYTHONDONTWRITEBYTECODE="1"),
            capture_output=True,
            text=True,
            timeout=600,
        )
    shutil.rmtree(scratch, ignore_errors=True)
    return out


def test_the_page_takes_ten_commands_at_most():
    assert 0 < len(commands()) <= 10


@pytest.mark.slow
@pytest.mark.early(OUTSIDE)
def test_every_command_of_the_page_succeeds_outside_the_checkout():
    runs = early.result(OUTSIDE)
    failed = {c: (r.returncode, r.stdout[-1500:], r.stderr[-1500:]) for c, r in runs.items()}
    assert {c: f for c, f in failed.items() if f[0] != 0} == {}


@pytest.mark.slow
@pytest.mark.early(OUTSIDE)
def test_outside_the_stubs_are_unchecked_then_the_first_check_passes():
    runs = early.result(OUTSIDE)
    listed = runs["python -m proofs verify decay"].stdout
    assert "2 checks: 0 passed, 0 failed, 0 errors, 2 unchecked" in listed
    verified = runs["python -m proofs verify prop-decay-ratio"].stdout
    assert re.search(r"prop-decay-ratio\s+命題 1\.2\s+.*\s+passed", verified), verified


@pytest.mark.slow
@pytest.mark.early(OUTSIDE)
def test_outside_pytest_k_runs_the_check_its_claims_and_the_authors_test():
    tested = early.result(OUTSIDE)["python -m pytest -k prop_decay_ratio"].stdout
    assert re.search(r"\b3 passed, \d+ deselected", tested), tested


@pytest.mark.slow
@pytest.mark.early(OUTSIDE)
def test_outside_the_new_chapter_writes_an_installable_project():
    made = early.result(OUTSIDE)["python -m proofs new-chapter decay.mdx --key decay"]
    assert made.stderr.strip() == (
        "wrote decay-checks with 2 unchecked elements; install it with pip install -e decay-checks"
    )


@pytest.mark.slow
@pytest.mark.early(OUTSIDE)
def test_outside_the_audit_reads_the_chapter_with_its_check_and_sync_finds_it_in_sync():
    runs = early.result(OUTSIDE)
    audited = runs["python -m proofs audit decay.mdx --run-listings"].stdout
    assert "decay.mdx: 0 errors, 0 warnings" in audited
    assert "prop-decay-ratio — no check" not in audited
    synced = runs["python -m proofs sync decay.mdx --run-listings"].stderr
    assert "decay.mdx: in sync (1 table, 5 output lines" in synced
