"""Data: one-slip edits of the chapter flash.mdx (オンライン softmax と FlashAttention).

Each tuple (name, chapter file name, line, old, new, category, expected line or None) describes
ONE edit: on the 1-based `line` of the chapter, the string `old` (which occurs exactly once on
that line) is replaced by `new`. Every edit except those of category "neutral" puts exactly one
mistake of the kind an author makes into the chapter; the "neutral" edits change only how
something is written and keep every number and formula true.

`expected line` is None when the mistake is visible at the edited line; for a structural slip
whose broken element opens elsewhere (a deleted closing tag) it is the line where that element
opens.

Checked against recompute_flash.py: the script exits 1 on every numeric slip (categories
"prose arithmetic", "rounding", "example number", "table cell", "listing output"), and also on
the claims C04 and C05 and the structural slip S07, whose text it matches. Among the neutral
edits, the script fails only on N08 ("0.5" written as "1/2"), because it matches the printed
text "係数は $2d/B_r = 0.5$ です" literally; all other neutral edits leave it at exit 0.
"""

F = "flash.mdx"

SLIPS = [
    # ------------------------------------------------------------------ prose arithmetic
    ("PA01 fp16 bytes of S, digits swapped", F, 28,
     "= 33{,}554{,}432$", "= 33{,}554{,}423$", "prose arithmetic", None),
    ("PA02 total SRAM 192 x 108, digits swapped", F, 37,
     "= 20{,}736$", "= 20{,}376$", "prose arithmetic", None),
    ("PA03 causal IO sum, digits swapped", F, 230,
     "= 137{,}379{,}840$", "= 137{,}379{,}480$", "prose arithmetic", None),
    ("PA04 standard IO lower bound for n = 8 miscounted", F, 402,
     "256 + 128 = 384", "256 + 128 = 374", "prose arithmetic", None),
    ("PA05 causal IO for n = 8 with the +n dropped", F, 401,
     "64 + 160 + 8 = 232", "64 + 160 + 8 = 224", "prose arithmetic", None),
    ("PA06 standard lower bound n = 8192, digits swapped", F, 432,
     "= 272{,}629{,}760$", "= 272{,}629{,}670$", "prose arithmetic", None),
    ("PA07 16 heads x 8 sequences in MiB", F, 28,
     "= 4{,}096$ MiB", "= 2{,}048$ MiB", "prose arithmetic", None),

    # ------------------------------------------------------------------ rounding
    ("R01 o_B1/l_B1 second component truncated (0.88080)", F, 168,
     "0.8808", "0.8807", "rounding", None),
    ("R02 l_B2 = 1.049787 truncated", F, 169,
     "\\approx 1.0498", "\\approx 1.0497", "rounding", None),
    ("R03 log-sum-exp 5.185182 truncated", F, 107,
     "\\approx 5.1852", "\\approx 5.1851", "rounding", None),
    ("R04 FLOP increase 50.78 % truncated", F, 218,
     "\\approx 51$ %", "\\approx 50$ %", "rounding", None),
    ("R05 causal / plain IO ratio 0.507782 truncated", F, 230,
     "約 0.5078 倍", "約 0.5077 倍", "rounding", None),
    ("R06 L_1 = 2.274895 truncated", F, 400,
     "\\approx 2.2749", "\\approx 2.2748", "rounding", None),
    ("R07 e^{-2} l_B1 = 0.153651 truncated", F, 421,
     "0.1537/1.2034", "0.1536/1.2034", "rounding", None),
    ("R08 merged o second component -0.814878 truncated", F, 170,
     "-0.8149)$", "-0.8148)$", "rounding", None),
    ("R09 IO table ratio for n = 2048 (7.32697) truncated", F, 309,
     "| 7.327 |", "| 7.326 |", "rounding", None),

    # ------------------------------------------------------------------ example number
    ("E01 l_3 copied with swapped digits in the t = 4 step", F, 107,
     "$1.5032 \\times e^{-2}", "$1.5023 \\times e^{-2}", "example number", None),
    ("E02 sigma_3 digits swapped", F, 107,
     "0.0414", "0.0441", "example number", None),
    ("E03 l_B1 computed with e^{-1} instead of e^{-2}", F, 168,
     "\\approx 1.1353", "\\approx 1.3679", "example number", None),
    ("E04 l_B2 copied with swapped digits in the merge", F, 170,
     "+ 1.0498 \\approx", "+ 1.0489 \\approx", "example number", None),
    ("E05 sigma_4 miscopied in the direct average", F, 172,
     "- 0.8310)$", "- 0.8130)$", "example number", None),
    ("E06 U(256, 64): K_j, V_j counted once (d B_c)", F, 304,
     "+ 8{,}192 +", "+ 4{,}096 +", "example number", None),
    ("E07 exercise T_r with floor instead of ceiling", F, 432,
     "\\rceil = 43$", "\\rceil = 42$", "example number", None),
    ("E08 exercise normalized o_B2 digits swapped", F, 421,
     "-0.9051)$", "-0.9015)$", "example number", None),
    ("E09 IO for n = 1024 without the +n", F, 314,
     "= 656{,}384$", "= 655{,}360$", "example number", None),
    ("E10 exercise U(192, 64) digits swapped", F, 432,
     "= 78{,}592 \\le", "= 78{,}529 \\le", "example number", None),

    # ------------------------------------------------------------------ table cell
    ("T01 n^2 for n = 65536 written as 2^32 - 1", F, 35,
     "4,294,967,296", "4,294,967,295", "table cell", None),
    ("T02 L storage for n = 16384 counted in fp16", F, 34,
     "| 64 |", "| 32 |", "table cell", None),
    ("T03 online table: rescaling factor at t = 4 as e^{-3}", F, 105,
     "| 0.1353 |", "| 0.0498 |", "table cell", None),
    ("T04 IO table n = 4096 tiled without the +n", F, 310,
     "8,916,992", "8,912,896", "table cell", None),
    ("T05 IO table n = 2048 standard bound, digits swapped", F, 309,
     "17,301,504", "17,301,540", "table cell", None),
    ("T06 online table: first factor e^{-inf} written 1", F, 102,
     "| 0 |", "| 1 |", "table cell", None),
    ("T07 IO table n = 8192: T_c computed as n/B_r", F, 311,
     "| 32 | 128 |", "| 32 | 32 |", "table cell", None),

    # ------------------------------------------------------------------ listing output
    ("L01 printed l after block 4, digits swapped", F, 391,
     "l 5.3007", "l 5.3070", "listing output", None),
    ("L02 printed io for Br=2 Bc=2", F, 392,
     "io = 328", "io = 320", "listing output", None),
    ("L03 printed standard io, digits swapped", F, 396,
     "= 384", "= 348", "listing output", None),
    ("L04 printed io for n = 1024 without the +n", F, 397,
     "io = 656384", "io = 655360", "listing output", None),
    ("L05 printed causal io", F, 395,
     "io = 232", "io = 224", "listing output", None),
    ("L06 printed alpha of block 2", F, 389,
     "alpha 0.7333", "alpha 0.7332", "listing output", None),

    # ------------------------------------------------------------------ formula
    ("F01 definition: rescaling exponent with swapped sign", F, 65,
     "e^{m_{t-1} - m_t}", "e^{m_t - m_{t-1}}", "formula", None),
    ("F02 invariant: l_t with the old maximum", F, 75,
     "e^{z_j - m_t}", "e^{z_j - m_{t-1}}", "formula", None),
    ("F03 proposition: log-sum-exp with a minus sign", F, 77,
     "= m_n + \\log \\ell_n", "= m_n - \\log \\ell_n", "formula", None),
    ("F04 merge definition: second rescaling factor missing", F, 123,
     "e^{m_2 - m}\\ell_2", "\\ell_2", "formula", None),
    ("F05 tiled update: accumulator not rescaled", F, 185,
     "\\mathrm{diag}(\\boldsymbol{\\alpha})\\,\\tilde{O}", "\\tilde{O}", "formula", None),
    ("F06 tiled definition: L_i with a minus sign", F, 188,
     "\\boldsymbol{m} + \\log \\boldsymbol{\\ell}", "\\boldsymbol{m} - \\log \\boldsymbol{\\ell}",
     "formula", None),
    ("F07 SRAM count U: factor 2 of K_j, V_j missing", F, 190,
     "+ 2B_cd + B_rB_c$", "+ B_cd + B_rB_c$", "formula", None),
    ("F08 recompute: exponent with swapped arguments", F, 236,
     "e^{s_{rc} - L_r}$", "e^{L_r - s_{rc}}$", "formula", None),
    ("F09 corollary: wrong exponent of d", F, 284,
     "\\frac{16n^2d^2}{M}", "\\frac{16n^2d}{M}", "formula", None),
    ("F10 proof of invariant: wrong upper index of the sum", F, 85,
     "\\sum_{j=1}^{t-1} e^{z_j - m_{t-1}}", "\\sum_{j=1}^{t} e^{z_j - m_{t-1}}", "formula", None),
    ("F11 proof of corollary: wrong denominator", F, 294,
     "\\frac{5M}{4d}", "\\frac{5M}{2d}", "formula", None),
    ("F12 limit of the IO ratio inverted factor", F, 276,
     "\\to \\frac{2B_r}{d}", "\\to \\frac{B_r}{2d}", "formula", None),
    ("F13 causal proposition: tile count T(T-1)/2", F, 224,
     "$T(T+1)/2$ 個", "$T(T-1)/2$ 個", "formula", None),
    ("F14 theorem: swapped indices of s", F, 196,
     "e^{s_{rj}}", "e^{s_{jr}}", "formula", None),

    # ------------------------------------------------------------------ claim
    ("C01 invariant: strict lower bound false at t = 1", F, 76,
     "$1 \\le \\ell_t \\le t$", "$1 < \\ell_t \\le t$", "claim", None),
    ("C02 merge coefficients: at least two equal to 1", F, 134,
     "少なくとも 1 つは 1", "少なくとも 2 つは 1", "claim", None),
    ("C03 tiled IO depends on B_c", F, 264,
     "$B_c$ に依らない", "$B_c$ に反比例する", "claim", None),
    ("C04 SRAM two orders of magnitude faster", F, 37,
     "1 桁速い", "2 桁速い", "claim", None),
    ("C05 count of FlashAttention ideas no longer matches the list", F, 37,
     "次の 3 つです", "次の 4 つです", "claim", None),
    ("C06 count of passes over a row no longer matches the list", F, 57,
     "同じ行を 3 回読みます", "同じ行を 2 回読みます", "claim", None),
    ("C07 passes after the online scan", F, 94,
     "の 2 回に減ります", "の 1 回に減ります", "claim", None),
    ("C08 standard IO: lower bound stated as upper bound", F, 252,
     "少なくとも $4n^2", "高々 $4n^2", "claim", None),
    ("C09 direction: B_r should be small", F, 278,
     "できるだけ大きく取れば", "できるだけ小さく取れば", "claim", None),
    ("C10 corollary hypothesis d >= 4 (proof needs d >= 5)", F, 282,
     "$d \\ge 5$", "$d \\ge 4$", "claim", None),
    ("C11 doubling n: IO roughly doubles", F, 314,
     "ほぼ 4 倍", "ほぼ 2 倍", "claim", None),
    ("C12 count of conclusions no longer matches the list", F, 407,
     "確かめたことは 3 つです", "確かめたことは 4 つです", "claim", None),
    ("C13 recomputation also reduces multiplications", F, 246,
     "乗算は増えますが、HBM の読み書きは減ります", "乗算も HBM の読み書きも減ります", "claim", None),
    ("C14 limit of the causal tile fraction", F, 230,
     "が大きいと $1/2$ に近づきます", "が大きいと $1/4$ に近づきます", "claim", None),

    # ------------------------------------------------------------------ structure
    ("S01 closing tag of prop-online-softmax deleted", F, 79,
     "</Proposition>", "", "structure", 71),
    ("S02 closing tag of the proof of prop-online-softmax deleted", F, 92,
     "</Proof>", "", "structure", 81),
    ("S03 closing tag of ex-online-softmax deleted", F, 109,
     "</Example>", "", "structure", 96),
    ("S04 reference to a non-existent definition", F, 162,
     '<Ref to="def-online-softmax" />', '<Ref to="def-online-scan" />', "structure", None),
    ("S05 element kind changed: Theorem opened as Proposition", F, 262,
     "<Theorem id=", "<Proposition id=", "structure", None),
    ("S06 duplicated exercise id", F, 426,
     'id="exr-io-a100"', 'id="exr-normalized-merge"', "structure", None),
    ("S07 unpaired dollar", F, 246,
     "$n = 65536$ なら", "$n = 65536 なら", "structure", None),
    ("S08 closing tag of def-io-model deleted", F, 55,
     "</Definition>", "", "structure", 45),
    ("S09 closing tag of the first solution deleted", F, 423,
     "</Solution>", "", "structure", 415),
    ("S10 closing tag of the proof of cor-io-bound deleted", F, 298,
     "</Proof>", "", "structure", 290),
    ("S11 reference with a typo in the id", F, 304,
     '<Ref to="prop-tiled-flops" />', '<Ref to="prop-tiled-flop" />', "structure", None),

    # ------------------------------------------------------------------ neutral
    ("N01 reworded sentence", F, 8,
     "式で確かめます", "式で確認します", "neutral", None),
    ("N02 equivalent formula for the attention cost", F, 19,
     "$4nd^2 + 2n^2d$", "$2nd(2d + n)$", "neutral", None),
    ("N03 tiled IO expanded", F, 13,
     "$2nd(T_r + 1) + n$", "$2ndT_r + 2nd + n$", "neutral", None),
    ("N04 spacing in math", F, 83,
     "$m_1 = \\max(-\\infty, z_1) = z_1$", "$m_1=\\max(-\\infty,z_1)=z_1$", "neutral", None),
    ("N05 \\ln for \\log (natural logarithm throughout)", F, 90,
     "$m_n + \\log \\ell_n$", "$m_n + \\ln \\ell_n$", "neutral", None),
    ("N06 1024 written 1{,}024", F, 403,
     "$n = 1024$、", "$n = 1{,}024$、", "neutral", None),
    ("N07 full-width digit in a section reference", F, 39,
     "（5 節）", "（５ 節）", "neutral", None),
    # recompute_flash.py fails on N08 only because it matches "= 0.5$ です" literally
    ("N08 exact decimal written as a fraction", F, 300,
     "$2d/B_r = 0.5$", "$2d/B_r = 1/2$", "neutral", None),
    ("N09 equivalent form of the triangular number", F, 230,
     "i = T(T+1)/2$", "i = (T^2 + T)/2$", "neutral", None),
    ("N10 reworded reference to item 2", F, 162,
     "2 の結合性があるので", "結合性（2）があるので", "neutral", None),
    ("N11 spacing in display math", F, 65,
     "\\qquad", "\\quad", "neutral", None),
]


if __name__ == "__main__":
    import collections
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    cache = {}
    bad = 0
    for name, fname, line, old, new, cat, exp in SLIPS:
        if fname not in cache:
            with open(os.path.join(here, fname), encoding="utf-8") as f:
                cache[fname] = f.read().split("\n")
        text = cache[fname][line - 1]
        k = text.count(old)
        if k != 1:
            print(f"BAD {name}: old occurs {k} times on line {line}")
            bad += 1
        if old == new:
            print(f"BAD {name}: old == new")
            bad += 1
    names = [s[0] for s in SLIPS]
    if len(set(names)) != len(names):
        print("BAD: duplicated names")
        bad += 1
    counts = collections.Counter(s[5] for s in SLIPS)
    order = ["prose arithmetic", "rounding", "example number", "table cell", "listing output",
             "formula", "claim", "structure", "neutral"]
    for c in order:
        print(f"{c:18} {counts.get(c, 0)}")
    print(f"{'slips':18} {sum(v for c, v in counts.items() if c != 'neutral')}")
    print(f"{'total':18} {len(SLIPS)}")
    sys.exit(1 if bad else 0)
