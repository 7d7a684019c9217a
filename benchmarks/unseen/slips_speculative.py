"""Data: one-slip edits of the chapter speculative.txt (投機的デコーディング).

Each entry of SLIPS is a tuple
    (name, chapter file name, line, old, new, category, expected line or None)
meaning: on the 1-based `line` of the chapter, `old` occurs exactly once; replacing it by `new`
gives a chapter that holds exactly one mistake of the given category ("neutral" entries change
only how something is written and keep every number and formula true).  `expected line` is None
when the mistake is visible at the edited line; for a structural slip whose broken element opens
elsewhere (a deleted end of proof), it is the line of the proof's heading.

Notes on the neutral edits: the recompute script recompute_speculative.py matches some printed
snippets literally, so it fails on the neutral edit "ln_for_log_exr8_3" (line 440, the snippet
"$\\gamma + 1 \\ge \\log 0.1/\\log 0.75 \\approx 8.0039$" is no longer found) although the
mathematics is unchanged.  Every other neutral edit passes the recompute script.

Numeric slips (categories prose arithmetic, rounding, example number, table cell, listing
output) were each checked to make recompute_speculative.py exit 1 on a copy of the chapter.
"""

CH = "speculative.txt"

SLIPS = [
    # ------------------------------------------------------------ prose arithmetic
    ("ex3_3_alpha_sum_uses_p3", CH, 115,
     "0.2 + 0.1 + 0.1 = 0.7", "0.2 + 0.2 + 0.1 = 0.7", "prose arithmetic", None),
    ("rem5_2_total_carry", CH, 245,
     "51{,}927{,}552", "51{,}917{,}552", "prose arithmetic", None),
    ("ex5_4_per_layer_sum", CH, 277,
     "= 789{,}760$", "= 788{,}760$", "prose arithmetic", None),
    ("ex6_2_T2_alpha_sum", CH, 339,
     "= 0.8249$", "= 0.8294$", "prose arithmetic", None),
    ("exr8_2_f4_difference", CH, 432,
     "= 0.0271 > 0", "= 0.0281 > 0", "prose arithmetic", None),
    ("sec5_draft_positions_quotient", CH, 304,
     "\\approx 1.355$", "\\approx 1.335$", "prose arithmetic", None),

    # ------------------------------------------------------------ rounding
    ("rem5_2_ratio_truncated", CH, 245,
     "約 6.003 倍", "約 6.002 倍", "rounding", None),              # 6.00266...
    ("ex5_4_embedding_share_truncated", CH, 277,
     "約 79.0 %", "約 78.9 %", "rounding", None),                  # 78.9919...
    ("ex4_4_ratio_truncated", CH, 223,
     "43.12\\,\\%", "43.11\\,\\%", "rounding", None),             # 43.1199...
    ("ex5_4_max_S_truncated", CH, 289,
     "約 2.230 倍", "約 2.229 倍", "rounding", None),              # 2.22993...
    ("ex5_4_time_gamma6_from_rounded_c", CH, 285,
     "1.7853", "1.7854", "rounding", None),                        # 1 + 6 * 0.1309 instead of exact c
    ("ex6_2_p3_truncated", CH, 326,
     "0.1360", "0.1359", "rounding", None),                        # 0.135988...
    ("ex4_4_E7_07_truncated", CH, 218,
     "3.1412", "3.1411", "rounding", None),                        # 3.14117...

    # ------------------------------------------------------------ example number
    ("rem5_2_forgot_triangular_term", CH, 245,
     "6{,}159", "6{,}144", "example number", None),                # 6 * 1024 without gamma(gamma+1)/2
    ("ex4_3_share_all_accepted_wrong_power", CH, 209,
     "約 41 %", "約 33 %", "example number", None),                # 0.8^5 instead of 0.8^4
    ("ex5_4_embedding_vocab_50256", CH, 277,
     "12{,}865{,}792", "12{,}865{,}536", "example number", None),  # 50,256 x 256
    ("exr8_3_answer_gamma", CH, 440,
     "すなわち $\\gamma = 8$", "すなわち $\\gamma = 9$", "example number", None),
    ("exr8_2_power_075_4_for_5", CH, 432,
     "4(1 - 0.2373)", "4(1 - 0.3164)", "example number", None),  # 0.75^4 instead of 0.75^5
    ("ex6_2_uniform_min_term_copied_q", CH, 339,
     "0.25 + 0.2242", "0.25 + 0.25", "example number", None),
    ("rem4_5_max_alpha_wrong_entry", CH, 227,
     "0.8948", "0.8601", "example number", None),                  # second-largest listed value

    # ------------------------------------------------------------ table cell
    ("ex4_3_table_row3_product_transposed", CH, 204,
     "0.3840", "0.3480", "table cell", None),
    ("ex4_4_table_E5_08_copied_E4", CH, 219,
     "3.6893", "3.3616", "table cell", None),
    ("ex5_5_table_gamma_star_06", CH, 296,
     "\t4\t", "\t5\t", "table cell", None),
    ("ex5_5_table_S_star_08_neighbour", CH, 298,
     "3.092", "3.082", "table cell", None),
    ("ex6_2_table_alpha_T15", CH, 334,
     "0.8864", "0.8846", "table cell", None),
    ("ex6_2_table_q2_T05", CH, 331,
     "0.1140", "0.1410", "table cell", None),
    ("ex3_3_table_accept_token4_inverted", CH, 121,
     "\t0.5\t", "\t2\t", "table cell", None),                      # q/p instead of min(1, p/q)

    # ------------------------------------------------------------ listing output
    ("listing_acceptance_rate", CH, 406,
     "acceptance rate 0.7011", "acceptance rate 0.7001", "listing output", None),
    ("listing_frequency_token1", CH, 406,
     "0.4989", "0.4998", "listing output", None),
    ("listing_tokens_per_step_copied_formula", CH, 407,
     "tokens per step 2.7729", "tokens per step 2.7731", "listing output", None),
    ("listing_alpha_by_prev_token4", CH, 408,
     "0.7575", "0.7557", "listing output", None),
    ("listing_direct_sampling_TV", CH, 409,
     "(direct sampling 0.0178)", "(direct sampling 0.0187)", "listing output", None),
    ("listing_residual_truncated", CH, 405,
     "0.6667", "0.6666", "listing output", None),

    # ------------------------------------------------------------ formula
    ("def2_1_TV_missing_half", CH, 40,
     ":= \\frac{1}{2}\\sum", ":= \\sum", "formula", None),
    ("def2_1_residual_numerator_swapped", CH, 44,
     "\\frac{\\max(0,\\ p_j - q_j)}", "\\frac{\\max(0,\\ q_j - p_j)}", "formula", None),
    ("def2_2_accept_prob_inverted", CH, 55,
     "\\min(1,\\ p_x/q_x)", "\\min(1,\\ q_x/p_x)", "formula", None),
    ("lem3_1_alpha_TV_factor", CH, 76,
     "$\\alpha = 1 - \\mathrm{TV}", "$\\alpha = 1 - 2\\,\\mathrm{TV}", "formula", None),
    ("thm3_2_proof_wrong_denominator", CH, 107,
     "q_j)}{1 - \\alpha} =", "q_j)}{\\alpha} =", "formula", None),
    ("E_gamma_closed_form_exponent", CH, 158,
     "\\frac{1 - \\alpha^{\\gamma+1}}{1 - \\alpha}", "\\frac{1 - \\alpha^{\\gamma}}{1 - \\alpha}", "formula", None),
    ("prop4_1_P_N_gamma_extra_factor", CH, 166,
     "$P(N = \\gamma) = \\alpha^\\gamma$", "$P(N = \\gamma) = \\alpha^\\gamma(1 - \\alpha)$", "formula", None),
    ("prop4_2_gap_exponent", CH, 186,
     "\\dfrac{\\alpha^{\\gamma+1}}{1 - \\alpha}", "\\dfrac{\\alpha^{\\gamma}}{1 - \\alpha}", "formula", None),
    ("prop5_3_f_exponent", CH, 251,
     "f(\\gamma) := \\alpha^{\\gamma+1}(1 + \\gamma c)", "f(\\gamma) := \\alpha^{\\gamma}(1 + \\gamma c)", "formula", None),
    ("prop5_3_proof_sign_factor", CH, 265,
     "= \\alpha^{\\gamma+1}(\\alpha - 1)", "= \\alpha^{\\gamma+1}(1 - \\alpha)", "formula", None),
    ("prop6_1_conditional_denominator", CH, 312,
     "$p_j/(1 - p_k)$", "$p_j/p_k$", "formula", None),

    # ------------------------------------------------------------ claim
    ("summary_unimodal_to_increasing", CH, 10,
     "について単峰です", "について単調に増加します", "claim", None),
    ("sec1_three_questions_count", CH, 26,
     "問いは 3 つあります", "問いは 4 つあります", "claim", None),
    ("prop4_2_increasing_to_decreasing", CH, 185,
     "狭義に増加する", "狭義に減少する", "claim", None),
    ("prop4_2_upper_bound_gamma", CH, 187,
     "\\le \\gamma + 1$ であり", "\\le \\gamma$ であり", "claim", None),
    ("prop4_2_remark_limit_5_to_4", CH, 195,
     "平均 5 トークン未満", "平均 4 トークン未満", "claim", None),
    ("sec5_cheaper_to_dearer", CH, 273,
     "より安ければ得をする", "より高ければ得をする", "claim", None),
    ("sec5_positions_per_token_direction", CH, 304,
     "は 1 より大きくなります", "は 1 より小さくなります", "claim", None),
    ("ex6_2_limits_exceed_07", CH, 339,
     "どちらの極限でも 0.6 を超えています", "どちらの極限でも 0.7 を超えています", "claim", None),
    ("sec7_deviation_bound", CH, 412,
     "0.0012 以内", "0.0010 以内", "claim", None),
    ("sec4_correctness_needs_good_draft", CH, 156,
     "下書きのモデルがどれほど悪くても成り立ちます", "下書きのモデルが目標に十分近いときに成り立ちます", "claim", None),

    # ------------------------------------------------------------ structure
    ("lem3_1_end_of_proof_deleted", CH, 88,
     "∎", "", "structure", 80),
    ("prop4_2_end_of_proof_deleted", CH, 193,
     "∎", "", "structure", 189),
    ("prop6_1_end_of_proof_deleted", CH, 320,
     "∎", "", "structure", 315),
    ("thm3_2_proof_ref_missing_lemma", CH, 109,
     "補題 3.1 の 3 より", "補題 3.7 の 3 より", "structure", None),
    ("prop4_2_heading_duplicate_number", CH, 181,
     "命題 4.2（期待トークン数の性質）", "命題 4.1（期待トークン数の性質）", "structure", None),
    ("prop4_1_kind_changed", CH, 162,
     "命題 4.1（1 ステップで", "定義 4.1（1 ステップで", "structure", None),
    ("ex3_3_unpaired_dollar", CH, 115,
     "$|V| = 4$ とし", "$|V| = 4 とし", "structure", None),
    ("prop5_3_proof_ref_missing_prop", CH, 257,
     "（命題 4.2 の 1）", "（命題 4.3 の 1）", "structure", None),

    # ------------------------------------------------------------ neutral
    ("reword_intro", CH, 5,
     "1 回の呼び出しで平均何トークン進むのか", "1 回の呼び出しあたり平均で何トークン進むのか", "neutral", None),
    ("equiv_formula_2di", CH, 22,
     "$12d^2 + 2id$", "$12d^2 + 2di$", "neutral", None),
    ("plain_number_context_length", CH, 277,
     "文脈長 1,024", "文脈長 1024", "neutral", None),
    ("spacing_in_math_lem3_1", CH, 84,
     "2 - 2\\,\\mathrm{TV}", "2 - 2 \\mathrm{TV}", "neutral", None),
    ("ln_for_log_exr8_3", CH, 440,          # recompute fails: matches this snippet literally
     "\\log 0.1/\\log 0.75", "\\ln 0.1/\\ln 0.75", "neutral", None),
    ("fullwidth_digit_three", CH, 26,
     "問いは 3 つ", "問いは ３ つ", "neutral", None),
    ("fraction_for_decimal_alpha", CH, 195,
     "$\\alpha = 0.8$ なら", "$\\alpha = 4/5$ なら", "neutral", None),
    ("equiv_formula_E1", CH, 269,
     "$E_1(\\alpha) = 1 + \\alpha$", "$E_1(\\alpha) = \\alpha + 1$", "neutral", None),
    ("equiv_formula_triangular", CH, 243,
     "\\frac{\\gamma(\\gamma + 1)}{2}", "\\frac{\\gamma^2 + \\gamma}{2}", "neutral", None),
    ("number_notation_200000", CH, 412,
     "20 万回", "200,000 回", "neutral", None),
    ("thousands_separator_i", CH, 245,
     "$i = 1024$", "$i = 1{,}024$", "neutral", None),
    ("reword_sec4", CH, 156,
     "まずはそれが一定の場合を調べます", "まずはそれが一定である場合を考えます", "neutral", None),
]


