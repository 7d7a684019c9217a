"""Data: one-slip edits of the chapter dropout.mdx (ドロップアウトと正則化).

Each entry of SLIPS changes ONE line of dropout.mdx.  A slip puts exactly one
mistake of the kind an author really makes into that line; a "neutral" edit
changes only how something is written and keeps every number and formula true.

Tuple layout: (name, chapter file name, line, old, new, category, expected line)
  - line      : 1-based line number in dropout.mdx
  - old       : occurs exactly once on that line; the edit replaces it by new
  - category  : "prose arithmetic", "rounding", "example number", "table cell",
                "listing output", "formula", "claim", "structure" or "neutral"
  - expected  : None when the mistake is visible at the edited line; for a
                structural slip, the line where the broken element opens.

Checked with recompute_dropout.py on a copy of the chapter (in a temporary
folder): every numeric slip makes it exit 1, except the three marked
"NOT CAUGHT" below (numbers the script never compares with anything).
Neutral edits: the script exits 0 on all of them except "neutral-ln-4", which
changes the literal context string "\\log 4 \\approx 1.3863" the script looks up.
"""

CH = "dropout.mdx"

SLIPS = [
    # ------------------------------------------------------------ prose arithmetic
    ("arith-norm-sum", CH, 81, r"9 = 14.25", r"9 = 14.75", "prose arithmetic", None),
    # NOT CAUGHT: the script checks 17.8125 only in the context "14.25/0.8 = 17.8125"
    # (line 81); the copy in the reading of the listing (line 383) is never compared.
    # The sample value 17.8151 is pasted where the exact value 14.25/0.8 = 17.8125 belongs.
    ("arith-norm-expectation-copied-from-sample", CH, 383, r"= 17.8125$", r"= 17.8151$", "prose arithmetic", None),
    ("arith-count-coef", CH, 165, r"= 18{,}432 + 768", r"= 18{,}342 + 768", "prose arithmetic", None),
    ("arith-count-1024-product", CH, 180, r"19{,}660{,}800 = 170", r"19{,}200{,}000 = 170", "prose arithmetic", None),
    ("arith-smoothed-loss", CH, 217, r"\approx 0.6327", r"\approx 0.6372", "prose arithmetic", None),
    ("arith-table-difference", CH, 259, r"= 1.3021", r"= 1.3121", "prose arithmetic", None),
    ("arith-adamw-step", CH, 322, r"= 0.9989", r"= 0.9899", "prose arithmetic", None),
    ("arith-exercise-gap", CH, 406, r"0.0943 = 0.4060", r"0.0943 = 0.4160", "prose arithmetic", None),

    # ------------------------------------------------------------ rounding
    # sqrt(3.5625) = 1.88746 -> truncated
    ("round-sd-sum", CH, 81, r"約 1.8875", r"約 1.8874", "rounding", None),
    # sqrt(3/7) = 0.654654 -> truncated
    ("round-table-relsd-0.3", CH, 114, r"0.6547", r"0.6546", "rounding", None),
    # sqrt(768*0.21) = 12.6996 -> truncated
    ("round-table-count-sd-0.3", CH, 114, r"12.70", r"12.69", "rounding", None),
    # sum a_j^2 = 0.360897 -> truncated
    ("round-sum-squares", CH, 153, r"\approx 0.3609", r"\approx 0.3608", "rounding", None),
    # 88.479 % -> truncated
    ("round-attention-share", CH, 180, r"約 88.5 %", r"約 88.4 %", "rounding", None),
    # log 12.1239 = 2.495179 -> truncated
    ("round-lse", CH, 217, r"\approx 2.4952", r"\approx 2.4951", "rounding", None),
    # log 2 / 0.001 = 693.147 -> truncated
    ("round-half-life-bound", CH, 318, r"\approx 693.15", r"\approx 693.14", "rounding", None),
    # log 91 = 4.510860 -> truncated
    ("round-log-91", CH, 406, r"91 \approx 4.5109", r"91 \approx 4.5108", "rounding", None),
    # 0.99994^20000 = 0.301183 -> truncated
    ("round-exercise-factor", CH, 417, r"\approx 0.3012", r"\approx 0.3011", "rounding", None),
    # log 2 / -log 0.99994 = 11552.1064 -> truncated
    ("round-exercise-half-life", CH, 417, r"\approx 11552.11", r"\approx 11552.10", "rounding", None),

    # ------------------------------------------------------------ example number
    # the third kept component written unscaled (0.5 instead of 0.5/0.8)
    ("ex-dropped-vector-unscaled", CH, 81, r"0.625,\ 3.75", r"0.5,\ 3.75", "example number", None),
    ("ex-variance-decimal", CH, 81, r"0.0625,\ 2.25", r"0.625,\ 2.25", "example number", None),
    # NOT CAUGHT: the script rebuilds D_p(x) from its own mask (1,0,1,1) and never reads
    # the mask printed in the chapter.  With m = (1,0,1,0) the 4th component would be 0
    # (not 3.75) and the probability 0.8^2 * 0.2^2 = 0.0256 (not 0.1024).
    ("ex-mask-changed", CH, 81, r"(1, 0, 1, 1)", r"(1, 0, 1, 0)", "example number", None),
    # the fraction of the lower triangle, (n+1)/(2n), instead of the rest (n-1)/(2n)
    ("ex-causal-rest-share", CH, 180, r"約 49.95 %", r"約 50.05 %", "example number", None),
    ("ex-other-tokens-count", CH, 259, r"50,256 個", r"50,257 個", "example number", None),
    # theta_0 - theta* = 1 - 0.2 instead of 1 + 0.2
    ("ex-closed-form-coefficient", CH, 307, r"1.2 \times 0.999^t", r"0.8 \times 0.999^t", "example number", None),
    # NOT CAUGHT: the script takes g = 0.02 from its own code; the printed input g is not
    # compared.  With g = 0.2 the limit would be -2 and the drift 0.002 t, not -0.2 and 0.0002 t.
    ("ex-gradient-input", CH, 307, r"$g = 0.02$", r"$g = 0.2$", "example number", None),
    # eta's exponent copied into eta*lambda
    ("ex-eta-lambda-exponent", CH, 318, r"\eta\lambda = 6 \times 10^{-5}", r"\eta\lambda = 6 \times 10^{-4}", "example number", None),
    ("ex-exercise-var-i10", CH, 395, r"$0.0111$", r"$0.0101$", "example number", None),
    # forgot the eps/|V| share of the correct token
    ("ex-exercise-qy", CH, 406, r"q^{\varepsilon}_y = 0.91", r"q^{\varepsilon}_y = 0.9", "example number", None),
    # floor instead of ceiling
    ("ex-exercise-steps", CH, 417, r"11,553 ステップ目", r"11,552 ステップ目", "example number", None),

    # ------------------------------------------------------------ table cell
    ("table-kept-mean-0.1", CH, 112, r"691.2", r"619.2", "table cell", None),
    # sqrt(0.2) written for sqrt(0.25)
    ("table-relsd-0.2", CH, 113, r"0.5000", r"0.4472", "table cell", None),
    ("table-per-layer-256", CH, 176, r"1,179,648", r"1,179,684", "table cell", None),
    ("table-param-ratio-512", CH, 177, r"0.3823", r"0.3832", "table cell", None),
    # eps itself written for -log(1 - eps + eps/|V|) = 0.0513
    ("table-onehot-loss-0.05", CH, 255, r"0.0513", r"0.0500", "table cell", None),
    ("table-wd-theta-100", CH, 314, r"0.8858", r"0.8588", "table cell", None),
    # e^{-1} = 0.3679 written for 0.999^1000 = 0.3677
    ("table-factor-1000", CH, 315, r"0.3677", r"0.3679", "table cell", None),
    ("table-wd-theta-5000-sign", CH, 316, r"-0.1919", r"0.1919", "table cell", None),

    # ------------------------------------------------------------ listing output
    # the theoretical value pasted for the sample value
    ("listing-norm-sample", CH, 369, r"17.8151", r"17.8125", "listing output", None),
    ("listing-row-sum-var", CH, 370, r"var 0.0401", r"var 0.0410", "listing output", None),
    ("listing-relu-mean", CH, 371, r"0.5016", r"0.5061", "listing output", None),
    ("listing-one-hot", CH, 372, r"one-hot 0.4952", r"one-hot 0.4925", "listing output", None),
    ("listing-margin", CH, 373, r"margin 3.6109", r"margin 3.6190", "listing output", None),
    ("listing-iterated", CH, 374, r"iterated 0.241235", r"iterated 0.241253", "listing output", None),
    ("listing-total-512", CH, 377, r"47579136", r"47579163", "listing output", None),

    # ------------------------------------------------------------ formula
    ("formula-def-dropout-case", CH, 39, r"x_i/(1 - p) & (m_i = 1)", r"x_i(1 - p) & (m_i = 1)", "formula", None),
    ("formula-var-exponent", CH, 55, r"$\mathrm{Var}(\tilde x_i) = \dfrac{p}{1 - p}", r"$\mathrm{Var}(\tilde x_i) = \dfrac{p}{(1 - p)^2}", "formula", None),
    ("formula-norm-exponent", CH, 56, r"\|\boldsymbol{x}\|^2/(1 - p)$", r"\|\boldsymbol{x}\|^2/(1 - p)^2$", "formula", None),
    ("formula-proof-var-step", CH, 67, r"\frac{x_i^2}{q^2}E[m_i^2]", r"\frac{x_i^2}{q}E[m_i^2]", "formula", None),
    ("formula-attention-lower-bound", CH, 140, r"\dfrac{p}{(1 - p)k} \le", r"\dfrac{p}{(1 - p)k^2} \le", "formula", None),
    ("formula-proof-cauchy-schwarz", CH, 148, r"= k\sum_{j}a_j^2", r"= \frac{1}{k}\sum_{j}a_j^2", "formula", None),
    ("formula-count-threshold", CH, 159, r"$n > 2d/h$ のときに限る", r"$n > d/h$ のときに限る", "formula", None),
    ("formula-def-smoothed-target", CH, 188, r"q^{\varepsilon}_y = 1 - \varepsilon + \varepsilon/|V|", r"q^{\varepsilon}_y = 1 - \varepsilon", "formula", None),
    ("formula-decomposition-sign", CH, 196, r"= (1 - \varepsilon)\,\ell", r"= (1 + \varepsilon)\,\ell", "formula", None),
    ("formula-gap-swapped", CH, 198, r"\varepsilon\,(z_y - \bar z)", r"\varepsilon\,(\bar z - z_y)", "formula", None),
    ("formula-delta-missing-factor", CH, 221, r"1 + |V|(1 - \varepsilon)/\varepsilon", r"1 + (1 - \varepsilon)/\varepsilon", "formula", None),
    ("formula-proof-mean-gap", CH, 242, r"\frac{|V| - 1}{|V|}\,\Delta", r"\frac{|V|}{|V| - 1}\,\Delta", "formula", None),
    ("formula-sgd-update-sign", CH, 278, r"\boldsymbol{\theta}_{t-1} - \eta_t\boldsymbol{g}_t$", r"\boldsymbol{\theta}_{t-1} + \eta_t\boldsymbol{g}_t$", "formula", None),
    ("formula-closed-form-factor", CH, 282, r"- \frac{\boldsymbol{g}}{\lambda}\big(1", r"- \frac{\eta\boldsymbol{g}}{\lambda}\big(1", "formula", None),
    ("formula-proof-completing-square", CH, 299, r"- \frac{\|\boldsymbol{g}\|^2}{2\lambda}", r"+ \frac{\|\boldsymbol{g}\|^2}{2\lambda}", "formula", None),

    # ------------------------------------------------------------ claim
    ("claim-three-methods", CH, 26, r"次の 3 つの方法", r"次の 4 つの方法", "claim", None),
    ("claim-jensen-direction", CH, 103, r"平均以下に偏る", r"平均以上に偏る", "claim", None),
    ("claim-monotone", CH, 117, r"単調に増え", r"単調に減り", "claim", None),
    ("claim-three-places", CH, 125, r"次の 3 か所に", r"次の 2 か所に", "claim", None),
    ("claim-row-sum-bound", CH, 141, r"$0 \le S \le 1/(1 - p)$", r"$0 \le S \le 1$", "claim", None),
    ("claim-uniform-loss-bound", CH, 197, r"\ge \log|V|", r"\le \log|V|", "claim", None),
    ("claim-residual-loss", CH, 246, r"以上残ります", r"以下しか残りません", "claim", None),
    ("claim-half-life-bound", CH, 286, r"以下である", r"以上である", "claim", None),
    ("claim-minimiser", CH, 285, r"を最小にする点である", r"を最大にする点である", "claim", None),
    ("claim-limit-independent", CH, 307, r"$\eta$ にも依りません", r"$\lambda$ にも依りません", "claim", None),
    ("claim-adam-sign", CH, 322, r"符号が同じなら", r"符号が逆なら", "claim", None),
    ("claim-earlier-positions", CH, 395, r"揺れが大きくなります", r"揺れが小さくなります", "claim", None),

    # ------------------------------------------------------------ structure
    ("struct-close-proposition", CH, 59, r"</Proposition>", r"", "structure", 50),
    ("struct-close-proof", CH, 75, r"</Proof>", r"", "structure", 61),
    ("struct-duplicate-id", CH, 85, r'id="prop-inverted-scaling"', r'id="prop-dropout-moments"', "structure", None),
    ("struct-missing-ref-target", CH, 97, r'<Ref to="prop-dropout-moments" />', r'<Ref to="prop-dropout-moment" />', "structure", None),
    ("struct-element-kind", CH, 135, r"<Proposition id=", r"<Lemma id=", "structure", None),
    ("struct-close-example", CH, 182, r"</Example>", r"", "structure", 169),
    ("struct-close-proof-2", CH, 244, r"</Proof>", r"", "structure", 229),
    ("struct-section-number", CH, 263, r"## 6. 重み減衰", r"## 5. 重み減衰", "structure", None),
    ("struct-proof-of-missing", CH, 290, r'<Proof of="prop-sgd-weight-decay">', r'<Proof of="prop-sgd-weight-decays">', "structure", None),
    ("struct-unpaired-dollar", CH, 307, r"$\eta\lambda = 0.001$", r"$\eta\lambda = 0.001", "structure", None),
    ("struct-ref-missing-example", CH, 385, r'<Ref to="ex-weight-decay-table" />', r'<Ref to="ex-weight-decay" />', "structure", None),
    ("struct-close-solution", CH, 397, r"</Solution>", r"", "structure", 393),

    # ------------------------------------------------------------ neutral
    ("neutral-reword-regularisation", CH, 8, r"これを防ぐ工夫をまとめて**正則化**といいます。", r"これを防ぐ工夫を総称して**正則化**と呼びます。", "neutral", None),
    ("neutral-reword-three-methods", CH, 26, r"この章では次の 3 つの方法を扱います。", r"この章で扱うのは次の 3 つの方法です。", "neutral", None),
    ("neutral-fullwidth-section-numbers", CH, 28, r"（2〜4 節）", r"（２〜４ 節）", "neutral", None),
    ("neutral-spacing-in-math", CH, 67, r"\frac{1 - q}{q}\,x_i^2", r"\frac{1-q}{q}\, x_i^2", "neutral", None),
    ("neutral-frac-for-slash", CH, 97, r"$c = 1/(1 - p)$ です", r"$c = \frac{1}{1 - p}$ です", "neutral", None),
    ("neutral-decimal-for-fraction", CH, 99, r"確率 $1/4$ ずつ", r"確率 $0.25$ ずつ", "neutral", None),
    ("neutral-no-thousands-separator", CH, 153, r"長さ 1,024 の", r"長さ 1024 の", "neutral", None),
    ("neutral-expanded-triangle", CH, 180, r"$n(n+1)/2$", r"$(n^2 + n)/2$", "neutral", None),
    # the recompute script fails here only because it looks up the literal "\log 4 \approx 1.3863"
    ("neutral-ln-4", CH, 217, r"\log 4 \approx 1.3863", r"\ln 4 \approx 1.3863", "neutral", None),
    ("neutral-ln-bound", CH, 286, r"\lceil\log 2/(\eta\lambda)\rceil", r"\lceil\ln 2/(\eta\lambda)\rceil", "neutral", None),
    ("neutral-power-of-ten", CH, 318, r"10,000 ステップで", r"$10^4$ ステップで", "neutral", None),
    ("neutral-exercise-steps-notation", CH, 413, r"20,000 ステップ後", r"$2 \times 10^4$ ステップ後", "neutral", None),
]


if __name__ == "__main__":
    import collections
    import pathlib
    import sys

    here = pathlib.Path(__file__).resolve().parent
    lines_of = {}
    bad = 0
    names = set()
    for name, chapter, line, old, new, category, expected in SLIPS:
        if name in names:
            print(f"duplicate name {name}")
            bad += 1
        names.add(name)
        if chapter not in lines_of:
            lines_of[chapter] = (here / chapter).read_text(encoding="utf-8").split("\n")
        text = lines_of[chapter][line - 1]
        n = text.count(old)
        if n != 1 or old == new:
            print(f"{name}: old occurs {n} times on line {line}" if n != 1 else f"{name}: old == new")
            bad += 1
    counts = collections.Counter(s[5] for s in SLIPS)
    for cat in ("prose arithmetic", "rounding", "example number", "table cell",
                "listing output", "formula", "claim", "structure", "neutral"):
        print(f"{cat:18s} {counts.get(cat, 0)}")
    print(f"{'slips':18s} {sum(v for k, v in counts.items() if k != 'neutral')}")
    print("all old strings occur exactly once on their line" if not bad else f"{bad} problems")
    sys.exit(1 if bad else 0)
