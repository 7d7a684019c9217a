"""Data: one-slip edits of the chapter mixed_precision.txt (混合精度の学習).

Each entry of SLIPS is one edit of one line of mixed_precision.txt:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted end of proof
(∎) it is the line of the proof's heading 「証明（…）」.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, a fraction for an exact decimal, a full-width digit,
another notation for the same number) and keep every number and formula true.
recompute_mixed_precision.py matches printed text literally, so it fails on
one neutral edit: "neutral-ln-for-log" (it looks for `\\log 65{,}520`).
It passes on all the other neutral edits.

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_mixed_precision.py exit 1.  Numbers that the script does not match
against the text (e.g. 「75 %」 in 6 節, 「1 万倍」 in 例 4.3, 「24 から 8」 in
2 節) were avoided as sites of numeric slips.
"""

CH = "mixed_precision.txt"

SLIPS = [
    # ---------------- prose arithmetic ----------------
    ("subnormal-rel-error-transposed", CH, 98,
     "約 98.68 %", "約 98.86 %", "prose arithmetic", None),
    ("Sstar-digits-swapped", CH, 185,
     "= 1{,}310{,}080$", "= 1{,}310{,}800$", "prose arithmetic", None),
    ("skips-S16-plus-one-wrong", CH, 185,
     "= 1 + 44 = 45$", "= 1 + 44 = 46$", "prose arithmetic", None),
    ("skips-S24-forgot-one", CH, 185,
     "\\rfloor = 53$", "\\rfloor = 52$", "prose arithmetic", None),
    ("fp32-stall-2p24-digits", CH, 239,
     "$2^{24} = 16{,}777{,}216$", "$2^{24} = 16{,}777{,}126$", "prose arithmetic", None),
    ("stall-4096-error-percent", CH, 239,
     "誤差は 50 %", "誤差は 25 %", "prose arithmetic", None),
    ("weight-update-ratio-power", CH, 289,
     "= 200{,}000$", "= 2{,}000{,}000$", "prose arithmetic", None),
    ("adam-bytes-total-digits", CH, 312,
     "= 1{,}991{,}036{,}928$", "= 1{,}991{,}063{,}928$", "prose arithmetic", None),
    ("next-chapter-ratio-fp32-bytes", CH, 414,
     "の 8 倍で", "の 4 倍で", "prose arithmetic", None),
    ("double-precision-2p-plus-2", CH, 316,
     "2 \\times 24 + 2 = 50$", "2 \\times 24 + 2 = 52$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("u-fp16-truncated", CH, 7,
     "4.883 \\times 10^{-4}$、最大値", "4.882 \\times 10^{-4}$、最大値", "rounding", None),
    ("digits-fp32-truncated", CH, 76,
     "fp32 で約 7.225", "fp32 で約 7.224", "rounding", None),
    ("bf16-0.1-rel-error-truncated", CH, 80,
     "約 $9.766 \\times 10^{-4}$ です", "約 $9.765 \\times 10^{-4}$ です", "rounding", None),
    ("e12-truncated", CH, 82,
     "162{,}754.8$", "162{,}754.7$", "rounding", None),
    ("S-sigma-truncated", CH, 125,
     "\\approx 6.554$", "\\approx 6.553$", "rounding", None),
    ("skip-fraction-truncated", CH, 185,
     "0.04998\\,\\%", "0.04997\\,\\%", "rounding", None),
    ("fp32-spacing-ratio-truncated", CH, 308,
     "約 1.678 倍", "約 1.677 倍", "rounding", None),
    ("fp32-final-value-truncated", CH, 308,
     "\\approx 0.999881$", "\\approx 0.999880$", "rounding", None),
    ("ex101-u-times-3-truncated", CH, 424,
     "1.465 \\times 10^{-3}$", "1.464 \\times 10^{-3}$", "rounding", None),
    ("table43-sigma7-S8-subnormal-truncated", CH, 122,
     "98.29", "98.28", "rounding", None),

    # ---------------- example number ----------------
    ("u-ratio-exponent-off-by-one", CH, 76,
     "$2^{13} = 8{,}192$", "$2^{12} = 4{,}096$", "example number", None),
    ("normal-range-ratio-as-2p30", CH, 76,
     "= 1{,}073{,}217{,}536", "= 1{,}073{,}741{,}824", "example number", None),
    ("fl16-0.1-mantissa-rounded-up", CH, 80,
     "= 1638 \\times 2^{-14}", "= 1639 \\times 2^{-14}", "example number", None),
    ("bf16-257-tie-wrong-way", CH, 81,
     "\\mathrm{fl}(257) = 256$", "\\mathrm{fl}(257) = 258$", "example number", None),
    ("fp16-overflow-threshold-as-max", CH, 82,
     "= 65{,}520$", "= 65{,}504$", "example number", None),
    ("bf16-e12-rounded-down", CH, 82,
     "bf16 では $162{,}816$", "bf16 では $161{,}792$", "example number", None),
    ("ex53-4e-8-percent-transposed", CH, 158,
     "約 49.01 % の誤差", "約 49.10 % の誤差", "example number", None),
    ("ex53-1.5-times-2p16-digits", CH, 158,
     "= 98{,}304$", "= 98{,}034$", "example number", None),
    ("ex102-kahan-c-sign", CH, 432,
     "$(1, 2048, -1)$", "$(1, 2048, 1)$", "example number", None),
    ("ex102-result-off-by-one", CH, 432,
     "結果の 2,052 は", "結果の 2,051 は", "example number", None),

    # ---------------- table cell ----------------
    ("table32-fp32-min-subnormal-exponent", CH, 72,
     "$1.401 \\times 10^{-45}$", "$1.401 \\times 10^{-44}$", "table cell", None),
    ("table32-bf16-min-subnormal-exponent", CH, 74,
     "$9.184 \\times 10^{-41}$", "$9.184 \\times 10^{-40}$", "table cell", None),
    ("table43-sigma4-S1-subnormal-transposed", CH, 119,
     "45.84", "45.48", "table cell", None),
    ("table43-sigma8-S8-zero-pattern-copied", CH, 123,
     "0.9288", "0.9289", "table cell", None),
    ("table43-sigma8-S16-subnormal-pattern-copied", CH, 123,
     "7.420", "7.431", "table cell", None),
    ("table53-4e-8-S1-transposed", CH, 155,
     "0.4901", "0.4910", "table cell", None),
    ("table53-1e-8-S10-exponent", CH, 156,
     "$1.172 \\times 10^{-3}$", "$1.172 \\times 10^{-4}$", "table cell", None),
    ("table66-n4096-sum-transposed", CH, 265,
     "2,054.56", "2,045.56", "table cell", None),
    ("table66-n65536-fp16-kahan-copied-from-pairwise", CH, 267,
     "$1.08 \\times 10^{-4}$", "$3.81 \\times 10^{-4}$", "table cell", None),
    ("table73-fp16K-1e-5-transposed", CH, 303,
     "0.989746", "0.989764", "table cell", None),
    ("table73-fp32-1e-7-copied-exact", CH, 305,
     "0.999881", "0.999900", "table cell", None),

    # ---------------- listing output ----------------
    ("lowprec-fp16-max-as-threshold", CH, 366,
     "max=6.550e+04", "max=6.552e+04", "listing output", None),
    ("lowprec-bf16-min-subnormal-exponent", CH, 367,
     "min subnormal=9.184e-41", "min subnormal=9.184e-40", "listing output", None),
    ("lowprec-bf16-stall-512", CH, 369,
     "2048.0 256.0 4096.0", "2048.0 512.0 4096.0", "listing output", None),
    ("lowprec-n16384-fp16-recursive-transposed", CH, 372,
     "7.51e-01", "7.15e-01", "listing output", None),
    ("lowprec-n65536-fp16-kahan-transposed", CH, 373,
     "1.08e-04", "1.80e-04", "listing output", None),
    ("loss-scaling-inf-as-nan", CH, 404,
     "S=2^16 inf", "S=2^16 nan", "listing output", None),
    ("loss-scaling-fp32-1e-4-transposed", CH, 408,
     "0.899983", "0.899938", "listing output", None),
    ("loss-scaling-fp16K-1e-6-transposed", CH, 409,
     "0.999023", "0.999032", "listing output", None),

    # ---------------- formula ----------------
    ("def21-scale-exponent-missing-1", CH, 35,
     "m \\times 2^{\\,e - p + 1}", "m \\times 2^{\\,e - p}", "formula", None),
    ("def22-overflow-threshold-as-xmax", CH, 43,
     "(2 - 2^{-p})\\,2^{e_{\\max}}", "(2 - 2^{1-p})\\,2^{e_{\\max}}", "formula", None),
    ("prop31-min-subnormal-exponent", CH, 53,
     "2^{e_{\\min} - p + 1}$ である", "2^{e_{\\min} - p}$ である", "formula", None),
    ("prop31-next-after-one", CH, 54,
     "$1 + 2u$", "$1 + u$", "formula", None),
    ("prop41-strict-inequality", CH, 88,
     "$|x| \\le 2^{e_{\\min} - p}$", "$|x| < 2^{e_{\\min} - p}$", "formula", None),
    ("prop42-bound-constant-inverted", CH, 104,
     "\\sqrt{\\frac{2}{\\pi}}", "\\sqrt{\\frac{\\pi}{2}}", "formula", None),
    ("prop42-proof-upper-limit", CH, 110,
     "\\int_0^{a/\\sqrt{2}}", "\\int_0^{a\\sqrt{2}}", "formula", None),
    ("prop55-first-skip-missing-plus-one", CH, 174,
     "t_0 := (K - k_0 + 1)N + 1", "t_0 := (K - k_0)N + 1", "formula", None),
    ("prop55-skip-fraction", CH, 175,
     "$1/(N + 1)$", "$1/N$", "formula", None),
    ("def61-kahan-sign", CH, 195,
     "y := \\mathrm{fl}(x_i - c)", "y := \\mathrm{fl}(x_i + c)", "formula", None),
    ("lemma62-gamma-denominator-sign", CH, 203,
     "{1 - mu}", "{1 + mu}", "formula", None),
    ("prop63-pairwise-gamma-index", CH, 214,
     "\\gamma_{k}\\sum", "\\gamma_{k-1}\\sum", "formula", None),
    ("prop63-proof-factor-count", CH, 222,
     "n - j + 1)", "n - j)", "formula", None),
    ("prop64-relative-error", CH, 231,
     "$1 - 2^{p}/n$", "$2^{p}/n$", "formula", None),
    ("prop65-sign-of-c", CH, 243,
     "$a + b = t - c$", "$a + b = t + c$", "formula", None),
    ("prop71-threshold-missing-half", CH, 277,
     "$|\\Delta| < \\frac{u}{2}|w|$", "$|\\Delta| < u|w|$", "formula", None),

    # ---------------- claim ----------------
    ("intro-three-devices-four", CH, 5,
     "3 つの工夫", "4 つの工夫", "claim", None),
    ("motivation-three-weaknesses-two", CH, 21,
     "3 つの弱点", "2 つの弱点", "claim", None),
    ("summary-period-N", CH, 9,
     "周期 $N + 1$ で", "周期 $N$ で", "claim", None),
    ("rounding-monotone-strict", CH, 45,
     "$\\mathrm{fl}(x) \\le \\mathrm{fl}(y)$", "$\\mathrm{fl}(x) < \\mathrm{fl}(y)$", "claim", None),
    ("prop41-doubles-quadruples", CH, 89,
     "2 倍になる", "4 倍になる", "claim", None),
    ("prop42-bound-proportional", CH, 106,
     "$S$ に反比例する", "$S$ に比例する", "claim", None),
    ("window-width-depends-on-S", CH, 149,
     "$S$ に依らないので", "$S$ に比例するので", "claim", None),
    ("pairwise-bound-proportional-to-log", CH, 227,
     "上界は $n$ に比例します", "上界は $\\log_2 n$ に比例します", "claim", None),
    ("stall-half-spacing-full-spacing", CH, 239,
     "部分和の間隔の半分より小さい値", "部分和の間隔より小さい値", "claim", None),
    ("kahan-error-proportional-to-partial-sum", CH, 257,
     "部分和の大きさに依りません", "部分和の大きさに比例します", "claim", None),
    ("ex66-errors-larger-than-u", CH, 269,
     "より小さく、", "より大きく、", "claim", None),
    ("update-ratio-bf16-survives", CH, 289,
     "fp16 と bf16 では更新は必ず消え、fp32 では", "fp16 では更新は必ず消え、bf16 と fp32 では", "claim", None),
    ("bf16-u-smaller", CH, 295,
     "$u$ は fp16 より大きいので", "$u$ は fp16 より小さいので", "claim", None),
    ("master-weights-halve-memory", CH, 312,
     "パラメータまわりの記憶量を減らしません", "パラメータまわりの記憶量を半分にします", "claim", None),

    # ---------------- structure ----------------
    ("proof31-end-deleted", CH, 65,
     "∎", "", "structure", 58),
    ("proof52-end-deleted", CH, 145,
     "∎", "", "structure", 139),
    ("proof64-end-deleted", CH, 237,
     "∎", "", "structure", 233),
    ("prop64-number-duplicates-63", CH, 229,
     "命題 6.4（同じ値", "命題 6.3（同じ値", "structure", None),
    ("ref-prop-3.5-nonexistent", CH, 94,
     "命題 3.1 の 4 の両辺", "命題 3.5 の 4 の両辺", "structure", None),
    ("ref-def-6.2-nonexistent", CH, 299,
     "定義 6.1 の補償和", "定義 6.2 の補償和", "structure", None),
    ("proof42-heading-names-41", CH, 108,
     "証明（命題 4.2）", "証明（命題 4.1）", "structure", None),
    ("prop42-kind-changed-to-theorem", CH, 100,
     "命題 4.2（正規分布", "定理 4.2（正規分布", "structure", None),
    ("prop63-unpaired-dollar", CH, 213,
     "$(n-1)u < 1$ ならば", "$(n-1)u < 1 ならば", "structure", None),
    ("exercise-number-duplicated", CH, 418,
     "演習 10.1易", "演習 10.2易", "structure", None),

    # ---------------- neutral ----------------
    ("neutral-reword-intro", CH, 5,
     "そのままでは学習が壊れます", "そのまま使うと学習が壊れます", "neutral", None),
    ("neutral-thousands-separator-1000", CH, 299,
     "1,000 回引いた", "1{,}000 回引いた", "neutral", None),
    ("neutral-math-spacing", CH, 35,
     "m, e \\in \\mathbb{Z}", "m,\\, e \\in \\mathbb{Z}", "neutral", None),
    ("neutral-beta-as-fraction", CH, 167,
     "$\\beta = 0.5$", "$\\beta = 1/2$", "neutral", None),
    ("neutral-equivalent-relative-error", CH, 231,
     "$1 - 2^{p}/n$", "$(n - 2^{p})/n$", "neutral", None),
    ("neutral-full-width-digit", CH, 21,
     "の 3 段でした", "の ３ 段でした", "neutral", None),
    # recompute_mixed_precision.py fails on this one only because it looks for `\log 65{,}520` literally.
    ("neutral-ln-for-log", CH, 82,
     "\\log 65{,}520", "\\ln 65{,}520", "neutral", None),
    ("neutral-gamma-equivalent", CH, 203,
     "\\dfrac{mu}{1 - mu}", "\\dfrac{1}{1 - mu} - 1", "neutral", None),
    ("neutral-2048-with-separator", CH, 289,
     "2048 倍以上", "2,048 倍以上", "neutral", None),
    ("neutral-reword-next-chapter", CH, 414,
     "やがて 1 つの装置の記憶に収まらなくなります", "いずれ 1 つの装置の記憶には収まらなくなります", "neutral", None),
    ("neutral-spacing-exponent", CH, 61,
     "$2^{1-p} = 2u$", "$2^{-(p-1)} = 2u$", "neutral", None),
    ("neutral-equivalent-first-skip", CH, 174,
     "(K - k_0 + 1)N + 1", "N(K - k_0 + 1) + 1", "neutral", None),
]


