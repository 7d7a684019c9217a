# ruff: noqa: E501 - the edits are lines of TeX, kept whole so that they read as written
"""The chapter is the claim: copies of the two chapters, each with one realistic slip
(a formula, a claim in words or numbers, an example's printed number, a rounding, the
structure, a table cell, a printed output line), are each reported at the slip's line;
neutral edits (spacing, an equivalent formula, a reworded sentence that claims nothing)
change nothing. The copies are made in a temporary directory; the chapters are only read.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from places import SEEDS

from proofs.audit import Report, audit_file

FILES = {"sa": SEEDS / "000_ce182fefa314a82b.txt", "tb": SEEDS / "002_1f7cf506cffefce0.txt"}


@dataclass(frozen=True)
class Edit:
    name: str
    chapter: str  # "sa" or "tb"
    line: int  # 1-based, where the edit is made
    old: str
    new: str
    category: str = "neutral"
    expect_line: int | None = None  # where the finding stands when not at `line`


SLIPS = [
    # a formula of a definition, proposition or theorem
    Edit(
        "jacobian-entry-sign",
        "sa",
        115,
        r"(\delta_{ij} - \sigma_j)",
        r"(\delta_{ij} + \sigma_j)",
        "formula",
    ),
    Edit(
        "jacobian-matrix-sign",
        "sa",
        115,
        r"\mathrm{diag}(\boldsymbol{\sigma}) - ",
        r"\mathrm{diag}(\boldsymbol{\sigma}) + ",
        "formula",
    ),
    Edit(
        "softmax-denominator",
        "sa",
        65,
        r"\sum_{j=1}^{n} e^{z_j}",
        r"\sum_{j=1}^{n} e^{z_i}",
        "formula",
    ),
    Edit(
        "attention-missing-sqrt",
        "sa",
        181,
        r"\frac{Q K^{\mathsf{T}}}{\sqrt{d_k}}",
        r"Q K^{\mathsf{T}}",
        "formula",
    ),
    Edit("attention-parameters-term", "sa", 537, "4d^2 + 4d", "4d^2 + 3d", "formula"),
    Edit(
        "attention-cost-exponent",
        "sa",
        557,
        r"\underbrace{2n^2 d}",
        r"\underbrace{2n^2 d^2}",
        "formula",
    ),
    Edit("mask-bound-exponent", "sa", 158, r"e^{-c}\, e^{z_i}", r"e^{-2c}\, e^{z_i}", "formula"),
    Edit("variance-power", "sa", 281, r"\big) = d_k", r"\big) = d_k^2", "formula"),
    Edit(
        "shift-invariance",
        "sa",
        89,
        r"= \sigma(\boldsymbol{z})$",
        r"= \sigma(c\boldsymbol{z})$",
        "formula",
    ),
    Edit("entry-bound", "sa", 122, r"\le 1 - \max_k \sigma_k", r"\le \max_k \sigma_k", "formula"),
    Edit("convex-weights", "sa", 213, r"A_{ij} \ge 0", r"A_{ij} \ge 1", "formula"),
    Edit(
        "product-expectation",
        "sa",
        833,
        r"E[X_1]\,E[X_2]\cdots E[X_m]",
        r"E[X_1] + E[X_2] + \cdots + E[X_m]",
        "formula",
    ),
    Edit("equivariance", "sa", 351, r"= P\,\mathrm{MHA}(X)", r"= \mathrm{MHA}(X)", "formula"),
    Edit("causal-map", "sa", 418, r"f_i(X_{1:i})_i", r"f_n(X_{1:i})_i", "formula"),
    Edit(
        "layer-norm-eps-outside-root",
        "tb",
        45,
        r"{\sqrt{\sigma^2(\boldsymbol{x}) + \varepsilon}}",
        r"{\sqrt{\sigma^2(\boldsymbol{x})} + \varepsilon}",
        "formula",
    ),
    Edit(
        "mean-denominator",
        "tb",
        41,
        r"\mu(\boldsymbol{x}) := \frac{1}{d}",
        r"\mu(\boldsymbol{x}) := \frac{1}{d-1}",
        "formula",
    ),
    Edit(
        "variance-exponent",
        "tb",
        41,
        r"\mu(\boldsymbol{x})\big)^2",
        r"\mu(\boldsymbol{x})\big)^3",
        "formula",
    ),
    Edit(
        "layer-norm-jacobian-sign",
        "tb",
        122,
        r"- \frac{1}{d}\boldsymbol{y}",
        r"+ \frac{1}{d}\boldsymbol{y}",
        "formula",
    ),
    Edit(
        "jacobian-scaling", "tb", 128, "J(\\boldsymbol{x})/a$", "J(\\boldsymbol{x})/a^2$", "formula"
    ),
    Edit(
        "parameters-final-norm",
        "tb",
        208,
        r"\underbrace{2d}_{\text{最後",
        r"\underbrace{d}_{\text{最後",
        "formula",
    ),
    Edit("parameters-per-layer", "tb", 210, "$12d^2 + 13d$", "$12d^2 + 12d$", "formula"),
    Edit(
        "block-cost-mlp",
        "tb",
        263,
        r"\underbrace{2nd\,d_{\mathrm{ff}}}",
        r"\underbrace{nd\,d_{\mathrm{ff}}}",
        "formula",
    ),
    Edit(
        "gelu-second", "tb", 340, r"= (2 - t^2)\,\varphi(t)", r"= (1 - t^2)\,\varphi(t)", "formula"
    ),
    Edit(
        "layer-norm-norm",
        "tb",
        90,
        r"\|\boldsymbol{y}\| = \sqrt{d}",
        r"\|\boldsymbol{y}\| = d",
        "formula",
    ),
    Edit(
        "layer-norm-invariance",
        "tb",
        89,
        r"\mathrm{LN}(a\boldsymbol{x} + b\boldsymbol{1}) = \mathrm{LN}(\boldsymbol{x})",
        r"\mathrm{LN}(a\boldsymbol{x} + b\boldsymbol{1}) = a\,\mathrm{LN}(\boldsymbol{x})",
        "formula",
    ),
    # a claim in words or numbers
    Edit("semidefinite", "sa", 120, "半正定値", "正定値", "claim"),
    Edit(
        "independent-of-heads",
        "sa",
        540,
        "ヘッド数 $h$ に依らない",
        "ヘッド数 $h$ に比例する",
        "claim",
    ),
    Edit("crossover", "sa", 589, "$n = 2d = 128$", "$n = 3d = 128$", "claim"),
    Edit(
        "causal-not-equivariant", "sa", 403, "は置換同変ではありません", "は置換同変です", "claim"
    ),
    Edit("shift-invariant-name", "sa", 89, "（平行移動不変）", "（拡大縮小不変）", "claim"),
    Edit("convex", "sa", 216, "の凸結合である", "の線形結合である", "claim"),
    Edit("unit-variance", "sa", 278, "平均 0・分散 1 とする", "平均 0・分散 2 とする", "claim"),
    Edit("block-crossover", "tb", 265, "$n < 6d$", "$n < 8d$", "claim"),
    Edit("regions", "tb", 346, "領域は多くても 7 個", "領域は多くても 8 個", "claim"),
    Edit("paper-disagrees", "tb", 251, "2 つの数は一致しません", "2 つの数は一致します", "claim"),
    Edit("row-wise-zero", "tb", 283, "ヤコビ行列は 0 である", "ヤコビ行列は 1 である", "claim"),
    Edit("one-identity", "tb", 172, "ちょうど 1 つある", "ちょうど 2 つある", "claim"),
    Edit("paper-total", "tb", 251, "117M", "124M", "claim"),
    # an example's or exercise's printed numbers
    Edit(
        "weights-entry",
        "sa",
        260,
        "0.4011 & 0.1978 & 0.4011 \\\\ 0.1978",
        "0.4012 & 0.1978 & 0.4011 \\\\ 0.1978",
        "example",
    ),
    Edit("output-row", "sa", 264, r"= (0.8022,\ 0.5989)", r"= (0.8022,\ 0.5988)", "example"),
    Edit("self-score", "sa", 268, r"29/\sqrt2", r"27/\sqrt2", "example"),
    Edit("unmasked-row", "sa", 268, "(4.6488, -1.8110)", "(4.6488, -1.8111)", "example"),
    Edit("exponential", "sa", 257, "e^{0.7071} = 2.0281", "e^{0.7071} = 2.0291", "example"),
    Edit(
        "softmax-answer",
        "sa",
        743,
        r"\sigma(\boldsymbol{z}) = (1/6, 1/3, 1/2)",
        r"\sigma(\boldsymbol{z}) = (1/6, 1/2, 1/3)",
        "example",
    ),
    Edit("masked-answer", "sa", 769, r"(0.2689,\ 0.7311,\ 0)", r"(0.2698,\ 0.7302,\ 0)", "example"),
    Edit(
        "mask-bound-answer",
        "sa",
        769,
        r"\approx 7.4 \times 10^{-6}",
        r"\approx 7.5 \times 10^{-6}",
        "example",
    ),
    Edit("eigenvalue", "sa", 758, "と $2s(1-s)$ です", "と $s(1-s)$ です", "example"),
    Edit("printed-count", "sa", 550, "1{,}050{,}624", "1{,}050{,}628", "example"),
    Edit("layer-norm-sigma", "tb", 110, r"\sigma = 1.8708$", r"\sigma = 1.8718$", "example"),
    Edit("layer-norm-output", "tb", 112, r"(-1.0690,\ -0.5345", r"(-1.0790,\ -0.5345", "example"),
    Edit("small-model-mlp", "tb", 232, "= 148", "= 149", "example"),
    Edit("vocabulary", "tb", 239, "語彙は 50,257", "語彙は 50,258", "example"),
    Edit("embedding-share", "tb", 504, r"\approx 23.5\%", r"\approx 24.5\%", "example"),
    Edit("doubling", "tb", 538, r"\approx 3.82", r"\approx 3.83", "example"),
    Edit("doubling-limit", "tb", 540, "4 倍に近づきます", "3 倍に近づきます", "claim"),
    Edit("gelu-zeros", "tb", 342, r"$t = \pm\sqrt2$", r"$t = \pm\sqrt3$", "claim"),
    Edit(
        "residual-term-count", "tb", 186, "選び方の数 $2^{M-l}$", "選び方の数 $2^{M-l+1}$", "claim"
    ),
    Edit("doubling-factor", "sa", 560, "$2n^2d$ の項は 4 倍", "$2n^2d$ の項は 3 倍", "claim"),
    Edit("weights-memory", "sa", 560, "記憶は $hn^2$ 個", "記憶は $hn$ 個", "claim"),
    Edit("affine-variance", "tb", 512, "分散は $g^2$ です", "分散は $g$ です", "example"),
    Edit("expansion-order", "tb", 524, "J_3J_1 +", "J_1J_3 +", "example"),
    # a rounding
    Edit("row-sum-rounding", "sa", 268, r"(1,\ 2.0281)/3.0281", r"(1,\ 2.0281)/3.0291", "rounding"),
    Edit("exp-last-digit", "sa", 257, "e^{1.4142} = 4.1133", "e^{1.4142} = 4.1134", "rounding"),
    Edit("ratio-rounding", "tb", 277, "の $0.222$ 倍", "の $0.232$ 倍", "rounding"),
    Edit(
        "scaled-variance-rounding",
        "tb",
        114,
        r"= 31.5 = 9 \times 3.5",
        r"= 31.6 = 9 \times 3.5",
        "rounding",
    ),
    # the structure
    Edit(
        "kind",
        "sa",
        84,
        '<Proposition id="prop-softmax-basic"',
        '<Lemma id="prop-softmax-basic"',
        "structure",
    ),
    Edit(
        "dangling-ref",
        "sa",
        11,
        '<Ref to="prop-softmax-basic" />',
        '<Ref to="prop-softmax-basics" />',
        "structure",
    ),
    Edit("renumbered", "tb", 118, "命題 3.3（", "命題 3.4（", "structure"),
    Edit(
        "deleted",
        "tb",
        196,
        "注意 4.2（どちらが学習しやすいかは経験的な事柄）",
        "",
        "structure",
        expect_line=204,
    ),
    Edit("duplicated", "tb", 237, "例 5.3（", "例 5.2（", "structure"),
    Edit("dangling-number", "tb", 8, "（命題 3.1）", "（命題 3.9）", "structure"),
    # a table cell
    Edit("scaling-cell", "sa", 314, "| 0.532 |", "| 0.533 |", "table"),
    Edit("complexity-cell", "sa", 585, "12,582,912", "12,582,913", "table"),
    Edit("gpt2-cell", "tb", 244, "7,087,872", "7,087,873", "table"),
    # a printed output line of a listing
    Edit("listing-count", "sa", 667, "params: 288", "params: 289", "output"),
    Edit("listing-model-count", "tb", 429, "count: 568", "count: 569", "output"),
]

NEUTRAL = [
    Edit(
        "entry-spacing",
        "sa",
        115,
        r"\sigma_i(\delta_{ij} - \sigma_j)",
        r"\sigma_i (\delta_{ij}-\sigma_j)",
    ),
    Edit(
        "entry-expanded",
        "sa",
        115,
        r"\sigma_i(\delta_{ij} - \sigma_j)",
        r"\sigma_i\delta_{ij} - \sigma_i\sigma_j",
    ),
    Edit(
        "matrix-reordered",
        "sa",
        115,
        r"\mathrm{diag}(\boldsymbol{\sigma}) - \boldsymbol{\sigma}\boldsymbol{\sigma}^{\mathsf{T}}",
        r"-\boldsymbol{\sigma}\boldsymbol{\sigma}^{\mathsf{T}} + \mathrm{diag}(\boldsymbol{\sigma})",
    ),
    Edit("count-spacing", "sa", 537, "4d^2 + 4d", "4 d^2 + 4 d"),
    Edit("reworded-illustration", "sa", 52, "イメージをつかむために", "イメージのために"),
    Edit("reworded-remark", "sa", 106, "2 は実装で重要です。", "2 は実装でとても重要です。"),
    Edit(
        "invariance-reordered",
        "tb",
        89,
        r"\mathrm{LN}(a\boldsymbol{x} + b\boldsymbol{1})",
        r"\mathrm{LN}(b\boldsymbol{1} + a\boldsymbol{x})",
    ),
    Edit("per-layer-reordered", "tb", 210, "$12d^2 + 13d$", "$13d + 12d^2$"),
    Edit(
        "jacobian-spacing",
        "tb",
        122,
        r"\boldsymbol{y}\boldsymbol{y}^{\mathsf{T}}",
        r"\boldsymbol{y} \boldsymbol{y}^{\mathsf{T}}",
    ),
    Edit(
        "reworded-proof",
        "tb",
        214,
        "構成要素ごとに成分の個数を数えます。",
        "構成要素ごとに数えます。",
    ),
    Edit("reworded-summary", "tb", 293, "つまり、ある位置の予測が", "すなわち、ある位置の予測が"),
    Edit(
        "norm-rewritten",
        "tb",
        90,
        r"\|\boldsymbol{y}\| = \sqrt{d}",
        r"\|\boldsymbol{y}\| = d^{1/2}",
    ),
    # a number in another notation of the chapter: its value and printed precision kept
    Edit("vocabulary-ungrouped", "tb", 239, "語彙は 50,257", "語彙は 50257"),
    Edit("context-ungrouped", "tb", 239, "文脈長は 1,024", "文脈長は 1024"),
    Edit("context-full-width", "tb", 239, "文脈長は 1,024", "文脈長は １，０２４"),
    Edit("count-ungrouped", "tb", 251, "結果は 124,439,808 です", "結果は 124439808 です"),
    Edit(
        "total-tex-grouped", "tb", 251, "結果は 124,439,808 です", "結果は $124{,}439{,}808$ です"
    ),
    Edit("size-grouped", "sa", 320, "$d_k = 1024$", "$d_k = 1{,}024$"),
    Edit("parameters-ungrouped", "sa", 550, "= 1{,}050{,}624$", "= 1050624$"),
    Edit("without-bias-ungrouped", "sa", 550, "$1{,}048{,}576$", "$1048576$"),
    Edit("length-grouped", "tb", 277, "$n = 1024$", "$n = 1{,}024$"),
    Edit("cell-ungrouped", "sa", 583, "| 1,048,576 |", "| 1048576 |"),
    Edit("cell-full-width", "sa", 583, "| 1,048,576 |", "| １，０４８，５７６ |"),
    Edit("tab-cell-tex-grouped", "tb", 244, "\t7,087,872", "\t7{,}087{,}872"),
]


def chapter(key: str) -> Path:
    path = FILES[key]
    if not path.is_file():
        pytest.skip(f"{path} is not here: no chapter to copy")
    return path


_PRISTINE: dict[str, Report] = {}


def pristine(key: str) -> Report:
    if key not in _PRISTINE:
        _PRISTINE[key] = audit_file(chapter(key))
    return _PRISTINE[key]


def edited(edit: Edit, directory: Path) -> Report:
    path = chapter(edit.chapter)
    lines = path.read_text(encoding="utf-8").split("\n")
    assert edit.old in lines[edit.line - 1], f"{edit.name}: {edit.old!r} not on line {edit.line}"
    lines[edit.line - 1] = lines[edit.line - 1].replace(edit.old, edit.new, 1)
    copy = directory / path.name
    copy.write_text("\n".join(lines), encoding="utf-8")
    return audit_file(copy)


def signature(report: Report) -> Counter:
    """What an audit says, without where: section, status and what was audited."""
    return Counter((f.section, f.status, f.text) for f in report.findings)


@pytest.mark.slow
@pytest.mark.parametrize("slip", SLIPS, ids=[s.name for s in SLIPS])
def test_each_slip_is_reported_at_its_line(slip, tmp_path):
    known = {(f.section, f.line, f.text) for f in pristine(slip.chapter).mismatched}
    report = edited(slip, tmp_path)
    new = [f for f in report.mismatched if (f.section, f.line, f.text) not in known]
    line = slip.expect_line or slip.line
    assert any(f.line == line for f in new), (
        f"{slip.name}: no new mismatch at line {line}; new: "
        f"{[(f.section, f.line, f.detail[:80]) for f in new]}"
    )


@pytest.mark.slow
@pytest.mark.parametrize("edit", NEUTRAL, ids=[e.name for e in NEUTRAL])
def test_a_neutral_edit_changes_nothing(edit, tmp_path):
    report = edited(edit, tmp_path)
    before = pristine(edit.chapter)
    assert [(f.section, f.line, f.detail) for f in report.mismatched] == [
        (f.section, f.line, f.detail) for f in before.mismatched
    ]
    changed = {(s, st, t) for (s, st, t) in signature(report) - signature(before)}
    assert all(status != "mismatched" for _, status, _ in changed), changed


def test_the_corpus_covers_every_category_with_enough_copies():
    categories = Counter(s.category for s in SLIPS)
    assert set(categories) == {
        "formula",
        "claim",
        "example",
        "rounding",
        "structure",
        "table",
        "output",
    }
    assert len(SLIPS) >= 60 and len(NEUTRAL) >= 10
