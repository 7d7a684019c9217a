"""Data: one-slip edits of the chapter sinusoid.txt (絶対位置符号化：正弦波の位置符号化・ずらしの回転・学習される位置埋め込み).

Each entry of SLIPS is one edit of one line of sinusoid.txt:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted closing mark
(the ∎ of a proof) it is the line where the broken element opens.

Neutral edits change only how something is written (wording, the order of the
two sides or terms of an equality, an equivalent formula, another notation for
the same number) and keep every number and formula true.
recompute_sinusoid.py passes on all of them.

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied alone to a copy of the chapter and makes
recompute_sinusoid.py exit 1.  The recompute script checks prose numbers
inside a string with their surrounding words, parses the four tables row by
row and compares the listing output verbatim, so numbers that the chapter
prints more than once (f_512(1) = 249.1021, f_16(3) = 5.5431, 60,611.48,
62,831.85, 114 blocks, 786,432, 0.632 % ...) were edited only at sites whose
own check covers them.  Rounding slips are at values whose last digit was
rounded up, so that the slip is the truncated value.
"""

CH = "sinusoid.txt"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("gpt2-small-pos-table-transposed", CH, 11,
     "では $786{,}432$ 個", "では $786{,}423$ 個", "prose arithmetic", None),
    ("norm-sqrt256", CH, 72,
     "$\\sqrt{256} = 16$、$d = 16$", "$\\sqrt{256} = 18$、$d = 16$", "prose arithmetic", None),
    ("block0-turns-81-to-82", CH, 101,
     "第 0 ブロックは 81 周以上回り", "第 0 ブロックは 82 周以上回り", "prose arithmetic", None),
    ("first-slow-block-floor-not-ceil", CH, 101,
     "$i = 123$ から 255", "$i = 122$ から 255", "prose arithmetic", None),
    ("count-123-to-255-off-by-one", CH, 101,
     "までの 133 個です", "までの 132 個です", "prose arithmetic", None),
    ("token-embedding-product-transposed", CH, 239,
     "768 = 38{,}597{,}376$", "768 = 38{,}579{,}376$", "prose arithmetic", None),
    ("sinusoid-table-mib-doubled", CH, 239,
     "バイト $= 4$ MiB", "バイト $= 8$ MiB", "prose arithmetic", None),
    ("pairs-2048-squared-transposed", CH, 350,
     "= 4{,}194{,}304$", "= 4{,}194{,}034$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("lambda255-truncated", CH, 7,
     "約 $60{,}611.48$", "約 $60{,}611.47$", "rounding", None),
    ("one-over-r-percent-truncated", CH, 72,
     "$1/r \\approx 96.47$ %", "$1/r \\approx 96.46$ %", "rounding", None),
    ("r512-truncated", CH, 72,
     "\\approx 1.036633$", "\\approx 1.036632$", "rounding", None),
    ("threshold-122-31-truncated", CH, 101,
     "\\approx 122.31$", "\\approx 122.30$", "rounding", None),
    ("f16-90-truncated", CH, 179,
     "\\approx 0.2784$", "\\approx 0.2783$", "rounding", None),
    ("sin-squared-1-truncated", CH, 186,
     "\\sin^2 1 \\approx 0.7081$ である", "\\sin^2 1 \\approx 0.7080$ である", "rounding", None),
    ("pos-over-token-embedding-truncated", CH, 239,
     "の約 2.04 %", "の約 2.03 %", "rounding", None),
    ("distance-d8-truncated", CH, 364,
     "\\approx 0.9641$", "\\approx 0.9640$", "rounding", None),

    # ---------------- example number (examples and exercise solutions) ----------------
    ("pe2-cos2-sign-dropped", CH, 50,
     "(0.9093, -0.4161,", "(0.9093, 0.4161,", "example number", None),
    ("sin3-digits-swapped", CH, 125,
     "\\sin 3 \\approx 0.14112$", "\\sin 3 \\approx 0.14121$", "example number", None),
    ("sin5-sign-dropped", CH, 127,
     "-0.95892", "0.95892", "example number", None),
    ("three-omega7-decimal-shift", CH, 129,
     "3\\omega_7 \\approx 0.00094868$", "3\\omega_7 \\approx 0.0094868$", "example number", None),
    ("one-over-omega255-transposed", CH, 263,
     "9{,}646.62$", "9{,}646.26$", "example number", None),
    ("f8-1-digits-swapped", CH, 364,
     "\\approx 3.5353$", "\\approx 3.5535$", "example number", None),
    ("ex17-angle-transposed", CH, 372,
     "\\approx 5.7522$", "\\approx 5.7252$", "example number", None),
    ("bf16-memory-halved-twice", CH, 380,
     "bf16 では 4 MiB", "bf16 では 2 MiB", "example number", None),

    # ---------------- table cell ----------------
    ("tab1-lambda3-transposed", CH, 81,
     "198.69", "198.96", "table cell", None),
    ("tab2-turns-96", CH, 94,
     "2.577", "2.557", "table cell", None),
    ("tab3-distance-k4-transposed", CH, 171,
     "2.2092", "2.2029", "table cell", None),
    ("tab3-f512-1000-transposed", CH, 176,
     "44.9716", "44.9761", "table cell", None),
    ("tab4-bert-base-bytes-transposed", CH, 234,
     "1,572,864", "1,572,846", "table cell", None),
    ("tab4-gpt2-xl-mib", CH, 237,
     "6.25", "6.5", "table cell", None),

    # ---------------- listing output ----------------
    ("out-cos512-k1-transposed", CH, 333,
     "249.1021   0.9731", "249.1021   0.9713", "listing output", None),
    ("out-f512-k50-transposed", CH, 339,
     "131.0908", "131.9080", "listing output", None),
    ("out-ratio-digits", CH, 343,
     "ratio = 1.036633", "ratio = 1.036363", "listing output", None),
    ("out-first-slow-block", CH, 344,
     "(i >= 142)", "(i >= 141)", "listing output", None),
    ("out-gpt2-xl-params-transposed", CH, 346,
     "1024*1600 = 1638400", "1024*1600 = 1683400", "listing output", None),

    # ---------------- formula ----------------
    ("omega-ratio-inverted", CH, 58,
     "\\omega_{i+1}/\\omega_i = 1/r", "\\omega_{i+1}/\\omega_i = r", "formula", None),
    ("last-wavelength-times-r", CH, 59,
     "10{,}000 \\cdot 2\\pi/r$", "10{,}000 \\cdot 2\\pi r$", "formula", None),
    ("last-wavelength-proof-exponent-sign", CH, 66,
     "10{,}000 \\cdot 10{,}000^{-2/d}", "10{,}000 \\cdot 10{,}000^{2/d}", "formula", None),
    ("rotation-matrix-sign-dropped", CH, 107,
     "-\\sin\\theta & \\cos\\theta", "\\sin\\theta & \\cos\\theta", "formula", None),
    ("shift-composition-product", CH, 110,
     "$M_kM_l = M_{k+l}$", "$M_kM_l = M_{kl}$", "formula", None),
    ("addition-theorem-cos-sign", CH, 116,
     "\\cos a\\cos b - \\sin a\\sin b", "\\cos a\\cos b + \\sin a\\sin b", "formula", None),
    ("distance-factor-2-dropped", CH, 141,
     "= d - 2f_d(p - q)$", "= d - f_d(p - q)$", "formula", None),
    ("inner-product-proof-index", CH, 145,
     "M_{q-p}", "M_{p+q}", "formula", None),
    ("pi-rational-factor-2-dropped", CH, 157,
     "$\\pi = k/(2n)$", "$\\pi = k/n$", "formula", None),
    ("product-to-sum-sign", CH, 186,
     "\\frac{1}{2}\\big(\\cos(p - q) - \\cos(p + q)\\big)", "\\frac{1}{2}\\big(\\cos(p - q) + \\cos(p + q)\\big)", "formula", None),
    ("block-product-b-term-sign", CH, 191,
     "b_i(\\sin A\\cos B - \\cos A\\sin B)", "b_i(\\sin A\\cos B + \\cos A\\sin B)", "formula", None),
    ("rope-relative-index-reversed", CH, 205,
     "M_{p'-p}\\boldsymbol{k}", "M_{p-p'}\\boldsymbol{k}", "formula", None),
    ("extrapolation-condition-factor-2", CH, 251,
     "$\\lambda_i > 2(L - 1)$", "$\\lambda_i > L - 1$", "formula", None),

    # ---------------- claim ----------------
    ("shift-depends-on-p", CH, 8,
     "$p$ に依りません（命題 38.4）", "$p$ にも依ります（命題 38.4）", "claim", None),
    ("f-monotone", CH, 9,
     "$f_d$ は差について単調ではなく", "$f_d$ は差について単調に減少し", "claim", None),
    ("last-wavelength-larger", CH, 59,
     "$10{,}000 \\cdot 2\\pi$ より小さい", "$10{,}000 \\cdot 2\\pi$ より大きい", "claim", None),
    ("omega-increasing", CH, 65,
     "狭義単調減少し", "狭義単調増加し", "claim", None),
    ("half-or-more-to-less-than-half", CH, 101,
     "256 ブロックの半分以上が", "256 ブロックの半分未満が", "claim", None),
    ("one-W-handles-all-k", CH, 131,
     "同時に扱えるとは限りません", "同時に扱えます", "claim", None),
    ("cos-odd-function", CH, 146,
     "$\\cos$ は偶関数で", "$\\cos$ は奇関数で", "claim", None),
    ("corollary-wrong-item", CH, 157,
     "後半は命題 38.6 の 3 から", "後半は命題 38.6 の 2 から", "claim", None),
    ("nearer-more-similar-swapped", CH, 179,
     "5 離れた位置のほうが 3 離れた位置より似ています", "3 離れた位置のほうが 5 離れた位置より似ています", "claim", None),
    ("general-W-no-p-plus-q", CH, 205,
     "$p + q$ にも依ります", "$p + q$ には依りません", "claim", None),
    ("loss-depends-on-unused-rows", CH, 218,
     "$P_p$ に依らない", "$P_p$ に依る", "claim", None),
    ("extrapolated-inner-product-differs", CH, 248,
     "学習時と同じ値である", "学習時と異なる値である", "claim", None),
    ("cos-increasing-on-0-pi", CH, 257,
     "で狭義単調減少です", "で狭義単調増加です", "claim", None),
    ("values-inside-training-range", CH, 263,
     "どちらも学習中の範囲の外です", "どちらも学習中の範囲の中です", "claim", None),
    ("extrapolation-confirmed", CH, 269,
     "外挿についてはあくまで期待として書かれています", "外挿については実験で確かめられています", "claim", None),

    # ---------------- structure ----------------
    ("summary-nonexistent-table", CH, 11,
     "（命題 38.12、表 38.4）", "（命題 38.12、表 38.5）", "structure", None),
    ("prop-38-3-numbered-38-4", CH, 54,
     "命題 38.3（周波数と波長）", "命題 38.4（周波数と波長）", "structure", None),
    ("proof-38-3-end-mark-deleted", CH, 70,
     "∎", "", "structure", 63),
    ("section-38-3-heading-numbered-38-4", CH, 103,
     "38.3 位置のずらしは回転", "38.4 位置のずらしは回転", "structure", None),
    ("rope-ref-nonexistent-item", CH, 205,
     "（命題 38.4 の 2）", "（命題 38.4 の 4）", "structure", None),
    ("exercises-heading-38-9", CH, 356,
     "38.8 演習", "38.9 演習", "structure", None),
    ("exercise-38-16-numbered-38-15", CH, 358,
     "演習 38.16易", "演習 38.15易", "structure", None),

    # ---------------- neutral ----------------
    ("rephrase-simplest", CH, 24,
     "最も簡単な方法の 1 つで", "いちばん簡単な方法の 1 つで", "neutral", None),
    ("norm-sides-swapped", CH, 61,
     "= m = d/2$", "= d/2 = m$", "neutral", None),
    ("inverse-transpose-order", CH, 110,
     "$M_{-k} = M_k^{-1} = M_k^{\\mathsf{T}}$", "$M_{-k} = M_k^{\\mathsf{T}} = M_k^{-1}$", "neutral", None),
    ("pythagoras-terms-reordered", CH, 118,
     "対角成分は $\\cos^2\\theta + \\sin^2\\theta = 1$", "対角成分は $\\sin^2\\theta + \\cos^2\\theta = 1$", "neutral", None),
    ("even-sides-swapped", CH, 140,
     "$f_d(-k) = f_d(k)$", "$f_d(k) = f_d(-k)$", "neutral", None),
    ("distance-half-plus-half", CH, 147,
     "= d/2 + d/2 - 2f_d(p - q)$", "= d - 2f_d(p - q)$", "neutral", None),
    ("pi-frac-notation", CH, 157,
     "$\\pi = k/(2n)$", "$\\pi = \\frac{k}{2n}$", "neutral", None),
    ("ab-order-swapped", CH, 197,
     "$a_i = 1$、$b_i = 0$ の場合で", "$b_i = 0$、$a_i = 1$ の場合で", "neutral", None),
    ("param-count-product-notation", CH, 223,
     "$L_{\\max} \\times d$ です", "$L_{\\max}\\,d$ です", "neutral", None),
    ("braced-comma-10000", CH, 44,
     "10,000 は Vaswani らの選んだ定数で", "$10{,}000$ は Vaswani らの選んだ定数で", "neutral", None),
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
