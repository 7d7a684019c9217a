"""Test configuration: the Hypothesis profile (without shrinking in the tests of wrong
variants), and the chapter elements each test verifies.

A test verifies an element when its name carries the element's id (with `_` for `-`)
or it is marked `@pytest.mark.element("<id>", ...)`; either way the id, in both
spellings, becomes one of its keywords, so `pytest -k prop_softmax_jacobian` selects
every test of 命題 3.2 and `pytest -m element` every test of some element.

A test marked `thorough` runs only under the thorough profile: a costly case (命題 3.2 at
n = 256) whose every killed mutant the other tests kill too.
"""

from __future__ import annotations

import gc
import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

import early
import pytest
from hypothesis import Phase, settings

from proofs.book.profiles import load_profile
from proofs.book.registry import load_all

PROFILE = load_profile()

# the corpus's scripts are inputs, not tests: importing them for --doctest-modules would run
# their command line (they read sys.argv, and take pytest's arguments for a chapter file);
# slip_audits registers an early job when imported, and --doctest-modules would import it a
# second time, under another module name, beside the tests' own import
collect_ignore = ["corpus", "slip_audits.py"]

BYTECODE_OFF = "PYTHONDONTWRITEBYTECODE"
RUN_FOLDER = early.RUN_FOLDER  # set while a run of the suite has its own folder


def named_element(config: pytest.Config) -> str | None:
    """The element id that `-k` names alone, in either spelling (`pytest -k <id>`), else
    None. Read once per run."""
    if not hasattr(config, "_named_element"):
        expression = (config.option.keyword or "").strip().replace("-", "_").lower()
        ids = {i.replace("-", "_"): i for i in load_all()}
        config._named_element = ids.get(expression)  # type: ignore[attr-defined]
    return config._named_element  # type: ignore[attr-defined]


def may_hold_tests_of(path: Path, element_id: str) -> bool:
    """Whether a test file can hold a test `-k <id>` selects: the id, in either spelling and
    any case, is in its path or its text (a test's name, its module's or its class's, or its
    element marker). tests/test_keyword_selection.py holds every test of every id to it."""
    spellings = {element_id, element_id.replace("-", "_")}
    text = (str(path) + "\n" + path.read_text(encoding="utf-8", errors="replace")).lower()
    return any(spelling in text for spelling in spellings)


class KeywordSelection:
    """`pytest -k <id>` imports only the files that can hold the element's tests (test
    files, and the packages' modules for their doctests): the others would be imported and
    searched to be deselected. Registered for every path, the packages' included."""

    @staticmethod
    def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
        if collection_path.suffix != ".py" or collection_path.name == "conftest.py":
            return None
        element_id = named_element(config)
        if element_id is None or may_hold_tests_of(collection_path, element_id):
            return None
        return True


class EditorExtra:
    """Without the editor extra (pygls, lsprotocol), the language server's modules are not
    imported for their doctests (tests/lsp skip, saying why). Registered for every path."""

    @staticmethod
    def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
        if collection_path.parent.parts[-2:] != ("proofs", "lsp"):
            return None
        return None if importlib.util.find_spec("lsprotocol") else True


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(KeywordSelection(), "element-keyword-selection")
    config.pluginmanager.register(EditorExtra(), "editor-extra")
    a_folder_of_the_run(config)
    group_background_tests(config)


def group_background_tests(config: pytest.Config) -> None:
    """Under pytest-xdist's -n, unless the command line names a --dist, the distribution is
    loadgroup, each background job's tests one group (pytest_itemcollected): one worker
    runs a job, once, where its tests are. A worker parses the command line again, so it
    is told here too (pytest-xdist then adds each group to its tests' node ids)."""
    arguments = [str(a) for a in config.invocation_params.args]
    if any(a in ("--dist", "-d") or a.startswith("--dist=") for a in arguments):
        return
    if hasattr(config, "workerinput"):
        config.option.loadgroup = True
    elif getattr(config.option, "dist", "no") == "load":  # -n without --dist
        config.option.dist = "loadgroup"


