"""The LaTeX files compile as they are: `latex --standalone` with LuaLaTeX on A4 and on B5
paper, without an error, a missing character or an overfull box; `latex --macros` under
\\usepackage with every macro used; the equations (`latex --out`) and the tables
(`tables --format latex --out`) \\input into a document that loads just the packages their
first lines name. Where a file needs no luatexja, pdflatex compiles it too. Without
lualatex these tests are skipped, saying what to install (.ci/run installs it)."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from proofs import cli
from proofs.book.registry import formulas, tables
from proofs.publish.edition.files import LUALATEX as RESTRICTED_LUALATEX
from proofs.publish.edition.files import RESTRICTIONS

LUALATEX = shutil.which("lualatex")
PDFLATEX = shutil.which("pdflatex")
INSTALL = (
    "apt-get install -y --no-install-recommends texlive-luatex texlive-lang-japanese "
    "texlive-latex-recommended texlive-latex-extra lmodern"
)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(LUALATEX is None, reason=f"lualatex is not installed ({INSTALL})"),
]
OVERFULL_LIMIT = 1.0  # pt


def problems(log: str) -> list[str]:
    """The errors, missing characters and overfull boxes wider than OVERFULL_LIMIT of a
    LaTeX log: LuaLaTeX exits 0 on the last two (without luatexja it drops every Japanese
    character with a log line only)."""
    lines = log.splitlines()
    found = [line for line in lines if line.startswith("!") or "Missing character" in line]
    for line in lines:
        overfull = re.match(r"Overfull \\[hv]box \(([\d.]+)pt too (?:wide|high)\)", line)
        if overfull and float(overfull.group(1)) > OVERFULL_LIMIT:
            found.append(line)
    return found


def compile_tex(directory: Path, name: str, engine: str = "lualatex", runs: int = 1) -> str:
    """Compile directory/name (`runs` times: 2 resolves references); the log of the last
    run, once it ended with exit code 0 and without problems."""
    # a log line per message, unwrapped; TeX opens no file outside the folder, runs no shell
    env = {**os.environ, **RESTRICTIONS, "max_print_line": "100000"}
    command = [*RESTRICTED_LUALATEX] if engine == "lualatex" else [engine, "-no-shell-escape"]
    for _ in range(runs):
        run = subprocess.run(
            [*command, "-interaction=nonstopmode", "-halt-on-error", name],
            cwd=directory,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        log = (directory / name).with_suffix(".log").read_text(encoding="utf-8", errors="replace")
        assert run.returncode == 0, problems(log) or run.stdout[-3000:]
    assert problems(log) == [], f"{engine} {name}"
    return log


def packages_named(path: Path) -> list[str]:
    """The packages a file's first lines say it needs."""
    match = re.search(r"^% Packages: (.*)$", path.read_text(encoding="utf-8"), re.M)
    assert match, f"{path.name} does not name its packages"
    return [] if match.group(1) == "none" else match.group(1).split(", ")


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    """The files the command line writes, each once."""
    directory = tmp_path_factory.mktemp("latex-book")
    for args in (
        ("latex", "--standalone", "--out", "book-a4.tex"),
        ("latex", "--standalone", "--paper", "b5", "--out", "book-b5.tex"),
        ("latex", "--macros", "--out", "formulas.sty"),
        ("latex", "--out", "formulas.tex"),
        ("tables", "--format", "latex", "--out", "tables.tex"),
    ):
        *command, out = args
        assert cli.main([*command, str(directory / out)]) == 0, args
    return directory


@pytest.mark.parametrize("paper", ["a4", "b5"])
def test_the_standalone_document_compiles_with_lualatex_and_fits_the_page(written, paper):
    book = written / f"book-{paper}.tex"
    text = book.read_text(encoding="utf-8")
    assert rf"\documentclass[{paper}paper]{{article}}" in text
    log = compile_tex(written, book.name)
    assert f"book-{paper}.pdf" in log  # "Output written on …"
    for name in formulas():
        assert rf"\label{{eq:{name}}}" in text
    assert text.count(r"\caption*{") == len(tables())
    assert re.findall(r"\\usepackage\{(\w+)\}", text) == packages_named(book)
    assert "% Engine: LuaLaTeX" in text  # it has Japanese


def test_every_macro_compiles_under_usepackage(written):
    sty = (written / "formulas.sty").read_text(encoding="utf-8")
    macros = re.findall(r"\\newcommand\{\\(\w+)\}", sty)
    assert len(macros) == len(formulas()) and "SoftmaxJacobian" in macros
    assert re.findall(r"\\RequirePackage\{(\w+)\}", sty) == packages_named(written / "formulas.sty")
    uses = "\n".join(rf"\[ \{m} \] and in a sentence \{m}." for m in macros)
    (written / "uses-macros.tex").write_text(
        "\\documentclass{article}\n\\usepackage{formulas}\n\\begin{document}\n"
        f"{uses}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    compile_tex(written, "uses-macros.tex")
    if PDFLATEX:  # the macros need no luatexja: any engine
        compile_tex(written, "uses-macros.tex", "pdflatex")


def input_document(directory: Path, name: str, *inputs: str) -> str:
    """A document loading the packages the inputs name, and \\input-ing them."""
    needed = dict.fromkeys(p for i in inputs for p in packages_named(directory / i))
    body = "See \\eqref{eq:softmax-jacobian}.\n" + "".join(f"\\input{{{i}}}\n" for i in inputs)
    (directory / name).write_text(
        "\\documentclass[a4paper]{article}\n"
        + "".join(f"\\usepackage{{{p}}}\n" for p in needed)
        + f"\\begin{{document}}\n{body}\\end{{document}}\n",
        encoding="utf-8",
    )
    return name


def test_the_equations_and_the_tables_input_with_the_packages_they_name(written):
    assert "luatexja" not in packages_named(written / "formulas.tex")
    assert "luatexja" in packages_named(written / "tables.tex")
    log = compile_tex(
        written, input_document(written, "inputs.tex", "formulas.tex", "tables.tex"), runs=2
    )
    assert "undefined references" not in log  # \label{eq:softmax-jacobian} is there
    if PDFLATEX:
        compile_tex(written, input_document(written, "equations.tex", "formulas.tex"), "pdflatex")


def test_the_log_check_finds_a_missing_character_and_an_overfull_box(tmp_path):
    """What the tests above would miss without reading the log: LuaLaTeX without luatexja
    exits 0 having dropped the Japanese, and an overfull box is only a log line."""
    (tmp_path / "bad.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n層正規化\n\n"
        "\\noindent\\hbox to 1.5\\textwidth{too wide\\hfil}\n\\end{document}\n",
        encoding="utf-8",
    )
    run = subprocess.run(
        [*RESTRICTED_LUALATEX, "-interaction=nonstopmode", "bad.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **RESTRICTIONS, "max_print_line": "100000"},
    )
    assert run.returncode == 0
    found = problems((tmp_path / "bad.log").read_text(encoding="utf-8", errors="replace"))
    assert any("Missing character" in line for line in found)
    assert any(line.startswith("Overfull \\hbox (172.5") for line in found)
