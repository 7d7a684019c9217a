"""benchmarks/unseen_restyled: a restyled chapter that says the same is quiet, one that
changes a number is reported, and a restyled chapter without its original is bad input."""

from __future__ import annotations

import pytest

from benchmarks.unseen_restyled import main

CHAPTER = """第 9 章 試し

3. 節

例 3.1（和）

$1{,}024 \\times 2 = 2{,}048$ です。
"""


def test_a_restyle_that_says_the_same_is_quiet_and_one_that_does_not_is_reported(tmp_path, capsys):
    originals, restyled = tmp_path / "originals", tmp_path / "restyled"
    originals.mkdir()
    restyled.mkdir()
    (originals / "sum.txt").write_text(CHAPTER, encoding="utf-8")
    same = CHAPTER.replace("1{,}024 \\times 2", "2 \\cdot 1024").replace("です", "である")
    (restyled / "sum.txt").write_text(same, encoding="utf-8")
    folders = ["--folder", str(restyled), "--originals", str(originals)]
    assert main(folders) == 0
    (restyled / "sum.txt").write_text(same.replace("1024", "1025"), encoding="utf-8")
    assert main(folders) == 1
    assert "sum.txt:7 error EQ001" in capsys.readouterr().out


def test_a_restyled_chapter_without_its_original_is_refused(tmp_path):
    (tmp_path / "lone.txt").write_text(CHAPTER, encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["--folder", str(tmp_path), "--originals", str(tmp_path / "none")])
