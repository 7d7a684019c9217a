"""Data: one-slip edits of the chapter mod.mdx (深さ方向の条件付き計算：Mixture-of-Depths と早期終了).

Each entry of SLIPS is one edit of one line of mod.mdx:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted closing tag it
is the line where the broken element opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_mod.py passes on all of them (it normalises
`{,}` to `,` and only looks for the numbers it checks).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_mod.py exit 1.  Numbers that the chapter prints twice (e.g. 0.0977,
0.5488, 6,597,069,766,656, 67,108,864, 8,388,608, 16,384, 12.5, 13.5, 0.2014,
0.07977, 0.0886, 0.02815, 0.3834, 61.66, 0.7362, 9.2023, 11.8874, 16.885,
26,852,982,784, 55,296, 432, 99.59, and 11.7647 and 2.9412 in the
solution of exr-every-k) were avoided as slip sites in the prose, because
the recompute script only checks that the value occurs somewhere; the two
tables are parsed row by row and the listing output is compared verbatim, so
their cells are safe slip sites.
"""

CH = "mod.mdx"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("block-12Td2-digits-transposed", CH, 28,
     "206{,}158{,}430{,}208", "206{,}158{,}430{,}280", "prose arithmetic", None),
    ("block-2T2d-digits-transposed", CH, 28,
     "68{,}719{,}476{,}736", "68{,}719{,}476{,}763", "prose arithmetic", None),
    ("rho-03-times-T", CH, 163,
     "= 1{,}228.8$", "= 1{,}238.8$", "prose arithmetic", None),
    ("phi-rho1-factor-two-dropped", CH, 163,
     "= 1.0000305$", "= 1.0000610$", "prose arithmetic", None),
    ("binomial-variance-transposed", CH, 167,
     "\\frac78 = 1.3125$", "\\frac78 = 1.3215$", "prose arithmetic", None),
    ("binomial-cdf-sum-slip", CH, 167,
     "P(K \\le 2) \\approx 0.8180$", "P(K \\le 2) \\approx 0.8170$", "prose arithmetic", None),
    ("predictor-params-bias-dropped", CH, 243,
     "= 524{,}801$", "= 524{,}800$", "prose arithmetic", None),
    ("predictor-mults-bias-dropped", CH, 243,
     "= 524{,}544$", "= 524{,}288$", "prose arithmetic", None),
    ("layer-cost-12d2-transposed", CH, 301,
     "$c = 50{,}331{,}648", "$c = 50{,}331{,}684", "prose arithmetic", None),
    ("se-complement-transposed", CH, 400,
     "0.2014 \\times 0.7986/", "0.2014 \\times 0.7896/", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("binomial-pk1-truncated", CH, 167,
     "$P(K = 1) \\approx 0.3453$", "$P(K = 1) \\approx 0.3452$", "rounding", None),
    ("binomial-pk2-truncated", CH, 167,
     "$P(K = 2) \\approx 0.2713$", "$P(K = 2) \\approx 0.2712$", "rounding", None),
    ("model-saving-percent-truncated", CH, 146,
     "（45.12 %）", "（45.11 %）", "rounding", None),
    ("sd-sqrt448-truncated", CH, 206,
     "\\sqrt{448} \\approx 21.17$", "\\sqrt{448} \\approx 21.16$", "rounding", None),
    ("p-n-equals-512-double-rounded", CH, 206,
     "$P(N = 512) \\approx 0.0188$", "$P(N = 512) \\approx 0.0189$", "rounding", None),
    ("skipped-layers-truncated", CH, 318,
     "\\approx 1.85$", "\\approx 1.84$", "rounding", None),
    ("se-share-truncated", CH, 400,
     "\\approx 0.0063$", "\\approx 0.0062$", "rounding", None),
    ("se-mad-truncated", CH, 401,
     "約 0.29 と", "約 0.28 と", "rounding", None),
    ("exr-overhead-truncated", CH, 412,
     "約 $4.58 \\times 10^{-5}$", "約 $4.57 \\times 10^{-5}$", "rounding", None),
    ("exr-all-routed-phi-truncated", CH, 412,
     "\\approx 0.43755$", "\\approx 0.43754$", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("ex-block-mlp-term-transposed", CH, 124,
     "25{,}769{,}803{,}776", "25{,}769{,}808{,}376", "example number", None),
    ("ex-block-router-total", CH, 124,
     "合わせて $9{,}437{,}184$ 回", "合わせて $9{,}437{,}148$ 回", "example number", None),
    ("ex-block-attention-denominator", CH, 124,
     "$512/12{,}800 = 0.04$", "$512/12{,}880 = 0.04$", "example number", None),
    ("ex-model-routed-total", CH, 146,
     "322{,}235{,}793{,}408", "322{,}235{,}739{,}408", "example number", None),
    ("ex-model-kv-bytes", CH, 146,
     "452{,}984{,}832", "452{,}948{,}832", "example number", None),
    ("ex-model-router-params", CH, 146,
     "12 個で $24{,}576$ 個", "12 個で $24{,}567$ 個", "example number", None),
    ("ex-threshold-normal-approx", CH, 206,
     "\\approx 16.888$", "\\approx 16.878$", "example number", None),
    ("ex-depth-tail-term", CH, 282,
     "8 + 3.8874 = 11.8874", "8 + 3.8847 = 11.8874", "example number", None),
    ("ex-depth-matching-q", CH, 282,
     "$q \\approx 0.0550$", "$q \\approx 0.0505$", "example number", None),
    ("exr-all-routed-router-mults", CH, 412,
     "12{,}582{,}912", "12{,}582{,}192", "example number", None),
    ("exr-every-k-power", CH, 423,
     "$0.7^6 = 0.117649$", "$0.7^6 = 0.117469$", "example number", None),
    ("exr-every-k-complement", CH, 423,
     "4 \\times 0.882351/0.3", "4 \\times 0.882531/0.3", "example number", None),

    # ---------------- table cell ----------------
    ("table1-rho03-ratio-transposed", CH, 158,
     "| 0.2475 |", "| 0.2457 |", "table cell", None),
    ("table1-rho05-phi-truncated", CH, 157,
     "| 0.7188 |", "| 0.7187 |", "table cell", None),
    ("table1-rho025-attention-transposed", CH, 159,
     "| 0.0769 |", "| 0.0796 |", "table cell", None),
    ("table1-rho00625-saving", CH, 161,
     "| 95.21 % |", "| 95.12 % |", "table cell", None),
    ("table2-q005-softmax-cost", CH, 308,
     "| 1.1328 |", "| 1.1238 |", "table cell", None),
    ("table2-q015-expected-depth", CH, 310,
     "| 6.5318 |", "| 6.5138 |", "table cell", None),
    ("table2-q02-tail-prob", CH, 311,
     "| 0.0059 |", "| 0.0095 |", "table cell", None),

    # ---------------- listing output ----------------
    ("output-rho03-block", CH, 386,
     "block 0.247544", "block 0.247454", "listing output", None),
    ("output-rho0125-model", CH, 388,
     "model 0.548845", "model 0.548854", "listing output", None),
    ("output-rows-changed", CH, 390,
     "rows changed: [6 8]", "rows changed: [2 6 8]", "listing output", None),
    ("output-share-copied-from-remark", CH, 392,
     "share with 12: 0.2031", "share with 12: 0.2014", "listing output", None),
    ("output-threshold-mad", CH, 393,
     "mean |N - 512| 16.898", "mean |N - 512| 16.889", "listing output", None),
    ("output-simulated-depth", CH, 394,
     "simulated E[D] 9.1954", "simulated E[D] 9.1945", "listing output", None),

    # ---------------- formula ----------------
    ("mod-block-row-index", CH, 57,
     "r_i\\, f(X_S)_k", "r_i\\, f(X_S)_i", "formula", None),
    ("topk-rank-bound-off-by-one", CH, 70,
     "\\le C - 1$ と同値", "\\le C$ と同値", "formula", None),
    ("topk-threshold-interval-ends-swapped", CH, 72,
     "$r_{(C+1)} \\le \\theta < r_{(C)}$", "$r_{(C+1)} < \\theta \\le r_{(C)}$", "formula", None),
    ("router-neighbourhood-radius-half-dropped", CH, 95,
     "$\\|\\boldsymbol{u}\\| < \\delta/(2R)$", "$\\|\\boldsymbol{u}\\| < \\delta/R$", "formula", None),
    ("block-ratio-rhobar-squared", CH, 108,
     "= \\bar\\rho\\,\\dfrac{6d + \\bar\\rho T}", "= \\bar\\rho^2\\,\\dfrac{6d + \\bar\\rho T}", "formula", None),
    ("lower-bound-proof-sign", CH, 116,
     "6d\\,\\bar\\rho(1 - \\bar\\rho) \\ge 0", "6d\\,\\bar\\rho(1 + \\bar\\rho) \\ge 0", "formula", None),
    ("mean-blocks-L-for-Lr", CH, 133,
     "L - L_r + L_r\\dfrac{C}{T}", "L - L_r + L\\dfrac{C}{T}", "formula", None),
    ("overflow-half-to-quarter", CH, 194,
     "= \\frac12\\mathbb{E}|N - C|", "= \\frac14\\mathbb{E}|N - C|", "formula", None),
    ("bce-leading-sign-dropped", CH, 215,
     "\\ell(\\phi) := -\\frac{1}{T}", "\\ell(\\phi) := \\frac{1}{T}", "formula", None),
    ("kl-ratio-inverted", CH, 235,
     "= \\eta\\log\\frac{\\eta}{p}", "= \\eta\\log\\frac{p}{\\eta}", "formula", None),
    ("tail-sum-index-shifted", CH, 267,
     "\\sum_{l=0}^{L-1}P(D > l)", "\\sum_{l=1}^{L}P(D > l)", "formula", None),
    ("last-layer-prob-exponent", CH, 269,
     "$P(D = L) = (1 - q)^{L-1}$", "$P(D = L) = (1 - q)^{L}$", "formula", None),
    ("classifier-cost-sign", CH, 291,
     "\\big(\\mathbb{E}[D] - P(D = L)\\big)a", "\\big(\\mathbb{E}[D] + P(D = L)\\big)a", "formula", None),
    ("every-k-exponent", CH, 419,
     "(1 - q)^{L/k}", "(1 - q)^{L}", "formula", None),

    # ---------------- claim ----------------
    ("summary-bound-direction", CH, 14,
     "$1/q$ を超えません", "$1/q$ を下回りません", "claim", None),
    ("moe-is-depth", CH, 30,
     "いわば「幅」の方向の", "いわば「深さ」の方向の", "claim", None),
    ("unselected-become-keys", CH, 64,
     "注意のキーとバリューにもならず", "注意のキーとバリューにはなりますが", "claim", None),
    ("sigmoid-wrong-lemma-part", CH, 82,
     "2 より、スコアをシグモイドに", "3 より、スコアをシグモイドに", "claim", None),
    ("gradient-from-unselected", CH, 99,
     "つまり選ばれたトークンの分だけです", "つまり選ばれなかったトークンの分だけです", "claim", None),
    ("short-long-limits-swapped", CH, 120,
     "短いほど比は $\\bar\\rho$ に、長いほど $\\bar\\rho^2$ に",
     "短いほど比は $\\bar\\rho^2$ に、長いほど $\\bar\\rho$ に", "claim", None),
    ("halving-more-than-half", CH, 163,
     "半分より少し小さくなりますが", "半分より少し大きくなりますが", "claim", None),
    ("correlated-routing-narrower", CH, 167,
     "分布はもっと広がります", "分布はもっと狭まります", "claim", None),
    ("listing-dropped-token-wrong", CH, 187,
     "6 番目のトークンが選ばれなくなり", "2 番目のトークンが選ばれなくなり", "claim", None),
    ("target-does-not-depend-on-future", CH, 222,
     "目標 $y_i$ のほうは未来に依るので", "目標 $y_i$ のほうは未来に依らないので", "claim", None),
    ("threshold-depth-monotone-reversed", CH, 261,
     "どのトークンの深さも減らず", "どのトークンの深さも増えず", "claim", None),
    ("expected-depth-decreasing-in-L", CH, 269,
     "狭義単調増加で", "狭義単調減少で", "claim", None),
    ("cap-matters-for-large-q", CH, 314,
     "$q$ が大きいと $\\mathbb{E}[D]$", "$q$ が小さいと $\\mathbb{E}[D]$", "claim", None),
    ("every-k-shallower", CH, 423,
     "平均の深さは深いのに", "平均の深さは浅いのに", "claim", None),

    # ---------------- structure ----------------
    ("ref-missing-router-gradient", CH, 10,
     '<Ref to="prop-router-gradient" />', '<Ref to="prop-router-gradients" />', "structure", None),
    ("section-ref-nonexistent", CH, 32,
     "（37.2・37.3 節）", "（37.2・37.8 節）", "structure", None),
    ("section-number-duplicated", CH, 101,
     "## 37.3. 容量比と計算量", "## 37.2. 容量比と計算量", "structure", None),
    ("block-cost-proof-close-deleted", CH, 118,
     "</Proof>", "", "structure", 114),
    ("proof-of-wrong-id", CH, 274,
     '<Proof of="prop-expected-depth">', '<Proof of="prop-expected-depths">', "structure", None),
    ("expected-depth-example-close-deleted", CH, 284,
     "</Example>", "", "structure", 280),
    ("table2-caption-numbered-1", CH, 303,
     "**表 37.2**", "**表 37.1**", "structure", None),

    # ---------------- neutral ----------------
    ("ordinary-reworded", CH, 8,
     "ふつうの Transformer は", "通常の Transformer は", "neutral", None),
    ("plain-4096-per-token", CH, 28,
     "2^{38}/4{,}096 = 2^{26}", "2^{38}/4096 = 2^{26}", "neutral", None),
    ("block-cost-factor-reordered", CH, 43,
     "2nd\\,(6d + n)", "2nd\\,(n + 6d)", "neutral", None),
    ("flops-same-reworded", CH, 50,
     "どちらで数えても同じです", "どちらで数えても結果は変わりません", "neutral", None),
    ("frac18-braced", CH, 124,
     "\\frac18 \\times", "\\frac{1}{8} \\times", "neutral", None),
    ("max-identity-terms-swapped", CH, 200,
     "(|x| + x)/2", "(x + |x|)/2", "neutral", None),
    ("geometric-sum-factor-moved", CH, 276,
     "$s - (1 - q)s = 1 - (1 - q)^L$", "$s - s(1 - q) = 1 - (1 - q)^L$", "neutral", None),
    ("vd-powers-reordered", CH, 301,
     "$Vd = 2^{15} \\times 2^{11} = 2^{26}$", "$Vd = 2^{11} \\times 2^{15} = 2^{26}$", "neutral", None),
    ("cap-hardly-reworded", CH, 314,
     "ほとんど効きません", "ほぼ効きません", "neutral", None),
    ("mean-blocks-plain-4096", CH, 146,
     "12 + 12 \\times 512/4{,}096", "12 + 12 \\times 512/4096", "neutral", None),
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
