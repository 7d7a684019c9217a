"""RND002: a number the text says it rounds (「A を丸めると B」) is A rounded to B's precision,
with A taken at its printed precision."""

from __future__ import annotations

from proofs.audit.rules.rounded import audit_rounded_in_words
from proofs.reader import parse

HEAD = '# T\n\n## 1. S\n\n<Example id="ex-x" title="t">\n\n'
OFFSET = HEAD.count("\n")


def findings(line: str) -> list[tuple[int, str, str]]:
    document = parse(HEAD + line + "\n\n</Example>\n", "rounded.mdx")
    return [(f.line - OFFSET, str(f.status), f.detail) for f in audit_rounded_in_words(document)]


def test_a_tuple_rounded_component_by_component():
    line = "$\\boldsymbol{w}/s = (127,\\ -59.87,\\ 21.77)$ を丸めると $(127,\\ -60,\\ 22)$ です。"
    assert findings(line) == [(1, "confirmed", "each of 3 rounded to its precision")]


def test_a_slipped_component_is_named_with_what_it_rounds_to():
    line = "$\\boldsymbol{w}/s = (127,\\ -59.87,\\ 21.77)$ を丸めると $(127,\\ -59,\\ 22)$ です。"
    assert findings(line) == [(1, "mismatched", "-59.87 rounded is -60, not -59")]


def test_rounded_up_and_down():
    assert findings("$12.5$ を切り上げて $C = 13$ です。")[0][1] == "confirmed"
    assert findings("$12.5$ を切り上げて $C = 12$ です。")[0][2] == "12.5 rounded up is 13, not 12"
    assert findings("$12.5$ を切り捨てて 12 です。")[0][1] == "confirmed"
    assert findings("$12.5$ を切り捨てて 13 です。")[0][1] == "mismatched"


def test_a_value_whose_printed_interval_holds_a_tie_may_round_either_way():
    # 6.5 printed stands for 6.45 to 6.55: 6 and 7 are both its rounding
    assert findings("$x = 6.5$ を丸めると 6 です。")[0][1] == "confirmed"
    assert findings("$x = 6.5$ を丸めると 7 です。")[0][1] == "confirmed"
    assert findings("$x = 6.5$ を丸めると 8 です。")[0][2] == "6.5 rounded is 6 or 7, not 8"


def test_rounded_to_the_results_own_precision():
    assert findings("$0.12345$ を丸めると $0.123$ です。")[0][1] == "confirmed"
    assert findings("$0.12345$ を丸めると $0.124$ です。")[0][1] == "mismatched"


def test_a_rounding_to_a_grid_the_words_name_is_not_read():
    assert findings("$0.1$ を bfloat16 に丸めると $0.10009765625$ です。") == []
    assert findings("$2730.67$ を 256 の倍数に切り上げて 2,816 です。") == []


def test_two_counts_of_components_that_differ_are_not_read():
    assert findings("$(1.2,\\ 3.4)$ を丸めると $(1,\\ 3,\\ 5)$ です。") == []
