"""Data: one-slip edits of the chapter gqa.mdx (グループ化クエリ注意).

Each entry of SLIPS is one edit of one line of gqa.mdx:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted closing tag it
is the line where the broken element opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_gqa.py passes on all of them (it normalises
`{,}` to `,` and only looks for the numbers it checks).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_gqa.py exit 1.  Numbers that the chapter prints twice (e.g. 0.6596,
54.90, 10.81, 176,160,768 in both a table and the prose) were avoided as slip
sites because the recompute script only checks that the value occurs somewhere.
"""

CH = "gqa.mdx"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("cache-read-g8-quartered-twice", CH, 241,
     "= 8{,}388{,}608$", "= 4{,}194{,}304$", "prose arithmetic", None),
    ("flops-g8-digit", CH, 243,
     "= 13{,}421{,}772{,}800$", "= 13{,}421{,}722{,}800$", "prose arithmetic", None),
    ("p-plus-cache-transposed", CH, 243,
     "2 \\times 32 \\times 184{,}549{,}376", "2 \\times 32 \\times 184{,}549{,}367", "prose arithmetic", None),
    ("bytes-read-g8-digit", CH, 243,
     "= 11{,}811{,}160{,}064$", "= 11{,}811{,}160{,}640$", "prose arithmetic", None),
    ("listing-params-coef-g1", CH, 397,
     "$2.5 \\times 72 = 180$", "$2.25 \\times 72 = 180$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("exp-sqrt2-truncated", CH, 132,
     "e^{1.4142} = 4.1133", "e^{1.4142} = 4.1132", "rounding", None),
    ("denominator-from-rounded-exp", CH, 132,
     "+ 1 = 9.2265$", "+ 1 = 9.2266$", "rounding", None),
    ("table2-I1-g8-truncated", CH, 237,
     "| 1.14 |", "| 1.13 |", "rounding", None),
    ("table2-I64-g4-truncated", CH, 238,
     "| 29.87 |", "| 29.86 |", "rounding", None),
    ("table2-I16-g1-truncated", CH, 239,
     "| 17.45 |", "| 17.44 |", "rounding", None),
    ("mults-ratio-truncated", CH, 241,
     "\\approx 0.8929$", "\\approx 0.8928$", "rounding", None),
    ("mqa-block-ratio-rounded-up", CH, 193,
     "約 0.8385 倍", "約 0.8386 倍", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("bytes-per-token-transposed", CH, 184,
     "= 131{,}072$", "= 131{,}027$", "example number", None),
    ("kib-per-sequence-digit", CH, 184,
     "= 524{,}288$", "= 524{,}188$", "example number", None),
    ("block-ratio-g8-transposed", CH, 193,
     "= 0.875$", "= 0.857$", "example number", None),
    ("block-reduction-complement", CH, 193,
     "12.5 % しか減りません", "87.5 % しか減りません", "example number", None),
    ("gpt2-attn-g4-transposed", CH, 413,
     "= 1{,}574{,}912$", "= 1{,}574{,}921$", "example number", None),
    ("gpt2-mqa-saving-digit", CH, 413,
     "= 12{,}993{,}024$", "= 12{,}993{,}204$", "example number", None),
    ("gpt2-mqa-saving-percent", CH, 413,
     "約 10.44 %", "約 10.54 %", "example number", None),
    ("best-head-ratio-wrong-sum", CH, 424,
     "の 1.4 倍", "の 2.6 倍", "example number", None),
    ("crossover-mqa-forgot-plus-one", CH, 435,
     "$B > 161$", "$B > 160$", "example number", None),

    # ---------------- table cell ----------------
    ("table1-attn-g8-digits", CH, 189,
     "| 41,943,040 |", "| 41,943,004 |", "table cell", None),
    ("table1-mib-g4-transposed", CH, 190,
     "| 256 |", "| 265 |", "table cell", None),
    ("table1-ratio-mqa-shifted", CH, 191,
     "| 0.03125 |", "| 0.3125 |", "table cell", None),
    ("table2-limit-g4-6r", CH, 238,
     "| 49 |", "| 48 |", "table cell", None),
    ("table2-mults-g4-transposed", CH, 238,
     "| 6,576,668,672 |", "| 6,576,668,762 |", "table cell", None),
    ("table2-gib-mqa", CH, 239,
     "| 10.125 |", "| 10.250 |", "table cell", None),

    # ---------------- listing output ----------------
    ("output-params-g4", CH, 388,
     "params 288 = 288", "params 288 = 228", "listing output", None),
    ("output-decode-g2-copied", CH, 389,
     "decode vs full 3.3e-16", "decode vs full 2.2e-16", "listing output", None),
    ("output-pooled-error-g2", CH, 392,
     "mean-pool 8.7215", "mean-pool 8.7251", "listing output", None),
    ("output-first-head-g1", CH, 393,
     "first head 32.8049", "first head 32.8094", "listing output", None),
    ("output-change-g1", CH, 393,
     "output change 0.6943", "output change 0.6934", "listing output", None),

    # ---------------- formula ----------------
    ("kappa-floor", CH, 44,
     "\\left\\lceil \\frac{a}{r} \\right\\rceil", "\\left\\lfloor \\frac{a}{r} \\right\\rfloor", "formula", None),
    ("group-lower-end", CH, 47,
     "\\{(b-1)r + 1, \\ldots, br\\}", "\\{(b-1)r, \\ldots, br\\}", "formula", None),
    ("nesting-proof-r-swapped", CH, 109,
     "$r = m r'$ なので", "$r' = m r$ なので", "formula", None),
    ("params-g-over-h-swapped", CH, 145,
     "1 + \\frac{g}{h}", "1 + \\frac{h}{g}", "formula", None),
    ("params-proof-missing-2", CH, 157,
     "+ 2\\cdot\\frac{g}{h}(d^2 + d) +", "+ \\frac{g}{h}(d^2 + d) +", "formula", None),
    ("cache-h-over-g", CH, 171,
     "2Lid \\cdot \\dfrac{g}{h}", "2Lid \\cdot \\dfrac{h}{g}", "formula", None),
    ("P-2r", CH, 207,
     "$P := (10 + 2/r)d^2$", "$P := (10 + 2r)d^2$", "formula", None),
    ("RB-missing-B", CH, 210,
     "R_B = P + \\dfrac{2Bid}{r}", "R_B = P + \\dfrac{2id}{r}", "formula", None),
    ("crossover-6r", CH, 213,
     "B > \\dfrac{(5r + 1)d}{i}", "B > \\dfrac{(6r + 1)d}{i}", "formula", None),
    ("mlp-mults-4d2", CH, 219,
     "$2d\\,d_{\\mathrm{ff}} = 8d^2$", "$2d\\,d_{\\mathrm{ff}} = 4d^2$", "formula", None),
    ("mean-pool-1-over-g", CH, 254,
     "\\overline{W}_K^{(b)} := \\frac{1}{r}", "\\overline{W}_K^{(b)} := \\frac{1}{g}", "formula", None),
    ("decomposition-missing-r", CH, 269,
     "= r\\,\\|K - \\overline{K}\\|_F^2", "= \\|K - \\overline{K}\\|_F^2", "formula", None),
    ("cross-term-missing-2", CH, 288,
     "+ 2\\Big\\langle", "+ \\Big\\langle", "formula", None),

    # ---------------- claim ----------------
    ("three-questions-four", CH, 29,
     "次の 3 つに答えます", "次の 4 つに答えます", "claim", None),
    ("r-copies-g", CH, 65,
     "$r$ 個ずつ同じ番号が並びます", "$g$ 個ずつ同じ番号が並びます", "claim", None),
    ("store-h-sets", CH, 95,
     "保存するのは $g$ 組だけで", "保存するのは $h$ 組だけで", "claim", None),
    ("nesting-use-twice", CH, 118,
     "2 を 3 回使えば", "2 を 2 回使えば", "claim", None),
    ("mqa-keeps-less-than-half", CH, 164,
     "半分より少し多く残ります", "半分より少し少なく残ります", "claim", None),
    ("kernel-intensity-proportional-B", CH, 211,
     "$i$ にも $d$ にも $B$ にも依らない", "$B$ に比例し、$i$ にも $d$ にも依らない", "claim", None),
    ("intensity-decreasing", CH, 212,
     "狭義単調増加", "狭義単調減少", "claim", None),
    ("mha-intensity-bound-6", CH, 232,
     "何本まとめても 7 を超えません", "何本まとめても 6 を超えません", "claim", None),
    ("I1-below-1.1", CH, 241,
     "算術強度は 1.2 未満です", "算術強度は 1.1 未満です", "claim", None),
    ("value-change-at-least", CH, 276,
     "$ 以下である。", "$ 以上である。", "claim", None),
    ("output-change-half", CH, 399,
     "出力は 7 割近く変わります", "出力は 5 割近く変わります", "claim", None),
    ("cache-grows-quadratically", CH, 403,
     "位置 $i$ に比例して増える", "位置 $i$ の 2 乗に比例して増える", "claim", None),
    ("best-heads-1-or-4", CH, 424,
     "ヘッド 2 か 3 ですが", "ヘッド 1 か 4 ですが", "claim", None),

    # ---------------- structure ----------------
    ("aside-close-deleted", CH, 23,
     "</Aside>", "", "structure", 16),
    ("expansion-close-deleted", CH, 84,
     "</Proposition>", "", "structure", 69),
    ("nesting-proof-close-deleted", CH, 120,
     "</Proof>", "", "structure", 107),
    ("cache-id-duplicated", CH, 166,
     'id="prop-gqa-cache"', 'id="prop-gqa-parameters"', "structure", None),
    ("ref-missing-params", CH, 184,
     '<Ref to="prop-gqa-parameters" />', '<Ref to="prop-gqa-params" />', "structure", None),
    ("unpaired-dollar-dff", CH, 207,
     "= 4d$、", "= 4d、", "structure", None),
    ("section-number-duplicated", CH, 245,
     "## 5. MHA", "## 4. MHA", "structure", None),
    ("mean-pool-def-close-deleted", CH, 259,
     "</Definition>", "", "structure", 249),
    ("proof-of-missing-id", CH, 282,
     'of="prop-mean-pool"', 'of="prop-mean-pooling"', "structure", None),
    ("remark-kind-changed", CH, 309,
     "<Remark id=", "<Example id=", "structure", None),
    ("solution-close-deleted", CH, 415,
     "</Solution>", "", "structure", 411),

    # ---------------- neutral ----------------
    ("reword-intro", CH, 8,
     "この記事では、キーとバリューのヘッドの数を減らしてこの保存と読み出しを小さくする方法を扱います。",
     "この記事で扱うのは、キーとバリューのヘッドの数を減らして、この保存と読み出しを小さくする方法です。",
     "neutral", None),
    ("spacing-kv-mults", CH, 27,
     "$12d^2 + 2id$ 回でした", "$12 d^2 + 2 i d$ 回でした", "neutral", None),
    ("kappa-inline-fraction", CH, 44,
     "\\left\\lceil \\frac{a}{r} \\right\\rceil", "\\left\\lceil a/r \\right\\rceil", "neutral", None),
    ("mqa-cache-as-product", CH, 134,
     "$3 \\times 2 + 3 \\times 2 = 12$", "$2 \\times 3 \\times 2 = 12$", "neutral", None),
    ("params-single-fraction", CH, 145,
     "2\\Big(1 + \\frac{g}{h}\\Big)(d^2 + d)", "\\frac{2(h + g)}{h}(d^2 + d)", "neutral", None),
    ("params-proof-2g-over-h", CH, 157,
     "+ 2\\cdot\\frac{g}{h}(d^2 + d) +", "+ \\frac{2g}{h}(d^2 + d) +", "neutral", None),
    ("cache-per-token-power-of-two", CH, 184,
     "\\times 128 = 65{,}536$", "\\times 128 = 2^{16}$", "neutral", None),
    ("limit-1-plus-5r", CH, 212,
     "\\frac{(5r + 1)d}{i}", "\\frac{(1 + 5r)d}{i}", "neutral", None),
    ("P-as-fraction", CH, 241,
     "$P = 10.5 \\times 4096^2", "$P = \\frac{21}{2} \\times 4096^2", "neutral", None),
    ("reword-variance", CH, 299,
     "2 は、平均のまわりの二乗誤差の和が「平均からのずれ」と「ばらつき」に分かれるという、分散の分解と同じ式です。",
     "2 は分散の分解と同じ式で、平均のまわりの二乗誤差の和が「平均からのずれ」と「ばらつき」に分かれることを表します。",
     "neutral", None),
    ("fullwidth-seven", CH, 399,
     "出力は 7 割近く", "出力は ７ 割近く", "neutral", None),
    ("plain-comma-thousands", CH, 413,
     "589{,}824 + 768", "589,824 + 768", "neutral", None),
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
