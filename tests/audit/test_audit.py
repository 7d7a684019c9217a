"""The audit: the TeX arithmetic evaluator, equalities at the printed precision, and the
two chapters (elements found, their examples' and exercises' checks run, tables checked,
listings reproduced), read only. Each chapter is audited once for the module; audits of
changed copies reuse the process's caches (tables, listings, checks)."""

import hashlib
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from places import SEEDS

from numeric.error_bounds import unit_roundoff
from proofs import audit
from proofs.audit.rules.equalities import audit_statement
from proofs.audit.rules.examples import CHECKED_KINDS
from proofs.book.judge import CheckFailed, finding
from proofs.book.registry import REGISTRY, load_all
from proofs.reader import ChapterInputError
from proofs.tex.arithmetic import NotNumeric, TexArithmetic

CHAPTER_FILES = {
    "self-attention": SEEDS / "000_ce182fefa314a82b.txt",
    "transformer-block": SEEDS / "002_1f7cf506cffefce0.txt",
}


def value(tex: str, **bindings: int) -> float:
    result = TexArithmetic(tex, bindings).evaluate()
    x = result.items[0]
    return float(((x.a + x.b) / 2).a)


def statuses(tex: str) -> list[str]:
    return [f.status for f in audit_statement(1, tex, {})]


def chapter(key: str) -> Path:
    path = CHAPTER_FILES[key]
    if not path.is_file():
        pytest.skip(f"{path} is not here: the chapter cannot be audited")
    return path


