# ruff: noqa: E501 - the chapters are lines of Markdown and Japanese, kept whole so that they read as written
"""Tables checked from themselves (proofs.audit.rules.table_rows and table_content), on
small MDX chapters written for the tests: each table as written is quiet, one slipped
cell is reported at its row with the severity its evidence earns, and a rewrite that
keeps the numbers is quiet too."""

from __future__ import annotations

import pytest

from proofs.audit import audit_document
from proofs.reader import parse

HEAD = (
    '# 試しの章\n\n<Definition id="def-x" title="x">\n\nある定義。\n\n</Definition>\n\n## 2. 表\n\n'
)


def found(text: str) -> list[tuple[int, str, str, str]]:
    """(line, section, severity, code) of each mismatch of the chapter's audit."""
    report = audit_document(parse(HEAD + text, "t.mdx"), with_checks=False)
    return sorted((f.line, str(f.section), str(f.severity), f.code) for f in report.mismatched)


TOTALS = """\
| 部分 | 個数 | 割合 |
|---|---|---|
| 埋め込み | 40 | 0.40 |
| ブロック | 52 | 0.52 |
| 最後 | 8 | 0.08 |
| 計 | {total} | {share} |
"""


def test_a_totals_row_is_its_rows_sum():
    assert found(TOTALS.format(total="100", share="1.00")) == []
    assert found(TOTALS.format(total="101", share="1.00")) == [(16, "table", "error", "TAB201")]
    # a ratio column's total need be no sum: alone, a warning
    assert found(TOTALS.format(total="100", share="0.80")) == [(16, "table", "warning", "TAB202")]


def test_a_totals_row_may_leave_out_a_row_the_next_ones_repeat():
    table = """\
| 部分 | 個数 |
|---|---|
| 埋め込み | 10 |
| ブロック 1 つ | 7 |
| 12 ブロック | 84 |
| 合計 | 94 |
"""
    assert found(table) == []
    assert found(table.replace("| 94 |", "| 95 |")) == [(16, "table", "warning", "TAB202")]


RATIOS = """\
| $n$ | 左 | 右 | 比 |
|---|---|---|---|
| 1 | 10 | 20 | 0.50 |
| 2 | 30 | 40 | 0.75 |
| 3 | 50 | 40 | 1.25 |
| 4 | 70 | 80 | 0.88 |
| 5 | 90 | 60 | {last} |
"""


def test_a_column_every_other_row_computes_the_same_way_has_a_slip_in_one_row():
    assert found(RATIOS.format(last="1.50")) == []
    assert found(RATIOS.format(last="1.05")) == [(17, "table", "warning", "TAB203")]


def test_a_relation_seen_in_too_few_rows_judges_nothing():
    four = "\n".join(RATIOS.format(last="1.50").splitlines()[:6]) + "\n"
    unnamed = four.replace("| 比 |", "| 値 |")
    assert found(unnamed.replace("0.88", "0.77")) == []  # three rows hold it: not enough


def test_a_header_that_says_ratio_needs_three_rows_that_hold_it():
    four = "\n".join(RATIOS.format(last="1.50").splitlines()[:6]) + "\n"
    assert found(four) == []
    assert found(four.replace("0.88", "0.77")) == [(16, "table", "warning", "TAB203")]
    three = "\n".join(RATIOS.format(last="1.50").splitlines()[:5]) + "\n"
    assert found(three.replace("1.25", "1.35")) == []  # two rows hold it: not enough


ROUNDED_MULTIPLE = """| $r$ | 個数 | 全体との比 |
|---|---|---|
| 1 | 1,536 | 0.260 % |
| 2 | 3,072 | {second} |
| 4 | 6,144 | 1.042 % |
| 8 | 12,288 | 2.083 % |
| 16 | 24,576 | 4.167 % |
"""


def test_a_rounded_column_a_fixed_multiple_of_an_exact_one():
    # 1,536 r / 589,824 printed to three decimals in per cent: 0.521 % in row 2
    assert found(ROUNDED_MULTIPLE.format(second="0.521 %")) == []
    assert found(ROUNDED_MULTIPLE.format(second="0.520 %")) == [(14, "table", "warning", "TAB203")]
    # the rounded cell is named, as the multiple of the exact one, not the other way
    chapter = parse(HEAD + ROUNDED_MULTIPLE.format(second="0.520 %"), "t.mdx")
    (finding,) = audit_document(chapter, with_checks=False).mismatched
    assert finding.text == "全体との比: 0.520 % (row 2)"


def test_a_column_some_relation_gives_in_every_row_is_no_slip_of_another():
    # the last column is the fifth over 4,718,592 in every row; it is also nearly the
    # third's multiple, failing in one row: no slip
    table = """| 構成 | 全体 | 使う数 | 比 | 乗算 | 密との比 |
|---|---|---|---|---|---|
| 密 | 4,722,432 | 4,722,432 | 1.00 | 4,718,592 | 1.0000 |
| E = 8、k = 1 | 37,785,600 | 4,728,576 | 7.99 | 4,725,504 | 1.0015 |
| E = 8、k = 2 | 37,785,600 | 9,451,008 | 4.00 | 9,444,864 | 2.0016 |
| E = 16、k = 2 | 75,571,200 | 9,457,152 | 7.99 | 9,451,008 | 2.0029 |
| E = 64、k = 2 | 302,284,800 | 9,494,016 | 31.84 | 9,487,872 | 2.0107 |
"""
    assert found(table) == []


