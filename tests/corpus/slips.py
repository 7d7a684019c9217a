# ruff: noqa: E501 - the edits are lines of TeX and Japanese, kept whole so that they read as written
"""One-slip edits of the corpus chapters: data only.

Each edit is (name, chapter file, line number, old text, new text, category, expected
line of the finding or None for the same line). Applying an edit replaces the one
occurrence of `old` on that 1-based line of the chapter file (in this directory) by
`new`; the result is the chapter with exactly one slip (or, for the category
"neutral", with the same mathematics written differently: an audit should report
nothing new).

Categories:
    prose arithmetic  an equality of the prose or display math made false
    rounding          a printed value off by one unit in its last digit (often the
                      truncated value instead of the rounded one)
    example numbers   a number of an example's or exercise's worked computation
    table cell        one cell of a table
    listing output    one number of a listing's printed output
    proof chain       one step of a chain of equalities in a proof made false
    claim number      a number or bound that a statement or a sentence claims
    structure         a missing closing tag or end of proof, a duplicated element heading
                      or id, an unpaired $, a dangling reference, a changed kind
    neutral           a reworded sentence that keeps its numbers, 1,024 for 1024, an
                      equivalent formula, spacing in math, a full-width digit

The expected line of a structural slip is where the broken element opens when that is
not the edited line (a closing tag deleted: the opening tag's line; the end of a proof
deleted: the proof's heading).
"""

