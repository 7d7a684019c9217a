"""Data: one-slip edits of the chapter adamw.mdx (Adam と AdamW).

Each entry of SLIPS is one edit of one line of adamw.mdx:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted closing tag it
is the line where the broken element opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_adamw.py passes on all of them (it normalises
`{,}` to `,` and only looks for the numbers it checks).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_adamw.py exit 1.  Numbers that the chapter prints more than once
(e.g. 3.1623, 7.2703, 2.243364, 1.234365, 0.4472, 104.3, 33.60003, 0.034735,
0.9009, 1.1650, 0.39, 0.009999 in two places each or more) were avoided as slip
sites because the recompute script only checks that the value occurs somewhere;
table cells are safe because the tables are checked row by row.
"""

CH = "adamw.mdx"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("ema-length-v-tenfold", CH, 76,
     "$v$ が 1,000 ステップ", "$v$ が 10,000 ステップ", "prose arithmetic", None),
    ("two-to-16-transposed", CH, 151,
     "10^{-8}/65{,}536", "10^{-8}/65{,}563", "prose arithmetic", None),
    ("binf-099-forgot-plus-one", CH, 189,
     "\\sqrt{5.5}", "\\sqrt{4.5}", "prose arithmetic", None),
    ("binf-099-beta1-squared-copied", CH, 189,
     "0.0081/(0.01 \\times 0.18)", "0.0081/(0.01 \\times 0.81)", "prose arithmetic", None),
    ("eps-effect-1e-4-digit", CH, 207,
     "$0.999900$", "$0.999000$", "prose arithmetic", None),
    ("eps-effect-1e-6-digit", CH, 207,
     "$0.990099$", "$0.990090$", "prose arithmetic", None),
    ("l2-shrink-d10-digit-dropped", CH, 229,
     "1 - 0.001/10 = 0.9999", "1 - 0.001/10 = 0.999", "prose arithmetic", None),
    ("adamw-base-lambda-0125", CH, 404,
     "$0.999875^{100}", "$0.998875^{100}", "prose arithmetic", None),
    ("adamw-base-lambda-05", CH, 404,
     "$0.9995^{100}", "$0.9950^{100}", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("table1-ratio-t10-truncated", CH, 128,
     "| 6.5279 |", "| 6.5278 |", "rounding", None),
    ("table1-relstd-t100-truncated", CH, 129,
     "| 0.1415 |", "| 0.1414 |", "rounding", None),
    ("table1-neff-t10000-truncated", CH, 131,
     "| 1998.82 |", "| 1998.81 |", "rounding", None),
    ("loss-scaling-eps-truncated", CH, 151,
     "\\approx 1.526 \\times 10^{-13}", "\\approx 1.525 \\times 10^{-13}", "rounding", None),
    ("eps-effect-1e-10-truncated", CH, 207,
     "$0.009901$", "$0.009900$", "rounding", None),
    ("schedule-quarter-truncated", CH, 289,
     "| 5.2092 |", "| 5.2091 |", "rounding", None),
    ("memory-bf16-gib-truncated", CH, 322,
     "| 1.391 |", "| 1.390 |", "rounding", None),
    ("exr-ratio-truncated", CH, 420,
     "約 0.9178 です", "約 0.9177 です", "rounding", None),
    ("exr-B2-truncated", CH, 420,
     "\\approx 1.0014$", "\\approx 1.0013$", "rounding", None),
    ("exr-gamma-truncated", CH, 431,
     "\\approx 0.852632$", "\\approx 0.852631$", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("first-step-gradient-ratio", CH, 96,
     "1,500 倍違う", "15,000 倍違う", "example number", None),
    ("first-step-eps-over-g-exponent", CH, 96,
     "1/(1 + 5 \\times 10^{-6})", "1/(1 + 5 \\times 10^{-5})", "example number", None),
    ("half-neff-floor-instead-of-ceil", CH, 133,
     "$t = 1{,}099$", "$t = 1{,}098$", "example number", None),
    ("schedule-warmup-sum-1998", CH, 293,
     "= 0.5997 +", "= 0.5994 +", "example number", None),
    ("schedule-cosine-sum-zero-dropped", CH, 293,
     "+ 33.00033 =", "+ 33.0033 =", "example number", None),
    ("schedule-exponent-zero-dropped", CH, 293,
     "e^{-3.360003}", "e^{-3.36003}", "example number", None),
    ("schedule-lambda2Q-shifted", CH, 293,
     "\\approx 0.00014775$", "\\approx 0.0014775$", "example number", None),
    ("half-life-step-floor", CH, 293,
     "11,553 ステップ目", "11,552 ステップ目", "example number", None),
    ("memory-bytes-transposed", CH, 324,
     "1{,}991{,}036{,}928", "1{,}991{,}063{,}928", "example number", None),
    ("bf16-threshold-transposed", CH, 324,
     "= 0.3072$", "= 0.3027$", "example number", None),
    ("exr-vhat2-shifted", CH, 420,
     "\\approx 5.0020$", "\\approx 5.0200$", "example number", None),
    ("exr-denominator-shifted", CH, 431,
     "= 0.0025/0.007 \\approx", "= 0.0025/0.07 \\approx", "example number", None),

    # ---------------- table cell ----------------
    ("table1-1mb1-t5-transposed", CH, 127,
     "| 0.409510 |", "| 0.409150 |", "table cell", None),
    ("table1-1mb2-t10-transposed", CH, 128,
     "| 0.009955 |", "| 0.009595 |", "table cell", None),
    ("table1-neff-t100-transposed", CH, 129,
     "| 99.92 |", "| 99.29 |", "table cell", None),
    ("table1-neff-t1000-transposed", CH, 130,
     "| 924.17 |", "| 942.17 |", "table cell", None),
    ("table1-relstd-t1-transposed", CH, 126,
     "| 1.4142 |", "| 1.4124 |", "table cell", None),
    ("schedule-first-step-shifted", CH, 287,
     "| 0.0030 |", "| 0.0300 |", "table cell", None),
    ("schedule-half-ratio", CH, 290,
     "| 0.5500 |", "| 0.5050 |", "table cell", None),
    ("memory-sgd-7b-transposed", CH, 319,
     "| 52.15 |", "| 52.51 |", "table cell", None),
    ("memory-bf16-7b-transposed", CH, 322,
     "| 78.23 |", "| 78.32 |", "table cell", None),

    # ---------------- listing output ----------------
    ("output-uncorrected-small-g", CH, 389,
     "3.161778", "3.161877", "listing output", None),
    ("output-spike", CH, 390,
     "spike 0.975771", "spike 0.975717", "listing output", None),
    ("output-scale-diff-nonzero", CH, 391,
     "max diff 0.0e+00", "max diff 2.2e-16", "listing output", None),
    ("output-adamw-0125", CH, 392,
     "AdamW 0.987577", "AdamW 0.987757", "listing output", None),
    ("output-l2-0500", CH, 393,
     "Adam+L2 0.901744", "Adam+L2 0.901474", "listing output", None),
    ("output-adamw-2000", CH, 394,
     "AdamW 0.818567", "AdamW 0.818657", "listing output", None),
    ("output-sum-of-squares", CH, 395,
     "sum of squares 0.014775", "sum of squares 0.014757", "listing output", None),

    # ---------------- formula ----------------
    ("summary-binf-square-dropped", CH, 11,
     "$B_\\infty^2 = 1 +", "$B_\\infty = 1 +", "formula", None),
    ("adamw-form-sign", CH, 53,
     "= (1 - \\alpha_t\\lambda)\\,\\boldsymbol\\theta_{t-1}", "= (1 + \\alpha_t\\lambda)\\,\\boldsymbol\\theta_{t-1}", "formula", None),
    ("ema-weight-sum-exponent", CH, 66,
     "\\sum_{i=1}^{t}(1-\\beta)\\beta^{t-i} = 1 - \\beta^t", "\\sum_{i=1}^{t}(1-\\beta)\\beta^{t-i} = 1 - \\beta^{t-1}", "formula", None),
    ("uncorrected-ratio-sqrt-dropped", CH, 84,
     "(1-\\beta_1^t)/\\sqrt{1-\\beta_2^t}", "(1-\\beta_1^t)/(1-\\beta_2^t)", "formula", None),
    ("neff-denominator-sign", CH, 107,
     "{(1-\\beta_2)(1+\\beta_2^t)}", "{(1-\\beta_2)(1-\\beta_2^t)}", "formula", None),
    ("kappa-fourth-moment", CH, 116,
     "$\\kappa = 2\\sigma^4$", "$\\kappa = 3\\sigma^4$", "formula", None),
    ("scale-invariance-vhat-c", CH, 147,
     "$\\hat v'_{t,i} = c_i^2\\hat v_{t,i}$", "$\\hat v'_{t,i} = c_i\\hat v_{t,i}$", "formula", None),
    ("worst-sequence-inverted", CH, 161,
     "$g_i = c\\,(\\beta_1/\\beta_2)^{t-i}$", "$g_i = c\\,(\\beta_2/\\beta_1)^{t-i}$", "formula", None),
    ("cs-a-k-exponent", CH, 175,
     "= \\gamma^{k/2}$", "= \\gamma^{k}$", "formula", None),
    ("binf-expansion-sign", CH, 184,
     "+ \\beta_1^2 + \\beta_2^2 -", "+ \\beta_1^2 - \\beta_2^2 -", "formula", None),
    ("eps-difference-sqrt-dropped", CH, 203,
     "= \\hat m_t\\sqrt{\\hat v_t}/\\big(", "= \\hat m_t/\\big(", "formula", None),
    ("fixed-D-l2-times-d", CH, 229,
     "(1 - \\alpha\\lambda/d_i)\\theta_i", "(1 - \\alpha\\lambda d_i)\\theta_i", "formula", None),
    ("schedule-total-Tw-plus-1", CH, 253,
     "\\alpha_{\\max}(T_w - 1)/2", "\\alpha_{\\max}(T_w + 1)/2", "formula", None),
    ("cosine-symmetry-sign", CH, 259,
     "= -\\cos(\\pi s/N)$", "= \\cos(\\pi s/N)$", "formula", None),
    ("log-lower-bound-half", CH, 277,
     "$-x - x^2 \\le \\ln(1-x) \\le -x$", "$-x - x^2/2 \\le \\ln(1-x) \\le -x$", "formula", None),
    ("memory-k-dropped", CH, 303,
     "+ b_{\\mathrm{master}} + k\\,b_s)", "+ b_{\\mathrm{master}} + b_s)", "formula", None),
    ("bf16-half-ulp-exponent", CH, 324,
     "= 2^{-9}|w|", "= 2^{-8}|w|", "formula", None),

    # ---------------- claim ----------------
    ("three-questions-four", CH, 26,
     "次の 3 つの問いに答えます", "次の 4 つの問いに答えます", "claim", None),
    ("first-step-four-times", CH, 96,
     "最初の 1 歩が 3 倍以上になります", "最初の 1 歩が 4 倍以上になります", "claim", None),
    ("neff-decreasing", CH, 110,
     "$t$ について狭義に増加し", "$t$ について狭義に減少し", "claim", None),
    ("scale-invariance-nonzero", CH, 141,
     "勾配の成分ごとの正の定数倍で変わらない", "勾配の成分ごとの 0 でない定数倍で変わらない", "claim", None),
    ("bound-improvable", CH, 161,
     "この上界はどの $t$ でも改善できない", "この上界は $t \\ge 2$ では改善できる", "claim", None),
    ("worst-sequence-shrinking", CH, 189,
     "倍ずつ大きくなっていく列です", "倍ずつ小さくなっていく列です", "claim", None),
    ("m-long-memory", CH, 189,
     "記憶の短い $\\hat m_t$", "記憶の長い $\\hat m_t$", "claim", None),
    ("eps-factor-decreasing", CH, 197,
     "これは $|g|$ について増加し", "これは $|g|$ について減少し", "claim", None),
    ("l2-shrink-small-d", CH, 229,
     "$d_i$ の大きい成分ほど 1 に近く", "$d_i$ の小さい成分ほど 1 に近く", "claim", None),
    ("warmup-decreasing", CH, 252,
     "$1 \\le t \\le T_w$ で狭義に増加し", "$1 \\le t \\le T_w$ で狭義に減少し", "claim", None),
    ("decay-log-gap-at-least", CH, 271,
     "$\\lambda^2Q$ 以下である", "$\\lambda^2Q$ 以上である", "claim", None),
    ("memory-quadratic", CH, 303,
     "これは $\\Psi$ に比例し", "これは $\\Psi$ の 2 乗に比例し", "claim", None),
    ("fits-one-gpu", CH, 324,
     "80 GB の GPU 1 台に収まりません", "80 GB の GPU 1 台に収まります", "claim", None),
    ("lambda-steps-twofold", CH, 404,
     "$\\lambda$ を 4 倍ずつ変えても", "$\\lambda$ を 2 倍ずつ変えても", "claim", None),

    # ---------------- structure ----------------
    ("aside-close-deleted", CH, 22,
     "</Aside>", "", "structure", 16),
    ("neff-proof-close-deleted", CH, 118,
     "</Proof>", "", "structure", 114),
    ("theorem-close-deleted", CH, 171,
     "</Theorem>", "", "structure", 153),
    ("section-number-duplicated", CH, 137,
     "## 4. 実効ステップ幅", "## 3. 実効ステップ幅", "structure", None),
    ("ref-missing-step-bound", CH, 195,
     '<Ref to="thm-step-bound" />', '<Ref to="thm-step-bounds" />', "structure", None),
    ("decay-id-duplicated", CH, 263,
     'id="prop-decay-product"', 'id="prop-schedule"', "structure", None),
    ("ref-item-4-missing", CH, 271,
     '<Ref to="prop-l2-loss-scale" /> の 3', '<Ref to="prop-l2-loss-scale" /> の 4', "structure", None),
    ("solution-close-deleted", CH, 422,
     "</Solution>", "", "structure", 418),

    # ---------------- neutral ----------------
    ("reword-intro", CH, 8,
     "残るのは、その勾配でパラメータをどれだけ動かすかです。",
     "残っているのは、その勾配でパラメータをどれだけ動かすかという問題です。",
     "neutral", None),
    ("reword-pytorch-form", CH, 60,
     "AdamW の上の形は PyTorch の `torch.optim.AdamW` のものです（[7]）。",
     "上の AdamW の形は、PyTorch の `torch.optim.AdamW` と同じです（[7]）。",
     "neutral", None),
    ("telescoping-factored", CH, 72,
     "\\sum_{k=0}^{t-1}(\\beta^k - \\beta^{k+1})", "\\sum_{k=0}^{t-1}\\beta^k(1 - \\beta)", "neutral", None),
    ("mobius-reordered", CH, 116,
     "= 2/(1+x) - 1$", "= -1 + 2/(1+x)$", "neutral", None),
    ("neff-limit-plain-comma", CH, 133,
     "= 1{,}999$", "= 1,999$", "neutral", None),
    ("two-to-16-plain-comma", CH, 151,
     "65{,}536", "65,536", "neutral", None),
    ("binf-denominator-commuted", CH, 166,
     "{\\sqrt{(1-\\beta_2)(1-\\gamma)}}", "{\\sqrt{(1-\\gamma)(1-\\beta_2)}}", "neutral", None),
    ("eps-half-as-fraction", CH, 207,
     "で $0.5$、", "で $1/2$、", "neutral", None),
    ("reword-l2-model", CH, 229,
     "実際の Adam では $D$ がステップごとに変わるので、これは模型です。",
     "これは模型で、実際の Adam では $D$ がステップごとに変わります。",
     "neutral", None),
    ("hprime-reordered", CH, 277,
     "h'(x) = -1/(1-x) + 1 + 2x", "h'(x) = 1 + 2x - 1/(1-x)", "neutral", None),
    ("fp32-cdot", CH, 303,
     "（$4 + 4 + 0 + 2 \\times 4$）", "（$4 + 4 + 0 + 2 \\cdot 4$）", "neutral", None),
    ("three-quarters", CH, 309,
     "$12/16 = 0.75$", "$12/16 = 3/4 = 0.75$", "neutral", None),
    ("memory-bytes-plain-comma", CH, 324,
     "1{,}991{,}036{,}928", "1,991,036,928", "neutral", None),
    ("reword-next-chapter", CH, 410,
     "次に考える問題になります。", "次に考えるべき問題です。", "neutral", None),
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
