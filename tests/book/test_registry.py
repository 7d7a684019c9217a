"""The registry: every element of both chapters, found by id, number or chapter."""

import re

import pytest
from places import SEEDS

from proofs.book import registry as registry_module
from proofs.book.judge import finding
from proofs.book.registry import (
    CHAPTERS,
    KINDS,
    METHODS,
    Chapter,
    RegisteredElement,
    find,
    load_all,
    nearest_ids,
    run_check,
)

ROW = re.compile(r"^\| (\S+ [\dA-Z.]+) \| ((?:def|prop|lem|thm|cor|ex|rem|exr)-[a-z0-9-]+) \|")


def seed_rows() -> list[tuple[str, str, str]]:
    """(chapter key, number, id) for every row of the seeds' README tables."""
    readme = SEEDS / "README.md"
    if not readme.is_file():
        pytest.skip(f"{readme} is not here: the chapters' element list cannot be read")
    rows, chapter = [], None
    for line in readme.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            chapter = "self-attention" if "Self-attention" in line else "transformer-block"
        match = ROW.match(line)
        if match and chapter:
            rows.append((chapter, match.group(1), match.group(2)))
    return rows


def test_every_seed_element_is_registered_with_its_number_and_chapter():
    registry = load_all()
    rows = seed_rows()
    assert len(rows) == 47
    for chapter, number, id_ in rows:
        assert id_ in registry, id_
        assert registry[id_].number == number, id_
        assert registry[id_].chapter == chapter, id_


def test_registered_elements_are_well_formed():
    for entry in load_all().values():
        assert entry.kind in KINDS
        assert set(entry.methods) <= set(METHODS)
        assert entry.chapter in CHAPTERS
        assert entry.description


def test_find_by_id_accepts_hyphens_and_underscores():
    assert [e.id for e in find("prop-softmax-jacobian")] == ["prop-softmax-jacobian"]
    assert [e.id for e in find("prop_softmax_jacobian")] == ["prop-softmax-jacobian"]


def test_find_by_number_is_qualified_by_chapter_when_ambiguous():
    both = {e.id for e in find("命題 3.3")}
    assert both == {"prop-mask-as-limit", "prop-layer-norm-jacobian"}
    assert [e.id for e in find("命題 3.3［自己注意］")] == ["prop-mask-as-limit"]
    assert [e.id for e in find("命題 3.3［Transformer ブロック］")] == ["prop-layer-norm-jacobian"]
    assert [e.id for e in find("補題 A.1")] == ["lem-product-expectation"]


def test_find_by_chapter_lists_the_whole_chapter():
    assert len(find("self-attention")) == 26
    assert len(find("transformer-block")) == 21


def test_find_unknown_is_empty_and_nearest_ids_suggest():
    assert find("prop-softmax-jacobean") == []
    assert nearest_ids("prop-softmax-jacobean")[0] == "prop-softmax-jacobian"


def test_element_rejects_bad_registrations():
    chapter = Chapter("test-chapter", "test.mdx", "テスト", "テスト")
    with pytest.raises(ValueError, match="kind"):
        chapter.element("x-y", "命題 1.1", "t", "conjecture", ("symbolic",))
    with pytest.raises(ValueError, match="methods"):
        chapter.element("x-y", "命題 1.1", "t", "proposition", ("guess",))
    with pytest.raises(ValueError, match="docstring"):
        chapter.element("x-y", "命題 1.1", "t", "proposition", ("symbolic",))(lambda: [])

    def helper() -> list[str]:
        """A helper that found itself under the decorator."""
        return []

    with pytest.raises(ValueError, match="the check of 'x-y' must be named x_y, got 'helper'"):
        chapter.element("x-y", "命題 1.1", "t", "proposition", ("symbolic",))(helper)
    with pytest.raises(ValueError, match="key"):
        Chapter("Test Chapter", "test.mdx", "テスト", "テスト")


@pytest.mark.parametrize("name", ["softmax-jacobian-2", "Softmax", "softmax_jacobian", "-x"])
def test_a_formula_name_that_cannot_name_a_latex_macro_is_refused(name):
    chapter = Chapter("test-chapter", "test.mdx", "テスト", "テスト")
    with pytest.raises(ValueError, match=f"formula name .* LaTeX macro.*got '{name}'"):
        chapter.formula(name, "命題 1.1", "t")


def test_every_registered_formula_name_is_a_macro_name():
    from proofs.book.registry import formulas
    from proofs.publish.latex_files import macro_name

    macros = [macro_name(name) for name in formulas()]
    assert all(re.fullmatch(r"[A-Z][A-Za-z]*", m) for m in macros)
    assert len(set(macros)) == len(macros) and "SoftmaxJacobianTwo" in macros


def test_a_checks_findings_are_kept_apart_from_its_evidence_lines():
    slip = finding("1.1428", "the chapter prints 1.1428 for 8/7")
    element = RegisteredElement(
        "zz-findings",
        "例 99.1",
        "planted",
        "self-attention",
        "example",
        ("symbolic",),
        "-",
        lambda: ["J1 = 0 exactly", slip],
    )
    run = run_check(element)
    assert (run.result, run.evidence, run.findings) == ("passed", ("J1 = 0 exactly",), (slip,))
    assert (slip.printed, str(slip)) == ("1.1428", "the chapter prints 1.1428 for 8/7")


def test_a_chapter_installed_on_the_import_path_is_found_at_the_next_look(tmp_path, monkeypatch):
    """The entry points are read once per state of the import path, and again when a folder
    of it changes (a distribution installed there)."""
    monkeypatch.syspath_prepend(str(tmp_path))
    before = list(registry_module.chapter_modules())
    assert "kv_cache_module" not in before
    assert list(registry_module.chapter_modules()) == before  # the same state: the same answer
    info = tmp_path / "kv_cache_chapter-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kv-cache-chapter\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[transformer_proofs.chapters]\nkv-cache = kv_cache_module\n"
    )
    assert list(registry_module.chapter_modules()) == [*before, "kv_cache_module"]


def test_a_check_refuses_its_claims_by_position_and_names_them():
    from proofs.chapters.transformer_block.parameters import thm_transformer_parameters

    with pytest.raises(TypeError, match=r"takes its claims by keyword \(thm_transformer_param"):
        thm_transformer_parameters(1)
