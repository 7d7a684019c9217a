"""Data: one-slip edits of the chapter kv_cache.mdx (KV キャッシュ).

Each entry of SLIPS is one edit of one line of kv_cache.mdx:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted closing tag it
is the line where the broken element opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_kv_cache.py passes on all of them (it normalises
`{,}` to `,` and only looks for the numbers it checks).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_kv_cache.py exit 1.  Numbers that the chapter prints twice (e.g.
524,288, 2,147,483,648, 931.3, 63.512, 0.3522, 0.02756, 24,576, and the
intensities 19.60 ... 6.69 that appear in both table 31.2 and the listing
output) were avoided as prose slip sites, because the recompute script only
checks that such a value occurs somewhere; table cells are parsed cell by cell
and the listing output is compared exactly, so slips there are always caught.
"Prose arithmetic" slips lie outside examples and exercises (the summary, the
propositions and the commentary on the listing output); the chapter has few
checked numbers there, so "example number" has a few more entries instead.

Formula and claim slips were checked by hand or with sympy / a small brute
force to make the edited statement false (a counterexample or a non-identity).
"""

CH = "kv_cache.mdx"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("summary-kib-halved", CH, 10,
     "16 ビットでは 512 KiB で", "16 ビットでは 256 KiB で", "prose arithmetic", None),
    ("summary-gib-doubled", CH, 10,
     "列 1 本で 2 GiB になります", "列 1 本で 4 GiB になります", "prose arithmetic", None),
    ("summary-d-doubled", CH, 10,
     "32 層・$d = 4096$・16 ビット", "32 層・$d = 8192$・16 ビット", "prose arithmetic", None),
    ("rel-error-int8-transposed", CH, 228,
     "1/254 \\approx 0.00394", "1/254 \\approx 0.00349", "prose arithmetic", None),
    ("rel-error-int4-transposed", CH, 228,
     "1/14 \\approx 0.0714", "1/14 \\approx 0.0741", "prose arithmetic", None),
    ("sample-size-dropped-zero", CH, 399,
     "100,000 回引いた", "10,000 回引いた", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("prefill-ms-truncated", CH, 129,
     "\\approx 190.59$ ms", "\\approx 190.58$ ms", "rounding", None),
    ("ipre-150-truncated", CH, 129,
     "I_{\\mathrm{pre}}(150) \\approx 149.55$", "I_{\\mathrm{pre}}(150) \\approx 149.54$", "rounding", None),
    ("table2-Aprime-B8-truncated", CH, 138,
     "| 6.90 |", "| 6.89 |", "rounding", None),
    ("table2-tokens-B32-truncated", CH, 139,
     "| 784.3 |", "| 784.2 |", "rounding", None),
    ("paging-percent-truncated", CH, 187,
     "\\approx 0.794\\%", "\\approx 0.793\\%", "rounding", None),
    ("ratio-041-09-truncated", CH, 247,
     "0.41/0.9 \\approx 0.4556", "0.41/0.9 \\approx 0.4555", "rounding", None),
    ("token-score-truncated", CH, 256,
     "(0,\\ -0.4619,\\ 0)", "(0,\\ -0.4618,\\ 0)", "rounding", None),
    ("bmax-fp16-quotient-truncated", CH, 314,
     "\\lfloor 31.756 \\rfloor", "\\lfloor 31.755 \\rfloor", "rounding", None),
    ("bmax-int8-quotient-truncated", CH, 326,
     "\\lfloor 62.535 \\rfloor", "\\lfloor 62.534 \\rfloor", "rounding", None),
    ("gqa-ridge-position-truncated", CH, 436,
     "\\approx 589.2$", "\\approx 589.1$", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("kib-per-sequence-transposed", CH, 70,
     "= 2{,}097{,}152$", "= 2{,}097{,}512$", "example number", None),
    ("config-S-d-transposed", CH, 72,
     "$d = 768$", "$d = 786$", "example number", None),
    ("prefill-intensity-digits", CH, 129,
     "$3{,}803.5$", "$3{,}830.5$", "example number", None),
    ("prefill-weight-flops-digit", CH, 129,
     "= 52{,}776{,}558{,}133{,}248 +", "= 52{,}776{,}558{,}133{,}284 +", "example number", None),
    ("contiguous-waste-mib-transposed", CH, 187,
     "（1,548 MiB）", "（1,584 MiB）", "example number", None),
    ("per-token-ratio-transposed", CH, 247,
     "= -0.875$", "= -0.857$", "example number", None),
    ("per-token-squared-error-transposed", CH, 256,
     "= 0.4079$", "= 0.4097$", "example number", None),
    ("mean-length-off-by-one", CH, 314,
     "(2{,}048.5 + 7.5)/16", "(2{,}047.5 + 7.5)/16", "example number", None),
    ("Aprime-weight-bytes-digit", CH, 316,
     "$W = 11{,}798{,}577{,}152$", "$W = 11{,}798{,}557{,}152$", "example number", None),
    ("int8-sequence-bytes-digit", CH, 326,
     "/1{,}090{,}519{,}040 \\rfloor", "/1{,}090{,}519{,}400 \\rfloor", "example number", None),
    ("exercise-mean-waste-transposed", CH, 414,
     "/100 = 7.74$", "/100 = 7.47$", "example number", None),
    ("exercise-exp-half-transposed", CH, 425,
     "[0.6065, 1.6487]", "[0.6065, 1.6478]", "example number", None),
    ("exercise-gqa-threshold-sign", CH, 436,
     "86{,}016/146", "86{,}016/154", "example number", None),

    # ---------------- table cell ----------------
    ("table1-S-mtok-transposed", CH, 76,
     "| 36,864 |", "| 36,846 |", "table cell", None),
    ("table1-B-mtok-digits", CH, 79,
     "| 327,680 |", "| 327,860 |", "table cell", None),
    ("table1-Bmha-kib-transposed", CH, 80,
     "| 2,560 |", "| 2,650 |", "table cell", None),
    ("table2-A512-B32-transposed", CH, 139,
     "| 19.60 |", "| 19.06 |", "table cell", None),
    ("table2-T-B128-transposed", CH, 140,
     "| 143.881 |", "| 143.818 |", "table cell", None),
    ("table2-limit-i512-forgot-plus-one", CH, 141,
     "| 49 |", "| 48 |", "table cell", None),
    ("table3-s64-remainder-not-waste", CH, 197,
     "| 24 |", "| 40 |", "table cell", None),
    ("table4-int8-token-bytes-transposed", CH, 321,
     "| 266,240 |", "| 266,420 |", "table cell", None),
    ("table4-int4-bmax-off-by-one", CH, 322,
     "| 123 |", "| 124 |", "table cell", None),
    ("table4-Aprime-int4-ratio-transposed", CH, 324,
     "| 16.26 |", "| 16.62 |", "table cell", None),

    # ---------------- listing output ----------------
    ("output-cache-equals-weights-transposed", CH, 383,
     "at n = 24576", "at n = 24567", "listing output", None),
    ("output-intensity-i4096-B128", CH, 385,
     "6.69", "6.96", "listing output", None),
    ("output-mean-waste-16", CH, 386,
     "mean waste    7.52", "mean waste    7.25", "listing output", None),
    ("output-max-waste-256", CH, 387,
     "max 255", "max 256", "listing output", None),
    ("output-contiguous-mean", CH, 388,
     "mean waste 2049.13", "mean waste 2049.31", "listing output", None),
    ("output-rel-error-int8-channel", CH, 390,
     "rel. error 0.0065", "rel. error 0.0056", "listing output", None),
    ("output-eps-int4-token", CH, 391,
     "(eps 37.3522)", "(eps 37.3252)", "listing output", None),
    ("output-log-ratio-int4-channel", CH, 392,
     "log weight ratio 0.4593", "log weight ratio 0.4539", "listing output", None),

    # ---------------- formula ----------------
    ("summary-batch-ceil", CH, 14,
     "$\\lfloor (C - W - R)/(n\\,M_{\\mathrm{tok}}) \\rfloor$",
     "$\\lceil (C - W - R)/(n\\,M_{\\mathrm{tok}}) \\rceil$", "formula", None),
    ("cache-weights-ratio-12d", CH, 56,
     "比は $T/(6d)$ である", "比は $T/(12d)$ である", "formula", None),
    ("Fpre-not-halved", CH, 109,
     "2nN + 2Ln(n+1)d =", "2nN + 4Ln(n+1)d =", "formula", None),
    ("gauss-sum-n-minus-1", CH, 119,
     "$\\sum_{i=1}^{n} i = n(n+1)/2$", "$\\sum_{i=1}^{n} i = n(n-1)/2$", "formula", None),
    ("limit-proof-N-not-doubled", CH, 123,
     "$(24Ld^2 + 4Lid)/(4Lid)", "$(12Ld^2 + 4Lid)/(4Lid)", "formula", None),
    ("table2-caption-B-moved", CH, 133,
     "B(6d + i)/(6d + Bi)", "B(6d + i)/(6Bd + i)", "formula", None),
    ("waste-cases-remainder", CH, 157,
     "s - (n \\bmod s) &", "(n \\bmod s) &", "formula", None),
    ("waste-fraction-bound-denominator", CH, 168,
     "\\dfrac{s - 1}{n + s - 1}", "\\dfrac{s - 1}{n + s}", "formula", None),
    ("uniform-waste-sum-s-plus-1", CH, 178,
     "\\frac{(s-1)s}{2}", "\\frac{s(s+1)}{2}", "formula", None),
    ("bytes-per-element-times-group", CH, 219,
     "$b = k/8 + b_s/|G|$", "$b = k/8 + b_s|G|$", "formula", None),
    ("rtn-bound-missing-2", CH, 228,
     "\\max_{y \\in G}|y|/(2q_{\\max})", "\\max_{y \\in G}|y|/q_{\\max}", "formula", None),
    ("reverse-triangle-plus", CH, 236,
     "|z - t| \\ge |z| - |t| \\ge 1", "|z - t| \\ge |z| + |t| \\ge 1", "formula", None),
    ("weight-ratio-eps-not-2eps", CH, 265,
     "$e^{-2\\varepsilon} \\le \\hat{a}_j/a_j \\le e^{2\\varepsilon}$",
     "$e^{-\\varepsilon} \\le \\hat{a}_j/a_j \\le e^{\\varepsilon}$", "formula", None),
    ("paged-fit-missing-B", CH, 298,
     "\\sum_j n_j + B(s - 1) \\le", "\\sum_j n_j + (s - 1) \\le", "formula", None),
    ("blocks-expectation-minus", CH, 314,
     "(2{,}048.5 + 7.5)/16 = 128.5", "(2{,}048.5 - 7.5)/16 = 128.5", "formula", None),

    # ---------------- claim ----------------
    ("four-questions-three", CH, 27,
     "次の 4 つの問い", "次の 3 つの問い", "claim", None),
    ("prefill-intensity-decreasing", CH, 110,
     "狭義単調増加", "狭義単調減少", "claim", None),
    ("decode-intensity-proportional-i", CH, 112,
     "$i$ に依らない", "$i$ に比例する", "claim", None),
    ("decode-compute-bound", CH, 113,
     "どの $B$ でもメモリ律速", "どの $B$ でも演算律速", "claim", None),
    ("prefill-threshold-150", CH, 129,
     "151 トークン以上のプリフィル", "150 トークン以上のプリフィル", "claim", None),
    ("throughput-decreases-with-B", CH, 143,
     "$B$ とともに増えますが", "$B$ とともに減りますが", "claim", None),
    ("total-waste-depends-on-length", CH, 167,
     "列の長さに依らない", "列の長さに比例する", "claim", None),
    ("smallest-entry-exact", CH, 229,
     "絶対値が最大の成分", "絶対値が最小の成分", "claim", None),
    ("small-channels-two-nonzero", CH, 256,
     "1 つを除いて 0", "2 つを除いて 0", "claim", None),
    ("bmax-nondecreasing", CH, 296,
     "単調非増加である。", "単調非減少である。", "claim", None),
    ("bmax-at-most-c-times", CH, 299,
     "$c$ 倍以上になる", "$c$ 倍以下になる", "claim", None),
    ("token-errors-smaller", CH, 400,
     "チャネルごとのほうが小さく", "トークンごとのほうが小さく", "claim", None),
    ("exercise-weights-2.6-times", CH, 425,
     "1.6 倍まで", "2.6 倍まで", "claim", None),

    # ---------------- structure ----------------
    ("ref-missing-kv-size", CH, 10,
     '<Ref to="prop-kv-size" />', '<Ref to="prop-kv-sizes" />', "structure", None),
    ("aside-close-deleted", CH, 23,
     "</Aside>", "", "structure", 16),
    ("kv-size-prop-close-deleted", CH, 58,
     "</Proposition>", "", "structure", 52),
    ("section-number-duplicated", CH, 86,
     "## 31.3. プリフィル", "## 31.4. プリフィル", "structure", None),
    ("paged-proof-close-deleted", CH, 181,
     "</Proof>", "", "structure", 174),
    ("proof-of-missing-id", CH, 270,
     'of="prop-quant-attention"', 'of="prop-quant-attn"', "structure", None),
    ("solution-close-deleted", CH, 416,
     "</Solution>", "", "structure", 412),

    # ---------------- neutral ----------------
    ("reword-intro-last", CH, 8,
     "最後に、1 枚の加速器に同時にいくつの列を載せられるかを計算します。",
     "最後に、1 枚の加速器に同時に載せられる列の本数を計算します。",
     "neutral", None),
    ("units-as-powers-of-1024", CH, 36,
     "$2^{10}$・$2^{20}$・$2^{30}$", "$1024$・$1024^2$・$1024^3$", "neutral", None),
    ("spacing-mtok-definition", CH, 44,
     "2\\,L\\,h_{\\mathrm{kv}}\\,d_h\\,b \\quad", "2Lh_{\\mathrm{kv}}d_hb \\quad", "neutral", None),
    ("mha-mtok-reordered", CH, 55,
     "$M_{\\mathrm{tok}} = 2Ldb$ である", "$M_{\\mathrm{tok}} = 2bLd$ である", "neutral", None),
    ("Fpre-reordered", CH, 109,
     "2nN + 2Ln(n+1)d =", "2nN + 2Ldn(n+1) =", "neutral", None),
    ("gauss-sum-dfrac", CH, 119,
     "$\\sum_{i=1}^{n} i = n(n+1)/2$", "$\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$", "neutral", None),
    ("table2-caption-commuted", CH, 133,
     "B(6d + i)/(6d + Bi)", "B(i + 6d)/(Bi + 6d)", "neutral", None),
    ("contiguous-expectation-slash", CH, 179,
     "= \\frac{n_{\\max} - 1}{2}$", "= (n_{\\max} - 1)/2$", "neutral", None),
    ("reword-table3-pointer", CH, 187,
     "表 31.3 は、ほかの $s$ でも同じ量を計算したものです。",
     "ほかの $s$ で同じ量を計算したものが表 31.3 です。", "neutral", None),
    ("qmax-wording", CH, 211,
     "（int8 で $127$、int4 で $7$）", "（int8 なら $127$、int4 なら $7$）", "neutral", None),
    ("exp-notation", CH, 265,
     "\\le e^{2\\varepsilon} - 1$ である。", "\\le \\exp(2\\varepsilon) - 1$ である。", "neutral", None),
    ("floor-inequality-flipped-sides", CH, 308,
     "$c\\lfloor x \\rfloor \\le \\lfloor cx \\rfloor$", "$\\lfloor cx \\rfloor \\ge c\\lfloor x \\rfloor$", "neutral", None),
    ("plain-commas-Aprime-params", CH, 316,
     "$5{,}899{,}288{,}576$", "$5,899,288,576$", "neutral", None),
    ("reword-next-chapter", CH, 404,
     "長い文脈でこの $n$ の因子そのものを抑えるには、各位置が見る範囲を限る方法などが必要になります。",
     "この $n$ の因子そのものを長い文脈で抑えるには、各位置が見る範囲を限るなどの方法が必要です。",
     "neutral", None),
    ("exp-half-as-sqrt-e", CH, 425,
     "[e^{-0.5}, e^{0.5}] =", "[1/\\sqrt{e}, \\sqrt{e}] =", "neutral", None),
    ("leq-macro", CH, 436,
     "$i \\le 164$", "$i \\leq 164$", "neutral", None),
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
