"""What the coverage list says of each number the audit did not examine: every clause of
the classification has a line that takes it, and a number that prints a quantity is never
put aside as notation, a name or markup."""

from __future__ import annotations

import pytest
from places import SEEDS

from proofs.audit import audit_document, audit_file
from proofs.audit.reports.coverage import (
    BIBLIOGRAPHY,
    FIGURE_LABEL,
    IN_FORMULA,
    IN_PROSE,
    NAMES,
    NOTATION,
    ORDINAL,
    numbers_and_roles,
)
from proofs.reader import parse

MDX = """---
title: 試し
---

<Proposition id="prop-trial" title="試し">

ある命題。

</Proposition>

{body}
"""


def roles(body: str) -> list[tuple[str, str]]:
    """(number, what it is) of each number the chapter prints in `body`."""
    document = parse(MDX.format(body=body), "trial.mdx")
    return [(number, role) for _, number, role in numbers_and_roles(document)]


def test_indices_exponents_and_range_bounds_are_notation():
    assert roles(
        r"$x_{1} + y^2 + \sum_{i=1}^{n} z_i$ と $\boldsymbol{1}$ と $a = 1, \ldots, h$"
    ) == [
        ("1", NOTATION),
        ("2", NOTATION),
        ("1", NOTATION),
        ("1", NOTATION),
        ("1", NOTATION),
    ]


def test_a_number_in_a_formula_that_is_not_notation_is_a_quantity():
    assert roles(r"$4 \cdot d^2 + 4 = 288$") == [
        ("4", IN_FORMULA),
        ("2", NOTATION),
        ("4", IN_FORMULA),
        ("288", IN_FORMULA),
    ]


def test_a_display_formula_is_read_line_by_line_as_a_formula():
    assert roles("$$\n0.7071 & 1.4142\n$$") == [("0.7071", IN_FORMULA), ("1.4142", IN_FORMULA)]


def test_sections_items_output_lines_and_cited_works_are_names():
    assert roles('8 節と [1] 3.2 節、4・5 行目、<Ref to="prop-trial" /> の 2 と 4、証明の 1') == [
        ("8", NAMES),
        ("1", NAMES),
        ("3.2", NAMES),
        ("4", NAMES),
        ("5", NAMES),
        ("2", NAMES),
        ("4", NAMES),
        ("1", NAMES),
    ]
    assert roles("2 は実装で重要です。") == [("2", NAMES)]


def test_ordinals_are_positions():
    assert roles("第 1 行と 5・6 番目、1 つ目") == [
        ("1", ORDINAL),
        ("5", ORDINAL),
        ("6", ORDINAL),
        ("1", ORDINAL),
    ]


def test_a_bibliography_entry_is_set_apart():
    assert roles("- [2] D. Bahdanau, ICLR 2015, arXiv:1409.0473") == [
        ("2", BIBLIOGRAPHY),
        ("2015", BIBLIOGRAPHY),
        ("1409.0473", BIBLIOGRAPHY),
    ]


def test_markup_attributes_are_not_printed_but_captions_and_labels_are():
    figure = (
        '<Figure caption="n = 4 の因果マスク">\n'
        '<svg viewBox="0 0 520 250" aria-label="4 行 4 列">\n'
        '  <text x="202" y="30">j = 1</text>\n'
        "</svg>\n"
        "</Figure>"
    )
    assert roles(figure) == [
        ("4", FIGURE_LABEL),
        ("4", FIGURE_LABEL),
        ("4", FIGURE_LABEL),
        ("1", FIGURE_LABEL),
    ]


def test_a_quantity_in_prose_stays_a_quantity():
    assert roles("語彙は 50,257、文脈長は 1,024 です。重みは 2 倍。") == [
        ("50,257", IN_PROSE),
        ("1,024", IN_PROSE),
        ("2", IN_PROSE),
    ]


def test_a_judged_number_is_examined_and_leaves_the_list():
    report = audit_document(parse(MDX.format(body="$2 + 3 = 5$ と $7$"), "trial.mdx"))
    assert report.coverage is not None
    assert (report.coverage.numbers, report.coverage.numbers_examined) == (4, 3)
    assert [(text, why) for _, text, why in report.coverage.unexamined] == [("7", IN_FORMULA)]


@pytest.mark.parametrize("name", ["000_ce182fefa314a82b.txt", "002_1f7cf506cffefce0.txt"])
def test_every_number_of_the_seeds_not_examined_has_a_reason(name):
    path = SEEDS / name
    if not path.is_file():
        pytest.skip(f"{path} is not here")
    covered = audit_file(path).coverage
    assert covered is not None
    assert sum(covered.reasons().values()) == covered.numbers - covered.numbers_examined
    assert all(why for _, _, why in covered.unexamined)
