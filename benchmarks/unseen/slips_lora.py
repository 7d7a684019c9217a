"""Data: one-slip edits of the chapter lora.txt (rendered-text form).

Each entry of SLIPS is (name, chapter file name, line, old, new, category, expected line or None):
applying it replaces the single occurrence of `old` on the 1-based `line` of the chapter by `new`,
which leaves the chapter with exactly one mistake of the given category (or, for "neutral", with the
same mathematics written differently). `expected line` is None when the mistake shows at the edited
line; for a structural slip whose broken element opens elsewhere it is the line where it opens (a
deleted end of proof ∎: the line of the proof's heading 「証明（…）」).

The numeric slips (prose arithmetic, rounding, example number, table cell, listing output) were each
checked by running recompute_lora.py on a copy of the chapter with the edit applied: it exits 1 on
every one of them. Neutral edits keep every number and formula true; the recompute script matches
printed text literally, so it exits 1 on the neutral edits marked "literal" below (and only because
the context it looks for is no longer there verbatim), and exits 0 on the others.

Of the numeric slips, lo-pa-bf16-gap, lo-pa-mixed-16, lo-ex-merged-diag, lo-ex-2bax and
lo-ex-dw1-sign change a number the script does not compare with a computed value (its statement
checks evaluate the script's own matrices and sums); the script still exits 1 on them, but only
because the text it quotes no longer appears verbatim. All others fail a value comparison or a
listing comparison as well.
"""

CH = "lora.txt"