def test_a_header_formula_is_computed_with_a_chain_of_settings():
    table = """\
一つの頭で $m = d_v = d = 4$ とします。

| $n$ | 左辺 $2n^2d$ | 比 $n/d$ |
|---|---|---|
| 4 | 128 | 1 |
| 8 | {cell} | 2 |
"""
    assert found(table.format(cell="512")) == []
    assert found(table.format(cell="521")) == [(16, "table", "error", "TAB101")]


def test_the_element_title_sets_what_its_table_uses():
    table = """\
<Example id="ex-t" title="d = 8、h = 2 の場合">

| $n$ | 数 $2nd$ | 頭あたり $2nd/h$ |
|---|---|---|
| 1 | 16 | 8 |
| 3 | 48 | {cell} |

</Example>
"""
    assert found(table.format(cell="24")) == []
    assert found(table.format(cell="42")) == [(16, "table", "error", "TAB101")]


def test_a_title_in_plain_text_sets_its_greek_names():
    # 「β₁ = 0.9、β₂ = 0.999 での値」: a title is plain text, β₂ in it is \\beta_2; the row
    # t = 10000 raises 0.999 to the 10000th under a square root, which is evaluated, not
    # factored
    table = """\
<Example id="ex-b" title="β₁ = 0.9、β₂ = 0.999 での値">

| $t$ | $1-\\beta_1^t$ | $\\sqrt{{1-\\beta_2^t}}$ |
|---|---|---|
| 1 | 0.100000 | 0.031623 |
| 10000 | 1.000000 | {cell} |

</Example>
"""
    assert found(table.format(cell="0.999977")) == []
    assert found(table.format(cell="0.999777")) == [(16, "table", "error", "TAB101")]


def test_a_percentage_and_a_power_of_ten_are_read_as_numbers():
    table = """\
$d = 4$ とします。

| $x$ | 割合 $x/d$ | 小さな値 $10^{{-x}}$ |
|---|---|---|
| 1 | 25.0 % | $1.0 \\times 10^{{-1}}$ |
| 2 | {share} | $1.0 \\times 10^{{-2}}$ |
"""
    assert found(table.format(share="50.0 %")) == []
    assert found(table.format(share="5.0 %")) == [(16, "table", "error", "TAB101")]


def test_a_row_the_printed_output_prints_too_must_agree_with_it():
    text = """\
| $n$ | 積 | 和 | 差 |
|---|---|---|---|
| 2 | 40 | 22 | 18 |
| 3 | 60 | {cell} | 17 |

```python
for n in (2, 3):
    print(n, 20 * n, 20 + n, 20 - n)
```

```text
2 40 22 18
3 60 23 17
```
"""
    assert found(text.format(cell="23")) == []
    # one of the two is wrong: a warning at the table's row and one at the output line
    assert found(text.format(cell="32")) == [
        (14, "table", "warning", "TAB204"),
        (23, "output", "warning", "TAB204"),
    ]


def test_a_header_formula_is_computed_at_the_rows_key_exactly():
    # 0.99^1000 = 4.317e-5; taken as 0.985..0.995, the key would admit 10^-4 as well
    table = """\
| $\\lambda$ | $\\lambda^{{1000}}$ |
|---|---|
| 0.9 | $1.75 \\times 10^{{-46}}$ |
| 0.99 | $4.32 \\times 10^{{{}}}$ |
"""
    assert found(table.format("-5")) == []
    assert found(table.format("-4")) == [(14, "table", "error", "TAB101")]


def test_a_header_names_its_formula_and_sets_what_its_column_uses():
    # λ_i = 2π/θ_i names the column λ_i and its formula; 「$m = 100$ での」 sets m for
    # its column only
    table = """\
| $i$ | $\\theta_i$ | $\\lambda_i = 2\\pi/\\theta_i$ | $m = 100$ での回転数 $m\\,\\theta_i/2\\pi$ |
|---|---|---|---|
| 1 | 1 | 6.283 | 15.92 |
| 2 | 0.1 | {wave} | 1.592 |
| 3 | 0.01 | 628.3 | {turns} |
"""
    assert found(table.format(wave="62.83", turns="0.1592")) == []
    # θ_i = 0.1 is any of 0.05 to 0.15 as printed: 2π/θ_i from 41.9 to 125.7
    assert found(table.format(wave="6.283", turns="0.1592")) == [(14, "table", "error", "TAB101")]
    assert found(table.format(wave="62.83", turns="0.01592")) == [(15, "table", "error", "TAB101")]


