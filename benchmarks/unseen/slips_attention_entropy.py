"""Data: one-slip edits of the chapter attention_entropy.mdx (注意のエントロピーと softmax の温度).

Each entry of SLIPS is one edit of one line of attention_entropy.mdx:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted closing tag it
is the line where the broken element opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_attention_entropy.py passes on all of them (it
normalises `{,}` to `,` and only looks for the numbers it checks).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_attention_entropy.py exit 1.  Numbers that the chapter prints twice
(e.g. 0.6439, 0.9475, 2.5793, 1.3863, 2.3390, 1.4927, 1.0743, 1.5839, 1.3870,
the lower bounds 2.9825 / 0.2950 / 0.0063 and 6.4222, 9.8136, which are also in
the listing output) were avoided as slip sites because the recompute script
only checks that the value occurs somewhere.  Prose arithmetic here means the
running text outside the hand-worked examples' main chains: section 7 and the
commentary paragraphs after the two tables.
"""

CH = "attention_entropy.mdx"

SLIPS = [
    # ---------------- prose arithmetic ----------------
    ("sec7-width-for-collapse-transposed", CH, 293,
     "= 9.1827$", "= 9.1872$", "prose arithmetic", None),
    ("sec7-log1023-as-log1024", CH, 293,
     "\\log 1023 = 6.9305$", "\\log 1023 = 6.9315$", "prose arithmetic", None),
    ("jacobian-1-minus-p1-subtraction", CH, 307,
     "1 - p_1 = 0.0183", "1 - p_1 = 0.0193", "prose arithmetic", None),
    ("jacobian-1-minus-exp-digit", CH, 307,
     "= 0.0889 \\le", "= 0.0898 \\le", "prose arithmetic", None),
    ("needle-gap-to-log-n-subtraction", CH, 265,
     "との差は 0.0786 です", "との差は 0.0796 です", "prose arithmetic", None),
    ("needle-log4-digits-swapped", CH, 265,
     "0.2555 \\times 1.3863", "0.2555 \\times 1.3683", "prose arithmetic", None),
    ("dHdtau-max-value", CH, 163,
     "最大値 約 1.515 を取り", "最大値 約 1.551 を取り", "prose arithmetic", None),
    ("dHdtau-argmax-transposed", CH, 163,
     "$\\tau \\approx 0.38$", "$\\tau \\approx 0.83$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("exp2-truncated", CH, 65,
     "$e^{2} = 7.3891$", "$e^{2} = 7.3890$", "rounding", None),
    ("e-truncated", CH, 65,
     "$e^{1} = 2.7183$", "$e^{1} = 2.7182$", "rounding", None),
    ("percent-of-log4-truncated", CH, 65,
     "68.4 %", "68.3 %", "rounding", None),
    ("s0-n8-truncated", CH, 191,
     "= 0.7416$", "= 0.7415$", "rounding", None),
    ("two-keys-p1-half-truncated", CH, 410,
     "$p_1 = 0.7311$", "$p_1 = 0.7310$", "rounding", None),
    ("collapse-budget-norm-truncated", CH, 434,
     "= 0.0608$", "= 0.0607$", "rounding", None),
    ("log-262144-double-rounded", CH, 265,
     "$\\log n = 12.4766$", "$\\log n = 12.4767$", "rounding", None),
    ("p-log-scaling-4096-truncated", CH, 255,
     "$p = 0.7829$", "$p = 0.7828$", "rounding", None),
    ("log-Z2-truncated", CH, 423,
     "$H_2 = 0.8514 +", "$H_2 = 0.8513 +", "rounding", None),
    ("collapse-budget-ratio-truncated", CH, 434,
     "\\log 2383.2 =", "\\log 2383.1 =", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("Z-n4-transposed", CH, 65,
     "= 11.4752$", "= 11.4725$", "example number", None),
    ("term2-transposed", CH, 65,
     "$0.3412$", "$0.3142$", "example number", None),
    ("denominator-z8-transposed", CH, 191,
     "= 23.1418$", "= 23.1481$", "example number", None),
    ("f8-bound-transposed", CH, 191,
     "f_8(s) = 0.6473$", "f_8(s) = 0.6437$", "example number", None),
    ("s-z8-transposed", CH, 191,
     "$s = 0.8679$", "$s = 0.8697$", "example number", None),
    ("train-spread-term-digit", CH, 255,
     "0.5683 + 1.7707 =", "0.5683 + 1.7077 =", "example number", None),
    ("4095-exp-transposed", CH, 255,
     "= 0.2773$", "= 0.2737$", "example number", None),
    ("kappa-transposed", CH, 255,
     "= 1.1542$", "= 1.1524$", "example number", None),
    ("two-keys-H-half-transposed", CH, 410,
     "$H = 0.5822$", "$H = 0.5282$", "example number", None),
    ("Z2-used-1023", CH, 423,
     "$Z_2 = 2.3428$", "$Z_2 = 2.3432$", "example number", None),
    ("H1-second-term-transposed", CH, 423,
     "0.2950 + 2.0440 =", "0.2950 + 2.0404 =", "example number", None),

    # ---------------- table cell ----------------
    ("T1-eH-tau05-transposed", CH, 157,
     "| 1.5768 |", "| 1.5786 |", "table cell", None),
    ("T1-var-tau2-transposed", CH, 159,
     "| 1.0215 |", "| 1.0125 |", "table cell", None),
    ("T1-dHdtau-tau4-transposed", CH, 160,
     "| 0.0185 |", "| 0.0158 |", "table cell", None),
    ("T1-dHdtau-tau025-transposed", CH, 156,
     "| 1.2162 |", "| 1.2126 |", "table cell", None),
    ("T1-H-uniform-transposed", CH, 161,
     "| 1.3863 |", "| 1.3836 |", "table cell", None),
    ("T2-bstar-65536-transposed", CH, 262,
     "| 1.5847 |", "| 1.5874 |", "table cell", None),
    ("T2-Hnone-16384-transposed", CH, 261,
     "| 8.6396 |", "| 8.6369 |", "table cell", None),
    ("T2-bstar-262144-digit", CH, 263,
     "| 1.7733 |", "| 1.7773 |", "table cell", None),
    ("T2-ratio-4096-shifted", CH, 260,
     "| 1.0006 |", "| 1.0060 |", "table cell", None),

    # ---------------- listing output ----------------
    ("output-eH-tau025", CH, 369,
     "1.0976", "1.0967", "listing output", None),
    ("output-H-train", CH, 374,
     "H_train = 2.3390", "H_train = 2.3309", "listing output", None),
    ("output-Hwt-16384", CH, 378,
     "3.0476", "3.0467", "listing output", None),
    ("output-log-1024", CH, 383,
     "6.9315", "6.9351", "listing output", None),
    ("output-Hlog-gauss-16384", CH, 385,
     "8.7290", "8.7209", "listing output", None),
    ("output-argmin-w8", CH, 389,
     "(  2)", "(  1)", "listing output", None),
    ("output-Hlog-gauss-256", CH, 382,
     "5.2338", "5.2383", "listing output", None),
    ("output-two-level-min-w12", CH, 390,
     "0.0812", "0.0821", "listing output", None),

    # ---------------- formula ----------------
    ("binary-entropy-sign", CH, 45,
     "= -s\\log s - (1-s)\\log(1-s)$", "= -s\\log s + (1-s)\\log(1-s)$", "formula", None),
    ("beta-sqrt-dk-not-inverted", CH, 61,
     "逆温度 $\\beta = 1/\\sqrt{d_k}$", "逆温度 $\\beta = \\sqrt{d_k}$", "formula", None),
    ("upper-bound-S-over-n-inverted", CH, 90,
     "= \\frac{|S|}{n} - 1 \\le 0", "= \\frac{n}{|S|} - 1 \\le 0", "formula", None),
    ("lemma-sign-of-beta-mu", CH, 107,
     "= -\\beta\\mu + \\log Z \\sum_i p_i", "= \\beta\\mu + \\log Z \\sum_i p_i", "formula", None),
    ("dHdtau-tau-squared", CH, 121,
     "\\dfrac{\\mathrm{Var}_p(z)}{\\tau^3}", "\\dfrac{\\mathrm{Var}_p(z)}{\\tau^2}", "formula", None),
    ("dmu-missing-square", CH, 134,
     "= \\sum_i p_iz_i^2 - \\mu^2 =", "= \\sum_i p_iz_i^2 - \\mu =", "formula", None),
    ("chain-rule-dbeta-dtau", CH, 141,
     "\\Big(-\\dfrac{1}{\\tau^2}\\Big)", "\\Big(-\\dfrac{1}{\\tau}\\Big)", "formula", None),
    ("fn-derivative-n-1-numerator", CH, 184,
     "$f_n'(s) = \\log\\dfrac{1-s}{(n-1)s}$", "$f_n'(s) = \\log\\dfrac{(n-1)(1-s)}{s}$", "formula", None),
    ("gaussian-limit-beta-not-squared", CH, 203,
     "= -\\frac{\\beta^2\\omega^2}{2}$ である", "= -\\frac{\\beta\\omega^2}{2}$ である", "formula", None),
    ("gaussian-first-moment-missing-beta", CH, 209,
     "$E[z_1e^{\\beta z_1}] = \\beta\\omega^2e^{\\beta^2\\omega^2/2}$",
     "$E[z_1e^{\\beta z_1}] = \\omega^2e^{\\beta^2\\omega^2/2}$", "formula", None),
    ("needle-odds-inverted", CH, 236,
     "= \\dfrac{n^{\\kappa}}{n - 1}$", "= \\dfrac{n - 1}{n^{\\kappa}}$", "formula", None),
    ("needle-proof-exponent-sign", CH, 246,
     "= n^{-\\kappa}$ なので", "= n^{\\kappa}$ なので", "formula", None),
    ("max-weight-bound-exp-sign", CH, 279,
     "\\dfrac{1}{1 + (n-1)e^{-w}}", "\\dfrac{1}{1 + (n-1)e^{w}}", "formula", None),
    ("width-bound-missing-2", CH, 281,
     "$w = 2\\|W_QW_K^{\\mathsf{T}}\\|_2R^2/\\sqrt{d_k}$", "$w = \\|W_QW_K^{\\mathsf{T}}\\|_2R^2/\\sqrt{d_k}$", "formula", None),
    ("two-level-H-k-instead-of-n-k", CH, 423,
     "+ w(n-k)e^{-w}/Z_k$", "+ wk\\,e^{-w}/Z_k$", "formula", None),

    # ---------------- claim ----------------
    ("summary-tau-decreasing", CH, 11,
     "について狭義単調増加です", "について狭義単調減少です", "claim", None),
    ("summary-jacobian-at-least-H", CH, 14,
     "成分はすべて $H$ 以下になります", "成分はすべて $H$ 以上になります", "claim", None),
    ("theorem-beta-increasing-on-positive", CH, 120,
     "$[0, \\infty)$ で狭義単調減少", "$[0, \\infty)$ で狭義単調増加", "claim", None),
    ("sqrt-dk-raises-entropy", CH, 147,
     "どの行のエントロピーも下げません", "どの行のエントロピーも上げません", "claim", None),
    ("table-H-decreases", CH, 163,
     "上から下へ単調に増え", "上から下へ単調に減り", "claim", None),
    ("fn-increasing", CH, 176,
     "$[1/n, 1)$ で狭義単調減少である", "$[1/n, 1)$ で狭義単調増加である", "claim", None),
    ("gaussian-above-log-n", CH, 213,
     "一定の量だけ低いところを", "一定の量だけ高いところを", "claim", None),
    ("kappa-one-limit-one", CH, 236,
     "$\\kappa = 1$ なら $1/2$ に", "$\\kappa = 1$ なら 1 に", "claim", None),
    ("weight-kept-entropy-decreases", CH, 251,
     "エントロピーは増えることを言っています", "エントロピーは減ることを言っています", "claim", None),
    ("kappa-below-one", CH, 265,
     "4 より $\\kappa > 1$ なので", "4 より $\\kappa < 1$ なので", "claim", None),
    ("collapse-width-smaller-than-log", CH, 293,
     "より大きな値です", "より小さな値です", "claim", None),
    ("two-keys-H-increases", CH, 410,
     "$H$ は減り", "$H$ は増え", "claim", None),
    ("budget-necessary-not-sufficient", CH, 434,
     "これは十分条件で、必要条件ではありません", "これは必要条件で、十分条件ではありません", "claim", None),

    # ---------------- structure ----------------
    ("summary-ref-missing-bounds", CH, 10,
     '<Ref to="prop-entropy-bounds" />', '<Ref to="prop-entropy-bound" />', "structure", None),
    ("entropy-def-close-deleted", CH, 47,
     "</Definition>", "", "structure", 37),
    ("bounds-proof-close-deleted", CH, 95,
     "</Proof>", "", "structure", 81),
    ("proof-of-missing-id", CH, 128,
     'of="thm-entropy-temperature"', 'of="thm-entropy-temp"', "structure", None),
    ("theorem-item-5-does-not-exist", CH, 163,
     "の 3 と 4）", "の 3 と 5）", "structure", None),
    ("needle-example-close-deleted", CH, 267,
     "</Example>", "", "structure", 253),
    ("section-number-duplicated", CH, 271,
     "## 7. 学習中", "## 6. 学習中", "structure", None),

    # ---------------- neutral ----------------
    ("reword-intro", CH, 8,
     "この分布が 1 点に集中しているのか、広く散らばっているのかを 1 つの数で測るのがエントロピーです。",
     "この分布が 1 点に集中しているか広く散らばっているかを、1 つの数で測るのがエントロピーです。",
     "neutral", None),
    ("partition-exp-notation", CH, 54,
     "Z(\\beta) := \\sum_{j=1}^{n} e^{\\beta z_j}", "Z(\\beta) := \\sum_{j=1}^{n} \\exp(\\beta z_j)", "neutral", None),
    ("percent-no-space", CH, 65,
     "68.4 %", "68.4%", "neutral", None),
    ("lemma-terms-reordered", CH, 107,
     "= -\\beta\\mu + \\log Z \\sum_i p_i =", "= \\log Z \\sum_i p_i - \\beta\\mu =", "neutral", None),
    ("dHdtau-negative-power", CH, 121,
     "\\dfrac{\\mathrm{Var}_p(z)}{\\tau^3}", "\\tau^{-3}\\,\\mathrm{Var}_p(z)", "neutral", None),
    ("uniform-variance-grouped", CH, 163,
     "$(1.5^2 + 0.5^2 + 0.5^2 + 1.5^2)/4 = 1.25$", "$2(1.5^2 + 0.5^2)/4 = 1.25$", "neutral", None),
    ("beta-wt-difference-of-logs", CH, 220,
     "\\frac{1}{\\Delta}\\log\\frac{n - 1}{n_{\\mathrm{train}} - 1}",
     "\\frac{\\log(n - 1) - \\log(n_{\\mathrm{train}} - 1)}{\\Delta}", "neutral", None),
    ("plain-comma-65536", CH, 269,
     "$n = 65{,}536$", "$n = 65,536$", "neutral", None),
    ("reword-collapse-goal", CH, 273,
     "ここでは、崩壊にはロジットの幅が広がる必要があることを示します。",
     "ここでは、崩壊が起きるにはロジットの幅が広がらなければならないことを示します。",
     "neutral", None),
    ("width-bound-factor-order", CH, 281,
     "$w = 2\\|W_QW_K^{\\mathsf{T}}\\|_2R^2/\\sqrt{d_k}$", "$w = 2R^2\\|W_QW_K^{\\mathsf{T}}\\|_2/\\sqrt{d_k}$", "neutral", None),
    ("n-as-power-of-two", CH, 293,
     "たとえば $n = 1024$ では", "たとえば $n = 2^{10}$ では", "neutral", None),
    ("reword-summary", CH, 400,
     "この章で確かめたことは 3 つです。", "この章で確かめたのは次の 3 つです。", "neutral", None),
    ("ln-for-natural-log", CH, 410,
     "$\\log 2 = 0.6931$", "$\\ln 2 = 0.6931$", "neutral", None),
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
