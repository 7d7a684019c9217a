"""`audit --format github` and `sync --format github` write GitHub workflow commands, in the
form GitHub documents: `::error file={name},line={line},col={col},title={title}::{message}`,
the message with %, CR and LF escaped (%25, %0D, %0A), property values with : and , escaped
as well (%3A, %2C). Each line is parsed back by that grammar and must give the values the
report holds, as a log shows them (every control character, a name's undecodable byte
among them, made visible: proofs.typeset.shown), whatever text the chapter puts in them."""

from __future__ import annotations

import re
import shutil

import pytest
from commands import run
from hypothesis import given
from hypothesis import strategies as st
from places import SEEDS

from proofs.audit.reports.github import workflow_command
from proofs.typeset.shown import visible, visible_lines

BLOCK = SEEDS / "002_1f7cf506cffefce0.txt"
LEVELS = ("debug", "notice", "warning", "error")
PROPERTIES = ("file", "line", "endLine", "col", "endColumn", "title")
COMMAND = re.compile(r"::(?P<level>[a-z]+)(?: (?P<properties>[^:]*))?::(?P<message>.*)")
ESCAPES = {"%25": "%", "%0D": "\r", "%0A": "\n", "%3A": ":", "%2C": ","}


def unescaped(text: str) -> str:
    return re.sub(r"%(?:25|0D|0A|3A|2C)", lambda m: ESCAPES[m.group(0)], text)


def parsed(line: str) -> tuple[str, dict[str, str], str]:
    """(level, properties, message) of one workflow command; AssertionError when the line
    is not one in GitHub's documented form."""
    match = COMMAND.fullmatch(line)
    assert match is not None, line
    assert match.group("level") in LEVELS, line
    properties = {}
    for pair in (match.group("properties") or "").split(","):
        name, equals, value = pair.partition("=")
        assert equals and name in PROPERTIES and "\n" not in value, line
        properties[name] = unescaped(value)
    for number in ("line", "col", "endLine", "endColumn"):
        assert properties.get(number, "1").isdigit(), line
    assert "\n" not in match.group("message") and "\r" not in match.group("message"), line
    return match.group("level"), properties, unescaped(match.group("message"))


@given(path=st.text(min_size=1), title=st.text(), message=st.text())
def test_a_workflow_command_parses_back_to_what_it_says(path, title, message):
    line = workflow_command("error", path, 12, title, message, 3)
    assert "\n" not in line and "\r" not in line
    assert parsed(line) == (
        "error",
        {"file": visible(path), "line": "12", "col": "3", "title": visible(title)},
        visible_lines(message),
    )


def test_an_unescaped_message_or_property_is_not_the_documented_form():
    with pytest.raises(AssertionError):
        parsed("::error file=a,b.txt,line=1::x")  # a comma inside a property value
    with pytest.raises(AssertionError):
        parsed("::error file=a.txt,line=one::x")
    with pytest.raises(AssertionError):
        parsed("::fatal file=a.txt::x")


@pytest.fixture
def slipped_block(tmp_path):
    """A copy of the block chapter with one cell of 例 5.3's table changed."""
    if not BLOCK.is_file():
        pytest.skip(f"{BLOCK} is not here: no chapter to annotate")
    text = BLOCK.read_text(encoding="utf-8")
    assert text.count("7,087,872") >= 1
    copy = tmp_path / "block, draft: 2.txt"  # a name with what a property must escape
    copy.write_text(text.replace("7,087,872", "7,087,827", 1), encoding="utf-8")
    return copy


def test_audit_annotates_each_mismatch_at_the_line_and_column_of_the_lint_report(
    slipped_block, capsys
):
    code, lint, _ = run(capsys, "audit", slipped_block, "--quiet")
    assert code == 1
    where = [
        tuple(line[len(str(slipped_block)) + 1 :].split(":")[:2])
        for line in lint.splitlines()
        if line.startswith(f"{slipped_block}:") and line[len(str(slipped_block)) + 1].isdigit()
    ]
    code, out, _ = run(capsys, "audit", slipped_block, "--format", "github")
    assert code == 1
    commands = [parsed(line) for line in out.splitlines()]
    annotated = [(p["line"], p["col"]) for level, p, _ in commands if level in ("error", "warning")]
    assert annotated == where and len(annotated) == 3
    levels = [level for level, _, _ in commands if level in ("error", "warning")]
    assert levels == ["error", "error", "error"]  # 例 3.2's check, its claim, the table cell
    assert {p["file"] for _, p, _ in commands} == {str(slipped_block)}
    assert any("7,087,827" in message for _, _, message in commands)


def test_sync_annotates_the_drifted_table_at_its_line_then_notes_it_rewritten(
    slipped_block, capsys
):
    code, out, _ = run(capsys, "sync", slipped_block, "--format", "github")
    assert code == 1
    ((level, properties, message),) = [parsed(line) for line in out.splitlines()]
    table = slipped_block.read_text(encoding="utf-8").splitlines().index("構成要素\t式\t個数") + 1
    assert (level, properties["line"], properties["file"]) == (
        "error",
        str(table),
        str(slipped_block),
    )
    assert message.startswith("table gpt2-parameters drifted")
    code, out, _ = run(capsys, "sync", slipped_block, "--format", "github", "--write")
    assert code == 0
    assert [parsed(line)[0] for line in out.splitlines()] == ["notice"]
    code, out, _ = run(capsys, "sync", slipped_block, "--format", "github")
    assert (code, out) == (0, "")


def test_sync_annotates_a_problem_to_fix_by_hand(tmp_path, capsys):
    if not BLOCK.is_file():
        pytest.skip(f"{BLOCK} is not here: no chapter to annotate")
    broken = tmp_path / "block.txt"
    shutil.copyfile(BLOCK, broken)
    text = broken.read_text(encoding="utf-8") + "\n\n$x = 1\n"  # an unpaired $ at the end
    broken.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "sync", broken, "--format", "github")
    assert code == 1
    (level, properties, message), *_ = [parsed(line) for line in out.splitlines()]
    assert level == "error" and properties["title"] == "sync: not in sync"
    assert int(properties["line"]) == text.splitlines().index("$x = 1") + 1 and "$" in message
