"""Data: one-slip edits of the chapter muon.txt (直交化による最適化（Muon）).

Each entry of SLIPS is one edit of one line of muon.txt:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted end-of-proof
mark (∎, the plain-text counterpart of a closing tag) it is the line where the
broken proof opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same relation) and keep every
number and formula true.  recompute_muon.py passes on all of them (it looks for
the numbers it checks together with their context, and checks that every
decimal and grouped integer of the prose was matched).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_muon.py exit 1.  Numbers that the chapter prints twice (e.g. 1.2024,
0.3662, 11.09, 5.543, 0.3567, 7.0711 in both prose and a table or listing) were
avoided as slip sites; the tables of 例 4.6 and 例 4.7, whose values are also
printed in the listing output, were left alone, and listing slips change an
output line that the script compares as one string with the program's output.  Every formula and
claim slip was checked by hand or with sympy to make the text false.
"""

CH = "muon.txt"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("nearest-orthogonal-forgot-double", CH, 114,
     "= 52 - 8\\sqrt5 \\approx", "= 52 - 6\\sqrt5 \\approx", "prose arithmetic", None),
    ("cubic-steps-floor-not-ceil", CH, 209,
     "すなわち 16 回以上", "すなわち 15 回以上", "prose arithmetic", None),
    ("quintic-steps-log-ratio-transposed", CH, 209,
     "\\approx 9.886$", "\\approx 9.868$", "prose arithmetic", None),
    ("jordan-p1-sum", CH, 215,
     "a + b + c = 0.701$", "a + b + c = 0.711$", "prose arithmetic", None),
    ("fixed-point-discriminant-transposed", CH, 222,
     "= 2.936618 > 0", "= 2.963618 > 0", "prose arithmetic", None),
    ("critical-discriminant-borrow", CH, 223,
     "= 65.25559 > 0", "= 65.35559 > 0", "prose arithmetic", None),
    ("flops-768-total-transposed", CH, 339,
     "= 13{,}589{,}544{,}960$", "= 13{,}589{,}544{,}690$", "prose arithmetic", None),
    ("flops-big-gram-transposed", CH, 339,
     "= 86{,}973{,}087{,}744$", "= 86{,}973{,}078{,}744$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("sigma2-truncated", CH, 92,
     "\\sigma_2 = \\sqrt5 \\approx 2.2361$", "\\sigma_2 = \\sqrt5 \\approx 2.2360$", "rounding", None),
    ("rotation-angle-truncated", CH, 96,
     "\\approx 26.57°", "\\approx 26.56°", "rounding", None),
    ("dist2-truncated", CH, 114,
     "\\approx 34.1115$", "\\approx 34.1114$", "rounding", None),
    ("cubic-log-ratio-truncated", CH, 209,
     "\\approx 15.33$", "\\approx 15.32$", "rounding", None),
    ("jordan-slope-x1-truncated", CH, 215,
     "\\approx -1.5824$", "\\approx -1.5823$", "rounding", None),
    ("theta-minus-squared-truncated", CH, 225,
     "\\theta_-^2 \\approx 0.4649$", "\\theta_-^2 \\approx 0.4648$", "rounding", None),
    ("cubic-error-k5-truncated", CH, 252,
     "\\approx 0.002556$", "\\approx 0.002555$", "rounding", None),
    ("cubic-bound-1e-4-truncated", CH, 275,
     "\\approx 7.594 \\times 10^{-4}$", "\\approx 7.593 \\times 10^{-4}$", "rounding", None),
    ("ex91-p-large-truncated", CH, 428,
     "\\approx 0.9987$", "\\approx 0.9986$", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("ex25-eigenvalue-25-plus-25", CH, 92,
     "を 45 倍", "を 50 倍", "example number", None),
    ("ex25-inner-product-sum", CH, 96,
     "= 20/\\sqrt5 = 4\\sqrt5$", "= 18/\\sqrt5 = 4\\sqrt5$", "example number", None),
    ("ex34-abs-sum", CH, 148,
     "\\sum|A_{ij}| = 12$", "\\sum|A_{ij}| = 11$", "example number", None),
    ("ex46-cubic-factor", CH, 252,
     "\\frac{29}{20}x", "\\frac{27}{20}x", "example number", None),
    ("ex46-jordan-sum-transposed", CH, 252,
     "= 2.987315/\\sqrt{10}", "= 2.987135/\\sqrt{10}", "example number", None),
    ("ex47-jordan-share-transposed", CH, 275,
     "= 56.25\\,\\%", "= 56.52\\,\\%", "example number", None),
    ("ex53-forgot-sqrt", CH, 311,
     "\\sqrt{3072/768} = 2$", "\\sqrt{3072/768} = 4$", "example number", None),
    ("ex62-5-times-768-transposed", CH, 351,
     "= 3{,}840/", "= 3{,}480/", "example number", None),
    ("ex91-frobenius-squared", CH, 428,
     "\\|G\\|_F = \\sqrt{17}", "\\|G\\|_F = \\sqrt{15}", "example number", None),
    ("ex91-error-digit", CH, 428,
     "= 0.6433$", "= 0.6443$", "example number", None),

    # ---------------- table cell ----------------
    ("table34-sign-frobenius-ratio", CH, 151,
     "6.9282", "6.9228", "table cell", None),
    ("table34-ortho-frobenius-ratio", CH, 153,
     "6.3246", "6.3426", "table cell", None),
    ("table34-normalized-spectral-ratio", CH, 152,
     "7.4536", "7.4563", "table cell", None),
    ("table62-ns-4096-transposed", CH, 348,
     "$2.062 \\times 10^{12}$", "$2.026 \\times 10^{12}$", "table cell", None),
    ("table53-qkv-sJ-sqrt3", CH, 315,
     "1.732", "1.723", "table cell", None),
    ("table53-rms-1-over-64", CH, 318,
     "0.01563", "0.01536", "table cell", None),
    ("table62-rsvd-768", CH, 346,
     "$1.268 \\times 10^{10}$", "$1.286 \\times 10^{10}$", "table cell", None),
    ("table62-train-ratio-3072", CH, 347,
     "0.2747 %", "0.2774 %", "table cell", None),
    ("table62-rsvd-ratio-11008", CH, 349,
     "1.536", "1.563", "table cell", None),

    # ---------------- listing output ----------------
    ("out-cubic-kstar", CH, 400,
     "k*=16", "k*=15", "listing output", None),
    ("out-quintic-0.01", CH, 401,
     "0.2285", "0.2258", "listing output", None),
    ("out-jordan-0.001", CH, 402,
     "0.4705", "0.4750", "listing output", None),
    ("out-sigma-hat-max", CH, 404,
     "max 0.6030", "max 0.6003", "listing output", None),
    ("out-quintic-err-k10", CH, 406,
     "err 0.0356", "err 0.0365", "listing output", None),
    ("out-sign-spectral", CH, 408,
     "60.5300", "60.5030", "listing output", None),
    ("out-sign-inner", CH, 409,
     "404.9307", "404.9370", "listing output", None),

    # ---------------- formula ----------------
    ("frobenius-upper-dropped-sqrt-r", CH, 56,
     "\\le \\sqrt{r}\\,\\sigma_1", "\\le \\sigma_1", "formula", None),
    ("rms-operator-norm-inverted", CH, 57,
     "= \\sqrt{n/m}\\,\\|A\\|_2", "= \\sqrt{m/n}\\,\\|A\\|_2", "formula", None),
    ("rms-ortho-sqrt-misplaced", CH, 73,
     "\\mathrm{RMS}(O) = \\sqrt{r/(mn)}", "\\mathrm{RMS}(O) = \\sqrt{r}/(mn)", "formula", None),
    ("distance-expansion-sign", CH, 114,
     "- 2\\langle G, O\\rangle + n", "+ 2\\langle G, O\\rangle + n", "formula", None),
    ("spectral-lower-min-max-swapped", CH, 138,
     "= \\mathrm{RMS}(\\Delta)\\,\\sqrt{\\max(m, n)}$ であり", "= \\mathrm{RMS}(\\Delta)\\,\\sqrt{\\min(m, n)}$ であり", "formula", None),
    ("lemma42-odd-power", CH, 177,
     "= U_rD^{2j+1}V_r^{\\mathsf{T}}", "= U_rD^{2j}V_r^{\\mathsf{T}}", "formula", None),
    ("p3-factor-x-plus-1", CH, 195,
     "(1 - x)^2(x + 2)/2", "(1 - x)^2(x + 1)/2", "formula", None),
    ("p3-quadratic-constant", CH, 197,
     "\\frac32(1 - x_k)^2", "\\frac12(1 - x_k)^2", "formula", None),
    ("p5-taylor-coefficient", CH, 209,
     "p_5(x) = x(1 + \\frac{t}{2} + \\frac{3t^2}{8})", "p_5(x) = x(1 + \\frac{t}{2} + \\frac{3t^2}{4})", "formula", None),
    ("ns-error-max-to-min", CH, 235,
     "= \\max_{1 \\le i \\le r}", "= \\min_{1 \\le i \\le r}", "formula", None),
    ("nesterov-input-factor-dropped", CH, 287,
     "$N_t = (1 - \\beta)(G_t + \\beta M'_t)$", "$N_t = (1 - \\beta)G_t + \\beta M'_t$", "formula", None),
    ("sJ-rms-norm-max-to-min", CH, 294,
     "= \\max(1, \\sqrt{n/m})", "= \\min(1, \\sqrt{n/m})", "formula", None),
    ("big-gram-cube-wrong-side", CH, 327,
     "$4\\ell^2s + 2\\ell^3$", "$4\\ell^2s + 2s^3$", "formula", None),
    ("train-ratio-two-thirds", CH, 329,
     "\\frac{2s}{3}", "\\frac{s}{3}", "formula", None),

    # ---------------- claim ----------------
    ("ortho-depends-on-decomposition", CH, 7,
     "分解の取り方に依らず決まり", "分解の取り方に依って決まり", "claim", None),
    ("spectral-rms-minimum-to-maximum", CH, 8,
     "これがとりうる最小値です", "これがとりうる最大値です", "claim", None),
    ("four-questions-count", CH, 23,
     "次の 4 つの問いに", "次の 3 つの問いに", "claim", None),
    ("sign-update-commutes", CH, 88,
     "この性質がありません", "この性質があります", "claim", None),
    ("p-increasing-on-unit", CH, 196,
     "どちらも $[0, 1]$ で増加する", "どちらも $[0, 1]$ で減少する", "claim", None),
    ("higher-order-slower", CH, 209,
     "収束が速くなります", "収束が遅くなります", "claim", None),
    ("one-is-fixed-point", CH, 215,
     "1 は不動点ではない", "1 は不動点である", "claim", None),
    ("repelling-fixed-point-attracts", CH, 222,
     "不動点から遠ざかります", "不動点に近づきます", "claim", None),
    ("small-start-threshold-0.1", CH, 275,
     "0.01 以下から始まる特異値は", "0.1 以下から始まる特異値は", "claim", None),
    ("input-768-count", CH, 311,
     "768 の 3 つの行列", "768 の 4 つの行列", "claim", None),
    ("ns-fewer-flops-than-svd", CH, 351,
     "特異値分解より少し多いくらいです", "特異値分解より少し少ないくらいです", "claim", None),
    ("one-constant-conversion-possible", CH, 436,
     "換算することはできません", "換算することができます", "claim", None),
    ("cubic-error-largest-singular", CH, 413,
     "$1 - (\\text{最小の特異値})$", "$1 - (\\text{最大の特異値})$", "claim", None),

    # ---------------- structure ----------------
    ("proof-label-wrong-proposition", CH, 59,
     "証明（命題 2.3）", "証明（命題 2.4）", "structure", None),
    ("prop24-renumbered", CH, 68,
     "命題 2.4（直交化の性質）", "命題 2.5（直交化の性質）", "structure", None),
    ("section-4-heading-number", CH, 155,
     "4. Newton–Schulz 反復", "5. Newton–Schulz 反復", "structure", None),
    ("proof-end-mark-deleted", CH, 207,
     "∎", "", "structure", 200),
    ("ref-prop44-item-5", CH, 246,
     "命題 4.4 の 4 を", "命題 4.4 の 5 を", "structure", None),
    ("ref-example-49", CH, 411,
     "例 4.7 の $k^{*}$", "例 4.9 の $k^{*}$", "structure", None),
    ("ref-theorem-48", CH, 418,
     "（定理 4.5）", "（定理 4.8）", "structure", None),

    # ---------------- neutral ----------------
    ("wording-intro-chapters", CH, 5,
     "前章までに見た Adam は、", "前章までで見た Adam は、", "neutral", None),
    ("wording-four-questions", CH, 23,
     "次の 4 つの問いに順に答えます。", "次の 4 つの問いに、順番に答えます。", "neutral", None),
    ("frobenius-as-sqrt", CH, 36,
     "\\Big(\\sum_{i=1}^{m}\\sum_{j=1}^{n}A_{ij}^2\\Big)^{1/2}", "\\sqrt{\\sum_{i=1}^{m}\\sum_{j=1}^{n}A_{ij}^2}", "neutral", None),
    ("rms-norm-sqrt-split", CH, 57,
     "= \\sqrt{n/m}\\,\\|A\\|_2", "= \\sqrt{n}\\,\\|A\\|_2/\\sqrt{m}", "neutral", None),
    ("wording-unit-size", CH, 100,
     "大きさが 1 の $\\Delta$ の中で", "大きさ 1 の $\\Delta$ の中で", "neutral", None),
    ("definition-drop-parentheses", CH, 163,
     "b\\,(XX^{\\mathsf{T}})X", "b\\,XX^{\\mathsf{T}}X", "neutral", None),
    ("le-as-leq", CH, 189,
     "$0 < \\hat\\sigma_i \\le 1$", "$0 < \\hat\\sigma_i \\leq 1$", "neutral", None),
    ("p3-minus-x-as-frac", CH, 195,
     "$p_3(x) - x = x(1 - x^2)/2$", "$p_3(x) - x = \\frac{x(1 - x^2)}{2}$", "neutral", None),
    ("frac32-long-form", CH, 197,
     "\\frac32(1 - x_k)^2", "\\frac{3}{2}(1 - x_k)^2", "neutral", None),
    ("p3-derivative-factored", CH, 203,
     "$p_3'(x) = (3 - 3x^2)/2$", "$p_3'(x) = 3(1 - x^2)/2$", "neutral", None),
    ("wording-substitute", CH, 209,
     "$t := 1 - x^2$ と置くと", "$t := 1 - x^2$ とすると", "neutral", None),
    ("ks-over-B-commuted", CH, 329,
     "\\le \\frac{ks}{B}", "\\le \\frac{sk}{B}", "neutral", None),
    ("wording-next-chapter", CH, 418,
     "次章以降では、モデルの大きさを変えたときに学習の設定をどう移すかを扱います。",
     "モデルの大きさを変えたときに学習の設定をどう移すかは、次章以降で扱います。",
     "neutral", None),
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