def fingerprint(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


_REPORTS: dict[str, tuple[audit.Report, tuple[str, int]]] = {}


def audited(key: str) -> tuple[audit.Report, tuple[str, int]]:
    """The audit of a chapter, made once for this module's tests, with the file's
    fingerprint taken before it."""
    if key not in _REPORTS:
        path = chapter(key)
        before = fingerprint(path)
        _REPORTS[key] = audit.audit_file(path), before
    return _REPORTS[key]


def report_of(key: str) -> audit.Report:
    return audited(key)[0]


def new_mismatches(changed: audit.Report, key: str) -> list[audit.Finding]:
    """The mismatches of a changed copy that the chapter itself does not have."""
    known = {(f.section, f.line, f.text) for f in report_of(key).mismatched}
    return [f for f in changed.mismatched if (f.section, f.line, f.text) not in known]


def test_evaluator_reads_thousands_separators_and_powers():
    assert value(r"4 \times 512^2 + 4 \times 512") == 1050624
    assert value(r"1{,}050{,}624") == 1050624


def test_evaluator_reads_fractions_roots_and_exponentials():
    assert value(r"\frac14(4 + 1 + 0 + 9)") == 3.5
    # the evaluator's 30-digit midpoint rounded to float64 (u) against a correctly rounded
    # float literal or sqrt (u): within 2u
    rel = 2 * unit_roundoff(np.float64)
    assert value(r"\frac{1}{\sqrt2}") == pytest.approx(math.sqrt(0.5), rel=rel)
    assert value(r"e^{\log 3}") == pytest.approx(3, rel=rel)
    assert value(r"4.54\times10^{-5}") == pytest.approx(4.54e-5, rel=rel)
    assert value(r"23.5\%") == pytest.approx(0.235, rel=rel)


def test_evaluator_reads_tuples_and_matrices():
    result = TexArithmetic(r"0.5\,(1, 0) + 0.5\,(0, 1)", {}).evaluate()
    assert result.vector and len(result.items) == 2
    matrix = TexArithmetic(r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", {}).evaluate()
    assert len(matrix.items) == 4


def test_evaluator_uses_symbols_bound_on_the_line():
    assert value("12nd^2", n=1024, d=768) == 7247757312


@pytest.mark.parametrize("tex", [r"\sum_i x_i", r"\pi(1)", r"\mathrm{LN}(x)", "d", r"\sqrt{-1}"])
def test_evaluator_refuses_what_is_not_arithmetic(tex):
    with pytest.raises(NotNumeric):
        TexArithmetic(tex, {}).evaluate()


def test_a_true_equality_is_confirmed_at_the_printed_precision():
    assert statuses(r"e^{0.7071} = 2.0281") == ["confirmed"]
    assert statuses(r"\sqrt{1.1429 + 0.2857 + 0 + 2.5714} = \sqrt{4} = 2") == ["confirmed"] * 2
    assert statuses(r"38{,}597{,}376 / 124{,}439{,}808 \approx 31\%") == ["confirmed"]


def test_a_wrong_equality_is_mismatched():
    assert statuses(r"4 \times 512^2 + 4 \times 512 = 1{,}050{,}625") == ["mismatched"]
    assert statuses(r"e^{0.7071} = 2.0291") == ["mismatched"]
    assert statuses(r"(2.0281,\ 1,\ 2.0281)/5.0562 = (0.4011,\ 0.1978,\ 0.4012)") == ["mismatched"]
    assert statuses(r"64{,}000/272{,}256 \approx 25.3\%") == ["mismatched"]


def test_a_printed_integer_result_of_approx_is_rounded_not_exact():
    assert statuses(r"10/3 \approx 3") == ["confirmed"]
    assert statuses(r"10/3 = 3") == ["mismatched"]


def test_settings_bind_symbols_and_are_not_findings():
    bindings: dict[str, int] = {}
    assert audit_statement(1, "d = 768", bindings) == []
    assert bindings == {"d": 768}


@pytest.mark.parametrize("key", ["self-attention", "transformer-block"])
def test_audit_finds_every_element_of_the_chapter(key):
    report = report_of(key)
    assert report.chapter == key
    expected = {e.id for e in load_all().values() if e.chapter == key}
    found = {f.ref for f in report.findings if f.section == "element"}
    assert found == expected


def test_audit_checks_both_tables_of_the_self_attention_chapter():
    report = report_of("self-attention")
    cells = [f for f in report.findings if f.section == "table"]
    assert len(cells) == 5 * 5 + 5 * 6
    assert all(f.status == "confirmed" for f in cells)


def test_audit_checks_the_parameter_table_of_the_block_chapter():
    report = report_of("transformer-block")
    cells = [f for f in report.findings if f.section == "table"]
    assert sum(f.status == "confirmed" and f.line in range(241, 248) for f in cells) == 6 * 3
    (words,) = [f for f in cells if "エンコーダの層" in f.text]  # 注意 8.2's check reads it
    assert (words.status, words.detail) == (
        "confirmed",
        "read by the check of rem-out-of-scope as its claim",
    )
    assert [f for f in cells if f.status == "not checkable"] == []


def test_a_table_of_words_that_no_check_reads_is_not_checkable(tmp_path):
    text = chapter("transformer-block").read_text(encoding="utf-8")
    changed = tmp_path / "block.txt"
    changed.write_text(text.replace("\tエンコーダの層\t", "層\tエンコーダ\t", 1), encoding="utf-8")
    cells = [f for f in audit.audit_file(changed).findings if f.section == "table"]
    (words,) = [f for f in cells if f.status == "not checkable"]
    assert "エンコーダ" in words.text


@pytest.mark.parametrize("key", ["self-attention", "transformer-block"])
def test_audit_reproduces_every_printed_output_line(key):
    report = report_of(key)
    outputs = [f for f in report.findings if f.section == "output"]
    assert outputs and all(f.status == "confirmed" for f in outputs), [
        (f.text, f.detail) for f in outputs if f.status != "confirmed"
    ]


def test_a_changed_table_cell_is_reported_with_the_regenerated_value(tmp_path):
    text = chapter("self-attention").read_text(encoding="utf-8")
    changed = tmp_path / "chapter.mdx"
    changed.write_text(text.replace("| 64 | 62.92 |", "| 64 | 62.93 |"), encoding="utf-8")
    bad = new_mismatches(audit.audit_file(changed), "self-attention")
    assert len(bad) == 1 and "regenerated 62.92" in bad[0].detail
    assert "off by +0.01" in bad[0].detail


def test_a_changed_listing_line_is_reported(tmp_path):
    text = chapter("transformer-block").read_text(encoding="utf-8")
    changed = tmp_path / "chapter.txt"
    changed.write_text(text.replace("count: 568  formula: 568", "count: 568  formula: 569"))
    bad = new_mismatches(audit.audit_file(changed), "transformer-block")
    assert len(bad) == 1 and bad[0].section == "output" and "the package gives 568" in bad[0].detail


@pytest.mark.parametrize("key", ["self-attention", "transformer-block"])
def test_the_audit_never_writes_the_chapter(key):
    _, before = audited(key)
    assert fingerprint(chapter(key)) == before


def test_bad_input_names_file_and_line(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    with pytest.raises(ChapterInputError, match=r"empty\.txt:1: empty file"):
        audit.audit_file(empty)
    prose = tmp_path / "prose.txt"
    prose.write_text("A note with no elements.\n")
    with pytest.raises(ChapterInputError, match=r"prose\.txt:1: neither form"):
        audit.audit_file(prose)
    with pytest.raises(ChapterInputError, match="no such file"):
        audit.audit_file(tmp_path / "absent.mdx")
    with pytest.raises(ChapterInputError, match="is a directory"):
        audit.audit_file(tmp_path)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"# title\n\xff\xfe\n")
    with pytest.raises(ChapterInputError, match=r"binary\.txt:2: not UTF-8 text"):
        audit.audit_file(binary)


def test_a_chapter_no_package_registers_is_audited_without_checks(tmp_path):
    untitled = tmp_path / "untitled.txt"
    untitled.write_text("Some title\n\n命題 3.3（x）✓\n\n$2 + 2 = 5$ です。\n", encoding="utf-8")
    report = audit.audit_file(untitled)
    assert report.chapter == audit.UNREGISTERED
    assert [(f.section, f.status, f.detail) for f in report.findings if f.section == "element"] == [
        ("element", "not checkable", "no check: no package of checks registers this chapter")
    ]
    assert [(f.line, f.text) for f in report.mismatched] == [(5, "2 + 2 = 5")]


def test_a_changed_listing_row_is_compared_with_its_own_row(tmp_path):
    text = chapter("self-attention").read_text(encoding="utf-8")
    row = "   16     16.18        1.011              0.743   0.353"
    assert row in text
    changed = tmp_path / "chapter.mdx"
    changed.write_text(text.replace(row, row.replace("0.743", "0.745")), encoding="utf-8")
    bad = new_mismatches(audit.audit_file(changed), "self-attention")
    assert len(bad) == 1
    assert bad[0].detail.startswith("printed 0.745, the package gives 0.743 (off by +0.002)")


def test_symbols_that_cancel_make_a_number():
    assert statuses(r"16d/7d \approx 2.29") == ["confirmed"]
    assert statuses(r"252d/66d \approx 3.83") == ["mismatched"]
    assert statuses(r"n/(6d) = 0.222") == ["not checkable"]


def test_a_confirmed_equality_says_which_reading_of_its_inputs_holds():
    (exact,) = audit_statement(1, r"e^{0.7071} = 2.0281", {})
    assert exact.detail == "recomputed 2.0281"
    normalised = r"\frac{(-2, -1, 0, 3)}{1.8708} = (-1.0690,\ -0.5345,\ 0,\ 1.6036)"
    (read,) = audit_statement(1, normalised, {})
    assert read.status == "confirmed" and read.detail.startswith("holds with 1.8708 as √(7/2)")
    (rounded,) = audit_statement(
        1,
        r"e^{-10}e^{0.5}/10.1073 = 4.54\times10^{-5} \times 1.6487 "
        r"/ 10.1073",
        {},
    )
    assert rounded.status == "confirmed"
    assert rounded.detail.startswith("holds only within the rounding of the printed inputs")


# the checks of the examples and exercises ----------------------------------------------


@pytest.mark.parametrize("key", ["self-attention", "transformer-block"])
def test_audit_runs_the_check_of_every_example_and_exercise(key):
    report = report_of(key)
    expected = {e.id for e in load_all().values() if e.chapter == key and e.kind in CHECKED_KINDS}
    assert {f.ref for f in report.findings if f.section == "check"} == expected


def test_audit_of_the_self_attention_chapter_has_no_mismatch():
    report = report_of("self-attention")
    assert report.mismatched == []
    assert all(f.status == "confirmed" for f in report.findings if f.section == "check")


def test_ex_layer_norm_scale_slip_is_the_block_chapters_one_mismatch():
    """The one slip, 1.1428 printed for 8/7, is reported by the example's check and by the
    claim that states it, at its line; the relation has that one verdict (the equality
    rule leaves the rounding of the numbers the check reads to the check), and nothing
    else is mismatched."""
    report = report_of("transformer-block")
    check, norm = sorted(report.mismatched, key=lambda f: f.section)
    assert (check.section, check.ref, check.line) == ("check", "ex-layer-norm-scale", 114)
    assert "prints 1.1428" in check.detail and "rounds to 1.1429" in check.detail
    assert (norm.section, norm.ref, norm.line) == ("claim", "ex-layer-norm-scale", 114)
    assert "1.1428" in norm.text and "rounds to 1.1429" in norm.detail
    on_its_line = [f for f in report.findings if f.line == 114 and "1.1428" in f.text]
    assert {f.status for f in on_its_line} == {"mismatched"}


EXAMPLE = '# T\n\n<Example id="{id}" title="x">\n\nthe value is 1.25.\n\n</Example>\n'


@pytest.fixture
def planted_example(tmp_path, monkeypatch):
    """A small MDX file holding one example, and a way to give that example another check."""
    id_ = next(e.id for e in load_all().values() if e.kind == "example")
    path = tmp_path / "one.mdx"
    path.write_text(EXAMPLE.format(id=id_), encoding="utf-8")

    def audit_with(check) -> list[audit.Finding]:
        monkeypatch.setitem(REGISTRY, id_, replace(REGISTRY[id_], check=check, claims=()))
        return [f for f in audit.audit_file(path).findings if f.section == "check"]

    return audit_with


def test_audit_reports_a_failing_example_check_as_mismatched(planted_example):
    def wrong() -> list[str]:
        raise CheckFailed("printed 1.25, computed 1.5")

    (found,) = planted_example(wrong)
    assert (found.status, found.line) == ("mismatched", 3)
    assert found.detail == "the check fails: printed 1.25, computed 1.5"


def test_audit_reports_a_finding_at_the_line_printing_its_number(planted_example):
    def slip() -> list:
        return ["exact value 5/4", finding("1.25", "the chapter prints 1.25 where 1.26 is right")]

    (found,) = planted_example(slip)
    assert (found.status, found.line) == ("mismatched", 5)
    assert found.detail == "the chapter prints 1.25 where 1.26 is right"


def test_audit_reports_a_check_that_raises_as_not_checkable(planted_example):
    def broken() -> list[str]:
        raise ZeroDivisionError("division by zero")

    (found,) = planted_example(broken)
    assert found.status == "not checkable"
    assert found.detail == "the check raised ZeroDivisionError: division by zero"


def test_audit_confirms_a_passing_example_check(planted_example):
    (found,) = planted_example(lambda: ["exact value 5/4"])
    assert found.status == "confirmed" and found.detail.startswith("the check passed in ")


def test_the_elements_tally_counts_each_elements_bound_relations_and_claims():
    tallies = {t.id: t for t in report_of("self-attention").elements}
    jacobian = tallies["prop-softmax-jacobian"]
    assert jacobian.number == "命題 3.2"
    assert jacobian.bound == jacobian.relations > 0
    assert jacobian.claims["mismatched"] == 0 and jacobian.claims["confirmed"] >= jacobian.bound
    assert "statement relations" in jacobian.to_text()
    assert len(tallies) == len([e for e in load_all().values() if e.chapter == "self-attention"])


def test_the_elements_tally_shows_a_slip_in_its_element(tmp_path):
    text = chapter("self-attention").read_text(encoding="utf-8")
    changed = tmp_path / "chapter.mdx"
    changed.write_text(
        text.replace(r"\sigma_i(\delta_{ij} - \sigma_j)", r"\sigma_i(\delta_{ij} + \sigma_j)", 1),
        encoding="utf-8",
    )
    tallies = {t.id: t for t in audit.audit_file(changed).elements}
    assert tallies["prop-softmax-jacobian"].claims["mismatched"] >= 1
    assert tallies["prop-softmax-basic"].claims["mismatched"] == 0
