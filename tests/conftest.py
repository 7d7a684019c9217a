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

import pytest
from hypothesis import Phase, settings

from proofs.book.profiles import load_profile
from proofs.book.registry import load_all

PROFILE = load_profile()

# the corpus's scripts are inputs, not tests: importing them for --doctest-modules would run
# their command line (they read sys.argv, and take pytest's arguments for a chapter file)
collect_ignore = ["corpus"]


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


def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything collection made (the modules, SymPy's, NumPy's and the chapters' objects)
    lives until the end: moved out of the collector's reach, the full collections during the
    run and the five pytest makes at its end no longer walk it (about 2 s of a `-k <id>` run
    that selects one test; benchmarks/latency.py measures it)."""
    gc.freeze()


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