INFERENCE = [
    # prose arithmetic
    ("cached-step-sum", "inference.mdx", 214, "1{,}572{,}864 = 8{,}650{,}752", "1{,}572{,}864 = 8{,}650{,}762", "prose arithmetic", None),
    ("recomputed-step", "inference.mdx", 214, "= 8{,}858{,}370{,}048", "= 8{,}858{,}370{,}148", "prose arithmetic", None),
    ("generation-total", "inference.mdx", 214, "806{,}092{,}800 = 8{,}053{,}850{,}112", "806{,}092{,}800 = 8{,}053{,}850{,}012", "prose arithmetic", None),
    ("per-token-numbers", "inference.mdx", 218, r"2 \times 12 \times 768 = 18{,}432", r"2 \times 12 \times 768 = 18{,}423", "prose arithmetic", None),
    ("per-token-bytes", "inference.mdx", 218, r"2 \times 18{,}432 = 36{,}864", r"2 \times 18{,}432 = 36{,}846", "prose arithmetic", None),
    ("seven-sequences", "inference.mdx", 227, r"7 \times 18{,}874{,}368 = 132{,}120{,}576", r"7 \times 18{,}874{,}368 = 132{,}120{,}567", "prose arithmetic", None),
    ("shared-heads-division", "inference.mdx", 233, "18{,}874{,}368/12 = 1{,}572{,}864", "18{,}874{,}368/12 = 1{,}572{,}846", "prose arithmetic", None),
    ("batch-mib", "inference.mdx", 423, r"8 \times 192 = 1536", r"8 \times 192 = 1546", "prose arithmetic", None),
    ("reciprocal-mean", "inference.mdx", 271, "(2 + 4 + 8 + 2)/4 = 4", "(2 + 4 + 8 + 2)/4 = 5", "prose arithmetic", None),
    ("mixture-mean", "inference.mdx", 434, "(1.25 + 20 + 1.25 + 20)/4 = 10.625", "(1.25 + 20 + 1.25 + 20)/4 = 10.652", "prose arithmetic", None),
    ("exercise-numbers", "inference.mdx", 423, r"2 \times 24 \times 2048 \times 1024 = 100{,}663{,}296", r"2 \times 24 \times 2048 \times 1024 = 100{,}663{,}926", "prose arithmetic", None),
    ("greedy-product", "inference.mdx", 123, r"0.6 \times 0.5 = 0.30", r"0.6 \times 0.5 = 0.35", "prose arithmetic", None),
    # rounding
    ("e-truncated", "inference.mdx", 71, r"e^{1} \approx 2.7183", r"e^{1} \approx 2.7182", "rounding", None),
    ("bound-last-digit", "inference.mdx", 107, r"e^{-2} \approx 0.1353", r"e^{-2} \approx 0.1354", "rounding", None),
    ("temperature-for-0.9", "inference.mdx", 412, r"\approx 0.4551", r"\approx 0.4552", "rounding", None),
    ("nll-last-digit", "inference.mdx", 271, r"\log 2 \approx 1.2130", r"\log 2 \approx 1.2131", "rounding", None),
    ("share-percent", "inference.mdx", 218, "約 15.2 %", "約 15.1 %", "rounding", None),
    ("sigmoid-truncated", "inference.mdx", 412, r"\approx 0.6225", r"\approx 0.6224", "rounding", None),
    ("log5-last-digit", "inference.mdx", 434, r"\log 5 \approx 1.6094", r"\log 5 \approx 1.6095", "rounding", None),
    ("denominator-from-rounded", "inference.mdx", 119, r"\approx 12.1239", r"\approx 12.1240", "rounding", None),
    # example numbers
    ("p2-transposed", "inference.mdx", 161, "= (0.6095, 0.2242, 0.1360, 0.0303)", "= (0.6095, 0.2424, 0.1360, 0.0303)", "example numbers", None),
    ("top-k-second", "inference.mdx", 163, r"(0.7311,\ 0.2689,\ 0,\ 0)", r"(0.7311,\ 0.2698,\ 0,\ 0)", "example numbers", None),
    ("top-p-first", "inference.mdx", 164, r"(0.6285,\ 0.2312", r"(0.6258,\ 0.2312", "example numbers", None),
    ("top-p-size", "inference.mdx", 164, "$k(0.9) = 3$", "$k(0.9) = 2$", "example numbers", None),
    ("temperature-max", "inference.mdx", 119, "から 0.8420 に上がり", "から 0.8240 に上がり", "example numbers", None),
    ("top-p-cumulative", "inference.mdx", 169, "$0.6979$", "$0.6997$", "example numbers", None),
    ("sigmoid-half", "inference.mdx", 412, r"\approx 0.8808", r"\approx 0.8880", "example numbers", None),
    ("kept-mass", "inference.mdx", 163, "$P(S) = 0.8337$", "$P(S) = 0.8373$", "example numbers", None),
    ("perplexity-mixture", "inference.mdx", 434, "0.0016^{-1/4} = 5", "0.0016^{-1/4} = 4", "example numbers", None),
    # table cell
    ("table-p2", "inference.mdx", 115, "| 0.1140 |", "| 0.1104 |", "table cell", None),
    ("table-entropy", "inference.mdx", 116, "| 1.0144 |", "| 1.0414 |", "table cell", None),
    ("table-p3", "inference.mdx", 117, "| 0.2052 |", "| 0.2025 |", "table cell", None),
    ("table-total", "inference.mdx", 222, "| 2,359,296 |", "| 2,359,269 |", "table cell", None),
    ("table-mib", "inference.mdx", 224, "| 18.0 |", "| 16.0 |", "table cell", None),
    ("table-ratio", "inference.mdx", 225, "| 0.1517 |", "| 0.1571 |", "table cell", None),
    ("table-per-layer", "inference.mdx", 223, "| 393,216 |", "| 393,126 |", "table cell", None),
    # listing output
    ("output-temperature", "inference.mdx", 344, "T=0.5  p = 0.8420", "T=0.5  p = 0.8402", "listing output", None),
    ("output-distance", "inference.mdx", 347, "TV = 0.1663", "TV = 0.1636", "listing output", None),
    ("output-cache-count", "inference.mdx", 350, "cached numbers: 768", "cached numbers: 786", "listing output", None),
    ("output-table-row", "inference.mdx", 390, "  128   196608", "  128   196806", "listing output", None),
    ("output-ratio", "inference.mdx", 394, "ratio 1024", "ratio 1042", "listing output", None),
    ("output-perplexity", "inference.mdx", 395, "perplexity 3.3636", "perplexity 3.6336", "listing output", None),
    ("output-frequency", "inference.mdx", 387, "frequencies 0.6098", "frequencies 0.6089", "listing output", None),
    ("output-max-diff", "inference.mdx", 349, "max diff 2.4e-15", "max diff 2.4e-05", "listing output", None),
    # proof chain
    ("entropy-derivative", "inference.mdx", 100, r"= \mu - \mu - \beta\,\frac{d\mu}{d\beta}", r"= \mu + \mu - \beta\,\frac{d\mu}{d\beta}", "proof chain", None),
    ("distance-sum", "inference.mdx", 152, "(1 - P(S)) + (1 - P(S)) = 2(1 - P(S))", "(1 - P(S)) + (1 - P(S)) = 2(1 + P(S))", "proof chain", None),
    ("gauss-sum", "inference.mdx", 209, r"2d \cdot \frac{N(N+1)}{2}", r"2d \cdot \frac{N(N-1)}{2}", "proof chain", None),
    ("perplexity-power", "inference.mdx", 263, r"\exp\big(\log \prod_i p_i^{-1/N}\big)", r"\exp\big(\log \prod_i p_i^{-N}\big)", "proof chain", None),
    ("entropy-identity", "inference.mdx", 97, r"= \log Z - \beta \mu$", r"= \log Z + \beta \mu$", "proof chain", None),
    ("ratio-exponent", "inference.mdx", 67, "= e^{(z_j - z_k)/T}$ です", "= e^{(z_j + z_k)/T}$ です", "proof chain", None),
    ("log-partition-derivative", "inference.mdx", 97, r"e^{\beta z_j} = \mu$ で", r"e^{\beta z_j} = \mu^2$ で", "proof chain", None),
    ("cache-count-heads", "inference.mdx", 202, r"$2i\,hd_k = 2id$", r"$2i\,hd_k = 2i^2d$", "proof chain", None),
    # claim number
    ("exactly-i-times", "inference.mdx", 193, "ちょうど前者の $i$ 倍", "ちょうど前者の $2i$ 倍", "claim number", None),
    ("cache-size", "inference.mdx", 192, "$2Lid$ 個の数からなる", "$Lid$ 個の数からなる", "claim number", None),
    ("seven-or-more", "inference.mdx", 227, "7 本以上", "6 本以上", "claim number", None),
    ("one-twelfth", "inference.mdx", 233, "12 分の 1", "6 分の 1", "claim number", None),
    ("about-530", "inference.mdx", 214, "約 530 倍", "約 350 倍", "claim number", None),
    ("limit-ties", "inference.mdx", 77, r"p_j(T) \to 1/|U|", r"p_j(T) \to 1/|V|", "claim number", None),
    ("top-k-bound", "inference.mdx", 135, "top-k では $1 - k/|V|$ 以下", "top-k では $k/|V|$ 以下", "claim number", None),
    ("summary-one-over-i", "inference.mdx", 12, "ちょうど $1/i$ です", "ちょうど $1/i^2$ です", "claim number", None),
    ("uniform-perplexity", "inference.mdx", 257, r"では $\mathrm{PPL} = |V|$ である", r"では $\mathrm{PPL} = |V|^2$ である", "claim number", None),
    ("frequency-gap", "inference.mdx", 398, "差はどれも 0.002 以下です", "差はどれも 0.001 以下です", "claim number", None),
    ("grouped-mib", "inference.mdx", 423, "8 本で 384 MiB", "8 本で 768 MiB", "claim number", None),
    # structure
    ("missing-close-proposition", "inference.mdx", 196, "</Proposition>", "", "structure", 187),
    ("missing-close-proof", "inference.mdx", 157, "</Proof>", "", "structure", 139),
    ("duplicated-id", "inference.mdx", 159, '<Example id="ex-truncation"', '<Example id="ex-temperature-table"', "structure", None),
    ("unpaired-dollar", "inference.mdx", 161, "$T = 1$ の分布", "$T = 1 の分布", "structure", None),
    ("dangling-ref", "inference.mdx", 119, '（<Ref to="lem-temperature-ratio" />）', '（<Ref to="lem-temperature-ratios" />）', "structure", None),
    ("proof-of-unknown", "inference.mdx", 261, '<Proof of="prop-perplexity">', '<Proof of="prop-perplexities">', "structure", None),
    ("kind-changed", "inference.mdx", 59, '<Lemma id="lem-temperature-ratio"', '<Proposition id="lem-temperature-ratio"', "structure", None),
    # neutral
    ("grouped-1024", "inference.mdx", 218, "文脈長いっぱいの $n = 1024$", "文脈長いっぱいの $n = 1{,}024$", "neutral", None),
    ("chain-expanded", "inference.mdx", 209, "= 12Nd^2 + N(N+1)d .", "= 12Nd^2 + N^2d + Nd .", "neutral", None),
    ("statement-expanded", "inference.mdx", 194, "キャッシュつきで $12Nd^2 + N(N+1)d$ である", "キャッシュつきで $12Nd^2 + (N^2 + N)d$ である", "neutral", None),
    ("terms-reordered", "inference.mdx", 193, "キャッシュつきで $12d^2 + 2id$、長さ", "キャッシュつきで $2id + 12d^2$、長さ", "neutral", None),
    ("approx-spacing", "inference.mdx", 71, r"$e^{2} \approx 7.3891$", r"$e^{2}\approx  7.3891$", "neutral", None),
    ("full-width-digit", "inference.mdx", 227, "1 本の列なら", "１ 本の列なら", "neutral", None),
    ("reworded-problems", "inference.mdx", 28, "そこで問題が 2 つ生まれます。", "ここで問題が 2 つ出てきます。", "neutral", None),
    ("reworded-cache", "inference.mdx", 173, "変わらない値を保存して使い回すのが KV キャッシュです。", "変わらない値を保存しておいて使い回す方法が KV キャッシュです。", "neutral", None),
    ("distance-expanded", "inference.mdx", 152, "= 2(1 - P(S)).", "= 2 - 2P(S).", "neutral", None),
    ("perplexity-reciprocal", "inference.mdx", 255, r"$\mathrm{PPL} = \big(\prod_{i=1}^{N} p_i\big)^{-1/N}$", r"$\mathrm{PPL} = 1/\big(\prod_{i=1}^{N} p_i\big)^{1/N}$", "neutral", None),
    ("power-braces", "inference.mdx", 434, "$(0.2^4)^{-1/4} = 5$", "$(0.2^{4})^{-1/4} = 5$", "neutral", None),
    ("ln-for-log", "inference.mdx", 271, r"$\log 2 \approx 0.6931$", r"$\ln 2 \approx 0.6931$", "neutral", None),
]

