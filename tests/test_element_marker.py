"""`pytest -k <id>` selects every test of an element: those named after it and those
marked `@pytest.mark.element(<id>)` (tests/conftest.py adds the id to their keywords)."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

import early
import pytest

from tests.conftest import pytest_collection_modifyitems

SELECTIONS = {  # each test's -k expression and the files it collects from
    "test_k_of_an_id_selects_the_50_digit_test_of_the_numeric_jacobian": (
        "prop_softmax_jacobian",
        "tests/numeric/test_softmax.py",
        "tests/chapters/self_attention/test_softmax.py",
    ),
    "test_k_ex_scaling_numeric_selects_the_test_of_the_printed_table": (
        "ex_scaling_numeric",
        "tests/typeset/test_tables.py",
    ),
    "test_k_def_layer_norm_selects_the_numeric_tests_but_not_the_jacobians": (
        "def_layer_norm",
        "tests/numeric/test_layer_norm.py",
    ),
}
COLLECTIONS = "the collections of -k <id>"


def collection(expression: str, *files: str) -> subprocess.CompletedProcess:
    """`pytest --co -q -k expression` of the given test files."""
    return early.run_pytest("--co", "-k", expression, *files)


@early.job(COLLECTIONS)
def collections(items: Sequence[pytest.Item]) -> dict[str, subprocess.CompletedProcess]:
    """Each selected test's collection, by the test's name."""
    return {item.name: collection(*SELECTIONS[item.name]) for item in items}


def selected(request: pytest.FixtureRequest) -> set[str]:
    """The node ids the requesting test's collection kept."""
    run = early.result(COLLECTIONS)[request.node.name]
    assert run.returncode == 0, run.stdout + run.stderr
    return {line for line in run.stdout.splitlines() if "::" in line}


@pytest.mark.early(COLLECTIONS)
def test_k_of_an_id_selects_the_50_digit_test_of_the_numeric_jacobian(request):
    # named without the id, so that `-k prop_softmax_jacobian` does not run this subprocess
    got = selected(request)
    marked = {node for node in got if node.startswith("tests/numeric/test_softmax.py")}
    assert marked == {
        "tests/numeric/test_softmax.py::test_softmax_jacobian_matches_50_digit_derivative",
        "tests/numeric/test_softmax.py::test_softmax_jacobian_is_vectorised_and_keeps_float32",
    }
    named = got - marked  # the check's own tests, named after it
    section = "tests/chapters/self_attention/test_softmax.py"  # the check's section file
    assert f"{section}::test_prop_softmax_jacobian_holds" in named
    assert all("::test_prop_softmax_jacobian_" in node for node in named)


@pytest.mark.element("ex-scaling-numeric")
@pytest.mark.early(COLLECTIONS)
def test_k_ex_scaling_numeric_selects_the_test_of_the_printed_table(request):
    got = selected(request)
    assert got == {
        "tests/typeset/test_tables.py::test_scaling_table_equals_the_chapters_cell_for_cell",
        "tests/typeset/test_tables.py::test_scaling_table_listing_lines_are_the_chapters",
        "tests/typeset/test_tables.py::test_scaling_table_drawn_in_pieces_is_bit_for_bit_the_whole_draw",
        "tests/typeset/test_tables.py::test_scaling_table_kept_between_runs_is_the_table_drawn",
    }


@pytest.mark.element("def-layer-norm")
@pytest.mark.early(COLLECTIONS)
def test_k_def_layer_norm_selects_the_numeric_tests_but_not_the_jacobians(request):
    got = selected(request)
    assert "tests/numeric/test_layer_norm.py::test_layer_norm_is_applied_to_each_row" in got
    assert not any("jacobian" in node for node in got)
    assert len(got) == 14  # 8 tests, 6 of them in two or more parametrisations


class Item:
    """What the hook reads and writes of a collected test."""

    def __init__(self, name: str, *marks: pytest.MarkDecorator) -> None:
        self.name, self.nodeid = name, f"tests/test_x.py::{name}"
        self.marks = [m.mark for m in marks]
        self.extra_keyword_matches: set[str] = set()

    def iter_markers(self, name: str):
        return (m for m in self.marks if m.name == name)

    def add_marker(self, mark: pytest.MarkDecorator) -> None:
        self.marks.append(mark.mark)


def test_a_test_named_after_an_element_is_marked_with_it():
    item = Item("test_def_softmax_holds")
    pytest_collection_modifyitems(None, [item])
    assert [m.args for m in item.iter_markers("element")] == [("def-softmax",)]
    assert item.extra_keyword_matches == {"def-softmax", "def_softmax"}


def test_a_marked_test_gets_both_spellings_of_each_id():
    item = Item("test_anything", pytest.mark.element("def-attention", "rem-cross-attention"))
    pytest_collection_modifyitems(None, [item])
    assert item.extra_keyword_matches == {
        "def-attention",
        "def_attention",
        "rem-cross-attention",
        "rem_cross_attention",
    }


def test_an_unknown_element_id_is_a_usage_error():
    with pytest.raises(pytest.UsageError, match=r"unknown element ids \['no-such-element'\]"):
        pytest_collection_modifyitems(
            None, [Item("test_x", pytest.mark.element("no-such-element"))]
        )