if __name__ == "__main__":
    import collections
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    lines = {}
    bad = 0
    names = collections.Counter(s[0] for s in SLIPS)
    for name, count in names.items():
        if count > 1:
            print(f"duplicate name: {name}")
            bad += 1
    for name, fname, line, old, new, category, expected in SLIPS:
        if fname not in lines:
            with open(os.path.join(here, fname), encoding="utf-8") as f:
                lines[fname] = f.read().split("\n")
        text = lines[fname][line - 1] if 1 <= line <= len(lines[fname]) else ""
        n = text.count(old)
        if n != 1:
            print(f"{name}: `old` occurs {n} times on line {line}")
            bad += 1
        if old == new:
            print(f"{name}: `old` and `new` are equal")
            bad += 1
    counts = collections.Counter(s[5] for s in SLIPS)
    order = ["prose arithmetic", "rounding", "example number", "table cell", "listing output",
             "formula", "claim", "structure", "neutral"]
    for category in order:
        print(f"{category:18s} {counts.get(category, 0)}")
    print(f"{'slips':18s} {sum(v for k, v in counts.items() if k != 'neutral')}")
    unknown = set(counts) - set(order)
    if unknown:
        print("unknown categories:", unknown)
        bad += 1
    sys.exit(1 if bad else 0)
