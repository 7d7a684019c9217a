"""The readers' bench on a few slips and a few correct alternatives (the whole catalogue,
51 slips and 13 alternatives on 20 seeds, is benchmarks/bench_sweep.py's), its
tolerances against wrong values, the working precision, the answers file, and the
pytest entries."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks.bench_sweep import expected_elements, names
from numeric.attention import attention
from numeric.layer_norm import layer_norm
from numeric.softmax import softmax
from proofs.bench.answers import AnswersError, explain, judge_answer, read_answers
from proofs.bench.judging import BadInput, judge_file
from proofs.bench.reading import Beyond, rounded, working_dtype
from proofs.bench.session import Reply
from proofs.bench.testing import clause_ids
from proofs.bench.tolerances import (
    attention_tolerance,
    layer_norm_tolerance,
    softmax_tolerance,
)
from proofs.cli import main
from symbolic import counts
from symbolic import symbols as sym

HERE = Path(__file__).parent
EXPECTED = expected_elements()
F32, F64 = np.dtype(np.float32), np.dtype(np.float64)


@pytest.mark.parametrize(
    "name", ["softmax_no_max_shift", "softmax_float16", "masked_zero_fill", "ln_unbiased_variance"]
)
def test_a_slip_is_rejected_naming_its_element(name: str) -> None:
    report = judge_file(HERE / "mistakes" / f"{name}.py", scale=0.25)
    assert report.failed and names(report, EXPECTED[name])


@pytest.mark.parametrize("name", ["softmax_log_sum_exp", "softmax_float32_always", "gelu_tanh"])
def test_a_correct_alternative_is_accepted(name: str) -> None:
    report = judge_file(HERE / "alternatives" / f"{name}.py", seed=3, scale=0.5)
    assert report.results and not report.failed


def test_the_tanh_gelu_is_accepted_and_said_so() -> None:
    report = judge_file(HERE / "alternatives" / "gelu_tanh.py", scale=0.25)
    assert "judged as GPT-2's tanh approximation" in report.results[0].said


def test_a_file_that_does_not_import_is_bad_input(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def softmax(z)\n    return z\n", encoding="utf-8")
    with pytest.raises(BadInput, match="did not import: raised SyntaxError"):
        judge_file(broken)


def test_def_softmax_tolerance_holds_for_float32_and_rejects_a_slip() -> None:
    z = np.array([[3.0, -1.5, 0.25, 7.0], [30.0, 29.0, -30.0, 0.0]], np.float32)
    exact = softmax(z.astype(np.float64))
    bound = softmax_tolerance(z, exact, F32)
    assert np.all(np.abs(softmax(z) - exact) <= bound)
    base_two = softmax(z.astype(np.float64) * np.log(2.0))  # 2^{z_i} / Σ_j 2^{z_j}
    assert not np.all(np.abs(base_two - exact) <= bound)


def test_def_layer_norm_tolerance_holds_for_float32_and_rejects_the_unbiased_variance() -> None:
    x = np.array([[1.0, 2.0, 3.0, 6.0], [5.0, -1.0, 0.5, 2.0]])
    gamma, beta = np.array([1.0, 2.0, 0.5, -1.0]), np.array([0.0, 0.5, -0.5, 1.0])
    exact = layer_norm(x, gamma, beta, 1e-5)
    bound = layer_norm_tolerance(x, gamma, beta, 1e-5, F32)
    low = layer_norm(x.astype(np.float32), gamma.astype(np.float32), beta.astype(np.float32), 1e-5)
    assert np.all(np.abs(low - exact) <= bound)
    c = x - x.mean(axis=-1, keepdims=True)
    unbiased = gamma * c / np.sqrt((c * c).sum(axis=-1, keepdims=True) / 3 + 1e-5) + beta
    assert not np.all(np.abs(unbiased - exact) <= bound)


def test_def_attention_tolerance_holds_for_float32_and_rejects_an_unscaled_score() -> None:
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((2, 3, 4)) for _ in range(3))
    exact, _ = attention(q, k, v)
    bound = attention_tolerance(q, k, v, None, F32)
    low, _ = attention(*(a.astype(np.float32) for a in (q, k, v)))
    held, _ = attention(*(a.astype(np.float32).astype(np.float64) for a in (q, k, v)))
    assert np.all(np.abs(low - held) <= bound)
    unscaled, _ = attention(q * 2, k, v)  # QKᵀ/√d_k doubled: the scores not scaled (d_k = 4)
    assert not np.all(np.abs(unscaled - exact) <= bound)


def test_the_working_precision_is_the_lowest_of_output_and_inputs() -> None:
    z64, z32 = np.zeros(3), np.zeros(3, np.float32)
    assert working_dtype(Reply("softmax", True, z32), z64) == F32
    assert working_dtype(Reply("softmax", True, z64), z32) == F32
    assert working_dtype(Reply("softmax", True, [0.0, 1.0]), z64) == F64
    with pytest.raises(Beyond, match="beyond float32's range"):
        rounded(np.array([1e300, 0.0]), F32)


def test_thm_transformer_parameters_answer_short_by_the_final_layer_norm_is_hinted() -> None:
    poly = counts.model_parameters()
    sizes = {sym.V: 1000, sym.d: 64, sym.L: 4, sym.d_ff: 256, sym.L_ctx: 128}
    assert explain(-128, poly, sizes) == "short by 2d: the final LayerNorm's γ and β left out?"
    right = int(poly.subs(sizes))
    entry = {"vocab": 1000, "d": 64, "n_layer": 4, "d_ff": 256, "n_ctx": 128}
    assert judge_answer("parameters", {**entry, "answer": right}).verdict == "passed"
    wrong = judge_answer("parameters", {**entry, "answer": right - 2 * 64})
    assert wrong.verdict == "failed" and f"{right:,}" not in str(wrong)
    assert wrong.hint.startswith("short by 2d") and wrong.reread.startswith(wrong.element)


def test_prop_block_complexity_answer_without_a_named_part_says_recount() -> None:
    entry = {"d": 4, "d_ff": 16, "n": 3, "answer": 1}
    result = judge_answer("multiplications", entry)
    right = counts.block_multiplications().subs({sym.d: 4, sym.d_ff: 16, sym.n: 3})
    assert result.verdict == "failed" and result.hint.startswith("recount part by part")
    assert str(right) not in str(result)


def test_an_answers_file_with_an_unknown_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "answers.toml"
    path.write_text("[[parameters]]\nlayers = 4\nanswer = 1\n", encoding="utf-8")
    with pytest.raises(AnswersError, match="unknown key 'layers'"):
        read_answers(path)


def test_check_answers_exits_1_on_a_wrong_count(tmp_path: Path, capsys) -> None:
    path = tmp_path / "answers.toml"
    path.write_text("[[multiplications]]\nd = 4\nd_ff = 16\nn = 3\nanswer = 1\n", "utf-8")
    assert main(["check", "--answers", str(path)]) == 1
    assert "FAIL  prop-block-complexity" in capsys.readouterr().out


def test_every_clause_is_a_test_named_by_its_element_id() -> None:
    from proofs.bench.clauses import CLAUSES

    ids = clause_ids(CLAUSES)
    assert "def_softmax-softmax-1" in ids and "def_softmax-masked_softmax-1" in ids
    assert len(set(ids)) == len(ids)


def test_pytest_proofs_check_makes_one_item_per_clause(tmp_path: Path) -> None:
    (tmp_path / "solution.py").write_text(
        (HERE / "alternatives" / "softmax_scipy.py").read_text("utf-8"), "utf-8"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        + ["-k", "def_softmax and not masked"]
        + ["--proofs-check=solution.py", "--rootdir", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert "1 passed" in done.stdout