def test_a_row_whose_key_is_words_takes_no_setting_of_its_paragraph():
    # 「連続確保」 in the column of s: s - 1 is not that of the paragraph's s = 16 there,
    # and the rows after it are judged still
    table = """\
ブロックの大きさ $s = 16$ を基準にします。

| $s$ | 最大の無駄 $s - 1$ |
|---|---|
| 連続確保 | 4,095 |
| 8 | 7 |
| 16 | {} |
"""
    assert found(table.format("15")) == []
    assert found(table.format("16")) == [(17, "table", "error", "TAB101")]


DEFINED = """\
<Definition id="def-bias" title="バイアス">

$b := 2^{{e-1}} - 1$、$s(x) := \\frac{{1}}{{1 + e^{{-x}}}}$ と置く。

</Definition>

{table}"""


def test_a_column_the_chapter_defines_is_its_definition_in_each_row():
    table = "| 形式 | $e$ | $b$ |\n|---|---|---|\n| A | 5 | 15 |\n| B | 8 | {} |\n"
    assert found(DEFINED.format(table=table.format("127"))) == []
    assert found(DEFINED.format(table=table.format("128"))) == [(20, "table", "error", "TAB103")]


def test_a_header_applying_a_defined_function_is_computed_at_the_rows_key():
    table = "| $x$ | $s(x)$ |\n|---|---|\n| $-1$ | 0.2689 |\n| $0$ | 0.5000 |\n| $1$ | {} |\n"
    assert found(DEFINED.format(table=table.format("0.7311"))) == []
    assert found(DEFINED.format(table=table.format("0.7113"))) == [(21, "table", "error", "TAB103")]


def test_a_definition_the_rows_do_not_reach_is_not_judged_there():
    # b is a number of e: a table of other sizes, with b set before it, says nothing of it
    table = "$e = 4$ とします。\n\n| $m$ | $b$ |\n|---|---|\n| 2 | 9 |\n| 3 | 9 |\n"
    assert found(DEFINED.format(table=table)) == []


def test_a_table_that_runs_across_is_read_down_its_columns():
    table = """\
| $i$ | 1 | 2 | 3 |
|---|---|---|---|
| $\\lambda_i$ | 1 | 2 | 4 |
| $\\lambda_i^2$ | 1 | 4 | {} |
"""
    assert found(table.format("16")) == []
    assert found(table.format("15")) == [(14, "table", "error", "TAB101")]


def test_an_integer_among_decimals_is_rounded_to_its_last_digit():
    # 2π · 365.15 = 2294.3 printed 2294 beside 628.3: four digits, not an exact integer
    table = """\
| $i$ | $\\theta_i$ | $\\lambda_i = 2\\pi/\\theta_i$ |
|---|---|---|
| 1 | 0.01 | 628.3 |
| 2 | 0.0027386 | {} |
"""
    assert found(table.format("2294")) == []
    assert found(table.format("2296")) == [(14, "table", "error", "TAB101")]


def test_a_row_that_gives_none_of_the_definitions_inputs_is_not_judged():
    # 「$x = 5$」 before the table is no value of the row 「極限」
    table = "$x = 5$ とします。\n\n| $x$ | $s(x)$ |\n|---|---|\n| 0 | 0.5000 |\n| 極限 | 1 |\n"
    assert found(DEFINED.format(table=table)) == []


def test_a_key_with_a_mathrm_subscript_is_a_symbol():
    table = "| $n_{{\\mathrm{{in}}}}$ | $2n_{{\\mathrm{{in}}}}$ |\n|---|---|\n| 512 | {} |\n"
    assert found(table.format("1024")) == []
    assert found(table.format("1042")) == [(13, "table", "error", "TAB101")]


def test_a_key_after_the_rows_words_was_computed_and_is_rounded():
    # s = 1.778 beside the row's name stands for 1.7775 to 1.7785: s^2 may be 3.160
    table = "| 行列 | $s$ | $s^2$ |\n|---|---|---|\n| A | 1.778 | {} |\n"
    assert found(table.format("3.160")) == []
    assert found(table.format("3.170")) == [(13, "table", "error", "TAB101")]


def test_a_definition_of_a_name_two_columns_share_is_not_judged():
    table = """\
<Definition id="def-a" title="a">

$a := n\\sigma^2$ と置く。

</Definition>

| $n$ | Xavier の $\\sigma$ | He の $\\sigma$ | $a$ |
|---|---|---|---|
| 512 | 0.05893 | 0.0625 | 1.778 |
"""
    assert found(table) == []


WORKED = """\
<Definition id="def-phi" title="損失の増え方">

$\\phi(k) := \\frac{{L(kN, D/k) - L_0}}{{R}} = \\frac{{\\beta\\,(k^{{-\\alpha}} - 1) + \\alpha\\,(k^{{\\beta}} - 1)}}{{\\alpha + \\beta}}$ と置く。

</Definition>

$\\alpha = 0.34$、$\\beta = 0.28$ での値です。

| $k$ | $\\log k$ | $\\phi(k)$ |
|---|---|---|
| 1/2 | −0.6931 | {} |
| 2 | 0.6931 | 0.0226 |
"""


