"""Data: one-slip edits of the chapter moe.mdx (混合エキスパート：ルーター・top-k・負荷分散・容量).

Each entry of SLIPS is one edit of one line of the chapter:

    (name, chapter file name, line, old, new, category, expected line or None)

Applying an edit replaces the single occurrence of `old` on line `line` (1-based) by `new`.
Every edit other than the "neutral" ones puts exactly one mistake into the chapter, of the kinds
an author makes when typing, copying a number from a listing, rounding by hand or editing a
formula. `expected line` is None when the mistake is visible at the edited line; for a deleted
closing tag it is the line of the opening tag of the broken element.

The "neutral" edits change only how something is written (wording, notation, spacing, an
equivalent formula) and keep every number and formula true. The chapter's recompute script
(recompute_moe.py) matches the chapter text literally, so it fails on the neutral edits whose
line is one of its quoted contexts: neutral-sec3-fraction (0.5 written 1/2) and
neutral-ex63-commas (4{,}718{,}592 written 4,718,592). It passes on the others.

Run this file to check that every `old` occurs exactly once on its line and to print the counts
per category.
"""

CH = "moe.mdx"

SLIPS = [
    # ------------------------------------------------------------ prose arithmetic
    ("pa-rem44-sum-fP", CH, 198, r"2 \times 0.4625", r"2 \times 0.4525", "prose arithmetic", None),
    ("pa-rem44-dev-sum-one-term", CH, 201, r"= -0.0375$", r"= -0.01875$", "prose arithmetic", None),
    ("pa-rem44-B-forgot-E", CH, 201, r"2 \times 0.0375 = 0.925$", r"2 \times 0.0375 = 0.9625$",
     "prose arithmetic", None),
    ("pa-rem44-gradient-forgot-E", CH, 201, r"(1.5,\ 0.5)", r"(0.75,\ 0.25)", "prose arithmetic", None),
    ("pa-rem54-capacity-forgot-E", CH, 274, r"$C = 2$ で", r"$C = 4$ で", "prose arithmetic", None),
    ("pa-sec7-expert-count", CH, 400, r"4 \times 280 + 32", r"4 \times 288 + 32", "prose arithmetic", None),
    ("pa-sec7-drop-share-by-T", CH, 400, "割り当ての 10 %", "割り当ての 20 %", "prose arithmetic", None),

    # ------------------------------------------------------------ rounding
    ("rd-ex32-e1-truncated", CH, 115, "$e^{1} = 2.7183$", "$e^{1} = 2.7182$", "rounding", None),
    ("rd-ex32-p2-truncated", CH, 115, r"0.1353,\ ", r"0.1352,\ ", "rounding", None),
    ("rd-ex32-w4-truncated", CH, 115, r"p_1) \approx 0.6225$", r"p_1) \approx 0.6224$", "rounding", None),
    ("rd-ex32-bound-truncated", CH, 117, r"\approx 0.993$", r"\approx 0.992$", "rounding", None),
    ("rd-ex53-idle-truncated", CH, 262, "| 0.094 |", "| 0.093 |", "rounding", None),
    ("rd-ex63-ratio-truncated", CH, 317, "| 4.00 |", "| 3.99 |", "rounding", None),
    ("rd-ex63-increase-truncated", CH, 321, "約 0.46 %", "約 0.45 %", "rounding", None),
    ("rd-ex63-model-ratio-truncated", CH, 323, "約 4.19 倍", "約 4.18 倍", "rounding", None),
    ("rd-exr93-share-truncated", CH, 436, r"2.93\,\%", r"2.92\,\%", "rounding", None),

    # ------------------------------------------------------------ example number
    ("ex-ex32-logit-r2-unscaled", CH, 115, r"0.2,\ -0.5", r"0.4,\ -0.5", "example number", None),
    ("ex-ex32-topset", CH, 115, r"\{4, 1\}", r"\{4, 2\}", "example number", None),
    ("ex-ex32-sum-transposed", CH, 115, "和は $9.0279$", "和は $9.0729$", "example number", None),
    ("ex-ex32-k1-expert", CH, 117, "専門家 4 だけを", "専門家 1 だけを", "example number", None),
    ("ex-ex43-row3-forgot-3", CH, 189, r"3 \times 0.0225 = 0.27$", r"3 \times 0.0225 = 0.225$",
     "example number", None),
    ("ex-ex53-ckT-over-E", CH, 258, "$ckT/E = 10c$", "$ckT/E = 20c$", "example number", None),
    ("ex-ex53-ceil-rounded-down", CH, 268, "切り上げて $C = 13$", "切り上げて $C = 12$", "example number", None),
    ("ex-ex53-extra-slots", CH, 268, "より 2 個多い 52", "より 3 個多い 52", "example number", None),
    ("ex-ex63-expert-transposed", CH, 311, r"4{,}722{,}432$ 個で", r"4{,}722{,}423$ 個で",
     "example number", None),
    ("ex-ex63-ratio-8d", CH, 321, r"$2 + 10/6144", r"$2 + 10/768", "example number", None),
    ("ex-ex63-dense-blocks", CH, 323, r"$85{,}054{,}464$", r"$85{,}045{,}464$", "example number", None),
    ("ex-exr91-sum-e0", CH, 414, "和は 9 なので", "和は 8 なので", "example number", None),
    ("ex-exr93-idle-slots", CH, 436, "286 個が空きます", "296 個が空きます", "example number", None),
    ("ex-exr93-forgot-c", CH, 436, r"1024/64 = 20$", r"1024/64 = 16$", "example number", None),

    # ------------------------------------------------------------ table cell
    ("tc-ex43-concentrated-B", CH, 186, "| 3.7648 |", "| 3.7636 |", "table cell", None),
    ("tc-ex43-skewed-max-swapped", CH, 185, "| 2.80 |", "| 2.08 |", "table cell", None),
    ("tc-ex53-c1-dropped", CH, 263, "| 6 |", "| 5 |", "table cell", None),
    ("tc-ex53-c075-upper-forgot-k", CH, 262, "| 24 |", "| 12 |", "table cell", None),
    ("tc-ex53-c125-slots-ckT", CH, 264, "| 52 |", "| 50 |", "table cell", None),
    ("tc-ex63-E16-active-copied", CH, 318, "| 9,457,152 |", "| 9,451,008 |", "table cell", None),
    ("tc-ex63-E64-params-transposed", CH, 319, "302,284,800", "302,248,800", "table cell", None),

    # ------------------------------------------------------------ listing output
    ("lo-weights", CH, 391, "weights [[0.6225", "weights [[0.6224", "listing output", None),
    ("lo-loop-vs-dense", CH, 392, "0.0e+00", "2.2e-16", "listing output", None),
    ("lo-B-transposed", CH, 393, "= 1.0104", "= 1.0140", "listing output", None),
    ("lo-Pbar-transposed", CH, 393, "0.2442", "0.2424", "listing output", None),
    ("lo-dropped-from-table", CH, 394, "dropped 4 of 40", "dropped 6 of 40", "listing output", None),
    ("lo-capacity-c125", CH, 395, "C = 13", "C = 12", "listing output", None),
    ("lo-parameters", CH, 397, "parameters: 1152", "parameters: 1125", "listing output", None),

    # ------------------------------------------------------------ formula
    ("fo-def-softmax-sum-to-k", CH, 43, r"\sum_{j=1}^{E} e^{r_j", r"\sum_{j=1}^{k} e^{r_j", "formula", None),
    ("fo-prop-topk-bound-inverted", CH, 78, r"$w_i \le (E/k)\,p_i$", r"$w_i \le (k/E)\,p_i$", "formula", None),
    ("fo-proof-topk-ineq-direction", CH, 99, r"(E - k)b \le Ea", r"(E - k)b \ge Ea", "formula", None),
    ("fo-def-fraction-missing-k", CH, 136, r"f_i := \frac{1}{kT}", r"f_i := \frac{1}{T}", "formula", None),
    ("fo-prop-balance-sign", CH, 149, r"$B = 1 + E\sum", r"$B = 1 - E\sum", "formula", None),
    ("fo-proof-balance-missing-E", CH, 161, r"+ E\cdot\frac{1}{E^2}", r"+ \frac{1}{E^2}", "formula", None),
    ("fo-proof-balance-delta", CH, 171, r"$P_{i_0} = 1 - (E - 1)\delta$", r"$P_{i_0} = 1 - E\delta$",
     "formula", None),
    ("fo-def-capacity-missing-k", CH, 214, r"\frac{c\,kT}{E}", r"\frac{c\,T}{E}", "formula", None),
    ("fo-prop-slots-plus-one", CH, 228, r"EC < ckT + E$", r"EC < ckT + 1$", "formula", None),
    ("fo-proof-dropped-sign", CH, 246, r"kT - kC = k(T - C)", r"kT - kC = k(T + C)", "formula", None),
    ("fo-prop-params-active", CH, 284, r"後者は $k(8d^2 + 5d) + dE$", r"後者は $k(8d^2 + 6d) + dE$",
     "formula", None),
    ("fo-prop-mults-ratio-d2", CH, 291, r"(E + k)/(8d)$ である", r"(E + k)/(8d^2)$ である", "formula", None),

    # ------------------------------------------------------------ claim
    ("cl-sec0-compute-grows", CH, 8, "1 トークンの計算はほとんど増えません", "1 トークンの計算もそれに比例して増えます",
     "claim", None),
    ("cl-sec1-count-problems", CH, 28, "問題が 3 つ生じます", "問題が 4 つ生じます", "claim", None),
    ("cl-sec2-k-equals-E-cost", CH, 68, "計算は密な MLP の $E$ 倍です", "計算は密な MLP と同じです", "claim", None),
    ("cl-sec3-factor-at-most", CH, 105, "高々 $E/k$ です", "高々 $k/E$ です", "claim", None),
    ("cl-sec4-gradient-direction", CH, 143, "強く押されます", "弱く押されます", "claim", None),
    ("cl-prop-balance-3-direction", CH, 151, r"\ge 1$ であり", r"\le 1$ であり", "claim", None),
    ("cl-prop-balance-4-bound", CH, 152, "$0 < B < E$ である", "$0 < B < 1$ である", "claim", None),
    ("cl-prop-dropped-1-condition", CH, 225, r"$c \ge 1$ なら", r"$c \le 1$ なら", "claim", None),
    ("cl-rem54-causality", CH, 274, "も一般には成り立ちません", "もそのまま成り立ちます", "claim", None),
    ("cl-sec6-mults-prop-to-E", CH, 307, "乗算の回数は $k$ にほぼ比例し", "乗算の回数は $E$ にほぼ比例し", "claim", None),
    ("cl-sec8-count-results", CH, 404, "確定したことは 3 つです", "確定したことは 2 つです", "claim", None),

    # ------------------------------------------------------------ structure
    ("st-prop-topk-close-deleted", CH, 81, "</Proposition>", "", "structure", 72),
    ("st-example-routing-close-deleted", CH, 119, "</Example>", "", "structure", 107),
    ("st-proof-balance-close-deleted", CH, 173, "</Proof>", "", "structure", 157),
    ("st-solution-aux-close-deleted", CH, 427, "</Solution>", "", "structure", 423),
    ("st-duplicate-id", CH, 131, 'id="def-moe-balance-loss"', 'id="def-moe-layer"', "structure", None),
    ("st-ref-missing-target", CH, 189, 'to="prop-moe-balance-minimum"', 'to="prop-moe-balance-min"',
     "structure", None),
    ("st-unpaired-dollar", CH, 139, "$f_i$ を専門家", "$f_i を専門家", "structure", None),
    ("st-proof-of-missing-target", CH, 232, 'of="prop-moe-dropped-tokens"', 'of="prop-moe-drop-tokens"',
     "structure", None),
    ("st-element-kind-changed", CH, 256, '<Example id="ex-moe-capacity-table"',
     '<Exercise id="ex-moe-capacity-table"', "structure", None),
    ("st-ref-example-missing", CH, 400, 'to="ex-moe-routing-by-hand"', 'to="ex-moe-routing-hand"',
     "structure", None),

    # ------------------------------------------------------------ neutral
    ("neutral-sec0-reworded", CH, 8, "使わない MLP は計算しないので", "使われない MLP は計算されないので", "neutral", None),
    ("neutral-sec1-factored", CH, 26, r"$12nd^2 + 2n^2d$", r"$2nd(6d + n)$", "neutral", None),
    ("neutral-sec1-fullwidth", CH, 28, "問題が 3 つ", "問題が ３ つ", "neutral", None),
    ("neutral-def-spacing", CH, 43, r"W_r^{\mathsf{T}}\boldsymbol{x} \in", r"W_r^{\mathsf{T}} \boldsymbol{x} \in",
     "neutral", None),
    # fails the recompute script only because its context quotes "2/4 = 0.5" literally
    ("neutral-sec3-fraction", CH, 117, "2/4 = 0.5", "2/4 = 1/2", "neutral", None),
    ("neutral-sec4-decimal", CH, 143, r"$\alpha = 10^{-2}$", r"$\alpha = 0.01$", "neutral", None),
    ("neutral-prop-mults-frac", CH, 291, r"$k + (E + k)/(8d)$", r"$k + \frac{E + k}{8d}$", "neutral", None),
    ("neutral-proof-commuted", CH, 299, r"\iff kd < dE \iff", r"\iff kd < Ed \iff", "neutral", None),
    ("neutral-proof-equivalent", CH, 303, r"$dE + 8kd^2 + kd$", r"$8kd^2 + (E + k)d$", "neutral", None),
    # fails the recompute script only because its context quotes 4{,}718{,}592 literally
    ("neutral-ex63-commas", CH, 311, r"4{,}718{,}592 + 3{,}840", r"4,718,592 + 3{,}840", "neutral", None),
    ("neutral-exr91-ln", CH, 410, r"(0, \log 2, \log 6)", r"(0, \ln 2, \ln 6)", "neutral", None),
]


if __name__ == "__main__":
    import collections
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    cache = {}
    bad = 0
    names = collections.Counter(s[0] for s in SLIPS)
    for name, count in names.items():
        if count > 1:
            print("duplicate name: %s" % name)
            bad += 1
    for name, chapter, line, old, new, category, expected in SLIPS:
        if chapter not in cache:
            with open(os.path.join(here, chapter), encoding="utf-8") as fh:
                cache[chapter] = fh.read().split("\n")
        text = cache[chapter][line - 1]
        n = text.count(old)
        if n != 1 or old == new:
            print("BAD %s: line %d holds %r %d times" % (name, line, old, n))
            bad += 1
    counts = collections.Counter(s[5] for s in SLIPS)
    for category in ("prose arithmetic", "rounding", "example number", "table cell", "listing output",
                     "formula", "claim", "structure", "neutral"):
        print("%-18s %3d" % (category, counts.get(category, 0)))
    print("%-18s %3d" % ("slips (non-neutral)", sum(v for k, v in counts.items() if k != "neutral")))
    print("all edits ok" if not bad else "%d problems" % bad)
    sys.exit(1 if bad else 0)
