"""Data: one-slip edits of the chapter weight_tying.mdx (入出力埋め込みの共有).

Each entry of SLIPS is one edit of one line of weight_tying.mdx:

    (name, chapter file name, line, old, new, category, expected line or None)

`line` is 1-based; `old` occurs exactly once on that line and applying the edit
replaces it by `new`.  Every edit except the "neutral" ones puts exactly one
mistake into the chapter, of the kind an author makes when typing, copying a
number from a listing, rounding by hand or editing a formula.  `expected line`
is None when the mistake shows at the edited line; for a deleted closing tag it
is the line where the broken element opens.

Neutral edits change only how something is written (wording, spacing, an
equivalent formula, another notation for the same number) and keep every number
and formula true.  recompute_weight_tying.py passes on all of them (it normalises
`{,}` to `,` and only looks for the numbers it checks).

Every numeric slip (prose arithmetic, rounding, example number, table cell,
listing output) was applied to a copy of the chapter and makes
recompute_weight_tying.py exit 1.  Numbers that the chapter prints more than
once (e.g. 38,597,376, 163,037,184, 31.02, 13.19350, 1.5797, 0.7382, -0.2339,
14.50, 46.36, 7.84, 524,288,000 in the prose, the tables and the listing
output) were avoided as slip sites outside the tables, because the recompute
script only checks that such a value occurs somewhere; table cells and the
listing output are compared cell by cell and line by line.
"""

CH = "weight_tying.mdx"

