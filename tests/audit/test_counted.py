"""Counts a chapter announces of its own items, on small chapters: each form confirmed
when the count holds, mismatched at the announcing line when it does not, and left alone
where the text lists nothing."""

from __future__ import annotations

from proofs.audit.rules.counted import audit_counted
from proofs.reader import parse

HEAD = '# T\n\n## 1. S\n\n<Proposition id="prop-x" title="t">\n\nある命題。\n\n</Proposition>\n\n'


def verdicts(body: str) -> list[tuple[int, str, str]]:
    """(line, status, detail) of each announced count in a chapter ending with `body`."""
    document = parse(HEAD + body, "counted.mdx")
    offset = HEAD.count("\n")
    return [(f.line - offset, str(f.status), f.detail) for f in audit_counted(document)]


def test_a_list_of_as_many_items_as_announced_confirms():
    body = "次の 3 つの問いに答えます。\n\n1. 一つ。\n2. 二つ。\n3. 三つ。\n"
    assert verdicts(body) == [(1, "confirmed", "the text announces 3; the list after it has 3")]


def test_a_list_of_another_length_is_a_mismatch_at_the_announcing_line():
    body = "事実を 4 つ確認しておきます。\n\n- 一つ。\n- 二つ。\n- 三つ。\n"
    assert verdicts(body) == [(1, "mismatched", "the text announces 4; the list after it has 3")]


def test_continuation_lines_and_nested_items_are_not_items():
    body = "次の 2 つです：\n\n1. 一つ、\n   続き。\n   - 入れ子。\n2. 二つ。\n"
    assert verdicts(body) == []  # 「2 つです」 sums up, it announces nothing
    body = body.replace("2 つです：", "2 つを挙げます：")
    assert verdicts(body) == [(1, "confirmed", "the text announces 2; the list after it has 2")]


def test_a_loose_list_counts_its_items_apart():
    body = (
        "次の 3 つです。\n\n".replace("3 つです", "3 つを述べます")
        + "1. 一。\n\n2. 二。\n\n3. 三。\n"
    )
    assert verdicts(body) == [(1, "confirmed", "the text announces 3; the list after it has 3")]


def test_a_numbered_list_goes_on_after_the_display_of_an_item():
    # 定理の「次の 3 つ」: item 2 displays its limit, its sentence ends, then item 3
    body = (
        "さらに次の 3 つが成り立つ。\n\n1. 一つ。\n2. 二つならば\n$$\nB = 1\n$$\n"
        "で、等号は一つ。\n3. 三つ。\n"
    )
    assert verdicts(body) == [(1, "confirmed", "the text announces 3; the list after it has 3")]
    # a list that does not go on with the next number ends at the display
    ended = body.replace("3. 三つ。", "5. 五つ。")
    assert verdicts(ended) == [(1, "mismatched", "the text announces 3; the list after it has 2")]
    # nor does a bulleted one, which has no number to go on with
    bulleted = body.replace("1. ", "- ").replace("2. ", "- ").replace("3. ", "- ")
    assert verdicts(bulleted) == [
        (1, "mismatched", "the text announces 3; the list after it has 2")
    ]


def test_ordinals_count_the_items_of_their_paragraph():
    body = "読み取れることを 2 つ挙げます。1 つ目に、A。2 つ目に、B。\n"
    assert verdicts(body) == [
        (1, "confirmed", "the text announces 2; the ordinals 「k つ目」 after it count 2")
    ]
    assert verdicts(body.replace("2 つ挙げ", "3 つ挙げ"))[0][1] == "mismatched"


def test_no_list_no_finding():
    assert verdicts("この 2 つで層を作りました。ほかに何もありません。\n\n- 一つ。\n") == []
    assert verdicts("2 つの部品があります。\n続く文。\n\n- 一つ。\n") == []  # the paragraph goes on
    assert verdicts("- 2 つの部品を重ねる。\n- もう一つ。\n") == []  # an item announces nothing
    assert verdicts("1 つを選びます。\n\n- 一つ。\n") == []  # one is no list
    only = "小さな行列 2 つだけを学習する方法を確かめます。\n\n- 一つ。\n- 二つ。\n- 三つ。\n"
    assert verdicts(only) == []  # 「2 つだけ」 quantifies a noun, it announces no list
    assert verdicts(only.replace("2 つだけを", "2 つを"))[0][1] == "mismatched"


def test_code_and_headings_end_a_list():
    body = "次の 2 つを確かめます。\n\n```python\nprint(1)\n```\n\n- 一つ。\n- 二つ。\n"
    assert verdicts(body) == []
    body = "次の 2 つを確かめます。\n\n## 2. 次の節\n\n- 一つ。\n- 二つ。\n"
    assert verdicts(body) == []


