"""The readers' bench on a few slips and a few correct alternatives (the whole catalogue,
51 slips and 13 alternatives on 20 seeds, is benchmarks/bench_sweep.py's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from proofs.bench.judging import BadInput, judge_file

HERE = Path(__file__).parent
EXPECTED = dict(
    line.split() for line in (HERE / "mistakes" / "expected.txt").read_text().splitlines()
)


@pytest.mark.parametrize(
    "name",
    ["softmax_no_max_shift", "masked_after_softmax", "ln_unbiased_variance", "count_no_final_ln"],
)
def test_a_slip_is_rejected_naming_its_element(name: str) -> None:
    report = judge_file(HERE / "mistakes" / f"{name}.py", scale=0.5)
    failed = [r for r in report.results if r.verdict == "failed"]
    assert failed
    assert any(r.element == EXPECTED[name] or EXPECTED[name] in r.reread for r in failed)


@pytest.mark.parametrize("name", ["softmax_log_sum_exp", "gelu_tanh", "mha_concatenated"])
def test_a_correct_alternative_is_accepted(name: str) -> None:
    report = judge_file(HERE / "alternatives" / f"{name}.py", seed=3, scale=0.5)
    assert report.results
    assert not report.failed


def test_a_file_that_does_not_import_is_bad_input(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def softmax(z)\n    return z\n", encoding="utf-8")
    with pytest.raises(BadInput, match="did not import: raised SyntaxError"):
        judge_file(broken)
