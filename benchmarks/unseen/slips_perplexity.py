"""Data: one-slip edits of the chapter perplexity.txt (パープレキシティ).

Each entry of SLIPS is one edit of one line of perplexity.txt:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted end-of-proof
mark (∎) it is the line where the broken proof opens.

The chapter is plain text (no MDX tags), so the structure slips break a heading
number, an element's number (a duplicate number), a reference to an element or
an item that does not exist, a `$` of inline math, or the ∎ that closes a proof.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_perplexity.py passes on all of them.  It does NOT
normalise `{,}` to `,` (it rebuilds the exact strings it checks), so neutral
edits were kept away from the strings it checks.

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_perplexity.py exit 1.  Numbers printed twice (e.g. 0.105361, 1.1111,
10.541, 1,300,000, 3.1623, the values of table 32.4 and of the listing output)
were either avoided or edited inside a string that the recompute script checks
as a whole (a whole table row, the whole listing output, or a phrase with its
context), and each such edit was run.
"""

CH = "perplexity.txt"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("underflow-exponent-dropped-zero", CH, 24,
     "$0.1^{1000} = 10^{-1000}$", "$0.1^{1000} = 10^{-100}$", "prose arithmetic", None),
    ("worse-than-uniform-inverse", CH, 88,
     "= 1{,}000$", "= 10{,}000$", "prose arithmetic", None),
    ("branching-product-transposed", CH, 100,
     "= 1{,}024 =", "= 1{,}042 =", "prose arithmetic", None),
    ("branching-bits-not-divided", CH, 100,
     "$H^{(2)} = 2.5$ bits", "$H^{(2)} = 10$ bits", "prose arithmetic", None),
    ("branching-arith-mean-wrong-sum", CH, 100,
     "$30/4 = 7.5$", "$32/4 = 7.5$", "prose arithmetic", None),
    ("kanji-bytes-two-per-char", CH, 140,
     "3 文字 9 バイト", "3 文字 6 バイト", "prose arithmetic", None),
    ("cost-ratio-wrong-row", CH, 267,
     "$200/72", "$200/56", "prose arithmetic", None),
    ("code-bytes-transposed", CH, 307,
     "約 106,250 バイト", "約 106,520 バイト", "prose arithmetic", None),
    ("uniform-code-length-not-log", CH, 307,
     "$32 \\times \\log_2 16 = 128$", "$32 \\times \\log_2 16 = 512$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("double-min-truncated", CH, 24,
     "$4.941 \\times", "$4.940 \\times", "rounding", None),
    ("branching-ppl-truncated", CH, 100,
     "\\approx 5.6569$", "\\approx 5.6568$", "rounding", None),
    ("loss-lambda09-truncated", CH, 201,
     "\\approx 0.105361$", "\\approx 0.105360$", "rounding", None),
    ("cost-ratio-truncated", CH, 267,
     "\\approx 2.78$", "\\approx 2.77$", "rounding", None),
    ("code-bits-rounded-down", CH, 307,
     "$s = 3$ では 25 ビット", "$s = 3$ では 24 ビット", "rounding", None),
    ("B-ln2-truncated", CH, 162,
     "\\ln 2 \\approx 1{,}386{,}294.4$", "\\ln 2 \\approx 1{,}386{,}294.3$", "rounding", None),
    ("ex14-ppl-truncated", CH, 205,
     "0.009^{-1/2} \\approx 10.541$", "0.009^{-1/2} \\approx 10.540$", "rounding", None),
    ("ex14-mixed-H-truncated", CH, 205,
     "-\\ln 0.455 \\approx 0.7875$", "-\\ln 0.455 \\approx 0.7874$", "rounding", None),
    ("ex22-ppl-2.625-truncated", CH, 311,
     "\\approx 6.1688$", "\\approx 6.1687$", "rounding", None),
    ("exer1-increase-percent-truncated", CH, 405,
     "約 58.49 %", "約 58.48 %", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("ex3-prob-sum-wrong", CH, 66,
     "$1.65/4 = 0.4125$", "$1.75/4 = 0.4125$", "example number", None),
    ("ex3-inverse-mean-transposed", CH, 66,
     "$17.25/4 = 4.3125$", "$17.25/4 = 4.3215$", "example number", None),
    ("ex11-total-B-transposed", CH, 162,
     "= 1{,}360{,}000$", "= 1{,}630{,}000$", "example number", None),
    ("ex11-prob-ratio-exponent", CH, 171,
     "= e^{60{,}000}$", "= e^{6{,}000}$", "example number", None),
    ("ex11-bpb-percent-wrong-base", CH, 171,
     "約 4.41 %", "約 4.62 %", "example number", None),
    ("ex14-gain-subtraction", CH, 205,
     "= 1.5678$", "= 1.5778$", "example number", None),
    ("ex15-product-digits", CH, 209,
     "積は $1.215 \\times", "積は $1.125 \\times", "example number", None),
    ("ex15-mix-not-halved", CH, 209,
     "0.40, 0.16, 0.225", "0.40, 0.32, 0.225", "example number", None),
    ("ex18-s4-outliers", CH, 254,
     "$5 + 6 = 11$", "$5 + 6 = 12$", "example number", None),
    ("ex18-s8-sum", CH, 254,
     "= 56.716/32", "= 56.616/32", "example number", None),
    ("exer1-H-sum", CH, 405,
     "= 2.069955$", "= 2.069945$", "example number", None),
    ("exer3-bound-divided-by-0.1", CH, 421,
     "= 5{,}000{,}000$", "= 500{,}000$", "example number", None),
    ("exer4-K512-forgot-plus-one", CH, 429,
     "$K = 17$", "$K = 16$", "example number", None),

    # ---------------- table cell ----------------
    ("table1-nats-t3-truncated", CH, 62,
     "0.223144", "0.223143", "table cell", None),
    ("table1-bits-t4-transposed", CH, 63,
     "3.321928", "3.321982", "table cell", None),
    ("table1-inverse-sum", CH, 64,
     "17.25", "17.35", "table cell", None),
    ("table2-ppl-A-transposed", CH, 167,
     "13.464", "13.446", "table cell", None),
    ("table2-ratio-B-transposed", CH, 168,
     "1.046", "1.064", "table cell", None),
    ("table2-bpb-C-transposed", CH, 169,
     "0.89447", "0.89474", "table cell", None),
    ("table3-bound-lambda0.3", CH, 216,
     "5.294", "5.249", "table cell", None),
    ("table3-ratio-lambda0.7", CH, 218,
     "0.734", "0.743", "table cell", None),
    ("table4-bits-s4-transposed", CH, 262,
     "47.19", "47.91", "table cell", None),
    ("table4-positions-s3", CH, 263,
     "72", "81", "table cell", None),

    # ---------------- listing output ----------------
    ("out-ppl-truncated", CH, 344,
     "PPL = 3.1623", "PPL = 3.1622", "listing output", None),
    ("out-mean-inverse-transposed", CH, 345,
     "mean(1/p) = 4.3125", "mean(1/p) = 4.3152", "listing output", None),
    ("out-bpc-B-transposed", CH, 347,
     "BPC = 2.4526", "BPC = 2.4562", "listing output", None),
    ("out-ppl-lambda0.1", CH, 351,
     "4.407", "4.470", "listing output", None),
    ("out-bound-lambda0.7", CH, 354,
     "6.047", "6.074", "listing output", None),
    ("out-best-lambda", CH, 357,
     "best lambda = 0.3887", "best lambda = 0.3878", "listing output", None),
    ("out-bits-s2", CH, 390,
     "24.10", "24.01", "listing output", None),

    # ---------------- formula ----------------
    ("H-sign-dropped", CH, 7,
     "$H = -\\frac{1}{N}", "$H = \\frac{1}{N}", "formula", None),
    ("forward-passes-floor", CH, 11,
     "$1 + \\lceil (N - L)/s \\rceil$", "$1 + \\lfloor (N - L)/s \\rfloor$", "formula", None),
    ("log2-inverted", CH, 17,
     "$\\log_2 y = \\ln y / \\ln 2$", "$\\log_2 y = \\ln 2 / \\ln y$", "formula", None),
    ("ppl-exponent-sign", CH, 47,
     "\\Big)^{-1/N}$", "\\Big)^{1/N}$", "formula", None),
    ("base-change-times", CH, 51,
     "$2^{H/\\ln 2} =", "$2^{H\\ln 2} =", "formula", None),
    ("upper-bound-mean-q", CH, 76,
     "\\le \\frac{1}{N}\\sum_{t=1}^{N} \\frac{1}{q_t}$", "\\le \\frac{1}{N}\\sum_{t=1}^{N} q_t$", "formula", None),
    ("branching-exponent-sign", CH, 92,
     "= (k_1 k_2 \\cdots k_N)^{1/N}$", "= (k_1 k_2 \\cdots k_N)^{-1/N}$", "formula", None),
    ("gibbs-minus-D", CH, 104,
     "\\big] = H(p) + D(p \\,\\|\\, r)$", "\\big] = H(p) - D(p \\,\\|\\, r)$", "formula", None),
    ("ppl-byte-extra-ln2", CH, 136,
     "= e^{\\mathcal{L}/B(s)}$", "= e^{\\mathcal{L}/(B(s)\\ln 2)}$", "formula", None),
    ("bits-per-token-N-over-B", CH, 146,
     "$H^{(2)}_q = \\mathrm{BPB} \\cdot \\dfrac{B}{N}$", "$H^{(2)}_q = \\mathrm{BPB} \\cdot \\dfrac{N}{B}$", "formula", None),
    ("ppl-ratio-exponent-inverted", CH, 147,
     "\\mathrm{PPL}_2^{\\,N_2/N_1}$", "\\mathrm{PPL}_2^{\\,N_1/N_2}$", "formula", None),
    ("mix-bound-ln-lambda", CH, 186,
     "H_1 + \\ln(1/\\lambda)$", "H_1 + \\ln\\lambda$", "formula", None),
    ("derivative-sign-dropped", CH, 188,
     "= -\\dfrac{1}{N}\\sum_{t} \\dfrac{a_t - b_t}", "= \\dfrac{1}{N}\\sum_{t} \\dfrac{a_t - b_t}", "formula", None),
    ("K-stride1-missing-one", CH, 240,
     "$K = N - L + 1$", "$K = N - L$", "formula", None),
    ("expected-H-divided-by-s", CH, 241,
     "+ (N - L)\\,\\bar{\\ell}_s\\big)$", "+ \\frac{N - L}{s}\\,\\bar{\\ell}_s\\big)$", "formula", None),
    ("window-size-plus-one", CH, 247,
     "= \\min(L, N - ks) \\le L$", "= \\min(L, N - ks + 1) \\le L$", "formula", None),
    ("kraft-exponent-sign", CH, 279,
     "$\\sum_{y \\in S} 2^{-\\ell(y)} \\le 1$", "$\\sum_{y \\in S} 2^{\\ell(y)} \\le 1$", "formula", None),
    ("code-length-bound-no-N", CH, 295,
     "< N H^{(2)}_q(\\boldsymbol{x}) + 1$", "< H^{(2)}_q(\\boldsymbol{x}) + 1$", "formula", None),

    # ---------------- claim ----------------
    ("fewer-tokens-smaller-ppl", CH, 9,
     "パープレキシティは大きくなります", "パープレキシティは小さくなります", "claim", None),
    ("stride-cost-decreases", CH, 11,
     "倍に増えます", "倍に減ります", "claim", None),
    ("questions-five", CH, 26,
     "次の 4 つの問いに答え", "次の 5 つの問いに答え", "claim", None),
    ("ppl-depends-on-base", CH, 51,
     "パープレキシティは底に依りません", "パープレキシティは底に依ります", "claim", None),
    ("ppl-decreasing-in-H", CH, 77,
     "狭義単調増加関数", "狭義単調減少関数", "claim", None),
    ("geometric-mean-pulled-by-large", CH, 88,
     "幾何平均は小さい値に強く引っぱられる", "幾何平均は大きい値に強く引っぱられる", "claim", None),
    ("unigram-ppl-at-least-V", CH, 118,
     "$|V|$ 以下で、等号は", "$|V|$ 以上で、等号は", "claim", None),
    ("small-vocab-fewer-tokens", CH, 140,
     "語彙の大きいトークナイザは少ないトークンに", "語彙の小さいトークナイザは少ないトークンに", "claim", None),
    ("canonical-bpb-optimistic", CH, 158,
     "わずかに悲観的な値です", "わずかに楽観的な値です", "claim", None),
    ("B-predicts-better", CH, 171,
     "A のほうが文章をよく予測しています", "B のほうが文章をよく予測しています", "claim", None),
    ("mix-not-worse-than-better", CH, 201,
     "補間は悪いほうのモデルより悪くならず", "補間は良いほうのモデルより悪くならず", "claim", None),
    ("chunking-underestimates", CH, 226,
     "交差エントロピーを大きめに見積もります", "交差エントロピーを小さめに見積もります", "claim", None),
    ("cost-proportional-to-s", CH, 267,
     "$s$ にほぼ反比例して増える", "$s$ にほぼ比例して増える", "claim", None),
    ("farther-model-shorter-code", CH, 311,
     "離れたモデルほど符号が長く", "離れたモデルほど符号が短く", "claim", None),

    # ---------------- structure ----------------
    ("ref-item-5-nonexistent", CH, 66,
     "命題 32.4 の 3）", "命題 32.4 の 5）", "structure", None),
    ("proof-end-deleted", CH, 98,
     "∎", "", "structure", 94),
    ("proof-of-corollary-number", CH, 106,
     "証明（命題 32.6）", "証明（命題 32.7）", "structure", None),
    ("table-caption-number-duplicated", CH, 164,
     "表 32.2　", "表 32.1　", "structure", None),
    ("section-interp-number-duplicated", CH, 173,
     "32.5. 補間", "32.4. 補間", "structure", None),
    ("prop-interp-number-duplicated", CH, 181,
     "命題 32.13（補間", "命題 32.12（補間", "structure", None),
    ("unpaired-dollar-lower-bound", CH, 196,
     "b_t)$。", "b_t)。", "structure", None),
    ("ref-nonexistent-proposition", CH, 256,
     "命題 32.17 の 3 の式", "命題 32.18 の 3 の式", "structure", None),

    # ---------------- neutral ----------------
    ("reword-intro", CH, 5,
     "学習が終わったモデルの良し悪しは、学習に使っていない文章にどれだけ高い確率を付けるかで測ります。",
     "学習を終えたモデルの良し悪しは、学習に使わなかった文章にどれだけ高い確率を付けるかで測ります。",
     "neutral", None),
    ("log2-as-fraction", CH, 17,
     "$\\log_2 y = \\ln y / \\ln 2$", "$\\log_2 y = \\frac{\\ln y}{\\ln 2}$", "neutral", None),
    ("thousand-without-comma", CH, 24,
     "1,000 トークン", "1000 トークン", "neutral", None),
    ("ppl-exponent-frac", CH, 47,
     "q_t\\Big)^{-1/N}$$", "q_t\\Big)^{-\\frac{1}{N}}$$", "neutral", None),
    ("gibbs-spacing", CH, 110,
     "$$-D(p \\,\\|\\, r) =", "$$-D(p \\| r) =", "neutral", None),
    ("bpb-denominator-order", CH, 136,
     "\\frac{\\mathcal{L}}{B(s)\\,\\ln 2}", "\\frac{\\mathcal{L}}{\\ln 2 \\cdot B(s)}", "neutral", None),
    ("bpc-coefficient-first", CH, 146,
     "$\\mathrm{BPC} = \\mathrm{BPB} \\cdot \\dfrac{B}{C}$", "$\\mathrm{BPC} = \\dfrac{B}{C}\\,\\mathrm{BPB}$",
     "neutral", None),
    ("mix-sum-unparenthesised", CH, 179,
     "$\\lambda + (1 - \\lambda) = 1$", "$\\lambda + 1 - \\lambda = 1$", "neutral", None),
    ("mix-bound-minus-ln", CH, 186,
     "H_1 + \\ln(1/\\lambda)$", "H_1 - \\ln\\lambda$", "neutral", None),
    ("loss-bound-minus-ln", CH, 201,
     "高々 $\\ln(1/(1 - \\lambda))$ nats", "高々 $-\\ln(1 - \\lambda)$ nats", "neutral", None),
    ("reword-simplest", CH, 226,
     "いちばん簡単な方法", "最も簡単な方法", "neutral", None),
    ("window-start-order", CH, 230,
     "$b_k := ks + 1$", "$b_k := 1 + ks$", "neutral", None),
    ("reword-next-chapter", CH, 395,
     "この章で、言語モデルを比べる物差しが 1 つそろいました。",
     "これで、言語モデルを比べる物差しが 1 つそろいました。", "neutral", None),
    ("bytes-per-char-as-product", CH, 413,
     "$B/C = 3$ なので", "$B = 3C$ なので", "neutral", None),
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
