"""Data: one-slip edits of the chapter rope.mdx (位置符号化：正弦波・RoPE・ALiBi).

Each entry of SLIPS is a tuple
    (name, chapter file name, line, old, new, category, expected line or None)
meaning: on 1-based line `line` of the chapter, the text `old` (which occurs exactly once on
that line) is replaced by `new` (one occurrence).  Every edit except those of category
"neutral" puts exactly one mistake into the chapter, of a kind an author really makes (a typo,
a number copied wrongly from the listing, rounding by hand, an index or sign slip in a formula,
a claim or bound stated wrongly, a broken element).  `expected line` is None when the mistake
is visible at the edited line; for a structural slip whose broken element opens elsewhere it
is the line of the opening tag (deleted closing tag / changed closing tag kind).

Edits of category "neutral" change only how something is written; every number and formula
stays true.  The recompute script recompute_rope.py matches some printed text literally, so
it fails on one neutral edit for that reason only (marked "literal match" below).

Every numeric slip was applied alone to a copy of the chapter and recompute_rope.py was run on
it (exit 1 on all of them, except the one marked "not caught" below, whose equality is
symbolic and which the script does not recompute).
"""

CH = "rope.mdx"

SLIPS = [
    # ------------------------------------------------------------------ prose arithmetic
    ("lambda256-exponent", CH, 44, r"10000^{510/512}", r"10000^{511/512}", "prose arithmetic", None),
    ("turn-angle-product", CH, 75, r"100 \times 0.001 = 0.1$", r"100 \times 0.001 = 0.01$", "prose arithmetic", None),
    ("B0-numerator", CH, 223, r"$B(0) = 65/2 = 32.5$", r"$B(0) = 64/2 = 32.5$", "prose arithmetic", None),
    ("long-pairs-subtrahend", CH, 235, r"$64 - 41 = 23$", r"$64 - 42 = 23$", "prose arithmetic", None),
    ("E4-difference", CH, 310, r"- 0.6261 = 0.9154$", r"- 0.6261 = 0.9254$", "prose arithmetic", None),
    ("alibi-head1-bias", CH, 245, r"では $-500$", r"では $-250$", "prose arithmetic", None),
    # not caught by recompute_rope.py: symbolic equality; the number 2.40478 after it stays right
    ("rho16-ratio-sqrt2", CH, 264, r"1/(\sqrt2 - 1) = \sqrt2 + 1$", r"1/(\sqrt2 - 1) = \sqrt2 - 1$", "prose arithmetic", None),

    # ------------------------------------------------------------------ rounding
    ("degrees-truncated", CH, 75, r"約 $5.730°$", r"約 $5.729°$", "rounding", None),
    ("pe-inner-truncated", CH, 120, r"0.001 \approx 3.5353", r"0.001 \approx 3.5352", "rounding", None),
    ("cos44-sum-truncated", CH, 120, r"2 \times 2.5963", r"2 \times 2.5962", "rounding", None),
    ("R2-second-truncated", CH, 169, r"0.4932)", r"0.4931)", "rounding", None),
    ("decay-percent-truncated", CH, 223, r"約 12.4 % まで", r"約 12.3 % まで", "rounding", None),
    ("log500000-truncated", CH, 396, r"13.1224", r"13.1223", "rounding", None),
    ("two-pi-truncated", CH, 407, r"2\pi \approx 6.2832", r"2\pi \approx 6.2831", "rounding", None),

    # ------------------------------------------------------------------ example number
    ("pair3-contribution-transposed", CH, 169, r"第 3 組が $1.0295$", r"第 3 組が $1.0259$", "example number", None),
    ("rope-score-sum", CH, 169, r"合計 $2.4345$", r"合計 $2.4354$", "example number", None),
    ("pe44-pair2-angle", CH, 120, r"$4.4$ ラジアン", r"$0.44$ ラジアン", "example number", None),
    ("alibi-i4-denominator", CH, 310, r"\rho^3 \approx 2.1975", r"\rho^3 \approx 2.1957", "example number", None),
    ("exercise-x-b10000", CH, 396, r"$x \approx 49.84$", r"$x \approx 49.48$", "example number", None),
    ("exercise-distance6-value", CH, 407, r"約 $3.7837$", r"約 $3.7873$", "example number", None),

    # ------------------------------------------------------------------ table cell
    ("d8-turns-row3-shifted", CH, 72, r"| 0.1592 |", r"| 0.01592 |", "table cell", None),
    ("B4-transposed", CH, 220, r"22.604", r"22.406", "table cell", None),
    ("B64-ratio-transposed", CH, 221, r"0.310", r"0.301", "table cell", None),
    ("theta42-transposed", CH, 231, r"0.002738", r"0.002783", "table cell", None),
    ("lambda41-transposed", CH, 232, r"1987", r"1978", "table cell", None),
    ("E1024-h7-limit-copied", CH, 308, r"127.16", r"127.50", "table cell", None),

    # ------------------------------------------------------------------ listing output
    ("out-score-25", CH, 372, r"1.4953", r"1.4935", "listing output", None),
    ("out-B1024", CH, 373, r"4.024", r"4.042", "listing output", None),
    ("out-limit-h6", CH, 375, r"63.5013", r"63.5031", "listing output", None),
    ("out-E1024-h8", CH, 376, r"236.40", r"236.04", "listing output", None),
    ("out-far-weight", CH, 378, r"6.285e-04", r"6.258e-04", "listing output", None),
    ("out-swap-exponent", CH, 379, r"1.6e-01", r"1.6e-02", "listing output", None),

    # ------------------------------------------------------------------ formula
    ("def-theta-index", CH, 40, r"\theta_i := b^{-2(i-1)/d}", r"\theta_i := b^{-2i/d}", "formula", None),
    ("lem-rotation-swapped", CH, 51, r"R(c - a)", r"R(a - c)", "formula", None),
    ("prop-shift-sign", CH, 93, r"R_{-k}\,\mathrm{PE}(t)", r"R_{k}\,\mathrm{PE}(t)", "formula", None),
    ("prop-shift-norm", CH, 94, r"\sqrt{d/2}", r"\sqrt{d}", "formula", None),
    ("prop-relative-scale", CH, 144, r"\boldsymbol{x}_n/\sqrt{d_k}", r"\boldsymbol{x}_n/d_k", "formula", None),
    ("prop-relative-complex-sign", CH, 149, r"e^{\mathrm{i}(m-n)\theta_i}", r"e^{\mathrm{i}(n-m)\theta_i}", "formula", None),
    ("prop-decay-missing-N", CH, 189, r"\, N\, B(r)", r"\, B(r)", "formula", None),
    ("abel-summation-index", CH, 201, r"h_{i+1}S_i", r"h_{i}S_i", "formula", None),
    ("def-alibi-slope-index", CH, 241, r"m_h := 2^{-8h/H}", r"m_h := 2^{-8(h-1)/H}", "formula", None),
    ("prop-slopes-sum-factor", CH, 252, r"\,\rho_H/(1 - \rho_H)", r"/(1 - \rho_H)", "formula", None),
    ("prop-alibi-E-exponent", CH, 273, r"\frac{i\rho^{\,i}}", r"\frac{i\rho^{\,i-1}}", "formula", None),
    ("proof-alibi-derivative-power", CH, 286, r"/(1 - \rho)^2", r"/(1 - \rho)", "formula", None),

    # ------------------------------------------------------------------ claim
    ("summary-monotone", CH, 12, r"が、単調には減りません", r"、その後も単調に減ります", "claim", None),
    ("intro-count-methods", CH, 26, r"3 つの方法", r"4 つの方法", "claim", None),
    ("intro-count-questions", CH, 32, r"2 つの問い", r"3 つの問い", "claim", None),
    ("prop-shift-independent", CH, 93, r"$t$ によらない", r"$t$ に比例する", "claim", None),
    ("long-pairs-threshold", CH, 235, r"$i \ge 42$", r"$i \ge 41$", "claim", None),
    ("prop-alibi-E-monotone", CH, 276, r"狭義単調に増加し", r"狭義単調に減少し", "claim", None),
    ("prop-alibi-limit-bound", CH, 276, r"$1/m$ 未満", r"$1/m$ より大きい", "claim", None),
    ("prop-alibi-far-bound", CH, 278, r"高々 $e^{2c - mD}$", r"高々 $e^{c - mD}$", "claim", None),
    ("summary-shift-invariance", CH, 386, r"RoPE と ALiBi では位置を", r"3 つの方式すべてで位置を", "claim", None),
    ("exercise-base-direction", CH, 396, r"1 回転しない組が増えます", r"1 回転しない組が減ります", "claim", None),

    # ------------------------------------------------------------------ structure
    ("lemma-closing-kind", CH, 54, r"</Lemma>", r"</Proposition>", "structure", 46),
    ("prop-shift-close-deleted", CH, 98, r"</Proposition>", r"", "structure", 89),
    ("proof-decay-close-deleted", CH, 212, r"</Proof>", r"", "structure", 196),
    ("alibi-unpaired-dollar", CH, 245, r"1/256$）", r"1/256）", "structure", None),
    ("ref-nonexistent-item", CH, 254, r'<Ref to="prop-rope-relative" /> の 4', r'<Ref to="prop-rope-relative" /> の 5', "structure", None),
    ("duplicate-prop-id", CH, 266, r'id="prop-alibi-decay"', r'id="prop-alibi-slopes"', "structure", None),
    ("ref-nonexistent-element", CH, 297, r'<Ref to="prop-rope-decay" />', r'<Ref to="prop-rope-bound" />', "structure", None),
    ("solution-close-deleted", CH, 398, r"</Solution>", r"", "structure", 394),

    # ------------------------------------------------------------------ neutral
    ("n-fullwidth-digit", CH, 8, r"この 2 つを", r"この２つを", "neutral", None),
    # literal match: recompute_rope.py looks for the text "距離 1,024 で距離 0 の約 12.4 %" verbatim
    ("n-comma-thousands", CH, 12, r"距離 1,024 で", r"距離 $1{,}024$ で", "neutral", None),
    ("n-math-spacing", CH, 36, r"$N := d/2$", r"$N := d / 2$", "neutral", None),
    ("n-base-plain", CH, 44, r"$b = 10{,}000$、$d = 512$", r"$b = 10000$、$d = 512$", "neutral", None),
    ("n-lambdaN-exponent", CH, 44, r"2\pi b^{1 - 2/d}", r"2\pi b^{(d - 2)/d}", "neutral", None),
    ("n-theta-d8-exponent", CH, 66, r"10000^{-2(i-1)/8}", r"10000^{-(i-1)/4}", "neutral", None),
    ("n-inner-product-transpose", CH, 113, r"- 2\langle\boldsymbol{u}, \boldsymbol{v}\rangle", r"- 2\boldsymbol{u}^{\mathsf{T}}\boldsymbol{v}", "neutral", None),
    ("n-B0-frac", CH, 192, r"$B(0) = (N + 1)/2$", r"$B(0) = \frac{N + 1}{2}$", "neutral", None),
    ("n-ln-for-log", CH, 235, r"\frac{\log(L/2\pi)}{\log b}", r"\frac{\ln(L/2\pi)}{\ln b}", "neutral", None),
    ("n-decimal-half", CH, 264, r"\rho_8 = 1/2", r"\rho_8 = 0.5", "neutral", None),
    ("n-reword-alibi-range", CH, 297, r"その代わり、ヘッドごとの「見る範囲」が傾きで決まります。",
     r"その代わりに、各ヘッドが見る範囲は傾きによって決まります。", "neutral", None),
    ("n-comma-1000", CH, 382, r"1,000 組の乱数", r"$1{,}000$ 組の乱数", "neutral", None),
    ("n-reword-next-chapter", CH, 386, r"長い文脈への拡張は次章で扱います。", r"長い文脈への拡張は、次の章で扱います。", "neutral", None),
]


if __name__ == "__main__":
    import collections
    import pathlib
    import sys

    here = pathlib.Path(__file__).resolve().parent
    texts = {}
    bad = 0
    for name, fname, line, old, new, cat, exp in SLIPS:
        if fname not in texts:
            texts[fname] = (here / fname).read_text(encoding="utf-8").splitlines()
        lines = texts[fname]
        n = lines[line - 1].count(old) if 1 <= line <= len(lines) else -1
        if n != 1 or old == new:
            bad += 1
            print(f"BAD  {name}: line {line} holds {n} occurrences of {old!r}")
    names = [s[0] for s in SLIPS]
    for nm, c in collections.Counter(names).items():
        if c > 1:
            bad += 1
            print(f"BAD  duplicate name {nm}")
    counts = collections.Counter(s[5] for s in SLIPS)
    for cat in ("prose arithmetic", "rounding", "example number", "table cell",
                "listing output", "formula", "claim", "structure", "neutral"):
        print(f"{cat:>17}: {counts.get(cat, 0)}")
    print(f"{'slips':>17}: {sum(v for k, v in counts.items() if k != 'neutral')}")
    print("all edits apply" if not bad else f"{bad} problems")
    sys.exit(1 if bad else 0)
