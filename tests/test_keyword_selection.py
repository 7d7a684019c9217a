"""`pytest -k <id>` collects only the files that can hold the element's tests (conftest's
KeywordSelection): every test that `-k <id>` selects in a collection of the whole suite is
in a file it keeps, for every element id in both spellings, and the selection is the one
pytest makes without it."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

import early
import pytest
from conftest import may_hold_tests_of
from places import ROOT

COLLECTIONS = "the whole suite's collection and one id's"
ELEMENT_ID = "exr-jacobian-two"


def collection(*arguments: str, record: Path | None = None) -> subprocess.CompletedProcess:
    """pytest --collect-only with these arguments (and the latency plugin's record)."""
    recording = {} if record is None else {"LATENCY_RECORD": str(record)}
    return early.run_pytest("--collect-only", *arguments, HYPOTHESIS_PROFILE="ci", **recording)


@early.job(COLLECTIONS)
def collections(
    items: object,
) -> tuple[subprocess.CompletedProcess, list, subprocess.CompletedProcess]:
    """The whole suite collected with each test's ids recorded, the record's tests, and
    ELEMENT_ID's filtered collection."""
    with tempfile.TemporaryDirectory(prefix="keyword-selection-") as folder:
        record = Path(folder) / "record.json"
        whole = collection("-p", "benchmarks.latency_record", record=record)
        tests = json.loads(record.read_text())["tests"] if record.exists() else []
    return whole, tests, collection("-k", ELEMENT_ID.replace("-", "_"))


def collected(done: subprocess.CompletedProcess) -> tuple[list[str], str]:
    """The node ids a collection kept, and its summary line."""
    assert done.returncode == 0, done.stdout[-2000:]
    lines = done.stdout.splitlines()
    return [line for line in lines if "::" in line], lines[-1]


@pytest.mark.early(COLLECTIONS)
def test_every_test_an_id_selects_is_in_a_file_kept_for_it_and_one_ids_selection_is_pytests():
    """The whole suite collected once, with each test's ids whose -k selects it (pytest's
    own matching); then one id's filtered collection gives the same tests, from fewer."""
    done, tests, filtered = early.result(COLLECTIONS)
    whole, _ = collected(done)
    missed = [
        (element_id, test["nodeid"])
        for test in tests
        for element_id in test["selected_by"]
        if not may_hold_tests_of(ROOT / test["nodeid"].split("::")[0], element_id)
    ]
    assert missed == []
    assert sum(bool(test["selected_by"]) for test in tests) > 500  # the record is real
    fast, summary = collected(filtered)
    assert fast == [t["nodeid"] for t in tests if ELEMENT_ID in t["selected_by"]]
    total = int(summary.split("/")[1].split()[0])  # "20/117 tests collected (97 deselected)"
    assert len(fast) > 5 and total < len(whole) / 4


def test_a_file_without_the_id_is_not_kept_and_one_with_it_in_any_spelling_is(tmp_path):
    test_file = tmp_path / "test_x.py"
    test_file.write_text("def test_softmax():\n    pass\n")
    assert not may_hold_tests_of(test_file, "prop-softmax-jacobian")
    for spelling in ("PROP_SOFTMAX_JACOBIAN", "prop-softmax-jacobian"):
        test_file.write_text(f"def test_x():\n    '''{spelling}'''\n")
        assert may_hold_tests_of(test_file, "prop-softmax-jacobian")
    named = tmp_path / "test_exr_jacobian_two.py"  # the id in the path only
    named.write_text("def test_x():\n    pass\n")
    assert may_hold_tests_of(named, "exr-jacobian-two")
