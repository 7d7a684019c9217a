"""Judge a reader's file: find its functions by the package's names and signatures, run
every clause that takes one of them in one contained session, and return the results
(`from proofs.bench import judge`: `judge.judge_file("solution.py")`)."""

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
    path = Path(path)
    if names:
        unknown = [n for n in names if n not in BY_NAME]
        if unknown:
            raise BadInput(
                f"{unknown[0]}: not a function the bench judges; expected one of "
                + ", ".join(BY_NAME)
            )
    clauses = chosen(names, elements)
    files = reader_files(path)
    report = Report(str(path))
    with Session(files, path.name, contain=contain) as session:
        report.contained = session.contained
        if session.imported.problem:
            raise BadInput(f"{path.name} {session.imported.problem}")
        found = session.probe([e.name for e in EXPECTED])
        usable = set()
        for expected in EXPECTED:
            if names and expected.name not in names:
                continue
            why = mismatch(expected, found.get(expected.name, {"missing": True}))
            if why:
                report.unmatched[expected.name] = why
            else:
                usable.add(expected.name)
        if names:
            for name in names:
                if name in report.unmatched:
                    raise BadInput(report.unmatched[name])
        for c in clauses:
            if c.function in usable:
                report.results.append(run_clause(c, session, seed, scale))
            elif names:
                report.results.append(
                    ClauseResult(
                        c.element,
                        c.number,
                        c.clause,
                        c.function,
                        "not run",
                        witness=Witness(report.unmatched.get(c.function, "")),
                    )
                )
    if not report.results and not report.unmatched.keys() - set(BY_NAME):
        if len(report.unmatched) == len(EXPECTED):
            raise BadInput(
                f"{path.name} defines none of the functions the bench judges "
                f"({', '.join(BY_NAME)}); see docs/bench.md for the template"
            )
    return report
