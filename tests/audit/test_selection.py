"""Which rules a run reports (proofs.audit.selection): the most specific selector wins,
ignore at the same length; a file's patterns add to the run's ignores; a selector that
names no rule is refused with where it was written and the nearest codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from proofs.audit.selection import Selection, SelectionError, selection


def test_a_code_ignored_within_a_selected_family_is_left_out():
    chosen = selection(["EQ"], ["EQ002"], {}, None, "--")
    assert chosen.reports("EQ001", chosen.ignore)
    assert not chosen.reports("EQ002", chosen.ignore)
    assert not chosen.reports("TAB001", chosen.ignore)


def test_a_code_selected_within_an_ignored_family_is_reported():
    chosen = selection(["EQ001"], ["EQ"], {}, None, "--")
    assert chosen.reports("EQ001", chosen.ignore)
    assert not chosen.reports("EQ002", chosen.ignore)


def test_at_the_same_length_ignore_wins():
    chosen = selection(["EQ001"], ["EQ001"], {}, None, "--")
    assert not chosen.reports("EQ001", chosen.ignore)


def test_a_finding_of_no_rules_code_is_always_reported():
    assert Selection(select=("EQ",)).reports("", ())


def test_a_files_pattern_ignores_its_codes_there_only(tmp_path):
    chosen = selection(None, ["CHK"], {"book/*.txt": ["CLM"]}, tmp_path, "p: ")
    inside = str(tmp_path / "book" / "block.txt")
    assert chosen.ignored_in(inside) == ("CHK", "CLM")
    assert chosen.ignored_in(str(tmp_path / "block.txt")) == ("CHK",)


def test_a_pattern_matches_the_name_of_a_file_outside_the_project(tmp_path):
    chosen = selection(None, [], {"block.txt": ["CLM"]}, tmp_path / "book", "p: ")
    assert chosen.ignored_in(str(Path("/elsewhere/block.txt"))) == ("CLM",)


@pytest.mark.parametrize(
    ("select", "ignore", "per_file", "said"),
    [
        (["EQ999"], [], {}, "p: select: 'EQ999' is no rule's code nor a prefix of codes; nearest"),
        ([], ["eq001"], {}, "p: ignore: 'eq001' is no rule's code nor a prefix of codes; nearest"),
        ([], [], {"a.mdx": ["XYZ"]}, "p: per-file-ignores 'a.mdx': 'XYZ' is no rule's code"),
    ],
    ids=["select", "ignore-lower-case", "per-file"],
)
def test_a_selector_that_names_no_rule_is_refused(select, ignore, per_file, said):
    with pytest.raises(SelectionError) as refused:
        selection(select, ignore, per_file, None, "p: ")
    assert str(refused.value).startswith(said)
    assert str(refused.value).endswith("(docs/rules.md lists them)")
