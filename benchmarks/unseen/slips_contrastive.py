"""Data: one-slip edits of the chapter contrastive.mdx (対照学習と埋め込み：InfoNCE・温度・相互情報量の下界・バッチ内負例).

Each entry of SLIPS is one edit of one line of contrastive.mdx:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted closing tag it
is the line where the broken element opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_contrastive.py passes on all of them (it normalises
`{,}` to `,` and only looks for the numbers it checks).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_contrastive.py exit 1.  Numbers that the chapter prints twice (e.g.
0.5371, 0.5755, 0.3918, 0.5844, 2.0472, the e^x values 4.953032 ... 6.820958,
0.3251, 0.1054, 2.3026, 0.5091, 0.1840, 549,755,813,888 in both a table and the
prose) were avoided as slip sites because the recompute script only checks that
the value occurs somewhere.  Table cells are checked row by row and the listing
output is compared exactly, so slips there are detected wherever they sit.
"""

CH = "contrastive.mdx"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("col1-denominator-transposed", CH, 328,
     "= 9.273149$", "= 9.273194$", "prose arithmetic", None),
    ("col2-denominator-digit", CH, 328,
     "= 10.023822$", "= 10.032822$", "prose arithmetic", None),
    ("col-loss1-transposed", CH, 328,
     "$0.6271$", "$0.6217$", "prose arithmetic", None),
    ("col-loss2-digit", CH, 328,
     "$0.7050$", "$0.7005$", "prose arithmetic", None),
    ("col-loss3-transposed", CH, 328,
     "$0.4163$", "$0.4136$", "prose arithmetic", None),
    ("clip-inv-tau-transposed", CH, 332,
     "\\approx 14.2857$", "\\approx 14.2587$", "prose arithmetic", None),
    ("clip-t-init-transposed", CH, 332,
     "\\approx 2.6593$", "\\approx 2.6539$", "prose arithmetic", None),
    ("clip-tau-floor-extra-zero", CH, 332,
     "$\\tau \\ge 0.01$", "$\\tau \\ge 0.001$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("row3-denominator-truncated", CH, 96,
     "= 9.571631$", "= 9.571630$", "rounding", None),
    ("margin-truncated", CH, 198,
     "= 0.2190$", "= 0.2189$", "rounding", None),
    ("half-log2-truncated", CH, 258,
     "= 0.3466 + 0.0474", "= 0.3465 + 0.0474", "rounding", None),
    ("table1-loss-tau02-truncated", CH, 157,
     "| 0.2291 |", "| 0.2290 |", "rounding", None),
    ("table2-log4096-truncated", CH, 291,
     "| 8.3178 |", "| 8.3177 |", "rounding", None),
    ("table2-log16384-truncated", CH, 293,
     "| 9.7041 |", "| 9.7040 |", "rounding", None),
    ("col3-denominator-truncated", CH, 328,
     "= 10.342972$", "= 10.342971$", "rounding", None),
    ("Lsym-from-rounded-losses", CH, 328,
     "/2 \\approx 0.5791$", "/2 \\approx 0.5792$", "rounding", None),
    ("log100-truncated", CH, 332,
     "\\approx 4.6052$", "\\approx 4.6051$", "rounding", None),
    ("exercise-lower-bound-truncated", CH, 424,
     "\\approx 0.03598$", "\\approx 0.03597$", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("cosine-sq-distance-doubled", CH, 66,
     "0.04 + 0.04 = 0.08", "0.04 + 0.04 = 0.8", "example number", None),
    ("row1-log-transposed", CH, 94,
     "= 2.1371 - 1.6", "= 2.1317 - 1.6", "example number", None),
    ("row2-denominator-transposed", CH, 95,
     "= 11.593266$", "= 11.539266$", "example number", None),
    ("row2-loss-transposed", CH, 95,
     "= 0.8504$", "= 0.8540$", "example number", None),
    ("row3-p33-transposed", CH, 96,
     "$p_{33} = 0.7126$", "$p_{33} = 0.7162$", "example number", None),
    ("temperature-sum-transposed", CH, 164,
     "= \\log 1.9062 =", "= \\log 1.9026 =", "example number", None),
    ("grad-u1-first-transposed", CH, 196,
     "(-0.23293,\\ 0.15670)$", "(-0.23239,\\ 0.15670)$", "example number", None),
    ("grad-a-transposed", CH, 196,
     "(0,\\ 0.07835)$", "(0,\\ 0.07853)$", "example number", None),
    ("bsc-term3-shifted", CH, 258,
     "+ 0.1151 = 0.5091", "+ 0.1511 = 0.5091", "example number", None),
    ("clip-backward-digits", CH, 296,
     "1{,}649{,}267{,}441{,}664", "1{,}649{,}267{,}414{,}664", "example number", None),
    ("triangle-loss-transposed", CH, 424,
     "\\approx 0.09492$", "\\approx 0.09942$", "example number", None),
    ("mi-bound-nats-transposed", CH, 435,
     "= 4.4315$ nats", "= 4.4135$ nats", "example number", None),

    # ---------------- table cell ----------------
    ("table1-limit0-log4", CH, 154,
     "| 1.3863 |", "| 1.3836 |", "table cell", None),
    ("table1-H-tau005-transposed", CH, 155,
     "| 0.0173 |", "| 0.0137 |", "table cell", None),
    ("table1-p-tau01-transposed", CH, 156,
     "| 0.9517 |", "| 0.9571 |", "table cell", None),
    ("table1-gap-tau05-transposed", CH, 158,
     "| 0.7412 |", "| 0.7421 |", "table cell", None),
    ("table1-hardest-tau2-transposed", CH, 160,
     "| 0.4018 |", "| 0.4081 |", "table cell", None),
    ("table1-bound-tau10-transposed", CH, 161,
     "| 0.1474 |", "| 0.1447 |", "table cell", None),
    ("table2-logN-2048-transposed", CH, 290,
     "| 7.6246 |", "| 7.6426 |", "table cell", None),
    ("table2-bytes-4096-transposed", CH, 291,
     "| 67,108,864 |", "| 67,108,846 |", "table cell", None),
    ("table2-mib-8192-transposed", CH, 292,
     "| 256 |", "| 265 |", "table cell", None),
    ("table2-bytes-32768-transposed", CH, 294,
     "| 4,294,967,296 |", "| 4,294,967,269 |", "table cell", None),

    # ---------------- listing output ----------------
    ("output-columns-transposed", CH, 387,
     "columns 0.5828", "columns 0.5882", "listing output", None),
    ("output-grad-u1-transposed", CH, 388,
     "(-0.2329, 0.1567)", "(-0.2329, 0.1576)", "listing output", None),
    ("output-rotated-loss-transposed", CH, 389,
     "-> 0.5228", "-> 0.5282", "listing output", None),
    ("output-bound-tau005-transposed", CH, 391,
     "0.0989", "0.0998", "listing output", None),
    ("output-p-tau05-transposed", CH, 394,
     "0.5246", "0.5264", "listing output", None),
    ("output-hardest-tau10-transposed", CH, 397,
     "0.3468", "0.3486", "listing output", None),
    ("output-E-loss-N4-transposed", CH, 399,
     "E[loss] 1.1054", "E[loss] 1.1045", "listing output", None),
    ("output-E-loss-N256-transposed", CH, 401,
     "E[loss] 5.1784", "E[loss] 5.1748", "listing output", None),

    # ---------------- formula ----------------
    ("normalisation-squared-norm", CH, 40,
     "n(\\boldsymbol{a}) := \\boldsymbol{a}/\\|\\boldsymbol{a}\\|$", "n(\\boldsymbol{a}) := \\boldsymbol{a}/\\|\\boldsymbol{a}\\|^2$",
     "formula", None),
    ("unit-distance-cross-term-sign", CH, 60,
     "\\|\\boldsymbol{u}\\|^2 - 2\\langle", "\\|\\boldsymbol{u}\\|^2 + 2\\langle", "formula", None),
    ("loss-positive-logit-sign", CH, 75,
     "= -\\frac{s_{ii}}{\\tau} + \\log", "= \\frac{s_{ii}}{\\tau} + \\log", "formula", None),
    ("ratio-times-tau", CH, 108,
     "e^{(z_j - z_k)/\\tau}", "e^{(z_j - z_k)\\tau}", "formula", None),
    ("entropy-derivative-missing-beta", CH, 120,
     "= -\\beta\\,\\mathrm{Var}_\\beta(z) < 0$", "= -\\mathrm{Var}_\\beta(z) < 0$", "formula", None),
    ("lower-bound-exponent-1", CH, 130,
     "(N-1)e^{-2/\\tau}", "(N-1)e^{-1/\\tau}", "formula", None),
    ("loss-derivative-tau-not-squared", CH, 131,
     "\\dfrac{1}{\\tau^2}\\Big(s_+", "\\dfrac{1}{\\tau}\\Big(s_+", "formula", None),
    ("limit-D0-log-k", CH, 133,
     "$D = 0$ なら $\\ell(\\tau) \\to \\log(1 + k)$", "$D = 0$ なら $\\ell(\\tau) \\to \\log k$", "formula", None),
    ("gradient-second-form-sign", CH, 175,
     "p_j(\\boldsymbol{v}_j - \\boldsymbol{v}_+)", "p_j(\\boldsymbol{v}_+ - \\boldsymbol{v}_j)", "formula", None),
    ("jacobian-cube-to-square", CH, 188,
     "a_ia_j/\\|\\boldsymbol{a}\\|^3", "a_ia_j/\\|\\boldsymbol{a}\\|^2", "formula", None),
    ("mi-plus-conditional-entropy", CH, 208,
     "I(A; B) = H(A) - H(A \\mid B)", "I(A; B) = H(A) + H(A \\mid B)", "formula", None),
    ("chain-rule-ratio-denominator", CH, 225,
     "= \\frac{p(a, b, c)}{p(a)\\,p(b, c)}", "= \\frac{p(a, b, c)}{p(a)\\,p(b)\\,p(c)}", "formula", None),
    ("grad-V-missing-transpose", CH, 270,
     "$\\nabla_V = \\Gamma^{\\mathsf{T}}U$", "$\\nabla_V = \\Gamma U$", "formula", None),
    ("sym-gradient-missing-2", CH, 315,
     "\\dfrac{1}{2N\\tau}", "\\dfrac{1}{N\\tau}", "formula", None),
    ("triangle-exponent-not-divided", CH, 424,
     "$\\log(1 + 2e^{-3})", "$\\log(1 + 2e^{-1.5})", "formula", None),
    ("log1024-as-2log10", CH, 435,
     "$\\log 1024 = 10\\log 2", "$\\log 1024 = 2\\log 10", "formula", None),

    # ---------------- claim ----------------
    ("summary-entropy-decreasing", CH, 12,
     "エントロピーは $\\tau$ について狭義単調増加", "エントロピーは $\\tau$ について狭義単調減少", "claim", None),
    ("cosine-scale-any-sign", CH, 49,
     "任意の $\\alpha, \\beta > 0$", "任意の $\\alpha, \\beta \\ne 0$", "claim", None),
    ("largest-loss-row3", CH, 98,
     "損失が最も大きいのは第 2 行で", "損失が最も大きいのは第 3 行で", "claim", None),
    ("max-component-increasing", CH, 108,
     "狭義単調減少である", "狭義単調増加である", "claim", None),
    ("lower-tau-raises-loss", CH, 146,
     "$\\tau$ を下げるほど損失は下がり", "$\\tau$ を下げるほど損失は上がり", "claim", None),
    ("hardest-share-increases", CH, 164,
     "最後の列は減ります", "最後の列は増えます", "claim", None),
    ("weight-gap-larger-tau", CH, 177,
     "$\\tau$ が小さいほどその差が開く", "$\\tau$ が大きいほどその差が開く", "claim", None),
    ("gradient-proportional-to-length", CH, 192,
     "に反比例することを言っています", "に比例することを言っています", "claim", None),
    ("bound-log-N-for-constant-f", CH, 238,
     "$f$ が $y$ に依らなければ 0 である", "$f$ が $y$ に依らなければ $\\log N$ である", "claim", None),
    ("negative-bound-called-positive", CH, 254,
     "なら下界は負で", "なら下界は正で", "claim", None),
    ("cost-linear-in-N", CH, 296,
     "費用は $N^2$ で増え", "費用は $N$ に比例して増え", "claim", None),
    ("column-constants-invariant", CH, 316,
     "$L_{u\\to v}$ は行ごとに別々の定数", "$L_{u\\to v}$ は列ごとに別々の定数", "claim", None),
    ("descent-raises-tau", CH, 332,
     "勾配降下は $\\tau$ を下げ続けます", "勾配降下は $\\tau$ を上げ続けます", "claim", None),
    ("bound-decreases-with-N", CH, 408,
     "下界は $N$ とともに増えますが", "下界は $N$ とともに減りますが", "claim", None),

    # ---------------- structure ----------------
    ("aside-close-deleted", CH, 23,
     "</Aside>", "", "structure", 16),
    ("cosine-proof-close-deleted", CH, 62,
     "</Proof>", "", "structure", 54),
    ("by-hand-example-close-deleted", CH, 100,
     "</Example>", "", "structure", 84),
    ("ref-missing-gradient", CH, 150,
     '<Ref to="prop-infonce-gradient" />', '<Ref to="prop-infonce-grad" />', "structure", None),
    ("section-number-duplicated", CH, 202,
     "## 5. 相互情報量", "## 4. 相互情報量", "structure", None),
    ("batch-cost-id-duplicated", CH, 264,
     'id="prop-batch-cost"', 'id="prop-cosine"', "structure", None),
    ("exercise-close-deleted", CH, 427,
     "</Exercise>", "", "structure", 416),

    # ---------------- neutral ----------------
    ("reword-intro", CH, 8,
     "InfoNCE が何を計算し、温度というつまみ", "InfoNCE が何を計算するのか、温度というつまみ", "neutral", None),
    ("inner-product-as-products", CH, 66,
     "\\rangle = 12 + 12 = 24$", "\\rangle = 3 \\cdot 4 + 4 \\cdot 3 = 24$", "neutral", None),
    ("delta-bound-parenthesised", CH, 139,
     "$\\Delta_j \\ge -1 - 1 = -2$", "$\\Delta_j \\ge (-1) - 1 = -2$", "neutral", None),
    ("log-N-unparenthesised", CH, 141,
     "$\\log(1 + (N - 1)) = \\log N$", "$\\log(1 + N - 1) = \\log N$", "neutral", None),
    ("temperature-sum-reordered", CH, 164,
     "\\log(1 + e^{-0.6} + e^{-1.4} + e^{-2.2})", "\\log(e^{-2.2} + e^{-1.4} + e^{-0.6} + 1)", "neutral", None),
    ("jacobian-inverse-norm", CH, 188,
     "ヤコビ行列は $\\frac{1}{\\|\\boldsymbol{a}\\|}(I", "ヤコビ行列は $\\|\\boldsymbol{a}\\|^{-1}(I", "neutral", None),
    ("reword-exponential-N", CH, 254,
     "大きな相互情報量を InfoNCE で示すには", "InfoNCE で大きな相互情報量を示すには", "neutral", None),
    ("doubling-power-of-two", CH, 280,
     "$(2N)^2 = 4N^2$", "$(2N)^2 = 2^2N^2 = 4N^2$", "neutral", None),
    ("plain-comma-clip-batch", CH, 296,
     "$N = 32{,}768 = 2^{15}$", "$N = 32,768 = 2^{15}$", "neutral", None),
    ("sym-gradient-single-fraction", CH, 315,
     "\\dfrac{1}{2N\\tau}\\big(p_{ij} + q_{ij} - 2\\delta_{ij}\\big)", "\\dfrac{p_{ij} + q_{ij} - 2\\delta_{ij}}{2N\\tau}",
     "neutral", None),
    ("inv-tau-as-fraction", CH, 332,
     "$1/\\tau \\approx 14.2857$", "$1/\\tau = 100/7 \\approx 14.2857$", "neutral", None),
    ("reword-next-chapter", CH, 412,
     "この章で確かめたことは 3 つです。", "この章で確かめたのは次の 3 つです。", "neutral", None),
    ("exercise-exp-as-quotient", CH, 424,
     "$\\log(1 + 2e^{-4})", "$\\log(1 + 2/e^{4})", "neutral", None),
    ("plain-comma-batch-1024", CH, 431,
     "$N = 1{,}024$", "$N = 1,024$", "neutral", None),
    ("log1024-via-power", CH, 435,
     "$\\log 1024 = 10\\log 2", "$\\log 1024 = \\log 2^{10} = 10\\log 2", "neutral", None),
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
