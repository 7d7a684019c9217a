"""Data: one-slip edits of the chapter label_smoothing.txt (ラベル平滑化と交差エントロピー).

Each entry of SLIPS is one edit of one line of label_smoothing.txt:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line (the chapter is plain text,
so there are no closing tags; every structure slip shows where it is made).

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_label_smoothing.py passes on all of them (it does
NOT normalise `{,}`, so no neutral edit touches a `{,}` inside a checked
string; the neutral edits are in places whose text the script does not match).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_label_smoothing.py exit 1.  Numbers that the chapter prints twice
(e.g. the target (0.925, 0.025, 0.025, 0.025) of lines 72 and 126, 2.424242 and
3.162278 on line 255, 0.072114 and 0.094822 on lines 178 and 184) were avoided
as slip sites, because the recompute script only checks that a string occurs
somewhere.  Every formula and claim slip makes the text mathematically false.
"""

CH = "label_smoothing.txt"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("qy-32000-dropped-zero", CH, 72,
     "= 0.900003125$", "= 0.900031250$", "prose arithmetic", None),
    ("summary-gap-transposed", CH, 9,
     "\\approx 12.5707$", "\\approx 12.7507$", "prose arithmetic", None),
    ("summary-exp-H-transposed", CH, 10,
     "\\approx 3.9055$", "\\approx 3.9505$", "prose arithmetic", None),
    ("log2-transposed", CH, 159,
     "\\log 2 \\approx 0.6931$", "\\log 2 \\approx 0.6913$", "prose arithmetic", None),
    ("gap-difference-transposed", CH, 201,
     "いずれも約 0.4514", "いずれも約 0.4154", "prose arithmetic", None),
    ("minus-log-0.8-transposed", CH, 201,
     "-\\log 0.8 \\approx 0.2231$", "-\\log 0.8 \\approx 0.2321$", "prose arithmetic", None),
    ("variant-min-sum-carry", CH, 205,
     "= 0.434944$", "= 0.435944$", "prose arithmetic", None),
    ("variant-log27-transposed", CH, 205,
     "\\log 27 \\approx 3.2958$", "\\log 27 \\approx 3.2985$", "prose arithmetic", None),
    ("bound-1-over-0.9-digit", CH, 289,
     "なら約 1.1111 です", "なら約 1.1211 です", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("summary-H-truncated", CH, 9,
     "H(\\boldsymbol{q}) \\approx 1.3624$", "H(\\boldsymbol{q}) \\approx 1.3623$", "rounding", None),
    ("lse-truncated", CH, 118,
     "\\approx 2.440190$ です", "\\approx 2.440189$ です", "rounding", None),
    ("p2-truncated", CH, 120,
     "0.236883", "0.236882", "rounding", None),
    ("kl-from-rounded-values", CH, 126,
     "\\approx 0.553895$", "\\approx 0.553896$", "rounding", None),
    ("log36-upper-truncated", CH, 176,
     "\\approx 3.611297$", "\\approx 3.611296$", "rounding", None),
    ("H32-six-digits-truncated", CH, 184,
     "= 1.362390$$", "= 1.362389$$", "rounding", None),
    ("bits-truncated", CH, 257,
     "約 14.9658 ビット", "約 14.9657 ビット", "rounding", None),
    ("ppl-bound-truncated", CH, 259,
     "\\approx 1.435$", "\\approx 1.434$", "rounding", None),
    ("kl-73-from-rounded-values", CH, 293,
     "差の KL は約 0.027597", "差の KL は約 0.027596", "rounding", None),
    ("ex103-ppl-bound-truncated", CH, 413,
     "\\approx 10.515$", "\\approx 10.514$", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("ex33-sum-transposed", CH, 118,
     "和は約 11.475217", "和は約 11.475271", "example number", None),
    ("ex33-eps-over-V-shifted", CH, 130,
     "\\varepsilon/V = 0.025$", "\\varepsilon/V = 0.25$", "example number", None),
    ("ex43-log36-transposed", CH, 176,
     "\\log 36 \\approx 3.583519$", "\\log 36 \\approx 3.583159$", "example number", None),
    ("ex43-ratio-288010", CH, 182,
     "= 288{,}001$", "= 288{,}010$", "example number", None),
    ("ex43-vocab-800", CH, 186,
     "語彙が 8,000 倍", "語彙が 800 倍", "example number", None),
    ("ex63-upper-mean-transposed", CH, 255,
     "17.25/4 = 4.3125", "17.25/4 = 4.3215", "example number", None),
    ("ex63-mean-p-transposed", CH, 255,
     "$1/0.4125", "$1/0.4215", "example number", None),
    ("ex73-pstar-third", CH, 293,
     "(0.655, 0.205, 0.115, 0.025)", "(0.655, 0.205, 0.125, 0.025)", "example number", None),
    ("ex101-second-term-transposed", CH, 397,
     "+ 0.704164 =", "+ 0.704146 =", "example number", None),
    ("ex102-log19-digit", CH, 405,
     "\\log 19 \\approx 2.9444$", "\\log 19 \\approx 2.9944$", "example number", None),
    ("ex103-ratio-digit", CH, 413,
     "約 2.333 倍", "約 2.233 倍", "example number", None),

    # ---------------- table cell ----------------
    ("table-qy-V4-005", CH, 191,
     "0.962500", "0.952500", "table cell", None),
    ("table-gap-V4-02-transposed", CH, 193,
     "2.8332", "2.8323", "table cell", None),
    ("table-eps-over-V-exponent", CH, 194,
     "$1.5625 \\times 10^{-6}$", "$1.5625 \\times 10^{-5}$", "table cell", None),
    ("table-ratio-32000-01-transposed", CH, 195,
     "0.1313", "0.1331", "table cell", None),
    ("table-H-32000-02-transposed", CH, 196,
     "2.5750", "2.5705", "table cell", None),
    ("table-qy-50257-copied-from-32000", CH, 198,
     "0.900002", "0.900003", "table cell", None),
    ("table-eps-over-V-50257-transposed", CH, 199,
     "$3.9795 \\times 10^{-6}$", "$3.9759 \\times 10^{-6}$", "table cell", None),
    ("table51-ce-ratio-transposed", CH, 215,
     "1.3408", "1.3480", "table cell", None),
    ("table51-variant-grad-transposed", CH, 216,
     "−0.256086", "−0.265086", "table cell", None),
    ("table51-kl-ratio-transposed", CH, 217,
     "0.5484", "0.5448", "table cell", None),

    # ---------------- listing output ----------------
    ("output-ce-loss", CH, 362,
     "loss=0.440190", "loss=0.441090", "listing output", None),
    ("output-grad-third", CH, 363,
     "+0.062144", "+0.062414", "listing output", None),
    ("output-gd-gap", CH, 365,
     "gap=3.610918", "gap=3.610981", "listing output", None),
    ("output-gap-V4-02", CH, 369,
     "2.8332", "2.8323", "listing output", None),
    ("output-gap-50257-01", CH, 374,
     "13.0221", "13.0212", "listing output", None),
    ("output-mean-inverse", CH, 376,
     "mean(1/p)=4.312500", "mean(1/p)=4.321500", "listing output", None),
    ("output-confidence-sign-lost", CH, 377,
     "= -0.045000", "= 0.045000", "listing output", None),
    ("output-ppl-ratio", CH, 378,
     "PPL ratio=1.027981", "PPL ratio=1.028981", "listing output", None),

    # ---------------- formula ----------------
    ("summary-logit-form-minus", CH, 7,
     "$\\mathrm{CE} + \\varepsilon\\,(z_y - \\bar{z})$", "$\\mathrm{CE} - \\varepsilon\\,(z_y - \\bar{z})$", "formula", None),
    ("summary-gap-drops-eps-over-V", CH, 9,
     "(1 - \\varepsilon + \\varepsilon/V)/(\\varepsilon/V)", "(1 - \\varepsilon)/(\\varepsilon/V)", "formula", None),
    ("target-other-V-minus-1", CH, 64,
     "\\dfrac{\\varepsilon}{V} & (k \\ne y)", "\\dfrac{\\varepsilon}{V - 1} & (k \\ne y)", "formula", None),
    ("loss-mean-sign", CH, 81,
     "z_y - \\varepsilon\\,\\bar{z}", "z_y + \\varepsilon\\,\\bar{z}", "formula", None),
    ("gradient-reversed", CH, 98,
     "= \\boldsymbol{p} - \\boldsymbol{q}$ であり", "= \\boldsymbol{q} - \\boldsymbol{p}$ であり", "formula", None),
    ("variance-sign", CH, 107,
     "\\sum_k p_k v_k^2 - m^2", "\\sum_k p_k v_k^2 + m^2", "formula", None),
    ("gradient-shift-sign", CH, 114,
     "+ \\varepsilon(\\boldsymbol{e}_y - \\boldsymbol{u})", "- \\varepsilon(\\boldsymbol{e}_y - \\boldsymbol{u})", "formula", None),
    ("gap-V-minus-1", CH, 140,
     "1 + \\frac{V(1 - \\varepsilon)}{\\varepsilon}", "1 + \\frac{(V - 1)(1 - \\varepsilon)}{\\varepsilon}", "formula", None),
    ("minimum-log-inverted", CH, 143,
     "\\log\\frac{V}{\\varepsilon}", "\\log\\frac{\\varepsilon}{V}", "formula", None),
    ("ce-exponent-sign", CH, 144,
     "1 + (V - 1)e^{-t}", "1 + (V - 1)e^{t}", "formula", None),
    ("gap-upper-bound-eps-over-V", CH, 159,
     "+ \\dfrac{\\varepsilon}{V(1 - \\varepsilon)}", "+ \\dfrac{\\varepsilon}{V}", "formula", None),
    ("variant-eps-inverted", CH, 205,
     "$\\varepsilon = \\varepsilon' V/(V - 1)$", "$\\varepsilon = \\varepsilon' (V - 1)/V$", "formula", None),
    ("ppl-exponent-sign", CH, 229,
     "\\Big)^{-1/N}", "\\Big)^{1/N}", "formula", None),
    ("ppl-factor-sign", CH, 240,
     "$e^{-\\delta}$ 倍", "$e^{\\delta}$ 倍", "formula", None),
    ("inverse-map-sign", CH, 277,
     "(\\boldsymbol{p}^{*} - \\varepsilon\\boldsymbol{u})", "(\\boldsymbol{p}^{*} + \\varepsilon\\boldsymbol{u})", "formula", None),
    ("ex102-loss-drops-half", CH, 405,
     "- (1 - \\varepsilon/2)t$ です", "- (1 - \\varepsilon)t$ です", "formula", None),

    # ---------------- claim ----------------
    ("hessian-depends-on-eps", CH, 8,
     "ヘッセ行列は $\\varepsilon$ にも正解にも依りません",
     "ヘッセ行列は正解には依りませんが、$\\varepsilon$ には依ります", "claim", None),
    ("jacobian-at-least", CH, 26,
     "$1 - \\max_k p_k$ 以下になります", "$1 - \\max_k p_k$ 以上になります", "claim", None),
    ("cross-entropy-linear-in-b", CH, 42,
     "$H(\\boldsymbol{a}, \\boldsymbol{b})$ は $\\boldsymbol{a}$ について線形です",
     "$H(\\boldsymbol{a}, \\boldsymbol{b})$ は $\\boldsymbol{b}$ について線形です", "claim", None),
    ("loss-decreasing-in-eps", CH, 81,
     "$\\varepsilon$ について増加する", "$\\varepsilon$ について減少する", "claim", None),
    ("ce-gradient-positive", CH, 100,
     "$\\varepsilon = 0$ なら常に負である", "$\\varepsilon = 0$ なら常に正である", "claim", None),
    ("small-logits-pushed-down", CH, 114,
     "ロジットは押し上げられます", "ロジットは押し下げられます", "claim", None),
    ("ce-increasing-in-t", CH, 144,
     "$t$ について狭義減少し", "$t$ について狭義増加し", "claim", None),
    ("gap-decreasing-in-V", CH, 158,
     "$V$ について狭義増加である", "$V$ について狭義減少である", "claim", None),
    ("loss-never-above", CH, 186,
     "この値を下回りません", "この値を上回りません", "claim", None),
    ("table-gap-increases", CH, 201,
     "$\\Delta^{*}$ は減り", "$\\Delta^{*}$ は増え", "claim", None),
    ("confidence-gap-quadratic", CH, 275,
     "この差は $\\varepsilon$ に比例し", "この差は $\\varepsilon$ の 2 乗に比例し", "claim", None),
    ("ppl-at-least", CH, 276,
     "最良の値の高々 $1/(1 - \\varepsilon)$ 倍である", "最良の値の少なくとも $1/(1 - \\varepsilon)$ 倍である", "claim", None),
    ("smaller-vocab-closer", CH, 289,
     "語彙が大きいほどこの上界に近づきます", "語彙が小さいほどこの上界に近づきます", "claim", None),
    ("temperature-multiplies-gap", CH, 387,
     "$\\Delta^{*}$ を $1/T$ 倍にします", "$\\Delta^{*}$ を $T$ 倍にします", "claim", None),
    ("overestimate-at-most", CH, 413,
     "少なくともこの比だけ過大になります", "高々この比だけ過大になります", "claim", None),

    # ---------------- structure ----------------
    ("ref-theorem-item-4", CH, 24,
     "定理 4.1 の 3）", "定理 4.1 の 4）", "structure", None),
    ("ref-remark-4.5", CH, 72,
     "注意 4.4 で扱います", "注意 4.5 で扱います", "structure", None),
    ("theorem-number-duplicated", CH, 134,
     "定理 4.1（", "定理 4.2（", "structure", None),
    ("ref-definition-2.4", CH, 148,
     "定義 2.1 より", "定義 2.4 より", "structure", None),
    ("proof-of-missing-prop", CH, 162,
     "証明（命題 4.2）", "証明（命題 4.3）", "structure", None),
    ("section-number-duplicated", CH, 207,
     "5. 損失の変種の比較", "4. 損失の変種の比較", "structure", None),
    ("example-number-duplicated", CH, 291,
     "例 7.3（V = 4 での較正）", "例 7.2（V = 4 での較正）", "structure", None),

    # ---------------- neutral ----------------
    ("reword-intro", CH, 5,
     "ラベル平滑化は、目標の確率のうち $\\varepsilon$ を語彙全体に一様に配り直して、この問題を取り除く方法です。",
     "ラベル平滑化は、この問題を取り除くために、目標の確率のうち $\\varepsilon$ を語彙全体に一様に配り直す方法です。",
     "neutral", None),
    ("geq-notation", CH, 32,
     "（$V \\ge 2$）", "（$V \\geq 2$）", "neutral", None),
    ("spacing-entropy", CH, 38,
     "H(\\boldsymbol{a}) := -\\sum_{k=1}^{V} a_k \\log a_k", "H(\\boldsymbol{a}) := - \\sum_{k=1}^{V} a_k \\log a_k", "neutral", None),
    ("target-terms-swapped", CH, 86,
     "$q_k = (1 - \\varepsilon)[k = y] + \\varepsilon/V$", "$q_k = \\varepsilon/V + (1 - \\varepsilon)[k = y]$", "neutral", None),
    ("hessian-terms-swapped", CH, 99,
     "= \\mathrm{diag}(\\boldsymbol{p}) - \\boldsymbol{p}\\boldsymbol{p}^{\\mathsf{T}}$ で",
     "= -\\boldsymbol{p}\\boldsymbol{p}^{\\mathsf{T}} + \\mathrm{diag}(\\boldsymbol{p})$ で", "neutral", None),
    ("gap-as-1-over-eps", CH, 140,
     "1 + \\frac{V(1 - \\varepsilon)}{\\varepsilon}", "1 + V\\Big(\\frac{1}{\\varepsilon} - 1\\Big)", "neutral", None),
    ("one-plus-first", CH, 148,
     "= V(1 - \\varepsilon)/\\varepsilon + 1$", "= 1 + V(1 - \\varepsilon)/\\varepsilon$", "neutral", None),
    ("half-as-decimal", CH, 170,
     "$0 < \\varepsilon \\le 1/2$ のとき", "$0 < \\varepsilon \\le 0.5$ のとき", "neutral", None),
    ("bits-cdot", CH, 245,
     "\\exp(\\bar{\\ell}_2\\log 2)", "\\exp(\\bar{\\ell}_2 \\cdot \\log 2)", "neutral", None),
    ("reword-conversion", CH, 257,
     "換算の目安として、", "目安として換算すると、", "neutral", None),
    ("confidence-expanded", CH, 283,
     "= \\varepsilon(\\pi_{\\max} - 1/V)$ です", "= \\varepsilon\\pi_{\\max} - \\varepsilon/V$ です", "neutral", None),
    ("reword-post-hoc", CH, 289,
     "5 から、平滑化の影響は最小点では事後の補正で取り除けます。",
     "5 から、最小点では平滑化の影響を事後の補正で取り除けます。", "neutral", None),
    ("second-derivative-power", CH, 405,
     "$e^{t}/(1 + e^{t})^{2}$", "$e^{t}(1 + e^{t})^{-2}$", "neutral", None),
    ("fullwidth-one", CH, 58,
     "この 1 つの不等式", "この１つの不等式", "neutral", None),
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
