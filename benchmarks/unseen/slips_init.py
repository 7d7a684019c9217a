"""Data: one-slip edits of the chapter init.mdx (重みの初期化と分散の伝播).

Each entry of SLIPS changes ONE line of init.mdx.  A slip puts exactly one
mistake of the kind an author really makes into that line (a mistyped or
mis-copied number, a value rounded by hand the wrong way, a wrong index or
factor in a formula, a reversed claim, a lost closing tag, ...); a "neutral"
edit changes only how something is written and keeps every number and
formula true.

Tuple layout: (name, chapter file name, line, old, new, category, expected line)
  - line      : 1-based line number in init.mdx
  - old       : occurs exactly once on that line; the edit replaces it by new
  - category  : "prose arithmetic", "rounding", "example number", "table cell",
                "listing output", "formula", "claim", "structure" or "neutral"
  - expected  : None when the mistake is visible at the edited line; for a
                structural slip, the line where the broken element opens.

Checked with recompute_init.py on a copy of the chapter in a temporary folder
(the script reads init.mdx beside itself): every slip of the five numeric
categories makes it exit 1 with at least one FAIL line, and so do the count
claims marked "(caught)".  Three of those count claims (claim-count-questions,
claim-count-rules, claim-count-summary) are caught only by a crash: the script
looks the changed sentence up with TEXT.index before checking it and stops
with ValueError (exit 1, no FAIL line).  Formula, wording claim and structure
slips are outside what the script compares (it exits 0 on them).
Neutral edits: the script exits 0 on all of them (none touches a string the
script looks up literally).
"""

CH = "init.mdx"

