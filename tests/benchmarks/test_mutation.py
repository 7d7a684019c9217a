"""The mutation-testing harness (benchmarks/mutation.py): which edits it makes, where it
applies them in place, and which tests it picks for each."""

import ast
import dataclasses
import types

from benchmarks import mutation

SOURCE = '''\
LIMIT = 3


def scaled(x, k=2):
    """Doc."""
    return x * k + (1 if
                    x < LIMIT else 0)


class Row:
    @staticmethod
    def total(a, b):
        return not a and b
'''


def describe(source: str) -> list[tuple[int, int, str, str | None]]:
    return [
        (m.line, m.statement, m.description, m.function) for m in mutation.mutants("m.py", source)
    ]


def test_every_edit_of_a_small_module_with_its_statement_line_and_function():
    assert describe(SOURCE) == [
        (1, 1, "3 -> 4", None),
        (1, 1, "3 -> 2", None),
        (4, 4, "2 -> 3", None),
        (4, 4, "2 -> 1", None),  # a default: not in place
        (6, 6, "Add -> Sub", "scaled"),
        (6, 6, "a ± b -> a", "scaled"),
        (6, 6, "Mult -> Div", "scaled"),
        (13, 13, "And -> Or", "Row.total"),
        (7, 6, "Lt -> LtE", "scaled"),  # coverage's line is 6
        (6, 6, "1 -> 2", "scaled"),
        (6, 6, "1 -> 0", "scaled"),
        (7, 6, "0 -> 1", "scaled"),
        (7, 6, "0 -> -1", "scaled"),
        (13, 13, "not a -> a", "Row.total"),
    ]


def test_mutated_applies_exactly_one_edit():
    edits = mutation.mutants("m.py", SOURCE)
    assert "x * k - (1 if x < LIMIT else 0)" in mutation.mutated(SOURCE, edits[4])
    assert "return x * k\n" in mutation.mutated(SOURCE, edits[5])
    assert "x <= LIMIT" in mutation.mutated(SOURCE, edits[8])
    assert "return a and b" in mutation.mutated(SOURCE, edits[13])
    assert all(mutation.mutated(SOURCE, m) != ast.unparse(ast.parse(SOURCE)) for m in edits)


def test_a_mutated_function_is_swapped_in_place_through_static_methods():
    module = types.ModuleType("m")
    module.__file__ = "m.py"
    exec(compile(SOURCE, "m.py", "exec"), module.__dict__)
    live = mutation._live_functions(module)
    assert sorted(live) == ["Row.total", "scaled"]
    edit = mutation.mutants("m.py", SOURCE)[13]
    code = mutation._code_named(
        compile(mutation.mutated(SOURCE, edit), "m.py", "exec"), "Row.total"
    )
    assert module.Row.total(True, 5) is False
    for function in live["Row.total"]:
        function.__code__ = code
    assert module.Row.total(True, 5) == 5


def test_a_coverage_context_becomes_the_test_node():
    context = "tests.benchmarks.test_mutation.test_mutated_applies_exactly_one_edit"
    assert (
        mutation._node_id(context)
        == "tests/benchmarks/test_mutation.py::test_mutated_applies_exactly_one_edit"
    )
    assert mutation._node_id("test_files.test_x") == "tests/test_files.py::test_x"  # by its stem
    assert mutation._node_id("") is None
    assert mutation._node_id("no_such_file.test_x") is None


def test_selection_runs_the_own_files_first_then_the_covering_tests():
    source = (mutation.ROOT / "numeric/softmax.py").read_text(encoding="utf-8")
    edit = next(m for m in mutation.mutants("numeric/softmax.py", source) if m.function)
    lines = {
        edit.statement: [
            "tests.numeric.test_softmax.test_a",
            "tests.numeric.test_model.test_b",
            "tests.audit.test_slips.test_c",
            "tests.numeric.test_model.test_renamed",
            "",
        ]
    }
    known = {"tests/numeric/test_model.py::test_b", "tests/audit/test_slips.py::test_c"}
    assert mutation.selection(edit, lines, known) == [
        "numeric/softmax.py",
        "tests/numeric/test_softmax.py",
        "tests/numeric/test_bad_input.py",
        "tests/numeric/test_model.py::test_b",
    ]
    module_level = dataclasses.replace(edit, function=None)
    assert mutation.selection(module_level, {}, known) == [
        "numeric/softmax.py",
        "tests/numeric/test_softmax.py",
        "tests/numeric/test_bad_input.py",
    ]


def test_an_edited_module_keeps_the_tests_of_its_unchanged_lines():
    old = "a = 1\nb = 2\nc = 3\n"
    new = "a = 1\nx = 0\nb = 2\nc = 4\n"
    lines = {1: ["t.test_a"], 2: ["t.test_b"], 3: ["t.test_c"]}
    assert mutation.carried_lines(old, new, lines) == {1: ["t.test_a"], 3: ["t.test_b"]}


def test_the_collected_tests_are_function_node_ids_without_parameters():
    known = mutation.collected_tests()
    assert "tests/benchmarks/test_mutation.py::test_mutated_applies_exactly_one_edit" in known
    assert not any("[" in name for name in known)


def test_every_equivalent_mutant_listed_is_a_mutant_of_its_module_as_it_stands():
    for module in {key[0] for key in mutation.EQUIVALENT}:
        source = (mutation.ROOT / module).read_text(encoding="utf-8")
        lines = source.splitlines()
        keys = {
            (module, lines[m.line - 1].strip(), m.description)
            for m in mutation.mutants(module, source)
        }
        assert {key for key in mutation.EQUIVALENT if key[0] == module} <= keys, module
