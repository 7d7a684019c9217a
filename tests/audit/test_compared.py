# ruff: noqa: E501 - the chapters are lines of TeX and Japanese, kept whole so that they read as written
"""Comparisons in words between two printed numbers (proofs.audit.rules.compared): the
order the words say is confirmed, the other order is a warning with both numbers, and words
that compare something else are left alone."""

from __future__ import annotations

from proofs.audit import audit_document
from proofs.reader import parse

HEAD = '# 見本\n\n<Remark id="rem-words" title="言葉">\n\n言葉で述べます。\n\n</Remark>\n\n{}\n'


def statuses(sentence: str) -> list[str]:
    report = audit_document(parse(HEAD.format(sentence), "c.mdx"), with_checks=False)
    return [str(f.status) for f in report.findings if f.code == "CMP001"]


def test_the_last_number_before_and_the_number_before_yori():
    line = "学習する数は $2 \\times 3 = 6$ 個で、$W_0$ の 9 個より{}、"
    assert statuses(line.format("少なく")) == ["confirmed"]
    assert statuses(line.format("多く")) == ["mismatched"]


def test_beyond_and_its_negation_across_the_sentence_before():
    line = "相対誤差は $0.00625/0.1 = 0.0625$ です。これは $u = 2^{{-5}} = 0.03125$ を{}。"
    assert statuses(line.format("超えています")) == ["confirmed"]
    assert statuses(line.format("超えていません")) == ["mismatched"]
    assert statuses(line.format("下回ります")) == ["mismatched"]


def test_a_bound_and_the_value_in_brackets():
    assert statuses("差は 0.01 未満（約 0.007）です。") == ["confirmed"]
    assert statuses("差は 0.005 未満（約 0.007）です。") == ["mismatched"]


def test_numbers_stand_for_their_rounding():
    # 0.30 stands for 0.295 to 0.305: it may be larger than 0.3049, though not at face value
    assert statuses("こちらは 0.30 で、もう一方の 0.3049 より大きくなります。") == ["confirmed"]
    assert statuses("こちらは 0.30 で、もう一方の 0.3051 より大きくなります。") == ["mismatched"]


def test_words_that_compare_something_else_are_left_alone():
    # a noun phrase, an action, a condition
    assert statuses("形式について、1 より大きい最小の数を考えます。") == []
    assert statuses("容量係数 1.25 を 1 より大きく取ると捨てる数が減ります。") == []
    assert statuses("値が 0.5 のとき、$x$ が 3 を超えると小さくなります。") == []
    # a case, a condition, a label: no value the words compare
    assert statuses("$s = 0.2048$ では $10^{-23}$ より小さく、起こりません。") == []
    assert statuses("倍率 $4s(2t)/s(t)$ は $t > 0$ で 4 より大きくなります。") == []
    assert statuses("平均は $(2 + 4)/2 = 3$ で、2 の評価のとおり 2.5 より大きくなります。") == [
        "confirmed"
    ]
    # an item spoken of (「3 については」) is no value
    assert statuses("3 については、成分は正で、どれも 1 より小さくなります。") == []
    assert statuses("値は 3 で、どれも 1 より小さくなります。") == ["mismatched"]
    # a formula between the two, which the words may be of
    assert statuses("長さは 5 で、比 $\\rho$ は 1 より大きくなります。") == []
