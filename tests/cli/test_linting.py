"""`proofs audit` as a linter: the chapter read from standard input (`audit -`, named by
--stdin-filename), --select and --ignore, and the rules' settings under [tool.proofs]
(select, ignore, per-file-ignores) read from the pyproject.toml above the working
directory (run in tests/command_worker.py, so that this process keeps its own)."""

from __future__ import annotations

import subprocess
import sys

from commands import one_line, run, run_in

CHAPTER = (
    '# 見本\n\n<Remark id="rem-sum" title="和">\n\n足し算を確かめます。\n\n</Remark>\n\n'
    "$2 \\times 384 = 786$ 個です。\n"
)
SLIP = (
    "error[EQ001]: equality: 2 \\times 384 = 786 — left side recomputes to 768, right side "
    "to 786; they differ by 18 beyond the printed precision"
)
COUNTS = "1 not checkable, 0 confirmed, 3 of 3 numbers and 1 of 1 relations examined"
FOUND = f"1 error, 0 warnings, {COUNTS}"
QUIET = f"0 errors, 0 warnings, {COUNTS}"


def from_stdin(folder, *args: str) -> tuple[int, str, str]:
    """`proofs audit - ARGS` in a process of its own, the chapter on its standard input."""
    done = subprocess.run(
        [sys.executable, "-m", "proofs", "audit", "-", *args],
        input=CHAPTER,
        cwd=folder,
        capture_output=True,
        encoding="utf-8",
        timeout=300,
    )
    return done.returncode, done.stdout, done.stderr


def test_audit_dash_reads_the_chapter_from_standard_input(tmp_path):
    code, out, err = from_stdin(tmp_path, "--quiet")
    assert (code, err) == (1, "")
    assert out.splitlines() == [f"<stdin>:9:2: {SLIP}", f"<stdin>: {FOUND}"]


def test_stdin_filename_names_the_chapter_in_the_report(tmp_path):
    code, out, _ = from_stdin(tmp_path, "--stdin-filename", "book/c.mdx", "--quiet")
    assert code == 1
    assert out.splitlines() == [f"book/c.mdx:9:2: {SLIP}", f"book/c.mdx: {FOUND}"]


def test_stdin_filename_is_the_name_per_file_ignores_match(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.proofs]\nper-file-ignores = { "c.mdx" = ["EQ001"] }\n', encoding="utf-8"
    )
    assert from_stdin(tmp_path, "--stdin-filename", "c.mdx", "--quiet")[:2] == (
        0,
        f"c.mdx: {QUIET}\n",
    )
    assert from_stdin(tmp_path, "--stdin-filename", "d.mdx", "--quiet")[0] == 1


def test_ignore_leaves_a_rules_findings_out(capsys, tmp_path):
    chapter = tmp_path / "c.mdx"
    chapter.write_text(CHAPTER, encoding="utf-8")
    assert run(capsys, "audit", chapter, "--quiet", "--ignore", "EQ001") == (
        0,
        f"{chapter}: {QUIET}\n",
        "",
    )
    code, out, _ = run(capsys, "audit", chapter, "--quiet", "--select", "EQ", "--ignore", "EQ002")
    assert (code, out.splitlines()[0]) == (1, f"{chapter}:9:2: {SLIP}")


def test_per_file_ignores_leave_a_rule_out_of_the_files_they_match(tmp_path):
    (tmp_path / "c.mdx").write_text(CHAPTER, encoding="utf-8")
    (tmp_path / "d.mdx").write_text(CHAPTER, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.proofs]\nper-file-ignores = { "c.*" = ["EQ"] }\n', encoding="utf-8"
    )
    code, out, _ = run_in(tmp_path, "audit", "c.mdx", "d.mdx", "--quiet")
    assert code == 1
    assert out.splitlines() == [f"c.mdx: {QUIET}", f"d.mdx:9:2: {SLIP}", f"d.mdx: {FOUND}"]


def test_select_under_tool_proofs_is_replaced_by_the_option(tmp_path):
    (tmp_path / "c.mdx").write_text(CHAPTER, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.proofs]\nselect = ["TAB"]\n', encoding="utf-8")
    shown = "0 errors, 0 warnings, 0 not checkable, 0 confirmed"  # the notice is no TAB's
    assert run_in(tmp_path, "audit", "c.mdx", "--quiet")[:2] == (
        0,
        f"c.mdx: {shown}, 3 of 3 numbers and 1 of 1 relations examined\n",
    )
    assert run_in(tmp_path, "audit", "c.mdx", "--quiet", "--select", "EQ")[0] == 1


def test_a_setting_of_the_wrong_type_is_refused_naming_it(tmp_path):
    (tmp_path / "c.mdx").write_text(CHAPTER, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.proofs]\nselect = "EQ"\n', encoding="utf-8")
    code, out, err = run_in(tmp_path, "audit", "c.mdx")
    assert (code, out) == (2, "")
    assert one_line(err) == (
        f"proofs: {tmp_path}/pyproject.toml: [tool.proofs] select: expected a list of rule "
        "codes or prefixes (EQ001, EQ, ALL), got 'EQ'"
    )


def test_a_code_under_tool_proofs_that_names_no_rule_is_refused_naming_its_key(tmp_path):
    (tmp_path / "c.mdx").write_text(CHAPTER, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.proofs]\nignore = ["RST9"]\n', encoding="utf-8")
    code, _, err = run_in(tmp_path, "audit", "c.mdx")
    assert code == 2
    assert one_line(err).startswith(
        f"proofs: {tmp_path}/pyproject.toml: [tool.proofs] ignore: 'RST9' is no rule's code"
    )
