"""Data: one-slip edits of the chapter dpo.mdx (選好からの学習：Bradley–Terry モデル・KL 正則化・DPO).

Each entry of SLIPS is one edit of one line of dpo.mdx:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted closing tag it
is the line where the broken element opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_dpo.py passes on all of them (it normalises
`{,}` to `,` and only looks for the numbers it checks).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_dpo.py exit 1.  Numbers that the chapter prints twice (e.g. 0.7311,
0.2689, 0.3133, 1.0043, 2.7301, 0.444690, 0.4980, 0.9724, 0.0280 in both an
example and the prose, a table or the listing) were avoided as slip sites in
the prose, because the recompute script only checks that the value occurs
somewhere; the two tables are parsed row by row and the listing output is
compared verbatim, so their cells are safe slip sites.
"""

CH = "dpo.mdx"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("pref-ab-multiplied-twice", CH, 32,
     "0.7 \\times 3/7 = 0.3", "0.7 \\times 3/7 = 0.21", "prose arithmetic", None),
    ("two-pow-15-transposed", CH, 156,
     "2^{15} = 32{,}768", "2^{15} = 32{,}786", "prose arithmetic", None),
    ("two-pow-960-exponent-off-by-one", CH, 156,
     "\\approx 9.7 \\times 10^{288}", "\\approx 9.7 \\times 10^{287}", "prose arithmetic", None),
    ("implicit-reward-ab-sign", CH, 217,
     "(-1.0043,\\ -0.0043,\\ 0.9957", "(-1.0043,\\ 0.0043,\\ 0.9957", "prose arithmetic", None),
    ("ratio-beta-half-3-times-2", CH, 323,
     "$\\beta = 0.5$ なら $4.5$", "$\\beta = 0.5$ なら $3$", "prose arithmetic", None),
    ("half-of-3-pow-10", CH, 323,
     "= 29{,}524.5$", "= 29{,}542.5$", "prose arithmetic", None),
    ("h-multiplied-not-divided", CH, 327,
     "$h \\ge 46.00$", "$h \\ge 0.46$", "prose arithmetic", None),
    ("sft-aa-numerator-carry", CH, 331,
     "= 1.1192/6 = 0.1865$", "= 1.1092/6 = 0.1865$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("sigma3-truncated", CH, 84,
     "\\sigma(3) = 0.9526$", "\\sigma(3) = 0.9525$", "rounding", None),
    ("kl-over-bound-truncated", CH, 197,
     "上界の約 26 %", "上界の約 25 %", "rounding", None),
    ("exp-minus1-truncated", CH, 160,
     "0.1e^{-1} = 0.0368$", "0.1e^{-1} = 0.0367$", "rounding", None),
    ("mean-loss-double-rounded", CH, 297,
     "/2 = 0.6797$", "/2 = 0.6796$", "rounding", None),
    ("weight-m4-truncated", CH, 301,
     "$0.5$、$0.0180$ です", "$0.5$、$0.0179$ です", "rounding", None),
    ("margin-threshold-truncated", CH, 327,
     "= 4.6002$", "= 4.6001$", "rounding", None),
    ("sft-ab-aa-ratio-truncated", CH, 344,
     "$1.6805$ です", "$1.6804$ です", "rounding", None),
    ("table1-kl-beta-half-truncated", CH, 191,
     "| 0.9424 |", "| 0.9423 |", "rounding", None),
    ("table2-sft-J1-truncated", CH, 338,
     "| 0.9229 |", "| 0.9228 |", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("weight-drop-complement", CH, 112,
     "約 53.8 % に下がります", "約 46.2 % に下がります", "example number", None),
    ("exp2-times-tenth", CH, 160,
     "0.2e^2 = 1.4778$", "0.2e^2 = 0.7389$", "example number", None),
    ("pistar-ba-percent-transposed", CH, 160,
     "54.1 % に増えますが", "51.4 % に増えますが", "example number", None),
    ("log-7-6-transposed", CH, 295,
     "0.1542,\\ 0.4055,\\ 0)", "0.1452,\\ 0.4055,\\ 0)", "example number", None),
    ("m1-sign-dropped", CH, 295,
     "= 0.4377$", "= -0.0323$", "example number", None),
    ("weight-share-pair1", CH, 297,
     "合計の 59.5 % を占めます", "合計の 40.5 % を占めます", "example number", None),
    ("grad-aa-sign-dropped", CH, 297,
     "= (-0.04628,\\ 0.14435", "= (0.04628,\\ 0.14435", "example number", None),
    ("exr-expected-reward-transposed", CH, 423,
     "= 1.1361$ です", "= 1.1631$ です", "example number", None),
    ("exr-gain-absolute-difference", CH, 423,
     "約 3.7 % 大きく", "約 4.0 % 大きく", "example number", None),
    ("exr-ez-ba-transposed", CH, 434,
     "0.3297,\\ 0.1)", "0.3927,\\ 0.1)", "example number", None),

    # ---------------- table cell ----------------
    ("table1-Z-quarter-transposed", CH, 190,
     "| 612.9729 |", "| 612.9279 |", "table cell", None),
    ("table1-pi-ba-beta1-transposed", CH, 192,
     "| 0.5413 |", "| 0.5314 |", "table cell", None),
    ("table1-bound-beta2-decimal", CH, 193,
     "| 0.7 |", "| 0.07 |", "table cell", None),
    ("table1-kl-beta4-transposed", CH, 194,
     "| 0.0263 |", "| 0.0236 |", "table cell", None),
    ("table1-limit-pi-ba-copied-bb", CH, 195,
     "| 0.2 |", "| 0.1 |", "table cell", None),
    ("table2-ref-ratio-inverted", CH, 337,
     "| 0.5 |", "| 2 |", "table cell", None),
    ("table2-sft-ba-transposed", CH, 338,
     "| 0.4274 |", "| 0.4247 |", "table cell", None),
    ("table2-dpo2-ratio-transposed", CH, 339,
     "| 1.3591 |", "| 1.3951 |", "table cell", None),
    ("table2-dpo-half-ratio-digits", CH, 341,
     "| 27.2991 |", "| 27.2919 |", "table cell", None),

    # ---------------- listing output ----------------
    ("output-Z-quarter", CH, 397,
     "Z 612.9729", "Z 612.9792", "listing output", None),
    ("output-pistar-ab-quarter", CH, 397,
     "[0.0007 0.0267 0.9726", "[0.0007 0.0276 0.9726", "listing output", None),
    ("output-kl-half", CH, 398,
     "KL 0.9424", "KL 0.9442", "listing output", None),
    ("output-Er-four", CH, 401,
     "E[r] 0.8105", "E[r] 0.8150", "listing output", None),
    ("output-log-ratio-without-r", CH, 402,
     "[-1.0043 -1.0043 -1.0043 -1.0043]", "[-1.0043 -0.0043 0.9957 -2.0043]", "listing output", None),
    ("output-fd-error-exponent", CH, 403,
     "finite difference 1.6e-11", "finite difference 1.6e-10", "listing output", None),
    ("output-maxdiff-copied-above", CH, 406,
     "max|pi - pi*| 2.2e-16", "max|pi - pi*| 1.1e-16", "listing output", None),

    # ---------------- formula ----------------
    ("bt-difference-reversed", CH, 43,
     "= \\sigma\\big(r(x, y) - r(x, y')\\big)", "= \\sigma\\big(r(x, y') - r(x, y)\\big)", "formula", None),
    ("dlogsigma-sign", CH, 56,
     "\\log\\sigma(t) = \\sigma(-t)$", "\\log\\sigma(t) = \\sigma(t)$", "formula", None),
    ("sigma-prime-square-dropped", CH, 64,
     "\\sigma'(t) = \\frac{e^{-t}}{(1 + e^{-t})^2}", "\\sigma'(t) = \\frac{e^{-t}}{1 + e^{-t}}", "formula", None),
    ("reward-gradient-weight-sign", CH, 98,
     "\\sigma(-\\Delta_k)\\Big(", "\\sigma(\\Delta_k)\\Big(", "formula", None),
    ("kl-decomposition-sign", CH, 146,
     "- \\beta\\,\\mathrm{KL}(\\pi\\|\\pi^*_\\beta)", "+ \\beta\\,\\mathrm{KL}(\\pi\\|\\pi^*_\\beta)", "formula", None),
    ("ratio-times-beta", CH, 156,
     "e^{(r(y) - r(y'))/\\beta}", "e^{(r(y) - r(y'))\\beta}", "formula", None),
    ("kl-bound-times-beta", CH, 171,
     "[r]\\big)/\\beta$", "[r]\\big)\\cdot\\beta$", "formula", None),
    ("reparam-logZ-sign", CH, 205,
     "+ \\beta\\log Z_\\beta(x)", "- \\beta\\log Z_\\beta(x)", "formula", None),
    ("dpo-weight-w-l-swapped", CH, 262,
     "\\sigma\\big(\\hat r_\\theta(x^{(k)}, y_l^{(k)}) - \\hat r_\\theta(x^{(k)}, y_w^{(k)})\\big)",
     "\\sigma\\big(\\hat r_\\theta(x^{(k)}, y_w^{(k)}) - \\hat r_\\theta(x^{(k)}, y_l^{(k)})\\big)", "formula", None),
    ("tabular-margin-ref-sign", CH, 278,
     "- (\\log\\pi_{\\mathrm{ref}}(w)", "+ (\\log\\pi_{\\mathrm{ref}}(w)", "formula", None),
    ("loglik-gradient-sign", CH, 291,
     "= \\boldsymbol{e}_y - \\pi_{\\boldsymbol{z}}$", "= \\pi_{\\boldsymbol{z}} - \\boldsymbol{e}_y$", "formula", None),
    ("cross-entropy-kl-term-inverted", CH, 319,
     "+ q\\log\\frac{q}{s}", "+ q\\log\\frac{s}{q}", "formula", None),
    ("two-response-ratio-power-beta", CH, 323,
     "= 0.5 \\times 3^{1/\\beta}$", "= 0.5 \\times 3^{\\beta}$", "formula", None),
    ("ab-aa-ratio-two-over-beta", CH, 344,
     "= 0.75\\,e^{1/\\beta}$", "= 0.75\\,e^{2/\\beta}$", "formula", None),
    ("pop-loss-derivative-sign", CH, 348,
     "= \\sigma(m) - q$", "= q - \\sigma(m)$", "formula", None),

    # ---------------- claim ----------------
    ("summary-beta-increases", CH, 11,
     "KL も狭義単調に減り", "KL も狭義単調に増え", "claim", None),
    ("summary-min-value-depends", CH, 14,
     "最小値は $\\beta$ に依りません", "最小値は $\\beta$ に比例します", "claim", None),
    ("reward-weight-increasing", CH, 99,
     "について狭義単調減少で", "について狭義単調増加で", "claim", None),
    ("optimum-is-minimum", CH, 146,
     "ただ 1 つの最大点で", "ただ 1 つの最小点で", "claim", None),
    ("reward-class-two-policies", CH, 239,
     "ちょうど 1 つあり", "ちょうど 2 つあり", "claim", None),
    ("weight-below-half-when-wrong", CH, 262,
     "$1/2$ より大きく", "$1/2$ より小さく", "claim", None),
    ("dpo-weight-smaller-when-wrong", CH, 272,
     "順位を間違えている対ほど大きくします", "順位を間違えている対ほど小さくします", "claim", None),
    ("step-w-decreases", CH, 281,
     "$\\pi(w)$ は狭義に増え、$\\pi(l)$ は狭義に減り", "$\\pi(w)$ は狭義に減り、$\\pi(l)$ は狭義に増え",
     "claim", None),
    ("aa-logit-goes-down", CH, 297,
     "勾配法ではロジットが上がります", "勾配法ではロジットが下がります", "claim", None),
    ("log-ratio-proportional-beta", CH, 323,
     "$1/\\beta$ に比例します", "$\\beta$ に比例します", "claim", None),
    ("deterministic-has-minimiser", CH, 327,
     "届かないので最小点がありません", "届かないので最小点がただ 1 つあります", "claim", None),
    ("ratio-grows-with-beta", CH, 344,
     "$\\beta$ が小さいほど指数的に大きく", "$\\beta$ が大きいほど指数的に大きく", "claim", None),
    ("others-shrink", CH, 434,
     "正規化を通して少し増えますが", "正規化を通して少し減りますが", "claim", None),

    # ---------------- structure ----------------
    ("ref-missing-bt-basic", CH, 10,
     '<Ref to="prop-bt-basic" />', '<Ref to="prop-bt-basics" />', "structure", None),
    ("lemma-proof-close-deleted", CH, 66,
     "</Proof>", "", "structure", 62),
    ("kl-definition-close-deleted", CH, 130,
     "</Definition>", "", "structure", 120),
    ("section-number-duplicated", CH, 252,
     "## 33.5. DPO の勾配", "## 33.4. DPO の勾配", "structure", None),
    ("two-pairs-example-close-deleted", CH, 299,
     "</Example>", "", "structure", 293),
    ("exercise-table-number", CH, 419,
     "表 33.2 の「勝者だけで教師あり」", "表 33.3 の「勝者だけで教師あり」", "structure", None),
    ("solution-close-deleted", CH, 425,
     "</Solution>", "", "structure", 421),

    # ---------------- neutral ----------------
    ("reword-intro", CH, 8,
     "この記事では、そうした「どちらが好まれたか」のデータだけから言語モデルを調整する方法を扱います。",
     "この記事で扱うのは、そうした「どちらが好まれたか」のデータだけから言語モデルを調整する方法です。",
     "neutral", None),
    ("bt-as-single-fraction", CH, 43,
     "\\frac{e^{r(x, y)}}{e^{r(x, y)} + e^{r(x, y')}}", "\\frac{1}{1 + e^{r(x, y') - r(x, y)}}", "neutral", None),
    ("loglik-exponent-rewritten", CH, 46,
     "e^{-(r(x, y_w) - r(x, y_l))}", "e^{r(x, y_l) - r(x, y_w)}", "neutral", None),
    ("g-terms-reordered", CH, 64,
     "$g(s) := s - 1 - \\log s$", "$g(s) := s - \\log s - 1$", "neutral", None),
    ("sigma0-as-fraction", CH, 112,
     "重みは $\\sigma(0) = 0.5$ で", "重みは $\\sigma(0) = 1/2$ で", "neutral", None),
    ("plain-comma-32768", CH, 156,
     "32{,}768", "32,768", "neutral", None),
    ("bound-dfrac", CH, 183,
     "4 の上界は $1.4/\\beta$ です", "4 の上界は $\\dfrac{1.4}{\\beta}$ です", "neutral", None),
    ("reparam-log-difference", CH, 205,
     "\\beta\\log\\dfrac{\\pi^*(y \\mid x)}{\\pi_{\\mathrm{ref}}(y \\mid x)}",
     "\\beta\\big(\\log\\pi^*(y \\mid x) - \\log\\pi_{\\mathrm{ref}}(y \\mid x)\\big)", "neutral", None),
    ("half-as-decimal", CH, 262,
     "$m_k = 0$ のとき $1/2$", "$m_k = 0$ のとき $0.5$", "neutral", None),
    ("reword-weight-near-one", CH, 301,
     "順位を大きく間違えた組はほぼ 1 の重みで", "順位を大きく間違えた組の重みはほぼ 1 で", "neutral", None),
    ("plain-comma-59049", CH, 323,
     "0.5 \\times 59{,}049", "0.5 \\times 59,049", "neutral", None),
    ("sixth-braced", CH, 331,
     "\\frac16\\sum", "\\frac{1}{6}\\sum", "neutral", None),
    ("derivative-terms-reordered", CH, 348,
     "$-q\\sigma(-m) + (1 - q)\\sigma(m) = \\sigma(m) - q$", "$(1 - q)\\sigma(m) - q\\sigma(-m) = \\sigma(m) - q$",
     "neutral", None),
    ("braced-comma-3000", CH, 413,
     "3,000 ステップ", "3{,}000 ステップ", "neutral", None),
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
