"""`pytest --proofs-check=solution.py`: the readers' bench as test items, one per clause
of every element, named by its element id (proofs.bench.testing). Registered through
the pytest11 entry point of pyproject.toml and inactive unless the option is given."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("proofs", "the readers' bench of transformer-proofs")
    group.addoption(
        "--proofs-check",
        action="append",
        metavar="FILE.py",
        help="judge the functions of this reader's file, one test per clause (docs/bench.md)",
    )
    group.addoption(
        "--proofs-check-seed",
        type=int,
        default=0,
        metavar="N",
        help="the seed of the bench's drawn cases (default 0)",
    )


class ReaderFile(pytest.File):
    """The reader's file as a collector of one item per clause."""

    def collect(self):
        from proofs.bench.judging import chosen
        from proofs.bench.testing import clause_ids

        clauses = chosen(None, None)
        for c, name in zip(clauses, clause_ids(clauses), strict=True):
            yield ClauseItem.from_parent(self, name=name, clause=c)


class ClauseItem(pytest.Item):
    """One clause judged on the reader's file."""

    def __init__(self, *, clause: object, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.clause = clause
        # no fixtures; an empty mapping for the plugins that read every item's funcargs
        # (pytest-lsp's runtest wrapper fails on an item without them)
        self.funcargs: dict[str, object] = {}

    def runtest(self) -> None:
        from proofs.bench.testing import outcome, reader_run

        seed = self.config.getoption("proofs_check_seed")
        outcome(reader_run(self.path).run(self.clause, seed))  # type: ignore[arg-type]

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.name


@pytest.hookimpl(tryfirst=True)  # before -k and -m select among the items
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    files = config.getoption("proofs_check") or []
    for file in files:
        path = Path(file).resolve()
        if not path.is_file():
            raise pytest.UsageError(f"--proofs-check {file}: no such file")
        items.extend(ReaderFile.from_parent(session, path=path).collect())
