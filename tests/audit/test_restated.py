"""Numbers printed in two places, clause by clause: what counts as one slip of typing, which
numbers are long enough to compare, and what the finding says."""

from __future__ import annotations

import pytest

from proofs.audit.rules.restated import _occurrence, _slip_apart, audit_restated, one_slip
from proofs.reader import parse

HEAD = '# T\n\n## 1. S\n\n<Proposition id="prop-x" title="t">\n\nある命題。\n\n</Proposition>\n\n'
OFFSET = HEAD.count("\n")  # the lines of the head before the body's first


def findings(*lines: str) -> list[tuple[int, str, str]]:
    document = parse(HEAD + "\n\n".join(lines) + "\n", "restated.mdx")
    return [(f.line - OFFSET, f.text, f.detail) for f in audit_restated(document)]


def test_one_slip_is_two_neighbouring_digits_swapped():
    assert one_slip("568", "586")
    assert not one_slip("568", "568")
    assert not one_slip("568", "865")  # not neighbours
    assert not one_slip("568", "567")  # one digit changed
    assert not one_slip("568", "5680")


def test_a_swap_of_a_number_printed_twice_is_reported_with_where_it_is():
    got = findings("数は 124,439,880 です。", "数は 124,439,808 です。", "また 124,439,808 です。")
    assert got == [
        (
            1,
            "124,439,880",
            "printed nowhere else, one slip away from 124,439,808, which the chapter prints "
            f"at lines {3 + OFFSET}, {5 + OFFSET}",
        )
    ]


def test_at_most_three_lines_are_named_and_one_line_is_singular():
    many = findings("数は 586 です。", *["また 568 です。"] * 4)
    assert many[0][2].endswith(f"at lines {3 + OFFSET}, {5 + OFFSET}, {7 + OFFSET}")
    one = findings("数は 586 です。", "また 568 と 568 です。")
    assert one[0][2].endswith(f"which the chapter prints at line {3 + OFFSET}")


def test_a_pair_each_printed_once_is_left_alone():
    assert findings("数は 124,439,880 です。", "数は 124,439,808 です。") == []


def test_integers_of_two_digits_and_decimals_of_three_are_not_compared():
    assert findings("値は 68 です。", "値は 86 です。", "また 86 です。") == []
    assert findings("値は 0.125 です。", "値は 0.152 です。", "また 0.152 です。") == []
    assert findings("値は 0.1253 です。", "値は 0.1523 です。", "また 0.1523 です。") != []


def test_a_number_of_one_digit_besides_zeros_is_not_compared():
    # 0.1000 and 1.0000 are one digit shifted as often as a slip: not compared
    assert findings("確率は 0.1000 です。", "値は 1.0000 です。", "また 1.0000 です。") == []
    assert findings("確率は 0.1200 です。", "値は 1.0200 です。", "また 1.0200 です。") != []


@pytest.mark.parametrize(
    ("a", "b", "apart"),
    [
        ("0.6285", "0.6258", True),
        ("-0.6285", "0.6258", False),  # the sign
        ("0.6285", "0.62580", False),  # the decimals
        ("10.285", "0.6258", False),  # the number of digits
        ("0.6285", "0.3715", False),  # the first significant digit
    ],
)
def test_two_numbers_are_a_slip_apart_only_alike_in_sign_digits_and_lead(a, b, apart):
    assert _slip_apart(_occurrence(0, a), _occurrence(0, b)) is apart


def test_a_number_a_listing_printed_when_it_ran_is_enough_and_said():
    document = parse(HEAD + "数は 586 です。\n", "restated.mdx")
    (finding,) = audit_restated(document, produced=[(OFFSET + 3, "count: 568")])
    assert finding.detail.endswith(f"at line {OFFSET + 3} (as its listing prints it)")


def test_the_leading_group_of_a_grouped_decimal_is_no_integer_of_its_own():
    got = findings("値は $162{,}754.8$ です。", "幅は 126 です。", "また 126 です。")
    assert got == []


def test_an_elements_number_after_its_label_is_no_value():
    # 「定義 18.12」 beside 「命題 18.21」 (twice): what elements are called, not numbers
    assert findings("定義 18.12（SGD）を使います。", "命題 18.21 と 命題 18.21 より。") == []
    # the same digits as values are still compared
    assert [f[1] for f in findings("比は 18.12 です。", "比は 18.21 と 18.21 です。")] == ["18.12"]
