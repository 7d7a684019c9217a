# ruff: noqa: E501 - the chapters are lines of TeX and Japanese, kept whole so that they read as written
"""A definition against what the chapter computes from it (proofs.audit.rules.definitions):
a definition every use contradicts is named at its own line, an error with two or more
uses and a warning with one; a definition a use needs and confirms is left alone."""

from __future__ import annotations

from proofs.audit import audit_document
from proofs.reader import parse

TEMPLATE = """\
# 試しの章

## 1. 関数

<Definition id="def-g" title="g">

$g := {body}$ と定める。

</Definition>

<Example id="ex-g" title="g の値">

{uses}

</Example>
"""
DEFINITION_LINE = 7


def _found(body: str, uses: str) -> list[tuple[int, str, str]]:
    text = TEMPLATE.format(body=body, uses=uses)
    report = audit_document(parse(text, "c.mdx"), with_checks=False)
    return [(f.line, f.code, str(f.severity)) for f in report.mismatched]


def test_a_definition_uses_in_two_elements_contradict_is_an_error_at_its_line():
    other = (
        '</Example>\n\n<Example id="ex-h" title="もう一つ">\n\n$n = 5$ として、$2g = 30$ である。'
    )
    found = _found("2^{n-1}", f"$n = 5$ として、$g + 1 = 16$ である。\n\n{other}")
    assert (DEFINITION_LINE, "DEF001", "error") in found
    assert [f for f in found if f[0] in (13, 19)] == [
        (13, "EQ004", "error"),
        (19, "EQ004", "error"),
    ]


def test_a_definition_uses_in_one_element_contradict_is_a_warning():
    # a slipped setting of the element ($n = 6$) would make its every line false alike
    assert (DEFINITION_LINE, "DEF002", "warning") in _found(
        "2^{n-1}", "$n = 5$ として、$g + 1 = 16$ である。"
    )
    found = _found("2^{n-1}", "$n = 5$ として、$g + 1 = 16$、$2g = 30$ である。")
    assert (DEFINITION_LINE, "DEF002", "warning") in found


def test_a_definition_its_uses_agree_with_is_quiet():
    assert _found("2^{n-1} - 1", "$n = 5$ として、$g + 1 = 16$、$2g = 30$ である。") == []


def test_a_use_that_slipped_beside_one_that_needs_the_definition_blames_the_use():
    found = _found("2^{n-1} - 1", "$n = 5$ として、$g + 1 = 17$、$2g = 30$ である。")
    assert found == [(13, "EQ004", "error")]


def test_an_inequality_that_holds_supports_no_meaning():
    found = _found("2^{n-1}", "$n = 5$ として、$g + 1 = 16$、$2g = 30$、$1 \\le g$ である。")
    assert (DEFINITION_LINE, "DEF002", "warning") in found


def test_an_equality_true_of_any_value_supports_no_meaning():
    found = _found(
        "2^{n-1}", "$n = 5$ として、$g + 1 = 16$、$2g = 30$、$2^{g}\\cdot 2 = 2^{g+1}$ である。"
    )
    assert (DEFINITION_LINE, "DEF002", "warning") in found


def test_the_finding_names_the_contradicting_lines_and_their_witnesses():
    text = TEMPLATE.format(body="2^{n-1}", uses="$n = 5$ として、$g + 1 = 16$、$2g = 30$ である。")
    report = audit_document(parse(text, "c.mdx"), with_checks=False)
    (found,) = [f for f in report.mismatched if f.code == "DEF002"]
    assert found.text == "g"
    assert found.detail.startswith(
        "the definition of g and what the chapter computes from it cannot all hold: the "
        "statements tried with it, in one element, are false; either slipped. line 13, "
        "$g + 1 = 16$: tried with the chapter's definitions"
    )
    assert "false left 17, right 16" in found.detail


def test_a_use_on_its_definitions_own_line_is_said_there_once():
    found = _found("2^{n-1}", "$n = 5$ として、$h := 2g$、つまり $h + 1 = 31$ である。")
    assert [f for f in found if f[1].startswith("DEF")] == [(DEFINITION_LINE, "DEF002", "warning")]


TABLED = """\
# 試しの章

## 1. 形式

<Definition id="def-b" title="バイアス">

$b := {body}$ と置く。

</Definition>

<Example id="ex-b" title="b の値">

| 形式 | $e$ | $b$ |
|---|---|---|
| A | 5 | 15 |
| B | 8 | {cell} |
| C | 4 | 7 |

</Example>

<Example id="ex-b2" title="もう一つ">

$e = 3$ として、$b + 1 = 4$ である。

</Example>
"""


def _tabled(body: str, cell: str) -> list[tuple[int, str, str]]:
    report = audit_document(parse(TABLED.format(body=body, cell=cell), "c.mdx"), with_checks=False)
    return sorted((f.line, f.code, str(f.severity)) for f in report.mismatched)


def test_a_table_column_most_of_whose_rows_contradict_the_definition_names_it():
    assert _tabled("2^{e-1} - 1", "127") == []
    # every row and the second example contradict b := 2^{e-1}: the definition is named
    found = _tabled("2^{e-1}", "127")
    assert (7, "DEF001", "error") in found
    assert [code for _, code, _ in found].count("TAB103") == 3


def test_one_slipped_cell_of_a_table_leaves_the_definition_alone():
    # two rows agree with the definition, one does not: the cell slipped, not b
    assert _tabled("2^{e-1} - 1", "128") == [(16, "TAB103", "error")]


