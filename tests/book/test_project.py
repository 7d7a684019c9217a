"""`new-chapter --package`: a chapter's checks as a project to install, and the default
outside a checkout (the run of its commands is tests/book/test_outside_author.py)."""

import tomllib

from commands import run_in
from hypothesis import given
from hypothesis import strategies as st
from places import ROOT, SAMPLES

from proofs.book.project import project, toml_string
from proofs.cli.chapter_files import in_checkout
from proofs.reader import read_chapter

UNSEEN = SAMPLES / "unseen.mdx"


def test_the_project_holds_its_settings_its_package_and_a_test_file_per_section(tmp_path):
    files = project(read_chapter(UNSEEN), "decay", tmp_path / "decay-checks")
    assert sorted(files) == [
        "decay_checks/__init__.py",
        "decay_checks/chapter.py",
        "decay_checks/notation.py",
        "decay_checks/section_1.py",
        "pyproject.toml",
        "tests/test_decay_checks_claims.py",
        "tests/test_decay_checks_section_1.py",
    ]
    settings = tomllib.loads(files["pyproject.toml"])
    assert settings["project"]["entry-points"]["transformer_proofs.chapters"] == {
        "decay": "decay_checks"
    }
    assert settings["tool"]["setuptools"]["packages"] == ["decay_checks"]
    assert (tmp_path / "decay-checks" / settings["tool"]["proofs"]["chapters"]).resolve() == (
        SAMPLES.resolve()
    )
    for name, text in files.items():
        if name.endswith(".py"):
            compile(text, name, "exec")


def test_the_stubs_take_their_claims_by_keyword_and_say_so(tmp_path):
    stub = project(read_chapter(UNSEEN), "decay", tmp_path / "p")["decay_checks/section_1.py"]
    assert "#   def prop_x(*, stated) -> list[str]:" in stub
    assert "# A check takes its claims by keyword (prop_x(stated=...)" in stub


@given(st.text())
def test_a_toml_string_holds_any_text(text):
    read = tomllib.loads(f"x = {toml_string(text)}")["x"]
    assert read == "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def test_outside_a_checkout_new_chapter_writes_a_project(tmp_path):
    chapter = tmp_path / "decay.mdx"
    chapter.write_bytes(UNSEEN.read_bytes())
    code, _, err = run_in(tmp_path, "new-chapter", chapter, "--key", "decay")
    assert (code, err.strip()) == (
        0,
        "wrote decay-checks with 2 unchecked elements; install it with pip install -e decay-checks",
    )
    assert (tmp_path / "decay-checks" / "pyproject.toml").is_file()


def test_a_checkout_is_where_the_package_is_imported_from_a_source_tree(tmp_path):
    assert in_checkout(ROOT) and in_checkout(ROOT / "docs")
    assert not in_checkout(tmp_path)
