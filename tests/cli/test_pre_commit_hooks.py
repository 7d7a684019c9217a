"""The hooks of .pre-commit-hooks.yaml, run by pre-commit itself on a temporary git
repository: a commit of a chapter with a slip is refused with the slip's line, a clean
one goes through, and a table the package regenerates otherwise is refused by the sync
hook with its diff.

The hooks are declared `language: python`, which makes pre-commit install this package
into an environment of its own; here they run as `language: system` hooks (each with the
manifest's entry, files and options) with this environment's `proofs` on the PATH, so
that what is tested is the manifest and the commands, not a download."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from places import ROOT, SEEDS

MANIFEST = ROOT / ".pre-commit-hooks.yaml"
CHAPTER = (
    '# 見本\n\n<Remark id="rem-sum" title="和">\n\n足し算を確かめます。\n\n</Remark>\n\n'
    "$2 \\times 384 = {} $ 個です。\n"
)


def hooks() -> list[dict[str, object]]:
    return yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))


def test_the_manifest_declares_an_audit_and_a_sync_hook_on_chapter_files():
    declared = {h["id"]: h for h in hooks()}
    assert sorted(declared) == ["audit", "sync"]
    assert declared["audit"]["entry"] == "proofs audit --quiet"
    assert declared["sync"]["entry"] == "proofs sync"
    assert all(h["language"] == "python" and h["require_serial"] for h in declared.values())


def book(folder: Path) -> Path:
    """A git repository whose pre-commit configuration runs the manifest's hooks, with
    them installed as its pre-commit hook."""
    repository = folder / "book"
    repository.mkdir()
    local = [{**h, "language": "system"} for h in hooks()]
    config = {"repos": [{"repo": "local", "hooks": local}]}
    (repository / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    git(repository, "init", "-q")
    git(repository, "add", ".pre-commit-config.yaml")
    assert run(repository, sys.executable, "-m", "pre_commit", "install").returncode == 0
    return repository


def environment(folder: Path) -> dict[str, str]:
    """The variables the tools run with: this environment's commands first on the PATH,
    pre-commit's store and git's identity in the test's folder."""
    return {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PRE_COMMIT_HOME": str(folder.parent / "pre-commit-home"),
        "GIT_AUTHOR_NAME": "a",
        "GIT_AUTHOR_EMAIL": "a@example.org",
        "GIT_COMMITTER_NAME": "a",
        "GIT_COMMITTER_EMAIL": "a@example.org",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
    }


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=folder,
        env=environment(folder),
        capture_output=True,
        encoding="utf-8",
        timeout=600,
    )


def git(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = run(folder, "git", *args)
    assert done.returncode == 0, done.stderr
    return done


def commit(repository: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    (repository / name).write_text(text, encoding="utf-8")
    git(repository, "add", name)
    return run(repository, "git", "commit", "-q", "-m", name)


def test_a_commit_of_a_chapter_with_a_slip_is_refused_naming_its_line(tmp_path):
    repository = book(tmp_path)
    done = commit(repository, "c.mdx", CHAPTER.format(786))
    assert done.returncode == 1
    assert (
        "c.mdx:9:2: error[EQ001]: equality: 2 \\times 384 = 786 — left side recomputes to "
        "768, right side to 786"
    ) in done.stderr
    assert run(repository, "git", "rev-parse", "HEAD").returncode != 0  # nothing committed


def test_a_commit_of_a_clean_chapter_goes_through(tmp_path):
    repository = book(tmp_path)
    done = commit(repository, "c.mdx", CHAPTER.format(768))
    assert done.returncode == 0, done.stderr
    assert git(repository, "log", "--format=%s").stdout == "c.mdx\n"


def test_a_commit_of_a_file_no_hook_reads_goes_through(tmp_path):
    repository = book(tmp_path)
    assert commit(repository, "notes.rst", "no chapter\n").returncode == 0


@pytest.mark.slow
def test_a_table_the_package_regenerates_otherwise_is_refused_by_the_sync_hook(tmp_path):
    block = SEEDS / "002_1f7cf506cffefce0.txt"
    if not block.is_file():
        pytest.skip(f"{block} is not here: the table is the block chapter's")
    repository = book(tmp_path)
    seed = block.read_text(encoding="utf-8")
    done = commit(repository, "block.txt", seed.replace("7,087,872", "7,087,827"))
    assert done.returncode == 1
    audit, sync = done.stderr.split("proofs sync (check)")
    assert "block.txt:244:40: error[TAB001]: table:" in audit
    assert "-ブロック 1 つ\t$12\\times768^2 + 13\\times768$\t7,087,827\n" in sync
    assert "+ブロック 1 つ\t$12\\times768^2 + 13\\times768$\t7,087,872\n" in sync
    assert "would rewrite block.txt: 1 region drifted: table gpt2-parameters (line 241)" in sync
