"""The unseen-chapter cost benchmark (benchmarks/unseen_cost.py): what it times and how it
scales a time to the goal's 400 lines."""

from __future__ import annotations

import pytest

from benchmarks import unseen_cost


def test_a_time_is_scaled_to_the_goals_lines():
    assert unseen_cost.per_goal_lines(1.5, 200) == 3.0
    assert unseen_cost.per_goal_lines(3.0, 400) == 3.0
    assert unseen_cost.per_goal_lines(2.0, 800) == 1.0


def test_the_folders_chapters_are_its_mdx_and_text_files(tmp_path):
    for name in ("b.txt", "a.mdx", "recompute_a.py", "notes.md"):
        (tmp_path / name).write_text("x\n", encoding="utf-8")
    assert [p.name for p in unseen_cost.chapters(tmp_path, [])] == ["a.mdx", "b.txt"]
    assert [p.name for p in unseen_cost.chapters(tmp_path, ["b.txt"])] == ["b.txt"]


def test_a_chapter_the_folder_lacks_is_named(tmp_path):
    (tmp_path / "a.mdx").write_text("x\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"has no chapter c\.txt"):
        unseen_cost.chapters(tmp_path, ["c.txt", "a.mdx"])


def test_a_run_count_below_one_is_refused(capsys):
    with pytest.raises(SystemExit):
        unseen_cost.main(["--runs", "0"])
    assert "--runs: expected a count of 1 or more, got 0" in capsys.readouterr().err


def test_each_chapter_is_timed_and_scaled(tmp_path, capsys):
    chapter = "1. はじめに\n\n命題 1.1（和）\n\n$2 + 2 = 4$ である。\n"
    (tmp_path / "tiny.txt").write_text(chapter, encoding="utf-8")
    assert unseen_cost.main(["--folder", str(tmp_path), "--runs", "1"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("tiny.txt"))
    assert " 5 lines " in row and "s per 400 lines" in row and "exit 0" in row
    assert "per 400 lines: median" in out and "interpreter and imports" in out
