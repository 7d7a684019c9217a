"""Data: one-slip edits of the chapter rmsnorm.txt (rendered-text form).

Each entry of SLIPS is a tuple
    (name, chapter file name, line, old, new, category, expected line or None)
meaning: on the 1-based line `line` of the chapter, `old` occurs exactly once; replacing it by
`new` gives a chapter that holds exactly one mistake of the kind `category` (or, for
"neutral", the same mathematics written differently).  `expected line` is None when the
mistake is visible at the edited line; for a structural slip whose broken element opens on
another line (an end of proof `∎` deleted), it is the line of the proof's heading.

Every numeric slip (prose arithmetic, rounding, example number, table cell, listing output)
makes recompute_rmsnorm.py exit 1 when applied to a copy of the chapter.

Neutral edits: none of them changes a number or a formula.  recompute_rmsnorm.py accepts
all of them except those marked "# literal" below (none at present: the neutral edits were
placed on text the script does not match literally).

Run this file to check that every `old` occurs exactly once on its line and to print the
counts per category.
"""

CHAPTER = "rmsnorm.txt"

SLIPS = [
    # ------------------------------------------------------------------ prose arithmetic
    ("norm-count-2L+1", CHAPTER, 161, "$2 \\times 12 + 1 = 25$", "$2 \\times 12 + 1 = 24$",
     "prose arithmetic", None),
    ("saved-params-digits", CHAPTER, 161, r"= 19{,}200$", r"= 19{,}020$",
     "prose arithmetic", None),
    ("rms-total-subtraction", CHAPTER, 161, r"= 124{,}420{,}608$", r"= 124{,}420{,}808$",
     "prose arithmetic", None),
    ("12d2-digit", CHAPTER, 161, r"7{,}077{,}888", r"7{,}077{,}788",
     "prose arithmetic", None),
    ("two-ln-ops", CHAPTER, 161, r"= 10{,}758$", r"= 10{,}768$",
     "prose arithmetic", None),

    # ------------------------------------------------------------------ rounding
    ("rmsnorm-second-component-truncated", CHAPTER, 81, "0.5657", "0.5656",
     "rounding", None),
    ("ln-last-component-truncated", CHAPTER, 83, "1.6036", "1.6035",
     "rounding", None),
    ("eigen-ratio-truncated", CHAPTER, 127, r"\approx 1.890", r"\approx 1.889",
     "rounding", None),
    ("ln-ops-share-truncated", CHAPTER, 161, "約 0.152 %", "約 0.151 %",
     "rounding", None),
    ("inverse-rms-l1-truncated", CHAPTER, 211, r"\approx 0.8495", r"\approx 0.8494",
     "rounding", None),
    ("qk-upper-bound-truncated", CHAPTER, 253, "= 0.9931$", "= 0.9930$",
     "rounding", None),
    ("s-truncated", CHAPTER, 417, r"\sqrt{13} = 3.6056", r"\sqrt{13} = 3.6055",
     "rounding", None),
    ("exercise-bound-truncated", CHAPTER, 433, r"\approx 0.9977", r"\approx 0.9976",
     "rounding", None),

    # ------------------------------------------------------------------ example number
    ("square-of-six", CHAPTER, 79, "(1 + 4 + 9 + 36)", "(1 + 4 + 9 + 16)",
     "example number", None),
    ("shifted-rms-squared", CHAPTER, 83, "= 227.5$", "= 272.5$",
     "example number", None),
    ("variance-subtraction", CHAPTER, 83, "- 9 = 3.5$", "- 9 = 2.5$",
     "example number", None),
    ("norm-squared-50", CHAPTER, 123, r"\|^2 = 50$", r"\|^2 = 40$",
     "example number", None),
    ("ln-eigenvalue-transposed", CHAPTER, 127, "= 0.5345$", "= 0.5435$",
     "example number", None),
    ("residual-shrink-factor", CHAPTER, 211, "約 7 分の 1", "約 6 分の 1",
     "example number", None),
    ("inner-product-k2", CHAPTER, 251, "$10$、$-3$、$-2$", "$10$、$-4$、$-2$",
     "example number", None),
    ("q-squared-norm", CHAPTER, 253, r"\sqrt{20/8} = 1.5811", r"\sqrt{18/8} = 1.5811",
     "example number", None),
    ("exercise-mean-sign", CHAPTER, 409, r"$\mu = -0.5$", r"$\mu = 0.5$",
     "example number", None),
    ("exercise-ln-params", CHAPTER, 425, r"532{,}480", r"532{,}840",
     "example number", None),

    # ------------------------------------------------------------------ table cell
    ("ops-table-ln-768", CHAPTER, 157, "5,379", "5,397",
     "table cell", None),
    ("ops-table-ratio-1024-copied", CHAPTER, 158, "0.5716", "0.5717",
     "table cell", None),
    ("ops-table-ln-64", CHAPTER, 156, "451", "450",
     "table cell", None),
    ("placement-table-pre-bound-2", CHAPTER, 205, "3.8777", "3.8717",
     "table cell", None),
    ("placement-table-pre-8", CHAPTER, 207, "5.1071", "5.1017",
     "table cell", None),
    ("placement-table-pre-bound-24", CHAPTER, 209, "41.9050", "41.9500",
     "table cell", None),
    ("qk-table-upper-16-truncated", CHAPTER, 260, "0.9949933", "0.9949932",
     "table cell", None),
    ("qk-table-lower-8-exponent", CHAPTER, 259, "10^{-4}", "10^{-5}",
     "table cell", None),

    # ------------------------------------------------------------------ listing output
    ("listing-rmsnorm-last", CHAPTER, 319, "1.6971]", "1.6970]",
     "listing output", None),
    ("listing-rank", CHAPTER, 324, "rank 7", "rank 8",
     "listing output", None),
    ("listing-ops-768", CHAPTER, 329, "5379", "5397",
     "listing output", None),
    ("listing-pre-bound-8", CHAPTER, 383, "14.4782", "14.4728",
     "listing output", None),
    ("listing-raw-weight", CHAPTER, 386, "0.0098", "0.0099",
     "listing output", None),
    ("listing-qk-upper-16", CHAPTER, 393, "0.9949933", "0.9949932",
     "listing output", None),
    ("listing-rms-x0", CHAPTER, 378, "0.6112", "0.6121",
     "listing output", None),

    # ------------------------------------------------------------------ formula
    ("rms-over-d", CHAPTER, 39, r"{\sqrt{d}}$$", r"{d}$$",
     "formula", None),
    ("rms-not-squared", CHAPTER, 43, r"\sqrt{\mathrm{RMS}(\boldsymbol{x})^2 + \varepsilon}",
     r"\sqrt{\mathrm{RMS}(\boldsymbol{x}) + \varepsilon}", "formula", None),
    ("variance-sign", CHAPTER, 57, r"\mathrm{RMS}(\boldsymbol{x})^2 - \mu^2", r"\mathrm{RMS}(\boldsymbol{x})^2 + \mu^2",
     "formula", None),
    ("cross-term-factor", CHAPTER, 68, r"- 2\mu\cdot", r"- \mu\cdot",
     "formula", None),
    ("jacobian-missing-d", CHAPTER, 91, r"{d\,s^2}", r"{s^2}",
     "formula", None),
    ("jacobian-scaling-abs", CHAPTER, 96, r"J(\boldsymbol{x})/|a|$", r"J(\boldsymbol{x})/a$",
     "formula", None),
    ("eps-direction-power", CHAPTER, 97, r"\dfrac{\varepsilon}{s^3}", r"\dfrac{\varepsilon}{s^2}",
     "formula", None),
    ("quotient-rule-power", CHAPTER, 104, r"\frac{x_i}{s^2}\cdot", r"\frac{x_i}{s}\cdot",
     "formula", None),
    ("ln-add-count", CHAPTER, 143, "= 4d - 1$", "= 4d - 2$",
     "formula", None),
    ("pre-ln-bound-index", CHAPTER, 178, r"\sum_{k=1}^{l} B_k", r"\sum_{k=1}^{l-1} B_k",
     "formula", None),
    ("gradient-bound-max", CHAPTER, 181, r"/ \min_i \mathrm{RMS}", r"/ \max_i \mathrm{RMS}",
     "formula", None),
    ("qk-bound-without-sqrt-dk", CHAPTER, 229, r"$B := g_qg_k\sqrt{d_k}$", r"$B := g_qg_k$",
     "formula", None),
    ("weight-lower-bound-exponent", CHAPTER, 233, r"(m - 1)e^{2B}}", r"(m - 1)e^{B}}",
     "formula", None),
    ("score-gap-interval", CHAPTER, 243, "$[-2B, 2B]$", "$[-B, B]$",
     "formula", None),

    # ------------------------------------------------------------------ claim
    ("nonzero-scaling-invariance", CHAPTER, 7, "正の定数倍では出力が変わりませんが", "0 でない定数倍では出力が変わりませんが",
     "claim", None),
    ("ln-removes-three-directions", CHAPTER, 8, "層正規化は 2 方向を消しました", "層正規化は 3 方向を消しました",
     "claim", None),
    ("identity-path-post-ln", CHAPTER, 10, "Pre-LN とサンドイッチ型には恒等経路", "Post-LN とサンドイッチ型には恒等経路",
     "claim", None),
    ("qk-score-bound-one", CHAPTER, 11, r"点数の絶対値は $\sqrt{d_k}$ 以下", r"点数の絶対値は $1$ 以下",
     "claim", None),
    ("four-questions", CHAPTER, 25, "次の 3 つの問い", "次の 4 つの問い",
     "claim", None),
    ("output-orthogonal-to-one", CHAPTER, 75, "直交するとは限りません", "つねに直交します",
     "claim", None),
    ("rms-jacobian-full-rank", CHAPTER, 119, "階数は $d - 1$ です", "階数は $d$ です",
     "claim", None),
    ("eigenvalue-comparison-reversed", CHAPTER, 127, "層正規化のほうが大きいか等しく", "層正規化のほうが小さいか等しく",
     "claim", None),
    ("ratio-increasing", CHAPTER, 137, "狭義減少で", "狭義増加で",
     "claim", None),
    ("ln-output-three-points", CHAPTER, 409, "の 2 点だけ", "の 3 点だけ",
     "claim", None),
    ("bound-tight", CHAPTER, 211, "上界よりずっとゆっくりです", "上界とほぼ同じ速さです",
     "claim", None),

    # ------------------------------------------------------------------ structure
    ("proof-3.1-end-deleted", CHAPTER, 73, "∎", "",
     "structure", 60),
    ("proof-4.1-end-deleted", CHAPTER, 151, "∎", "",
     "structure", 140),
    ("proof-5.2-end-deleted", CHAPTER, 191, "∎", "",
     "structure", 183),
    ("duplicated-example-number", CHAPTER, 121, "例 3.4（d = 4", "例 3.2（d = 4",
     "structure", None),
    ("ref-to-missing-proposition", CHAPTER, 109, "（命題 3.1 の 1 の証明）", "（命題 3.5 の 1 の証明）",
     "structure", None),
    ("unpaired-dollar", CHAPTER, 5, "$d_k = 8$ の", "$d_k = 8 の",
     "structure", None),
    ("proof-heading-wrong-number", CHAPTER, 100, "証明（命題 3.3）", "証明（命題 3.4）",
     "structure", None),
    ("proposition-numbered-as-remark", CHAPTER, 173, "命題 5.2（配置と", "命題 5.3（配置と",
     "structure", None),
    ("proposition-kind-changed", CHAPTER, 227, "命題 6.2（QK", "定理 6.2（QK",
     "structure", None),

    # ------------------------------------------------------------------ neutral
    ("reworded-two-things", CHAPTER, 23, "は 2 つのことをしています。", "は 2 つの処理をしています。",
     "neutral", None),
    ("rms-as-slash", CHAPTER, 39, r"= \frac{\|\boldsymbol{x}\|}{\sqrt{d}}$$", r"= \|\boldsymbol{x}\|/\sqrt{d}$$",
     "neutral", None),
    ("inverse-abs-power", CHAPTER, 96, r"= J(\boldsymbol{x})/|a|$", r"= |a|^{-1}J(\boldsymbol{x})$",
     "neutral", None),
    ("d-with-separator", CHAPTER, 421, "$d = 4096$", r"$d = 4{,}096$",
     "neutral", None),
    ("full-width-three", CHAPTER, 25, "次の 3 つの問い", "次の ３ つの問い",
     "neutral", None),
    ("eps-as-fraction", CHAPTER, 413, r"$\varepsilon = 0.5$", r"$\varepsilon = 1/2$",
     "neutral", None),
    ("gamma-half-as-fraction", CHAPTER, 429, r"= 0.5\cdot\boldsymbol{1}$", r"= \tfrac12\cdot\boldsymbol{1}$",
     "neutral", None),
    ("reworded-near-zero-mean", CHAPTER, 75, "平均が 0 に近い入力では 2 つの正規化はほぼ同じ出力を与えます",
     "平均が 0 に近い入力に対しては、2 つの正規化の出力はほぼ同じです", "neutral", None),
    ("thin-space-param-count", CHAPTER, 138, "$(2L + 1)d$ 個減る", r"$(2L + 1)\,d$ 個減る",
     "neutral", None),
    ("sqrt-d-times-l", CHAPTER, 187, r"+ l\sqrt{d}$", r"+ \sqrt{d}\,l$",
     "neutral", None),
]


if __name__ == "__main__":
    import os
    from collections import Counter

    here = os.path.dirname(os.path.abspath(__file__))
    lines = open(os.path.join(here, CHAPTER), encoding="utf-8").read().split("\n")
    bad = 0
    for name, chapter, line, old, new, category, expected in SLIPS:
        n = lines[line - 1].count(old) if 1 <= line <= len(lines) else 0
        if n != 1:
            bad += 1
            print("BAD  %-40s line %d: `old` occurs %d times" % (name, line, n))
    names = Counter(s[0] for s in SLIPS)
    for name, k in names.items():
        if k > 1:
            bad += 1
            print("BAD  duplicated name %s" % name)
    counts = Counter(s[5] for s in SLIPS)
    order = ["prose arithmetic", "rounding", "example number", "table cell", "listing output",
             "formula", "claim", "structure", "neutral"]
    for c in order:
        print("%-18s %3d" % (c, counts.get(c, 0)))
    print("%-18s %3d" % ("total", len(SLIPS)))
    print("all `old` strings occur exactly once on their lines" if not bad else "%d problems" % bad)