def test_a_definition_is_computed_from_the_form_it_is_worked_out_to():
    # φ's first form names L, N, D, L_0 and R, which nothing sets; its last form needs only
    # α and β: φ(1/2) = 0.0233, and the key 1/2 is a fraction, exact
    assert found(WORKED.format("0.0233")) == []
    assert found(WORKED.format("0.0223")) == [(21, "table", "error", "TAB103")]
    # log(1/2) is read from the fraction too
    assert found(WORKED.format("0.0233").replace("−0.6931", "−0.6391")) == [
        (21, "table", "error", "TAB101")
    ]


ACTIVATIONS = """\
<Definition id="def-gelu" title="GELU">

$\\mathrm{{GELU}}(x) := x\\,\\Phi(x) = \\frac{{x}}{{2}}\\Big(1 + \\mathrm{{erf}}\\Big(\\frac{{x}}{{\\sqrt2}}\\Big)\\Big)$、$\\mathrm{{GELU}}_{{\\tanh}}(x) := \\frac{{x}}{{2}}\\Big(1 + \\tanh\\Big(\\sqrt{{\\frac{{2}}{{\\pi}}}}\\,\\big(x + 0.044715\\,x^3\\big)\\Big)\\Big)$ と置く。

</Definition>

| $x$ | $\\mathrm{{GELU}}(x)$ | $\\mathrm{{GELU}}_{{\\tanh}}(x)$ |
|---|---|---|
| 1 | 0.8413 | 0.8412 |
| 2 | {} | {} |
"""


def test_a_function_named_with_a_subscript_and_the_error_function():
    # GELU_{\tanh} is a function of its own, not GELU indexed by tanh; GELU is worked out
    # through erf, since Φ is defined nowhere here
    assert found(ACTIVATIONS.format("1.9545", "1.9546")) == []
    assert found(ACTIVATIONS.format("1.9545", "1.9545")) == [(20, "table", "error", "TAB103")]
    assert found(ACTIVATIONS.format("1.9546", "1.9546")) == [(20, "table", "error", "TAB103")]


def test_a_header_of_two_letters_is_their_product():
    # $ab$ is a times b, the columns before it; not one symbol ab that nothing sets
    table = """\
| 行列 | $n$ | 前向き $a$ | 逆向き $b$ | $ab$ |
|---|---|---|---|---|
| A | 512 | 1.778 | 0.2222 | {} |
"""
    assert found(table.format("0.3951")) == []
    assert found(table.format("0.3915")) == [(13, "table", "error", "TAB101")]


def test_a_header_that_says_total_needs_three_rows_that_hold_the_sum():
    table = """\
| $n$ | 注意 | 残差 | 1 層の合計 |
|---|---|---|---|
| 128 | 196,608 | 196,608 | 393,216 |
| 256 | 786,432 | 393,216 | {} |
| 512 | 3,145,728 | 786,432 | 3,932,160 |
| 1024 | 12,582,912 | 1,572,864 | 14,155,776 |
"""
    assert found(table.format("1,179,648")) == []
    assert found(table.format("1,179,684")) == [(14, "table", "warning", "TAB203")]
    # without the word, four rows are too few to tell a relation from a coincidence
    assert found(table.format("1,179,684").replace("1 層の合計", "1 層")) == []


DISTANCES = """\
| $t$ | 減衰あり $\\theta_t$ | 減衰なし $\\theta_t$ | 距離 |
|---|---|---|---|
| 0 | 1.0000 | 1.0000 | 1.2000 |
| 1 | 0.9988 | 0.9998 | 1.1988 |
| 10 | 0.9881 | 0.9980 | 1.1881 |
| 100 | {} | 0.9800 | 1.0858 |
| 1000 | 0.2412 | 0.8000 | 0.4412 |
"""


def test_a_column_every_other_row_moves_by_a_fixed_number():
    # the distance is θ_t + 0.2 in every row; 0.8588 in one row is a slip there
    assert found(DISTANCES.format("0.8858")) == []
    assert found(DISTANCES.format("0.8588")) == [(16, "table", "warning", "TAB203")]


def test_small_integers_moved_by_a_fixed_number_are_no_relation():
    # counts of 1 to 8: the third column is the second less 1 in all rows but the first,
    # by coincidence
    table = """\
| $T$ | $\\tau = 0.5$ | $\\tau = 0.8$ | $\\tau = 0.95$ |
|---|---|---|---|
| 0.25 | 1 | 1 | 1 |
| 0.5 | 1 | 2 | 3 |
| 1 | 1 | 4 | 5 |
| 2 | 2 | 6 | 7 |
| 4 | 3 | 7 | 8 |
"""
    assert found(table) == []


def test_a_column_every_other_row_gives_as_a_fixed_number_over_another():
    # the mean count is 768 over the factor 1/(1 - p) in every row
    table = """\
| $p$ | 倍率 | 平均 |
|---|---|---|
| 0.05 | 1.0526 | 729.6 |
| 0.1 | 1.1111 | {} |
| 0.2 | 1.2500 | 614.4 |
| 0.3 | 1.4286 | 537.6 |
| 0.5 | 2.0000 | 384.0 |
"""
    assert found(table.format("691.2")) == []
    assert found(table.format("619.2")) == [(14, "table", "warning", "TAB203")]


