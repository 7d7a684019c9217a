"""benchmarks/unseen_rewrites: each rewrite changes formulas only, and a rewrite that
changes what a chapter says is reported."""

from __future__ import annotations

from benchmarks import unseen_rewrites
from benchmarks.unseen_rewrites import REWRITES, main

CHAPTER = """第 9 章 試し

3. 節

例 3.1（和）

$1{,}024 \\times 10^{3} + 1{,}024 \\times 10^{3} = 2{,}048 \\times 10^{3}$ で、5 % です。

```python
print(1,024)
```
"""


def test_each_rewrite_changes_the_formulas_and_leaves_code_alone():
    for name, rewrite in REWRITES.items():
        text = rewrite(CHAPTER)
        assert text.split("```")[1] == CHAPTER.split("```")[1], name
    assert r"1\,024" in REWRITES["thin-space groups"](CHAPTER)
    assert r"1{,}024 \cdot 10^{3}" in REWRITES["cdot powers"](CHAPTER)
    assert "5 ％" in REWRITES["full-width percent"](CHAPTER)


def test_the_rewrites_of_braced_groups_write_the_same_mathematics_otherwise():
    line = r"$\frac{1}{\frac{d}{2}} = e^{-x^2} + \frac{d}{d\beta}H + \frac{d_k}{d_v}$"
    assert (
        REWRITES["slash for frac"](line)
        == r"$((1)/(((d)/(2)))) = e^{-x^2} + d/d\beta H + ((d_k)/(d_v))$"
    )
    assert REWRITES["exp for e powers"](line).count(r"\exp(-x^2)") == 1
    assert REWRITES["upright differentials"](line) == line.replace(
        r"\frac{d}{d\beta}", r"\frac{\mathrm{d}}{\mathrm{d}\beta}"
    )
    assert REWRITES["left right parentheses"](r"$f(x) + [0, 1)$") == r"$f(x) + [0, 1)$"
    assert REWRITES["ungrouped digits"](CHAPTER).count("2048") == 1
    prose = r"$4{,}096 = 4,096$ で 12,345,678 個と 1.5 です。"
    assert (
        REWRITES["ungrouped prose digits"](prose)
        == r"$4{,}096 = 4,096$ で 12345678 個と 1.5 です。"
    )


def test_a_rewrite_that_changes_a_number_is_a_false_finding(tmp_path, monkeypatch, capsys):
    (tmp_path / "sum.txt").write_text(CHAPTER, encoding="utf-8")
    assert main(["--folder", str(tmp_path), "thin-space groups", "cdot powers"]) == 0
    monkeypatch.setitem(REWRITES, "a digit", lambda text: text.replace("2{,}048", "2{,}049"))
    monkeypatch.setattr(unseen_rewrites, "REWRITES", REWRITES)
    assert main(["--folder", str(tmp_path), "a digit"]) == 1
    assert "a digit: sum.txt:7 error EQ001" in capsys.readouterr().out
