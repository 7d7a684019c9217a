"""Test configuration: the Hypothesis profile, and the chapter elements each test verifies.

A test verifies an element when its name carries the element's id (with `_` for `-`)
or it is marked `@pytest.mark.element("<id>", ...)`; either way the id, in both
spellings, becomes one of its keywords, so `pytest -k prop_softmax_jacobian` selects
every test of 命題 3.2 and `pytest -m element` every test of some element.
"""

from __future__ import annotations

import pytest

from proofs.profiles import load_profile
from proofs.registry import load_all

load_profile()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    registry = load_all()
    for item in items:
        marked = {i for mark in item.iter_markers("element") for i in mark.args}
        unknown = marked - set(registry)
        if unknown:
            raise pytest.UsageError(f"{item.nodeid} is marked with unknown element ids "
                                    f"{sorted(unknown)}")
        named = {i for i in registry if i.replace("-", "_") in item.name} - marked
        if named:
            item.add_marker(pytest.mark.element(*sorted(named)))
        for element_id in marked | named:
            item.extra_keyword_matches.update({element_id, element_id.replace("-", "_")})