def test_a_name_applied_to_a_group_is_a_product_when_the_table_gives_the_name():
    # k(T - C) with k set in the title: k times (T - C), not a function k of T - C
    table = """\
<Example id="ex-cap" title="T = 20、k = 2 の場合">

| $C$ | 上界 $k(T - C)$ |
|---|---|
| 8 | 24 |
| 10 | {} |

</Example>
"""
    assert found(table.format("20")) == []
    assert found(table.format("10")) == [(16, "table", "error", "TAB101")]


STATED = """\
$d_k = 128$、$b = 10{{,}}000$ では $\\theta_i = 10^{{-(i-1)/16}}$ です。

| $i$ | 1 | 17 | 42 |
|---|---|---|---|
| $\\theta_i$ | 1 | 0.1 | {} |
"""


def test_a_row_a_formula_before_the_table_states_is_computed_from_it():
    assert found(STATED.format("0.002738")) == []
    ((line, section, severity, code),) = found(STATED.format("0.002783"))
    assert (line, section, severity, code) == (15, "table", "error", "TAB101")
    chapter = parse(HEAD + STATED.format("0.002783"), "t.mdx")
    (finding,) = audit_document(chapter, with_checks=False).mismatched
    assert "the formula stated before the table, \\theta_i = 10^{-(i-1)/16}" in finding.detail


def test_a_formula_stated_above_the_paragraph_before_the_table_sets_no_column():
    # a proof's case (「… なら D = k(T - C)」) two paragraphs up is no formula of the table's D
    table = """\
負荷が偏るなら $D = k(T - C)$ です。

容量を変えます。$k = 2$、$T = 20$ とします。

| $C$ | $D$ |
|---|---|
| 8 | 11 |
| 10 | 6 |
"""
    assert found(table) == []
    moved = table.replace("です。\n\n容量", "です。容量")
    assert found(moved) == [(15, "table", "error", "TAB101"), (16, "table", "error", "TAB101")]


def test_a_header_formula_of_another_columns_header_reads_that_column():
    # e^{ℓ(z*, y)} is e to the column ℓ(z*, y) of the same row
    table = """\
| $\\varepsilon$ | $\\ell(\\boldsymbol{{z}}^{{*}}, y)$ | $e^{{\\ell(\\boldsymbol{{z}}^{{*}}, y)}}$ |
|---|---|---|
| 0.01 | 0.0101 | 1.0101 |
| 0.05 | {} | 1.0526 |
"""
    assert found(table.format("0.0513")) == []
    assert found(table.format("0.0500")) == [(14, "table", "error", "TAB101")]


def test_a_header_formula_holding_another_columns_formula_reads_that_column_too():
    # ne^{-s^2} holds e^{-s^2}: with s printed 2 among decimals (1.5 to 2.5) the cell
    # could be 4 to 216; with e^{-s^2} printed 0.01832 it is 37.508 to 37.530
    table = """\
$n = 2{{,}}048$ とします。

| 初期化 | $s$ | $e^{{-s^2}}$ | $ne^{{-s^2}}$ |
|---|---|---|---|
| 小 | 0.5 | 0.7788 | 1595 |
| 大 | 2 | 0.01832 | {} |
"""
    assert found(table.format("37.51")) == []
    assert found(table.format("41.3")) == [(16, "table", "error", "TAB101")]
    # the column it holds slipped (within what s, 1.5 to 2.5, allows): the row's cells
    # no longer agree with each other
    assert found(table.format("37.51").replace("0.01832", "0.01382")) == [
        (16, "table", "error", "TAB101")
    ]


def test_an_integer_among_decimals_of_more_figures_is_rounded_to_that_many():
    # c printed 1 beside 27.71 and 0.0361 (three figures at least) is 0.995 to 1.005, not
    # 0.5 to 1.5: 768c^2 is 760.4 to 775.7, and 500 is no value of it
    table = """\
| 設定 | $c$ | $768c^2$ |
|---|---|---|
| 大 | 27.71 | 589,700 |
| 中 | 0.0361 | 1.001 |
| なし | 1 | {} |
"""
    assert found(table.format("768")) == []
    assert found(table.format("500")) == [(15, "table", "error", "TAB101")]


def test_a_name_a_rows_label_sets_is_exact_in_that_row():
    # 「$\\sigma = 0.02$」 in the label: σ is 0.02, not 0.015 to 0.025 as its cell prints it
    table = """\
| 設定 | $\\sigma$ | $768\\sigma^2$ |
|---|---|---|
| 大 | 0.0361 | 1.001 |
| 倍率なし、$\\sigma = 0.02$ | 0.02 | {} |
"""
    assert found(table.format("0.3072")) == []
    assert found(table.format("0.3027")) == [(14, "table", "error", "TAB101")]


def test_a_header_applying_another_columns_function_at_a_key_reads_that_row():
    # B(r)/B(0): the row B(r) over its cell at r = 0
    table = """\
| $r$ | 0 | 1 | 4 |
|---|---|---|---|
| $B(r)$ | 32.500 | 31.538 | 22.604 |
| $B(r)/B(0)$ | 1.000 | 0.970 | {} |
"""
    assert found(table.format("0.696")) == []
    assert found(table.format("0.669")) == [(14, "table", "error", "TAB101")]


