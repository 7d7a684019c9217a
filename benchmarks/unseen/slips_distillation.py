"""Data: one-slip edits of the chapter distillation.mdx (知識蒸留).

Each entry of SLIPS is one edit of one line of distillation.mdx:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted closing tag it
is the line where the broken element opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_distillation.py passes on all of them (it
normalises `{,}` to `,` and only looks for the numbers it checks).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_distillation.py exit 1.  Numbers that the chapter prints twice in
the prose (e.g. 0.8977, 0.4223, 0.8620, 0.0662, 0.2112, 229,441,536, the
vectors p(1), p(2) and the gradient that are repeated in a table or the listing
output, 4.351 and 4.113 in both the table and the remark) were avoided as slip
sites because the recompute script only checks that such a value occurs
somewhere.  Table cells are read by row and column, so a cell whose value is
repeated in the listing output is still checked at its own place.
"""

CH = "distillation.mdx"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("mean-E1-transposed", CH, 171,
     "E_1[\\boldsymbol{v}] = 3.5901", "E_1[\\boldsymbol{v}] = 3.5910", "prose arithmetic", None),
    ("difference-quotient-transposed", CH, 171,
     "= 0.89584$", "= 0.89548$", "prose arithmetic", None),
    ("grad-norm-ratio-transposed", CH, 209,
     "約 105.8 分の 1", "約 108.5 分の 1", "prose arithmetic", None),
    ("t2-grad-T100-wrong-power", CH, 209,
     "$0.4351$ と $0.4113$", "$0.4351$ と $0.04113$", "prose arithmetic", None),
    ("distill-cost-B-transposed", CH, 317,
     "= 357{,}826{,}560$", "= 357{,}862{,}560$", "prose arithmetic", None),
    ("distill-cost-A-digit", CH, 317,
     "= 614{,}531{,}072$", "= 614{,}521{,}072$", "prose arithmetic", None),
    ("bytes-per-position-extra-zero", CH, 317,
     "= 64{,}000$ バイト", "= 640{,}000$ バイト", "prose arithmetic", None),
    ("bytes-total-exponent", CH, 317,
     "6.4 \\times 10^{13}", "6.4 \\times 10^{12}", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("exp4-truncated", CH, 127,
     "e^{4} = 54.5982", "e^{4} = 54.5981", "rounding", None),
    ("sum-T1-truncated", CH, 127,
     "和は $65.7055$", "和は $65.7054$", "rounding", None),
    ("table1-p1-T1-truncated", CH, 134,
     "| 0.8310 |", "| 0.8309 |", "rounding", None),
    ("log4-truncated", CH, 140,
     "\\approx 1.3863", "\\approx 1.3862", "rounding", None),
    ("log-ratio-first-truncated", CH, 203,
     "(0.3539,\\ ", "(0.3538,\\ ", "rounding", None),
    ("hard-loss-half-truncated", CH, 203,
     "+ 0.4310 = 0.5634", "+ 0.4309 = 0.5634", "rounding", None),
    ("sum-z10-from-rounded-terms", CH, 263,
     "和は $3.0171$", "和は $3.0172$", "rounding", None),
    ("q3-T10-truncated", CH, 263,
     "0.2853)", "0.2852)", "rounding", None),
    ("embedding-share-truncated", CH, 311,
     "約 56.6 %", "約 56.5 %", "rounding", None),
    ("T-for-075-truncated", CH, 428,
     "\\approx 1.8205", "\\approx 1.8204", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("sum-T2-transposed", CH, 127,
     "= 12.7561$", "= 12.7651$", "example number", None),
    ("sum-v-half-transposed", CH, 201,
     "和は $4.9735$", "和は $4.9375$", "example number", None),
    ("q3-T2-transposed", CH, 201,
     "0.2327)", "0.2372)", "example number", None),
    ("soft-part-third-transposed", CH, 203,
     "0.1107)", "0.1170)", "example number", None),
    ("grad2-unrounded-transposed", CH, 203,
     "= 0.26331$", "= 0.26313$", "example number", None),
    ("sum-v10-transposed", CH, 263,
     "和は $3.0401$", "和は $3.0410$", "example number", None),
    ("q-minus-p-first-digit", CH, 263,
     "(-0.0355,\\ ", "(-0.0335,\\ ", "example number", None),
    ("gap-T100-shifted", CH, 275,
     "約 $-0.0025$", "約 $-0.0250$", "example number", None),
    ("exercise-slope-transposed", CH, 428,
     "\\approx 0.1243$", "\\approx 0.1234$", "example number", None),
    ("exercise-block-transposed", CH, 439,
     "= 18{,}874{,}368$", "= 18{,}847{,}368$", "example number", None),
    ("exercise-total-transposed", CH, 439,
     "合計は $35{,}258{,}368$", "合計は $35{,}258{,}386$", "example number", None),

    # ---------------- table cell ----------------
    ("table1-H-T1-transposed", CH, 134,
     "| 0.5951 |", "| 0.5591 |", "table cell", None),
    ("table1-ratio-T4-transposed", CH, 136,
     "| 0.3679 |", "| 0.3697 |", "table cell", None),
    ("table1-p2-T10-transposed", CH, 137,
     "| 0.2535 |", "| 0.2553 |", "table cell", None),
    ("table1-ratio-T100-transposed", CH, 138,
     "| 0.9608 |", "| 0.9806 |", "table cell", None),
    ("table2-KL-T2-transposed", CH, 268,
     "| 0.2664 |", "| 0.2646 |", "table cell", None),
    ("table2-q3-T10-transposed", CH, 270,
     "| 0.1596 |", "| 0.1569 |", "table cell", None),
    ("table2-norm-T1000-exponent", CH, 272,
     "10^{-7}", "10^{-6}", "table cell", None),
    ("table3-mults-A-transposed", CH, 305,
     "| 385,089,536 |", "| 385,098,536 |", "table cell", None),
    ("table3-mult-ratio-s2-transposed", CH, 308,
     "| 0.3346 |", "| 0.3364 |", "table cell", None),
    ("table3-total-s3-transposed", CH, 309,
     "| 28,966,912 |", "| 28,969,612 |", "table cell", None),

    # ---------------- listing output ----------------
    ("output-p2-T05", CH, 384,
     "0.0179", "0.0197", "listing output", None),
    ("output-H-T4", CH, 387,
     "1.3139", "1.3193", "listing output", None),
    ("output-example-loss", CH, 390,
     "loss 0.5634", "loss 0.5643", "listing output", None),
    ("output-random-error", CH, 391,
     "= 5.4e-08", "= 4.5e-08", "listing output", None),
    ("output-q3-T2", CH, 394,
     "0.0974", "0.0947", "listing output", None),
    ("output-norm-T10", CH, 396,
     "4.351e-03", "4.315e-03", "listing output", None),
    ("output-KL-T1000", CH, 398,
     "0.2502", "0.2520", "listing output", None),

    # ---------------- formula ----------------
    ("summary-ratio-times-T", CH, 10,
     "$e^{(z_i - z_j)/T}$", "$e^{(z_i - z_j)T}$", "formula", None),
    ("kl-plus-entropy", CH, 63,
     "= \\mathrm{CE}(\\boldsymbol{p}, \\boldsymbol{q}) - H(\\boldsymbol{p})$",
     "= \\mathrm{CE}(\\boldsymbol{p}, \\boldsymbol{q}) + H(\\boldsymbol{p})$", "formula", None),
    ("gibbs-inequality-reversed", CH, 78,
     "\\log\\frac{q_i}{p_i} \\le \\sum", "\\log\\frac{q_i}{p_i} \\ge \\sum", "formula", None),
    ("max-shift-sign", CH, 118,
     "e^{(z_i - m)/T} \\big/", "e^{(m - z_i)/T} \\big/", "formula", None),
    ("variance-plus-mean-square", CH, 162,
     "\\pi_i z_i^2 - \\big(E_T", "\\pi_i z_i^2 + \\big(E_T", "formula", None),
    ("dbeta-dT-power", CH, 165,
     "$d\\beta/dT = -1/T^2$", "$d\\beta/dT = -1/T$", "formula", None),
    ("kl-grad-sign", CH, 179,
     "= \\dfrac{q_i - p_i}{T}$", "= \\dfrac{p_i - q_i}{T}$", "formula", None),
    ("dlogq-wrong-index", CH, 188,
     "= (\\delta_{ij} - q_i)/T$", "= (\\delta_{ij} - q_j)/T$", "formula", None),
    ("kl-grad-expansion-T", CH, 221,
     "{nT^2} + o", "{nT} + o", "formula", None),
    ("jacobian-at-zero-1-over-n", CH, 229,
     "- \\frac{1}{n^2}\\boldsymbol{1}\\boldsymbol{1}", "- \\frac{1}{n}\\boldsymbol{1}\\boldsymbol{1}", "formula", None),
    ("gprime-sign", CH, 242,
     "+ \\sum_i (q_i - p_i)z_i", "+ \\sum_i (p_i - q_i)z_i", "formula", None),
    ("lhopital-missing-2", CH, 251,
     "\\lim g'(s)/(2s)", "\\lim g'(s)/s", "formula", None),
    ("block-ratio-exponent-swapped", CH, 287,
     "$(L_S/L_T)(d_S/d_T)^2$", "$(L_S/L_T)^2(d_S/d_T)$", "formula", None),
    ("block-mults-n2-swapped", CH, 295,
     "$12nd^2 + 2n^2d$", "$12nd^2 + 2nd^2$", "formula", None),
    ("two-class-variance-Delta", CH, 428,
     "p_1p_2\\Delta^2", "p_1p_2\\Delta", "formula", None),

    # ---------------- claim ----------------
    ("entropy-decreasing-summary", CH, 11,
     "温度について増加し", "温度について減少し", "claim", None),
    ("kl-grad-1-over-T", CH, 13,
     "$1/T^2$ に比例して小さくなり", "$1/T$ に比例して小さくなり", "claim", None),
    ("temperature-lowers-small-probs", CH, 29,
     "小さな確率が持ち上がります", "小さな確率がさらに小さくなります", "claim", None),
    ("four-questions", CH, 31,
     "次の 3 つの問いに答え", "次の 4 つの問いに答え", "claim", None),
    ("ratio-decreasing-in-T", CH, 108,
     "$T$ について狭義単調増加で", "$T$ について狭義単調減少で", "claim", None),
    ("table-entropy-decreases", CH, 140,
     "上から下へ増え", "上から下へ減り", "claim", None),
    ("minimiser-depends-on-T", CH, 182,
     "この条件は $T$ に依らない。", "この条件は $T$ に依る。", "claim", None),
    ("hard-pushes-weaker", CH, 203,
     "第 3 成分より強く押し下げます", "第 3 成分より弱く押し下げます", "claim", None),
    ("hard-grad-proportional-T", CH, 209,
     "ハード損失の勾配は $T$ に依りません", "ハード損失の勾配は $T$ に比例します", "claim", None),
    ("t2kl-from-below", CH, 275,
     "上から $0.25$ に近づきます", "下から $0.25$ に近づきます", "claim", None),
    ("embedding-below-block", CH, 311,
     "を上回り", "を下回り", "claim", None),
    ("backward-three-times", CH, 317,
     "順伝播の約 2 倍", "順伝播の約 3 倍", "claim", None),
    ("exercise-ratio-smaller", CH, 439,
     "より大きくなります", "より小さくなります", "claim", None),

    # ---------------- structure ----------------
    ("aside-close-deleted", CH, 23,
     "</Aside>", "", "structure", 16),
    ("temperature-prop-close-deleted", CH, 112,
     "</Proposition>", "", "structure", 103),
    ("ref-missing-temperature-basic", CH, 129,
     '<Ref to="prop-temperature-basic" />', '<Ref to="prop-temperature-basics" />', "structure", None),
    ("kd-gradient-id-duplicated", CH, 175,
     'id="prop-kd-gradient"', 'id="prop-entropy-monotone"', "structure", None),
    ("high-temperature-proof-close-deleted", CH, 255,
     "</Proof>", "", "structure", 227),
    ("section-number-duplicated", CH, 279,
     "## 6. 教師と生徒の大きさ", "## 5. 教師と生徒の大きさ", "structure", None),
    ("ref-missing-hand-example", CH, 405,
     '<Ref to="ex-kd-gradient-by-hand" />', '<Ref to="ex-kd-gradient" />', "structure", None),
    ("exercise-close-deleted", CH, 420,
     "</Exercise>", "", "structure", 411),

    # ---------------- neutral ----------------
    ("reword-intro", CH, 8,
     "この記事では、分布を「やわらげる」温度が何をしているのか、損失の勾配がどんな形になるのか、温度を高くした極限で何が起きるのかを、式と数値で確かめます。",
     "分布を「やわらげる」温度が何をしているのか、損失の勾配がどんな形になるのか、温度を高くした極限で何が起きるのかを、この記事では式と数値で確かめます。",
     "neutral", None),
    ("width-quarter-as-fraction", CH, 14,
     "幅を半分にすると 4 分の 1 です", "幅を半分にすると $1/4$ です", "neutral", None),
    ("derivative-dfrac", CH, 75,
     "導関数 $1 - 1/x$", "導関数 $1 - \\frac{1}{x}$", "neutral", None),
    ("reword-kl-choice", CH, 99,
     "ここでは、最小値が 0 になる KL で書きました。", "ここでは、最小値が 0 になるように KL で書いています。", "neutral", None),
    ("mean-square-without-big", CH, 162,
     "\\big(E_T[\\boldsymbol{z}]\\big)^2", "E_T[\\boldsymbol{z}]^2", "neutral", None),
    ("grad-spacing", CH, 180,
     "\\alpha\\, T\\,(q_i - p_i)", "\\alpha T (q_i - p_i)", "neutral", None),
    ("norm-symmetric", CH, 222,
     "\\|\\tilde{\\boldsymbol{z}} - \\tilde{\\boldsymbol{v}}\\|^2", "\\|\\tilde{\\boldsymbol{v}} - \\tilde{\\boldsymbol{z}}\\|^2", "neutral", None),
    ("jacobian-factored", CH, 229,
     "J(\\boldsymbol{0}) = \\frac1n I - \\frac{1}{n^2}\\boldsymbol{1}\\boldsymbol{1}^{\\mathsf{T}}",
     "J(\\boldsymbol{0}) = \\frac1n\\Big(I - \\frac1n\\boldsymbol{1}\\boldsymbol{1}^{\\mathsf{T}}\\Big)", "neutral", None),
    ("limit-sum-collapsed", CH, 261,
     "(1 + 0.25 + 0.25)/6 = 0.25", "1.5/6 = 0.25", "neutral", None),
    ("mults-commuted", CH, 288,
     "$L(12d^2 + 2nd) + |V|d$", "$L(12d^2 + 2dn) + d|V|$", "neutral", None),
    ("plain-comma-1024", CH, 301,
     "$n = 2^{10} = 1{,}024$", "$n = 2^{10} = 1,024$", "neutral", None),
    ("exponent-braces", CH, 317,
     "$10^9$ 位置で", "$10^{9}$ 位置で", "neutral", None),
    ("exp-inverted", CH, 428,
     "$e^{-\\Delta/T} = 1/3$", "$e^{\\Delta/T} = 3$", "neutral", None),
    ("quarter-fractions", CH, 439,
     "\\frac14 \\times \\frac14", "\\frac{1}{4} \\times \\frac{1}{4}", "neutral", None),
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