def test_next_announces_the_list_wherever_its_sentence_stands():
    body = (
        "モデルの次の {} か所に施す。マスクは独立である。\n\n1. 埋め込み。\n2. 重み。\n3. 出力。\n"
    )
    assert [v for _, v, _ in verdicts(body.format(3))] == ["confirmed"]
    assert [v for _, v, _ in verdicts(body.format(2))] == ["mismatched"]
    # without 次の, a count in an earlier sentence is not the list's
    assert verdicts("3 か所に施す。マスクは独立である。\n\n1. 埋め込み。\n2. 重み。\n") == []


def test_a_count_summed_up_then_its_items_each_ending_in_koto():
    body = "確かめたことは {} つです。和が 1 であること、積が正であること。差が小さいことです。\n"
    assert verdicts(body.format(3)) == [
        (1, "confirmed", "the text announces 3; the clauses ending in 「こと」 after it are 3")
    ]
    assert verdicts(body.format(2)) == [
        (1, "mismatched", "the text announces 2; the clauses ending in 「こと」 after it are 3")
    ]


def test_another_authors_wording_of_an_announced_count():
    # 「以下の 3 通り」 as 「次の 3 つ」, 「3 つである。」 as 「3 つです。」
    listed = "逆温度として、以下の {} 通りを考える。\n\n1. 固定。\n2. 対数。\n3. 保存。\n"
    assert [v for _, v, _ in verdicts(listed.format(3))] == ["confirmed"]
    assert [v for _, v, _ in verdicts(listed.format(2))] == ["mismatched"]
    summed = "確かめたことは {} つである。和が 1 であること、積が正であること。\n"
    assert [v for _, v, _ in verdicts(summed.format(2))] == ["confirmed"]
    assert [v for _, v, _ in verdicts(summed.format(3))] == ["mismatched"]
    assert verdicts("この値は 3 つ以下の項で決まる。\n\n1. 和。\n") == []


def test_a_count_summed_up_with_its_items_said_otherwise_is_left_alone():
    assert verdicts("確かめたことは 3 つです。和と積と差です。\n") == []
    assert verdicts("違いは 2 つです。1 つは和であること。\n") == []


def test_quoted_items_right_before_their_count():
    body = "「和は 1 か」「積は正か」という {} つの問いに答えます。\n"
    assert verdicts(body.format(2)) == [
        (1, "confirmed", "the text announces 2; the quotes before it are 2")
    ]
    assert verdicts(body.format(3))[0][1] == "mismatched"
    joined = "「重みの勾配」と「入力の勾配」の {} つの積が要ります。\n"
    assert verdicts(joined.format(2))[0][1] == "confirmed"
    # one quote, or words between the quotes and the count: left alone
    assert verdicts("「和は 1 か」という 2 つ目の問いです。\n") == []
    assert verdicts("「和」「積」を使い、3 つの式を得ます。\n") == []


def test_a_display_of_definitions_after_the_announcing_line_is_counted():
    body = "選び方として次の {} つを考える。\n\n$$\na := 1, \\qquad b := 2, \\qquad c := 3\n$$\n"
    assert verdicts(body.format(3)) == [
        (1, "confirmed", "the text announces 3; the display after it defines 3")
    ]
    assert verdicts(body.format(4))[0][1] == "mismatched"
    # a display that defines one name, or none, says nothing of the count
    assert verdicts("次の 3 つを考える。\n\n$$\na := 1 + 2 + 3\n$$\n") == []


def test_a_count_with_its_items_in_brackets_counts_those():
    body = "それを防ぐ 3 つの工夫（{}）を確かめます。\n\n- 一つ。\n- 二つ。\n- 三つ。\n- 四つ。\n"
    assert verdicts(body.format("損失スケーリング、補償和、マスター重み")) == [
        (1, "confirmed", "the text announces 3; the brackets after it list 3")
    ]
    assert verdicts(body.format("損失スケーリング、補償和"))[0][1] == "mismatched"


def test_brackets_holding_a_sentence_are_a_remark_not_the_items():
    body = "GPT-2 の 4 つの構成（{}）で計算します。\n"
    assert verdicts(body.format("[4] 表 2。$V = 50{,}257$、$L = 1{,}024$")) == []
    assert verdicts(body.format("小、中、大"))[0][1] == "mismatched"
    # brackets after the sentence's verb remark on the sentence, not on the four
    after = "4 つの損失を比べます（数値は第 6 位、$\\Delta$ は第 4 位に丸めています）。\n"
    assert verdicts(after) == []


def test_what_the_chapter_covers_is_no_count_of_the_summary_after_it():
    body = "この記事では、代表的な 3 つの方式を確かめます。\n\n- 一。\n- 二。\n- 三。\n- 四。\n"
    assert verdicts(body) == []
    # 「次の」 announces the list after it wherever its sentence stands
    assert verdicts(body.replace("代表的な", "次の"))[0][1] == "mismatched"
