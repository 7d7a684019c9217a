"""Data: one-slip edits of the chapter grad_accumulation.txt (バッチサイズと勾配累積).

Each entry of SLIPS is one edit of one line of grad_accumulation.txt:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted end-of-proof
mark (∎, the plain-text counterpart of a closing tag) it is the line where the
broken proof opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_grad_accumulation.py passes on all of them.  That
script does not normalise `{,}` to `,`, so no neutral edit touches a thousands
separator inside a string it checks.

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_grad_accumulation.py exit 1.  Numbers that the chapter prints more
than once (11.44, 0.813, 7.1e-08, 19,074 and 9,537 appear both in the prose
and in a table or a listing output) were only used as slip sites where the
recompute script checks the whole sentence, table row or output block around
that particular occurrence.  Formula and claim slips were checked by hand or
with sympy to make the text mathematically false.
"""

CH = "grad_accumulation.txt"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("summary-bmax-rounded-up", CH, 12,
     "$b = 22$ まで", "$b = 23$ まで", "prose arithmetic", None),
    ("sequences-count-digits", CH, 131,
     "$N = 9{,}765{,}625$", "$N = 9{,}756{,}625$", "prose arithmetic", None),
    ("inv-sqrt2-transposed", CH, 131,
     "\\approx 0.7071$", "\\approx 0.7017$", "prose arithmetic", None),
    ("linear-rule-total-lr", CH, 195,
     "524{,}288 \\approx 11.44$", "524{,}288 \\approx 11.41$", "prose arithmetic", None),
    ("inv-sqrt8-transposed", CH, 195,
     "\\approx 0.3536$", "\\approx 0.3563$", "prose arithmetic", None),
    ("overweight-wrong-microbatch", CH, 366,
     "= 16/4 = 4$ 倍", "= 16/8 = 2$ 倍", "prose arithmetic", None),
    ("rel-error-copied-transposed", CH, 366,
     "相対誤差は約 0.813", "相対誤差は約 0.831", "prose arithmetic", None),
    ("eps-diff-exponent", CH, 367,
     "$7.1 \\times 10^{-8}$", "$7.1 \\times 10^{-9}$", "prose arithmetic", None),
    ("fpc-64-transposed", CH, 399,
     "\\approx 0.6834$", "\\approx 0.6843$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("steps-quotient-truncated", CH, 39,
     "\\approx 19{,}073.49$", "\\approx 19{,}073.48$", "rounding", None),
    ("fpc-truncated", CH, 131,
     "\\approx 0.99995$", "\\approx 0.99994$", "rounding", None),
    ("table-sqrt-256-truncated", CH, 189,
     "\t4.243\t", "\t4.242\t", "rounding", None),
    ("table-sqrt-4096-truncated", CH, 193,
     "\t16.971\t", "\t16.970\t", "rounding", None),
    ("dLmax-truncated", CH, 231,
     "\\approx 0.7353$", "\\approx 0.7352$", "rounding", None),
    ("bnoise-truncated", CH, 231,
     "\\approx 41.18$", "\\approx 41.17$", "rounding", None),
    ("examples-ratio-truncated", CH, 266,
     "約 1.778 倍", "約 1.777 倍", "rounding", None),
    ("attention-share-truncated", CH, 302,
     "\\approx 70.2\\,\\%$", "\\approx 70.1\\,\\%$", "rounding", None),
    ("bmax-fp32-truncated", CH, 304,
     "\\lfloor 21.9 \\rfloor", "\\lfloor 21.8 \\rfloor", "rounding", None),
    ("table-total-b16-truncated", CH, 311,
     "\t17.886\t", "\t17.885\t", "rounding", None),
    ("table-act-b32-half-even", CH, 312,
     "\t32.063\t", "\t32.062\t", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("B-product-transposed", CH, 39,
     "\\times 8 = 512$", "\\times 8 = 521$", "example number", None),
    ("steps-floor-not-ceil", CH, 39,
     "より $S = 19{,}074$", "より $S = 19{,}073$", "example number", None),
    ("steps-1024-floor", CH, 39,
     "\\rceil = 9{,}537$", "\\rceil = 9{,}536$", "example number", None),
    ("weight-ratio-inverted", CH, 76,
     "\\bar{m}/m_j = 2/3$", "\\bar{m}/m_j = 3/2$", "example number", None),
    ("ordered-pairs-sum-transposed", CH, 135,
     "足すと 112 で", "足すと 121 で", "example number", None),
    ("pair-mean-3-11", CH, 135,
     "$(3, 11) \\to 7$", "$(3, 11) \\to 6$", "example number", None),
    ("factor-32-denominator", CH, 231,
     "1 + 700/544", "1 + 700/554", "example number", None),
    ("improvement-ratio-transposed", CH, 231,
     "\\approx 2.198$", "\\approx 2.189$", "example number", None),
    ("Emin-dropped-zero", CH, 255,
     "= 10{,}240{,}000$", "= 1{,}024{,}000$", "example number", None),
    ("examples-ratio-8192", CH, 266,
     "処理する系列は 4.5 倍", "処理する系列は 9 倍", "example number", None),
    ("param-bytes-transposed", CH, 302,
     "= 1{,}991{,}036{,}928$", "= 1{,}991{,}063{,}928$", "example number", None),
    ("layer-bytes-transposed", CH, 302,
     "= 89{,}653{,}248$", "= 89{,}635{,}248$", "example number", None),
    ("ex23-floor-not-ceil", CH, 410,
     "$S = 4{,}748$", "$S = 4{,}747$", "example number", None),
    ("ex25-inverse-difference", CH, 426,
     "(1/32 - 1/512) = 1.875/(15/512)", "(1/32 - 1/512) = 1.875/(17/512)", "example number", None),
    ("ex25-E-forgot-one", CH, 426,
     "1 + 512/128 = 5$", "1 + 512/128 = 4$", "example number", None),

    # ---------------- table cell ----------------
    ("table1-S-128-transposed", CH, 188,
     "\t76,294\t", "\t76,924\t", "table cell", None),
    ("table1-sqrt-lr-256", CH, 189,
     "\t16.18", "\t16.81", "table cell", None),
    ("table1-S-1024-transposed", CH, 191,
     "\t9,537\t", "\t9,573\t", "table cell", None),
    ("table1-ratio-4096-transposed", CH, 193,
     "\t2.8284\t", "\t2.8248\t", "table cell", None),
    ("table2-ratio-128-shifted", CH, 258,
     "\t0.125\t", "\t0.0125\t", "table cell", None),
    ("table2-E-256-digits", CH, 259,
     "\t12,800,000\t", "\t12,080,000\t", "table cell", None),
    ("table2-E-2048-transposed", CH, 262,
     "\t30,720,000\t", "\t30,270,000\t", "table cell", None),
    ("table2-E-8192-transposed", CH, 264,
     "\t92,160,000\t", "\t92,610,000\t", "table cell", None),
    ("table3-total-noattn-b1", CH, 307,
     "\t2.153", "\t2.135", "table cell", None),
    ("table3-K-b32", CH, 312,
     "32\t2\t", "32\t4\t", "table cell", None),

    # ---------------- listing output ----------------
    ("output-equal-sizes-exponent", CH, 359,
     "= 4.2e-17", "= 4.2e-16", "listing output", None),
    ("output-rel-error", CH, 361,
     "rel. error 0.813", "rel. error 0.831", "listing output", None),
    ("output-token-weighted-exponent", CH, 361,
     "max error 2.8e-17", "max error 2.8e-16", "listing output", None),
    ("output-adam-eps-diff", CH, 363,
     "= 7.1e-08", "= 1.7e-08", "listing output", None),
    ("output-bsimple-true", CH, 391,
     "B_simple = 19.82", "B_simple = 19.28", "listing output", None),
    ("output-with-repl-B1", CH, 393,
     "17.7505", "17.7550", "listing output", None),
    ("output-without-B8", CH, 394,
     "2.1516", "2.1561", "listing output", None),
    ("output-norm-B128", CH, 397,
     "B=128 1.0304", "B=128 1.0340", "listing output", None),

    # ---------------- formula ----------------
    ("summary-error-sqrtB", CH, 9,
     "誤差の 2 乗の期待値は $\\sigma^2/B$", "誤差の 2 乗の期待値は $\\sigma^2/\\sqrt{B}$", "formula", None),
    ("Atok-m-over-M", CH, 45,
     "\\frac{m_j}{N}\\nabla L_j", "\\frac{m_j}{M}\\nabla L_j", "formula", None),
    ("allreduce-missing-1-over-R", CH, 47,
     "$\\frac{1}{R}\\sum_{r}\\sum_{k}", "$\\sum_{r}\\sum_{k}", "formula", None),
    ("weights-N-not-M", CH, 56,
     "w_i := \\dfrac{1}{M\\,m_{j(i)}}", "w_i := \\dfrac{1}{N\\,m_{j(i)}}", "formula", None),
    ("weight-ratio-inverted-proof", CH, 66,
     "= \\bar{m}/m_{j(i)}$", "= m_{j(i)}/\\bar{m}$", "formula", None),
    ("clip-threshold-c-tau", CH, 85,
     "c\\,\\mathrm{clip}_{\\tau/c}(\\boldsymbol{g})$", "c\\,\\mathrm{clip}_{c\\tau}(\\boldsymbol{g})$", "formula", None),
    ("adam-v-scales-c", CH, 89,
     "c^2\\boldsymbol{v}^{B}_t$」", "c\\,\\boldsymbol{v}^{B}_t$」", "formula", None),
    ("fpc-denominator-N", CH, 114,
     "\\dfrac{N - B}{N - 1}", "\\dfrac{N - B}{N}", "formula", None),
    ("offdiag-cov-N", CH, 123,
     "= -\\frac{\\Sigma}{N-1}$$", "= -\\frac{\\Sigma}{N}$$", "formula", None),
    ("norm-expectation-B2", CH, 141,
     "\\|\\boldsymbol{G}\\|^2 + \\sigma^2/B$", "\\|\\boldsymbol{G}\\|^2 + \\sigma^2/B^2$", "formula", None),
    ("S-estimator-denominator", CH, 144,
     "{1/B_s - 1/B_b}$$", "{B_b - B_s}$$", "formula", None),
    ("k-steps-cov-k2", CH, 167,
     "共分散は $k\\eta^2\\Sigma/B$", "共分散は $k^2\\eta^2\\Sigma/B$", "formula", None),
    ("eta-star-inverted-ratio", CH, 214,
     "\\eta^{*}(B) = \\dfrac{\\eta_{\\max}}{1 + B_{\\mathrm{noise}}/B}", "\\eta^{*}(B) = \\dfrac{\\eta_{\\max}}{1 + B/B_{\\mathrm{noise}}}", "formula", None),
    ("completing-square-missing-2", CH, 221,
     "\\|\\boldsymbol{G}\\|^4/(2a)$ なので", "\\|\\boldsymbol{G}\\|^4/a$ なので", "formula", None),
    ("E-of-B-inverted", CH, 237,
     "$E(B) = E_{\\min}(1 + B/B_{\\mathrm{noise}})$", "$E(B) = E_{\\min}(1 + B_{\\mathrm{noise}}/B)$", "formula", None),
    ("mlp-bytes-18", CH, 276,
     "\\underbrace{19nbd}_{\\text{MLP}}", "\\underbrace{18nbd}_{\\text{MLP}}", "formula", None),

    # ---------------- claim ----------------
    ("memory-quadratic-in-b", CH, 12,
     "$b$ に比例し、$K$ には依りません", "$b$ の 2 乗に比例し、$K$ には依りません", "claim", None),
    ("four-questions", CH, 23,
     "次の 3 つの問いに", "次の 4 つの問いに", "claim", None),
    ("fewer-tokens-lighter", CH, 72,
     "トークン数の少ないマイクロバッチのトークンほど", "トークン数の多いマイクロバッチのトークンほど", "claim", None),
    ("weight-decay-proportional-grad", CH, 94,
     "勾配に依らないので", "勾配に比例するので", "claim", None),
    ("two-causes", CH, 98,
     "原因は 3 つあります", "原因は 2 つあります", "claim", None),
    ("halve-sd-double-B", CH, 115,
     "$B$ を 4 倍にする必要がある", "$B$ を 2 倍にする必要がある", "claim", None),
    ("fpc-near-zero", CH, 131,
     "因子は 1 に近くなります", "因子は 0 に近くなります", "claim", None),
    ("sqrt-rule-keeps-mean", CH, 181,
     "1 ステップの雑音の共分散を保つ規則です", "1 ステップの変位の平均を保つ規則です", "claim", None),
    ("sqrt-rule-inverse-B", CH, 195,
     "$B$ の平方根に反比例し", "$B$ に反比例し", "claim", None),
    ("eta-star-nonincreasing", CH, 215,
     "$B$ について非減少", "$B$ について非増加", "claim", None),
    ("noise-high-curvature", CH, 231,
     "雑音は曲率の小さい第 1 成分に", "雑音は曲率の大きい第 1 成分に", "claim", None),
    ("both-at-least-twice", CH, 240,
     "の少なくとも一方が成り立つ", "の両方が成り立つ", "claim", None),
    ("examples-quadratic-in-B", CH, 251,
     "処理する例の数が $B$ に比例して増えます", "処理する例の数が $B$ の 2 乗に比例して増えます", "claim", None),
    ("largest-fit-b32", CH, 315,
     "$b = 16$、$K = 4$ で、例 18.2", "$b = 32$、$K = 2$ で、例 18.2", "claim", None),
    ("without-repl-half", CH, 399,
     "約 3 分の 2 です", "約 2 分の 1 です", "claim", None),

    # ---------------- structure ----------------
    ("summary-ref-theorem-missing", CH, 11,
     "（定理 18.18）", "（定理 18.17）", "structure", None),
    ("bib-ref-missing", CH, 23,
     "（[6] 表 2.1）", "（[14] 表 2.1）", "structure", None),
    ("proof-of-missing-prop", CH, 117,
     "証明（命題 18.9）", "証明（命題 18.10）", "structure", None),
    ("proof-end-deleted", CH, 153,
     "∎", "", "structure", 148),
    ("section-number-duplicated", CH, 157,
     "5. 学習率のスケーリング則", "4. 学習率のスケーリング則", "structure", None),
    ("ref-missing-item", CH, 365,
     "（命題 18.4 の 3）", "（命題 18.4 の 5）", "structure", None),
    ("exercise-number-duplicated", CH, 404,
     "演習 18.23易", "演習 18.22易", "structure", None),

    # ---------------- neutral ----------------
    ("reword-accumulation", CH, 5,
     "これが勾配累積です。", "これを勾配累積といいます。", "neutral", None),
    ("summary-B-order", CH, 7,
     "の積 $B = bKR$ です", "の積 $B = bRK$ です", "neutral", None),
    ("summary-cov-fraction", CH, 9,
     "共分散は $\\Sigma/B$ で", "共分散は $\\frac{1}{B}\\Sigma$ で", "neutral", None),
    ("summary-eta-star-form", CH, 11,
     "$\\eta_{\\max}/(1 + B_{\\mathrm{noise}}/B)$", "$\\eta_{\\max}B/(B + B_{\\mathrm{noise}})$", "neutral", None),
    ("def-B-spacing", CH, 33,
     "$B := b\\,K\\,R$", "$B := bKR$", "neutral", None),
    ("offdiag-cov-factor", CH, 123,
     "= -\\frac{\\Sigma}{N-1}$$", "= -\\frac{1}{N-1}\\Sigma$$", "neutral", None),
    ("linear-rule-order", CH, 161,
     "$\\eta(B) := \\eta_0\\,B/B_0$", "$\\eta(B) := (B/B_0)\\,\\eta_0$", "neutral", None),
    ("gpt3-lr-six", CH, 185,
     "学習率 $6.0 \\times 10^{-4}$ を", "学習率 $6 \\times 10^{-4}$ を", "neutral", None),
    ("dLmax-via-etamax", CH, 205,
     "\\Delta L_{\\max} := \\frac{\\|\\boldsymbol{G}\\|^4}{2\\,\\boldsymbol{G}^{\\mathsf{T}}H\\boldsymbol{G}}",
     "\\Delta L_{\\max} := \\frac{\\|\\boldsymbol{G}\\|^2}{2}\\cdot\\frac{\\|\\boldsymbol{G}\\|^2}{\\boldsymbol{G}^{\\mathsf{T}}H\\boldsymbol{G}}",
     "neutral", None),
    ("tradeoff-factors-swapped", CH, 237,
     "$\\big(S(B)/S_{\\min} - 1\\big)\\big(E(B)/E_{\\min} - 1\\big) = 1$",
     "$\\big(E(B)/E_{\\min} - 1\\big)\\big(S(B)/S_{\\min} - 1\\big) = 1$", "neutral", None),
    ("Smin-power-of-ten", CH, 255,
     "$S_{\\min} = 10{,}000$ とすると", "$S_{\\min} = 10^4$ とすると", "neutral", None),
    ("attention-terms-order", CH, 276,
     "\\underbrace{11nbd + 5an^2b}", "\\underbrace{5an^2b + 11nbd}", "neutral", None),
    ("reword-largest-b", CH, 298,
     "載る範囲で $b$ をできるだけ大きく取るのが普通です。", "ふつうは載る範囲で $b$ をできるだけ大きく取ります。", "neutral", None),
    ("gib-as-number", CH, 302,
     "GiB は $2^{30}$ バイトです", "GiB は $1{,}073{,}741{,}824$ バイトです", "neutral", None),
    ("reword-two-thirds", CH, 399,
     "約 3 分の 2 です", "およそ 3 分の 2 です", "neutral", None),
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
