"""Data: one-slip edits of the chapter quantization.mdx (MDX form).

Each entry of SLIPS is (name, chapter file name, line, old, new, category, expected line or None):
applying it replaces the single occurrence of `old` on the 1-based `line` of the chapter by `new`,
which leaves the chapter with exactly one mistake of the given category (or, for "neutral", with the
same mathematics written differently). `expected line` is None when the mistake shows at the edited
line; for a structural slip whose broken element opens elsewhere it is the line where it opens.

The numeric slips (prose arithmetic, rounding, example number, table cell, listing output) were each
checked by running recompute_quantization.py on a copy of the chapter with the edit applied: it exits
1 on every one of them. Neutral edits keep every number and formula true; the recompute script
matches printed text literally, so it exits 1 on the neutral edits marked "literal" below (and only
because the context it looks for is no longer there verbatim), and exits 0 on the others.

Of the numeric slips, qz-pa-e4m3-power and qz-pa-two-qmax change a number the script does not
recompute (2^8 in 2^{15-7} = 2^8 x 1.75, and 2 x 127 = 254); the script still exits 1 on them, but
only because the sentence it quotes no longer appears verbatim. All others fail a value comparison
or the listing comparison as well.
"""

CH = "quantization.mdx"

SLIPS = [
    # ------------------------------------------------------------ prose arithmetic
    ("qz-pa-fp32-bytes", CH, 26, r"497{,}759{,}232", r"497{,}795{,}232", "prose arithmetic", None),   # 4 x 124,439,808 with two digits swapped
    ("qz-pa-e4m3-power", CH, 92, r"2^{8} \times 1.75", r"2^{7} \times 1.75", "prose arithmetic", None),  # 2^{15-7} is 2^8, not 2^7
    ("qz-pa-fp16-halfgap", CH, 158, r"65{,}504 + 16 = 65{,}520", r"65{,}504 + 32 = 65{,}520", "prose arithmetic", None),  # full gap instead of half gap
    ("qz-pa-two-qmax", CH, 201, r"2 \times 127 = 254", r"2 \times 127 = 256", "prose arithmetic", None),
    ("qz-pa-ratio-768", CH, 250, r"0.2513", r"0.2531", "prose arithmetic", None),  # 1/4 + 1/768 = 0.25130..., digits swapped
    ("qz-pa-bf16-patterns", CH, 108, r"2^{8} \times 255 = 65{,}280", r"2^{8} \times 255 = 65{,}208", "prose arithmetic", None),

    # ------------------------------------------------------------ rounding (truncated instead of rounded)
    ("qz-rd-int8-mib", CH, 14, r"118.7", r"118.6", "rounding", None),          # 118.675...
    ("qz-rd-fp16-mib", CH, 279, r"237.4", r"237.3", "rounding", None),         # 237.350...
    ("qz-rd-fp16-eps", CH, 104, r"9.766", r"9.765", "rounding", None),         # 9.765625e-4
    ("qz-rd-xmax-ratio", CH, 108, r"0.9961", r"0.9960", "rounding", None),     # 0.99609...
    ("qz-rd-log65520", CH, 158, r"11.09", r"11.08", "rounding", None),         # ln 65520 = 11.0901
    ("qz-rd-rel-err", CH, 228, r"86.5", r"86.4", "rounding", None),            # 0.01855/0.02145 = 86.48 %
    ("qz-rd-int8-scale", CH, 414, r"0.005512", r"0.005511", "rounding", None),  # 0.7/127 = 0.0055118
    ("qz-rd-bf16-gib", CH, 425, r"13.04", r"13.03", "rounding", None),         # 1.4e10/2^30 = 13.0385

    # ------------------------------------------------------------ table cells
    ("qz-tc-e4m3-xmax", CH, 105, r"| 448 |", r"| 480 |", "table cell", None),   # 2^8 x 1.875: counts M = 7, which is NaN
    ("qz-tc-fp16-digits", CH, 104, r"| 3.3 |", r"| 3.0 |", "table cell", None),  # m log10 2, hidden bit forgotten
    ("qz-tc-e5m2-bias", CH, 106, r"| 15 |", r"| 16 |", "table cell", None),     # 2^{e-1} without the -1
    ("qz-tc-bf16-rounded", CH, 147, r"| 205 |", r"| 204 |", "table cell", None),  # 204.8 truncated
    ("qz-tc-col2-bound", CH, 225, r"| 0.001 |", r"| 0.002 |", "table cell", None),  # s_2 instead of s_2/2
    ("qz-tc-fp16-gib", CH, 275, r"2.901", r"2.910", "table cell", None),

    # ------------------------------------------------------------ listing output
    ("qz-lo-e4m3-relerr", CH, 368, r"1.562e-02", r"1.563e-02", "listing output", None),  # hand-rounded half up; Python prints 1.562
    ("qz-lo-bf16-259", CH, 370, r"[256. 260.]", r"[256. 258.]", "listing output", None),
    ("qz-lo-bound-fp32", CH, 372, r"1/(1+u): 1.0000", r"1/(1+u): 0.9999", "listing output", None),
    ("qz-lo-xw-tensor", CH, 373, r"-0.4100 4.8500", r"-0.4080 4.8500", "listing output", None),  # copied from the next line
    ("qz-lo-err-channel", CH, 374, r"0.0004 0.0004", r"0.0004 0.0005", "listing output", None),
    ("qz-lo-fp16-xmax", CH, 362, r"6.5504e+04", r"6.5536e+04", "listing output", None),   # 2^16 instead of 65504
    ("qz-lo-48-gib", CH, 376, r"5.803", r"5.802", "listing output", None),

    # ------------------------------------------------------------ example / exercise numbers
    ("qz-ex-dequant-2", CH, 218, r"0.04,\ -0.06", r"0.02,\ -0.06", "example number", None),   # 2 x 0.02 = 0.04
    ("qz-ex-round-606", CH, 220, r"-61,\ 8)", r"-60,\ 8)", "example number", None),            # -60.6 rounded toward 0
    ("qz-ex-s2", CH, 220, r"0.254/127 = 0.002", r"0.254/127 = 0.02", "example number", None),
    ("qz-ex-xw-2", CH, 228, r"-0.4077", r"-0.4707", "example number", None),
    ("qz-ex-bound-tensor", CH, 228, r"0.01 \times 4.5 = 0.045", r"0.01 \times 4.5 = 0.45", "example number", None),
    ("qz-ex-e3m4-xmin", CH, 399, r"2^{1-3} = 0.25", r"2^{1-3} = 0.125", "example number", None),
    ("qz-ex-e3m4-subbound", CH, 401, r"2^{-7} = 0.0078125", r"2^{-7} = 0.015625", "example number", None),
    ("qz-ex-int4-maxerr", CH, 412, r"最大値 $0.04$", r"最大値 $0.03$", "example number", None),
    ("qz-ex-int8-q2", CH, 414, r"(127,\ -60,\ 22,\ -7)", r"(127,\ -59,\ 22,\ -7)", "example number", None),  # -59.87 truncated

    # ------------------------------------------------------------ formulas (definitions, statements, proof steps)
    ("qz-fm-bias", CH, 38, r"$b := 2^{e-1} - 1$", r"$b := 2^{e-1}$", "formula", None),
    ("qz-fm-subnormal-exp", CH, 44, r"2^{1 - b}\, \dfrac{M}{2^{m}}", r"2^{-b}\, \dfrac{M}{2^{m}}", "formula", None),
    ("qz-fm-min-subnormal", CH, 73, r"最小値は $2^{1-b-m}$", r"最小値は $2^{-b-m}$", "formula", None),
    ("qz-fm-pattern-count", CH, 75, r"$2^{m+1}(2^{e} - 1)$", r"$2^{m}(2^{e} - 1)$", "formula", None),  # sign bit forgotten
    ("qz-fm-abs-err", CH, 118, r"\le 2^{k-m-1}$", r"\le 2^{k-m-2}$", "formula", None),
    ("qz-fm-proof-gap", CH, 129, r"$2^{k-m-1} = 2^k u$", r"$2^{k-m-1} = 2^{k+1} u$", "formula", None),
    ("qz-fm-scale-def", CH, 173, r"{q_{\max}}, \qquad", r"{2q_{\max}}, \qquad", "formula", None),
    ("qz-fm-homog", CH, 191, r"$Q(c\boldsymbol{w}) = Q(\boldsymbol{w})$", r"$Q(c\boldsymbol{w}) = c\,Q(\boldsymbol{w})$", "formula", None),
    ("qz-fm-norm", CH, 192, r"\|\boldsymbol{x}\|_1$ である", r"\|\boldsymbol{x}\|_2$ である", "formula", None),
    ("qz-fm-scale-bytes", CH, 238, r"+ 4d_{\mathrm{out}}$ バイト", r"+ 4d_{\mathrm{in}}$ バイト", "formula", None),
    ("qz-fm-group-bits", CH, 256, r"$N(b_w + b_s/g)/8$", r"$N(b_w + b_s g)/8$", "formula", None),

    # ------------------------------------------------------------ claims
    ("qz-cl-five-formats", CH, 8, r"よく使われる 5 つ", r"よく使われる 4 つ", "claim", None),  # the chapter treats five formats
    ("qz-cl-size-indep", CH, 11, r"数の大きさによりません", r"数の大きさに比例します", "claim", None),
    ("qz-cl-three-questions", CH, 28, r"次の 3 つの問い", r"次の 4 つの問い", "claim", None),  # the list has three items
    ("qz-cl-monotone-E", CH, 83, r"値も大きくなります", r"値は小さくなります", "claim", None),
    ("qz-cl-rel-indep", CH, 119, r"$x$ の大きさによらない", r"$x$ の大きさに比例する", "claim", None),
    ("qz-cl-subnormal-rel", CH, 120, r"相対誤差は $u$ 以下とは限らない", r"相対誤差も $u$ 以下である", "claim", None),
    ("qz-cl-increasing", CH, 129, r"増加関数", r"減少関数", "claim", None),
    ("qz-cl-zero-threshold", CH, 190, r"$|w_i| < s/2$ ならば", r"$|w_i| < s$ ならば", "claim", None),
    ("qz-cl-outlier", CH, 208, r"誤差の上界が大きくなります", r"誤差の上界が小さくなります", "claim", None),
    ("qz-cl-per-entry", CH, 250, r"大きくなることもあります", r"大きくなることはありません", "claim", None),
    ("qz-cl-logit-12", CH, 158, r"ロジットが 12 程度でも", r"ロジットが 10 程度でも", "claim", None),  # e^10 = 22026 < 65520
    ("qz-cl-exceeds-u", CH, 401, r"を超えています", r"を超えていません", "claim", None),
    ("qz-cl-group-cost", CH, 425, r"スケールの分が増えます", r"スケールの分が減ります", "claim", None),

    # ------------------------------------------------------------ structure
    ("qz-st-close-prop", CH, 79, r"</Proposition>", r"", "structure", 67),
    ("qz-st-close-proof", CH, 206, r"</Proof>", r"", "structure", 196),
    ("qz-st-close-example", CH, 230, r"</Example>", r"", "structure", 210),
    ("qz-st-close-solution", CH, 403, r"</Solution>", r"", "structure", 397),
    ("qz-st-dup-id", CH, 419, r'id="exr-group-memory"', r'id="exr-int4-absmax"', "structure", None),  # duplicates line 406's id
    ("qz-st-bad-ref", CH, 245, r'<Ref to="prop-absmax-error" />', r'<Ref to="prop-absmax-bound" />', "structure", None),
    ("qz-st-unpaired-dollar", CH, 61, r"$u := \varepsilon/2$ を", r"$u := \varepsilon/2 を", "structure", None),
    ("qz-st-kind", CH, 184, r'<Proposition id="prop-absmax-error"', r'<Lemma id="prop-absmax-error"', "structure", None),  # closes with </Proposition>

    # ------------------------------------------------------------ neutral
    ("qz-nt-fullwidth", CH, 10, r"符号 1 ビット", r"符号 １ ビット", "neutral", None),
    ("qz-nt-reword", CH, 28, r"ビット数を減らすと、表せる数が減ります。", r"ビット数を減らせば、表せる数は少なくなります。", "neutral", None),
    ("qz-nt-ln", CH, 158, r"\log 65520", r"\ln 65520", "neutral", None),                # literal: recompute exits 1 (context text changed)
    ("qz-nt-spacing", CH, 119, r"u/(1 + u) < u", r"u/(1+u) < u", "neutral", None),
    ("qz-nt-ratio-frac", CH, 238, r"\dfrac14 + \dfrac{1}{d_{\mathrm{in}}}", r"\dfrac{d_{\mathrm{in}} + 4}{4d_{\mathrm{in}}}", "neutral", None),
    ("qz-nt-u-fraction", CH, 138, r"$u = 0.0625$", r"$u = 1/16$", "neutral", None),   # literal: recompute exits 1 (printed 0.0625 looked up verbatim)
    ("qz-nt-vocab-math", CH, 270, r"語彙 50,257、文脈長 1,024", r"語彙 $50{,}257$、文脈長 $1{,}024$", "neutral", None),
    ("qz-nt-gap-exp", CH, 85, r"$2^{k}\cdot 2^{-m}$", r"$2^{k-m}$", "neutral", None),
    ("qz-nt-count-expand", CH, 75, r"$2^{m+1}(2^{e} - 1)$", r"$2^{m+e+1} - 2^{m+1}$", "neutral", None),
    ("qz-nt-spacing-2", CH, 262, r"$32N/8 = 4N$", r"$32N / 8 = 4N$", "neutral", None),
]