TRAINING = [
    # prose arithmetic
    ("lse-minus-two", "training.txt", 99, "2.4644 - 2 = 0.4644", "2.4644 - 2 = 0.4664", "prose arithmetic", None),
    ("l1-norm", "training.txt", 103, "2(1 - 0.62853) = 0.74294", "2(1 - 0.62853) = 0.74924", "prose arithmetic", None),
    ("wrong-answer-loss", "training.txt", 103, "2.4644 - 1 = 1.4644", "2.4644 - 1 = 1.4464", "prose arithmetic", None),
    ("gap-37", "training.txt", 127, r"4 \times 0.9/0.1) = \log 37", r"4 \times 0.9/0.1) = \log 38", "prose arithmetic", None),
    ("gap-vocabulary", "training.txt", 127, r"= \log 452{,}314", r"= \log 452{,}341", "prose arithmetic", None),
    ("peak-product", "training.txt", 162, r"1/\sqrt{512 \times 4000} = 1/\sqrt{2{,}048{,}000}", r"1/\sqrt{512 \times 4000} = 1/\sqrt{2{,}480{,}000}", "prose arithmetic", None),
    ("smoothed-target", "training.txt", 336, "1 - 0.1 + 0.01 = 0.91", "1 - 0.1 + 0.01 = 0.92", "prose arithmetic", None),
    ("entropy-sum", "training.txt", 336, "0.0858 + 0.4145 = 0.5003", "0.0858 + 0.4145 = 0.5030", "prose arithmetic", None),
    ("adam-m2", "training.txt", 344, r"0.9 \times 0.1 + 0.1 \times (-1) = -0.01", r"0.9 \times 0.1 + 0.1 \times (-1) = -0.1", "prose arithmetic", None),
    ("adam-v2", "training.txt", 344, r"0.999 \times 0.001 + 0.001 \times 1 = 0.001999", r"0.999 \times 0.001 + 0.001 \times 1 = 0.001899", "prose arithmetic", None),
    ("sqrt-ten", "training.txt", 227, r"0.1/\sqrt{0.001} = \sqrt{10}", r"0.1/\sqrt{0.001} = \sqrt{100}", "prose arithmetic", None),
    # rounding
    ("log-max-double", "training.txt", 70, r"\approx 709.78", r"\approx 709.79", "rounding", None),
    ("e-truncated", "training.txt", 95, r"e^{1} \approx 2.7183", r"e^{1} \approx 2.7182", "rounding", None),
    ("lse-truncated", "training.txt", 99, r"\log 1.5910 \approx 2.4644", r"\log 1.5910 \approx 2.4643", "rounding", None),
    ("log37-last-digit", "training.txt", 127, r"\log 37 \approx 3.6109", r"\log 37 \approx 3.6110", "rounding", None),
    ("sqrt-last-digit", "training.txt", 162, r"\approx 1431.08", r"\approx 1431.09", "rounding", None),
    ("power-truncated", "training.txt", 227, r"0.999^{1000} \approx 0.3677", r"0.999^{1000} \approx 0.3676", "rounding", None),
    ("logistic-last-digit", "training.txt", 328, r"\approx 0.1269", r"\approx 0.1268", "rounding", None),
    ("log91-truncated", "training.txt", 336, r"\log 91 \approx 4.5109", r"\log 91 \approx 4.5108", "rounding", None),
    ("percent-last-digit", "training.txt", 178, "最大値の 77.5 %", "最大値の 77.4 %", "rounding", None),
    # example numbers
    ("softmax-middle", "training.txt", 97, r"(0.2312,\ 0.6285,\ 0.1402)", r"(0.2312,\ 0.6258,\ 0.1402)", "example numbers", None),
    ("gradient-middle", "training.txt", 101, r"(0.2312,\ -0.3715,\ 0.1402)", r"(0.2312,\ -0.3751,\ 0.1402)", "example numbers", None),
    ("step-middle", "training.txt", 103, r"(0.7688,\ 2.3715", r"(0.7688,\ 2.3751", "example numbers", None),
    ("loss-after-step", "training.txt", 103, "0.4644 から 0.2890 に", "0.4644 から 0.2980 に", "example numbers", None),
    ("smoothing-minimum", "training.txt", 127, r"\approx 0.3488", r"\approx 0.3848", "example numbers", None),
    ("logistic-wrong-class", "training.txt", 328, r"\approx 2.1269", r"\approx 2.1296", "example numbers", None),
    ("logistic-gradient", "training.txt", 328, r"(-0.1192,\ 0.1192)", r"(-0.1192,\ 0.1129)", "example numbers", None),
    ("adam-second-step", "training.txt", 344, r"\approx -0.0526$", r"\approx -0.0562$", "example numbers", None),
    ("unsmoothed-loss", "training.txt", 336, r"\approx 0.0943", r"\approx 0.0934", "example numbers", None),
    # table cell
    ("warmup-cell", "training.txt", 169, '\t1.500\t', '\t1.550\t', "table cell", None),
    ("decay-cell", "training.txt", 172, '\t5.837\t', '\t5.873\t', "table cell", None),
    ("inverse-sqrt-cell", "training.txt", 173, '\t4.941', '\t4.914', "table cell", None),
    ("final-inverse-sqrt", "training.txt", 176, '\t3.125', '\t3.215', "table cell", None),
    ("adam-uncorrected-cell", "training.txt", 222, '\t4.2496', '\t4.2469', "table cell", None),
    ("adam-beta2-cell", "training.txt", 224, '\t0.095208\t', '\t0.095280\t', "table cell", None),
    ("adam-beta1-cell", "training.txt", 223, '\t0.6513\t', '\t0.6531\t', "table cell", None),
    # listing output
    ("output-loss", "training.txt", 293, "loss 0.4644  grad", "loss 0.4646  grad", "listing output", None),
    ("output-lse", "training.txt", 295, "LSE 1002.4644", "LSE 1002.4464", "listing output", None),
    ("output-gap", "training.txt", 296, "best gap 3.6109", "best gap 3.6190", "listing output", None),
    ("output-ratio", "training.txt", 300, "ratio 0.9729", "ratio 0.9792", "listing output", None),
    ("output-third-step", "training.txt", 306, "4.2496 4.9502", "4.2496 4.9520", "listing output", None),
    ("output-second-step", "training.txt", 307, "second step -0.0526", "second step -0.0562", "listing output", None),
    ("output-fd-error", "training.txt", 294, "max error 9.7e-11", "max error 9.7e-01", "listing output", None),
    ("output-cosine", "training.txt", 302, "cosine 3.300e-4", "cosine 3.030e-4", "listing output", None),
    # proof chain
    ("lse-linearity", "training.txt", 63, r"\sum_j q_j - \sum_j q_j z_j", r"\sum_j q_j + \sum_j q_j z_j", "proof chain", None),
    ("l1-chain", "training.txt", 85, "(1 - p_y) + (1 - p_y) = 2(1 - p_y)", "(1 - p_y) + (1 - p_y) = 2(1 + p_y)", "proof chain", None),
    ("gibbs-end", "training.txt", 117, "= 1 - 1 = 0$$", "= 1 - 1 = 1$$", "proof chain", None),
    ("cosine-average", "training.txt", 154, r"= \frac{\eta_{\max} + \eta_{\min}}{2}$$", r"= \frac{\eta_{\max} - \eta_{\min}}{2}$$", "proof chain", None),
    ("geometric-sum", "training.txt", 207, r"\cdot\frac{1 - \beta_1^t}{1 - \beta_1}", r"\cdot\frac{1 - \beta_1^{t+1}}{1 - \beta_1}", "proof chain", None),
    ("gradient-sum", "training.txt", 83, r"\sum_j p_j - \sum_j q_j = 1 - 1 = 0", r"\sum_j p_j + \sum_j q_j = 1 - 1 = 0", "proof chain", None),
    ("antiderivative", "training.txt", 156, r"\sin\pi - \sin 0 = 0", r"\cos\pi - \cos 0 = 0", "proof chain", None),
    ("expectation-chain", "training.txt", 212, r"\beta_1^{t-s}\mu = (1 - \beta_1^t)\mu", r"\beta_1^{t-s}\mu = (1 - \beta_1^{t-1})\mu", "proof chain", None),
    # claim number
    ("l1-bound", "training.txt", 77, r"= 2(1 - p_y) \le 2$", r"= 2(1 - p_y) \le 1$", "claim number", None),
    ("adam-peak-step", "training.txt", 227, "$t = 12$ で最大の約 6.57", "$t = 10$ で最大の約 6.57", "claim number", None),
    ("lag-beta1", "training.txt", 231, "なら 9 ステップ前", "なら 10 ステップ前", "claim number", None),
    ("lag-vaswani", "training.txt", 231, "平均は 49 ステップ前", "平均は 50 ステップ前", "claim number", None),
    ("half-at-4w", "training.txt", 162, "最大値のちょうど半分", "最大値のちょうど 4 分の 1", "claim number", None),
    ("overflow-threshold", "training.txt", 70, "成分が 710 を超えると", "成分が 310 を超えると", "claim number", None),
    ("peak-value", "training.txt", 148, "での値 $(dW)^{-1/2}$ である", "での値 $(dW)^{-1}$ である", "claim number", None),
    ("optimal-gap", "training.txt", 110, r"$z_y - z_j = \log\big(1 + |V|(1 - \varepsilon)/\varepsilon\big)$ である", r"$z_y - z_j = \log\big(|V|(1 - \varepsilon)/\varepsilon\big)$ である", "claim number", None),
    ("three-times", "training.txt", 227, "学習率の 3 倍以上動きます", "学習率の 4 倍以上動きます", "claim number", None),
    # structure
    ("duplicated-heading", "training.txt", 216, "例 5.3（補正しないと", "例 4.3（補正しないと", "structure", None),
    ("renumbered", "training.txt", 105, "命題 3.4（ラベル平滑化", "命題 3.5（ラベル平滑化", "structure", None),
    ("unpaired-dollar", "training.txt", 332, r"$\varepsilon = 0.1$ のラベル平滑化で", r"$\varepsilon = 0.1 のラベル平滑化で", "structure", None),
    ("proof-of-wrong-element", "training.txt", 80, "証明（命題 3.2）", "証明（命題 3.3）", "structure", None),
    ("dangling-number", "training.txt", 9, "になります（命題 3.4）。", "になります（命題 3.6）。", "structure", None),
    ("missing-end-of-proof", "training.txt", 68, "∎", "", "structure", 59),
    ("duplicated-exercise", "training.txt", 338, "演習 8.3標準", "演習 8.2標準", "structure", None),
    # neutral
    ("ungrouped-vocabulary", "training.txt", 127, "語彙が 50,257 なら", "語彙が 50257 なら", "neutral", None),
    ("terms-reordered", "training.txt", 55, r"$\ell(\boldsymbol{z}, y) = \mathrm{LSE}(\boldsymbol{z}) - z_y$。", r"$\ell(\boldsymbol{z}, y) = -z_y + \mathrm{LSE}(\boldsymbol{z})$。", "neutral", None),
    ("chain-expanded", "training.txt", 85, "= 2(1 - p_y) .$$", "= 2 - 2p_y .$$", "neutral", None),
    ("product-spacing", "training.txt", 162, r"1/\sqrt{512 \times 4000}", r"1/\sqrt{512\times4000}", "neutral", None),
    ("reworded-learning", "training.txt", 23, "学習とは、正解の次のトークンに大きな確率を与えるようにパラメータを動かすことです。", "学習とは、正解の次のトークンにより大きな確率を割り当てるようにパラメータを調整することです。", "neutral", None),
    ("reworded-gradient", "training.txt", 91, r"ヘッセ行列は $\boldsymbol{q}$ に依らないので、ラベル平滑化をしてもしなくても同じです。", r"ヘッセ行列は $\boldsymbol{q}$ を含まないので、ラベル平滑化の有無で変わりません。", "neutral", None),
    ("full-width-digit", "training.txt", 25, "1 本の列から得られる予測の数は", "１ 本の列から得られる予測の数は", "neutral", None),
    ("geometric-terms", "training.txt", 207, r"(1 + \beta_1 + \cdots + \beta_1^{t-1})", r"(1 + \beta_1 + \beta_1^2 + \cdots + \beta_1^{t-1})", "neutral", None),
    ("ln-for-log", "training.txt", 328, r"\log(1 + e^{-2}) \approx 0.1269", r"\ln(1 + e^{-2}) \approx 0.1269", "neutral", None),
    ("fraction-spacing", "training.txt", 178, r"$\cos(\pi/3) = 0.5$", r"$\cos(\pi / 3) = 0.5$", "neutral", None),
    ("cdot-for-times", "training.txt", 336, r"9 \times 0.01\log 0.01", r"9 \cdot 0.01\log 0.01", "neutral", None),
    ("frac-for-slash", "training.txt", 231, r"その平均は $\beta/(1 - \beta)$ ステップ前", r"その平均は $\frac{\beta}{1 - \beta}$ ステップ前", "neutral", None),
]