SLIPS = [
    # ------------------------------------------------------------ prose arithmetic
    ("lo-pa-16n-bytes", CH, 23, r"1{,}991{,}036{,}928", r"1{,}991{,}063{,}928", "prose arithmetic", None),  # 16 x 124,439,808, digits swapped
    ("lo-pa-5r", CH, 86, r"= 5r/3072", r"= 4r/3072", "prose arithmetic", None),      # 1/768 = 4/3072, the +1/3072 forgotten
    ("lo-pa-2083", CH, 86, r"2.083", r"2.038", "prose arithmetic", None),           # 16/768 = 2.0833 %
    ("lo-pa-12288", CH, 182, r"$12{,}288$ 回", r"$12{,}228$ 回", "prose arithmetic", None),
    ("lo-pa-bf16-gap", CH, 198, r"2^{-5-7} = 2^{-12}", r"2^{-5-7} = 2^{-11}", "prose arithmetic", None),
    ("lo-pa-file-bytes", CH, 248, r"1{,}179{,}648", r"1{,}179{,}468", "prose arithmetic", None),
    ("lo-pa-mixed-16", CH, 247, r"2 + 2 + 4 + 4 + 4 = 16", r"2 + 2 + 4 + 4 = 16", "prose arithmetic", None),  # one term dropped

    # ------------------------------------------------------------ rounding (truncated instead of rounded)
    ("lo-rd-ratio-summary", CH, 8, r"0.2370", r"0.2369", "rounding", None),      # 0.236992 %
    ("lo-rd-422", CH, 242, r"約 422 分の 1", r"約 421 分の 1", "rounding", None),  # 421.956
    ("lo-rd-13-10", CH, 409, r"13.10", r"13.09", "rounding", None),              # 13.0981
    ("lo-rd-30-52", CH, 409, r"30.52", r"30.51", "rounding", None),              # 30.5176
    ("lo-rd-1578", CH, 235, r"0.1578", r"0.1577", "rounding", None),             # 0.157780 %
    ("lo-rd-4167", CH, 97, r"4.167 %", r"4.166 %", "rounding", None),            # 4.1667 %
    ("lo-rd-0521", CH, 94, r"0.521 %", r"0.520 %", "rounding", None),            # 0.5208 %

    # ------------------------------------------------------------ table cells
    ("lo-tc-73728", CH, 94, r"73,728", r"73,782", "table cell", None),
    ("lo-tc-1896", CH, 98, r"1.896 %", r"1.869 %", "table cell", None),
    ("lo-tc-23210", CH, 236, r"23.210", r"23.201", "table cell", None),
    ("lo-tc-ratio48-copied", CH, 237, r"0.2516", r"0.2524", "table cell", None),   # copied from the 12-layer column
    ("lo-tc-94940", CH, 239, r"949.40", r"949.04", "table cell", None),
    ("lo-tc-225", CH, 240, r"2.25 MiB", r"2.52 MiB", "table cell", None),

    # ------------------------------------------------------------ listing output
    ("lo-lo-full", CH, 320, r"full: 3072", r"full: 3027", "listing output", None),
    ("lo-lo-fd", CH, 322, r"finite difference -2263.2722", r"finite difference -2263.2721", "listing output", None),
    ("lo-lo-rank", CH, 324, r"rank(dW) = 4", r"rank(dW) = 2", "listing output", None),  # the rank of the target, not of the learned update
    ("lo-lo-maxdiff", CH, 325, r"4.4e-15", r"4.4e-16", "listing output", None),
    ("lo-lo-0237", CH, 365, r"0.237%", r"0.236%", "listing output", None),
    ("lo-lo-24185", CH, 369, r"241.85", r"241.58", "listing output", None),
    ("lo-lo-01266", CH, 373, r"0.1266", r"0.1265", "listing output", None),

    # ------------------------------------------------------------ example / exercise numbers
    ("lo-ex-294912", CH, 90, r"36{,}864 \times 8 = 294{,}912", r"36{,}864 \times 8 = 294{,}921", "example number", None),
    ("lo-ex-merged-diag", CH, 192, r"2 & -4 & 1", r"2 & -4 & 0", "example number", None),   # identity forgotten on the diagonal
    ("lo-ex-2bax", CH, 194, r"(-1, 0, -2)", r"(-1, 0, -4)", "example number", None),
    ("lo-ex-nl48", CH, 232, r"= 2{,}457{,}600", r"= 1{,}228{,}800", "example number", None),  # one factor 2 dropped
    ("lo-ex-078", CH, 389, r"約 0.78 %", r"約 0.078 %", "example number", None),
    ("lo-ex-b1", CH, 397, r"= (-0.1,\ 0.2,\ 0)^{\mathsf{T}}", r"= (-0.1,\ -0.2,\ 0)^{\mathsf{T}}", "example number", None),
    ("lo-ex-eta-c2", CH, 401, r"-0.4\,A_0^{\mathsf{T}}A_0", r"-0.2\,A_0^{\mathsf{T}}A_0", "example number", None),  # c instead of c^2
    ("lo-ex-4bit-ratio", CH, 409, r"比は約 0.0318", r"比は約 0.0313", "example number", None),  # 0.5/16 only, N_L term forgotten
    ("lo-ex-dw1-sign", CH, 399, r"0.2 & -0.4 & 0", r"0.2 & 0.4 & 0", "example number", None),

    # ------------------------------------------------------------ formulas (definitions, statements, proof steps)
    ("lo-fm-a-shape", CH, 37, r"$A \in \mathbb{R}^{r \times d_{\mathrm{in}}}$", r"$A \in \mathbb{R}^{d_{\mathrm{in}} \times r}$", "formula", None),  # BA no longer defined
    ("lo-fm-scale", CH, 39, r"\frac{\alpha}{r}\,B A", r"\frac{r}{\alpha}\,B A", "formula", None),
    ("lo-fm-rho-square", CH, 74, r"$\rho = 2r/d$", r"$\rho = 2r/d^2$", "formula", None),
    ("lo-fm-dw1-c", CH, 110, r"-\eta c^2\,G", r"-\eta c\,G", "formula", None),
    ("lo-fm-expect-r", CH, 111, r"c^2 r\sigma^2\,G", r"c^2 \sigma^2\,G", "formula", None),
    ("lo-fm-lr-kappa", CH, 138, r"学習率 $\eta_t/\sqrt{\kappa}$", r"学習率 $\eta_t/\kappa$", "formula", None),
    ("lo-fm-v-kappa", CH, 152, r"\boldsymbol{v}'_t = \kappa\,\boldsymbol{v}_t", r"\boldsymbol{v}'_t = \sqrt{\kappa}\,\boldsymbol{v}_t", "formula", None),
    ("lo-fm-mem-def", CH, 206, r"b_0\,(N - N_{\mathrm{T}})", r"b_0\,N", "formula", None),
    ("lo-fm-ratio-16", CH, 215, r"= b_0/16 + N_{\mathrm{L}}/N$", r"= b_0/16 + 16N_{\mathrm{L}}/N$", "formula", None),
    ("lo-fm-index-swap", CH, 117, r"c\,B_{ip}\delta_{jq}$ です", r"c\,B_{iq}\delta_{jp}$ です", "formula", None),
    ("lo-fm-merge-cost", CH, 169, r"$BA$ の $d_{\mathrm{out}}\,r\,d_{\mathrm{in}}$ 回", r"$BA$ の $d_{\mathrm{out}}\,d_{\mathrm{in}}$ 回", "formula", None),

    # ------------------------------------------------------------ claims
    ("lo-cl-sqrt-kappa", CH, 9, r"$1/\sqrt{\kappa}$ 倍することと同じ", r"$1/\kappa$ 倍することと同じ", "claim", None),
    ("lo-cl-inference-cost", CH, 10, r"推論の計算量は元のモデルと同じです", r"推論の計算量は元のモデルより少なくなります", "claim", None),
    ("lo-cl-three", CH, 25, r"次の 3 つ", r"次の 4 つ", "claim", None),   # the list has three items
    ("lo-cl-rank-bound", CH, 66, r"階数が $r$ より大きい変化は", r"階数が $r$ 以上の変化は", "claim", None),
    ("lo-cl-rho-size", CH, 86, r"行列が大きいほど小さくなります", r"行列が大きいほど大きくなります", "claim", None),
    ("lo-cl-one-over-r", CH, 129, r"$1/r$ に比例して", r"$1/r^2$ に比例して", "claim", None),
    ("lo-cl-rank-ba", CH, 190, r"階数は 1 です", r"階数は 2 です", "claim", None),
    ("lo-cl-fewer", CH, 194, r"9 個より少なく", r"9 個より多く", "claim", None),
    ("lo-cl-dominant", CH, 228, r"固定した重みそのものになります", r"Adam の状態になります", "claim", None),
    ("lo-cl-exact-match", CH, 333, r"300 ステップ後も完全に一致します", r"300 ステップ後には丸め誤差の分だけずれます", "claim", None),  # listing prints 0.0
    ("lo-cl-more", CH, 389, r"LoRA のほうが多くなります", r"LoRA のほうが少なくなります", "claim", None),
    ("lo-cl-activations", CH, 246, r"LoRA はこの分をほとんど減らしません", r"LoRA はこの分も $\rho$ の割合に減らします", "claim", None),

    # ------------------------------------------------------------ structure
    ("lo-st-qed-31", CH, 64, r"∎", r"", "structure", 56),
    ("lo-st-qed-42", CH, 158, r"∎", r"", "structure", 142),
    ("lo-st-qed-62", CH, 226, r"∎", r"", "structure", 218),
    ("lo-st-dup-number", CH, 68, r"命題 3.2（LoRA のパラメータ数）", r"命題 3.1（LoRA のパラメータ数）", "structure", None),
    ("lo-st-bad-ref", CH, 178, r"命題 3.1 の 1 を使います", r"命題 3.4 の 1 を使います", "structure", None),
    ("lo-st-unpaired-dollar", CH, 74, r"$\rho = 2r/d$ で", r"$\rho = 2r/d で", "structure", None),
    ("lo-st-kind", CH, 164, r"命題 5.1（マージしても出力は同じ）", r"定理 5.1（マージしても出力は同じ）", "structure", None),  # proof and references still say 命題 5.1
    ("lo-st-proof-of", CH, 142, r"証明（命題 4.2）", r"証明（命題 4.3）", "structure", None),

    # ------------------------------------------------------------ neutral
    ("lo-nt-reword", CH, 23, r"用途が 10 個あれば、微調整したモデルを 10 個保存することにもなります。",
     r"用途が 10 個なら、微調整したモデルも 10 個保存することになります。", "neutral", None),
    ("lo-nt-spacing", CH, 39, r"\frac{\alpha}{r}\,B A\boldsymbol{x}", r"\frac{\alpha}{r} BA\boldsymbol{x}", "neutral", None),
    ("lo-nt-frac", CH, 74, r"$\rho = 2r/d$", r"$\rho = \frac{2r}{d}$", "neutral", None),
    ("lo-nt-fullwidth", CH, 25, r"次の 3 つ", r"次の ３ つ", "neutral", None),
    ("lo-nt-1024", CH, 232, r"文脈長 1,024", r"文脈長 1024", "neutral", None),
    ("lo-nt-expand", CH, 169, r"$d_{\mathrm{in}}d_{\mathrm{out}} + r(d_{\mathrm{in}} + d_{\mathrm{out}})$（",
     r"$d_{\mathrm{in}}d_{\mathrm{out}} + r\,d_{\mathrm{in}} + r\,d_{\mathrm{out}}$（", "neutral", None),
    ("lo-nt-half", CH, 188, r"0.5 & -1 & 0 \end{pmatrix}", r"\tfrac{1}{2} & -1 & 0 \end{pmatrix}", "neutral", None),
    ("lo-nt-vocab-math", CH, 232, r"語彙 50,257", r"語彙 $50{,}257$", "neutral", None),
    ("lo-nt-spacing-2", CH, 214, r"$M_{\mathrm{full}} = 16N$", r"$M_{\mathrm{full}} = 16\,N$", "neutral", None),
    ("lo-nt-reword-2", CH, 228, r"$N_{\mathrm{L}}/N$ が小さければ、記憶量の比はほぼ", r"$N_{\mathrm{L}}/N$ が小さいとき、記憶量の比はおおよそ", "neutral", None),
    ("lo-nt-fraction", CH, 389, r"32/4096 = 0.0078125", r"32/4096 = 1/128", "neutral", None),   # literal: recompute exits 1 (printed 0.0078125 looked up verbatim)
    ("lo-nt-notation", CH, 8, r"294,912 個", r"$294{,}912$ 個", "neutral", None),              # literal: recompute exits 1 (context text changed)
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