def test_an_application_in_another_column_is_read_in_that_column_s_unit():
    # 「$\eta(t)$（$\times 10^{-4}$）」 prints η(t) in units of 10^{-4}: η(t)/α is its cell
    # times 10^{-4} over α, not its cell over α
    table = """\
$\\alpha = 6 \\times 10^{{-4}}$ とします。

| $t$ | $\\eta(t)$（$\\times 10^{{-4}}$） | $\\eta(t)/\\alpha$ |
|---|---|---|
| 1 | 0.0030 | 0.0005 |
| 27,000 | 5.2092 | {} |
"""
    assert found(table.format("0.8682")) == []
    assert found(table.format("0.8628")) == [(16, "table", "error", "TAB101")]


def test_a_header_holding_another_column_s_norm_reads_that_column():
    # ⟨A, Δ⟩/‖Δ‖_F: two columns no formula of the chapter computes, divided
    table = """\
| $\\Delta$ | $\\Vert\\Delta\\Vert_F$ | $\\langle A, \\Delta\\rangle$ | $\\langle A, \\Delta\\rangle/\\Vert\\Delta\\Vert_F$ |
|---|---|---|---|
| $\\mathrm{{sign}}(A)$ | 1.7321 | 12 | 6.9282 |
| $A/\\Vert A\\Vert_F$ | 1 | 7.0711 | {} |
"""
    assert found(table.format("7.0711")) == []
    assert found(table.format("7.1711")) == [(14, "table", "error", "TAB101")]
    # one formula heading two columns that words tell apart: neither is the other's
    twice = """\
| $k$ | 3 次：$p^k(x)$ | 5 次：$p^k(x)$ | 比 $p^k(x)/2$ |
|---|---|---|---|
| 1 | 0.9961 | 0.9997 | 0.4999 |
"""
    assert found(twice) == []


def test_a_header_computed_on_its_own_is_not_read_through_another_column():
    # \sqrt{p/(1-p)} beside the column p/(1-p): computed from p, not from that column's
    # rounded cell, which would let 0.6546 for 0.654654 pass
    table = """\
| $p$ | $p/(1-p)$ | $\\sqrt{{p/(1-p)}}$ |
|---|---|---|
| 0.1 | 0.1111 | 0.3333 |
| 0.3 | 0.4286 | {} |
"""
    assert found(table.format("0.6547")) == []
    assert found(table.format("0.6546")) == [(14, "table", "error", "TAB101")]


def test_a_header_that_names_its_object_and_its_formula_is_that_formula():
    # 「$S$ の成分数 $n^2$」: S names the matrix, n^2 counts its entries
    table = "| $n$ | $S$ の成分数 $n^2$ |\n|---|---|\n| 1024 | 1,048,576 |\n| 65536 | {} |\n"
    assert found(table.format("4,294,967,296")) == []
    assert found(table.format("4,294,967,295")) == [(14, "table", "error", "TAB101")]


def test_a_formula_of_the_row_before_reads_the_row_whose_key_is_one_less():
    # 係数 e^{m_{t-1} - m_t}: m of the row t - 1; the first row has none, and is not judged
    table = """\
| $t$ | $z_t$ | $m_t$ | 係数 $e^{{m_{{t-1}} - m_t}}$ |
|---|---|---|---|
| 1 | 1 | 1 | 0 |
| 2 | 3 | 3 | 0.1353 |
| 3 | 2 | 3 | 1 |
| 4 | 5 | 5 | {} |
"""
    assert found(table.format("0.1353")) == []
    assert found(table.format("0.0498")) == [(16, "table", "error", "TAB101")]
    # m_t defined by the chapter: the header still reads the table's own cells
    defined = "$m_t := \\max(m_{{t-1}}, z_t)$ と置きます。\n\n" + table
    assert found(defined.format("0.1353")) == []
    assert found(defined.format("0.0498")) == [(18, "table", "error", "TAB101")]


GRID = """\
<Definition id="def-e" title="和">

$E_\\gamma(\\alpha) := \\sum_{{k=0}}^{{\\gamma}}\\alpha^k$ と置く。

</Definition>

極限 $1/(1 - \\alpha)$ に近づく $E_\\gamma(\\alpha)$ の値です。

| $\\alpha$ | $\\gamma = 1$ | $\\gamma = 2$ | $\\gamma = 3$ | 極限 |
|---|---|---|---|---|
| 0.5 | 1.5000 | 1.7500 | 1.8750 | 2.0000 |
| 0.8 | 1.8000 | 2.4400 | {} | 5.0000 |
"""


def test_a_grid_of_a_quantity_is_the_formula_before_it_that_gives_most_cells():
    # 1/(1 − α) comes first but gives none of the γ columns; E_γ(α) gives them all
    assert found(GRID.format("2.9520")) == []
    assert found(GRID.format("2.9250")) == [(22, "table", "error", "TAB104")]


def test_a_grid_no_formula_gives_most_cells_of_says_nothing():
    # with E named nowhere before the table, no formula reads it: the slip is not judged
    unnamed = GRID.replace("に近づく $E_\\gamma(\\alpha)$ の値", "に近づく値")
    assert found(unnamed.format("2.9250")) == []