SLIPS = INFERENCE + TRAINING

CATEGORIES = ("prose arithmetic", "rounding", "example numbers", "table cell", "listing output",
              "proof chain", "claim number", "structure", "neutral")


if __name__ == "__main__":
    import sys
    from collections import Counter
    from pathlib import Path

    here = Path(__file__).resolve().parent
    problems = []
    for chapter, edits in (("inference.mdx", INFERENCE), ("training.txt", TRAINING)):
        lines = (here / chapter).read_text(encoding="utf-8").split("\n")
        names = Counter(edit[0] for edit in edits)
        problems += [f"{chapter}: name {n!r} used {k} times" for n, k in names.items() if k > 1]
        for name, file, line, old, new, category, expect in edits:
            where = f"{chapter}:{line} {name}"
            if file != chapter:
                problems.append(f"{where}: listed under {chapter} but names {file}")
            if category not in CATEGORIES:
                problems.append(f"{where}: unknown category {category!r}")
            if not 1 <= line <= len(lines):
                problems.append(f"{where}: no such line")
                continue
            count = lines[line - 1].count(old)
            if count != 1:
                problems.append(f"{where}: old text {old!r} is on the line {count} times, not once")
            if old == new:
                problems.append(f"{where}: the edit changes nothing")
            if expect is not None and not 1 <= expect <= len(lines):
                problems.append(f"{where}: expected line {expect} is not in the file")
        counts = Counter(edit[5] for edit in edits)
        slips = sum(k for c, k in counts.items() if c != "neutral")
        print(f"{chapter}: {slips} slips, {counts['neutral']} neutral edits")
        for category in CATEGORIES:
            print(f"    {category:17s} {counts[category]:3d}")
        if slips < 40 or counts["neutral"] < 10:
            problems.append(f"{chapter}: fewer than 40 slips or 10 neutral edits")
        missing = [c for c in CATEGORIES if counts[c] == 0]
        if missing:
            problems.append(f"{chapter}: no edit of the categories {missing}")
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print("every edit's old text is on its line exactly once")
