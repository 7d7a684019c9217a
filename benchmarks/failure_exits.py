"""Which failure exits of the judges the tests reach: a check that cannot fail is a defect.

A failure exit is a place where a judge says "does not hold": in the chapter checks
(proofs/chapters) every call of `require`, `judge_within` or `judge_cases` and every
`raise CheckFailed`; in the symbolic judges (symbolic/) every `return False`; in a
function named `*_violation` every `return` of a reason. The script runs pytest
in-process, records the chapter line that raised each CheckFailed (the innermost
frame in a judged file) and, with coverage, the `return` lines executed, then lists
the exits no test reached.

Run from the repository root, with coverage installed (`pip install coverage`; the test
selection is pytest's, the default is the tests that exercise the judges):

    HYPOTHESIS_PROFILE=ci python -m benchmarks.failure_exits [pytest arguments]
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[1]
JUDGED = (ROOT / "proofs" / "chapters", ROOT / "symbolic")
DEFAULT_TESTS = (
    "tests/chapters",
    "tests/symbolic/test_softmax.py",
    "tests/symbolic/test_layer_norm.py",
    "tests/symbolic/test_counts.py",
    "tests/symbolic/test_identities.py",
    "tests/symbolic/test_identities_of_chapters.py",
    "tests/symbolic/test_arrangements.py",
)
JUDGES = ("require", "judge_within", "judge_cases")  # proofs.book.judge's judging functions


@dataclass(frozen=True)
class Exit:
    """A failure exit: its file (relative to the root), its lines and what it is."""

    path: str
    first: int
    last: int
    kind: str  # a judge's name ("require", "judge_within", ...), "raise", "return False", "reason"

    def covers(self, line: int) -> bool:
        return self.first <= line <= self.last


def judged_files() -> list[Path]:
    return sorted(p for base in JUDGED for p in base.rglob("*.py"))


def exits_of(path: Path) -> Iterator[Exit]:
    """The failure exits of one file, found in its syntax tree."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    rel = str(path.relative_to(ROOT))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in JUDGES
        ):
            yield Exit(rel, node.lineno, node.end_lineno or node.lineno, node.func.id)
        elif (
            isinstance(node, ast.Raise)
            and isinstance(node.exc, ast.Call)
            and getattr(node.exc.func, "id", None) == "CheckFailed"
        ):
            yield Exit(rel, node.lineno, node.end_lineno or node.lineno, "raise")
        elif (
            isinstance(node, ast.Return)
            and isinstance(node.value, ast.Constant)
            and node.value.value is False
        ):
            yield Exit(rel, node.lineno, node.lineno, "return False")
        elif isinstance(node, ast.FunctionDef) and node.name.endswith("_violation"):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Return) and isinstance(inner.value, ast.JoinedStr):
                    yield Exit(rel, inner.lineno, inner.end_lineno or inner.lineno, "reason")


def _recording_failures(reached: set[tuple[str, int]]) -> None:
    """Make every CheckFailed record the judged line it was raised from."""
    from proofs.book.judge import CheckFailed

    roots = tuple(str(base) for base in JUDGED)
    original = CheckFailed.__init__

    def init(self: CheckFailed, *args: object) -> None:
        frame: FrameType | None = sys._getframe(1)
        while frame is not None and not frame.f_code.co_filename.startswith(roots):
            frame = frame.f_back
        if frame is not None:
            reached.add((str(Path(frame.f_code.co_filename).relative_to(ROOT)), frame.f_lineno))
        original(self, *args)

    CheckFailed.__init__ = init  # type: ignore[method-assign, assignment]


def main(argv: list[str]) -> int:
    try:
        import coverage
    except ImportError:
        raise SystemExit("benchmarks.failure_exits needs coverage: pip install coverage") from None
    import pytest

    sys.path.insert(0, str(ROOT))
    reached: set[tuple[str, int]] = set()
    cov = coverage.Coverage(source=[str(p) for p in JUDGED], data_file=None)
    cov.start()
    _recording_failures(reached)
    status = pytest.main(["-q", "-p", "no:cacheprovider", *(argv or DEFAULT_TESTS)])
    cov.stop()
    data = cov.get_data()
    exits = [e for path in judged_files() for e in exits_of(path)]
    missed = []
    for e in exits:
        if e.kind in ("return False", "reason"):
            hit = any(e.covers(line) for line in data.lines(str(ROOT / e.path)) or ())
        else:
            hit = any(path == e.path and e.covers(line) for path, line in reached)
        if not hit:
            missed.append(e)
    print(
        f"\nfailure exits reached: {len(exits) - len(missed)} of {len(exits)} "
        f"(pytest exit status {status})"
    )
    for e in missed:
        text = (ROOT / e.path).read_text(encoding="utf-8").splitlines()[e.first - 1].strip()
        print(f"  {e.path}:{e.first} {e.kind}: {text[:90]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