COMPONENTS = """\
| $T$ | $q_1$ | $q_2$ | $q_3$ | $\\alpha$ |
|---|---|---|---|---|
| 0.5 | 0.8420 | 0.1140 | 0.0440 | 0.7674 |
| 1 | 0.6652 | 0.2447 | 0.0901 | 1.0000 |
| 2 | 0.5065 | 0.3072 | 0.1863 | 0.8249 |
| 4 | 0.4223 | 0.3289 | 0.2488 | 0.7309 |
| 8 | 0.3809 | {q2} | 0.2861 | 0.6901 |
"""


def test_the_components_of_a_vector_sum_on_every_row_to_what_the_others_do():
    assert found(COMPONENTS.format(q2="0.3330")) == []
    assert found(COMPONENTS.format(q2="0.3303")) == [(17, "table", "warning", "TAB205")]


def test_components_not_from_one_or_on_too_few_rows_are_not_summed():
    from_two = COMPONENTS.replace("$q_1$", "$q_4$")
    assert found(from_two.format(q2="0.3303")) == []
    few = "\n".join(COMPONENTS.splitlines()[:5] + COMPONENTS.splitlines()[6:]) + "\n"
    assert found(few.format(q2="0.3303")) == []


SCALED_BETWEEN = """\
| $n$ | 和 | 誤差 | 比 | 残り |
|---|---|---|---|---|
| 1024 | 513.63 | $2.52 \\times 10^{{-4}}$ | {ratio} | 0.317 |
| 4096 | 2054.56 | $2.70 \\times 10^{{-4}}$ | 0.875 | 0.319 |

```python
print("1024 513.63 2.52e-04 0.502 0.317")
print("4096 2054.56 2.70e-04 0.875 0.319")
```

```text
1024 513.63 2.52e-04 0.502 0.317
4096 2054.56 2.70e-04 0.875 0.319
```
"""


def test_a_cell_in_a_power_of_ten_keeps_its_place_beside_the_output_line():
    assert found(SCALED_BETWEEN.format(ratio="0.502")) == []
    assert found(SCALED_BETWEEN.format(ratio="0.520")) == [
        (13, "table", "warning", "TAB204"),
        (22, "output", "warning", "TAB204"),
    ]


def test_a_header_that_sets_a_name_to_a_power_is_a_setting_not_the_cells_formula():
    table = (
        "| $\\sigma$ | $S = 1$ | $S = 2^{8}$ | $S = 2^{16}$ |\n|---|---|---|---|\n"
        "| 0.1 | 0.02378 | 0.1902 | 0.7431 |\n| 0.01 | 0.2378 | 1.902 | 7.431 |\n"
    )
    assert found(table) == []


BYTES = """\
| 形式 | ビット数 | 12 層（バイト） | MiB | 48 層（バイト） | GiB |
|---|---|---|---|---|---|
| float32 | 32 | 497,759,232 | {mib} | 6,230,444,800 | 5.803 |
| bfloat16 | 16 | 248,879,616 | 237.4 | 3,115,222,400 | {gib} |
| int8 | 8 | 124,439,808 | 118.7 | 1,557,611,200 | 1.451 |
"""


def test_a_unit_column_is_the_bytes_before_it_over_the_unit():
    assert found(BYTES.format(mib="474.7", gib="2.901")) == []
    assert found(BYTES.format(mib="474.7", gib="2.910")) == [(14, "table", "error", "TAB206")]
    assert found(BYTES.format(mib="477.4", gib="2.901")) == [(13, "table", "error", "TAB206")]


def test_a_unit_column_is_judged_only_where_its_other_rows_confirm_its_bytes():
    # two rows of three off: not the amount of the bytes before it (another quantity)
    twice = BYTES.replace("| 237.4 |", "| 337.4 |")
    assert found(twice.format(mib="574.7", gib="2.901")) == []
    # beside a column that is not of bytes, or headed by more than the unit: left alone
    assert (
        found(BYTES.replace("48 層（バイト）", "48 層の個数").format(mib="474.7", gib="2.910"))
        == []
    )
    assert found(BYTES.replace("| GiB |", "| GiB（fp16） |").format(mib="474.7", gib="2.910")) == []
    # one row alone beside the slipped one confirms nothing
    short = "\n".join(BYTES.splitlines()[:4]) + "\n"
    assert found(short.format(mib="474.7", gib="2.910")) == []


def test_a_header_symbol_with_a_formula_in_brackets_is_that_symbol():
    # 「$H$（$\\log n$）」: H of the log n scaling, not the column log n
    table = "| $n$ | {} |\n|---|---|\n| 1024 | 2.3390 |\n| 4096 | 2.3292 |\n"
    assert found(table.format("$H$（$\\log n$）")) == []
    assert found(table.format("$\\log n$")) == [
        (13, "table", "error", "TAB101"),
        (14, "table", "error", "TAB101"),
    ]


