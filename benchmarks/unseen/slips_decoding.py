"""Data: one-slip edits of the chapter decoding.txt (出力分布とデコーディング).

Each entry of SLIPS is a tuple
    (name, chapter file name, line, old, new, category, expected line or None)
meaning: on the 1-based `line` of the chapter, `old` occurs exactly once; replacing it by
`new` puts exactly one mistake of the given category into the chapter (or, for the category
"neutral", changes only how something is written, keeping every number and formula true).
`expected line` is None when the mistake is visible at the edited line; for a structural slip
whose broken element opens elsewhere, it is the line where that element opens.

Numeric slips (prose arithmetic, rounding, example number, table cell, listing output) were
checked by applying each one to a scratch copy of the chapter and running
recompute_decoding.py on it: the script exits 1 on every one of them.

Neutral edits on which recompute_decoding.py still exits 1 because it matches printed text
literally: "neutral 8^4 without thousands separator" (the script looks for the literal
string "4{,}096" in the text).  All other neutral edits leave the script at exit 0.
"""

F = "decoding.txt"

SLIPS = [
    # ------------------------------------------------------------ prose arithmetic
    ("sum of squares 21.5 written 22.5", F, 157,
     "2 乗の平均 $21.5/8", "2 乗の平均 $22.5/8", "prose arithmetic", None),
    ("slope at T=0.5 divided by T^2 instead of T^3", F, 157,
     "\\approx 2.18$", "\\approx 1.09$", "prose arithmetic", None),
    ("TV distance 1 - 0.8448 miscomputed", F, 228,
     "1 - 0.8448 = 0.1552", "1 - 0.8448 = 0.1452", "prose arithmetic", None),
    ("beam candidates 3 + 2*3 computed as (3+2)*3", F, 301,
     "3 + 2 \\times 3 = 9", "3 + 2 \\times 3 = 15", "prose arithmetic", None),
    ("greedy share 478/1000 written 4.78 %", F, 399,
     "（47.8 %）", "（4.78 %）", "prose arithmetic", None),
    ("TV distance 1 - 0.8958 miscomputed", F, 409,
     "1 - 0.8958 = 0.1042", "1 - 0.8958 = 0.1142", "prose arithmetic", None),
    ("f'(1) = 1.3679 - 1.225 miscomputed", F, 179,
     "= 0.1429 > 0", "= 0.1329 > 0", "prose arithmetic", None),
    ("3 + log 8 with transposed digits", F, 123,
     "\\approx 5.0794", "\\approx 5.0974", "prose arithmetic", None),

    # ------------------------------------------------------------ rounding
    ("perplexity 3.8553 truncated to 3.85 in the motivation", F, 24,
     "3.86", "3.85", "rounding", None),
    ("p_4 = 0.076197 truncated", F, 91,
     "0.0762", "0.0761", "rounding", None),
    ("e^H(q) = 3.792685 truncated", F, 93,
     "3.7927", "3.7926", "rounding", None),
    ("ratio 1.016498 truncated", F, 93,
     "1.0165", "1.0164", "rounding", None),
    ("cumulative 0.960260 truncated", F, 226,
     "0.9603", "0.9602", "rounding", None),
    ("P({1,2,4}) = 0.798194 truncated", F, 228,
     "0.7982", "0.7981", "rounding", None),
    ("P_2(S_2) = 0.506180 truncated", F, 261,
     "0.5062", "0.5061", "rounding", None),
    ("log 2 = 0.693147 truncated", F, 309,
     "0.69315", "0.69314", "rounding", None),
    ("per-token perplexity of B 1.418251 truncated", F, 318,
     "1.4183", "1.4182", "rounding", None),
    ("KL 0.110069 truncated in exercise 8.1", F, 409,
     "0.1101", "0.1100", "rounding", None),

    # ------------------------------------------------------------ example number
    ("sum of exponentials in example 3.2 with transposed digits", F, 89,
     "13.1239", "13.1293", "example number", None),
    ("p_2 of example 3.2 with transposed digits", F, 91,
     "0.2071", "0.2017", "example number", None),
    ("e^3 + e^2 + e^1.5 in example 5.3", F, 228,
     "31.9563", "31.9653", "example number", None),
    ("KL of the set {1,2,4} in example 5.3", F, 228,
     "約 0.2254", "約 0.2524", "example number", None),
    ("log 0.32 in example 6.3", F, 301,
     "-1.1394", "-1.1934", "example number", None),
    ("answer probability of remark 6.4 off by a factor 10", F, 305,
     "= 0.072", "= 0.0072", "example number", None),
    ("alpha* of example 6.5", F, 309,
     "\\approx 0.1442", "\\approx 0.1424", "example number", None),
    ("fourth cumulative in exercise 8.1", F, 409,
     "$0.9720$", "$0.9270$", "example number", None),
    ("s_1(B) in exercise 8.2", F, 417,
     "-0.4581", "-0.4851", "example number", None),

    # ------------------------------------------------------------ table cell
    ("H(0.5) in table 4.3 with transposed digits", F, 151,
     "0.6424", "0.6442", "table cell", None),
    ("e^H(2) in table 4.3", F, 153,
     "6.3361", "6.3631", "table cell", None),
    ("H at T=infinity in table 4.3", F, 155,
     "2.0794", "2.0784", "table cell", None),
    ("KL at T=0.75 in table 4.5", F, 183,
     "0.0968", "0.0986", "table cell", None),
    ("PPL at T=2 in table 4.5", F, 187,
     "3.9336", "3.9363", "table cell", None),
    ("k_2(0.8) in table 5.5", F, 257,
     "5", "4", "table cell", None),
    ("top hypothesis at alpha=0.1 in table 6.5", F, 313,
     "$A$", "$B$", "table cell", None),
    ("s_0.5(B) in table 6.5", F, 315,
     "-0.8559", "-0.8595", "table cell", None),

    # ------------------------------------------------------------ listing output
    ("nucleus sizes at T=1 in the listing output", F, 386,
     "k(tau) 1 3 4 5", "k(tau) 1 3 4 6", "listing output", None),
    ("H at T=2 in the listing output", F, 387,
     "H 1.8463", "H 1.8436", "listing output", None),
    ("best random value in the listing output", F, 389,
     "best random 3.5477", "best random 3.5747", "listing output", None),
    ("top-k KL in the listing output", F, 390,
     "KL 0.1686", "KL 0.1668", "listing output", None),
    ("cross-entropy at the best T in the listing output", F, 392,
     "cross-entropy 1.3345", "cross-entropy 1.3354", "listing output", None),
    ("B=3 count in the listing output", F, 393,
     "B=3 859", "B=3 895", "listing output", None),

    # ------------------------------------------------------------ formula
    ("KL definition with the ratio inverted", F, 40,
     "q_j \\log\\frac{q_j}{p_j}", "q_j \\log\\frac{p_j}{q_j}", "formula", None),
    ("variance definition missing the square of the mean", F, 48,
     "- \\big(\\mathrm{E}_{\\boldsymbol{p}}[\\boldsymbol{z}]\\big)^2$",
     "- \\mathrm{E}_{\\boldsymbol{p}}[\\boldsymbol{z}]$", "formula", None),
    ("decomposition CE = H - KL", F, 60,
     "= H(\\boldsymbol{q}) + \\mathrm{KL}", "= H(\\boldsymbol{q}) - \\mathrm{KL}", "formula", None),
    ("KL of q against u with the sides swapped", F, 79,
     "= \\log|V| - H(\\boldsymbol{q})$", "= H(\\boldsymbol{q}) - \\log|V|$", "formula", None),
    ("variational identity with + T KL", F, 101,
     "- T\\,\\mathrm{KL}", "+ T\\,\\mathrm{KL}", "formula", None),
    ("lower bound uses |V| instead of |U|", F, 106,
     "M + T\\log|U| \\le", "M + T\\log|V| \\le", "formula", None),
    ("dH/dT with T^2 in the statement", F, 129,
     "(\\boldsymbol{z})}{T^3}", "(\\boldsymbol{z})}{T^2}", "formula", None),
    ("d beta / dT with the wrong sign in the proof", F, 137,
     "\\Big(-\\frac{1}{T^2}\\Big)", "\\Big(\\frac{1}{T^2}\\Big)", "formula", None),
    ("f(0) written as the perplexity |V|", F, 163,
     "$f(0) = \\log|V|$", "$f(0) = |V|$", "formula", None),
    ("nucleus size defined with max", F, 196,
     "k(\\tau) := \\min\\{", "k(\\tau) := \\max\\{", "formula", None),
    ("KL decomposition with + log P(S)", F, 204,
     "- \\log P(S) \\ge", "+ \\log P(S) \\ge", "formula", None),
    ("derivative of log P missing the factor (1 - P)", F, 242,
     "= (1 - P)\\,(m_S", "= P\\,(m_S", "formula", None),
    ("alpha* with s_A/s_B", F, 281,
     "\\log(s_B/s_A)/\\log(n/m)", "\\log(s_A/s_B)/\\log(n/m)", "formula", None),
    ("exhaustive search count N^|V|", F, 282,
     "$|V|^N$", "$N^{|V|}$", "formula", None),

    # ------------------------------------------------------------ claim
    ("summary: entropy decreases in T", F, 9,
     "について増加し", "について減少し", "claim", None),
    ("summary: sequence score never decreases", F, 11,
     "決して増えません", "決して減りません", "claim", None),
    ("three questions counted as four", F, 24,
     "問いが 3 つあります", "問いが 4 つあります", "claim", None),
    ("proposition 4.2: strictly decreasing", F, 130,
     "狭義単調増加である", "狭義単調減少である", "claim", None),
    ("example 4.5: optimal temperature below 1", F, 179,
     "1 より高くなります", "1 より低くなります", "claim", None),
    ("proposition 5.2: at most k+1 tokens", F, 205,
     "高々 $k$ 個のトークン", "高々 $k+1$ 個のトークン", "claim", None),
    ("proposition 5.4: P_T(S_k) non-decreasing in T", F, 235,
     "単調非増加である", "単調非減少である", "claim", None),
    ("example 5.5: columns decrease downwards", F, 261,
     "下に行くほど増えていて", "下に行くほど減っていて", "claim", None),
    ("alpha* > 1 when B wins per token", F, 297,
     "$\\alpha^* < 1$", "$\\alpha^* > 1$", "claim", None),
    ("B chosen from alpha >= 0.1 (table says A at 0.1)", F, 318,
     "$\\alpha \\ge 0.2$", "$\\alpha \\ge 0.1$", "claim", None),

    # ------------------------------------------------------------ structure
    ("end of proof of proposition 3.1 deleted", F, 83,
     "∎", "", "structure", 64),
    ("end of proof of proposition 5.4 deleted", F, 247,
     "∎", "", "structure", 238),
    ("end of proof of proposition 6.2 deleted", F, 295,
     "∎", "", "structure", 284),
    ("example 4.5 numbered 4.3 (duplicate)", F, 177,
     "例 4.5（", "例 4.3（", "structure", None),
    ("proposition 5.4 numbered 5.2 (duplicate)", F, 231,
     "命題 5.4（", "命題 5.2（", "structure", None),
    ("proof heading names the non-existent proposition 4.3", F, 167,
     "証明（命題 4.4）", "証明（命題 4.3）", "structure", None),
    ("reference to the non-existent proposition 5.3", F, 228,
     "命題 5.2 の 2 のとおり", "命題 5.3 の 2 のとおり", "structure", None),
    ("unpaired $ after H(q)", F, 93,
     "1.3331$ なので", "1.3331 なので", "structure", None),
    ("example 3.2 changed into a remark (its references dangle)", F, 87,
     "例 3.2（", "注意 3.2（", "structure", None),

    # ------------------------------------------------------------ neutral
    ("neutral reworded sentence", F, 5,
     "確かめます", "確認します", "neutral", None),
    ("neutral full-width digit", F, 24,
     "問いが 3 つあります", "問いが ３ つあります", "neutral", None),
    ("neutral uniform distribution as a fraction times 1", F, 62,
     "\\boldsymbol{u} := \\boldsymbol{1}/|V|", "\\boldsymbol{u} := \\frac{1}{|V|}\\boldsymbol{1}",
     "neutral", None),
    ("neutral exp() for e^", F, 93,
     "$e^{1.3494}", "$\\exp(1.3494)", "neutral", None),
    ("neutral log 8 as 3 log 2", F, 123,
     "3 + \\log 8 \\approx", "3 + 3\\log 2 \\approx", "neutral", None),
    ("neutral 5/8 as a fraction", F, 157,
     "$5/8 = 0.625$", "$\\frac{5}{8} = 0.625$", "neutral", None),
    ("neutral 64 written 4^3", F, 157,
     "2.0014/64", "2.0014/4^3", "neutral", None),
    ("neutral spacing in math", F, 48,
     "p_j z_j^2 - \\big(", "p_j z_j^2 \\;-\\; \\big(", "neutral", None),
    ("neutral ln for log in alpha*", F, 281,
     "\\log(s_B/s_A)/\\log(n/m)", "\\ln(s_B/s_A)/\\ln(n/m)", "neutral", None),
    ("neutral factored candidate count", F, 282,
     "$|V| + (N - 1)B|V|$", "$|V|\\,\\big(1 + (N - 1)B\\big)$", "neutral", None),
    ("neutral probability 0.15 as 3/20", F, 309,
     "$A$ の確率は $0.15$", "$A$ の確率は $3/20$", "neutral", None),
    ("neutral 1,000 without separator", F, 399,
     "1,000 個のモデル", "1000 個のモデル", "neutral", None),
    # recompute_decoding.py exits 1 on this one only because it looks for "4{,}096" literally
    ("neutral 8^4 without thousands separator", F, 322,
     "$8^4 = 4{,}096$", "$8^4 = 4096$", "neutral", None),
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
