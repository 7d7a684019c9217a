"""The command line through its real entry point (`python -m proofs …` in a subprocess),
plus in-process runs where a test has to plant a failing check or a failing write."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from proofs import cli
from proofs.registry import REGISTRY, CheckFailed, Element, load_all

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
CHAPTERS = sorted(SEEDS.glob("00*_*.txt"))


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HYPOTHESIS_PROFILE": "ci"}
    return subprocess.run(
        [sys.executable, "-m", "proofs", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def test_every_subcommand_has_help_with_an_example():
    for command in ("verify", "tables", "latex", "audit"):
        out = io_help(command)
        assert "example" in out and f"python -m proofs {command}" in out


def io_help(command: str) -> str:
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert cli.main([command, "--help"]) == 0
    return buffer.getvalue()


# verify --------------------------------------------------------------------------


def quick_ids(k: int = 2) -> list[str]:
    """Registered elements with the fewest methods, as a small fast selection."""
    elements = sorted(load_all().values(), key=lambda e: ("numeric" in e.methods, e.id))
    if not elements:
        pytest.skip("no check is registered yet")
    return [e.id for e in elements[:k]]


def test_verify_runs_the_selected_checks_and_reports_json():
    ids = quick_ids()
    result = run("verify", *ids, "--json", "--profile", "ci")
    report = json.loads(result.stdout)
    assert [e["id"] for e in report["elements"]] == ids
    assert report["profile"] == "ci"
    assert result.returncode == (0 if report["ok"] else 1)
    assert all(e["result"] in ("passed", "failed", "error") for e in report["elements"])
    assert f"[1/{len(ids)}] {ids[0]}" in result.stderr  # the progress line


def test_verify_screen_lists_id_number_title_kind_result_and_time(capsys):
    ids = quick_ids(1)
    cli.main(["verify", ids[0].replace("-", "_")])
    out = capsys.readouterr().out
    element = load_all()[ids[0]]
    row = next(line for line in out.splitlines() if line.startswith(ids[0]))
    assert element.number in row and element.kind in row and " s" in row
    assert "1 checks:" in out


def test_verify_unknown_id_exits_2_with_the_nearest_ids():
    load_all()
    if "prop-softmax-jacobian" not in REGISTRY:
        pytest.skip("prop-softmax-jacobian is not registered yet")
    result = run("verify", "prop-softmax-jacobain")
    assert result.returncode == 2
    assert "prop-softmax-jacobian" in one_line(result.stderr)


@pytest.fixture
def planted():
    """Two planted elements: one whose check fails, one whose check raises."""

    def failing() -> list[str]:
        raise CheckFailed("J 1 = (0.1, -0.1), not 0")

    def broken() -> list[str]:
        raise ZeroDivisionError("division by zero\nsecond line")

    def failing_twice() -> list[str]:
        raise ExceptionGroup("two", [CheckFailed("row 1 moved"), CheckFailed("row 2 moved")])

    load_all()
    planted = {
        "zz-planted-failure": Element(
            "zz-planted-failure",
            "命題 99.1",
            "planted",
            "self-attention",
            "proposition",
            ("symbolic",),
            "fails",
            failing,
        ),
        "zz-planted-group": Element(
            "zz-planted-group",
            "命題 99.3",
            "planted",
            "self-attention",
            "proposition",
            ("numeric",),
            "fails twice",
            failing_twice,
        ),
        "zz-planted-error": Element(
            "zz-planted-error",
            "命題 99.2",
            "planted",
            "self-attention",
            "proposition",
            ("numeric",),
            "raises",
            broken,
        ),
    }
    REGISTRY.update(planted)
    yield list(planted)
    for key in planted:
        REGISTRY.pop(key)


def test_verify_reports_a_failed_check_and_an_error_and_exits_1(planted, capsys):
    assert cli.main(["verify", *planted]) == 1
    out = capsys.readouterr().out
    assert "FAILED zz-planted-failure (命題 99.1): J 1 = (0.1, -0.1), not 0" in out
    assert "ERROR zz-planted-error (命題 99.2): ZeroDivisionError: division by zero" in out
    assert "second line" not in out
    assert "FAILED zz-planted-group (命題 99.3): row 1 moved; row 2 moved" in out


def test_verify_selects_by_number(planted, capsys):
    assert cli.main(["verify", "命題 99.2", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [e["id"] for e in report["elements"]] == ["zz-planted-error"]
    assert report["elements"][0]["result"] == "error"


# tables --------------------------------------------------------------------------


def test_tables_with_other_settings_and_formats():
    result = run(
        "tables", "attention-complexity", "--d", "128", "--n", "128", "256", "--format", "csv"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[1] == "128,8388608,4194304,12582912,,"
    assert lines[2].startswith("256,16777216,16777216,33554432,4.0,")


def test_tables_bad_arguments_exit_2_on_one_line(capsys):
    assert cli.main(["tables", "no-such-table"]) == 2
    assert "unknown table 'no-such-table'" in one_line(capsys.readouterr().err)
    result = run("tables", "attention-complexity", "--d", "0")
    assert result.returncode == 2
    assert "d must be a positive int, got 0" in one_line(result.stderr)


# latex ---------------------------------------------------------------------------


def test_latex_prints_a_named_formula():
    result = run("latex", "attention-parameters")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1] == "4d^2 + 4d"


def test_latex_out_is_written_refused_without_force_and_replaced_with_it(tmp_path, capsys):
    target = tmp_path / "formulas.json"
    first = run("latex", "attention-parameters", "block-parameters", "--out", str(target))
    assert first.returncode == 0, first.stderr
    assert set(json.loads(target.read_text())) == {"attention-parameters", "block-parameters"}
    target.write_text("kept")
    refused = run("latex", "--out", str(target))
    assert refused.returncode == 2 and "--force" in one_line(refused.stderr)
    assert target.read_text() == "kept"
    assert cli.main(["latex", "attention-parameters", "--out", str(target), "--force"]) == 0
    assert set(json.loads(target.read_text())) == {"attention-parameters"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["formulas.json"]


def test_latex_bad_names_and_extensions_exit_2(tmp_path):
    unknown = run("latex", "softmax-jacobain")
    assert unknown.returncode == 2 and "softmax-jacobian" in one_line(unknown.stderr)
    cli_result = cli.main(["latex", "--out", str(tmp_path / "x.txt")])
    assert cli_result == 2 and not (tmp_path / "x.txt").exists()


def test_a_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "out.tex"

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        cli.write_atomically(target, "\\alpha\n" * 1000, force=False)
    assert list(tmp_path.iterdir()) == []


def test_an_error_while_building_a_formula_writes_nothing(tmp_path, monkeypatch, capsys):
    from proofs import formulas

    def broken() -> None:
        raise formulas.FormulaNotProved("softmax Jacobian: derived and stated forms differ")

    monkeypatch.setitem(
        formulas.FORMULAS, "softmax-jacobian", formulas.Formula("softmax-jacobian", "x", broken)
    )
    assert cli.main(["latex", "--out", str(tmp_path / "all.tex")]) == 1
    assert "softmax Jacobian: derived and stated forms differ" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


# audit ---------------------------------------------------------------------------


@pytest.mark.skipif(not CHAPTERS, reason="../shared/seeds is not here: no chapter to audit")
def test_audit_through_the_entry_point():
    block = next(p for p in CHAPTERS if p.name.startswith("002_"))
    result = run("audit", str(block), "--json")
    (report,) = json.loads(result.stdout)
    assert report["chapter"] == "transformer-block" and report["form"] == "rendered text"
    mismatched = sum(tally["mismatched"] for tally in report["summary"].values())
    assert result.returncode == (1 if mismatched else 0)


@pytest.mark.skipif(not CHAPTERS, reason="../shared/seeds is not here: no chapter to audit")
def test_audit_of_both_chapters_reports_each(capsys):
    code = cli.main(["audit", *map(str, CHAPTERS), "--quiet"])
    out = capsys.readouterr().out
    assert out.count("audit of ") == 2
    assert "(MDX, chapter self-attention)" in out
    assert "(rendered text, chapter transformer-block)" in out
    mismatched = [int(k) for k in re.findall(r"^mismatched \((\d+)\):", out, flags=re.M)]
    assert len(mismatched) == 2 and code == (1 if any(mismatched) else 0)


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("empty.mdx", "", r"empty.mdx:1: empty file"),
        ("plain.txt", "# Title\n\nNo elements here.\n", r"plain.txt:1: neither form"),
        (
            "columns.mdx",
            '# T\n\n<Proposition id="prop-softmax-basic">\n\n| a | b |\n|---|---|\n| 1 | 2 | 3 |\n',
            r"columns.mdx:7: table row has 3 cells, its header has 2",
        ),
        (
            "unknown.mdx",
            '# T\n\n<Proposition id="prop-softmax-jacobain" title="x">\n',
            r"unknown.mdx:3: element id 'prop-softmax-jacobain' is not registered",
        ),
    ],
    ids=["empty", "neither-form", "columns", "unregistered"],
)
def test_audit_bad_input_exits_2_naming_file_and_line(tmp_path, name, content, message):
    if "prop-softmax" in content and "prop-softmax-basic" not in load_all():
        pytest.skip("prop-softmax-basic is not registered yet")
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    result = run("audit", str(path))
    assert result.returncode == 2
    assert message in one_line(result.stderr)
    assert path.read_text(encoding="utf-8") == content


def test_audit_of_a_missing_file_exits_2(tmp_path):
    result = run("audit", str(tmp_path / "absent.mdx"))
    assert result.returncode == 2
    assert one_line(result.stderr) == f"proofs: {tmp_path / 'absent.mdx'}: no such file"


# the formulas behind `latex` -------------------------------------------------------


def test_every_registered_formula_prints():
    from proofs.formulas import FORMULAS

    for formula in FORMULAS.values():
        assert formula.latex().strip(), formula.name


CHAPTER_TEX = {  # the chapters' own TeX for these formulas
    "softmax-jacobian": r"\mathrm{diag}(\boldsymbol{\sigma})"
    r" - \boldsymbol{\sigma}\boldsymbol{\sigma}^{\mathsf{T}}",
    "softmax-jacobian-two": r"s(1-s)\begin{pmatrix} 1 & -1 \\ -1 & 1 \end{pmatrix}",
    "attention-parameters": "4d^2 + 4d",
    "attention-multiplications": "4nd^2 + 2n^2 d",
    "block-multiplications": "12nd^2 + 2n^2d",
    "model-parameters": r"|V|d + L_{\mathrm{ctx}}d"
    r" + L(4d^2 + 4d + 2d\,d_{\mathrm{ff}} + d_{\mathrm{ff}} + d + 4d) + 2d",
    "gelu-first-derivative": r"\Phi(t) + t\,\varphi(t)",
    "gelu-second-derivative": r"(2 - t^2)\,\varphi(t)",
}


@pytest.mark.parametrize("name", list(CHAPTER_TEX))
def test_formulas_print_in_the_chapters_notation(name):
    from proofs.formulas import FORMULAS
    from symbolic.printing import normalise_tex

    assert normalise_tex(FORMULAS[name].latex()) == normalise_tex(CHAPTER_TEX[name])


def test_a_formula_whose_derivation_fails_is_not_exported(monkeypatch):
    import sympy

    from proofs.formulas import FORMULAS, FormulaNotProved
    from symbolic import softmax

    derive = softmax.derive_softmax_jacobian_general

    def without_sigma_sigma_t():
        return derive(stated=lambda s, i, j: s[i] * sympy.KroneckerDelta(i, j))

    monkeypatch.setattr(softmax, "derive_softmax_jacobian_general", without_sigma_sigma_t)
    with pytest.raises(FormulaNotProved, match="softmax Jacobian"):
        FORMULAS["softmax-jacobian"].latex()
