"""Printed decimals read as exact constants, and the audit's judgement at the printed
precision: face value, then the exact reading, else a last-digit slip."""

from __future__ import annotations

import pytest

from proofs.audit.deciding.readings import read_exactly, reading
from proofs.audit.rules.equalities import audit_statement


@pytest.mark.parametrize(
    "printed, shown",
    [
        ("1.4142", "√2"),
        ("0.7071", "√(1/2)"),
        ("1.8708", "√(7/2)"),
        ("0.2857", "2/7"),
        ("0.3333", "1/3"),
        ("1.6487", "e^(1/2)"),
        ("4.54 \\times 10^{-5}", "e^(-10)"),
    ],
)
def test_a_rounded_constant_is_read(printed, shown):
    assert reading(printed).shown == shown


@pytest.mark.parametrize("printed", ["1.1428", "0.5", "3.5", "1.234", "62.92", "10.1073"])
def test_a_truncated_exact_coarse_or_unremarkable_decimal_has_no_reading(printed):
    assert reading(printed) is None


def test_reading_refuses_what_is_not_a_decimal():
    with pytest.raises(ValueError, match="printed must be a decimal"):
        reading("12")


def test_read_exactly_replaces_only_the_decimals_with_a_reading():
    tex, used = read_exactly(r"\sqrt{1.1428 + 0.2857}")
    assert tex == r"\sqrt{1.1428 + {\frac{2}{7}}}"
    assert [r.printed for r in used] == ["0.2857"]


def judged(statement: str) -> tuple[str, str]:
    (finding,) = audit_statement(1, statement, {})
    return finding.status, finding.detail


def test_a_result_that_rounds_the_face_values_is_recomputed():
    assert judged(r"\sqrt{0.0900 + 0.2500} = 0.5831") == ("confirmed", "recomputed 0.583095")


def test_a_printed_value_of_an_exact_constant_is_the_result_whichever_side_it_stands():
    assert judged(r"1.41 = \sqrt{2}") == ("confirmed", "recomputed 1.41421")
    assert judged(r"\sqrt{2} = 1.41")[0] == "confirmed"
    assert judged(r"1.42 = \sqrt{2}")[0] == "mismatched"


def test_a_result_that_rounds_only_the_exact_constants_holds_with_the_reading():
    status, detail = judged(r"e^{1.4142} = 4.1133")
    assert status == "confirmed" and detail.startswith("holds with 1.4142 as √2")
    assert judged(r"0.3333 \times 3 = 1")[0] == "confirmed"


def test_a_result_that_neither_reading_gives_is_a_last_digit_slip():
    status, detail = judged(r"e^{1.4142} = 4.1134")  # its intervals still meet
    assert status == "mismatched" and "4.11319" in detail and "√2 it is 4.11325" in detail


def test_the_slipped_input_is_named_when_it_alone_lacks_a_reading():
    status, detail = judged(r"\sqrt{1.1428 + 0.2857 + 0 + 2.5714} = \sqrt{4}")
    assert status == "mismatched"
    assert detail.endswith("(with 1.1429 for 1.1428 it holds)")


def test_two_computed_sides_need_only_meet():
    status, detail = judged(r"e^{0.5}/10.1073 = 1.6487 / 10.1073")
    assert status == "confirmed"


def test_decimals_that_approximate_an_exact_side_need_only_meet_it():
    exact = r"2/16 + 4 \times 10^{6}/(7 \times 10^{9})"
    assert judged(rf"{exact} \approx 0.125 + 0.000571")[0] == "confirmed"
    assert judged(rf"{exact} \approx 0.125 + 0.000517")[0] == "mismatched"  # beyond rounding
    assert judged(rf"{exact} = 0.125 + 0.000571")[0] == "mismatched"  # = says exactly
