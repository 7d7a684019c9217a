"""Data: one-slip edits of the chapter deepnorm.txt (残差のスケーリングと深いネットワークの安定性：Pre-LN の分散・Post-LN の勾配・DeepNorm・ReZero).

Each entry of SLIPS is one edit of one line of deepnorm.txt:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted end-of-proof
mark it is the line where the broken proof opens.

Neutral edits change only how something is written (wording, an equivalent
formula, another notation for the same number) and keep every number and
formula true.  recompute_deepnorm.py passes on all of them.

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied alone to a copy of the chapter and makes
recompute_deepnorm.py exit 1.  The recompute script checks prose numbers as
strings that carry their context (e.g. "$1.32^{-12} \\approx 0.03574$"), so a
number printed in several places (0.03574, 0.99187, 641, 1.2868 ...) is a safe
slip site only where its check string is unique; "$2 \\times 500 + 3 \\times 500
= 2{,}500$" (lines 25 and 238) and "損失は 2.5 から 1.2868 に下がります" (lines
272 and 351) occur twice verbatim and were avoided.  The three tables are
parsed row by row and the listing output is compared verbatim with a run of
residual_variance.py, so their cells are safe slip sites.
"""

CH = "deepnorm.txt"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("summary-q-forgot-q0", CH, 7,
     "\\times 2{,}000 = 641$", "\\times 2{,}000 = 640$", "prose arithmetic", None),
    ("summary-B-postln-2N", CH, 11,
     "$N = 1{,}000$ で 4,000）", "$N = 1{,}000$ で 2,000）", "prose arithmetic", None),
    ("unnormalised-growth-transposed", CH, 64,
     "\\approx 783.0$ 倍", "\\approx 738.0$ 倍", "prose arithmetic", None),
    ("note-q-last-branch-1000", CH, 84,
     "1/\\sqrt{640.68}", "1/\\sqrt{640.32}", "prose arithmetic", None),
    ("table3-text-B-postln-2N", CH, 234,
     "$N = 12$ の 48 から", "$N = 12$ の 24 から", "prose arithmetic", None),
    ("listing-text-percent-off", CH, 350,
     "実測が式より約 9 % 小さく", "実測が式より約 8 % 小さく", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("summary-postln-12-truncated", CH, 9,
     "1.32^{-12} \\approx 0.03574$", "1.32^{-12} \\approx 0.03573$", "rounding", None),
    ("note-inv-sqrt-836-truncated", CH, 84,
     "\\approx 0.3459$", "\\approx 0.3458$", "rounding", None),
    ("first-branch-ratio-scaled-truncated", CH, 106,
     "\\sqrt{0.32/24} \\approx 0.1155$", "\\sqrt{0.32/24} \\approx 0.1154$", "rounding", None),
    ("inv-sqrt-132-truncated", CH, 150,
     "\\approx 0.8704$", "\\approx 0.8703$", "rounding", None),
    ("encdec-encoder-B-truncated", CH, 214,
     "約 0.9759）", "約 0.9758）", "rounding", None),
    ("exr1-sqrt37-truncated", CH, 361,
     "\\approx 6.0828$", "\\approx 6.0827$", "rounding", None),
    ("exr4-bound-truncated", CH, 385,
     "\\approx 5.8138$", "\\approx 5.8137$", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("ex3-ms2-digits", CH, 68,
     "0.0004 = 1.2288$", "0.0004 = 1.2228$", "example number", None),
    ("ex6-ratio-1000-transposed", CH, 106,
     "$1/485.6$", "$1/458.6$", "example number", None),
    ("ex9-postln-48-exponent", CH, 150,
     "$N = 48$ で約 $1.631 \\times 10^{-6}$", "$N = 48$ で約 $1.631 \\times 10^{-7}$", "example number", None),
    ("ex14-encoder-alpha-transposed", CH, 238,
     "\\approx 5.6482$", "\\approx 5.6428$", "example number", None),
    ("ex17-grad-a1-sign", CH, 272,
     "= -4 + 1 = -3$", "= -4 + 1 = -5$", "example number", None),
    ("exr2-N4M-product", CH, 369,
     "\\times 6 = 124{,}416$", "\\times 6 = 124{,}216$", "example number", None),
    ("exr4-x2-first-component", CH, 385,
     "= (7.93, 2.9)$", "= (7.73, 2.9)$", "example number", None),

    # ---------------- table cell ----------------
    ("table1-ratio-24-transposed", CH, 75,
     "\t0.14124\t", "\t0.14214\t", "table cell", None),
    ("table1-q-96-digit", CH, 77,
     "\t62.44\t", "\t62.24\t", "table cell", None),
    ("table2-decoder-alpha-24-transposed", CH, 219,
     "\t2.9130\t", "\t2.9310\t", "table cell", None),
    ("table2-decoder-beta-96-transposed", CH, 221,
     "\t0.17165\t", "\t0.17156\t", "table cell", None),
    ("table3-deepnorm-48-transposed", CH, 230,
     "\t0.99593\t", "\t0.99539\t", "table cell", None),

    # ---------------- listing output ----------------
    ("output-q0-transposed", CH, 338,
     "q_0 = 0.9923", "q_0 = 0.9932", "listing output", None),
    ("output-preln-12-transposed", CH, 340,
     "8.823", "8.832", "listing output", None),
    ("output-preln-48-transposed", CH, 342,
     "31.818", "31.881", "listing output", None),
    ("output-deepnorm-12-transposed", CH, 344,
     "0.99392", "0.99329", "listing output", None),
    ("output-postln-24-digit", CH, 345,
     "1.188e-03", "1.118e-03", "listing output", None),
    ("output-rezero-loss-transposed", CH, 347,
     "-> 1.2868", "-> 1.2686", "listing output", None),

    # ---------------- formula ----------------
    ("prereq-ln-jacobian-sigma-squared", CH, 16,
     "\\frac{1}{\\sigma}(I", "\\frac{1}{\\sigma^2}(I", "formula", None),
    ("prop2-branch-norm-m-for-d", CH, 52,
     "E\\|W_k^{\\mathsf{T}}\\boldsymbol{h}_k\\|^2 = d\\,v_k$", "E\\|W_k^{\\mathsf{T}}\\boldsymbol{h}_k\\|^2 = m\\,v_k$",
     "formula", None),
    ("proof2-covariance-sk-unsquared", CH, 59,
     "E[W_{ji}W_{j'i}] = s_k^2\\delta_{jj'}", "E[W_{ji}W_{j'i}] = s_k\\delta_{jj'}", "formula", None),
    ("relu-second-moment-quarter", CH, 68,
     "E[\\mathrm{ReLU}(z)^2] = \\tau^2/2$", "E[\\mathrm{ReLU}(z)^2] = \\tau^2/4$", "formula", None),
    ("cor5-sum-scale-sqrt", CH, 92,
     "q_0 + \\frac{1}{2N}\\sum", "q_0 + \\frac{1}{\\sqrt{2N}}\\sum", "formula", None),
    ("prop8-T-alpha-exponent", CH, 130,
     "T := \\alpha^{M-l}\\Lambda_M", "T := \\alpha^{M-l-1}\\Lambda_M", "formula", None),
    ("prop8-sigma-mean-sign", CH, 132,
     "\\alpha^2 + (1 - 1/d)v_k$", "\\alpha^2 + (1 + 1/d)v_k$", "formula", None),
    ("proof8-lambda-norm-squared", CH, 137,
     "$\\|\\Lambda_k\\| \\le 1/\\sigma_k$", "$\\|\\Lambda_k\\| \\le 1/\\sigma_k^2$", "formula", None),
    ("prop11-JJT-transposed", CH, 164,
     "\\Delta F = -\\eta\\sum_i J_iJ_i^{\\mathsf{T}}\\boldsymbol{g}", "\\Delta F = -\\eta\\sum_i J_i^{\\mathsf{T}}J_i\\boldsymbol{g}",
     "formula", None),
    ("prop11-bound-square-dropped", CH, 166,
     "\\sum_i\\|J_i\\|^2", "\\sum_i\\|J_i\\|", "formula", None),
    ("beta4-from-ratio-wrong", CH, 214,
     "$\\beta^4 = 1/(4K)$", "$\\beta^4 = 1/(2K)$", "formula", None),
    ("prop16-delta-a-sign", CH, 258,
     "\\Delta a_k = -\\eta\\langle", "\\Delta a_k = \\eta\\langle", "formula", None),

    # ---------------- claim ----------------
    ("early-vs-late-branches-swapped", CH, 80,
     "前の枝ほど残差流を大きく動かし、後ろの枝は薄められます", "後ろの枝ほど残差流を大きく動かし、前の枝は薄められます",
     "claim", None),
    ("deep-layer-J-grows", CH, 84,
     "$J_k$ の部分が小さくなり", "$J_k$ の部分が大きくなり", "claim", None),
    ("cor5-depends-on-N", CH, 94,
     "は $N$ に依らない", "は $N$ に比例する", "claim", None),
    ("proof5-wrong-part-reference", CH, 98,
     "命題 36.2 の 2 に", "命題 36.2 の 1 に", "claim", None),
    ("scaling-enlarges-late-branches", CH, 106,
     "後ろの枝を大きくするのではなく、前の枝を小さくして", "前の枝を小さくするのではなく、後ろの枝を大きくして",
     "claim", None),
    ("relu-commutes-any-scalar", CH, 124,
     "ReLU は正の定数倍と交換する", "ReLU は任意の定数倍と交換する", "claim", None),
    ("attention-D-in-T", CH, 146,
     "$T$ には含まれません", "$T$ にも含まれます", "claim", None),
    ("larger-sigma-larger-product", CH, 154,
     "は小さくなります。DeepNorm", "は大きくなります。DeepNorm", "claim", None),
    ("bound-independent-of-K", CH, 176,
     "上界は $K$ に比例して増えます", "上界は $K$ に依りません", "claim", None),
    ("alpha-beta-square-root-growth", CH, 224,
     "$N$ の 4 分の 1 乗程度", "$N$ の 2 分の 1 乗程度", "claim", None),
    ("deepnorm-coefficient-to-zero", CH, 234,
     "$N$ とともに 1 に近づきます", "$N$ とともに 0 に近づきます", "claim", None),
    ("rezero-proof-wrong-proposition", CH, 264,
     "3. 命題 36.11 を、", "3. 命題 36.12 を、", "claim", None),
    ("rezero-bound-independent-of-K", CH, 268,
     "同じくらいなら $K$ に比例します", "同じくらいなら $K$ に依りません", "claim", None),

    # ---------------- structure ----------------
    ("heading-36-4-duplicates-36-5", CH, 108,
     "36.4 正規化を挟む残差接続", "36.5 正規化を挟む残差接続", "structure", None),
    ("prop8-numbered-as-example9", CH, 126,
     "命題 36.8（枝を通らない項の係数）", "命題 36.9（枝を通らない項の係数）", "structure", None),
    ("proof11-end-mark-deleted", CH, 174,
     "∎", "", "structure", 168),
    ("table3-caption-refers-table4", CH, 226,
     "表 36.2 の 2・3 列目", "表 36.4 の 2・3 列目", "structure", None),
    ("listing-refers-example18", CH, 276,
     "例 36.17 を NumPy", "例 36.18 を NumPy", "structure", None),
    ("heading-exercises-36-9", CH, 353,
     "36.8 演習", "36.9 演習", "structure", None),
    ("exercise3-numbered-2", CH, 371,
     "演習 36.3標準", "演習 36.2標準", "structure", None),

    # ---------------- neutral ----------------
    ("reword-deepnet-stacked", CH, 5,
     "層まで積みました", "層まで重ねました", "neutral", None),
    ("prereq-inverse-sigma", CH, 16,
     "\\frac{1}{\\sigma}(I", "\\sigma^{-1}(I", "neutral", None),
    ("braced-comma-1000-layers", CH, 25,
     "DeepNet の 1,000 層は", "DeepNet の $1{,}000$ 層は", "neutral", None),
    ("reword-in-short", CH, 46,
     "要は、", "要するに、", "neutral", None),
    ("prop2-sum-reordered", CH, 53,
     "$q_K = q_0 + \\sum_{k=1}^{K}v_k$", "$q_K = \\sum_{k=1}^{K}v_k + q_0$", "neutral", None),
    ("reword-multiplicative-growth", CH, 64,
     "掛け算で増えます", "積の形で増えます", "neutral", None),
    ("proof5-frac-c2", CH, 98,
     "$c^2 = 1/(2N)$", "$c^2 = \\frac{1}{2N}$", "neutral", None),
    ("prop8-one-minus-inverse-d", CH, 132,
     "(1 - 1/d)v_k$ である", "\\frac{d - 1}{d}v_k$ である", "neutral", None),
    ("reword-square-appears", CH, 176,
     "が 2 乗で効くのは", "が 2 乗で現れるのは", "neutral", None),
    ("exr1-half-as-fraction", CH, 357,
     "$v = 0.5$ とする", "$v = 1/2$ とする", "neutral", None),
    ("refs-plain-1000-2500", CH, 389,
     "1,000 層（2,500 個の副層）", "1000 層（2500 個の副層）", "neutral", None),
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