SLIPS = [
    # ------------------------------------------------------------ prose arithmetic
    # 0.5^12 = 1/4096; 1/2048 is the value after 11 layers
    ("arith-summary-lecun-depth", CH, 11, r"12 層で $1/4{,}096$", r"12 層で $1/2{,}048$", "prose arithmetic", None),
    ("arith-motivation-power", CH, 26, r"$2^{12} = 4{,}096$", r"$2^{12} = 2{,}048$", "prose arithmetic", None),
    # decimal point slipped one place
    ("arith-xavier-w1-variance", CH, 64, r"2/2{,}560 = 0.00078125", r"2/2{,}560 = 0.0078125", "prose arithmetic", None),
    # 512 + 2048 = 2560, digits transposed
    ("arith-xavier-w1-sum", CH, 64, r"2/(512 + 2{,}048) = 2/2{,}560", r"2/(512 + 2{,}048) = 2/2{,}650", "prose arithmetic", None),
    # L = 12 used for the number of additions instead of 2L = 24
    ("arith-preln-additions", CH, 240, r"なら $q_0 + 24$", r"なら $q_0 + 12$", "prose arithmetic", None),
    ("arith-radford-scaled-sd", CH, 240, r"$0.02/\sqrt{24} \approx 0.004082$", r"$0.02/\sqrt{12} \approx 0.004082$", "prose arithmetic", None),
    # digits transposed
    ("arith-tail-prob-2", CH, 322, r"\approx 0.02275$", r"\approx 0.02725$", "prose arithmetic", None),
    # 1024 * 3.167e-5 = 0.03243, decimal point slipped
    ("arith-tail-count-4", CH, 322, r"約 0.03243 個", r"約 0.3243 個", "prose arithmetic", None),

    # ------------------------------------------------------------ rounding
    # sqrt(2/576) = 0.0589256 -> truncated
    ("round-table1-wq-sd", CH, 159, r"| 0.05893 |", r"| 0.05892 |", "rounding", None),
    # 16/9 = 1.77778 -> truncated
    ("round-xavier-head-s", CH, 268, r"16/9 \approx 1.778", r"16/9 \approx 1.777", "rounding", None),
    # 32/9 = 3.55556 -> truncated
    ("round-xavier-ratio", CH, 268, r"3.556 倍違います", r"3.555 倍違います", "rounding", None),
    # e^-1 = 0.367879 -> truncated
    ("round-e-minus-1", CH, 305, r"e^{-1} \approx 0.3679", r"e^{-1} \approx 0.3678", "rounding", None),
    # e^-4 = 0.0183156 -> truncated
    ("round-e-minus-4", CH, 305, r"e^{-4} \approx 0.01832", r"e^{-4} \approx 0.01831", "rounding", None),
    # 1024 e^-0.25 = 797.492 -> truncated
    ("round-table3-xavier1536-neff", CH, 310, r"797.5", r"797.4", "rounding", None),
    # 1/6 = 0.16667 -> truncated
    ("round-table2-share-6", CH, 232, r"0.1667", r"0.1666", "rounding", None),
    # 1024 (1 - Phi(2)) = 23.296 -> truncated
    ("round-tail-count-2", CH, 322, r"約 23.3 個", r"約 23.2 個", "rounding", None),
    # sqrt(6/3840) = 0.0395285 -> truncated
    ("round-exercise-uniform-a", CH, 404, r"\approx 0.03953", r"\approx 0.03952", "rounding", None),
    # 2 Phi(-2.0820) = 0.0373395 -> truncated
    ("round-exercise-prob-s1", CH, 415, r"約 0.03734", r"約 0.03733", "rounding", None),
    # sqrt(6/2560) = 0.048412 -> rounded the wrong way
    ("round-xavier-uniform-edge", CH, 64, r"\approx 0.04841", r"\approx 0.04842", "rounding", None),

    # ------------------------------------------------------------ example number
    # 1.25^11 = 11.64: one factor too few
    ("ex-relu-depth-c25", CH, 124, r"1.25^{12} \approx 14.55", r"1.25^{12} \approx 11.64", "example number", None),
    ("ex-relu-depth-ratio", CH, 124, r"4,096 倍違います", r"2,048 倍違います", "example number", None),
    # decimal point slipped
    ("ex-init-fixed-gain", CH, 164, r"512 \times 0.0004 = 0.2048", r"512 \times 0.0004 = 0.02048", "example number", None),
    # (13/12)^11 = 2.412: one factor too few
    ("ex-residual-scaled-A", CH, 236, r"(13/12)^{12} \approx 2.613", r"(13/12)^{12} \approx 2.412", "example number", None),
    # the theoretical 2.613 copied instead of the simulated 2.607
    ("ex-residual-sim-quote", CH, 236, r"3991.408、2.607、", r"3991.408、2.613、", "example number", None),
    # s^2 = 0.25 written for s = 0.5
    ("ex-score-xavier1536-s", CH, 268, r"で $s = 0.5$", r"で $s = 0.25$", "example number", None),
    # 2/512 = 1/256, not 1/128
    ("ex-score-he-variance", CH, 268, r"2/512 = 1/256", r"2/512 = 1/128", "example number", None),
    # e^3 = 20.09
    ("ex-saturation-ratio", CH, 305, r"約 20 分の 1", r"約 50 分の 1", "example number", None),
    # transposed when copied from the listing (2.28)
    ("ex-saturation-neff-quote", CH, 316, r"平均 2.28", r"平均 2.82", "example number", None),
    ("ex-saturation-jacobian", CH, 316, r"= 0.3057$", r"= 0.3157$", "example number", None),
    # the square forgotten: 0.02282/0.02 = 1.141
    ("ex-uniform-variance-ratio", CH, 404, r"\approx 1.302$", r"\approx 1.141$", "example number", None),
    ("ex-uniform-fixed-gain", CH, 404, r"768 \times 0.0004 = 0.3072", r"768 \times 0.0004 = 0.3027", "example number", None),
    ("ex-two-keys-ratio-s1", CH, 415, r"\approx 2.082$", r"\approx 2.028$", "example number", None),

    # ------------------------------------------------------------ table cell
    # ab = 16/81 * ... = 0.39506; digits transposed
    ("cell-table1-wq-ab", CH, 159, r"| 0.3951 |", r"| 0.3915 |", "table cell", None),
    # He sigma of W_1 uses n_in = 512, not n_out = 2048 (value of the W_2 row)
    ("cell-table1-w1-he", CH, 161, r"| 0.0625 |", r"| 0.03125 |", "table cell", None),
    # the value of the rows above copied into the W_2 row (n_in = 2048 gives 0.8192)
    ("cell-table1-w2-fixed", CH, 162, r"| 0.8192 |", r"| 0.2048 |", "table cell", None),
    # q_0 = 1 forgotten: q_9 = 1 + 9 = 10
    ("cell-table2-B-9", CH, 233, r"| 10 |", r"| 9 |", "table cell", None),
    # 1/13 (q_l) instead of 1/12 (q_{l-1})
    ("cell-table2-share-12", CH, 234, r"| 0.08333 |", r"| 0.07692 |", "table cell", None),
    # the simulated 400.11 copied instead of the limit 1024/e = 376.7
    ("cell-table3-lecun-neff", CH, 311, r"| 376.7 |", r"| 400.1 |", "table cell", None),
    # e^{-3.1605} = 0.04240; digits transposed
    ("cell-table3-xavier64-exp", CH, 312, r"| 0.04240 |", r"| 0.04420 |", "table cell", None),
    # e^-0.04194 = 0.95892; digits transposed
    ("cell-table3-fixed-exp", CH, 309, r"| 0.9589 |", r"| 0.9598 |", "table cell", None),

    # ------------------------------------------------------------ listing output
    ("out-resid-A1-12", CH, 374, r"3991.408", r"3991.480", "listing output", None),
    ("out-resid-B1-9", CH, 376, r" 9.926", r" 9.962", "listing output", None),
    ("out-score-fixed-limit", CH, 379, r"981.94", r"981.49", "listing output", None),
    ("out-score-xavier1536-sd", CH, 380, r"0.5039", r"0.5093", "listing output", None),
    ("out-score-lecun-neff", CH, 381, r"400.11", r"401.11", "listing output", None),
    ("out-score-he-maxw", CH, 383, r"0.1033", r"0.1303", "listing output", None),

    # ------------------------------------------------------------ formula
    # definition: E[x_i]^2 is not the second moment
    ("formula-def-second-moment", CH, 43, r"\sum_{i=1}^{n}E[x_i^2]", r"\sum_{i=1}^{n}E[x_i]^2", "formula", None),
    # definition: He uses the fan-in
    ("formula-def-he", CH, 57, r"\sigma^2_{\mathrm{He}} := \frac{2}{n_{\mathrm{in}}}", r"\sigma^2_{\mathrm{He}} := \frac{2}{n_{\mathrm{out}}}", "formula", None),
    # definition: uniform Xavier edge is sqrt(6/(n_in + n_out)) (= sqrt(3) sigma)
    ("formula-def-xavier-uniform", CH, 60, r"$a = \sqrt{6/(n_", r"$a = \sqrt{3/(n_", "formula", None),
    # lemma: u_i need not have mean 0, so E[u_i^2] is needed
    ("formula-lemma-sum", CH, 72, r"\tau_i^2\, E[u_i^2]$ が", r"\tau_i^2\, E[u_i]^2$ が", "formula", None),
    # proposition: forward gain uses the fan-in
    ("formula-prop-linear-gain", CH, 90, r"$q(\boldsymbol{y}) = n_{\mathrm{in}}\sigma^2\, q", r"$q(\boldsymbol{y}) = n_{\mathrm{out}}\sigma^2\, q", "formula", None),
    # proposition: the product uses the fan-in n_{l-1}
    ("formula-prop-relu-product", CH, 106, r"\frac{n_{l-1}\sigma_l^2}{2}", r"\frac{n_{l}\sigma_l^2}{2}", "formula", None),
    # proposition: ab = 4 n_in n_out / (n_in + n_out)^2
    ("formula-prop-xavier-ab", CH, 135, r"$ab = 4n_{\mathrm{in}}", r"$ab = 2n_{\mathrm{in}}", "formula", None),
    # proposition: the branch has fan-in m
    ("formula-prop-residual", CH, 174, r"+ m\tau^2\, q\big(", r"+ d\tau^2\, q\big(", "formula", None),
    # proof step: the cross term has a factor 2
    ("formula-proof-residual-cross", CH, 183, r"+ 2E\big[\langle", r"+ E\big[\langle", "formula", None),
    # corollary: L multiplications, not L - 1
    ("formula-cor-model-A", CH, 202, r"(1 + s^2)^L q_0", r"(1 + s^2)^{L-1} q_0", "formula", None),
    # proposition: the sqrt(d_k) division cancels the factor d_k
    ("formula-prop-score-var", CH, 248, r"\big) = \sigma_Q^2\sigma_K^2\,", r"\big) = d_k\,\sigma_Q^2\sigma_K^2\,", "formula", None),
    # proposition: the limit is e^{-s^2}
    ("formula-prop-neff-limit", CH, 279, r"/n \to e^{-s^2}$", r"/n \to e^{-s^2/2}$", "formula", None),
    # proof step: E[e^{2Z}] = e^{2 s^2}
    ("formula-proof-Bn-limit", CH, 299, r"$B_n \to e^{2s^2}$", r"$B_n \to e^{s^2}$", "formula", None),
    # prose formula: q_{l-1} = q_0 + (l - 1)s^2
    ("formula-share-index", CH, 222, r"s^2/(q_0 + (l - 1)s^2)", r"s^2/(q_0 + ls^2)", "formula", None),

    # ------------------------------------------------------------ claim
    # the product ab is at most 1, the sum is exactly 2
    ("claim-summary-xavier-sum", CH, 11, r"倍率の和を 2 にする", r"倍率の積を 1 にする", "claim", None),
    ("claim-summary-linear-growth", CH, 12, r"と線形に", r"と 2 次的に", "claim", None),
    ("claim-summary-score-dk", CH, 13, r"$d_k$ によりません", r"$\sqrt{d_k}$ に比例します", "claim", None),
    # (caught) the list has 3 items
    ("claim-count-questions", CH, 28, r"次の 3 つの問い", r"次の 4 つの問い", "claim", None),
    # (caught) the display defines 4 rules
    ("claim-count-rules", CH, 54, r"次の 4 つを考える", r"次の 3 つを考える", "claim", None),
    ("claim-forward-gain-fanout", CH, 128, r"$n_{\mathrm{out}}$ によりません", r"$n_{\mathrm{out}}$ に比例します", "claim", None),
    ("claim-xavier-ab-bound", CH, 135, r"^2 \le 1$", r"^2 \ge 1$", "claim", None),
    # (caught) W_Q, W_O, W_1 have n_in = 512
    ("claim-count-fanin-512", CH, 164, r"の 3 つの行列", r"の 2 つの行列", "claim", None),
    ("claim-cor-bound-L", CH, 204, r"$L$ によらない値で抑えられる", r"$L$ に比例する値で抑えられる", "claim", None),
    ("claim-share-monotone", CH, 222, r"深い層ほど小さくなります", r"深い層ほど大きくなります", "claim", None),
    ("claim-neff-equality-case", CH, 278, r"が一様なときに限る", r"が 1 点に集中するときに限る", "claim", None),
    ("claim-finite-n-direction", CH, 322, r"見積もりより大きく出やすく", r"見積もりより小さく出やすく", "claim", None),
    # (caught) the l = 12 value of A with s^2 = 1/12 is 2.607
    ("claim-listing-bound-3", CH, 389, r"どちらも 3 未満", r"どちらも 2 未満", "claim", None),
    # (caught) 0.5039 / 0.5 - 1 = 0.78 %
    ("claim-listing-tolerance", CH, 390, r"1 % 以内", r"0.1 % 以内", "claim", None),
    # (caught) the sentence lists three facts
    ("claim-count-summary", CH, 394, r"確かめたことは 3 つです", r"確かめたことは 4 つです", "claim", None),

    # ------------------------------------------------------------ structure
    ("struct-drop-close-prop-linear", CH, 92, r"</Proposition>", r"", "structure", 88),
    ("struct-drop-close-proof-relu", CH, 120, r"</Proof>", r"", "structure", 110),
    ("struct-drop-close-example-relu", CH, 126, r"</Example>", r"", "structure", 122),
    ("struct-drop-close-prop-score", CH, 250, r"</Proposition>", r"", "structure", 246),
    ("struct-drop-close-proof-neff", CH, 301, r"</Proof>", r"", "structure", 283),
    ("struct-drop-close-solution", CH, 406, r"</Solution>", r"", "structure", 402),
    # the proposition has only items 1 and 2
    ("struct-ref-missing-item", CH, 164, r'prop-xavier-compromise" /> の 2', r'prop-xavier-compromise" /> の 3', "structure", None),
    # the corollary is "cor-...", there is no "prop-residual-growth"
    ("struct-ref-wrong-id", CH, 226, r'<Ref to="cor-residual-growth" />', r'<Ref to="prop-residual-growth" />', "structure", None),
    # duplicated id (the first exercise already has it)
    ("struct-duplicate-id", CH, 409, r'id="exr-two-keys"', r'id="exr-uniform-xavier"', "structure", None),
    # kind changed at the opening tag; the closing tag stays </Corollary>
    ("struct-kind-changed", CH, 198, r"<Corollary id=", r"<Proposition id=", "structure", None),
    ("struct-unpaired-dollar", CH, 196, r"$W_l$ が平均 0", r"$W_l が平均 0", "structure", None),
    # section number duplicated (section 5 already exists)
    ("struct-heading-number", CH, 272, r"## 6. softmax", r"## 5. softmax", "structure", None),

    # ------------------------------------------------------------ neutral
    ("neutral-reword-motivation", CH, 8, r"層を 12 回通ったあとの値が", r"12 層を通り抜けたあとの値が", "neutral", None),
    ("neutral-summary-factor-order", CH, 12, r"$(1 + s^2)^L q_0$", r"$q_0(1 + s^2)^L$", "neutral", None),
    ("neutral-cdot-times", CH, 124, r"$512 \cdot (c/512)/2 = c/2$", r"$512 \times (c/512)/2 = c/2$", "neutral", None),
    ("neutral-amgm-fraction", CH, 146, r"ab \le \Big(\frac{a + b}{2}\Big)^2 = 1", r"ab \le \frac{(a + b)^2}{4} = 1", "neutral", None),
    ("neutral-fraction-for-decimal", CH, 164, r"前向きに $0.4$ 倍", r"前向きに $2/5$ 倍", "neutral", None),
    ("neutral-table-thousands", CH, 161, r"| 512 | 2048 |", r"| 512 | 2,048 |", "neutral", None),
    ("neutral-ln-for-log-inequality", CH, 214, r"$\log(1 + t) < t$", r"$\ln(1 + t) < t$", "neutral", None),
    ("neutral-ln-for-log-display", CH, 217, r"L\log\Big(1", r"L\ln\Big(1", "neutral", None),
    ("neutral-expand-factor", CH, 210, r"= (1 + s^2)q_{l-1}$", r"= q_{l-1} + q_{l-1}s^2 = (1 + s^2)q_{l-1}$", "neutral", None),
    ("neutral-math-spacing", CH, 81, r"\sum_{i \ne j} 0 \cdot E[u_iu_j]", r"\sum_{i\ne j}0\cdot E[u_iu_j]", "neutral", None),
    ("neutral-fullwidth-digit", CH, 30, r"（3 節）", r"（３ 節）", "neutral", None),
    ("neutral-no-thousands-separator", CH, 305, r"$n = 1{,}024$ での", r"$n = 1024$ での", "neutral", None),
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