CATEGORIES = ["prose arithmetic", "rounding", "example number", "table cell", "listing output",
              "formula", "claim", "structure", "neutral"]

if __name__ == "__main__":
    import sys
    from collections import Counter
    from pathlib import Path

    here = Path(__file__).resolve().parent
    lines = {}
    bad = 0
    for name, fname, line, old, new, cat, expected in SLIPS:
        if fname not in lines:
            lines[fname] = (here / fname).read_text(encoding="utf-8").split("\n")
        text = lines[fname][line - 1]
        n = text.count(old)
        if n != 1 or old == new or cat not in CATEGORIES:
            bad += 1
            print(f"BAD  {name}: line {line} has {n} occurrence(s) of {old!r}" + ("" if cat in CATEGORIES else f", category {cat!r}"))
    names = [s[0] for s in SLIPS]
    if len(set(names)) != len(names):
        bad += 1
        print("BAD  duplicated names")
    counts = Counter(s[5] for s in SLIPS)
    for cat in CATEGORIES:
        print(f"{cat:18s} {counts[cat]:3d}")
    print(f"{'slips (non-neutral)':18s} {sum(v for k, v in counts.items() if k != 'neutral'):3d}")
    print("all `old` strings occur exactly once on their line" if not bad else f"{bad} problem(s)")
    sys.exit(1 if bad else 0)
