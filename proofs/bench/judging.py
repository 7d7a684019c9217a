"""Judge a reader's file: find its functions by the package's names and signatures, run
every clause that takes one of them in one contained session (`ReaderRun`), and return
the results (`judge_file`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from proofs.bench import attention_clauses, block_clauses, layer_norm_clauses, softmax_clauses
from proofs.bench.clauses import CLAUSES, Clause, run_clause
from proofs.bench.functions import BY_NAME, EXPECTED, mismatch
from proofs.bench.results import ClauseResult, Witness
from proofs.bench.session import Session
from proofs.book.registry import number_key

FAMILIES = (softmax_clauses, layer_norm_clauses, attention_clauses, block_clauses)  # registered
SIBLINGS = 200  # .py files of the reader's folder saved beside the file, at most
SIBLING_BYTES = 4 * 2**20


class BadInput(ValueError):
    """A file or name the bench cannot judge (exit code 2)."""


@dataclass
class Report:
    """The results of one file: every clause judged, and the functions not matched."""

    file: str
    results: list[ClauseResult] = field(default_factory=list)
    unmatched: dict[str, str] = field(default_factory=dict)  # name -> why
    contained: bool = False

    @property
    def failed(self) -> bool:
        return any(r.verdict in ("failed", "not run") for r in self.results)


def reader_files(path: Path) -> dict[str, str]:
    """The reader's file and the other .py files of its folder (which it may import)."""
    if not path.is_file():
        raise BadInput(f"{path}: no such file")
    if path.suffix != ".py":
        raise BadInput(f"{path}: expected a Python file (.py)")
    try:
        files = {path.name: path.read_text(encoding="utf-8")}
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path}: cannot be read as UTF-8 text ({exc})") from None
    total = len(files[path.name])
    for other in sorted(path.parent.glob("*.py"))[:SIBLINGS]:
        if other.name in files or other.name.startswith("_proofs_check"):
            continue
        try:
            text = other.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        total += len(text)
        if total > SIBLING_BYTES:
            break
        files[other.name] = text
    return files


def _order(c: Clause) -> tuple:
    """The chapters' order: 自己注意 before Transformer ブロック, then by the number."""
    number, _, chapter = c.number.partition("［")
    return ("ブロック" in chapter, number_key(number))


def chosen(names: list[str] | None, elements: list[str] | None) -> list[Clause]:
    wanted = sorted(
        (
            c
            for c in CLAUSES
            if (names is None or c.function in names)
            and (elements is None or c.element in elements)
        ),
        key=_order,
    )
    if elements:
        unknown = sorted(set(elements) - {c.element for c in CLAUSES})
        if unknown:
            known = ", ".join(sorted({c.element for c in CLAUSES}))
            raise BadInput(f"--element {unknown[0]}: no clause judges it; the bench judges {known}")
    return wanted


class ReaderRun:
    """The reader's file at `path` imported in a contained session, its functions matched
    with the expected ones (`usable`, and why the others are not: `unmatched`), ready to
    judge clauses one by one (`run`); `close()` ends it. BadInput when it does not import."""

    def __init__(self, path: str | Path, contain: bool | None = None) -> None:
        self.path = Path(path)
        self.session = Session(reader_files(self.path), self.path.name, contain=contain)
        if self.session.imported.problem:
            self.session.close()
            raise BadInput(f"{self.path.name} {self.session.imported.problem}")
        found = self.session.probe([e.name for e in EXPECTED])
        self.unmatched: dict[str, str] = {}
        self.usable: set[str] = set()
        for expected in EXPECTED:
            why = mismatch(expected, found.get(expected.name, {"missing": True}))
            if why:
                self.unmatched[expected.name] = why
            else:
                self.usable.add(expected.name)

    def run(self, c: Clause, seed: int = 0, scale: float = 1.0) -> ClauseResult:
        """Clause `c` judged on the reader's function (not run when it has none)."""
        if c.function in self.usable:
            return run_clause(c, self.session, seed, scale)
        why = self.unmatched.get(c.function, "")
        return ClauseResult(
            c.element, c.number, c.clause, c.function, "not run", witness=Witness(why)
        )

    def close(self) -> None:
        self.session.close()


def judge_file(
    path: str | Path,
    names: list[str] | None = None,
    elements: list[str] | None = None,
    seed: int = 0,
    scale: float = 1.0,
    contain: bool | None = None,
) -> Report:
    """Run the clauses of the reader's functions in `path` (`names` restricts the functions
    and `elements` the elements), drawing cases from `seed`."""
    if names:
        unknown = [n for n in names if n not in BY_NAME]
        if unknown:
            raise BadInput(
                f"{unknown[0]}: not a function the bench judges; expected one of "
                + ", ".join(BY_NAME)
            )
    clauses = chosen(names, elements)
    run = ReaderRun(path, contain)
    report = Report(str(path), contained=run.session.contained)
    try:
        report.unmatched = {n: why for n, why in run.unmatched.items() if not names or n in names}
        for name in names or ():
            if name in report.unmatched:
                raise BadInput(report.unmatched[name])
        if not names and not run.usable:
            raise BadInput(
                f"{run.path.name} defines none of the functions the bench judges "
                f"({', '.join(BY_NAME)}); see docs/bench.md for the template"
            )
        for c in clauses:
            if c.function in run.usable or names:
                report.results.append(run.run(c, seed, scale))
    finally:
        run.close()
    return report
