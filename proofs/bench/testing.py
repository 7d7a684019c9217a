"""The bench as pytest tests: every clause a test named by its element id (hyphens as
underscores, then the function and the clause's number among that element's), run on
one contained session of the reader's file opened on first use.

    # test_solution.py, beside the reader's solution.py
    from proofs.bench import judge

    test_solution = judge("solution.py")

`pytest -k def_softmax` then runs 定義 2.2's clauses alone. `pytest --proofs-check=FILE`
(proofs.bench.pytest_plugin) makes the same items without a test file.
"""

from __future__ import annotations

import atexit
from collections.abc import Callable
from pathlib import Path

import pytest

from proofs.bench.clauses import Clause
from proofs.bench.judging import ReaderRun, chosen
from proofs.bench.results import ClauseResult

_RUNS: dict[Path, ReaderRun] = {}  # each reader's file imported once per test process


def reader_run(path: Path) -> ReaderRun:
    """The contained session of the reader's file, opened on first use and closed when
    the process ends."""
    path = path.resolve()
    if path not in _RUNS:
        if not _RUNS:
            atexit.register(_close_all)
        _RUNS[path] = ReaderRun(path)
    return _RUNS[path]


def _close_all() -> None:
    for run in _RUNS.values():
        run.close()


def clause_ids(clauses: list[Clause]) -> list[str]:
    """def_softmax-softmax-1, def_softmax-softmax-2, …: the element id with underscores,
    the function, the clause's number among that element's clauses of that function."""
    seen: dict[tuple[str, str], int] = {}
    ids = []
    for c in clauses:
        key = (c.element, c.function)
        seen[key] = seen.get(key, 0) + 1
        ids.append(f"{c.element.replace('-', '_')}-{c.function}-{seen[key]}")
    return ids


def outcome(result: ClauseResult) -> None:
    """The clause's result as pytest's: a failure with the report's lines, a skip when
    the file has no such function; a pass (and a note) returns."""
    from proofs.cli.check import lines

    if result.verdict == "not run":
        pytest.skip(result.witness.reason if result.witness else "not run")
    if result.verdict == "failed":
        pytest.fail("\n".join(lines([result], {})), pytrace=False)


def judge(
    path: str | Path, elements: list[str] | None = None, seed: int = 0
) -> Callable[[Clause], None]:
    """A test function parametrized by every clause of the bench (`elements` restricts
    them), each judging the reader's file at `path` (relative to the caller's folder or
    the working directory)."""
    clauses = chosen(None, elements)
    target = Path(path)

    @pytest.mark.parametrize("clause", clauses, ids=clause_ids(clauses))
    def test_clause(clause: Clause) -> None:
        outcome(reader_run(target).run(clause, seed))

    return test_clause