SLIPS = [
    # ---------------- prose arithmetic (outside examples and exercises) ----------------
    ("fp32-bytes-transposed", CH, 286,
     "= 154{,}389{,}504$", "= 154{,}398{,}504$", "prose arithmetic", None),
    ("bf16-bytes-transposed", CH, 286,
     "$77{,}194{,}752$", "$77{,}194{,}725$", "prose arithmetic", None),
    ("bf16-bytes-doubled-not-halved", CH, 286,
     "$77{,}194{,}752$", "$308{,}779{,}008$", "prose arithmetic", None),
    ("fd-error-from-rounded-unit", CH, 383,
     "$9.4 \\times 10^{-10}$", "$9.3 \\times 10^{-10}$", "prose arithmetic", None),
    ("unit-roundoff-is-eps", CH, 383,
     "\\approx 1.1 \\times 10^{-16}", "\\approx 2.2 \\times 10^{-16}", "prose arithmetic", None),

    # ---------------- rounding ----------------
    ("fp32-mib-truncated", CH, 286,
     "約 147.24 MiB", "約 147.23 MiB", "rounding", None),
    ("bf16-mib-truncated", CH, 286,
     "約 73.62 MiB", "約 73.61 MiB", "rounding", None),
    ("loss-size-truncated", CH, 383,
     "損失の大きさ 8.48 に", "損失の大きさ 8.47 に", "rounding", None),
    ("tableA-untied-share-small-truncated", CH, 277,
     "| 47.35 |", "| 47.34 |", "rounding", None),
    ("tableA-untied-share-large-truncated", CH, 279,
     "| 15.35 |", "| 15.34 |", "rounding", None),
    ("tableB-bf16-mib-truncated", CH, 290,
     "| 98.16 |", "| 98.15 |", "rounding", None),
    ("mean-embedding-2-truncated", CH, 173,
     "(0.7382,\\ 0.7661)", "(0.7382,\\ 0.7660)", "rounding", None),
    ("rho-small-truncated", CH, 282,
     "\\approx 0.3102$", "\\approx 0.3101$", "rounding", None),
    ("exr-ce-loss-double-rounded", CH, 410,
     "= 2.1698$", "= 2.1699$", "rounding", None),

    # ---------------- example number (examples, exercises and their solutions) ----------------
    ("hand-logit-sign-dropped", CH, 163,
     "(1,\\ 1,\\ 2,\\ -1)", "(1,\\ 1,\\ 2,\\ 1)", "example number", None),
    ("hand-p-minus-y-transposed", CH, 166,
     "-0.7940", "-0.7490", "example number", None),
    ("hand-output-row4-transposed", CH, 171,
     "$(0.0279, 0.0279)$", "$(0.0279, 0.0297)$", "example number", None),
    ("gpt2-denominator-transposed", CH, 282,
     "/162{,}031", "/162{,}013", "example number", None),
    ("exr-saved-over-tied", CH, 399,
     "\\approx 19.03\\,\\%", "\\approx 23.51\\,\\%", "example number", None),
    ("exr-one-plus-rho-transposed", CH, 399,
     "0.2351/1.2351", "0.2351/1.2531", "example number", None),
    ("exr-ce-l1-transposed", CH, 410,
     "= 1.7716 =", "= 1.7761 =", "example number", None),
    ("exr-ce-p2-minus-1-digit", CH, 410,
     "-0.8858", "-0.8558", "example number", None),
    ("exr-circle-denominator-forgot-2", CH, 421,
     "= 3.93134$", "= 3.32481$", "example number", None),
    ("exr-mem-bf16-bytes-transposed", CH, 432,
     "= 1{,}048{,}576{,}000$", "= 1{,}048{,}567{,}000$", "example number", None),
    ("exr-mem-16-bytes-transposed", CH, 432,
     "= 8{,}388{,}608{,}000$", "= 8{,}388{,}680{,}000$", "example number", None),
    ("exr-mem-gib-transposed", CH, 432,
     "= 7.8125$ GiB", "= 7.8215$ GiB", "example number", None),

    # ---------------- table cell ----------------
    ("tableA-saved-small-transposed", CH, 277,
     "| 23.67 |", "| 23.76 |", "table cell", None),
    ("tableA-tied-medium-transposed", CH, 278,
     "| 354,823,168 |", "| 354,832,168 |", "table cell", None),
    ("tableA-untied-large-transposed", CH, 279,
     "| 838,359,040 |", "| 838,395,040 |", "table cell", None),
    ("tableA-Vd-xl-digit", CH, 280,
     "| 80,411,200 |", "| 80,441,200 |", "table cell", None),
    ("tableB-Vd-128k-transposed", CH, 291,
     "| 131,072,000 |", "| 131,027,000 |", "table cell", None),
    ("tableB-untied-256k-transposed", CH, 292,
     "| 63.35 |", "| 63.53 |", "table cell", None),
    ("tableB-Vd-2048-transposed", CH, 293,
     "| 102,926,336 |", "| 102,962,336 |", "table cell", None),
    ("tableB-rho-128k-4096-transposed", CH, 295,
     "| 9.78 |", "| 9.87 |", "table cell", None),
    ("tablevar-logit-var-0.02-transposed", CH, 233,
     "| 0.3072 |", "| 0.3027 |", "table cell", None),
    ("tablevar-logit-var-sd-not-var", CH, 235,
     "| 768 |", "| 27.71 |", "table cell", None),

    # ---------------- listing output ----------------
    ("output-hand-loss", CH, 367,
     "loss = 1.5797", "loss = 1.5779", "listing output", None),
    ("output-input-part-g2", CH, 369,
     "0.7382 -0.2339", "0.7382 -0.2393", "listing output", None),
    ("output-gradient-rounded-sum", CH, 370,
     "1.2983 0.3261", "1.2983 0.3262", "listing output", None),
    ("output-random-loss", CH, 371,
     "loss = 8.4765", "loss = 8.4756", "listing output", None),
    ("output-input-error-exponent", CH, 373,
     "= 6.7e-10", "= 6.7e-11", "listing output", None),
    ("output-input-rows-repeated", CH, 375,
     "[0, 2, 4]", "[0, 2, 2, 4]", "listing output", None),
    ("output-row-sum-exponent", CH, 376,
     "3.9e-16", "3.9e-15", "listing output", None),

    # ---------------- formula ----------------
    ("ce-gradient-sign", CH, 76,
     "= \\boldsymbol{p} - \\boldsymbol{y}$", "= \\boldsymbol{y} - \\boldsymbol{p}$", "formula", None),
    ("ce-max-component-p-y", CH, 77,
     "|p_v - y_v| = 1 - p_y$", "|p_v - y_v| = p_y$", "formula", None),
    ("ce-hessian-plus", CH, 78,
     "\\mathrm{diag}(\\boldsymbol{p}) - \\boldsymbol{p}", "\\mathrm{diag}(\\boldsymbol{p}) + \\boldsymbol{p}", "formula", None),
    ("directional-derivative-minus", CH, 122,
     "+ \\big\\langle \\nabla_B", "- \\big\\langle \\nabla_B", "formula", None),
    ("tied-gradient-input-c-out", CH, 108,
     "= c_{\\mathrm{in}}\\, S^{\\mathsf{T}} G", "= c_{\\mathrm{out}}\\, S^{\\mathsf{T}} G", "formula", None),
    ("g-row-u-s-for-u-y", CH, 111,
     "(\\boldsymbol{p}_i - \\boldsymbol{u}_{y_i})$", "(\\boldsymbol{p}_i - \\boldsymbol{u}_{s_i})$", "formula", None),
    ("row-formula-input-sum-over-y", CH, 145,
     "\\sum_{i : s_i = v}", "\\sum_{i : y_i = v}", "formula", None),
    ("identity-logit-missing-c-in", CH, 189,
     "$z_v = c_{\\mathrm{in}}c_{\\mathrm{out}}\\langle", "$z_v = c_{\\mathrm{out}}\\langle", "formula", None),
    ("untied-logit-norm-not-squared", CH, 199,
     "\\|\\boldsymbol{e}_s\\|^2\\boldsymbol{u}_y", "\\|\\boldsymbol{e}_s\\|\\boldsymbol{u}_y", "formula", None),
    ("mean-square-extra-d", CH, 213,
     "= c_{\\mathrm{in}}^2\\sigma^2$", "= c_{\\mathrm{in}}^2 d\\sigma^2$", "formula", None),
    ("logit-var-norm-not-squared", CH, 214,
     "\\sigma^2\\|\\boldsymbol{h}\\|^2$", "\\sigma^2\\|\\boldsymbol{h}\\|$", "formula", None),
    ("c-out-d-not-sqrt", CH, 215,
     "c_{\\mathrm{out}} = 1/(\\sigma\\sqrt{d})$", "c_{\\mathrm{out}} = 1/(\\sigma d)$", "formula", None),
    ("rho-denominator-dropped-L", CH, 255,
     "13L + 2 + 12Ld}", "13L + 2 + 12d}", "formula", None),
    ("saved-share-1-minus-rho", CH, 257,
     "= \\dfrac{\\rho}{1 + \\rho} <", "= \\dfrac{\\rho}{1 - \\rho} <", "formula", None),
    ("rho-complement-V", CH, 265,
     "= 1 - K/(V + K)$", "= 1 - V/(V + K)$", "formula", None),
    ("untied-share-denominator-V", CH, 267,
     "= 2V/(2V + K)$", "= 2V/(V + K)$", "formula", None),

    # ---------------- claim ----------------
    ("rows-get-no-output-gradient", CH, 12,
     "出力側から毎回勾配を受け取ります", "出力側からは勾配を受け取りません", "claim", None),
    ("four-questions", CH, 33,
     "次の 3 つの問いが生まれます", "次の 4 つの問いが生まれます", "claim", None),
    ("hessian-psd-concave", CH, 87,
     "$C^2$ 級関数は凸です", "$C^2$ 級関数は凹です", "claim", None),
    ("gradient-depends-on-split", CH, 91,
     "どう分かれているかには依らない", "どう分かれているかにも依る", "claim", None),
    ("EEt-positive-definite", CH, 190,
     "対称で半正定値であり", "対称で正定値であり", "claim", None),
    ("equal-scales-d-ge-1", CH, 215,
     "$d \\ge 2$ なら 2 つを同時に 1 にできない", "$d \\ge 1$ なら 2 つを同時に 1 にできない", "claim", None),
    ("three-rows-satisfy", CH, 237,
     "上の 2 行はどちらも", "上の 3 行はどれも", "claim", None),
    ("rho-decreasing-in-V", CH, 256,
     "$V$ について狭義単調増加で", "$V$ について狭義単調減少で", "claim", None),
    ("largest-saves-under-4", CH, 282,
     "共有で減るのは 5 % 未満です", "共有で減るのは 4 % 未満です", "claim", None),
    ("effect-large-models", CH, 282,
     "大きく出るのは、小さいモデルです", "大きく出るのは、大きいモデルです", "claim", None),
    ("rho-quarter-per-doubling", CH, 297,
     "とほぼ半分になります", "とほぼ 4 分の 1 になります", "claim", None),
    ("memory-proportional-Vd2", CH, 297,
     "メモリは $Vd$ に比例し", "メモリは $Vd^2$ に比例し", "claim", None),
    ("saving-larger-for-large", CH, 389,
     "小さいモデルほど大きいこと", "大きいモデルほど大きいこと", "claim", None),

    # ---------------- structure ----------------
    ("tied-def-close-deleted", CH, 59,
     "</Definition>", "", "structure", 43),
    ("hand-example-close-deleted", CH, 179,
     "</Example>", "", "structure", 161),
    ("section-number-duplicated", CH, 205,
     "## 6. 入力側", "## 5. 入力側", "structure", None),
    ("count-id-duplicated", CH, 251,
     'id="prop-tied-count"', 'id="prop-tied-scale"', "structure", None),
    ("proof-of-missing-id", CH, 262,
     'of="prop-tied-count"', 'of="prop-tied-counts"', "structure", None),
    ("ref-missing-count", CH, 273,
     '<Ref to="prop-tied-count" />', '<Ref to="prop-tied-counting" />', "structure", None),
    ("circle-exercise-close-deleted", CH, 424,
     "</Exercise>", "", "structure", 415),

    # ---------------- neutral ----------------
    ("reword-intro", CH, 8,
     "この 2 つを 1 つの行列にまとめると何が起きるのかを",
     "この 2 つを 1 つの行列にまとめたときに何が起きるかを",
     "neutral", None),
    ("ratio-as-power", CH, 14,
     "$c_{\\mathrm{in}}/c_{\\mathrm{out}} = \\sqrt{d}$", "$c_{\\mathrm{in}}/c_{\\mathrm{out}} = d^{1/2}$",
     "neutral", None),
    ("plain-comma-thousands", CH, 29,
     "$50{,}257 \\times 768 = 38{,}597{,}376$", "$50,257 \\times 768 = 38,597,376$", "neutral", None),
    ("l1-expanded", CH, 77,
     "\\|_1 = 2(1 - p_y)$", "\\|_1 = 2 - 2p_y$", "neutral", None),
    ("reword-rewritten-here", CH, 91,
     "ここでは共有の議論に使うために書き直しました", "共有の議論に使うため、ここで書き直しました", "neutral", None),
    ("directional-derivative-linearity", CH, 122,
     "\\big\\langle \\nabla_A\\Phi(E, E), \\Delta\\big\\rangle_F + \\big\\langle \\nabla_B\\Phi(E, E), \\Delta\\big\\rangle_F",
     "\\big\\langle \\nabla_A\\Phi(E, E) + \\nabla_B\\Phi(E, E), \\Delta\\big\\rangle_F",
     "neutral", None),
    ("reword-most-visible", CH, 183,
     "その影響が一番はっきり出るのは", "その影響がもっともはっきり現れるのは", "neutral", None),
    ("c-out-dfrac", CH, 215,
     "c_{\\mathrm{out}} = 1/(\\sigma\\sqrt{d})$", "c_{\\mathrm{out}} = \\dfrac{1}{\\sigma\\sqrt{d}}$", "neutral", None),
    ("mean-square-scientific", CH, 237,
     "$0.02^2 = 0.0004$", "$0.02^2 = 4 \\times 10^{-4}$", "neutral", None),
    ("rho-denominator-reordered", CH, 255,
     "V + L_{\\mathrm{ctx}} + 13L + 2 + 12Ld", "V + L_{\\mathrm{ctx}} + 12Ld + 13L + 2", "neutral", None),
    ("rho-complement-fractions", CH, 265,
     "$\\rho = V/(V + K) = 1 - K/(V + K)$", "$\\rho = \\frac{V}{V + K} = 1 - \\frac{K}{V + K}$", "neutral", None),
    ("bytes-per-number-unit", CH, 286,
     "（fp32 は 4、bf16 は 2）", "（fp32 は 4 バイト、bf16 は 2 バイト）", "neutral", None),
    ("gib-divisor-power-of-two", CH, 432,
     "$8{,}000/1{,}024 = 7.8125$", "$8{,}000/2^{10} = 7.8125$", "neutral", None),
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
