# ruff: noqa: E501 - the edits are lines of TeX, kept whole so that they read as written
"""One-edit copies of the two seed chapters: realistic slips (a formula, a claim in words
or numbers, an example's printed number, a rounding, the structure, a table cell, a
printed output line, a claim in the prose around the elements), each expected at its
line, and neutral edits (spacing, an equivalent formula, another of the chapter's
notations for a number, a reworded sentence) expected to change nothing.

tests/audit/test_slips.py asserts both; benchmarks/seed_detection.py prints what share of
each category the audit catches, counting NOT_YET: prose-claim slips written the same
way that the audit does not catch, kept so that the figure is honest and the list can
only shrink.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    name: str
    chapter: str  # "sa" (self-attention) or "tb" (Transformer block)
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
    Edit(
        "unbound-relation-added",
        "sa",
        91,
        r"P\sigma(\boldsymbol{z})$。",
        r"P\sigma(\boldsymbol{z})$。また $\sigma(2\boldsymbol{z}) = 2\sigma(\boldsymbol{z})$。",
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
    # claims in the prose around the elements: summaries, remarks, discussions, answers
    Edit(
        "sa-three-questions", "sa", 32, "次の 3 つの問い", "次の 4 つの問い", "prose claim"
    ),  # count
    Edit("sa-three-facts", "sa", 54, "事実を 3 つ確認", "事実を 4 つ確認", "prose claim"),  # count
    Edit(
        "sa-one-per-row", "sa", 58, "1 がちょうど 1 個ある", "1 がちょうど 2 個ある", "prose claim"
    ),  # count
    Edit(
        "sa-one-minus", "sa", 320, "$1 - 0.97 = 0.03$", "$1 - 0.97 = 0.3$", "prose claim"
    ),  # bound
    Edit(
        "sa-without-bias", "sa", 550, "$1{,}048{,}576$", "$1{,}048{,}567$", "prose claim"
    ),  # count
    Edit(
        "sa-proj-larger-until",
        "sa",
        579,
        "$n$ が $d$ より小さいあいだは",
        "$n$ が $4d$ より小さいあいだは",
        "prose claim",
    ),  # crossover
    Edit(
        "sa-table-d", "sa", 579, "$d = 64$ のときの回数", "$d = 32$ のときの回数", "prose claim"
    ),  # read-off
    Edit(
        "sa-total-ratio-limit", "sa", 589, "4 に近づきます", "3 に近づきます", "prose claim"
    ),  # limit
    Edit(
        "sa-crossover-value", "sa", 589, "$n = 2d = 128$", "$n = 2d = 256$", "prose claim"
    ),  # crossover
    Edit(
        "sa-softmax-sum", "sa", 743, "で和は 6 なので", "で和は 5 なので", "prose claim"
    ),  # read-off
    Edit(
        "sa-eigen-base", "sa", 758, "固有値は 0 と 2 です", "固有値は 0 と 1 です", "prose claim"
    ),  # count
    Edit(
        "sa-eigen-max", "sa", 758, "最大値 $1/2$ を取り", "最大値 $1/4$ を取り", "prose claim"
    ),  # special-case
    Edit(
        "sa-eigen-limit",
        "sa",
        758,
        "1 に近づくと 0 に近づきます",
        "1 に近づくと 1 に近づきます",
        "prose claim",
    ),  # limit
    Edit(
        "sa-mask-e10", "sa", 769, r"4.54\times10^{-5}", r"4.54\times10^{-4}", "prose claim"
    ),  # bound
    Edit(
        "sa-summary-params",
        "sa",
        14,
        "パラメータ数は $4d^2 + 4d$",
        "パラメータ数は $4d^2 + 3d$",
        "prose claim",
    ),  # count
    Edit(
        "sa-summary-cost", "sa", 14, "$4nd^2 + 2n^2 d$", "$4nd^2 + n^2 d$", "prose claim"
    ),  # count
    Edit("tb-summary-total", "tb", 10, "124,439,808", "124,439,880", "prose claim"),  # read-off
    Edit("tb-summary-crossover", "tb", 11, "$n < 6d$", "$n < 4d$", "prose claim"),  # crossover
    Edit(
        "tb-three-missing",
        "tb",
        25,
        "3 つのものが足りません",
        "4 つのものが足りません",
        "prose claim",
    ),  # count
    Edit("tb-dff-factor", "tb", 67, "= 2048 = 4d$", "= 2048 = 2d$", "prose claim"),  # ratio
    Edit("tb-small-ln", "tb", 232, "層正規化：$16$", "層正規化：$8$", "prose claim"),  # count
    Edit(
        "tb-small-final-ln", "tb", 233, "最後の層正規化：$8$", "最後の層正規化：$4$", "prose claim"
    ),  # count
    Edit(
        "tb-small-listing", "tb", 235, "同じ 568 になります", "同じ 586 になります", "prose claim"
    ),  # read-off
    Edit("tb-dff-3072", "tb", 239, "= 4d = 3072$", "= 4d = 3027$", "prose claim"),  # ratio
    Edit("tb-embedding-share", "tb", 255, r"\approx 31\%", r"\approx 36\%", "prose claim"),  # ratio
    Edit(
        "tb-mlp-ops", "tb", 277, "7{,}247{,}757{,}312", "7{,}247{,}757{,}321", "prose claim"
    ),  # read-off
    Edit("tb-6d-value", "tb", 277, "$6d = 4608$", "$6d = 4096$", "prose claim"),  # crossover
    Edit(
        "tb-patterns-seen", "tb", 346, "現れるのは 7 通り", "現れるのは 6 通り", "prose claim"
    ),  # read-off
    Edit(
        "tb-patterns-total", "tb", 346, "8 通りのパターン", "9 通りのパターン", "prose claim"
    ),  # count
    Edit(
        "tb-listing-568", "tb", 436, "例 5.2 の 568 で一致", "例 5.2 の 586 で一致", "prose claim"
    ),  # read-off
    Edit(
        "tb-exercise-final-ln",
        "tb",
        504,
        "最後の層正規化 $128$",
        "最後の層正規化 $64$",
        "prose claim",
    ),  # count
    Edit(
        "tb-exercise-two-sets", "tb", 526, "2 元集合 3 つ", "2 元集合 2 つ", "prose claim"
    ),  # count
    Edit(
        "tb-exercise-eight-terms", "tb", 526, "の 8 項です", "の 7 項です", "prose claim"
    ),  # count
    Edit("tb-ratio-n-d", "tb", 536, r"\approx 2.29", r"\approx 2.39", "prose claim"),  # ratio
    Edit("tb-ratio-6d", "tb", 537, "$36d/12d = 3$", "$36d/12d = 4$", "prose claim"),  # ratio
    Edit("tb-short-limit", "tb", 540, "2 倍に近く", "1 倍に近く", "prose claim"),  # limit
    Edit(
        "tb-midpoint",
        "tb",
        540,
        "$n = 6d$ がちょうどその中間",
        "$n = 4d$ がちょうどその中間",
        "prose claim",
    ),  # crossover
    Edit(
        "sa-max-weight-1024",
        "sa",
        320,
        "最大の重みが平均 0.97 です",
        "最大の重みが平均 0.93 です",
        "prose claim",
    ),  # read-off
    Edit(
        "tb-postln-two-dirs",
        "tb",
        194,
        "行ごとに 2 方向を消して",
        "行ごとに 3 方向を消して",
        "prose claim",
    ),  # count
    Edit(
        "sa-exponent-at-most-one",
        "sa",
        106,
        "すべての指数が 1 以下",
        "すべての指数が 0 以下",
        "prose claim",
    ),  # bound
    Edit(
        "sa-time-order",
        "sa",
        560,
        "$O(nd^2 + n^2 d)$ であり",
        "$O(nd^2 + nd)$ であり",
        "prose claim",
    ),  # order
    Edit(
        "sa-long-order", "sa", 560, "のときは $O(n^2 d)$", "のときは $O(nd^2)$", "prose claim"
    ),  # order
    Edit(
        "sa-long-regime", "sa", 560, r"$n \ge d$ のときは", r"$n \le d$ のときは", "prose claim"
    ),  # order
    Edit("sa-softmax-order", "sa", 560, "$O(hn^2)$ 回", "$O(n^2)$ 回", "prose claim"),  # order
    Edit(
        "sa-paper-order", "sa", 579, r"$O(n^2 \cdot d)$", r"$O(n \cdot d^2)$", "prose claim"
    ),  # order
    Edit(
        "tb-time-order", "tb", 265, "計算量は $O(nd^2 + n^2d)$", "計算量は $O(n^2d)$", "prose claim"
    ),  # order
    Edit(
        "tb-ln-two-directions",
        "tb",
        154,
        "その 2 方向の微分が 0",
        "その 3 方向の微分が 0",
        "prose claim",
    ),  # count
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
    Edit(
        "unbound-relation-true",
        "sa",
        91,
        r"P\sigma(\boldsymbol{z})$。",
        r"P\sigma(\boldsymbol{z})$。また $\sigma(2\boldsymbol{z})_i > 0$。",
    ),
    Edit("heading-without-mark", "tb", 118, "のヤコビ行列）✓", "のヤコビ行列）"),
    Edit("roundoff-other-machine", "sa", 668, "= 2.2e-16", "= 4.4e-16"),
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
    # prose claims written in another notation or reworded, their numbers kept
    Edit("tb-summary-vocab-ungrouped", "tb", 10, "語彙 50,257", "語彙 50257"),  # read-off
    Edit("tb-summary-total-ungrouped", "tb", 10, "124,439,808", "124439808"),  # read-off
    Edit(
        "tb-share-ungrouped",
        "tb",
        255,
        "$38{,}597{,}376 / 124{,}439{,}808",
        "$38597376 / 124439808",
    ),  # ratio
    Edit("tb-6d-grouped", "tb", 277, "$6d = 4608$", "$6d = 4{,}608$"),  # crossover
    Edit("tb-exercise-ungrouped", "tb", 504, "$64{,}000/272{,}256", "$64000/272256"),  # ratio
    Edit(
        "tb-listing-full-width", "tb", 235, "同じ 568 になります", "同じ ５６８ になります"
    ),  # read-off
    Edit(
        "tb-regions-reworded",
        "tb",
        346,
        "実際の個数はもっと少なくなります",
        "実際の個数はそれより少なくなります",
    ),  # bound
    Edit(
        "tb-gradient-reworded",
        "tb",
        154,
        "入力を $a$ 倍すると勾配は $1/a$ 倍です",
        "入力を $a$ 倍すれば勾配は $1/a$ 倍になります",
    ),  # ratio
    Edit("tb-limit-reworded", "tb", 540, "4 倍に近づきます", "4 倍に近づいていきます"),  # limit
    Edit("sa-pairs-ungrouped", "sa", 310, "20,000 組", "20000 組"),  # count
    Edit("sa-dk-grouped", "sa", 320, "$d_k = 1024$ では", "$d_k = 1{,}024$ では"),  # read-off
    Edit(
        "sa-crossover-reworded", "sa", 589, "2 つの項が等しくなります", "2 つの項が同じ値になります"
    ),  # crossover
    Edit(
        "sa-count-spacing",
        "sa",
        550,
        r"$4 \times 512^2 + 4 \times 512",
        r"$4\times 512^2 + 4\times 512",
    ),  # count
    Edit(
        "sa-eigen-reworded",
        "sa",
        758,
        "$s = 1/2$ のとき最大値 $1/2$ を取り",
        "$s = 1/2$ で最大値 $1/2$ を取り",
    ),  # special-case
    Edit("tb-regions-takadaka", "tb", 346, "領域は多くても 7 個", "領域は高々 7 個"),  # bound
    Edit(
        "tb-patterns-reworded", "tb", 346, "現れるのは 7 通りでした", "現れたのは 7 通りでした"
    ),  # read-off
    Edit("tb-short-limit-full-width", "tb", 540, "2 倍に近く", "２ 倍に近く"),  # limit
    Edit("sa-one-minus-spacing", "sa", 320, "$1 - 0.97 = 0.03$", "$1-0.97=0.03$"),  # bound
    Edit(
        "sa-time-order-reordered", "sa", 560, "$O(nd^2 + n^2 d)$ であり", "$O(n^2 d + nd^2)$ であり"
    ),
    Edit("sa-paper-order-reordered", "sa", 579, r"$O(n^2 \cdot d)$", r"$O(d\,n^2)$"),
    Edit("sa-total-ratio-reworded", "sa", 589, "4 に近づきます", "4 へと近づいていきます"),
]


# prose-claim slips the audit does not catch yet (the kind after each); why, in short:
# a value no check derives (the sample sizes 8 keys, 20,000 pairs; 10^-5), a count of a
# figure's or a listing's content (8 terms in a caption, 1 が 4 個), a restatement in words
# of a formula or a limit outside any element's region (the summary's 2 方向, M = 2L), a
# value approximate over a table's rows (0.35 前後), a cited result of another chapter (1/d)
NOT_YET = [
    Edit(
        "sa-jacobian-to-zero",
        "sa",
        148,
        "全成分が 0 に近くなる",
        "全成分が 1 に近くなる",
        "prose claim",
    ),  # limit
    Edit(
        "sa-mask-error-order",
        "sa",
        172,
        "誤差は $e^{-c}$ に比例",
        "誤差は $e^{-2c}$ に比例",
        "prose claim",
    ),  # order
    Edit(
        "sa-sum-variance",
        "sa",
        274,
        "合計の分散が $d_k$ になる",
        "合計の分散が $d_k^2$ になる",
        "prose claim",
    ),  # order
    Edit(
        "sa-eight-keys",
        "sa",
        310,
        "1 個のクエリと 8 個のキー",
        "1 個のクエリと 6 個のキー",
        "prose claim",
    ),  # count
    Edit("sa-scaled-around", "sa", 320, "0.35 前後", "0.45 前後", "prose claim"),  # read-off
    Edit(
        "sa-one-of-eight", "sa", 320, "8 個のうち 1 個に", "8 個のうち 2 個に", "prose claim"
    ),  # count
    Edit(
        "sa-sphere-variance",
        "sa",
        322,
        "内積の分散が $1/d$ になる",
        "内積の分散が $1/d^2$ になる",
        "prose claim",
    ),  # order
    Edit(
        "sa-prefix-example",
        "sa",
        411,
        "3 語だけを入れたときの 3 行目",
        "4 語だけを入れたときの 3 行目",
        "prose claim",
    ),  # special-case
    Edit(
        "sa-n-passes", "sa", 489, "の列を $n$ 回処理", "の列を $n-1$ 回処理", "prose claim"
    ),  # count
    Edit("sa-base-dk", "sa", 550, "$d_k = 64$", "$d_k = 32$", "prose claim"),  # special-case
    Edit(
        "sa-listing-288", "sa", 679, "$4d^2 + 4d = 288$", "$4d^2 + 4d = 280$", "prose claim"
    ),  # read-off
    Edit(
        "sa-three-settled",
        "sa",
        733,
        "確定したことは 3 つです",
        "確定したことは 4 つです",
        "prose claim",
    ),  # count
    Edit("sa-appendix-three", "sa", 826, "3 個以上の積", "4 個以上の積", "prose claim"),  # bound
    Edit("tb-two-parts", "tb", 7, "という 2 つの部品", "という 3 つの部品", "prose claim"),  # count
    Edit(
        "tb-summary-two-dirs", "tb", 8, "の 2 方向を消し", "の 3 方向を消し", "prose claim"
    ),  # count
    Edit(
        "tb-summary-inv-sigma",
        "tb",
        8,
        r"$1/\sigma(\boldsymbol{x})$ に比例",
        r"$1/\sigma(\boldsymbol{x})^2$ に比例",
        "prose claim",
    ),  # order
    Edit("tb-eps", "tb", 49, "$10^{-5}$ 程度", "$10^{-3}$ 程度", "prose claim"),  # read-off
    Edit(
        "tb-untied-count", "tb", 81, r"新しく $|V|\,d$ 個", r"新しく $|V|\,d^2$ 個", "prose claim"
    ),  # count
    Edit(
        "tb-sphere-radius", "tb", 106, r"半径 $\sqrt{d}$ の球面", "半径 $d$ の球面", "prose claim"
    ),  # special-case
    Edit(
        "tb-gradient-factor",
        "tb",
        154,
        "勾配は $1/a$ 倍です",
        "勾配は $1/a^2$ 倍です",
        "prose claim",
    ),  # ratio
    Edit(
        "tb-d2-special", "tb", 154, "なお $d = 2$ では", "なお $d = 3$ では", "prose claim"
    ),  # special-case
    Edit("tb-M-2L", "tb", 158, "$M = 2L$", "$M = 3L$", "prose claim"),  # count
    Edit(
        "tb-eight-ways",
        "tb",
        160,
        "3 段なら下の図のように 8 通り",
        "3 段なら下の図のように 6 通り",
        "prose claim",
    ),  # count
    Edit("tb-caption-eight", "tb", 162, "8 つの項", "9 つの項", "prose claim"),  # count
    Edit(
        "tb-blocks-d-square",
        "tb",
        255,
        "$d$ の 2 乗と $L$ に比例",
        "$d$ の 3 乗と $L$ に比例",
        "prose claim",
    ),  # order
    Edit(
        "tb-three-lines", "tb", 346, "平面上の 3 本の直線", "平面上の 4 本の直線", "prose claim"
    ),  # count
    Edit(
        "tb-singular-ones", "tb", 490, "1 が 4 個、0 が 2 個", "1 が 3 個、0 が 2 個", "prose claim"
    ),  # count
    Edit(
        "tb-singular-zeros",
        "tb",
        490,
        "1 が 4 個、0 が 2 個",
        "1 が 4 個、0 が 3 個",
        "prose claim",
    ),  # count
    Edit(
        "tb-pattern-missing", "tb", 490, "パターン 001 だけ", "パターン 010 だけ", "prose claim"
    ),  # read-off
]
