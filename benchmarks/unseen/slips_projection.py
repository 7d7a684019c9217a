"""Data: one-slip edits of the chapter projection.txt (ランダム射影と低ランク注意).

Each entry of SLIPS is one edit of one line of projection.txt:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted end-of-proof
mark (∎) it is the line where the broken proof opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_projection.py passes on all of them (it looks for
the exact strings it checks, so neutral edits avoid the checked strings).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_projection.py exit 1.  Numbers that the chapter prints twice on a line
or in the same form elsewhere (e.g. 10.125, 3.1820 and 1.4142 in the examples,
0.03149 in table 34.3, 0.0260417 in exercise 34.18, 0.7071 in exercise 34.20)
were avoided as slip sites.  The listing outputs are compared with a fresh run
of random_projection.py and lowrank_attention.py, so any change to them fails.
"""

CH = "projection.txt"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("weights-entries-65536-squared-transposed", CH, 5,
     "= 4{,}294{,}967{,}296$", "= 4{,}294{,}967{,}926$", "prose arithmetic", None),
    ("weights-bytes-transposed", CH, 23,
     "= 17{,}179{,}869{,}184$", "= 17{,}179{,}896{,}184$", "prose arithmetic", None),
    ("weights-gib-decimal-gb", CH, 23,
     "つまり 16 GiB", "つまり 17 GiB", "prose arithmetic", None),
    ("chebyshev-k64-eps-not-squared", CH, 77,
     "チェビシェフが 0.125", "チェビシェフが 0.0625", "prose arithmetic", None),
    ("kjl-doubled-digit", CH, 113,
     "$11{,}882.52$", "$11{,}883.52$", "prose arithmetic", None),
    ("binom-65-2-not-halved", CH, 201,
     "\\binom{65}{2} = 2{,}080$", "\\binom{65}{2} = 4{,}160$", "prose arithmetic", None),
    ("twelve-heads-mib-transposed", CH, 258,
     "= 196{,}608$", "= 196{,}680$", "prose arithmetic", None),
    ("listing-variance-162-halved", CH, 353,
     "$162/k$", "$81/k$", "prose arithmetic", None),
    ("pairs-not-halved", CH, 353,
     "4,950 組", "9,900 組", "prose arithmetic", None),
    ("binom-9-2-not-halved", CH, 405,
     "\\binom{9}{2} = 36$", "\\binom{9}{2} = 72$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("sd-k16-truncated", CH, 55,
     "\\approx 3.1820$", "\\approx 3.1819$", "rounding", None),
    ("chernoff-k64-truncated", CH, 77,
     "\\approx 0.1390$", "\\approx 0.1389$", "rounding", None),
    ("chernoff-k256-truncated", CH, 77,
     "\\approx 4.662 \\times", "\\approx 4.661 \\times", "rounding", None),
    ("c02-rounded-up", CH, 106,
     "c(0.2) \\approx 0.01733", "c(0.2) \\approx 0.01734", "rounding", None),
    ("kjl-percent-truncated", CH, 113,
     "約 9.8 %", "約 9.7 %", "rounding", None),
    ("inner-product-spread-truncated", CH, 137,
     "約 61.56 %", "約 61.55 %", "rounding", None),
    ("weight-ratio-truncated", CH, 173,
     "\\approx 16.92$", "\\approx 16.91$", "rounding", None),
    ("softmax-row3-first-truncated", CH, 199,
     "(0.0159, ", "(0.0158, ", "rounding", None),
    ("one-over-sqrt2-truncated", CH, 288,
     "\\approx 0.70711$", "\\approx 0.70710$", "rounding", None),
    ("det-a1-truncated", CH, 426,
     "\\approx 0.23106$", "\\approx 0.23105$", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("rel-sd-k-min-eps-not-squared", CH, 55,
     "$k \\ge 200$", "$k \\ge 20$", "example number", None),
    ("variance-k64-transposed", CH, 55,
     "分散 $2.53125$", "分散 $2.53215$", "example number", None),
    ("measured-variance-k16-transposed", CH, 55,
     "で 10.244、", "で 10.424、", "example number", None),
    ("score-sd-transposed", CH, 173,
     "\\approx 11.3137$", "\\approx 11.3173$", "example number", None),
    ("kjl-score-transposed", CH, 173,
     "切り上げて 414,596 次元", "切り上げて 414,569 次元", "example number", None),
    ("times-dk-transposed", CH, 173,
     "約 6,478 倍", "約 6,748 倍", "example number", None),
    ("det-factor-transposed", CH, 199,
     "\\times 4.6708 \\approx", "\\times 4.6078 \\approx", "example number", None),
    ("detA-transposed", CH, 199,
     "\\approx 0.02443$", "\\approx 0.02434$", "example number", None),
    ("det-GJJ-transposed", CH, 288,
     "\\approx 3.11325", "\\approx 3.11352", "example number", None),
    ("weight-other-token-transposed", CH, 288,
     "\\approx 0.16512$", "\\approx 0.16521$", "example number", None),
    ("kjl-before-ceiling-transposed", CH, 418,
     "\\approx 1{,}414.71$", "\\approx 1{,}414.17$", "example number", None),
    ("kjl-delta-floored", CH, 418,
     "切り上げて 1,769 です", "切り上げて 1,768 です", "example number", None),

    # ---------------- table cell ----------------
    ("table1-n1024-eps01-transposed", CH, 108,
     "\t5,942\t", "\t5,924\t", "table cell", None),
    ("table1-n4096-eps02-transposed", CH, 109,
     "\t1,920\t", "\t1,290\t", "table cell", None),
    ("table1-n4096-ln-truncated", CH, 109,
     "\t8.3178\t", "\t8.3177\t", "table cell", None),
    ("table1-n65536-eps05-floored", CH, 110,
     "\t533", "\t532", "table cell", None),
    ("table1-n2to20-ln-transposed", CH, 111,
     "\t13.8629\t", "\t13.8692\t", "table cell", None),
    ("table2-standard-n1024-transposed", CH, 253,
     "\t134,217,728\t", "\t134,217,782\t", "table cell", None),
    ("table2-ratio-n4096-doubled", CH, 254,
     "\t0.125\t", "\t0.25\t", "table cell", None),
    ("table2-standard-mib-n65536-transposed", CH, 256,
     "\t16,384 MiB\t", "\t16,348 MiB\t", "table cell", None),
    ("table3-standard-entries-transposed", CH, 292,
     "\t16,777,216\t", "\t16,777,261\t", "table cell", None),
    ("table3-nystrom-entries-transposed", CH, 294,
     "\t528,384\t", "\t528,348\t", "table cell", None),

    # ---------------- listing output ----------------
    ("output-var-k16-transposed", CH, 341,
     "10.244", "10.424", "listing output", None),
    ("output-kjl-delta", CH, 343,
     "0.01: 332", "0.01: 323", "listing output", None),
    ("output-max-ratio-k222", CH, 346,
     "max ratio 1.529", "max ratio 1.592", "listing output", None),
    ("output-kjl-4096-eps01", CH, 349,
     "eps=0.1  7130", "eps=0.1  7310", "listing output", None),
    ("output-rank-S2", CH, 396,
     "rank S^2 = 36", "rank S^2 = 45", "listing output", None),
    ("output-var-entry", CH, 398,
     "var 0.02618", "var 0.02681", "listing output", None),
    ("output-ratio-half-up", CH, 403,
     "(0.00781)", "(0.00782)", "listing output", None),

    # ---------------- formula ----------------
    ("summary-variance-x-squared", CH, 7,
     "分散は $2\\|\\boldsymbol{x}\\|^4/k$", "分散は $2\\|\\boldsymbol{x}\\|^2/k$", "formula", None),
    ("markov-a-squared", CH, 19,
     "\\le E[Y]/a$", "\\le E[Y]/a^2$", "formula", None),
    ("length-sum-sqrt-k", CH, 41,
     "\\dfrac{\\|\\boldsymbol{x}\\|^2}{k}\\sum", "\\dfrac{\\|\\boldsymbol{x}\\|^2}{\\sqrt{k}}\\sum", "formula", None),
    ("rel-sd-2-over-sqrt-k", CH, 42,
     "= \\sqrt{2/k}$", "= 2/\\sqrt{k}$", "formula", None),
    ("variance-proof-k-not-squared", CH, 49,
     "\\frac{\\|\\boldsymbol{x}\\|^4}{k^2}\\cdot 2k", "\\frac{\\|\\boldsymbol{x}\\|^4}{k}\\cdot 2k", "formula", None),
    ("lower-tail-over-2", CH, 61,
     "\\le e^{-\\frac{k\\varepsilon^2}{4}}", "\\le e^{-\\frac{k\\varepsilon^2}{2}}", "formula", None),
    ("mgf-Y-exponent-k", CH, 69,
     "= (1 - 2\\lambda)^{-k/2}$$", "= (1 - 2\\lambda)^{-k}$$", "formula", None),
    ("g-prime-eps-squared", CH, 73,
     "= -\\frac{\\varepsilon^3}{1 + \\varepsilon} \\le 0", "= -\\frac{\\varepsilon^2}{1 + \\varepsilon} \\le 0", "formula", None),
    ("chebyshev-eps-not-squared", CH, 77,
     "= 2/(k\\varepsilon^2)$", "= 2/(k\\varepsilon)$", "formula", None),
    ("ip-variance-2-cross", CH, 123,
     "\\|\\boldsymbol{y}\\|^2 + \\langle\\boldsymbol{x}, \\boldsymbol{y}\\rangle^2}{k}",
     "\\|\\boldsymbol{y}\\|^2 + 2\\langle\\boldsymbol{x}, \\boldsymbol{y}\\rangle^2}{k}", "formula", None),
    ("polarization-eps-over-4", CH, 143,
     "\\le \\frac{\\varepsilon}{2}\\big(", "\\le \\frac{\\varepsilon}{4}\\big(", "formula", None),
    ("hadamard-rank-binom-dk", CH, 182,
     "$\\binom{d_k + p - 1}{p}$ 以下", "$\\binom{d_k}{p}$ 以下", "formula", None),
    ("linformer-ratio-k-over-n", CH, 217,
     "比は $2k/n$ である", "比は $k/n$ である", "formula", None),
    ("row-norm-min", CH, 237,
     "\\le \\max_j A_{ij}$", "\\le \\min_j A_{ij}$", "formula", None),
    ("cauchy-schwarz-missing-n", CH, 244,
     "\\le n\\sum_ja_j^2$", "\\le \\sum_ja_j^2$", "formula", None),
    ("nystrom-C-shape", CH, 280,
     "C \\in \\mathbb{R}^{m \\times n'}", "C \\in \\mathbb{R}^{n \\times n'}", "formula", None),

    # ---------------- claim ----------------
    ("cost-grows-linearly", CH, 5,
     "$n^2$ に比例して増えます", "$n$ に比例して増えます", "claim", None),
    ("variance-proportional-k", CH, 7,
     "$k$ に反比例します", "$k$ に比例します", "claim", None),
    ("jl-dimension-proportional-d", CH, 8,
     "もとの次元 $d$ に依らず", "もとの次元 $d$ に比例し", "claim", None),
    ("softmax-never-regular", CH, 10,
     "$d_k = 1$ でも正則になりえます", "$d_k = 1$ では正則になりえません", "claim", None),
    ("variance-smaller-when-concentrated", CH, 11,
     "集中するほど大きくなります", "集中するほど小さくなります", "claim", None),
    ("nystrom-quadratic", CH, 12,
     "$n$ について 1 次です", "$n$ について 2 次です", "claim", None),
    ("four-questions", CH, 23,
     "次の 3 つの問いに", "次の 4 つの問いに", "claim", None),
    ("spread-quartered", CH, 55,
     "ばらつきは半分になります", "ばらつきは 4 分の 1 になります", "claim", None),
    ("kjl-decreasing-in-n", CH, 113,
     "$n$ について単調増加", "$n$ について単調減少", "claim", None),
    ("max-ratio-below", CH, 115,
     "をわずかに超えました", "をわずかに下回りました", "claim", None),
    ("relative-error-bounded", CH, 137,
     "という形では抑えられません", "という形で抑えられます", "claim", None),
    ("weights-rank-1", CH, 199,
     "重みの階数は 3 です", "重みの階数は 1 です", "claim", None),
    ("output-rank-at-least", CH, 201,
     "$d_v$ 以下で", "$d_v$ 以上で", "claim", None),
    ("regular-only-positive-a", CH, 426,
     "$a \\ne 0$ のとき、かつ", "$a > 0$ のとき、かつ", "claim", None),

    # ---------------- structure ----------------
    ("section-number-duplicated", CH, 21,
     "34.1 動機", "34.2 動機", "structure", None),
    ("proof-of-example-number", CH, 44,
     "証明（命題 34.2）", "証明（命題 34.3）", "structure", None),
    ("proof-end-deleted-34-2", CH, 51,
     "∎", "", "structure", 44),
    ("proposition-number-duplicated", CH, 119,
     "命題 34.6（", "命題 34.7（", "structure", None),
    ("ref-missing-theorem", CH, 153,
     "定理 34.5 の 1 を使います", "定理 34.6 の 1 を使います", "structure", None),
    ("citation-missing", CH, 249,
     "近似できると主張しています（[3]）", "近似できると主張しています（[9]）", "structure", None),
    ("proof-end-deleted-34-16", CH, 284,
     "∎", "", "structure", 278),

    # ---------------- neutral ----------------
    ("reword-R-fixed", CH, 35,
     "$R$ はデータを見る前に決める行列で、学習しません。",
     "$R$ はデータを見る前に決めておく行列で、学習はしません。",
     "neutral", None),
    ("var-z2-explicit-square", CH, 47,
     "= 3 - 1 = 2$", "= 3 - 1^2 = 2$", "neutral", None),
    ("c-eps-display-fraction", CH, 97,
     "\\varepsilon^2(3 - 2\\varepsilon)/6 > 0$", "\\frac{\\varepsilon^2(3 - 2\\varepsilon)}{6} > 0$", "neutral", None),
    ("ip-variance-terms-swapped", CH, 123,
     "\\frac{\\|\\boldsymbol{x}\\|^2\\|\\boldsymbol{y}\\|^2 + \\langle\\boldsymbol{x}, \\boldsymbol{y}\\rangle^2}{k}",
     "\\frac{\\langle\\boldsymbol{x}, \\boldsymbol{y}\\rangle^2 + \\|\\boldsymbol{x}\\|^2\\|\\boldsymbol{y}\\|^2}{k}",
     "neutral", None),
    ("polarization-quarter-in-front", CH, 149,
     "= (\\|\\boldsymbol{x} + \\boldsymbol{y}\\|^2 - \\|\\boldsymbol{x} - \\boldsymbol{y}\\|^2)/4$",
     "= \\frac{1}{4}(\\|\\boldsymbol{x} + \\boldsymbol{y}\\|^2 - \\|\\boldsymbol{x} - \\boldsymbol{y}\\|^2)$",
     "neutral", None),
    ("exp-minus-as-reciprocal", CH, 161,
     "$e^{-2\\delta} \\le", "$1/e^{2\\delta} \\le", "neutral", None),
    ("reword-am-gm", CH, 167,
     "（$e^{2\\delta} + e^{-2\\delta} \\ge 2$ による）",
     "（相加相乗平均より $e^{2\\delta} + e^{-2\\delta} \\ge 2$ なので）",
     "neutral", None),
    ("m-equals-n-order", CH, 183,
     "$n = m \\ge 2$", "$m = n \\ge 2$", "neutral", None),
    ("reword-fix-k", CH, 217,
     "$k$ を固定すれば、", "$k$ を固定すると、", "neutral", None),
    ("spacing-P-hat-sum", CH, 225,
     "\\sum_r\\bar{A}_{ir}F_{rj} \\ge 0", "\\sum_r \\bar{A}_{ir} F_{rj} \\ge 0", "neutral", None),
    ("half-n-as-frac", CH, 229,
     "つまり $k < n/2$", "つまり $k < \\frac{n}{2}$", "neutral", None),
    ("eps-half-as-fraction", CH, 77,
     "$\\varepsilon = 0.5$ のとき", "$\\varepsilon = 1/2$ のとき", "neutral", None),
    ("reword-cost-only", CH, 296,
     "この表は費用だけの比較で、近似の精度は含みません。",
     "この表が比べているのは費用だけで、近似の精度は含みません。",
     "neutral", None),
    ("full-rank-wording", CH, 405,
     "重みの行列は 64 で正則です", "重みの行列は階数 64 で正則です", "neutral", None),
    ("det-single-fraction", CH, 426,
     "\\frac{1}{2}\\cdot\\frac{e^{a^2} - 1}{1 + e^{a^2}}", "\\frac{e^{a^2} - 1}{2(1 + e^{a^2})}", "neutral", None),
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
