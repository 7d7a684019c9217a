"""The suite's shape: its folders mirror the packages (a room of proofs/, or cache, spec,
symbolic, numeric, benchmarks), a chapter's tests sit in the file of the section module that
registers each element (tests/chapters/self_attention/test_softmax.py for
proofs/chapters/self_attention/softmax.py), no test name is defined twice, and a test's
name carries at most one element id, so that `pytest -k <id>` selects exactly that
element's tests. And the packages' layers: what each may import."""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from places import ROOT, TESTS

from proofs.book.registry import load_all

INPUTS = {"samples", "corpus", "mdx"}  # what the tests read, not tests
PACKAGES = {"cache", "spec", "symbolic", "numeric", "benchmarks"}  # beside proofs/'s rooms
# what each package may import besides the standard library: spec/ and cache/ nothing (any
# package may use them), symbolic/ SymPy and never NumPy, numeric/ NumPy and never SymPy
LAYERS = {
    "spec": {"spec"},
    "cache": {"cache"},
    "symbolic": {"symbolic", "spec", "cache", "sympy"},
    "numeric": {"numeric", "spec", "numpy", "scipy", "safetensors"},
}


def suite_files() -> list[Path]:
    """Every Python file of the suite, its inputs left out."""
    return sorted(
        path for path in TESTS.rglob("test_*.py") if not INPUTS & set(path.relative_to(TESTS).parts)
    )


def defined_tests(path: Path) -> list[str]:
    """The test functions pytest collects from a file: at its top level and in its classes."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    nodes = [*body, *(n for c in body if isinstance(c, ast.ClassDef) for n in c.body)]
    return [
        n.name
        for n in nodes
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("test_")
    ]


def section_file(element) -> Path:
    """Where an element's tests live: proofs.chapters.<chapter>.<module> registers it."""
    _, _, chapter, module = element.check.__module__.split(".")
    return TESTS / "chapters" / chapter / f"test_{module}.py"


def test_no_test_name_is_defined_twice():
    files = defaultdict(list)
    for path in suite_files():
        for name in defined_tests(path):
            files[name].append(path.relative_to(ROOT).as_posix())
    assert {name: where for name, where in files.items() if len(where) > 1} == {}


def test_every_folder_of_tests_mirrors_a_package():
    for path in suite_files():
        folder = path.parent.relative_to(TESTS).parts
        if not folder:
            continue
        if folder[0] == "chapters":
            assert len(folder) == 2 and (ROOT / "proofs" / "chapters" / folder[1]).is_dir(), path
            assert (ROOT / "proofs" / "chapters" / folder[1] / path.name[5:]).is_file(), path
        else:
            assert len(folder) == 1, path
            assert folder[0] in PACKAGES or (ROOT / "proofs" / folder[0]).is_dir(), path


@pytest.mark.parametrize("chapter", sorted({e.chapter for e in load_all().values()}))
def test_selection_by_id_is_unambiguous(chapter):
    """Every element of the chapter is selected by the tests of its section file; no test
    name carries two ids, and no file or folder name carries one (-k matches them too)."""
    registry = load_all()
    ids = [e.test_name for e in registry.values()]
    named = {}
    for path in suite_files():
        for name in defined_tests(path):
            carried = [i for i in ids if i in name]
            assert len(carried) <= 1, (path, name, carried)
            named.setdefault(path, []).extend(carried)
        parts = path.relative_to(TESTS).parts
        assert not [i for i in ids for part in parts if i in part], path
    for element in (e for e in registry.values() if e.chapter == chapter):
        home = section_file(element)
        assert element.test_name in named.get(home, []), f"no test in {home} selects {element.id}"
        others = [p for p, carried in named.items() if element.test_name in carried]
        in_chapters = [p for p in others if p.is_relative_to(TESTS / "chapters")]
        assert in_chapters == [home], (element.id, in_chapters)


def imported(text: str) -> set[str]:
    """The top-level names of every package a module's text imports, at its top or in a
    function (relative imports are of its own package)."""
    names = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_an_import_is_seen_wherever_it_is():
    text = (
        "import json, os.path\nfrom numpy import ones\nfrom . import x\n"
        "def f():\n    import sympy.stats\n"
    )
    assert imported(text) == {"json", "os", "numpy", "sympy"}


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_each_package_imports_only_its_layers(package):
    allowed = LAYERS[package] | set(sys.stdlib_module_names)
    found = {
        path.relative_to(ROOT).as_posix(): sorted(
            imported(path.read_text(encoding="utf-8")) - allowed
        )
        for path in sorted((ROOT / package).rglob("*.py"))
    }
    assert {module: names for module, names in found.items() if names} == {}
