"""The audit's rules: each under a code of its family, documented on docs/rules.md as the
rules declare themselves, and each shown on a slip it reports and a rewrite it leaves
alone, both audited here: a text of its own, or an edit of a chapter that the slips'
corpus audits (tests/slip_audits.py)."""

from __future__ import annotations

import re

import pytest
from seed_slips import NEUTRAL, SLIPS, Edit
from slip_audits import AUDITS, audit_of, pristine

from proofs import reader
from proofs.audit import audit_document
from proofs.audit.findings import Example, Rule, Severity, Status
from proofs.audit.running import FAMILIES, RULES
from proofs.publish import rules_page

EVERY = [r for family in FAMILIES for r in family.RULES]
KEYS = {"self-attention": "sa", "transformer-block": "tb"}  # seed_slips' keys of the chapters


def test_the_rules_page_is_not_stale():
    written = rules_page.PAGE.read_text(encoding="utf-8")
    assert written == rules_page.page(), (
        "docs/rules.md is stale: python -m proofs.publish.rules_page rewrites it"
    )


def test_every_code_is_its_familys_letters_and_three_digits_once():
    codes = [r.code for r in EVERY]
    assert len(codes) == len(set(codes)) == len(RULES)
    assert all(re.fullmatch(r"[A-Z]{2,3}\d{3}", c) for c in codes), codes
    assert all(r.family == re.sub(r"\d", "", r.code) for r in EVERY)
    assert all(r.severity in (Severity.ERROR, Severity.WARNING) for r in EVERY)


def test_a_family_lives_in_one_module():
    homes = {r.family: {f.__name__ for f in FAMILIES if r in f.RULES} for r in EVERY}
    shared = {family: modules for family, modules in homes.items() if len(modules) > 1}
    assert shared == {}


def _texts(kind: str) -> list[tuple[Rule, Example]]:
    return [(r, getattr(r, kind)) for r in EVERY if getattr(r, kind).text]


def _mismatches(example: Example, code: str) -> list[int]:
    document = reader.parse(example.text, "example.mdx")
    report = audit_document(document, run=example.run_listings)
    return [f.line for f in report.findings if f.code == code and f.status == Status.MISMATCHED]


@pytest.mark.parametrize(("rule", "example"), _texts("slip"), ids=lambda x: getattr(x, "code", ""))
def test_each_rule_reports_the_slip_it_is_shown_on(rule, example):
    assert _mismatches(example, rule.code), rule.code


@pytest.mark.parametrize(
    ("rule", "example"), _texts("neutral"), ids=lambda x: getattr(x, "code", "")
)
def test_each_rule_leaves_alone_the_rewrite_it_is_shown_on(rule, example):
    assert _mismatches(example, rule.code) == [], rule.code


@pytest.mark.parametrize(
    ("rule", "example"), _texts("slip") + _texts("neutral"), ids=lambda x: getattr(x, "code", "")
)
def test_every_finding_of_an_example_has_a_rules_code_and_a_mismatch_its_rules_severity(
    rule, example
):
    report = audit_document(reader.parse(example.text, "example.mdx"), run=example.run_listings)
    assert {f.code for f in report.findings} <= set(RULES)
    weighed = {(f.code, f.severity) for f in report.findings if f.status == Status.MISMATCHED}
    assert weighed == {(f.code, RULES[f.code].severity) for f in report.mismatched}


def _edit(example: Example) -> Edit | None:
    """The corpus's edit an example of a chapter is (None: the chapter as it is, or an edit
    the corpus does not have)."""
    return next(
        (
            e
            for e in [*SLIPS, *NEUTRAL]
            if (e.chapter, e.line, e.old, e.new)
            == (KEYS[example.chapter], example.line, example.old, example.new)
        ),
        None,
    )


def test_each_example_of_a_chapter_is_an_edit_of_the_corpus_or_the_chapter_as_it_is():
    shown = [(r.code, e) for r in EVERY for e in (r.slip, r.neutral) if e.chapter]
    assert len(shown) >= 15
    missing = [code for code, e in shown if (e.old or e.new) and _edit(e) is None]
    assert missing == [], "tests/seed_slips.py lacks these rules' edits"
    assert all(e.line for _, e in shown)


SEEDED = [(r, _edit(r.slip)) for r in EVERY if r.slip.chapter and _edit(r.slip) is not None]
KEPT = [(r, _edit(r.neutral)) for r in EVERY if r.neutral.chapter]


@pytest.mark.slow
@pytest.mark.early(AUDITS)
@pytest.mark.parametrize(("rule", "slip"), SEEDED, ids=[r.code for r, _ in SEEDED])
def test_each_rule_reports_its_slip_of_a_chapter_at_its_line(rule, slip):
    known = {tuple(m[:3]) for m in pristine(slip.chapter)["mismatched"]}
    new = [m for m in audit_of(slip)["mismatched"] if tuple(m[:3]) not in known]
    assert any(m[4] == rule.code and m[1] == (slip.expect_line or slip.line) for m in new), new


@pytest.mark.slow
@pytest.mark.early(AUDITS)
@pytest.mark.parametrize(("rule", "edit"), KEPT, ids=[r.code for r, _ in KEPT])
def test_each_rule_leaves_alone_its_rewrite_of_a_chapter(rule, edit):
    before = [m for m in pristine(edit.chapter)["mismatched"] if m[4] == rule.code]
    after = [m for m in audit_of(edit)["mismatched"] if m[4] == rule.code]
    assert [m[:2] for m in after] == [m[:2] for m in before]


FIRST_EDITS = [next(e for e in NEUTRAL if e.chapter == key) for key in ("sa", "tb")]


@pytest.mark.slow
@pytest.mark.early(AUDITS)
@pytest.mark.parametrize("edit", FIRST_EDITS, ids=["sa", "tb"])
def test_every_finding_of_the_chapter_as_it_is_has_a_rules_code(edit):
    """(An edit of the chapter's, so that the corpus's job audits the chapter as it is.)"""
    found = pristine(edit.chapter)
    codes = {finding[3] for finding in found["findings"]}
    assert codes <= set(RULES), codes - set(RULES)
    shown = [r for r in EVERY if r.slip.chapter and KEYS[r.slip.chapter] == edit.chapter]
    for rule in [r for r in shown if _edit(r.slip) is None]:
        lines = [m[1] for m in found["mismatched"] if m[4] == rule.code]
        assert rule.slip.line in lines, rule.code
