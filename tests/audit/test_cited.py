"""Formulas restated beside a citation of their element, on small chapters: the same
formula (or the same value rewritten) is confirmed, a slipped one is a mismatch at the
citing line, and another quantity is left alone."""

from __future__ import annotations

import pytest

from proofs.audit.rules.cited import _is_setting, _plain, audit_cited
from proofs.reader import parse

CHAPTER = """# T

- 要点：パラメータ数は ${summary}$ です（<Ref to="prop-count" />）。

## 1. S

<Proposition id="prop-count" title="数">

数は $\\underbrace{{4d^2}}_{{\\text{{重み}}}} + \\underbrace{{4d}}_{{\\text{{偏り}}}}$ で、
$n < 6d$ のとき小さい。

</Proposition>
"""


def verdicts(summary: str, code: str = "CIT001") -> list[tuple[int, str]]:
    document = parse(CHAPTER.format(summary=summary), "cited.mdx")
    return [(f.line, str(f.status)) for f in audit_cited(document) if f.code == code]


@pytest.mark.parametrize("summary", ["4d^2 + 4d", "4d^2+4d", r"4\,d^2 + 4\,d"])
def test_the_formula_or_its_value_rewritten_is_confirmed(summary):
    assert verdicts(summary) == [(3, "confirmed")]


@pytest.mark.parametrize("summary", ["4d(d + 1)", "4d + 4d^2"])
def test_a_rewriting_is_never_a_mismatch(summary):
    assert "mismatched" not in {status for _, status in verdicts(summary)}


@pytest.mark.parametrize("summary", ["4d^2 + 3d", "4d^2 + 4d^3", "3d^2 + 4d"])
def test_a_slipped_formula_is_a_mismatch_at_the_citing_line(summary):
    assert verdicts(summary) == [(3, "mismatched")]


def test_a_relation_with_the_same_left_side_is_compared_however_short():
    assert verdicts("n < 6d") == [(3, "confirmed")]
    assert verdicts("n < 4d") == [(3, "mismatched")]
    assert verdicts("m < 4d") == []  # another left side: another relation


def test_another_quantity_or_a_lone_symbol_is_left_alone():
    assert verdicts("12nd^2 + 2n^2d") == []  # like nothing the element states
    assert verdicts("d") == []
    assert verdicts("1/d") == []


def test_a_citation_inside_its_own_element_restates_nothing():
    text = CHAPTER.format(summary="4d^2 + 4d").replace(
        "のとき小さい。", 'のとき小さい（<Ref to="prop-count" />、$4d^2 + 3d$）。'
    )
    assert [f.line for f in audit_cited(parse(text, "cited.mdx"))] == [3]


def test_underbrace_labels_are_dropped_and_an_unclosed_one_kept():
    assert _plain(r"\underbrace{4nd^2}_{\text{射影}} + \underbrace{2n^2 d}_{\text{点}}") == (
        "4nd^2+2n^2d"
    )
    assert _plain(r"L(\underbrace{2d\,d_{\mathrm{ff}}}_{\text{MLP}})") == r"L(2dd_{\mathrm{ff}})"
    assert _plain(r"a + \underbrace{x") == r"a+\underbrace{x"


def test_a_formula_equal_to_any_of_the_statements_is_confirmed_however_alike():
    text = (
        CHAPTER.format(summary="4d^2 + 4d")
        .replace(
            "$n < 6d$ のとき小さい。", "$n < 6d$ のとき小さい。別の数は $4d^2 + 4d^3$ である。"
        )
        .replace(r"\underbrace{4d^2}_{\text{重み}} + \underbrace{4d}_{\text{偏り}}", "4d + 4d^2")
    )
    document = parse(text, "cited.mdx")
    assert [(f.line, str(f.status)) for f in audit_cited(document)] == [(3, "confirmed")]


