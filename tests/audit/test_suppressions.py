"""Suppressions in an MDX chapter (proofs.audit.suppressions): a comment
`{/* proofs: ignore[CODE] reason */}` keeps the findings of its codes on its line or the
next out of the report, and is itself reported when it keeps out nothing, names no rule's
code, or is not in the grammar; a comment of the author's is neither read as a directive
nor as the chapter's text."""

from __future__ import annotations

from proofs import reader
from proofs.audit import audit_document
from proofs.audit.reports.report import Report

HEAD = '# 見本\n\n<Remark id="rem-sum" title="和">\n\n足し算を確かめます。\n\n</Remark>\n\n'
SLIP = "$2 \\times 384 = 786$ 個です。"  # line 10 when a comment stands on line 9
EQ001 = (
    "EQ001",
    "error",
    "left side recomputes to 768, right side to 786; they differ by 18 beyond the printed "
    "precision",
)


def audited(body: str) -> Report:
    return audit_document(reader.parse(HEAD + body, "s.mdx"), with_checks=False)


def mismatched(report: Report) -> list[tuple[int, str, str, str]]:
    """(line, code, severity, detail) of each mismatch, by line."""
    return sorted((f.line, f.code, str(f.severity), f.detail) for f in report.mismatched)


def kept_out(report: Report) -> list[tuple[int, str, int, str]]:
    """(line, code, the suppression's line, its reason) of each finding kept out."""
    return [(f.line, f.code, line, why) for f, line, why in report.suppressed]


def test_a_suppression_on_the_line_before_keeps_the_finding_out():
    report = audited(f"{{/* proofs: ignore[EQ001] 手で確かめた */}}\n{SLIP}\n")
    assert mismatched(report) == []
    assert kept_out(report) == [(10, "EQ001", 9, "手で確かめた")]


def test_a_suppression_on_the_findings_own_line_keeps_it_out():
    report = audited(f"{SLIP} {{/* proofs: ignore[EQ001] 手で確かめた */}}\n")
    assert mismatched(report) == []
    assert kept_out(report) == [(9, "EQ001", 9, "手で確かめた")]


def test_a_familys_letters_keep_out_its_rules():
    report = audited(f"{{/* proofs: ignore[EQ] 手で確かめた */}}\n{SLIP}\n")
    assert kept_out(report) == [(10, "EQ001", 9, "手で確かめた")]


def test_a_suppression_that_keeps_out_nothing_is_reported():
    report = audited("{/* proofs: ignore[EQ001] 手で確かめた */}\n$2 \\times 384 = 768$ 個です。\n")
    assert mismatched(report) == [
        (9, "SUP001", "warning", "suppresses nothing: no finding of EQ001 on this line or the next")
    ]


def test_a_suppression_two_lines_above_the_finding_keeps_out_nothing():
    report = audited(f"{{/* proofs: ignore[EQ001] 手で確かめた */}}\n\n{SLIP}\n")
    assert mismatched(report) == [
        (
            9,
            "SUP001",
            "warning",
            "suppresses nothing: no finding of EQ001 on this line or the next",
        ),
        (11, *EQ001),
    ]
    assert kept_out(report) == []


def test_a_suppression_of_another_rule_keeps_out_nothing():
    report = audited(f"{{/* proofs: ignore[RST001] 別の規則 */}}\n{SLIP}\n")
    assert mismatched(report) == [
        (
            9,
            "SUP001",
            "warning",
            "suppresses nothing: no finding of RST001 on this line or the next",
        ),
        (10, *EQ001),
    ]


def test_each_code_of_a_suppression_that_keeps_out_nothing_is_named():
    report = audited(f"{{/* proofs: ignore[EQ001, RST001] 二つ */}}\n{SLIP}\n")
    assert kept_out(report) == [(10, "EQ001", 9, "二つ")]
    assert mismatched(report) == [
        (
            9,
            "SUP001",
            "warning",
            "suppresses nothing: no finding of RST001 on this line or the next",
        )
    ]


def test_a_code_no_rule_has_is_reported_with_the_nearest_and_suppresses_nothing():
    report = audited(f"{{/* proofs: ignore[EQ01] 手で確かめた */}}\n{SLIP}\n")
    assert mismatched(report) == [
        (9, "SUP002", "warning", "no rule has the code EQ01; nearest: EQ001, EQ005, EQ004"),
        (10, *EQ001),
    ]


def test_a_directive_not_in_the_grammar_is_reported_and_suppresses_nothing():
    report = audited(f"{{/* proofs: ignore EQ001 */}}\n{SLIP}\n")
    assert mismatched(report) == [
        (
            9,
            "SUP003",
            "warning",
            "not read as a suppression: expected proofs: ignore[CODE, …] and a reason",
        ),
        (10, *EQ001),
    ]


def test_an_authors_comment_is_neither_a_directive_nor_the_chapters_text():
    report = audited("{/* 下書き: $1 = 2$ */}\n$2 \\times 384 = 768$ 個です。\n")
    assert mismatched(report) == []
    assert kept_out(report) == []
