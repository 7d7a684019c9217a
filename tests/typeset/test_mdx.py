"""What the package writes into MDX compiles with a real MDX compiler: the chapter after
`sync --write`, and every table in Markdown. `tests/mdx/` holds the compiler (@mdx-js/mdx
with remark-math, as a docs site builds the chapters); `.ci/run` installs it with npm."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from places import MDX, SEEDS

from proofs import cli
from proofs.book.registry import load_all, tables

COMPILER = MDX
ATTENTION = SEEDS / "000_ce182fefa314a82b.txt"  # the MDX chapter


@pytest.fixture(scope="module")
def compile_mdx():
    """Compile MDX files: (exit code, stderr), one 'path: reason' line per failure."""
    node = shutil.which("node")
    if node is None or not (COMPILER / "node_modules" / "@mdx-js" / "mdx").is_dir():
        pytest.skip("node or tests/mdx/node_modules is absent (npm ci --prefix tests/mdx)")

    def run(*paths: Path) -> tuple[int, str]:
        done = subprocess.run(
            [node, str(COMPILER / "compile.mjs"), *map(str, paths)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        return done.returncode, done.stderr

    return run


def test_the_compiler_rejects_what_a_docs_site_rejects(compile_mdx, tmp_path):
    braces = tmp_path / "braces.mdx"
    braces.write_text("計 7{,}247{,}757{,}312 回\n", encoding="utf-8")  # a number outside math
    unclosed = tmp_path / "unclosed.mdx"
    unclosed.write_text('<Proposition id="x">\n\ntext\n', encoding="utf-8")
    code, err = compile_mdx(braces, unclosed)
    assert code == 1 and err.count("\n") == 2
    assert "braces.mdx" in err and "unclosed.mdx" in err


def test_the_mdx_chapter_compiles_after_sync_writes_a_drifted_table_back(
    compile_mdx, tmp_path, capsys
):
    if not ATTENTION.is_file():
        pytest.skip(f"{ATTENTION} is not here")
    chapter = tmp_path / "attention.mdx"
    chapter.write_bytes(ATTENTION.read_bytes().replace(b"| 64 | 62.92 |", b"| 64 | 62.93 |"))
    assert cli.main(["sync", str(chapter), "--write"]) == 0
    capsys.readouterr()
    assert chapter.read_bytes() == ATTENTION.read_bytes()
    assert compile_mdx(chapter) == (0, "")


def test_every_table_in_markdown_compiles(compile_mdx, tmp_path, capsys):
    load_all()
    written = []
    for name in tables():
        assert cli.main(["tables", name, "--format", "markdown"]) == 0
        path = tmp_path / f"{name}.mdx"
        path.write_text(capsys.readouterr().out, encoding="utf-8")
        written.append(path)
    assert len(written) >= 6
    assert compile_mdx(*written) == (0, "")
