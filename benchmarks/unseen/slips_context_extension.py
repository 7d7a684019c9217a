"""Data: one-slip edits of the chapter context_extension.mdx (文脈長の拡張).

Each entry of SLIPS is one edit of one line of context_extension.mdx:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted closing tag it
is the line where the broken element opens.

The chapter has no printed element numbers (elements carry ids and are cited
with <Ref to="…"/>), so the structure slips are a <Ref> or <Proof of="…"> to an
id that does not exist, a deleted closing tag, and a broken heading number.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_context_extension.py passes on all of them (it
normalises `{,}` to `,` and only looks for the numbers and snippets it checks).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_context_extension.py exit 1.  Numbers that the chapter prints twice
(e.g. 4.095, 0.4729, 2.8755, 3.5615, 4.5646, 7,178.6, 1.4591, 1.4159, 7.3932,
0.1780, 28,672, 2.0794, 9.3530, 0.875, 2.0000 in both a table or the listing
output and the prose) were avoided as slip sites because the recompute script
only checks that a printed value occurs somewhere.  Every formula and claim
slip makes the text mathematically false (checked with sympy or numerically).
"""

CH = "context_extension.mdx"

SLIPS = [
    # ---------------- prose arithmetic ----------------
    ("unseen-arc-j48-digit", CH, 99,
     "= 2.188$ rad", "= 2.198$ rad", "prose arithmetic", None),
    ("extrapolation-overshoot-off-by-1000", CH, 127,
     "なら $28{,}672$ になり", "なら $29{,}672$ になり", "prose arithmetic", None),
    ("ntk-j62-distance-transposed", CH, 248,
     "\\approx 4{,}233.3$", "\\approx 4{,}323.3$", "prose arithmetic", None),
    ("cost-numerator-digit", CH, 343,
     "= 57{,}344/28{,}672", "= 57{,}334/28{,}672", "prose arithmetic", None),
    ("compute-ratio-forgot-halving", CH, 345,
     "\\approx 0.0020972$", "\\approx 0.0041944$", "prose arithmetic", None),
    ("listing-bullet-overshoot-copied", CH, 409,
     "NTK は 3,083.565）", "NTK は 3,083.656）", "prose arithmetic", None),
    ("entropy-increase-digit", CH, 411,
     "= 2.0688$ 増え", "= 2.0788$ 増え", "prose arithmetic", None),
    ("entropy-decrease-digit", CH, 411,
     "減る量は $0.5495$", "減る量は $0.5595$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("growth-percent-truncated", CH, 65,
     "約 15.48 % 長く", "約 15.47 % 長く", "rounding", None),
    ("extrapolated-angle-truncated", CH, 131,
     "= 2.3096$ rad", "= 2.3095$ rad", "rounding", None),
    ("pi-angle-step-truncated", CH, 131,
     "約 $1.4435 \\times", "約 $1.4434 \\times", "rounding", None),
    ("ntk-max-angle-j46-truncated", CH, 194,
     "約 $9.5728$ rad", "約 $9.5727$ rad", "rounding", None),
    ("ntk-overshoot-j46-truncated", CH, 194,
     "約 $3{,}083.6$ 位置", "約 $3{,}083.5$ 位置", "rounding", None),
    ("table2-by-parts-j24-truncated", CH, 241,
     "| 22,237.2 |", "| 22,237.1 |", "rounding", None),
    ("table3-weight-s8-truncated", CH, 302,
     "| 0.4509 |", "| 0.4508 |", "rounding", None),
    ("table4-ratio-8192-truncated", CH, 339,
     "| 1.1429 |", "| 1.1428 |", "rounding", None),
    ("recovered-fraction-truncated", CH, 411,
     "約 27 % しか", "約 26 % しか", "rounding", None),
    ("ex1-lambda0-truncated", CH, 425,
     "\\approx 6.2832$", "\\approx 6.2831$", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("lambda1-transposed", CH, 65,
     "$\\lambda_1 = 7.2557$", "$\\lambda_1 = 7.2575$", "example number", None),
    ("log10-4096-over-2pi-transposed", CH, 77,
     "16 \\times 2.8142", "16 \\times 2.8412", "example number", None),
    ("pi-angle-mod-2pi-transposed", CH, 131,
     "= 5.5754$ rad", "= 5.5745$ rad", "example number", None),
    ("ntk-base-transposed", CH, 194,
     "= 82{,}684.6$", "= 82{,}864.6$", "example number", None),
    ("ntk-unseen-arc-transposed", CH, 194,
     "\\approx 0.8224$ rad", "\\approx 0.8242$ rad", "example number", None),
    ("by-parts-log-transposed", CH, 236,
     "16 \\times 1.3090", "16 \\times 1.3900", "example number", None),
    ("softmax-denominator-transposed", CH, 296,
     "148.41/4{,}243.41", "148.41/4{,}234.41", "example number", None),
    ("ex1-lambda31-transposed", CH, 425,
     "\\approx 47{,}117.2$", "\\approx 47{,}171.2$", "example number", None),
    ("ex1-lambda21-transposed", CH, 425,
     "\\approx 2{,}649.6 >", "\\approx 2{,}469.6 >", "example number", None),
    ("ex2-r49-transposed", CH, 436,
     "$r_{49} = 0.5645$", "$r_{49} = 0.5465$", "example number", None),
    ("ex2-effective-distance-transposed", CH, 436,
     "\\approx 4{,}432.0$", "\\approx 4{,}423.0$", "example number", None),

    # ---------------- table cell ----------------
    ("table1-j16-angle-transposed", CH, 70,
     "| 409.5 |", "| 490.5 |", "table cell", None),
    ("table1-j45-lambda-digit", CH, 72,
     "| 4,080.19 |", "| 4,800.19 |", "table cell", None),
    ("table1-j46-theta-transposed", CH, 73,
     "| 0.001334 |", "| 0.001343 |", "table cell", None),
    ("table2-ntk-distance-j32-transposed", CH, 242,
     "| 11,395.3 |", "| 11,359.3 |", "table cell", None),
    ("table2-by-parts-kappa-j40-transposed", CH, 243,
     "| 6.4532 |", "| 6.4352 |", "table cell", None),
    ("table2-ntk-kappa-j45-transposed", CH, 244,
     "| 4.4164 |", "| 4.1464 |", "table cell", None),
    ("table3-corrected-weight-s4-transposed", CH, 301,
     "| 3.836 |", "| 3.863 |", "table cell", None),
    ("table3-beta-s16-transposed", CH, 303,
     "| 1.5546 |", "| 1.5564 |", "table cell", None),
    ("table4-2lD-8192-transposed", CH, 339,
     "| 67,108,864 |", "| 67,108,684 |", "table cell", None),
    ("table4-ratio-131072-transposed", CH, 341,
     "| 5.4286 |", "| 5.4826 |", "table cell", None),

    # ---------------- listing output ----------------
    ("output-pairs-below-L", CH, 398,
     "wavelength <= L: 46", "wavelength <= L: 45", "listing output", None),
    ("output-ntk-kappa32-transposed", CH, 400,
     "kappa_32 2.8755", "kappa_32 2.8575", "listing output", None),
    ("output-ntk-overshoot-transposed", CH, 400,
     "overshoot 3083.565", "overshoot 3083.556", "listing output", None),
    ("output-yarn-kappa32-transposed", CH, 401,
     "kappa_32 3.5615", "kappa_32 3.5651", "listing output", None),
    ("output-extrapolated-count", CH, 402,
     "extrapolated 21", "extrapolated 20", "listing output", None),
    ("output-pi-gap-transposed", CH, 403,
     "= 2.8463 <=", "= 2.8643 <=", "listing output", None),
    ("output-entropy-4096-transposed", CH, 404,
     "n = 4096 7.8337", "n = 4096 7.8373", "listing output", None),
    ("output-entropy-tau-transposed", CH, 404,
     "with tau 9.3530", "with tau 9.3350", "listing output", None),

    # ---------------- formula ----------------
    ("summary-wavelength-sign", CH, 10,
     "$\\lambda_j = 2\\pi b^{2j/d}$", "$\\lambda_j = 2\\pi b^{-2j/d}$", "formula", None),
    ("last-wavelength-exponent", CH, 52,
     "2\\pi b^{1 - 2/d}$", "2\\pi b^{1 - 1/d}$", "formula", None),
    ("coverage-half-to-quarter", CH, 85,
     "\\le \\theta_j/2$ である", "\\le \\theta_j/4$ である", "formula", None),
    ("chord-missing-2", CH, 95,
     "= 2|\\sin\\frac{", "= |\\sin\\frac{", "formula", None),
    ("pi-distance-bound-L-1", CH, 113,
     "\\le L - 1/s < L$", "\\le L - 1 < L$", "formula", None),
    ("pi-proof-second-case-1-over-s", CH, 123,
     "$|t - k| \\le 1 - 1/s$", "$|t - k| \\le 1/s$", "formula", None),
    ("ntk-theta-sign", CH, 162,
     "= \\theta_j\\, s^{-2j/(d-2)}", "= \\theta_j\\, s^{2j/(d-2)}", "formula", None),
    ("ntk-proof-c-inverted", CH, 167,
     "$\\kappa_{d/2-1} = s^{c(d-2)/d}$", "$\\kappa_{d/2-1} = s^{cd/(d-2)}$", "formula", None),
    ("pi-overshoot-1-over-s", CH, 190,
     "$(L'-1)/s - (L-1) = 1 - 1/s$", "$(L'-1)/s - (L-1) = 1/s$", "formula", None),
    ("by-parts-kappa-s-gamma", CH, 210,
     "\\dfrac{s}{1 + (s-1)\\gamma(r_j)}", "\\dfrac{s}{1 + s\\gamma(r_j)}", "formula", None),
    ("by-parts-threshold-beta-numerator", CH, 222,
     "\\log_b\\dfrac{L}{2\\pi\\beta}", "\\log_b\\dfrac{L\\beta}{2\\pi}", "formula", None),
    ("entropy-derivative-missing-beta", CH, 264,
     "H'(\\beta) = -\\beta\\,\\mathrm{Var}", "H'(\\beta) = -\\mathrm{Var}", "formula", None),
    ("toy-weight-exponent-sign", CH, 290,
     "1/\\big(1 + (n-1)e^{-a}\\big)", "1/\\big(1 + (n-1)e^{a}\\big)", "formula", None),
    ("cost-per-token-l-squared", CH, 318,
     "$c(\\ell) := 12D^2 + 2\\ell D$", "$c(\\ell) := 12D^2 + 2\\ell^2 D$", "formula", None),
    ("cost-ratio-12D", CH, 319,
     "\\dfrac{6D + \\ell'}{6D + \\ell}", "\\dfrac{12D + \\ell'}{12D + \\ell}", "formula", None),
    ("ex1-theta-exponent", CH, 425,
     "= 10^{-j/8}$", "= 10^{-j/16}$", "formula", None),

    # ---------------- claim ----------------
    ("summary-entropy-increases", CH, 14,
     "エントロピーは減り", "エントロピーは増え", "claim", None),
    ("at-least-two-turns", CH, 45,
     "少なくとも 1 周しています", "少なくとも 2 周しています", "claim", None),
    ("theta-increasing", CH, 52,
     "狭義単調減少で", "狭義単調増加で", "claim", None),
    ("unseen-arc-shorter", CH, 86,
     "長さが $\\theta_j$ より大きく", "長さが $\\theta_j$ より小さく", "claim", None),
    ("fast-pairs-are-the-problem", CH, 99,
     "困るのは遅い対です", "困るのは速い対です", "claim", None),
    ("ntk-factor-decreasing", CH, 151,
     "狭義単調増加で", "狭義単調減少で", "claim", None),
    ("ntk-overshoot-grows-with-j", CH, 190,
     "$j$ が小さいほど大きくなります", "$j$ が大きいほど大きくなります", "claim", None),
    ("by-parts-kappa-nonincreasing", CH, 220,
     "$\\kappa_j$ は $j$ について単調非減少", "$\\kappa_j$ は $j$ について単調非増加", "claim", None),
    ("by-parts-weaker-than-ntk", CH, 248,
     "NTK より強く縮める", "NTK より弱く縮める", "claim", None),
    ("entropy-grows-by-factor-s", CH, 278,
     "エントロピーはちょうど $\\ln s$ 増えます", "エントロピーはちょうど $s$ 倍になります", "claim", None),
    ("corrected-weight-below", CH, 306,
     "少し上回ります", "少し下回ります", "claim", None),
    ("cost-decreasing-in-length", CH, 318,
     "$\\ell$ について狭義増加である", "$\\ell$ について狭義減少である", "claim", None),
    ("kv-cache-quadratic", CH, 415,
     "KV キャッシュも $s$ 倍になります", "KV キャッシュも $s^2$ 倍になります", "claim", None),

    # ---------------- structure ----------------
    ("ref-missing-rope-relative", CH, 10,
     '<Ref to="prop-rope-relative" />', '<Ref to="prop-rope-relation" />', "structure", None),
    ("proof-of-missing-id", CH, 56,
     'of="prop-rope-relative"', 'of="prop-rope-relatve"', "structure", None),
    ("coverage-close-deleted", CH, 89,
     "</Proposition>", "", "structure", 83),
    ("ntk-proof-close-deleted", CH, 170,
     "</Proof>", "", "structure", 157),
    ("section-number-duplicated", CH, 198,
     "## 5. どの周波数", "## 4. どの周波数", "structure", None),
    ("temperature-example-close-deleted", CH, 308,
     "</Example>", "", "structure", 288),
    ("ref-missing-by-parts-table", CH, 409,
     '<Ref to="ex-by-parts-table" />', '<Ref to="ex-by-part-table" />', "structure", None),

    # ---------------- neutral ----------------
    ("reword-intro", CH, 8,
     "要点は次の 6 つです。", "要点を 6 つにまとめます。", "neutral", None),
    ("spacing-L-prime", CH, 27,
     "$L' = sL$", "$L' = s\\,L$", "neutral", None),
    ("wavelength-spacing", CH, 41,
     "= 2\\pi\\, b^{2j/d}$", "= 2\\pi b^{2j/d}$", "neutral", None),
    ("reword-ratio-proof", CH, 59,
     "$j = 0$ と $j = d/2 - 1$ を代入すれば残りの 2 つです。",
     "残りの 2 つは $j = 0$ と $j = d/2 - 1$ を代入すれば得られます。", "neutral", None),
    ("plain-comma-position", CH, 131,
     "位置 $m = 20{,}000$ は", "位置 $m = 20,000$ は", "neutral", None),
    ("ntk-exponent-simplified", CH, 162,
     "s^{-\\frac{d}{d-2}\\cdot\\frac{2j}{d}}", "s^{-\\frac{2j}{d-2}}", "neutral", None),
    ("overshoot-as-fraction", CH, 172,
     "$e_j := (L'-1)/\\kappa_j - (L-1)$", "$e_j := \\frac{L'-1}{\\kappa_j} - (L-1)$", "neutral", None),
    ("pi-overshoot-single-fraction", CH, 190,
     "$(L'-1)/s - (L-1) = 1 - 1/s$", "$(L'-1)/s - (L-1) = (s-1)/s$", "neutral", None),
    ("tau-terms-swapped", CH, 282,
     "$\\tau(s) := \\big(0.1\\ln s + 1\\big)^2$", "$\\tau(s) := \\big(1 + 0.1\\ln s\\big)^2$", "neutral", None),
    ("toy-weight-dfrac", CH, 290,
     "= 1/\\big(1 + (n-1)e^{-a}\\big)$", "= \\dfrac{1}{1 + (n-1)e^{-a}}$", "neutral", None),
    ("beta-log-difference", CH, 293,
     "\\beta = 1 + \\frac{1}{a}\\ln\\frac{sn - 1}{n - 1}",
     "\\beta = 1 + \\frac{\\ln(sn - 1) - \\ln(n - 1)}{a}", "neutral", None),
    ("cost-ratio-terms-swapped", CH, 319,
     "\\dfrac{6D + \\ell'}{6D + \\ell}", "\\dfrac{\\ell' + 6D}{\\ell + 6D}", "neutral", None),
    ("attention-bytes-powers-of-two", CH, 343,
     "$32 \\times 32{,}768^2 \\times 2 = 2^{36}$", "$2^5 \\times (2^{15})^2 \\times 2 = 2^{36}$", "neutral", None),
    ("reword-next-chapter", CH, 415,
     "長い文脈での推論の記憶と読み出しをどう抑えるかは、次章で扱います。",
     "次章では、長い文脈での推論の記憶と読み出しをどう抑えるかを扱います。", "neutral", None),
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