def test_a_column_headed_in_per_cent_holds_the_definition_times_100():
    text = (
        "# 章\n\n## 1. 割合\n\n"
        '<Definition id="def-r" title="割合">\n\n$\\rho := V/(V + K)$ とする。\n\n</Definition>\n\n'
        '<Example id="ex-r" title="表">\n\n$K = 100$ とする。\n\n'
        "| $V$ | $\\rho$（%） |\n|---|---|\n| 100 | 50.00 |\n| 300 | 75.00 |\n| 900 | {} |\n\n"
        "</Example>\n"
    )

    def found(cell: str) -> list[tuple[int, str, str]]:
        report = audit_document(parse(text.format(cell), "c.mdx"), with_checks=False)
        return sorted(
            (f.line, f.code, f.status.value) for f in report.findings if f.code == "TAB103"
        )

    assert [status for _, _, status in found("90.00")] == ["confirmed"] * 3
    assert found("90.01")[-1] == (19, "TAB103", "mismatched")


def test_a_name_worked_out_to_a_number_before_a_table_is_set_there():
    text = (
        "# 章\n\n## 1. 記憶\n\n"
        '<Definition id="def-m" title="記憶量">\n\n$k > 0$ に対し $M(k) := M_1 k t$ とする。\n\n'
        "</Definition>\n\n"
        '<Example id="ex-m" title="表">\n\n'
        "$M_1 = 2 \\times 32 \\times 128 = 8{{,}}192$、$t = 2{{,}}048$ とします。\n\n"
        "| $k$ | $M(k)$ |\n|---|---|\n| 1 | 16,777,216 |\n| 2 | {} |\n\n</Example>\n"
    )

    def found(cell: str) -> list[str]:
        report = audit_document(parse(text.format(cell), "c.mdx"), with_checks=False)
        return [f.status.value for f in report.findings if f.code == "TAB103"]

    assert found("33,554,432") == ["confirmed", "confirmed"]
    assert found("33,554,423") == ["confirmed", "mismatched"]


def test_a_number_of_its_own_before_a_group_multiplies_it():
    # M_1(t + k): M_1 is a number (its subscript a digit), not the function M at 1
    text = (
        "# 章\n\n## 1. 記憶\n\n"
        '<Definition id="def-m" title="記憶量">\n\n$k > 0$ に対し $M(k) := k$、'
        "$M_{{\\mathrm{{sh}}}}(k) := M_1\\big(t + k\\big)$ とする。\n\n</Definition>\n\n"
        '<Example id="ex-m" title="表">\n\n$M_1 = 2 \\times 4 = 8$、$t = 10$ とします。\n\n'
        "| $k$ | $M_{{\\mathrm{{sh}}}}(k)$ |\n|---|---|\n| 1 | 88 |\n| 2 | {} |\n\n</Example>\n"
    )

    def found(cell: str) -> list[str]:
        report = audit_document(parse(text.format(cell), "c.mdx"), with_checks=False)
        return [f.status.value for f in report.findings if f.code == "TAB103"]

    assert found("96") == ["confirmed", "confirmed"]
    assert found("69") == ["confirmed", "mismatched"]


IN_PROSE = """\
# 試しの章

## 1. 形式

<Definition id="def-b" title="バイアス">

$b := {body}$ と置く。

</Definition>

形式ごとの値は次のとおりです。

| 形式 | $e$ | $b$ |
|---|---|---|
| A | 5 | 15 |
| B | 8 | {cell} |
| C | 4 | 7 |
"""


def _in_prose(body: str, cell: str) -> list[tuple[int, str, str]]:
    text = IN_PROSE.format(body=body, cell=cell)
    report = audit_document(parse(text, "c.mdx"), with_checks=False)
    return sorted((f.line, f.code, str(f.severity)) for f in report.mismatched)


def test_a_table_column_false_at_every_row_names_the_definition_with_a_warning():
    assert _in_prose("2^{e-1} - 1", "127") == []
    # every row contradicts b := 2^{e-1}: its header or the definition slipped
    found = _in_prose("2^{e-1}", "127")
    assert (7, "DEF002", "warning") in found
    assert [code for _, code, _ in found].count("TAB103") == 3
    # one row agrees: the rows that do not are the cells' own slips
    assert not [f for f in _in_prose("2^{e-1}", "128") if f[1].startswith("DEF")]


SHARED = """\
# 試しの章

## 1. 関数

<Definition id="def-f" title="f">

$f(x) := {body}$、$h(x) := 2f(x)$ と定める。

</Definition>

<Proposition id="prop-h" title="h">

$h(1) = 2f(1)$ である。{more}

</Proposition>

<Example id="ex-f" title="f の値">

$f(2) = 3$ である。

</Example>

<Example id="ex-g" title="もう一つ">

$f(3) = 8$、$h(2) = 6$ である。

</Example>
"""


def _named(body: str, more: str = "") -> list[tuple[int, str]]:
    report = audit_document(parse(SHARED.format(body=body, more=more), "s.mdx"), with_checks=False)
    return [(f.line, f.code) for f in report.mismatched if f.code.startswith("DEF")]


def test_a_definition_every_false_use_reaches_is_named_though_an_identity_of_it_holds():
    # h(1) = 2f(1) holds whatever f is; f(2), f(3) and h(2), in two elements, are false of f
    assert _named("x^2 + 1") == [(7, "DEF001")]
    assert _named("x^2 - 1") == []


def test_a_definition_that_as_many_uses_hold_as_contradict_it_is_left_alone():
    more = "また $h(2) - f(2) = f(2)$ である。"
    assert _named("x^2 + 1", more) == []
