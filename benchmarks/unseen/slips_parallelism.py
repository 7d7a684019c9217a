"""Data: one-slip edits of the chapter parallelism.txt (分散学習：データ並列・テンソル並列・パイプライン並列と、ZeRO・再計算による記憶の削減).

Each entry of SLIPS is one edit of one line of parallelism.txt:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line.  The chapter is plain text
(no MDX tags), so every structure slip shows at the edited line: a duplicated
or skipped heading number, a duplicated element number, or a reference to an
element, exercise or bibliography entry that does not exist.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_parallelism.py passes on all of them.  Note that
this recompute script compares exact strings built with `{,}` separators, so
neutral edits never touch a checked number (no `{,}` -> `,` here).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_parallelism.py exit 1.  The recompute script checks each number
inside a long string of its context, so numbers printed twice (e.g.
106,534,469,632 in section 1 and in the ZeRO table, 17.95 in the table and in
the prose) are only used where the edited occurrence sits in its own checked
context; each such slip was still run and fails.
Every formula and claim slip was checked (by hand or with sympy) to make the
text mathematically false.
"""

CH = "parallelism.txt"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("fits-below-4-billion", CH, 5,
     "パラメータが 50 億を超えると", "パラメータが 40 億を超えると", "prose arithmetic", None),
    ("zero3-comm-twice", CH, 10,
     "段階 3 で 1.5 倍", "段階 3 で 2 倍", "prose arithmetic", None),
    ("per-layer-params-transposed", CH, 23,
     "= 201{,}379{,}840$ 個", "= 201{,}379{,}480$ 個", "prose arithmetic", None),
    ("32-layer-params-transposed", CH, 23,
     "$6{,}444{,}154{,}880$", "$6{,}444{,}145{,}880$", "prose arithmetic", None),
    ("embedding-params-transposed", CH, 23,
     "= 205{,}852{,}672$", "= 205{,}852{,}762$", "prose arithmetic", None),
    ("final-ln-gain-only", CH, 23,
     "最後の層正規化が $8{,}192$ 個", "最後の層正規化が $4{,}096$ 個", "prose arithmetic", None),
    ("ring-1024-used-512", CH, 97,
     "$1.998046875N$", "$1.99609375N$", "prose arithmetic", None),
    ("naive-vs-ring-factor-p", CH, 112,
     "$7N$、4 倍です", "$7N$、8 倍です", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("beta-m2-truncated", CH, 231,
     "\t77.78\t", "\t77.77\t", "rounding", None),
    ("beta-m4-truncated", CH, 232,
     "\t63.64\t", "\t63.63\t", "rounding", None),
    ("beta-m64-truncated", CH, 236,
     "\t9.86\t", "\t9.85\t", "rounding", None),
    ("stage-gb-truncated", CH, 238,
     "約 12.89 GB", "約 12.88 GB", "rounding", None),
    ("zero2-ratio-truncated", CH, 281,
     "\t0.1387\t", "\t0.1386\t", "rounding", None),
    ("zero3-gb-double-rounded", CH, 284,
     "約 1.66 GB", "約 1.67 GB", "rounding", None),
    ("quadratic-share-truncated", CH, 342,
     "\\approx 70.18\\,\\%", "\\approx 70.17\\,\\%", "rounding", None),
    ("full-recompute-ratio-truncated", CH, 347,
     "\t0.0488", "\t0.0487", "rounding", None),
    ("tp-activation-ratio-truncated", CH, 348,
     "\t0.2018", "\t0.2017", "rounding", None),
    ("exercise-beta-truncated", CH, 427,
     "\\approx 9.091\\,\\%", "\\approx 9.090\\,\\%", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("ex56-completed-chunk-dropped-digit", CH, 104,
     "装置 2 の 111）", "装置 2 の 11）", "example number", None),
    ("ex56-step2-device1-early-sum", CH, 105,
     "$(11, 222, 333)$", "$(111, 222, 333)$", "example number", None),
    ("dp8-bytes-transposed", CH, 116,
     "= 23{,}304{,}415{,}232$", "= 23{,}304{,}451{,}232$", "example number", None),
    ("ex511-XW1-third-entry", CH, 158,
     "$XW_1 = (1, 1, 4, -1)$", "$XW_1 = (1, 1, 3, -1)$", "example number", None),
    ("tp-32-layers-transposed", CH, 181,
     "= 3{,}758{,}096{,}384$", "= 3{,}758{,}069{,}384$", "example number", None),
    ("stage-params-transposed", CH, 238,
     "= 805{,}519{,}360$", "= 805{,}519{,}630$", "example number", None),
    ("psi-over-64-transposed", CH, 276,
     "104{,}037{,}568", "104{,}037{,}586", "example number", None),
    ("zero-paper-stage1-transposed", CH, 284,
     "$31.40625$", "$31.40652$", "example number", None),
    ("activation-per-layer-digits", CH, 342,
     "= 956{,}301{,}312$ バイト", "= 956{,}301{,}321$ バイト", "example number", None),
    ("naive-1024-used-p", CH, 419,
     "$2{,}046 \\times 10^{9}$", "$2{,}048 \\times 10^{9}$", "example number", None),
    ("exercise-beta-denominator-m", CH, 427,
     "$\\beta = 15/150 = 10\\,\\%$", "$\\beta = 15/135 = 10\\,\\%$", "example number", None),

    # ---------------- table cell ----------------
    ("table-bubble-m8-span", CH, 233,
     "8\t15\t7/15", "8\t16\t7/15", "table cell", None),
    ("table-bubble-m16-ratio-transposed", CH, 234,
     "\t0.4375\t", "\t0.4735\t", "table cell", None),
    ("table-bubble-m32-ratio-transposed", CH, 235,
     "\t0.21875\t", "\t0.21785\t", "table cell", None),
    ("table-zero0-bytes-transposed", CH, 279,
     "106,534,469,632", "106,534,496,632", "table cell", None),
    ("table-zero1-bytes-transposed", CH, 280,
     "27,882,068,224", "27,882,086,224", "table cell", None),
    ("table-zero2-bytes-transposed", CH, 281,
     "14,773,334,656", "14,773,334,665", "table cell", None),
    ("table-zero3-comm-factor", CH, 282,
     "$3 \\cdot \\frac{63}{64}\\Psi$", "$2 \\cdot \\frac{63}{64}\\Psi$", "table cell", None),
    ("table-selective-32-layers", CH, 346,
     "9,126,805,504", "9,126,850,504", "table cell", None),
    ("table-tp-per-layer-transposed", CH, 348,
     "192,937,984", "192,397,984", "table cell", None),
    ("table-tp-selective-32-layers", CH, 349,
     "3,489,660,928", "3,489,660,982", "table cell", None),

    # ---------------- listing output ----------------
    ("output-step1-device0", CH, 392,
     "[1, 2, 303]", "[1, 2, 330]", "listing output", None),
    ("output-step2-device0", CH, 393,
     "[1, 222, 303]", "[1, 222, 333]", "listing output", None),
    ("output-step3-device2", CH, 394,
     "[111, 220, 333]", "[111, 202, 333]", "listing output", None),
    ("output-sent-per-device", CH, 396,
     "[4, 4, 4]", "[6, 6, 6]", "listing output", None),
    ("output-ratio-p3", CH, 399,
     "1.3333", "1.3334", "listing output", None),
    ("output-sent-p4-transposed", CH, 400,
     " 4         2520", " 4         2250", "listing output", None),
    ("output-ratio-p16-transposed", CH, 402,
     "1.8750", "1.8570", "listing output", None),

    # ---------------- formula ----------------
    ("summary-ring-missing-2", CH, 7,
     "$2(p-1)N/p$", "$(p-1)N/p$", "formula", None),
    ("dp-average-missing-1-over-p", CH, 57,
     "$$\\frac{1}{p}\\sum_{k=0}^{p-1}\\boldsymbol{g}^{(k)} = \\nabla", "$$\\sum_{k=0}^{p-1}\\boldsymbol{g}^{(k)} = \\nabla", "formula", None),
    ("ring-volume-p-plus-1", CH, 87,
     "\\dfrac{2(p-1)}{p}N$", "\\dfrac{2(p+1)}{p}N$", "formula", None),
    ("ring-proof-last-chunk-sign", CH, 91,
     "\\equiv k + 1$", "\\equiv k - 1$", "formula", None),
    ("ring-proof-2-minus-1-over-p", CH, 93,
     "$2(p-1)/p = 2 - 2/p$", "$2(p-1)/p = 2 - 1/p$", "formula", None),
    ("mlp-split-bias-dropped", CH, 138,
     "\\big)W_2^{(i)} + \\boldsymbol{1}\\boldsymbol{b}_2^{\\mathsf{T}}, \\qquad", "\\big)W_2^{(i)}, \\qquad", "formula", None),
    ("tp-volume-two-allreduces", CH, 164,
     "$4 \\cdot \\dfrac{2(t-1)}{t}\\,bnd$", "$2 \\cdot \\dfrac{2(t-1)}{t}\\,bnd$", "formula", None),
    ("tp-params-replicated-4d", CH, 165,
     "\\dfrac{12d^2 + 7d}{t} + 6d$", "\\dfrac{12d^2 + 7d}{t} + 4d$", "formula", None),
    ("bubble-def-extra-p", CH, 196,
     "= 1 - \\frac{m(t_f + t_b)}{T}", "= 1 - \\frac{pm(t_f + t_b)}{T}", "formula", None),
    ("gpipe-T-m-plus-p", CH, 206,
     "$T = (m + p - 1)(t_f + t_b)$", "$T = (m + p)(t_f + t_b)$", "formula", None),
    ("bubble-eps-condition-ratio", CH, 208,
     "$m \\ge (p-1)(1-\\varepsilon)/\\varepsilon$", "$m \\ge (p-1)/\\varepsilon$", "formula", None),
    ("lower-bound-p-tb", CH, 216,
     "T \\ge \\tau + (p-1)\\,t_b \\ge", "T \\ge \\tau + p\\,t_b \\ge", "formula", None),
    ("zero-stage3-memory-2-plus-K", CH, 259,
     "(4 + K)\\,\\Psi/N_d & (z = 3)", "(2 + K)\\,\\Psi/N_d & (z = 3)", "formula", None),
    ("zero-stage3-comm-4", CH, 263,
     "段階 3 では $3(N_d - 1)\\Psi/N_d$ 個", "段階 3 では $4(N_d - 1)\\Psi/N_d$ 個", "formula", None),
    ("tp-activation-quadratic-not-divided", CH, 301,
     "\\big) + \\frac{5hn^2b}{t}$", "\\big) + 5hn^2b$", "formula", None),
    ("mlp-activation-sum-18", CH, 305,
     "+ 8bnd + bnd = 19bnd$", "+ 8bnd + bnd = 18bnd$", "formula", None),
    ("matmul-grad-W-order", CH, 314,
     "\\partial W = X^{\\mathsf{T}}(\\partial\\mathcal{L}/\\partial Y)$", "\\partial W = (\\partial\\mathcal{L}/\\partial Y)X^{\\mathsf{T}}$", "formula", None),
    ("recompute-fraction-12d", CH, 329,
     "= \\frac{n}{3\\,(6d + n)}$$", "= \\frac{n}{3\\,(12d + n)}$$", "formula", None),

    # ---------------- claim ----------------
    ("summary-bubble-increasing", CH, 9,
     "$m$ について単調減少で", "$m$ について単調増加で", "claim", None),
    ("ring-three-statements-four", CH, 83,
     "次の 3 つが成り立つ", "次の 4 つが成り立つ", "claim", None),
    ("ring-volume-decreasing", CH, 87,
     "$p$ について単調増加で", "$p$ について単調減少で", "claim", None),
    ("naive-constant-in-p", CH, 112,
     "どちらも $p$ に比例して増え", "どちらも $p$ に依らず一定で", "claim", None),
    ("tp-volume-depends-on-params", CH, 164,
     "パラメータ数に依らない", "パラメータ数に比例する", "claim", None),
    ("tp-ratio-slightly-smaller", CH, 181,
     "よりわずかに大きいのは", "よりわずかに小さいのは", "claim", None),
    ("pipeline-more-comm-than-tp", CH, 185,
     "テンソル並列より通信はずっと少なくて済みます", "テンソル並列より通信はずっと多くなります", "claim", None),
    ("gpipe-memory-decreases", CH, 223,
     "活性の記憶が増えます", "活性の記憶が減ります", "claim", None),
    ("zero3-memory-proportional", CH, 261,
     "$N_d$ に反比例し", "$N_d$ に比例し", "claim", None),
    ("zero-stage2-first-fits", CH, 284,
     "段階 1 ですでに 80 GB の装置に収まり", "段階 2 で初めて 80 GB の装置に収まり", "claim", None),
    ("quadratic-term-depends-on-d", CH, 300,
     "$d$ に依らない", "$d$ に比例する", "claim", None),
    ("recompute-fraction-decreasing", CH, 331,
     "$n$ について単調増加であり", "$n$ について単調減少であり", "claim", None),
    ("exercise-numerators-differ", CH, 427,
     "2 つの量は分母が違うので", "2 つの量は分子が違うので", "claim", None),

    # ---------------- structure ----------------
    ("summary-ref-nonexistent-prop", CH, 7,
     "（命題 5.5）", "（命題 5.6）", "structure", None),
    ("bib-ref-nonexistent", CH, 23,
     "（[9] 表 2.1 と 2.1 節）", "（[10] 表 2.1 と 2.1 節）", "structure", None),
    ("prop-number-duplicated", CH, 160,
     "命題 5.12（テンソル並列の 1 層の通信と記憶）", "命題 5.11（テンソル並列の 1 層の通信と記憶）", "structure", None),
    ("section-number-duplicated", CH, 183,
     "5. パイプライン並列", "4. パイプライン並列", "structure", None),
    ("proof-of-definition", CH, 266,
     "証明（命題 5.18）", "証明（命題 5.17）", "structure", None),
    ("exercise-ref-nonexistent", CH, 284,
     "（演習 5.27）", "（演習 5.28）", "structure", None),
    ("section-number-skipped", CH, 411,
     "10. 演習", "11. 演習", "structure", None),

    # ---------------- neutral ----------------
    ("comma-compute", CH, 5,
     "計算の量も 1 台では足りません。", "計算の量も、1 台では足りません。", "neutral", None),
    ("reword-latency-model", CH, 41,
     "この見積もりは、通信 1 回ごとにかかる固定の遅れ（レイテンシ）を無視し、全装置が同時に帯域いっぱいで送れるとした模型です。",
     "この見積もりは、全装置が同時に帯域いっぱいで送れるとし、通信 1 回ごとにかかる固定の遅れ（レイテンシ）を無視した模型です。",
     "neutral", None),
    ("dp-proof-bp", CH, 65,
     "\\nabla\\mathcal{L} = \\frac{1}{pb}", "\\nabla\\mathcal{L} = \\frac{1}{bp}", "neutral", None),
    ("reword-batchnorm", CH, 71,
     "ミニバッチ全体で平均を取るバッチ正規化を使うモデルでは、この分解は成り立ちません。",
     "バッチ正規化のようにミニバッチ全体で平均を取る層を使うモデルでは、この分解は成り立ちません。",
     "neutral", None),
    ("lower-bound-ring-reordered", CH, 112,
     "下限が $2(p-1)N/p$ であること", "下限が $2N(p-1)/p$ であること", "neutral", None),
    ("reword-block-proof", CH, 142,
     "ブロック行列の積は区切りごとに計算できるので", "ブロック行列の積は区切りごとに計算できるから", "neutral", None),
    ("bubble-def-factored", CH, 196,
     "\\frac{pT - pm(t_f + t_b)}{pT}", "\\frac{p\\,(T - m(t_f + t_b))}{pT}", "neutral", None),
    ("gpipe-T-terms-swapped", CH, 213,
     "$T = (m + p - 1)t_f + (m + p - 1)t_b =", "$T = (m + p - 1)t_b + (m + p - 1)t_f =", "neutral", None),
    ("ratio-slash-form", CH, 218,
     "= \\dfrac{p-1}{m}$ です。", "= (p-1)/m$ です。", "neutral", None),
    ("zero0-sum-collected", CH, 268,
     "$(2 + 2 + K)\\Psi$", "$(4 + K)\\Psi$", "neutral", None),
    ("matmul-sum-spacing", CH, 318,
     "\\sum_{l=1}^{q}X_{al}W_{lc}", "\\sum_{l = 1}^{q} X_{al} W_{lc}", "neutral", None),
    ("numerator-denominator-order", CH, 336,
     "分母と分子を $2nd$ で割れば", "分子と分母を $2nd$ で割れば", "neutral", None),
    ("reword-integer-exact", CH, 355,
     "総和との比較は丸めのない完全な一致です。", "総和との比較は丸めを含まない完全な一致です。", "neutral", None),
    ("reword-next-chapter", CH, 409,
     "次章では、学習したモデルで文章を生成する手順を扱います。", "次章で扱うのは、学習したモデルで文章を生成する手順です。", "neutral", None),
    ("reword-intervals-cover", CH, 435,
     "は互いに交わらず全体を覆うので", "は全体を覆い、互いに交わらないので", "neutral", None),
    ("bib-7.5B-as-power", CH, 439,
     "$\\Psi = 7.5$B", "$\\Psi = 7.5 \\times 10^{9}$", "neutral", None),
]

if __name__ == "__main__":
    import collections
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    lines = {}
    bad = 0
    for name, chapter, line, old, new, category, expected in SLIPS:
        if chapter not in lines:
            with open(os.path.join(here, chapter), encoding="utf-8") as f:
                lines[chapter] = f.read().split("\n")
        text = lines[chapter][line - 1]
        n = text.count(old)
        if n != 1:
            bad += 1
            print(f"BAD {name}: old occurs {n} times on line {line}")
        if old == new:
            bad += 1
            print(f"BAD {name}: old == new")
    names = [s[0] for s in SLIPS]
    for n, c in collections.Counter(names).items():
        if c > 1:
            bad += 1
            print(f"BAD duplicated name {n}")
    counts = collections.Counter(s[5] for s in SLIPS)
    order = ["prose arithmetic", "rounding", "example number", "table cell", "listing output",
             "formula", "claim", "structure", "neutral"]
    for c in order:
        print(f"{c:17s} {counts.get(c, 0)}")
    print(f"{'slips':17s} {sum(v for k, v in counts.items() if k != 'neutral')}")
    print(f"{'total':17s} {len(SLIPS)}")
    print("all edits apply" if bad == 0 else f"{bad} problems")
