"""Data: one-slip edits of the chapter pruning.mdx (枝刈りと構造化スパース性：大きさによる枝刈り・N:M スパース性・2 次の重要度).

Each entry of SLIPS is one edit of one line of pruning.mdx:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted closing tag it
is the line where the broken element opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_pruning.py passes on all of them (it normalises
`{,}` to `,`; a number written without `{,}` is only changed where the same
value is printed with `{,}` elsewhere, and no neutral edit touches a sentence
that the script rebuilds verbatim in its "context" checks).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied alone to a copy of the chapter and makes
recompute_pruning.py exit 1.  Numbers that the chapter prints twice (e.g.
0.245, 0.735, 0.5, 0.25 in example 35.5 and table 35.2; 144, 128, 16, 256 in
several places; 4.40, 2.04, 4.59, 2.60 in 35.4 and the listing; 0.8183, 0.9287
in 35.7 and the exercise) were avoided as slip sites in the prose unless the
script rebuilds the whole sentence around them; the five tables are parsed row
by row and the listing output is compared verbatim, so their cells are safe
slip sites.
"""

CH = "pruning.mdx"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("sum-of-squares-1-16-transposed", CH, 34,
     "0.01 \\times 1{,}496 = 14.96", "0.01 \\times 1{,}469 = 14.96", "prose arithmetic", None),
    ("lower-bound-gap-log2-3", CH, 112,
     "約 1.415 ビット多い", "約 1.585 ビット多い", "prose arithmetic", None),
    ("six-pow-4-exponent-off-by-one", CH, 124,
     "$6^4 = 1{,}296$", "$6^4 = 216$", "prose arithmetic", None),
    ("one-four-bytes-transposed", CH, 124,
     "$= 37{,}748{,}736$ バイト", "$= 37{,}748{,}376$ バイト", "prose arithmetic", None),
    ("group-errors-sum", CH, 151,
     "1.45 = 4.40$", "1.45 = 4.30$", "prose arithmetic", None),
    ("six-masks-sum-transposed", CH, 297,
     "平均は $20.34/6", "平均は $20.43/6", "prose arithmetic", None),
    ("csr-row-pointers-without-plus-one", CH, 243,
     "$65{,}540$ バイト", "$65{,}536$ バイト", "prose arithmetic", None),
    ("d-squared-transposed", CH, 258,
     "$d^2 = 16{,}777{,}216$", "$d^2 = 16{,}777{,}126$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("per-weight-lower-bound-truncated", CH, 112,
     "約 $1.2925$ ビット", "約 $1.2924$ ビット", "rounding", None),
    ("top8-percent-truncated", CH, 82,
     "$13.64$ %", "$13.63$ %", "rounding", None),
    ("obs-over-obd-percent-truncated", CH, 209,
     "約 21.8 %", "約 21.7 %", "rounding", None),
    ("phi-inv-three-quarters-truncated", CH, 304,
     "\\approx 0.6745$", "\\approx 0.6744$", "rounding", None),
    ("phi-inv-seven-eighths-double-rounded", CH, 331,
     "\\approx 1.1503$", "\\approx 1.1504$", "rounding", None),
    ("error-ratio-unstructured-truncated", CH, 331,
     "約 1.86 倍", "約 1.85 倍", "rounding", None),
    ("summary-86-8-truncated", CH, 14,
     "約 86.8 %", "約 86.7 %", "rounding", None),
    ("lower-bound-bytes-floor", CH, 256,
     "$5{,}421{,}060$ バイト", "$5{,}421{,}059$ バイト", "rounding", None),
    ("table5-24-ratio-truncated", CH, 322,
     "| 0.2649 |", "| 0.2648 |", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("ex-running-sum-1-8-transposed", CH, 82,
     "0.01 \\times 204 = 2.04", "0.01 \\times 240 = 2.04", "example number", None),
    ("ex-running-bound-transposed", CH, 82,
     "14.96 = 7.48$", "14.96 = 7.84$", "example number", None),
    ("ex-compress-total-bits", CH, 128,
     "計 144 ビット", "計 148 ビット", "example number", None),
    ("ex-compress-restored-column", CH, 128,
     "$0, 2, 5, 7$ 列目", "$0, 2, 4, 7$ 列目", "example number", None),
    ("ex-mlp-saving-percent-complement", CH, 239,
     "112 MiB（43.75 %）", "112 MiB（56.25 %）", "example number", None),
    ("ex-mlp-32-layers-gib", CH, 239,
     "$= 4.5$ GiB", "$= 4.25$ GiB", "example number", None),
    ("ex-obs-half-dropped", CH, 209,
     "0.8 \\times 0.4 = 0.16$", "0.8 \\times 0.4 = 0.32$", "example number", None),
    ("exr-obs-w2-divided-by-2", CH, 423,
     "= (0.125,\\ 0.09)$", "= (0.125,\\ 0.18)$", "example number", None),
    ("exr-uniform-threshold-complement", CH, 434,
     "なら $0.875$ です", "なら $0.125$ です", "example number", None),

    # ---------------- table cell ----------------
    ("table1-log2-70-transposed", CH, 120,
     "| 6.129 |", "| 6.219 |", "table cell", None),
    ("table1-28-ratio-digit-dropped", CH, 122,
     "| 0.296875 |", "| 0.29375 |", "table cell", None),
    ("table2-obd-w2-hqq-dropped", CH, 206,
     "| 0.64 |", "| 0.32 |", "table cell", None),
    ("table3-csr16-rowptr-16384", CH, 253,
     "| 134,283,268 |", "| 134,283,264 |", "table cell", None),
    ("table3-lower-bound-mib-transposed", CH, 251,
     "| 69.17 |", "| 69.71 |", "table cell", None),
    ("table4-16384-all-transposed", CH, 266,
     "| 234,881,024 |", "| 234,881,204 |", "table cell", None),
    ("table5-48-ratio-transposed", CH, 323,
     "| 0.2066 |", "| 0.2606 |", "table cell", None),
    ("table5-14-ratio-wrong-rho", CH, 326,
     "| 0.5099 |", "| 0.7648 |", "table cell", None),

    # ---------------- listing output ----------------
    ("output-restored-false", CH, 398,
     "restored True", "restored False", "listing output", None),
    ("output-err-48-transposed", CH, 399,
     "4:8 2.60", "4:8 2.06", "listing output", None),
    ("output-ratio-transposed", CH, 401,
     "ratio 0.5625", "ratio 0.5652", "listing output", None),
    ("output-random-24-above-half", CH, 402,
     "random 2:4 0.4998", "random 2:4 0.5002", "listing output", None),
    ("output-obs-q2", CH, 404,
     "OBS 0.160", "OBS 0.180", "listing output", None),
    ("output-dw-q3-sign", CH, 405,
     "dw [ 0.  -0.5 -1. ]", "dw [ 0.  -0.5  1. ]", "listing output", None),

    # ---------------- formula ----------------
    ("summary-output-bound-sqrt-dropped", CH, 10,
     "出力の誤差も $\\sqrt{s}\\,\\|W\\|_F", "出力の誤差も $s\\,\\|W\\|_F", "formula", None),
    ("lemma-cross-multiplication-swapped", CH, 58,
     "$(P - p)S_p \\le p(T - S_p)$", "$pS_p \\le (P - p)(T - S_p)$", "formula", None),
    ("magnitude-output-bound-sqrt-dropped", CH, 68,
     "\\le \\sqrt{E(W, B)}\\,\\|\\boldsymbol{x}\\|_2", "\\le E(W, B)\\,\\|\\boldsymbol{x}\\|_2", "formula", None),
    ("mask-count-exponent-groups", CH, 100,
     "$\\binom{M}{N}^{mn/M}$ 通りである", "$\\binom{M}{N}^{mn/N}$ 通りである", "formula", None),
    ("memory-ratio-inverted", CH, 102,
     "\\big(1 + \\lceil\\log_2 M\\rceil/b\\big)$ である", "\\big(1 + b/\\lceil\\log_2 M\\rceil\\big)$ である", "formula", None),
    ("code-length-bound-transposed", CH, 108,
     "\\ge M^N \\ge \\binom{M}{N}", "\\ge N^M \\ge \\binom{M}{N}", "formula", None),
    ("obs-correction-H-not-inverse", CH, 173,
     "[H^{-1}]_{qq}}H^{-1}\\boldsymbol{e}_q$ である", "[H^{-1}]_{qq}}H\\boldsymbol{e}_q$ である", "formula", None),
    ("obs-product-reversed", CH, 174,
     "特に $h_{qq}[H^{-1}]_{qq} \\ge 1$", "特に $h_{qq}[H^{-1}]_{qq} \\le 1$", "formula", None),
    ("obs-minimum-denominator-square-dropped", CH, 187,
     "\\frac{w_q^2}{[H^{-1}]_{qq}^2}\\boldsymbol{e}_q", "\\frac{w_q^2}{[H^{-1}]_{qq}}\\boldsymbol{e}_q", "formula", None),
    ("layerwise-hessian-factor-dropped", CH, 215,
     "$h_{jj} = 2\\|X_{:,j}\\|_2^2$", "$h_{jj} = \\|X_{:,j}\\|_2^2$", "formula", None),
    ("speed-formula-n-not-halved", CH, 269,
     "$(6d + n)/(4d + n)$", "$(6d + 2n)/(4d + 2n)$", "formula", None),
    ("hypergeometric-lower-index", CH, 287,
     "\\binom{M - N}{N - j}\\big/", "\\binom{M - N}{j}\\big/", "formula", None),
    ("threshold-kappa-factor-dropped", CH, 304,
     "$\\kappa = \\rho + 2t\\varphi(t)$", "$\\kappa = \\rho + t\\varphi(t)$", "formula", None),
    ("order-statistic-exponents-swapped", CH, 305,
     "F(x)^{M-k}\\big(1 - F(x)\\big)^{k-1}", "F(x)^{k-1}\\big(1 - F(x)\\big)^{M-k}", "formula", None),

    # ---------------- claim ----------------
    ("summary-larger-M-not-smaller", CH, 12,
     "誤差の最小値は大きくなりません", "誤差の最小値は小さくなりません", "claim", None),
    ("moving-kept-values-does-not-increase", CH, 78,
     "フロベニウスノルムの誤差は減らない", "フロベニウスノルムの誤差は増えない", "claim", None),
    ("groups-along-output-index", CH, 94,
     "つまり入力の添字 $j$ の方向に取ります", "つまり出力の添字 $i$ の方向に取ります", "claim", None),
    ("larger-M-lower-memory-ratio", CH, 124,
     "記憶の比が上がります", "記憶の比が下がります", "claim", None),
    ("uniqueness-always-for-N-one", CH, 139,
     "（$N = M$ なら常に）", "（$N = 1$ なら常に）", "claim", None),
    ("obs-equality-some-j", CH, 174,
     "$j \\ne q$ のすべてで", "ある $j \\ne q$ で", "claim", None),
    ("isotropic-order-reversed", CH, 175,
     "$|w_q|$ の小さい順と一致する", "$|w_q|$ の大きい順と一致する", "claim", None),
    ("ex-obs-obs-picks-w1", CH, 209,
     "が最小の $w_2$（0.16）", "が最小の $w_1$（0.16）", "claim", None),
    ("decoding-close-to-compute-bound", CH, 243,
     "後者に近くなります", "前者に近くなります", "claim", None),
    ("sparse-formats-smaller-at-half", CH, 256,
     "密な行列より小さくなりません", "密な行列より小さくなります", "claim", None),
    ("long-sequences-increase-effect", CH, 269,
     "効果は薄れます", "効果は増します", "claim", None),
    ("magnitude-equality-one-group", CH, 286,
     "どのグループでも $|w_{ij}|$ がすべて等しい", "いずれかのグループで $|w_{ij}|$ がすべて等しい", "claim", None),
    ("kappa-proportional-to-sigma", CH, 303,
     "$\\kappa$ は $\\sigma$ に依らない", "$\\kappa$ は $\\sigma$ に比例する", "claim", None),
    ("larger-M-keeps-less", CH, 331,
     "$M$ が大きいほど多く残り", "$M$ が大きいほど少なく残り", "claim", None),
    ("gauss-smaller-than-uniform", CH, 434,
     "どちらも一様分布より大きくなります", "どちらも一様分布より小さくなります", "claim", None),

    # ---------------- structure ----------------
    ("ref-missing-prop-magnitude", CH, 10,
     '<Ref to="prop-magnitude" />', '<Ref to="prop-magnitudes" />', "structure", None),
    ("reference-section-35-10", CH, 30,
     "（35.2 節、35.4 節）", "（35.2 節、35.10 節）", "structure", None),
    ("mask-definition-close-deleted", CH, 48,
     "</Definition>", "", "structure", 44),
    ("reference-table-35-6", CH, 112,
     "表 35.1 にまとめます", "表 35.6 にまとめます", "structure", None),
    ("section-number-duplicated", CH, 132,
     "## 35.4. グループごとに", "## 35.5. グループごとに", "structure", None),
    ("obs-proof-close-deleted", CH, 189,
     "</Proof>", "", "structure", 179),
    ("exercise-uniform-close-deleted", CH, 437,
     "</Exercise>", "", "structure", 428),

    # ---------------- neutral ----------------
    ("abstract-d-without-braces", CH, 3,
     "$d = 4{,}096$ の Transformer", "$d = 4096$ の Transformer", "neutral", None),
    ("many-small-weights-reworded", CH, 8,
     "0 に近い値がたくさんあります", "0 に近い値が多く含まれています", "neutral", None),
    ("summary-mults-without-braces", CH, 14,
     "$134{,}217{,}728$ 回から半分に", "$134217728$ 回から半分に", "neutral", None),
    ("han-reworded", CH, 26,
     "パラメータ数を大きく減らせる", "パラメータ数を大幅に減らせる", "neutral", None),
    ("lemma-fraction-inline", CH, 52,
     "$S_p \\le \\frac{p}{P}T$ で", "$S_p \\le pT/P$ で", "neutral", None),
    ("partition-reworded", CH, 147,
     "成分全体を重なりなく分けるので", "成分全体を互いに重ならずに分けるので", "neutral", None),
    ("obd-half-written-out", CH, 162,
     "= \\frac12 h_{qq}w_q^2, \\qquad", "= \\frac{1}{2}h_{qq}w_q^2, \\qquad", "neutral", None),
    ("mlp-ratio-frac", CH, 226,
     "比は $(b + 2)/(2b)$ で", "比は $\\frac{b + 2}{2b}$ で", "neutral", None),
    ("speed-terms-reordered", CH, 269,
     "$(6d + n)/(3d + n)$", "$(n + 6d)/(n + 3d)$", "neutral", None),
    ("hypergeometric-four-sixths", CH, 287,
     "$P(J = 1) = 2/3$", "$P(J = 1) = 4/6$", "neutral", None),
    ("gauss-max-frac", CH, 311,
     "= 1 + 2/\\pi$ で", "= 1 + \\frac{2}{\\pi}$ で", "neutral", None),
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
