# ruff: noqa: E501 - the chapters are lines of Japanese and TeX, kept whole so that they read as written
"""A number written in any form TeX gives it is one number to every rule: digits grouped
by `{,}`, by a thin space `\\,` or not at all, a power of ten after `\\times` or `\\cdot`.
A chapter written in one form is as quiet as in another, and a slip is caught in each."""

from __future__ import annotations

import pytest

from proofs.audit import audit_document
from proofs.audit.deciding.sentence import title_settings
from proofs.audit.rules.table_content import Printed, _header_setting
from proofs.reader import parse
from proofs.reader.math import split_statements

# a title that sets L, a setting in prose, a worked quotient, a percentage after a formula,
# and a table whose header sets C and whose cells are powers of ten
CHAPTER = """第 9 章 試し

3. 節

例 3.1（学習した長さ $L = 1{{,}}024$ での値）

$L = 1{{,}}024$ とします。$d = 768$ の教師と $d = 1{{,}}024$ の教師を比べます。
$2\\pi \\times 10000^{{510/512}} \\approx {wave}$ です。$65/8{{,}}192 \\approx 0.79$ % です。

表 3.1　$C = 5.88 \\times 10^{{23}}$ での値

$n$\t$C = 5.88 \\times 10^{{23}}$ での $C/n$
1\t$5.88 \\times 10^{{23}}$
2\t${half} \\times 10^{{23}}$
"""


def _as(form: str, text: str) -> str:
    """The chapter with its grouped numbers and powers of ten written in another form."""
    if form == "thin":
        return text.replace("{,}", "\\,")
    if form == "cdot":
        return text.replace("\\times 10^", "\\cdot 10^")
    return text


def _errors(text: str) -> list[tuple[int, str]]:
    report = audit_document(parse(text, "unseen.txt"))
    return sorted((f.line, f.code) for f in report.mismatched)


@pytest.mark.parametrize("form", ["braces", "thin", "cdot"])
def test_a_chapter_is_quiet_in_every_form_of_its_numbers(form):
    text = CHAPTER.format(wave="60{,}611", half="2.94")
    assert _errors(_as(form, text)) == []


@pytest.mark.parametrize("form", ["braces", "thin", "cdot"])
def test_a_slip_is_caught_in_every_form_of_its_numbers(form):
    assert _errors(_as(form, CHAPTER.format(wave="60{,}711", half="2.94"))) == [(8, "EQ001")]
    assert _errors(_as(form, CHAPTER.format(wave="60{,}611", half="2.49"))) == [(14, "TAB101")]


def test_the_readers_of_numbers_take_one_form():
    assert split_statements(r"L = 1\,024, C = 5.88 \cdot 10^{23}") == [
        "L = 1{,}024",
        r" C = 5.88 \times 10^{23}",
    ]
    assert title_settings(r"学習した長さ $L = 1\,024$ での値") == ["L = 1024"]
    assert title_settings(r"$C = 5.88 \cdot 10^{23}$ での値") == [r"C = 5.88 \times 10^{23}"]
    assert _header_setting(r"\ell = 4\,096") == ("ell", Printed(4096, 0))
    assert Printed.read(r"$1.55 \cdot 10^{-5}$") == Printed.read(r"$1.55 \times 10^{-5}$")


def test_a_number_grouped_by_a_thin_space_is_the_one_printed_elsewhere():
    # 2\,005 is the 2,005 of the next line, not a slip of the 2,050 printed twice
    text = "\n".join(
        [
            "第 9 章 試し",
            "",
            "3. 節",
            "",
            "例 3.1（合計）",
            "",
            "合計は $2\\,005$ 個です。",
            "",
            "表の合計も 2,005 個です。",
            "",
            "別の表では 2,050 個です。",
            "",
            "その半分の倍も 2,050 個です。",
            "",
        ]
    )
    report = audit_document(parse(text, "unseen.txt"))
    assert [f.code for f in report.mismatched] == []