def test_a_listing_printing_a_row_s_number_in_another_column_is_not_compared_there():
    from proofs.audit.rules.table_content import audit_reproduced_rows
    from proofs.reader.records import Table

    header = ("$\\tau$", "$H$", "$dH/d\\beta$", "$dH/d\\tau$")
    table = Table(1, (header, ("0.25", "0.0931", "-0.0760", "1.2162")), (1, 3))
    # the listing prints dH/dβ twice (two ways of computing it) and no dH/dτ
    assert audit_reproduced_rows(table, [(9, "0.25 0.0931 -0.0760 -0.0760")]) == []
    # a number the row holds nowhere else is compared
    (finding,) = audit_reproduced_rows(table, [(9, "0.25 0.0931 -0.0760 1.2126")])
    assert finding.code == "TAB102" and finding.detail.startswith(
        "the chapter's listing prints 1.2126"
    )


TEMPERED = """\
# 試しの章

<Definition id="def-tau" title="温度">

$s > 1$ に対し $\\tau(s) := (1 + s)^2$ と置く（$s \\le 1$ では $\\tau = 1$）。

</Definition>

## 2. 表

| $s$ | $\\tau(s)$ | 重み（$\\tau$ で補正） |
|---|---|---|
| 2 | {} | 0.25 |
| 3 | 16 | 0.5 |
"""


def _tempered(cell: str) -> list[tuple[int, str]]:
    report = audit_document(parse(TEMPERED.format(cell), "t.mdx"), with_checks=False)
    return [(f.line, f.code) for f in report.mismatched]


def test_what_a_case_concludes_and_a_bracket_of_words_give_the_name_no_value():
    # 「$s \le 1$ では $\tau = 1$」 sets τ for that case only, and 「重み（$\tau$ で補正）」 is
    # a weight the text says how it was corrected, not τ: τ(s) is the definition's
    assert _tempered("9") == []
    assert _tempered("8") == [(13, "TAB103")]


@pytest.mark.parametrize("font", [r"\mathrm", r"\text"])
def test_a_column_named_with_a_text_subscript_is_computed_as_with_mathrm(font):
    table = """\
1 トークンあたりのバイト数は $M_{{F{{tok}}}} = 2Lh_{{F{{kv}}}}d_hb$（$b = 2$）です。

| 構成 | $L$ | $h_{{F{{kv}}}}$ | $d_h$ | $M_{{F{{tok}}}}$（バイト） |
|---|---|---|---|---|
| S | 12 | 12 | 64 | 36,864 |
| A | 32 | 32 | 128 | {cell} |
""".replace("F", font)
    assert found(table.format(cell="524,288")) == []
    assert found(table.format(cell="524,228")) == [(16, "table", "error", "TAB101")]


def test_a_column_of_one_digit_decimals_is_no_other_column_moved():
    # 0.5 stands for 0.45 to 0.55: the fifth column minus 0.048 falls there in four rows
    # by chance, and the 1:4 row is no slip; with the density to three digits it is one
    table = """| パターン | 密度 | 位置 | 1 個あたり | 記憶の比 |
|---|---|---|---|---|
| 1:2 | {d} | 1 | 1 | 0.53125 |
| 2:4 | {d} | 4 | 2 | 0.5625 |
| 4:8 | {d} | 12 | 3 | 0.59375 |
| 1:4 | 0.25 | 2 | 2 | 0.28125 |
| 2:8 | 0.25 | 6 | 3 | 0.296875 |
"""
    assert found(table.format(d="0.5")) == []
    moved = table.format(d="0.500").replace("0.53125", "0.54800").replace("0.59375", "0.54800")
    moved = moved.replace("0.5625", "0.5480").replace("0.296875", "0.297800")
    assert found(moved) == [(16, "table", "warning", "TAB203")]


def test_a_header_formula_the_words_after_it_make_a_condition_is_not_the_columns():
    # 「$1/\sqrt{2N}$ 倍での比」: the ratio when branches are scaled by 1/√(2N), not 1/√(2N)
    table = """| $N$ | $1/\\sqrt{{2N}}$ | {header} |
|---|---|---|
| 12 | 0.20412 | 0.10102 |
| 24 | 0.14434 | 0.07125 |
| 48 | 0.10206 | 0.05032 |
"""
    assert found(table.format(header="$1/\\sqrt{2N}$ 倍での最後の枝の比")) == []
    assert found(table.format(header="$T = 2$ のときの比 $1/\\sqrt{2N}$")) == [
        (13, "table", "error", "TAB101"),
        (14, "table", "error", "TAB101"),
        (15, "table", "error", "TAB101"),
    ]


def test_a_header_stating_what_its_column_is_worked_from_is_its_formula():
    # mod.mdx 表 37.2: 「$P(D = L) = (1 - q)^{23}$」, a left side that is no symbol; and a
    # cell its formula confirms is no slip of another number one swap away (0.6238)
    table = """\
| $q$ | $P(D = L) = (1 - q)^{{23}}$ |
|---|---|
| 0.02 | {} |
| 0.1 | 0.0886 |

二つの値 0.6238 と 0.6238 は別の量です。
"""
    assert found(table.format("0.6283")) == []
    assert found(table.format("0.6238")) == [(13, "table", "error", "TAB101")]
