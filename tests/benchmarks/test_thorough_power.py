"""benchmarks/thorough_power.py's verdict on each mutant, in a small repository written for
the test: a mutant the kept tests kill is "kept", one only the moved test kills is "moved
only" (the power a move would lose), one neither kills "survived"."""

from __future__ import annotations

from benchmarks.mutation import mutants
from benchmarks.thorough_power import outcome

SOURCE = "def f(x):\n    return x + 1\n"
KEPT = "from pkg import f\n\n\ndef test_kept():\n    assert f(0) != -1\n"
MOVED = "from pkg import f\n\n\ndef test_moved():\n    assert f(2) == 3\n"


def test_each_mutant_is_judged_by_the_kept_tests_first_then_by_the_moved_one(tmp_path):
    (tmp_path / "pkg.py").write_text(SOURCE)
    (tmp_path / "test_kept.py").write_text(KEPT)
    (tmp_path / "test_moved.py").write_text(MOVED)
    swapped, _, plus_one, _ = mutants("pkg.py", SOURCE)  # + -> -, drop, 1 -> 2, 1 -> 0

    def judged(mutant):
        return outcome(tmp_path, mutant, SOURCE, ["test_kept.py"], ["test_moved.py"], 120)

    assert judged(swapped) == "kept"  # f(0) = -1
    assert judged(plus_one) == "moved only"  # f(0) = 2 passes the kept test, f(2) = 4
    assert (tmp_path / "pkg.py").read_text() == SOURCE  # restored after each mutant
    (tmp_path / "test_moved.py").write_text(MOVED.replace("== 3", ">= 0"))
    assert judged(plus_one) == "survived"
