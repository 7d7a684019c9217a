"""Data: one-slip edits of the chapter beam_search.txt (ビームサーチと長さ正規化).

Each entry of SLIPS is one edit of one line of beam_search.txt:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted end-of-proof
mark (∎, the plain-text counterpart of a closing tag) it is the line where the
broken proof opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_beam_search.py passes on all of them (it does not
normalise `{,}`, so the `{,}` → `,` edit is made only in the statement of an
exercise, which the script does not read; the other neutral edits avoid the
strings it checks).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_beam_search.py exit 1.  Values that the chapter prints more than once
(e.g. −0.9163, −1.2040, −1.3863, −2.1203, −2.9878, 0.247, 0.844, 1.1368,
0.4375, 524,288 and every number of the listing output, which is repeated in the
tables) are only slipped at sites whose surrounding text the script checks as a
whole string (a table row, a sentence, the whole listing output), and each such
slip was checked to make the script fail.  Every formula and claim slip was
checked by hand or with sympy to make the text mathematically false.
"""

CH = "beam_search.txt"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("summary-2pow19-digit", CH, 11,
     "$2^{19} = 524{,}288$", "$2^{19} = 524{,}188$", "prose arithmetic", None),
    ("motivation-exponent-transposed", CH, 22,
     "候補の列は $10^{225}$ 個", "候補の列は $10^{252}$ 個", "prose arithmetic", None),
    ("underflow-log-sum-transposed", CH, 44,
     "\\approx -2{,}302.585$", "\\approx -2{,}302.855$", "prose arithmetic", None),
    ("toll-50-tokens-transposed", CH, 68,
     "\\approx -5.268$", "\\approx -5.286$", "prose arithmetic", None),
    ("candidates-total-forgot-first-step", CH, 128,
     "= 6{,}304{,}000$", "= 6{,}272{,}000$", "prose arithmetic", None),
    ("evaluations-off-by-one", CH, 128,
     "\\times 4 = 197$", "\\times 4 = 196$", "prose arithmetic", None),
    ("evaluations-ratio-transposed", CH, 128,
     "= 3.94$", "= 3.49$", "prose arithmetic", None),
    ("prefix-count-sum", CH, 166,
     "1 + 3 + 9 + 27 = 40$", "1 + 3 + 9 + 27 = 39$", "prose arithmetic", None),
    ("listing-note-40-plus-81", CH, 397,
     "= 40 + 81$", "= 41 + 81$", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("log040-truncated", CH, 132,
     "\\log 0.40 \\approx -0.9163$", "\\log 0.40 \\approx -0.9162$", "rounding", None),
    ("table-b-a-truncated", CH, 140,
     "\t−3.1011\t", "\t−3.1010\t", "rounding", None),
    ("log00504-truncated", CH, 144,
     "\\log 0.0504 \\approx -2.9878$", "\\log 0.0504 \\approx -2.9877$", "rounding", None),
    ("c-score-truncated", CH, 148,
     "$c$ の得点 −1.3863", "$c$ の得点 −1.3862", "rounding", None),
    ("lp-ratio-2-truncated", CH, 222,
     "\t0.7237", "\t0.7236", "rounding", None),
    ("lp06-50-truncated", CH, 226,
     "\t3.7786\t", "\t3.7785\t", "rounding", None),
    ("six-pow-minus06-truncated", CH, 228,
     "\\approx 0.3413$", "\\approx 0.3412$", "rounding", None),
    ("S06-abc-truncated", CH, 232,
     "\\approx -1.3005$", "\\approx -1.3004$", "rounding", None),
    ("threshold-b-ab-truncated", CH, 234,
     "\\log 1.5 \\approx 0.247$", "\\log 1.5 \\approx 0.246$", "rounding", None),
    ("ex82-gnmt-threshold-truncated", CH, 420,
     "\\log(10/7) \\approx 1.1368$", "\\log(10/7) \\approx 1.1367$", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("greedy-prob-dropped-zero", CH, 80,
     "\\times 0.40 = 0.096$", "\\times 0.40 = 0.96$", "example number", None),
    ("step4-rest-prob-shifted", CH, 144,
     "= 0.0042$", "= 0.042$", "example number", None),
    ("candidates-scored-total", CH, 148,
     "の合計 20 個", "の合計 24 個", "example number", None),
    ("kib-per-token-halved", CH, 271,
     "1 トークンあたり 512 KiB", "1 トークンあたり 256 KiB", "example number", None),
    ("shared-over-naive-transposed", CH, 279,
     "= 0.4375$", "= 0.4735$", "example number", None),
    ("logit-bytes-forgot-fp32", CH, 279,
     "= 512{,}000$", "= 128{,}000$", "example number", None),
    ("ex81-bce-prob-transposed", CH, 412,
     "\\times 0.60 = 0.063$", "\\times 0.60 = 0.036$", "example number", None),
    ("ex82-G06-yprime-transposed", CH, 420,
     "\\approx -2.2081$", "\\approx -2.2018$", "example number", None),
    ("ex83-naive-bytes-transposed", CH, 428,
     "= 5{,}368{,}709{,}120$", "= 5{,}368{,}790{,}120$", "example number", None),
    ("ex83-gib-transposed", CH, 428,
     "（2.1875 GiB）", "（2.1785 GiB）", "example number", None),
    ("ex84-geometric-sum-off-by-one", CH, 436,
     "= 29{,}524 +", "= 29{,}525 +", "example number", None),

    # ---------------- table cell ----------------
    ("model-table-a-to-c", CH, 76,
     "\t0.20", "\t0.30", "table cell", None),
    ("step2-table-a-c-prob", CH, 138,
     "\t0.08\t", "\t0.8\t", "table cell", None),
    ("step2-table-b-c-prob", CH, 142,
     "\t0.105\t", "\t0.150\t", "table cell", None),
    ("cost-table-greedy-bound", CH, 169,
     "\t16", "\t12", "table cell", None),
    ("cost-table-k3-evaluations", CH, 171,
     "\t7\t", "\t9\t", "table cell", None),
    ("cost-table-exhaustive-ratio", CH, 172,
     "\t10.08\t", "\t10.80\t", "table cell", None),
    ("lp-table-ratio-5-transposed", CH, 223,
     "\t0.5173", "\t0.5137", "table cell", None),
    ("kv-table-shared-k2-digits", CH, 275,
     "\t1,342,177,280\t", "\t1,342,177,820\t", "table cell", None),
    ("kv-table-shared-ratio-k8", CH, 277,
     "\t2.75", "\t2.57", "table cell", None),

    # ---------------- listing output ----------------
    ("output-greedy-score", CH, 366,
     "s = -2.3434", "s = -2.3443", "listing output", None),
    ("output-k2-total", CH, 368,
     "total 20", "total 24", "listing output", None),
    ("output-S1-b-eos", CH, 371,
     "s/|y| = -1.0601", "s/|y| = -1.0610", "listing output", None),
    ("output-S1-abcc", CH, 374,
     "s/|y| = -0.9202", "s/|y| = -0.9220", "listing output", None),
    ("output-exhaustive-count", CH, 375,
     "outputs: 121", "outputs: 112", "listing output", None),
    ("output-gnmt06-2", CH, 384,
     "1.0969", "1.0996", "listing output", None),
    ("output-pow06-50", CH, 388,
     "10.4564", "10.4546", "listing output", None),
    ("output-kv-shared-k2", CH, 390,
     "1,342,177,280", "1,342,177,208", "listing output", None),

    # ---------------- formula ----------------
    ("score-sum-to-product", CH, 40,
     "= \\sum_{t=1}^{n} \\log p", "= \\prod_{t=1}^{n} \\log p", "formula", None),
    ("extension-inequality-flipped", CH, 54,
     "\\le s(h)$$", "\\ge s(h)$$", "formula", None),
    ("chain-inequality-flipped", CH, 62,
     "s(y_{\\le m'}) \\le s(y_{\\le m'-1})", "s(y_{\\le m'}) \\ge s(y_{\\le m'-1})", "formula", None),
    ("evaluations-bound-missing-1", CH, 111,
     "高々 $1 + (T - 1)k$ 回", "高々 $(T - 1)k$ 回", "formula", None),
    ("geometric-denominator", CH, 114,
     "{|V| - 2}", "{|V| - 1}", "formula", None),
    ("no-pruning-bound-missing-V", CH, 117,
     "$k \\ge |V|\\,(|V| - 1)^{T-1}$", "$k \\ge (|V| - 1)^{T-1}$", "formula", None),
    ("candidates-bound-missing-V", CH, 124,
     "|C_t| \\le |V|(|V| - 1)^{t-1} \\le k", "|C_t| \\le (|V| - 1)^{t-1} \\le k", "formula", None),
    ("prune-proof-inequality-flipped", CH, 156,
     "s(h) \\le \\max_{h' \\in B_t} s(h')", "s(h) \\ge \\max_{h' \\in B_t} s(h')", "formula", None),
    ("lp-asymptote-5", CH, 184,
     "$(|y|/6)^{\\alpha}$", "$(|y|/5)^{\\alpha}$", "formula", None),
    ("threshold-log-m-over-n", CH, 200,
     "{\\log(n/m)}$", "{\\log(m/n)}$", "formula", None),
    ("gnmt-threshold-6", CH, 201,
     "\\log\\big((5 + n)/(5 + m)\\big)}$", "\\log\\big((6 + n)/(6 + m)\\big)}$", "formula", None),
    ("threshold-proof-inequality-flipped", CH, 207,
     "$r < (n/m)^{\\alpha}$", "$r > (n/m)^{\\alpha}$", "formula", None),
    ("gnmt-proof-5n-5m-swapped", CH, 209,
     "すなわち $5m < 5n$", "すなわち $5n < 5m$", "formula", None),
    ("ratio-exponent-sign", CH, 228,
     "(6|y|)\\big)^{0.6}$", "(6|y|)\\big)^{-0.6}$", "formula", None),
    ("kv-difference-t-for-t0", CH, 258,
     "= M_1 (k - 1) t_0 \\ge 0$", "= M_1 (k - 1) t \\ge 0$", "formula", None),
    ("kv-ratio-parenthesis", CH, 259,
     "k\\,(1 - t_0/t)$", "k\\,(1 - t_0)/t$", "formula", None),
    ("kv-proof-sign", CH, 264,
     "- kt + kt_0\\big)", "- kt - kt_0\\big)", "formula", None),

    # ---------------- claim ----------------
    ("summary-nondecreasing", CH, 9,
     "長さについて非増加です", "長さについて非減少です", "claim", None),
    ("summary-kv-proportional-to-vocab", CH, 11,
     "語彙の大きさに依りません", "語彙の大きさに比例します", "claim", None),
    ("log-decreasing", CH, 16,
     "狭義単調増加で", "狭義単調減少で", "claim", None),
    ("toll-long-sequence-higher", CH, 68,
     "より低くなります", "より高くなります", "claim", None),
    ("k1-two-sequences", CH, 98,
     "ただ 1 つの列からなり", "2 つの列からなり", "claim", None),
    ("cost-dominated-by-scoring", CH, 128,
     "費用の大部分はモデルの評価です", "費用の大部分は候補の採点です", "claim", None),
    ("beam-worse-than-greedy", CH, 148,
     "より良い列が見つかりました", "より悪い列しか見つかりませんでした", "claim", None),
    ("cutoff-holds-normalised", CH, 160,
     "得点を長さで割ると成り立ちません", "得点を長さで割っても成り立ちます", "claim", None),
    ("normalisation-changes-beam", CH, 188,
     "最後の選択に使う得点に依らない", "最後の選択に使う得点に依る", "claim", None),
    ("S-alpha-nonincreasing", CH, 203,
     "$\\alpha$ について非減少で", "$\\alpha$ について非増加で", "claim", None),
    ("gnmt-favours-long-more", CH, 214,
     "長い列への肩入れが弱い", "長い列への肩入れが強い", "claim", None),
    ("G1-output-longer", CH, 243,
     "2 トークンに短くなっています", "2 トークンに長くなっています", "claim", None),
    ("reorder-different-parents", CH, 283,
     "どちらも同じ親 $(a, b)$ から出ています", "それぞれ別の親から出ています", "claim", None),

    # ---------------- structure ----------------
    ("proof-23-wrong-target", CH, 58,
     "証明（命題 2.3）", "証明（命題 2.2）", "structure", None),
    ("prop-33-renumbered", CH, 108,
     "命題 3.3（", "命題 3.4（", "structure", None),
    ("proof-33-end-deleted", CH, 126,
     "∎", "", "structure", 119),
    ("section-4-number-duplicated", CH, 174,
     "4. 長さ正規化", "3. 長さ正規化", "structure", None),
    ("prop-52-item-number-duplicated", CH, 258,
     "2. $M(k, t) - M", "3. $M(k, t) - M", "structure", None),
    ("ref-missing-example", CH, 398,
     "例 4.4 の表の長さ罰", "例 4.6 の表の長さ罰", "structure", None),
    ("exercise-number-duplicated", CH, 414,
     "演習 8.2標準", "演習 8.3標準", "structure", None),

    # ---------------- neutral ----------------
    ("reword-intro-tail", CH, 5,
     "手で追える小さなモデルと NumPy の実装で確かめます",
     "手で追える小さなモデルと、NumPy による実装で確かめます", "neutral", None),
    ("reword-motivation", CH, 22,
     "すべてを採点することはできません", "そのすべてを採点することはできません", "neutral", None),
    ("score-def-spacing", CH, 40,
     "\\log \\prod_{t=1}^{n} p", "\\log \\prod_{t = 1}^{n} p", "neutral", None),
    ("extension-terms-swapped", CH, 54,
     "= s(h) + \\log p(v \\mid h) \\le", "= \\log p(v \\mid h) + s(h) \\le", "neutral", None),
    ("reword-variants", CH, 94,
     "細部の違う変種があります", "細部の異なる変種があります", "neutral", None),
    ("geometric-denominator-rewritten", CH, 114,
     "{|V| - 2}", "{(|V| - 1) - 1}", "neutral", None),
    ("reword-stahlberg", CH, 164,
     "半数を超える文で", "過半数の文で", "neutral", None),
    ("S-alpha-negative-power", CH, 180,
     "\\frac{s(y)}{|y|^{\\alpha}}", "s(y)\\,|y|^{-\\alpha}", "neutral", None),
    ("threshold-log-difference", CH, 200,
     "{\\log(n/m)}$", "{\\log n - \\log m}$", "neutral", None),
    ("ratio-split-fraction", CH, 228,
     "\\big((5 + |y|)/(6|y|)\\big)^{0.6}", "\\big(1/6 + 5/(6|y|)\\big)^{0.6}", "neutral", None),
    ("kv-ratio-rearranged", CH, 259,
     "t_0/t + k\\,(1 - t_0/t)$", "k - (k - 1)\\,t_0/t$", "neutral", None),
    ("kv-proof-dot", CH, 263,
     "$M(k, t) = M_1 kt$", "$M(k, t) = M_1 \\cdot kt$", "neutral", None),
    ("reword-copy", CH, 283,
     "素朴にはステップごとに", "素朴な実装ではステップごとに", "neutral", None),
    ("ex82-statement-minus-two", CH, 416,
     "$s(y) = -2.0$", "$s(y) = -2$", "neutral", None),
    ("ex83-statement-plain-comma", CH, 424,
     "$t = 4{,}096$", "$t = 4,096$", "neutral", None),
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