def a_folder_of_the_run(config: pytest.Config) -> None:
    """The run's own folder, outside the checkout and removed at the end, for what the
    tests and the processes they start would otherwise write in the user's places:
    bytecode (PYTHONPYCACHEPREFIX; where the environment forbids bytecode with
    PYTHONDONTWRITEBYTECODE, as some containers do, every `python -m proofs` or `pytest` a
    test started compiled the package again), the cache directory (XDG_CACHE_HOME:
    verify's kept derivations and Hypothesis' examples, so that no run reads what another
    run, or the user, left there) and the configuration directory (XDG_CONFIG_HOME: the
    key that seals the kept derivations). The variables are restored at the end; a run started
    inside a test (pytest.main) keeps the folder of the run that started it."""
    if os.environ.get(RUN_FOLDER):
        return
    names = ("PYTHONPYCACHEPREFIX", BYTECODE_OFF, "XDG_CACHE_HOME", "XDG_CONFIG_HOME", RUN_FOLDER)
    saved = {name: os.environ.get(name) for name in names}
    folder = Path(tempfile.mkdtemp(prefix="proofs-tests-"))
    os.environ[RUN_FOLDER] = str(folder)
    os.environ["PYTHONPYCACHEPREFIX"] = str(folder / "bytecode")
    os.environ.pop(BYTECODE_OFF, None)
    os.environ["XDG_CACHE_HOME"] = str(folder / "cache")
    os.environ["XDG_CONFIG_HOME"] = str(folder / "config")

    def restore() -> None:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        shutil.rmtree(folder, ignore_errors=True)

    config.add_cleanup(restore)


THOROUGH_ONLY = pytest.mark.skip(
    reason="marked thorough: runs under HYPOTHESIS_PROFILE=thorough only (costly; the "
    "other tests kill every mutant it kills, benchmarks/thorough_power.py)"
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    registry = load_all()
    for item in items:
        if PROFILE != "thorough" and any(item.iter_markers("thorough")):
            item.add_marker(THOROUGH_ONLY)
        marked = {i for mark in item.iter_markers("element") for i in mark.args}
        unknown = marked - set(registry)
        if unknown:
            raise pytest.UsageError(
                f"{item.nodeid} is marked with unknown element ids {sorted(unknown)}"
            )
        named = {i for i in registry if i.replace("-", "_") in item.name} - marked
        if named:
            item.add_marker(pytest.mark.element(*sorted(named)))
        for element_id in marked | named:
            item.extra_keyword_matches.update({element_id, element_id.replace("-", "_")})
    # the tests that take a background job's result run last, when the jobs are done
    items.sort(key=lambda item: bool(early.marked(item)))


def pytest_itemcollected(item: pytest.Item) -> None:
    """Under pytest-xdist (group_background_tests) the tests of a background job form one
    group, which one worker runs; so do those of a module of the language server's tests,
    which share one server and one folder and read what the tests before them left there."""
    if getattr(item.config.option, "loadgroup", False):
        for name in early.marked(item)[:1]:
            item.add_marker(pytest.mark.xdist_group(name))
            return
        if item.path.parent.name == "lsp":
            item.add_marker(pytest.mark.xdist_group(f"lsp-{item.path.stem}"))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything collection made (the modules, SymPy's, NumPy's and the chapters' objects)
    lives until the end: moved out of the collector's reach, the full collections during the
    run and the five pytest makes at its end no longer walk it (about 2 s of a `-k <id>` run
    that selects one test; benchmarks/latency.py measures it)."""
    gc.freeze()
    option = session.config.option
    if not (option.collectonly or option.setuponly or option.setupplan):
        # a pytest-xdist worker runs some of the tests: each job when its first test asks
        early.start(session.items, session, now=not hasattr(session.config, "workerinput"))


def pytest_sessionfinish(session: pytest.Session) -> None:
    early.stop(session)


@pytest.fixture(autouse=True)
def no_shrinking(request):
    """Wrong variants fail on the first falsifying example: skip Hypothesis' shrinking
    (it would only look for a smaller counterexample) in the tests that expect CheckFailed."""
    if "rejects" not in request.node.name:
        yield
        return
    current = settings.default
    settings.register_profile(
        "no-shrinking", parent=current, phases=(Phase.explicit, Phase.generate)
    )
    settings.load_profile("no-shrinking")
    try:
        yield
    finally:
        settings.register_profile("restored", parent=current)
        settings.load_profile("restored")