if __name__ == "__main__":
    import os
    from collections import Counter

    here = os.path.dirname(os.path.abspath(__file__))
    cache = {}
    bad = 0
    for name, fname, line, old, new, cat, exp in SLIPS:
        if fname not in cache:
            with open(os.path.join(here, fname), encoding="utf-8") as fh:
                cache[fname] = fh.read().split("\n")
        text = cache[fname][line - 1]
        n = text.count(old)
        if n != 1:
            bad += 1
            print(f"BAD  {name}: {old!r} occurs {n} times on line {line}")
        if old == new:
            bad += 1
            print(f"BAD  {name}: old == new")
    names = [s[0] for s in SLIPS]
    dup = [n for n, k in Counter(names).items() if k > 1]
    if dup:
        bad += 1
        print("BAD  duplicated names:", dup)
    counts = Counter(s[5] for s in SLIPS)
    order = ["prose arithmetic", "rounding", "example number", "table cell", "listing output",
             "formula", "claim", "structure", "neutral"]
    for cat in order:
        print(f"{cat:18s} {counts.get(cat, 0)}")
    print(f"{'slips':18s} {sum(v for k, v in counts.items() if k != 'neutral')}")
    print("all edits OK" if not bad else f"{bad} problem(s)")
    raise SystemExit(1 if bad else 0)
