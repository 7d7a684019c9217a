"""Data: one-slip edits of the chapter tokenization.mdx (MDX form).

Each entry of SLIPS is a tuple
    (name, chapter file name, line, old, new, category, expected line or None)
meaning: on the 1-based line `line` of the chapter, `old` occurs exactly once; replacing it by
`new` gives a chapter that holds exactly one mistake of the kind `category` (or, for
"neutral", the same mathematics written differently).  `expected line` is None when the
mistake is visible at the edited line; for a structural slip whose broken element opens on
another line, it is the line of the opening tag.

Every numeric slip (prose arithmetic, rounding, example number, table cell, listing output)
makes recompute_tokenization.py exit 1 when applied to a copy of the chapter.

Neutral edits: none of them changes a number or a formula.  recompute_tokenization.py
accepts all of them except those marked "# literal" below (none at present: the neutral
edits were placed on text the script does not match literally).

Run this file to check that every `old` occurs exactly once on its line and to print the
counts per category.
"""

CHAPTER = "tokenization.mdx"

SLIPS = [
    # ------------------------------------------------------------------ prose arithmetic
    ("gpt2-embedding-count-transposed", CHAPTER, 12, "38,597,376", "38,579,376",
     "prose arithmetic", None),
    ("gpt2-vocab-sum", CHAPTER, 96, r"= 50{,}257$", r"= 50{,}256$",
     "prose arithmetic", None),
    ("onehot-multiplications", CHAPTER, 131, r"39{,}523{,}713{,}024", r"39{,}523{,}731{,}024",
     "prose arithmetic", None),
    ("learned-positions-count", CHAPTER, 270, r"= 786{,}432$", r"= 786{,}342$",
     "prose arithmetic", None),
    ("listing-table-size", CHAPTER, 411, r"21 \times 8 = 168", r"21 \times 8 = 186",
     "prose arithmetic", None),
    ("omega4-exponent", CHAPTER, 205, r"0.01,\ 0.001$", r"0.01,\ 0.0001$",
     "prose arithmetic", None),

    # ------------------------------------------------------------------ rounding
    ("symbols-per-token-truncated", CHAPTER, 92, r"\approx 3.393", r"\approx 3.392",
     "rounding", None),
    ("e-truncated", CHAPTER, 181, "$e = 2.7183$", "$e = 2.7182$",
     "rounding", None),
    ("softmax-denominator-truncated", CHAPTER, 181, "7.3148", "7.3147",
     "rounding", None),
    ("ratio-2270-truncated", CHAPTER, 145, r"\approx 2.270", r"\approx 2.269",
     "rounding", None),
    ("untied-share-truncated", CHAPTER, 436, r"\approx 38.1\,", r"\approx 38.0\,",
     "rounding", None),
    ("pe1-first-component-truncated", CHAPTER, 245, r"(0.8415,\ ", r"(0.8414,\ ",
     "rounding", None),
    ("two-pi-truncated", CHAPTER, 258, r"2\pi \approx 6.2832", r"2\pi \approx 6.2831",
     "rounding", None),
    ("gradient-entry-truncated", CHAPTER, 184, "-0.5566", "-0.5565",
     "rounding", None),

    # ------------------------------------------------------------------ example number
    ("corpus-length-sum", CHAPTER, 75, "= 95$", "= 94$",
     "example number", None),
    ("first-merge-count", CHAPTER, 75, "$c = 9$", "$c = 8$",
     "example number", None),
    ("total-drop", CHAPTER, 92, "$95 - 28 = 67$", "$95 - 28 = 57$",
     "example number", None),
    ("merge-bound-sum", CHAPTER, 92, "6 + 6 = 20$", "6 + 6 = 21$",
     "example number", None),
    ("per-layer-count-confused-with-12d2", CHAPTER, 135, r"12 \times 7{,}087{,}872",
     r"12 \times 7{,}077{,}888", "example number", None),
    ("logit-sign-dropped", CHAPTER, 181, r"0.8,\ -0.6,\ 1)", r"0.8,\ 0.6,\ 1)",
     "example number", None),
    ("loss-digits-swapped", CHAPTER, 181, r"\approx 1.1899", r"\approx 1.1989",
     "example number", None),
    ("f63-digits-swapped", CHAPTER, 258, "$f(63) = 3.7918$", "$f(63) = 3.7981$",
     "example number", None),
    ("exercise-length-after-11", CHAPTER, 425, "$28 - 3 = 25$", "$28 - 3 = 24$",
     "example number", None),
    ("exercise-total-merges", CHAPTER, 425, "合計 15 回", "合計 14 回",
     "example number", None),
    ("exercise-untied-total", CHAPTER, 436, r"$336{,}256$", r"$336{,}265$",
     "example number", None),

    # ------------------------------------------------------------------ table cell
    ("bpe-table-N4", CHAPTER, 83, "| 61 |", "| 62 |",
     "table cell", None),
    ("bpe-table-V7", CHAPTER, 86, "| 18 |", "| 19 |",
     "table cell", None),
    ("bpe-table-total-drop", CHAPTER, 90, "| | | 67 |", "| | | 66 |",
     "table cell", None),
    ("embedding-table-untied-32000", CHAPTER, 140, "134,994,432", "134,994,423",
     "table cell", None),
    ("embedding-table-share-8000", CHAPTER, 139, "6.7 %", "6.6 %",
     "table cell", None),
    ("embedding-table-tied-50257", CHAPTER, 141, "124,439,808", "124,439,880",
     "table cell", None),
    ("sinusoid-table-cos06", CHAPTER, 253, "0.8253", "0.8235",
     "table cell", None),
    ("sinusoid-table-f1000", CHAPTER, 256, "| 1.1259 |", "| 1.1295 |",
     "table cell", None),

    # ------------------------------------------------------------------ listing output
    ("bpe-listing-N4", CHAPTER, 332, "N=61", "N=62",
     "listing output", None),
    ("bpe-listing-c9", CHAPTER, 337, "c=5", "c=6",
     "listing output", None),
    ("emb-listing-table-size", CHAPTER, 394, "|V|d = 168", "|V|d = 186",
     "listing output", None),
    ("emb-listing-nonzero-rows", CHAPTER, 396, "nonzero rows 21 of 21", "nonzero rows 20 of 21",
     "listing output", None),
    ("emb-listing-argmax", CHAPTER, 399, "at 63", "at 62",
     "listing output", None),
    ("emb-listing-cos02", CHAPTER, 403, "0.9801", "0.9810",
     "listing output", None),
    ("emb-listing-inner-product-error", CHAPTER, 397, "3.1e-14", "3.1e-15",
     "listing output", None),

    # ------------------------------------------------------------------ formula
    ("length-without-frequency", CHAPTER, 40, r"\sum_{w} f(w)\,\ell(w)", r"\sum_{w} \ell(w)",
     "formula", None),
    ("drop-doubled", CHAPTER, 55, "- N_m = c$", "- N_m = 2c$",
     "formula", None),
    ("overlap-index", CHAPTER, 64, "$j' = j + 1$", "$j' = j + 2$",
     "formula", None),
    ("floor-as-ceil", CHAPTER, 66, r"\lfloor k/2 \rfloor \le k/2", r"\lceil k/2 \rceil \le k/2",
     "formula", None),
    ("embedding-gradient-swapped", CHAPTER, 111, r"= O^{\mathsf{T}}G$", r"= G^{\mathsf{T}}O$",
     "formula", None),
    ("chain-rule-index", CHAPTER, 122, r"O_{iv}\,G_{ik}", r"O_{iv}\,G_{iv}",
     "formula", None),
    ("shift-direction-swapped", CHAPTER, 163, r"\boldsymbol{1}\boldsymbol{c}^{\mathsf{T}}",
     r"\boldsymbol{c}\boldsymbol{1}^{\mathsf{T}}", "formula", None),
    ("output-gradient-sign", CHAPTER, 164, r"(\boldsymbol{p} - \boldsymbol{e}_y)\boldsymbol{h}^{\mathsf{T}}",
     r"(\boldsymbol{e}_y - \boldsymbol{p})\boldsymbol{h}^{\mathsf{T}}", "formula", None),
    ("omega-exponent-index", CHAPTER, 195, r"10000^{-2(k-1)/d}", r"10000^{-2k/d}",
     "formula", None),
    ("rotation-sign-dropped", CHAPTER, 213, r"\\ -\sin\omega_k\Delta", r"\\ \sin\omega_k\Delta",
     "formula", None),
    ("distance-factor-dropped", CHAPTER, 212, "= d - 2f(p - q)$", "= d - f(p - q)$",
     "formula", None),
    ("inner-product-sum-of-positions", CHAPTER, 224, r"\cos\big(\omega_k(p - q)\big)",
     r"\cos\big(\omega_k(p + q)\big)", "formula", None),
    ("pi-factor-dropped", CHAPTER, 237, r"$\pi = (p - q)/(2j)$", r"$\pi = (p - q)/j$",
     "formula", None),
    ("embedding-params-sum", CHAPTER, 110, r"パラメータ数は $|V|\,d$", r"パラメータ数は $|V| + d$",
     "formula", None),

    # ------------------------------------------------------------------ claim
    ("vocab-grows-exactly-one", CHAPTER, 10, "語彙は高々 1 個増え", "語彙はちょうど 1 個増え",
     "claim", None),
    ("three-stages-counted-four", CHAPTER, 28, "3 つの段階", "4 つの段階",
     "claim", None),
    ("equality-condition-reversed", CHAPTER, 54, "語彙に無いときに限る", "語彙に有るときに限る",
     "claim", None),
    ("nonzero-rows-exactly-n", CHAPTER, 111, r"0 でない行は高々 $\min(n, |V|)$ 個",
     r"0 でない行はちょうど $n$ 個", "claim", None),
    ("rows-not-in-input", CHAPTER, 187, "第 1〜3 行にも", "第 1〜4 行にも",
     "claim", None),
    ("distinct-positions-bound", CHAPTER, 214, "$f(p - q) < d/2$", "$f(p - q) < d/4$",
     "claim", None),
    ("f-monotone", CHAPTER, 258, "単調ではありません", "単調に減少します",
     "claim", None),
    ("far-position-farther", CHAPTER, 258, "隣の位置より近いベクトル", "隣の位置より遠いベクトル",
     "claim", None),
    ("norm-proportional", CHAPTER, 211, "ノルムは $p$ によらない", "ノルムは $p$ に比例する",
     "claim", None),
    ("K-drops-by-three", CHAPTER, 425, "$K$ が 2 ずつ減る", "$K$ が 3 ずつ減る",
     "claim", None),

    # ------------------------------------------------------------------ structure
    ("bpe-proposition-close-deleted", CHAPTER, 59, "</Proposition>", "",
     "structure", 50),
    ("bpe-proof-close-deleted", CHAPTER, 71, "</Proof>", "",
     "structure", 61),
    ("sinusoidal-proposition-close-deleted", CHAPTER, 216, "</Proposition>", "",
     "structure", 207),
    ("solution-close-deleted", CHAPTER, 427, "</Solution>", "",
     "structure", 423),
    ("ref-to-missing-id", CHAPTER, 10, 'to="prop-bpe-merge-count"', 'to="prop-bpe-merge-counts"',
     "structure", None),
    ("ref-with-wrong-kind-prefix", CHAPTER, 175, 'to="prop-embedding-lookup"', 'to="def-embedding-lookup"',
     "structure", None),
    ("duplicated-id", CHAPTER, 151, 'id="def-tied-embeddings"', 'id="def-embedding-matrix"',
     "structure", None),
    ("unpaired-dollar", CHAPTER, 92, "3.393$ 個", "3.393 個",
     "structure", None),
    ("example-opened-as-exercise", CHAPTER, 179, '<Example id="ex-tied-by-hand"', '<Exercise id="ex-tied-by-hand"',
     "structure", None),
    ("duplicated-section-number", CHAPTER, 191, "## 5. 正弦波", "## 4. 正弦波",
     "structure", None),

    # ------------------------------------------------------------------ neutral
    ("reworded-opening", CHAPTER, 8, "計算機が扱えるのは数だけです。", "計算機が直接扱えるのは数だけです。",
     "neutral", None),
    ("n-with-separator", CHAPTER, 131, "$n = 1024$", "$n = 1{,}024$",
     "neutral", None),
    ("context-length-with-separator", CHAPTER, 135, r"$L_{\mathrm{ctx}} = 1024$", r"$L_{\mathrm{ctx}} = 1{,}024$",
     "neutral", None),
    ("ln-for-log", CHAPTER, 161, r"-\log p_y", r"-\ln p_y",
     "neutral", None),
    ("full-width-three", CHAPTER, 28, "3 つの段階", "３ つの段階",
     "neutral", None),
    ("row-as-fractions", CHAPTER, 181, "$(0.6, 0.8)$", r"$(\tfrac{3}{5}, \tfrac{4}{5})$",
     "neutral", None),
    ("distance-factored", CHAPTER, 212, "= d - 2f(p - q)$", r"= 2\big(d/2 - f(p - q)\big)$",
     "neutral", None),
    ("half-as-frac", CHAPTER, 66, "$(k - 1)/2 \\le", r"$\frac{k - 1}{2} \le",
     "neutral", None),
    ("thin-space-in-product", CHAPTER, 110, "$X = OE$", r"$X = O\,E$",
     "neutral", None),
    ("vocab-in-math", CHAPTER, 96, "語彙を 50,257 としました", r"語彙を $50{,}257$ としました",
     "neutral", None),
    ("positions-without-separator", CHAPTER, 411, "2,048 個の位置", "2048 個の位置",
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
