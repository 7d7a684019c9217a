"""Data: one-slip edits of the chapter clipping.txt (勾配クリッピングと学習率スケジュール).

Each entry of SLIPS is one edit of one line of clipping.txt:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line.  The chapter is plain text
(no MDX tags), so there is no deleted closing tag and every expected line is
None; the structure slips break a section or element number or refer to an
element or an output line that does not exist.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_clipping.py passes on all of them.  It does not
normalise `{,}`, so neutral edits were kept away from the strings it checks.

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter folder (with
clip_schedule.py and adam_bias.py beside it) and makes recompute_clipping.py
exit 1.  The recompute script looks for whole phrases (a number together with
its formula or its words) and whole table rows, and compares each listing's
printed output as a whole with a fresh run, so a value such as 0.9899, 4.6098, 1.258 or 1.642515 that
is printed in several places is checked at each place (each numeric slip was
confirmed by running the script, not inferred).  Every formula and claim slip
was checked by hand or numerically (sympy / NumPy) to make the text false; they
and the structure slips leave recompute_clipping.py passing, as it checks
numbers and listed properties, not these formulas, words or numbering.
"""

CH = "clipping.txt"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("summary-beta2-factor-t10-transposed", CH, 9,
     "約 100.45、", "約 100.54、", "prose arithmetic", None),
    ("summary-worst-step-transposed", CH, 10,
     "約 $7.270\\,\\eta$", "約 $7.207\\,\\eta$", "prose arithmetic", None),
    ("sqrt128-digits-swapped", CH, 100,
     "\\approx 11.31\\,c", "\\approx 11.13\\,c", "prose arithmetic", None),
    ("m1-ten-percent-as-one", CH, 141,
     "勾配の 10 % しか", "勾配の 1 % しか", "prose arithmetic", None),
    ("gamma-digits-swapped", CH, 169,
     "\\approx 0.8108$", "\\approx 0.8018$", "prose arithmetic", None),
    ("beta2-over-beta1-dropped-digit", CH, 169,
     "= 1.11$ 倍", "= 1.01$ 倍", "prose arithmetic", None),
    ("vaswani-dW-product-digits", CH, 236,
     "\\sqrt{2{,}048{,}000}", "\\sqrt{2{,}084{,}000}", "prose arithmetic", None),
    ("linear-quarter-position-complement", CH, 254,
     "線形が 0.75", "線形が 0.25", "prose arithmetic", None),
    ("distance-bound-digits-swapped", CH, 285,
     "1.642515 以下", "1.642155 以下", "prose arithmetic", None),
    ("listing-note-binf-digits", CH, 401,
     "$B_\\infty \\approx 7.2703$", "$B_\\infty \\approx 7.2730$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("cos-ex32-rounded-twice", CH, 74,
     "\\approx 0.9899$ で、向きが", "\\approx 0.9900$ で、向きが", "rounding", None),
    ("norm-ex34-truncated", CH, 113,
     "\\sqrt{21.25} \\approx 4.6098", "\\sqrt{21.25} \\approx 4.6097", "rounding", None),
    ("one-minus-gamma-truncated", CH, 169,
     "0.001 \\times 0.1892}", "0.001 \\times 0.1891}", "rounding", None),
    ("table44-uncorrected-t10-truncated", CH, 177,
     "\t6.528\t", "\t6.527\t", "rounding", None),
    ("uncorrected-max-truncated", CH, 181,
     "最大の約 6.569 倍", "最大の約 6.568 倍", "rounding", None),
    ("vaswani-eta-max-truncated", CH, 236,
     "\\approx 6.988 \\times 10^{-4}", "\\approx 6.987 \\times 10^{-4}", "rounding", None),
    ("cos-quarter-truncated", CH, 254,
     "\\approx 0.8536$", "\\approx 0.8535$", "rounding", None),
    ("isqrt-upper-bound-truncated", CH, 267,
     "\\approx 3{,}472.14$", "\\approx 3{,}472.13$", "rounding", None),
    ("ex91-sB-truncated", CH, 416,
     "\\approx 0.2167$", "\\approx 0.2166$", "rounding", None),
    ("ex91-pt-norm-truncated", CH, 416,
     "\\approx 3.6770$", "\\approx 3.6769$", "rounding", None),
    ("ex91-cos-truncated", CH, 416,
     "\\approx 0.9247$", "\\approx 0.9246$", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("ex32-clip-last-component-transposed", CH, 74,
     "0.48,\\ 0.64)", "0.48,\\ 0.46)", "example number", None),
    ("ex32-sB-copied-global", CH, 74,
     "$s_B = 1/4$", "$s_B = 1/5$", "example number", None),
    ("ex34-vector-last-component", CH, 113,
     "(2, -1, 2, 2.1, 2.8)", "(2, -1, 2, 2.1, 2.6)", "example number", None),
    ("ex34-inner-product-sum", CH, 113,
     "= 23/(5\\sqrt{21.25})", "= 25/(5\\sqrt{21.25})", "example number", None),
    ("ex44-power-digits-swapped", CH, 181,
     "= 0.3486784401$", "= 0.3486784410$", "example number", None),
    ("ex44-threshold-step-transposed", CH, 181,
     "$t \\ge 4{,}613$", "$t \\ge 4{,}631$", "example number", None),
    ("ex53-midpoint-forgot-W", CH, 230,
     "$t = W + N/2 = 5{,}250$", "$t = W + N/2 = 4{,}750$", "example number", None),
    ("ex53-offset-transposed", CH, 230,
     "\\pm 2{,}375$", "\\pm 2{,}735$", "example number", None),
    ("ex53-warmup-sum-digit", CH, 230,
     "= 0.07515$", "= 0.07505$", "example number", None),
    ("ex56-warmup-loss-percent", CH, 267,
     "2.495 % だけ", "2.595 % だけ", "example number", None),
    ("ex56-isqrt-warmup-part", CH, 267,
     "合計は $250.5$ と", "合計は $250$ と", "example number", None),
    ("ex91-pt-second-component", CH, 416,
     "(1.56, 2.08, -2.6)", "(1.56, 2.06, -2.6)", "example number", None),
    ("ex92-warmup-part-transposed", CH, 424,
     "= 0.0505$", "= 0.0550$", "example number", None),
    ("ex93-factor-decimal-shift", CH, 432,
     "1/(1 - 0.95) = 20$", "1/(1 - 0.95) = 200$", "example number", None),

    # ---------------- table cell ----------------
    ("table34-sB-c1", CH, 107,
     "\t0.25\t", "\t0.2\t", "table cell", None),
    ("table34-pt-norm-c2-transposed", CH, 108,
     "\t2.8284\t", "\t2.8248\t", "table cell", None),
    ("table34-sB-c35-transposed", CH, 109,
     "\t0.875\t", "\t0.857\t", "table cell", None),
    ("table34-global-norm-c6-copied-c", CH, 111,
     "\t5\t5\t", "\t6\t5\t", "table cell", None),
    ("table44-beta2-factor-t1", CH, 176,
     "\t1,000\t", "\t100\t", "table cell", None),
    ("table44-one-minus-beta2-t100", CH, 178,
     "\t0.09521\t", "\t0.09512\t", "table cell", None),
    ("table53-fraction-t1000-shifted", CH, 223,
     "\t0.05263\t", "\t0.5263\t", "table cell", None),
    ("table53-eta-t7625-transposed", CH, 226,
     "$6.954 \\times 10^{-5}$", "$6.945 \\times 10^{-5}$", "table cell", None),
    ("table56-constant-sum-transposed", CH, 261,
     "\t9,750.5\t", "\t9,705.5\t", "table cell", None),
    ("table56-cos10-sum-transposed", CH, 264,
     "\t5,475.05\t", "\t5,457.05\t", "table cell", None),

    # ---------------- listing output ----------------
    ("output-pt-norm-c1", CH, 334,
     "|per-tensor| 1.4142", "|per-tensor| 1.4124", "listing output", None),
    ("output-cos-c35", CH, 336,
     "cos 0.9979", "cos 0.9997", "listing output", None),
    ("output-pt-vector-rounded", CH, 340,
     "-0.3333", "-0.3334", "listing output", None),
    ("output-lr-t2875", CH, 345,
     "lr=2.6046e-04", "lr=2.6064e-04", "listing output", None),
    ("output-schedule-ratio", CH, 350,
     "ratio 0.547505", "ratio 0.547550", "listing output", None),
    ("output-isqrt-sum", CH, 355,
     "sum  3722.25", "sum  3722.52", "listing output", None),
    ("output-beta2-factor-t10", CH, 393,
     "100.4508", "100.4580", "listing output", None),
    ("output-binf", CH, 396,
     "B_inf = 7.2703", "B_inf = 7.2730", "listing output", None),
    ("output-constant-gradient-exponent", CH, 397,
     "8.9e-15", "8.9e-16", "listing output", None),

    # ---------------- formula ----------------
    ("summary-factor-max", CH, 7,
     "倍率 $\\min(1, c/\\|\\boldsymbol{g}\\|)$", "倍率 $\\max(1, c/\\|\\boldsymbol{g}\\|)$", "formula", None),
    ("summary-cos-K-not-sqrtK", CH, 8,
     "/(\\sqrt{K}\\,\\|\\boldsymbol{g}\\|)$", "/(K\\,\\|\\boldsymbol{g}\\|)$", "formula", None),
    ("geometric-sum-exponent", CH, 17,
     "= (1 - \\beta^{t})/(1 - \\beta)$", "= (1 - \\beta^{t+1})/(1 - \\beta)$", "formula", None),
    ("distance-sign-swapped", CH, 57,
     "\\max(0, \\|\\boldsymbol{g}\\| - c)", "\\max(0, c - \\|\\boldsymbol{g}\\|)", "formula", None),
    ("inner-product-lambda-squared", CH, 59,
     "= \\lambda_c(\\boldsymbol{g})\\,\\|\\boldsymbol{g}\\|^2", "= \\lambda_c(\\boldsymbol{g})^2\\,\\|\\boldsymbol{g}\\|^2", "formula", None),
    ("pt-norm-bound-dropped-sqrtK", CH, 81,
     "\\min(\\|\\boldsymbol{g}\\|,\\ \\sqrt{K}\\,c)", "\\min(\\|\\boldsymbol{g}\\|,\\ c)", "formula", None),
    ("pt-cos-numerator-squared", CH, 86,
     "\\frac{\\sum_{k=1}^{K}\\|\\boldsymbol{g}_k\\|}{", "\\frac{\\sum_{k=1}^{K}\\|\\boldsymbol{g}_k\\|^2}{", "formula", None),
    ("weights-denominator-missing-t", CH, 130,
     "\\beta_1^{t-i}/(1 - \\beta_1^{t})$", "\\beta_1^{t-i}/(1 - \\beta_1)$", "formula", None),
    ("expected-m-missing-t", CH, 131,
     "$E[m_t] = (1 - \\beta_1^{t})\\mu$", "$E[m_t] = (1 - \\beta_1)\\mu$", "formula", None),
    ("Bt-gamma-without-sqrt", CH, 151,
     "\\,\\sqrt{1 - \\gamma^{t}}}{", "\\,(1 - \\gamma^{t})}{", "formula", None),
    ("equality-sequence-inverted", CH, 153,
     "$g_i = (\\beta_1/\\beta_2)^{t-i}$", "$g_i = (\\beta_2/\\beta_1)^{t-i}$", "formula", None),
    ("cosine-sum-minus-one", CH, 197,
     "\\frac{\\eta_{\\min}(T - W + 1)}{2}", "\\frac{\\eta_{\\min}(T - W - 1)}{2}", "formula", None),
    ("cos-pi-minus-x-sign", CH, 203,
     "$\\cos(\\pi - x) = -\\cos x$", "$\\cos(\\pi - x) = \\cos x$", "formula", None),
    ("warmup-sum-missing-plus-one", CH, 204,
     "= \\frac{\\eta_{\\max}(W + 1)}{2}$", "= \\frac{\\eta_{\\max}W}{2}$", "formula", None),
    ("isqrt-upper-bound-missing-2", CH, 244,
     "\\le 2\\sqrt{W}\\big(\\sqrt{T} - \\sqrt{W}\\big)$", "\\le \\sqrt{W}\\big(\\sqrt{T} - \\sqrt{W}\\big)$", "formula", None),
    ("integral-x-minus-half", CH, 250,
     "= 2(\\sqrt{b} - \\sqrt{a})$", "= (\\sqrt{b} - \\sqrt{a})/2$", "formula", None),
    ("sgd-step-max", CH, 275,
     "\\eta_t\\min(\\|\\boldsymbol{g}_t\\|, c)", "\\eta_t\\max(\\|\\boldsymbol{g}_t\\|, c)", "formula", None),

    # ---------------- claim ----------------
    ("summary-sum-depends-on-W", CH, 11,
     "$W$ に依りません", "$W$ が大きいほど小さくなります", "claim", None),
    ("three-tools-two", CH, 22,
     "次の 3 つで管理します", "次の 2 つで管理します", "claim", None),
    ("descent-loss-increases", CH, 70,
     "少し動けば損失が減る", "少し動けば損失が増える", "claim", None),
    ("loss-scale-threshold-raised", CH, 70,
     "閾値が実質 $S$ 分の 1 に下がってしまいます", "閾値が実質 $S$ 倍に上がってしまいます", "claim", None),
    ("min-nonincreasing", CH, 92,
     "は単調非減少なので", "は単調非増加なので", "claim", None),
    ("per-tensor-shrinks-more", CH, 100,
     "縮め方が弱く", "縮め方が強く", "claim", None),
    ("one-large-tensor-cos-to-1", CH, 100,
     "$1/\\sqrt{K}$ に近づきます", "$1$ に近づきます", "claim", None),
    ("global-norm-nonincreasing", CH, 113,
     "について単調非減少です", "について単調非増加です", "claim", None),
    ("bias-when-t-large", CH, 141,
     "$t$ が小さいうちは 0 の側に", "$t$ が大きいうちは 0 の側に", "claim", None),
    ("worst-ratio-below-1", CH, 169,
     "比が 1 を超えます", "比が 1 を下回ります", "claim", None),
    ("Bt-decreasing", CH, 181,
     "$t$ とともに増え、", "$t$ とともに減り、", "claim", None),
    ("decay-increasing", CH, 195,
     "狭義単調減少", "狭義単調増加", "claim", None),
    ("isqrt-sum-proportional-T", CH, 254,
     "合計が $\\sqrt{T}$ の程度でしか増えず", "合計が $T$ に比例して増え", "claim", None),
    ("adam-clip-scales-update", CH, 289,
     "クリッピングは更新に何の影響も与えません", "クリッピングは更新をその倍率で縮めます", "claim", None),
    ("small-beta2-bias-persists", CH, 432,
     "補正は早く消え", "補正は長く残り", "claim", None),

    # ---------------- structure ----------------
    ("pt-clip-ref-missing-def", CH, 46,
     "定義 2.1 の操作", "定義 2.3 の操作", "structure", None),
    ("section-3-number-duplicated", CH, 50,
     "3. クリッピングの性質", "4. クリッピングの性質", "structure", None),
    ("prop33-number-duplicates-ex34", CH, 76,
     "命題 3.3（テンソルごとの", "命題 3.4（テンソルごとの", "structure", None),
    ("proof42-labelled-43", CH, 133,
     "証明（命題 4.2）", "証明（命題 4.3）", "structure", None),
    ("section-5-number-duplicated", CH, 183,
     "5. ウォームアップと余弦減衰", "6. ウォームアップと余弦減衰", "structure", None),
    ("ex56-output-lines-beyond-end", CH, 258,
     "出力の 19〜23 行目", "出力の 19〜24 行目", "structure", None),
    ("remark62-ref-missing-prop", CH, 289,
     "命題 4.3 の 2 より", "命題 4.5 の 2 より", "structure", None),

    # ---------------- neutral ----------------
    ("reword-intro-two-mechanisms", CH, 5,
     "実際の大きなモデルの学習では、その 1 歩の大きさを 2 つの仕組みで管理します。",
     "実際に大きなモデルを学習するときは、その 1 歩の大きさを 2 つの仕組みで管理します。",
     "neutral", None),
    ("reword-pascanu", CH, 24,
     "再帰型ネットワークの勾配爆発への対策として提案しました",
     "再帰型ネットワークで勾配が爆発する問題への対策として提案しました",
     "neutral", None),
    ("gpt3-tokens-decimal", CH, 28,
     "最初の 3 億 7,500 万トークンで", "最初の 3.75 億トークンで", "neutral", None),
    ("P-as-sum", CH, 32,
     "$P = P_1 + \\cdots + P_K$", "$P = \\sum_{k=1}^{K}P_k$", "neutral", None),
    ("global-norm-as-sqrt", CH, 36,
     "\\big(\\sum_{k=1}^{K}\\|\\boldsymbol{g}_k\\|^2\\big)^{1/2}", "\\sqrt{\\sum_{k=1}^{K}\\|\\boldsymbol{g}_k\\|^2}", "neutral", None),
    ("lambda-interval", CH, 56,
     "$0 < \\lambda_c(\\boldsymbol{g}) \\le 1$", "$\\lambda_c(\\boldsymbol{g}) \\in (0, 1]$", "neutral", None),
    ("spacing-clip-norm-proof", CH, 63,
     "(c/\\|\\boldsymbol{g}\\|)\\,\\|\\boldsymbol{g}\\| = c", "(c/\\|\\boldsymbol{g}\\|) \\|\\boldsymbol{g}\\| = c", "neutral", None),
    ("reword-vhat-same", CH, 137,
     "$\\hat v_t$ も同じです。", "$\\hat v_t$ についても同様です。", "neutral", None),
    ("Binf-as-frac", CH, 153,
     "B_\\infty := (1 - \\beta_1)/\\sqrt{(1 - \\beta_2)(1 - \\gamma)}", "B_\\infty := \\frac{1 - \\beta_1}{\\sqrt{(1 - \\beta_2)(1 - \\gamma)}}", "neutral", None),
    ("half-braced", CH, 198,
     "$\\dfrac12 +", "$\\dfrac{1}{2} +", "neutral", None),
    ("mean-as-frac", CH, 213,
     "の平均はちょうど $(\\eta_{\\max} + \\eta_{\\min})/2$", "の平均はちょうど $\\frac{\\eta_{\\max} + \\eta_{\\min}}{2}$", "neutral", None),
    ("ten-percent-as-wari", CH, 217,
     "（最大値の 10 %）", "（最大値の 1 割）", "neutral", None),
    ("reword-next-chapter", CH, 406,
     "この章で、学習の 1 歩の大きさを管理する 3 つの道具がそろいました。",
     "これで、学習の 1 歩の大きさを管理する 3 つの道具がこの章でそろいました。",
     "neutral", None),
    ("eta-max-decimal", CH, 420,
     "$\\eta_{\\max} = 10^{-3}$", "$\\eta_{\\max} = 0.001$", "neutral", None),
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
