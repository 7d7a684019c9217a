"""What each feature of the language server answers, on the small chapters written for the
tests (tests/samples): the diagnostics' ranges, severities and codes, the related lines,
the suppression comment and the baseline entry the code actions insert, hovers on a
number, the outline, and the positions and edits of the document store."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from places import SAMPLES

pytest.importorskip("lsprotocol", reason="needs the editor extra: pip install '.[editor]'")
from lsprotocol import types  # noqa: E402

from proofs.audit.findings import Finding, Section, Severity, Status  # noqa: E402
from proofs.audit.reports.baseline import baseline_text, entry  # noqa: E402
from proofs.book.registry import load_all  # noqa: E402
from proofs.lsp import actions, hover, symbols  # noqa: E402
from proofs.lsp.diagnostics import (  # noqa: E402
    code_description,
    code_of,
    diagnostics,
    related_lines,
)
from proofs.lsp.incremental import Analysis, Auditor  # noqa: E402
from proofs.lsp.positions import Lines, OutOfRange, encoding_name, units  # noqa: E402
from proofs.lsp.store import Store, StoreError  # noqa: E402

MDX = (SAMPLES / "chapter.mdx").read_text(encoding="utf-8")
# the MDX sample with two slips: 命題 1.2 states f(0) = 2, its proof 0 + 1 = 2
SLIPPED = MDX.replace("$f(0) = 1$ である", "$f(0) = 2$ である").replace(
    "$f(0) = 0 + 1 = 1$", "$f(0) = 0 + 1 = 2$"
)
RENDERED = (SAMPLES / "chapter.txt").read_text(encoding="utf-8")


def analysed(text: str, uri: str = "file:///book/c.mdx") -> Analysis:
    return Auditor().analyse(Store().open(uri, 1, text))


def shown(text: str, r: types.Range) -> str:
    assert r.start.line == r.end.line
    return text.splitlines()[r.start.line][r.start.character : r.end.character]


def test_each_finding_is_a_diagnostic_from_its_column_to_the_end_of_what_it_quotes():
    found = diagnostics(analysed(SLIPPED))
    errors = [d for d in found if d.severity == types.DiagnosticSeverity.Error]
    assert [(d.code, d.range.start.line, shown(SLIPPED, d.range)) for d in errors] == [
        ("EQ004", 18, "f(0) = 2"),
        ("EQ001", 24, "0 + 1 = 2"),
    ]
    notices = {d.code for d in found if d.severity == types.DiagnosticSeverity.Information}
    assert notices == {"ELT001", "OUT001"}  # its table is f(x), as its definition gives


def test_a_heuristics_slip_is_a_warning_not_an_error():
    slipped = MDX + "\n事実を 4 つ確認しておきます。\n\n- 一つ。\n- 二つ。\n- 三つ。\n"
    announced = len(MDX.splitlines()) + 1
    found = [d for d in diagnostics(analysed(slipped)) if d.range.start.line == announced]
    assert [(d.severity, d.code) for d in found] == [(types.DiagnosticSeverity.Warning, "CNT001")]


def errors_under(settings: str, folder) -> list[tuple[str, str]]:
    """The codes and messages of the errors and warnings of the slipped sample as a file
    of `folder`, under these [tool.proofs] settings."""
    (folder / "pyproject.toml").write_text(f"[tool.proofs]\n{settings}\n", encoding="utf-8")
    found = diagnostics(analysed(SLIPPED, (folder / "c.mdx").as_uri()))
    weighed = (types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning)
    return [(str(d.code), d.message) for d in found if d.severity in weighed]


def test_the_rules_the_settings_leave_out_are_not_shown(tmp_path):
    assert [code for code, _ in errors_under("", tmp_path)] == ["EQ004", "EQ001"]
    assert [code for code, _ in errors_under('ignore = ["EQ001"]', tmp_path)] == ["EQ004"]
    per_file = 'per-file-ignores = { "c.mdx" = ["EQ004"] }'
    assert [code for code, _ in errors_under(per_file, tmp_path)] == ["EQ001"]
    assert [code for code, _ in errors_under('select = ["TAB"]', tmp_path)] == []
    ignored = analysed(SLIPPED, (tmp_path / "c.mdx").as_uri())
    assert hover.number_hover(ignored, 19, 3) is None  # examined by EQ004, left out


def test_settings_that_name_no_rule_are_said_and_leave_every_finding_shown(tmp_path):
    found = errors_under('ignore = ["EQ01"]', tmp_path)
    assert [code for code, _ in found] == ["settings", "EQ004", "EQ001"]
    assert "[tool.proofs] ignore: 'EQ01' is no rule's code nor a prefix of codes" in found[0][1]


def test_each_findings_severity_is_its_diagnostics():
    analysis = analysed(MDX)
    assert analysis.report is not None
    made = [
        Finding(Section.EQUALITY, 19, "f(0) = 1", Status.MISMATCHED, "left 2", code="EQ001"),
        Finding(
            Section.RESTATED,
            19,
            "1",
            Status.MISMATCHED,
            "at line 31",
            severity=Severity.WARNING,
            code="RST001",
        ),
        Finding(Section.EQUALITY, 19, "f(0) = 1", Status.NOT_CHECKABLE, "not read", code="EQ001"),
        Finding(Section.EQUALITY, 19, "f(0) = 1", Status.CONFIRMED, "equal", code="EQ001"),
    ]
    report = replace(analysis.report, findings=made)
    found = diagnostics(replace(analysis, report=report))
    assert [(d.severity, d.code) for d in found] == [
        (types.DiagnosticSeverity.Error, "EQ001"),
        (types.DiagnosticSeverity.Warning, "RST001"),
        (types.DiagnosticSeverity.Information, "EQ001"),
    ]


def test_code_of_is_the_rules_code_else_its_section():
    plain = Finding(Section.EQUALITY, 1, "1 = 2", Status.MISMATCHED, "differ")
    assert code_of(plain) == "equality"
    assert code_of(replace(plain, code="EQ001")) == "EQ001"


def test_a_code_links_to_its_entry_on_the_rules_page_only_where_the_page_has_one(tmp_path):
    page = tmp_path / "rules.md"
    page.write_text("# Rules\n\n### EQ001\n\nequalities\n\n## EQ002\n", encoding="utf-8")
    described = code_description("EQ001", page)
    assert described is not None
    assert described.href == page.as_uri() + "#eq001"
    assert code_description("EQ002", page) is None  # no rule's heading
    assert code_description("EQ003", page) is None
    assert code_description("EQ001", tmp_path / "absent.md") is None


def test_the_lines_a_detail_names_are_related():
    document = analysed(MDX).document
    assert document is not None
    finding = Finding(
        Section.RESTATED, 19, "1", Status.MISMATCHED, "which the chapter prints at lines 25, 31"
    )
    assert related_lines(finding, document) == [
        (25, "named by the finding"),
        (31, "named by the finding"),
    ]


def edited(text: str, action: types.CodeAction) -> str:
    assert action.edit is not None and action.edit.document_changes is not None
    (change,) = action.edit.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    (edit,) = change.edits
    lines = Lines(text)
    start = lines.offset(edit.range.start.line, edit.range.start.character)
    end = lines.offset(edit.range.end.line, edit.range.end.character)
    return text[:start] + edit.new_text + text[end:]


def suppressing(text: str, finding: Finding) -> str | None:
    """The text with the suppression of the finding inserted; None when none is offered."""
    action = actions.suppression_action(analysed(text), finding)
    return None if action is None else edited(text, action)


def mismatch(line: int, code: str = "EQ001") -> Finding:
    return Finding(Section.EQUALITY, line, "1 = 2", Status.MISMATCHED, "differ", code=code)


def test_a_suppression_goes_on_its_own_line_before_a_finding_after_a_blank_line():
    done = suppressing(MDX, mismatch(19))
    assert done is not None
    assert done.splitlines()[17:20] == [
        "",
        "{/* proofs: ignore[EQ001] reason */}",
        "$f(0) = 1$ である。",
    ]


def test_a_suppression_goes_at_the_end_of_a_line_that_continues_a_block():
    done = suppressing(MDX, mismatch(32, "TAB001"))
    assert done is not None
    assert done.splitlines()[31] == "| 2 | 3 {/* proofs: ignore[TAB001] reason */} |"
    table = analysed(done).document
    assert table is not None and table.tables == analysed(MDX).document.tables
    joined = MDX.replace("と定める。", "と定める。\n$1 + 1 = 3$ です。")
    done = suppressing(joined, mismatch(14))
    assert done is not None
    assert done.splitlines()[13] == "$1 + 1 = 3$ です。 {/* proofs: ignore[EQ001] reason */}"
    after = analysed(done).report
    assert after is not None
    assert [(f.code, f.line, line) for f, line, _ in after.suppressed] == [("EQ001", 14, 14)]


def test_no_suppression_where_the_audit_reads_none():
    assert suppressing(MDX, mismatch(10)) is None  # the TeX of a display
    assert suppressing(MDX, mismatch(11)) is None  # its closing $$
    assert suppressing(MDX, mismatch(52, "OUT001")) is None  # a listing's output
    assert suppressing(MDX, mismatch(19, "")) is None  # no rule's code
    assert suppressing(MDX, mismatch(19, "SUP001")) is None  # about a suppression
    rendered = analysed(RENDERED, "file:///c.txt")
    assert actions.suppression_action(rendered, mismatch(5)) is None


def test_a_suppression_inserted_keeps_out_its_finding_and_no_other():
    analysis = analysed(SLIPPED)
    assert analysis.report is not None
    equality = next(f for f in analysis.report.findings if f.code == "EQ001" and f.fails)
    done = suppressing(SLIPPED, equality)
    assert done is not None
    after = analysed(done).report
    assert after is not None
    assert [(f.code, f.line) for f in after.mismatched] == [("EQ004", 19)]
    assert [(f.code, f.line, line) for f, line, _ in after.suppressed] == [
        ("EQ001", equality.line + 1, equality.line)
    ]


def test_a_mismatch_accepted_creates_the_baseline_then_extends_it(tmp_path):
    uri = (tmp_path / "c.mdx").as_uri()
    analysis = analysed(SLIPPED, uri)
    assert analysis.report is not None and analysis.document is not None
    first, second = analysis.report.mismatched
    created = actions.baseline_action(analysis, first, lambda uri: None, can_create=True)
    assert created is not None and created.edit is not None
    create, write = created.edit.document_changes or []
    assert isinstance(create, types.CreateFile)
    assert create.uri == (tmp_path / "audit-baseline.json").as_uri()
    assert isinstance(write, types.TextDocumentEdit)
    made = write.edits[0].new_text
    assert made == baseline_text([entry(analysis.report, analysis.document, first)])
    assert [e["code"] for e in json.loads(made)["accepted"]] == [first.code]
    assert not (tmp_path / "audit-baseline.json").exists()
    assert actions.baseline_action(analysis, first, lambda uri: None, can_create=False) is None
    (tmp_path / "audit-baseline.json").write_text(made, encoding="utf-8")
    extended = actions.baseline_action(analysis, second, lambda uri: None, can_create=True)
    assert extended is not None and extended.edit is not None
    (change,) = extended.edit.document_changes or []
    assert isinstance(change, types.TextDocumentEdit)
    accepted = json.loads(change.edits[0].new_text)["accepted"]
    assert [e["found"] for e in accepted] == ["0 + 1 = 2", "f(0) = 2"]
    confirmed = next(f for f in analysis.report.findings if f.status == Status.CONFIRMED)
    assert actions.baseline_action(analysis, confirmed, lambda uri: None, True) is None


def test_a_baseline_keyed_by_section_is_not_extended(tmp_path):
    analysis = analysed(SLIPPED, (tmp_path / "c.mdx").as_uri())
    assert analysis.report is not None
    old = {"chapter": "", "section": "equality", "element": "prop-shift-value", "found": "x"}
    text = json.dumps({"accepted": [old]})
    (tmp_path / "audit-baseline.json").write_text(text, encoding="utf-8")
    first = analysis.report.mismatched[0]
    assert actions.baseline_action(analysis, first, lambda uri: None, True) is None


def test_the_actions_of_the_kinds_asked_for():
    fix = types.CodeAction("sync", kind=types.CodeActionKind.QuickFix)
    every = types.CodeAction("sync all", kind=actions.FIX_ALL)
    assert actions.of_kinds([fix, every], None) == [fix, every]
    assert actions.of_kinds([fix, every], [types.CodeActionKind.Source]) == [every]
    assert actions.of_kinds([fix, every], ["source.fixAll"]) == [every]
    assert actions.of_kinds([fix, every], [types.CodeActionKind.QuickFix]) == [fix]
    assert actions.of_kinds([fix, every], ["quick"]) == []


def test_a_hover_on_a_number_no_rule_reads_says_why_and_what_would_make_it_checkable():
    prose = MDX + "\n幅は 7 です。\n"  # a number of prose that no relation reads
    said = hover.number_hover(analysed(prose), len(prose.splitlines()), 3)
    assert said is not None
    assert said.startswith("**not examined**: 7 — a quantity in prose, where no relation reads it")
    assert "to make it checkable: write the relation it takes part in" in said
    judged = hover.number_hover(analysed(SLIPPED), 19, 3)
    assert judged is not None and judged.startswith("**equality** (`EQ004`) · mismatched")


def test_an_element_no_package_registers_says_so_on_hover():
    analysis = analysed(MDX)
    found = hover.element_at(analysis, 17)
    assert found is not None
    record, element = found
    assert element is None
    assert "no check: no package of checks registers this element" in hover.element_hover(
        record, element, None
    )


def test_ex_layer_norm_scale_not_run_on_the_chapter_says_why_on_hover():
    analysis = analysed(RENDERED, "file:///c.txt")
    assert analysis.document is not None
    record = analysis.document.elements[0]
    element = load_all()["ex-layer-norm-scale"]
    why = "the check reads the squares, which the chapter no longer states where it did"
    said = hover.element_hover(record, element, why)
    assert f"check: **not run on the chapter**: {why} · methods: " in said
    assert "passed" not in said


def test_the_outline_is_the_sections_and_their_elements():
    outline = symbols.document_symbols(analysed(RENDERED, "file:///c.txt"))
    assert [(s.name, [c.name for c in s.children or []]) for s in outline] == [
        ("1. 準備", ["定義 1.1（ずらし）", "命題 1.2（ずらしの値）"]),
        ("2. 演習", ["演習 2.1"]),
    ]


def test_an_edit_spanning_lines_and_the_copy_out_of_step_until_the_whole_text():
    store = Store()
    store.open("file:///c.txt", 1, "ab\ncd\nef\n")
    assert store.change("file:///c.txt", 2, [((0, 1), (2, 1), "X")]).text == "aXf\n"
    with pytest.raises(StoreError, match="past the line's end"):
        store.change("file:///c.txt", 3, [((0, 9), (0, 9), "x")])
    assert store.change("file:///c.txt", 4, [((0, 0), (0, 0), "y")]).out_of_step
    assert store.change("file:///c.txt", 5, ["whole\n"]).out_of_step == ""


def test_the_encoding_the_client_chose_counts_the_columns():
    assert encoding_name(types.PositionEncodingKind.Utf8) == "utf-8"
    assert encoding_name(types.PositionEncodingKind.Utf16) == "utf-16"
    assert encoding_name(None) == "utf-16"
    assert Lines("命題 𝑥 = 1", "utf-8").position(1, 6) == (0, 12)
    assert Lines("命題 𝑥 = 1", "utf-16").position(1, 6) == (0, 6)


def test_a_position_past_the_text_is_refused():
    lines = Lines("a\nb")
    with pytest.raises(OutOfRange, match="outside the document"):
        lines.offset(2, 0)
    assert lines.offset(1, 1) == 3


TEXTS = st.text(alphabet="a日𝑥\r\n\u2028\x0c", max_size=30)


@given(TEXTS, st.data())
def test_an_editor_position_and_its_offset_meet(text, data):
    lines = Lines(text)
    line = data.draw(st.integers(0, lines.count - 1))
    shown = lines.editor_line(line)
    k = data.draw(st.integers(0, len(shown)))
    offset = lines.offset(line, units(shown[:k]))
    assert lines.at_offset(offset) == (line, units(shown[:k]))


@given(TEXTS, st.data())
def test_the_readers_line_and_column_and_the_editors_meet(text, data):
    lines = Lines(text)
    reader = text.splitlines()
    if not reader:
        return
    line = data.draw(st.integers(1, len(reader)))
    column = data.draw(st.integers(1, len(reader[line - 1]) + 1))
    assert lines.reader_position(*lines.position(line, column)) == (line, column - 1)
