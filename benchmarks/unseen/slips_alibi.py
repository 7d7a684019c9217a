"""Data: one-slip edits of the chapter alibi.txt (ALiBi と系列長の外挿).

Each entry of SLIPS is a tuple
    (name, chapter file name, line, old, new, category, expected line or None)
meaning: on the 1-based `line` of the chapter, `old` occurs exactly once; replacing it by
`new` (one occurrence) puts exactly one mistake of the given category into the chapter (or,
for the category "neutral", changes only how something is written, keeping every number and
formula true).  `expected line` is None when the mistake is visible at the edited line; for a
structural slip whose broken element opens elsewhere (an end of proof ∎ deleted), it is the
line of the proof's heading.

Numeric slips (prose arithmetic, rounding, example number, table cell, listing output) were
checked by applying each one to a scratch copy of the chapter (with recompute_alibi.py copied
beside it, since the script reads alibi.txt from its own folder) and running the script: it
exits 1 on every one of them.

Neutral edits on which recompute_alibi.py still exits 1 only because it matches printed text
literally: "neutral 1,179 in the summary with TeX separator" (the script looks for the literal
fragment "幅は約 9.210 から約 1,179 までです").  All other neutral edits leave it at exit 0.
"""

F = "alibi.txt"

SLIPS = [
    # ------------------------------------------------------------ prose arithmetic
    ("32/16 computed as 4", F, 135,
     r"$32/16 = 2$", r"$32/16 = 4$", "prose arithmetic", None),
    ("1.5415 - 1.5 miscomputed", F, 208,
     r"1.5 = 0.0415$", r"1.5 = 0.0515$", "prose arithmetic", None),
    ("1/16 written with transposed digits", F, 118,
     r"$1/16 = 0.0625$", r"$1/16 = 0.0652$", "prose arithmetic", None),
    ("2 - 16 computed as -18", F, 238,
     r"$e^{2 - 16} = e^{-14}", r"$e^{2 - 16} = e^{-18}", "prose arithmetic", None),
    ("1030 - 1024 computed as 4", F, 280,
     "6 だけ離れた", "4 だけ離れた", "prose arithmetic", None),
    ("0.1366 / (2 pi) as a percentage off by a factor 10", F, 284,
     "約 2.2 %", "約 0.22 %", "prose arithmetic", None),
    ("e^{2-4} simplified to e^{-3}", F, 238,
     r"$e^{2 - 4} = e^{-2}", r"$e^{2 - 4} = e^{-3}", "prose arithmetic", None),

    # ------------------------------------------------------------ rounding
    ("2^{-3/2} = 0.353553 truncated", F, 57,
     "0.3536", "0.3535", "rounding", None),
    ("log 100 = 4.605170 truncated", F, 196,
     "4.6052", "4.6051", "rounding", None),
    ("A_{16,16} of head 8 = 0.064348 truncated", F, 118,
     "0.06435", "0.06434", "rounding", None),
    ("t of head 8 = 0.017986 truncated", F, 238,
     "0.01799", "0.01798", "rounding", None),
    ("sqrt(2) log 100 = 6.51269 truncated", F, 412,
     "6.513", "6.512", "rounding", None),
    ("variance 3.91770 truncated", F, 424,
     r"\approx 3.918$", r"\approx 3.917$", "rounding", None),
    ("1024 omega_31 = 0.136553 truncated", F, 284,
     "0.1366", "0.1365", "rounding", None),
    ("16 pi = 50.26548 truncated", F, 432,
     "50.2655", "50.2654", "rounding", None),
    ("e^{-8} = 3.3546e-4 truncated", F, 116,
     r"3.355 \times", r"3.354 \times", "rounding", None),

    # ------------------------------------------------------------ example number
    ("count 0..6 given as 6 instead of 7", F, 412,
     "の 7 個", "の 6 個", "example number", None),
    ("mu(m_1) with transposed digits", F, 412,
     "0.9727", "0.9772", "example number", None),
    ("t of head 7 with the wrong power of ten", F, 238,
     r"3.354 \times 10^{-4}", r"3.354 \times 10^{-3}", "example number", None),
    ("argmin 4075 with transposed digits", F, 280,
     r"$k = 4{,}075$", r"$k = 4{,}057$", "example number", None),
    ("cos 25 with transposed digits", F, 432,
     "0.9912", "0.9921", "example number", None),
    ("A_{16,15} of head 1 with transposed digits", F, 118,
     "0.2387", "0.2378", "example number", None),
    ("44 - 14 pi miscopied", F, 432,
     "との差 0.0177", "との差 0.0187", "example number", None),

    # ------------------------------------------------------------ table cell
    ("exp(-1) cell of row k = 2 truncated", F, 111,
     "\t0.3679\t", "\t0.3678\t", "table cell", None),
    ("cell of row k = 8, head 2 with transposed digits", F, 113,
     "\t0.1353\t", "\t0.1335\t", "table cell", None),
    ("span of head 2 with transposed digits", F, 200,
     "18.42", "18.24", "table cell", None),
    ("count for head 8 taken as ceil + 1", F, 206,
     "\t1179\t255", "\t1180\t255", "table cell", None),
    ("truncated mean of head 3 with a misplaced digit", F, 201,
     "5.006", "5.060", "table cell", None),
    ("e^{-1030/256} with transposed digits", F, 276,
     "0.01789", "0.01798", "table cell", None),
    ("g(2048) without its minus sign", F, 277,
     "\t-0.0397\t", "\t0.0397\t", "table cell", None),
    ("lower bound 1/m - 1/2 of head 5 off by one", F, 203,
     "\t31.5\t", "\t32.5\t", "table cell", None),

    # ------------------------------------------------------------ listing output
    ("listing: A_{16,15} of head 1 off in the last digit", F, 353,
     "0.2387", "0.2386", "listing output", None),
    ("listing: mean distance of head 3 with transposed digits", F, 356,
     "5.0061", "5.0016", "listing output", None),
    ("listing: max weight / bound with transposed digits", F, 359,
     "0.7301", "0.7310", "listing output", None),
    ("listing: L1 of head 7 off in the last digit", F, 390,
     "6.7070e-04", "6.7071e-04", "listing output", None),
    ("listing: argmin 4075 with transposed digits", F, 394,
     "k = 4075", "k = 4057", "listing output", None),
    ("listing: distance-15 weight of head 8 with transposed digits", F, 354,
     "6.0686e-02", "6.0868e-02", "listing output", None),
    ("listing: exp(2 - L m) of head 6 with transposed digits", F, 389,
     "8.3153e-07", "8.3135e-07", "listing output", None),

    # ------------------------------------------------------------ formula
    ("bias defined with j - i (sign flipped)", F, 39,
     r"-m_h\,(i - j), \qquad", r"-m_h\,(j - i), \qquad", "formula", None),
    ("slope definition without the factor 8", F, 53,
     r"2^{-8h/H}", r"2^{-h/H}", "formula", None),
    ("key-position bias with the wrong sign in the first entry", F, 68,
     r"c_{i1} + m,\ ", r"c_{i1} - m,\ ", "formula", None),
    ("geometric row normalised by 1 - r^{i-1}", F, 93,
     r"{1 - r^{i}}$$", r"{1 - r^{i-1}}$$", "formula", None),
    ("weighted geometric sum with n + 1 for n - 1", F, 144,
     r"(n - 1)\,r^{n+1}", r"(n + 1)\,r^{n+1}", "formula", None),
    ("infinite weighted sum with 1 for r in the numerator", F, 145,
     r"\frac{r}{(1 - r)^{2}}", r"\frac{1}{(1 - r)^{2}}", "formula", None),
    ("span of head h with the exponent's sign flipped", F, 174,
     r"$s_\varepsilon(m_h) = 2^{8h/H}", r"$s_\varepsilon(m_h) = 2^{-8h/H}", "formula", None),
    ("proof step: sign of the j' bias term not flipped", F, 75,
     r"+ m(i - j')\big)", r"- m(i - j')\big)", "formula", None),
    ("proof step: 1/(2+m) + 1/(2-m) with numerator 2", F, 186,
     r"\frac{4}{4 - m^{2}} - 1", r"\frac{2}{4 - m^{2}} - 1", "formula", None),
    ("sinusoid frequencies with -l/d for -2l/d", F, 244,
     r"10000^{-2l/d}", r"10000^{-l/d}", "formula", None),
    ("exercise 8.2: second term added instead of subtracted", F, 422,
     r"} - \frac{r}{1 - r} =", r"} + \frac{r}{1 - r} =", "formula", None),

    # ------------------------------------------------------------ claim
    ("three questions announced as four", F, 25,
     "次の 3 つの問い", "次の 4 つの問い", "claim", None),
    ("geometric row said to be increasing in k", F, 95,
     "狭義単調減少である", "狭義単調増加である", "claim", None),
    ("tail bound said to grow with i", F, 125,
     "右端は $i$ によらない。", "右端は $i$ とともに増える。", "claim", None),
    ("lower bound on the mean 1/m - 1/4 instead of 1/m - 1/2", F, 173,
     r"\dfrac{1}{m} - \dfrac{1}{2} < \mu(m)", r"\dfrac{1}{m} - \dfrac{1}{4} < \mu(m)", "claim", None),
    ("tail below epsilon for K <= s instead of K >= s", F, 172,
     r"$K \ge s_\varepsilon(m)$", r"$K \le s_\varepsilon(m)$", "claim", None),
    ("truncated mean said to exceed mu(m_h)", F, 208,
     r"$\mu(m_h)$ より小さく", r"$\mu(m_h)$ より大きく", "claim", None),
    ("L1 distance bound 2 r^i tightened to r^i (false)", F, 217,
     r"< 2r^{i}$ である", r"< r^{i}$ である", "claim", None),
    ("linear bias said to converge to 0", F, 263,
     r"$-\infty$ に発散します", "0 に収束します", "claim", None),
    ("ALiBi ratio said to grow with distance", F, 280,
     "距離とともに単調に小さくなります", "距離とともに単調に大きくなります", "claim", None),
    ("two values of k counted as three", F, 432,
     "の 2 つです", "の 3 つです", "claim", None),
    ("examples said to use only H = 8", F, 57,
     "この章の例は $H = 8$ と $H = 16$ だけです", "この章の例は $H = 8$ だけです", "claim", None),
    ("summary: tail bound said to decrease with i", F, 9,
     "$i$ によりません", "$i$ とともに減ります", "claim", None),

    # ------------------------------------------------------------ structure
    ("end of proof of 3.1 deleted", F, 85, "∎", "", "structure", 71),
    ("end of proof of 3.4 deleted", F, 133, "∎", "", "structure", 127),
    ("end of proof of 4.3 deleted", F, 190, "∎", "", "structure", 176),
    ("proposition 3.4 numbered 3.2 (duplicate)", F, 120,
     "命題 3.4（", "命題 3.2（", "structure", None),
    ("reference to a proposition 4.5 that does not exist", F, 99,
     "（命題 4.1 の 3）", "（命題 4.5 の 3）", "structure", None),
    ("unpaired $ after s_eps definition", F, 163,
     "/m$ を、しきい値", "/m を、しきい値", "structure", None),
    ("proposition 4.1 turned into a lemma", F, 139,
     "命題 4.1（", "補題 4.1（", "structure", None),
    ("proposition 5.4 numbered 5.5 (clashes with example 5.5)", F, 246,
     "命題 5.4（", "命題 5.5（", "structure", None),

    # ------------------------------------------------------------ neutral
    ("neutral 1{,}024 without separator", F, 236,
     r"$L = 1{,}024$", r"$L = 1024$", "neutral", None),
    ("neutral ln for log in the span definition", F, 163,
     r"\log(1/\varepsilon)/m$ を、", r"\ln(1/\varepsilon)/m$ を、", "neutral", None),
    ("neutral mean written r/(1 - r)", F, 173,
     r"$\mu(m) = \dfrac{1}{e^{m} - 1}$", r"$\mu(m) = \dfrac{e^{-m}}{1 - e^{-m}}$", "neutral", None),
    ("neutral 4 - m^2 factored", F, 186,
     r"\frac{m^{2}}{4 - m^{2}} > 0", r"\frac{m^{2}}{(2 - m)(2 + m)} > 0", "neutral", None),
    ("neutral slopes written as powers of two", F, 57,
     r"$1/2, 1/4, 1/8, \ldots, 1/256$", r"$2^{-1}, 2^{-2}, 2^{-3}, \ldots, 2^{-8}$", "neutral", None),
    ("neutral reworded sentence", F, 5,
     "式と小さな数値例で確かめます", "式と小さな数値の例で確かめます", "neutral", None),
    ("neutral full-width digit", F, 27,
     "（3 節）", "（３ 節）", "neutral", None),
    ("neutral 1/256 as an exact decimal", F, 412,
     r"$m_{16} = 2^{-8} = 1/256$", r"$m_{16} = 2^{-8} = 0.00390625$", "neutral", None),
    ("neutral m = 1/16 as 0.0625", F, 135,
     r"$m = 1/16$ のヘッド", r"$m = 0.0625$ のヘッド", "neutral", None),
    ("neutral spacing in math", F, 39,
     r"-m_h\,(i - j)", r"-m_h (i - j)", "neutral", None),
    ("neutral 2,048 with TeX separator", F, 238,
     "第 2,048 行で", r"第 $2{,}048$ 行で", "neutral", None),
    # recompute_alibi.py exits 1 on this one only because it looks for the fragment
    # "幅は約 9.210 から約 1,179 までです" literally
    ("neutral 1,179 in the summary with TeX separator", F, 10,
     "約 1,179 まで", r"約 $1{,}179$ まで", "neutral", None),
]


if __name__ == "__main__":
    from collections import Counter
    from pathlib import Path

    here = Path(__file__).resolve().parent
    texts = {}
    bad = 0
    for name, chapter, line, old, new, category, expected in SLIPS:
        if chapter not in texts:
            texts[chapter] = (here / chapter).read_text(encoding="utf-8").split("\n")
        lines = texts[chapter]
        text = lines[line - 1] if 1 <= line <= len(lines) else ""
        n = text.count(old)
        if n != 1 or old == new:
            bad += 1
            print(f"BAD  {name!r}: line {line} holds {old!r} {n} times")
    counts = Counter(s[5] for s in SLIPS)
    for category in ("prose arithmetic", "rounding", "example number", "table cell",
                     "listing output", "formula", "claim", "structure", "neutral"):
        print(f"{category:17s} {counts.get(category, 0)}")
    print(f"slips {sum(v for k, v in counts.items() if k != 'neutral')}, neutral {counts['neutral']}, "
          f"bad {bad}")
    raise SystemExit(1 if bad else 0)