def test_a_restatement_otherwise_is_named_at_the_formula_it_restates_too():
    document = parse(CHAPTER.format(summary="4d^2 + 3d"), "cited.mdx")
    (elsewhere,) = [f for f in audit_cited(document) if f.code == "CIT002"]
    assert (elsewhere.line, str(elsewhere.status)) == (9, "mismatched")
    assert elsewhere.detail.startswith("line 3 restates it otherwise: $4d^2 + 3d$; ")
    assert "is false at d = " in elsewhere.detail


def test_a_formula_confirmed_at_its_line_is_not_named_for_a_restatement():
    document = parse(CHAPTER.format(summary="4d^2 + 3d"), "cited.mdx")
    found = audit_cited(document, confirmed=frozenset({9}))
    assert [(f.line, f.code) for f in found] == [(3, "CIT001")]


def test_a_restatement_that_agrees_names_nothing_elsewhere():
    assert verdicts("4d^2 + 4d", code="CIT002") == []
    assert verdicts("n < 4d", code="CIT002") == [(10, "mismatched")]


def test_where_a_name_goes_is_no_formula_to_restate():
    document = parse(
        CHAPTER.replace("$n < 6d$ のとき小さい", "$d \\to \\infty$ で小さい").format(
            summary="d \\to 0"
        ),
        "cited.mdx",
    )
    assert [f for f in audit_cited(document) if f.status == "mismatched"] == []


def test_a_setting_in_thousands_is_another_case_not_a_restatement():
    # parallelism.txt 415: 「$p = 1{,}024$」 beside 注意 5.7's 「$p = 8$」
    text = CHAPTER.replace("$n < 6d$ のとき小さい", "$d = 8$ では小さい")
    for setting in ("d = 1{,}024", "d = 1,024", "d = 1024"):
        document = parse(text.format(summary=setting), "cited.mdx")
        assert [f for f in audit_cited(document) if f.status == "mismatched"] == []


def test_a_setting_to_a_power_or_a_product_is_another_case_not_a_restatement():
    # 定理 4.2's 「$\varepsilon = 0$ とし」 beside 「$\varepsilon = 10^{-8}$ のままでも」
    text = CHAPTER.replace("$n < 6d$ のとき小さい", "$d = 0$ では小さい")
    for setting in ("d = 10^{-8}", "d = 6 \\times 10^{-4}", "d = \\frac{1}{2}"):
        document = parse(text.format(summary=setting), "cited.mdx")
        assert [f for f in audit_cited(document) if f.status == "mismatched"] == []
    # a formula of names, or of e, is no setting
    assert not _is_setting("d = 2n") and not _is_setting("x = e^{-2}")
    assert _is_setting("x = 2^{10}") and _is_setting("x = 1{,}024")


def test_a_sum_of_fractions_in_the_statement_is_restated_by_a_sum_of_slashes():
    # the statement's bound \frac{a^2}{2} - \frac{a^3}{3} is a sum however its terms are
    # written: the summary's a^2/2 - a^3/3 restates it, not the first bound alike in form
    statement = (
        r"$P \le \exp(-\frac{k}{2}(a - \ln(1 + a)))$ であり、"
        r"$Q \le 2\exp(-\frac{k}{2}(\frac{a^2}{2} - \frac{a^3}{3}))$"
    )
    text = CHAPTER.format(summary=r"2\exp(-\frac{k}{2}(a^2/2 - a^3/3))").replace(
        "$n < 6d$", statement
    )
    found = [(f.line, str(f.status)) for f in audit_cited(parse(text, "cited.mdx"))]
    assert found == [(3, "confirmed")]
    slipped = text.replace(r"\frac{a^3}{3}", r"\frac{a^3}{2}", 1).replace("a^3/3", "a^3/2", 1)
    found = [(f.line, str(f.status)) for f in audit_cited(parse(slipped, "cited.mdx"))]
    assert found == [(3, "confirmed")]  # the same slip in both: they still agree
