"""A name applied to an argument, f(0), is an application where the chapter defines f as a
function, never f times 0: decided by the definition where there is one, "not decided"
where there is none, and a mismatch only with a witness (two numbers that differ)."""

from __future__ import annotations

from places import SAMPLES

from proofs.audit import audit_document
from proofs.reader import parse, read_chapter

DEFINED = "見本：関数\n\n1. 節\n\n定義 1.1（ずらし）\n\n$$f(x) := x + 1$$\n\nと定める。\n\n"


def equalities(text: str) -> list[tuple[str, str]]:
    """(text, status) of each equality the audit reports."""
    report = audit_document(parse(text, "applications.txt"))
    return [(f.text, str(f.status)) for f in report.findings if f.section == "equality"]


def test_the_package_s_sample_chapters_have_no_mismatch_and_f_0_is_decided():
    for name in ("chapter.txt", "chapter.mdx"):
        report = audit_document(read_chapter(SAMPLES / name))
        assert report.mismatched == [], name
        found = {f.text: f.status for f in report.findings if f.section == "equality"}
        assert found["f(0) = 1"] == "confirmed" and found["f(2) = 3"] == "confirmed"


def test_f_applied_reads_the_definition_and_a_wrong_value_is_a_mismatch():
    text = DEFINED + "命題 1.2（値）\n\n$f(0) = 1$ である。$f(3) = 5$ である。\n"
    assert equalities(text) == [("f(0) = 1", "confirmed"), ("f(3) = 5", "mismatched")]


def test_a_name_no_definition_makes_a_function_is_not_decided():
    text = "見本：関数\n\n1. 節\n\n命題 1.1（値）\n\n$g(0) = 1$ である。\n"
    assert equalities(text) == [("g(0) = 1", "not checkable")]
