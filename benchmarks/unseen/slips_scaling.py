"""Data: one-slip edits of the chapter scaling.txt (スケーリング則と計算最適な学習).

Each entry of SLIPS is a tuple
    (name, chapter file name, line, old, new, category, expected line or None)
`line` is 1-based; `old` occurs exactly once on that line and applying the edit replaces it by
`new`.  Every edit except the "neutral" ones puts exactly one mistake of the given category into
the chapter; `expected line` is the line where the mistake should be reported when that is not the
edited line (a deleted end of proof: the proof's heading), otherwise None.

Neutral edits change only how something is written; every number and formula stays true.  The
recompute script recompute_scaling.py compares printed text literally, so it fails on the neutral
edits marked "literal" in their comment (the changed text is a context it searches for).

Run this file to check every `old` against the chapter and print the counts per category.
"""

CH = "scaling.txt"

SLIPS = [
    # ------------------------------------------------------------------ prose arithmetic
    # 16 * 7e10 = 1.12e12, not 1.12e11.
    ("pa_keypoint_bytes_exponent", CH, 11, r"$1.12 \times 10^{12}$", r"$1.12 \times 10^{11}$",
     "prose arithmetic", None),
    # 0.06/0.62 = 0.09677 -> 0.0968; digits swapped.
    ("pa_r_exponent_digits", CH, 187, r"$0.06/0.62 \approx 0.0968$", r"$0.06/0.62 \approx 0.0986$",
     "prose arithmetic", None),
    # 5.88e23/120 = 4.9e21.
    ("pa_sqrt_argument_exponent", CH, 189, r"\sqrt{4.9 \times 10^{21}}", r"\sqrt{4.9 \times 10^{22}}",
     "prose arithmetic", None),
    # 20 * 7e10 = 1.4e12.
    ("pa_chinchilla_D", CH, 189, r"$D = 20N = 1.4 \times 10^{12}$", r"$D = 20N = 1.4 \times 10^{11}$",
     "prose arithmetic", None),
    # 2^30 = 1,073,741,824.
    ("pa_two_to_30", CH, 277, r"1{,}073{,}741{,}824", r"1{,}073{,}742{,}824",
     "prose arithmetic", None),
    # 2^(1/gamma) = 91.30; digits swapped.
    ("pa_halving_factor", CH, 172, r"$2^{1/\gamma} \approx 91.3$", r"$2^{1/\gamma} \approx 93.1$",
     "prose arithmetic", None),
    # 2nd multiply-adds are 4nd FLOP (definition 2.1), not 2nd.
    ("pa_attention_flops_per_token", CH, 82, r"すなわち $4nd$ FLOP", r"すなわち $2nd$ FLOP",
     "prose arithmetic", None),
    # 10^b = 3.53498 -> 3.535; digits transposed.
    ("pa_ten_to_b", CH, 172, r"$10^{b} \approx 3.535$", r"$10^{b} \approx 3.353$",
     "prose arithmetic", None),

    # ------------------------------------------------------------------ rounding
    # 1.201572 -> 1.2016 (truncated to 1.2015).
    ("rd_ratio_truncated", CH, 152, r"比は約 $1.2016$", r"比は約 $1.2015$", "rounding", None),
    # 0.548387 -> 0.5484 (truncated to 0.5483).
    ("rd_b_truncated", CH, 152, r"\approx 0.5484$", r"\approx 0.5483$", "rounding", None),
    # -6.26694e-26 -> -6.267e-26 (truncated to -6.266).
    ("rd_lambda_truncated", CH, 158, r"-6.267 \times 10^{-26}", r"-6.266 \times 10^{-26}", "rounding", None),
    # -0.036850 -> -0.0368 (double rounding via 0.03685 gives -0.0369).
    ("rd_slope_double_rounding", CH, 158, r"\approx -0.0368$", r"\approx -0.0369$", "rounding", None),
    # 10^a = 2.82887 -> 2.829 (truncated to 2.828).
    ("rd_ten_to_a_truncated", CH, 172, r"$10^{a} \approx 2.829$", r"$10^{a} \approx 2.828$", "rounding", None),
    # 2^b = 1.462450 -> 1.4624 (rounded the wrong way via 1.46245).
    ("rd_exercise_two_to_b", CH, 392, r"\approx 1.4624$", r"\approx 1.4625$", "rounding", None),
    # 59.4499 -> 59.45 (truncated to 59.44).
    ("rd_exercise_r_truncated", CH, 408, r"$r \approx 59.45$", r"$r \approx 59.44$", "rounding", None),
    # 7.13990 -> 7.140 (truncated to 7.139).
    ("rd_k_gpt3_truncated", CH, 232, r"$k \approx 7.140$", r"$k \approx 7.139$", "rounding", None),
    # 13.0385 -> 13.04 (truncated to 13.03).
    ("rd_devices_ratio_truncated", CH, 299, r"\approx 13.04$", r"\approx 13.03$", "rounding", None),
    # table of example 4.4: 4.12967e10 -> 4.130e10 (truncated to 4.129).
    ("rd_table_Nopt_1e24", CH, 169, r"$4.130 \times 10^{10}$", r"$4.129 \times 10^{10}$", "rounding", None),

    # ------------------------------------------------------------------ example number
    # 0.34 * 406.4 = 138.176 (decimal point shifted).
    ("ex_alphaA_decimal", CH, 152, r"= 138.176$", r"= 13.8176$", "example number", None),
    # 6 * 123,532,032 = 741,192,192.
    ("ex_flops_per_token", CH, 88, r"= 741{,}192{,}192$", r"= 741{,}192{,}182$", "example number", None),
    # 6 * 84,934,656 = 509,607,936.
    ("ex_block_flops", CH, 90, r"= 509{,}607{,}936$", r"= 509{,}607{,}963$", "example number", None),
    # 84,934,656 + 38,597,376 = 123,532,032.
    ("ex_matmul_weight_sum", CH, 88, r"38{,}597{,}376 = 123{,}532{,}032", r"38{,}597{,}376 = 123{,}523{,}032",
     "example number", None),
    # D_opt = 9.8e22 / 3.249e10 = 3.016e12.
    ("ex_Dopt_exponent", CH, 156, r"\approx 3.016 \times 10^{12}$$", r"\approx 3.016 \times 10^{13}$$",
     "example number", None),
    # 1.2779e17 / (6 * 7e10) / 1024 = 297.1 tokens/s per device.
    ("ex_per_device_throughput", CH, 266, r"約 297.1 トークン", r"約 279.1 トークン", "example number", None),
    # 53.2536 * 0.4 / 0.5 = 42.60 days.
    ("ex_days_mfu_half", CH, 266, r"約 42.60 日", r"約 42.06 日", "example number", None),
    # 1.12e11 / 2^30 = 104.31 GiB.
    ("ex_exercise_gib", CH, 400, r"\approx 104.31$ GiB", r"\approx 104.13$ GiB", "example number", None),
    # phi(2.1544) = 0.02774.
    ("ex_phi_chinchilla", CH, 232, r"$\phi(k) \approx 0.0277$", r"$\phi(k) \approx 0.0227$", "example number", None),
    # L(7e9, 1.4e11) = 2.18354.
    ("ex_exercise_loss_given", CH, 408, r"\approx 2.1835$", r"\approx 2.1853$", "example number", None),
    # 5.88e21 / 8.9856e15 = 654,380 s.
    ("ex_exercise_seconds", CH, 408, r"\approx 654{,}380$ 秒", r"\approx 645{,}380$ 秒", "example number", None),

    # ------------------------------------------------------------------ table cell
    # example 4.4, C = 1e23: 9.0567 days.
    ("tc_days_1e23", CH, 167, "\t9.06", "\t9.60", "table cell", None),
    # example 4.4, C = 1e22: N_opt = 5.160e9.
    ("tc_Nopt_1e22_exponent", CH, 166, r"$5.160 \times 10^{9}$", r"$5.160 \times 10^{10}$", "table cell", None),
    # example 4.4, C = 1e25: L_opt = 1.8453.
    ("tc_loss_1e25", CH, 170, "1.8453", "1.8543", "table cell", None),
    # example 4.7, k = 1/2: phi = 0.0233.
    ("tc_phi_half", CH, 225, "0.0233", "0.0223", "table cell", None),
    # example 4.7, k = 4: R phi = 0.0217.
    ("tc_excess_k4", CH, 228, "0.0217", "0.0271", "table cell", None),
    # example 6.2, parameters: 1.4e11 / 2^30 = 130.39 GiB.
    ("tc_param_gib", CH, 292, "130.39", "130.93", "table cell", None),
    # example 6.2, total: 1043.08 GiB.
    ("tc_total_gib", CH, 297, "1043.08", "1034.08", "table cell", None),

    # ------------------------------------------------------------------ listing output
    ("lo_loss_1e21", CH, 361, "loss=2.3289", "loss=2.3298", "listing output", None),
    ("lo_days_chinchilla_C", CH, 364, "days=  53.25", "days=  53.52", "listing output", None),
    ("lo_phi_quarter", CH, 368, "0.0955", "0.0959", "listing output", None),
    ("lo_gpt3_optimal_loss", CH, 371, "loss=1.9541", "loss=1.9451", "listing output", None),
    ("lo_total_gib", CH, 372, "1043.08 GiB", "1043.80 GiB", "listing output", None),
    ("lo_ratio_1e25", CH, 366, "D/N=122.12", "D/N=122.21", "listing output", None),
    ("lo_min_excess", CH, 367, "8.3e-11", "8.3e-12", "listing output", None),

    # ------------------------------------------------------------------ formula
    # definition 2.2: the data term has exponent beta.
    ("fo_def_data_exponent", CH, 36, r"\frac{B}{D^{\beta}}", r"\frac{B}{D^{\alpha}}", "formula", None),
    # definition 2.1: a p x q times q x r product is 2pqr FLOP (factor 2 dropped).
    ("fo_def_matmul_flops", CH, 28, r"$2pqr$ FLOP", r"$pqr$ FLOP", "formula", None),
    # proposition 3.1 (1): dl/dW = X^T G (product swapped).
    ("fo_grad_W_swapped", CH, 58, r"= X^{\mathsf{T}}G$", r"= GX^{\mathsf{T}}$", "formula", None),
    # proof of 3.1: (G W^T)_{sp} = sum_j G_{sj} W_{pj} (index swapped).
    ("fo_proof_index_swap", CH, 66, r"G_{sj}W_{pj}", r"G_{sj}W_{jp}", "formula", None),
    # proposition 4.1: a = beta/(alpha+beta).
    ("fo_exponent_a", CH, 96, r"$a := \beta/(\alpha+\beta)$", r"$a := \alpha/(\alpha+\beta)$", "formula", None),
    # proof of 4.1: B (6N/C)^beta, so N^{+beta}.
    ("fo_f_sign_exponent", CH, 106, r"\Big)^{\beta}N^{\beta}$$", r"\Big)^{\beta}N^{-\beta}$$", "formula", None),
    # proof of 4.1: derivative of N^beta is beta N^{beta-1}.
    ("fo_derivative_exponent", CH, 110, r"N^{\beta-1}", r"N^{\beta+1}", "formula", None),
    # proposition 4.2 (1): coefficient (alpha+beta)/beta.
    ("fo_Lopt_coefficient", CH, 126, r"\dfrac{\alpha+\beta}{\beta}\,A", r"\dfrac{\alpha+\beta}{\alpha}\,A",
     "formula", None),
    # proposition 4.2 (2): the slope is negative.
    ("fo_slope_sign", CH, 127, r"= -\dfrac{\gamma", r"= \dfrac{\gamma", "formula", None),
    # proof of 4.2 (3): d/dN of -lambda 6ND is -6 lambda D.
    ("fo_lagrange_partial", CH, 140, r"= 6\lambda D$", r"= 6\lambda N$", "formula", None),
    # proposition 4.5 (1): r = G^{-2} (C/6)^{b-a}.
    ("fo_r_power_of_G", CH, 176, r"r(C) = G^{-2}\,", r"r(C) = G^{2}\,", "formula", None),
    # proposition 4.6: phi contains k^{beta} (D divided by k).
    ("fo_phi_data_exponent", CH, 195, r"\alpha\,(k^{\beta} - 1)", r"\alpha\,(k^{-\beta} - 1)", "formula", None),
    # proposition 4.6: cubic coefficient alpha beta (beta - alpha)/6.
    ("fo_cubic_sign", CH, 199, r"\frac{\alpha\beta(\beta - \alpha)}{6}", r"\frac{\alpha\beta(\alpha - \beta)}{6}",
     "formula", None),
    # proof of 4.6: u^2 coefficient alpha^2 beta + alpha beta^2.
    ("fo_series_quadratic_sign", CH, 211, r"\frac{\alpha^2\beta + \alpha\beta^2}{2}",
     r"\frac{\alpha^2\beta - \alpha\beta^2}{2}", "formula", None),
    # definition 5.1: MFU counts 6N FLOP per token.
    ("fo_mfu_factor", CH, 244, r"\frac{6N\,\Theta}{K P}", r"\frac{2N\,\Theta}{K P}", "formula", None),
    # proposition 5.2: per-device throughput Pu/(6N) (extra K).
    ("fo_per_device_extra_K", CH, 256, r"$\Theta/K = Pu/(6N)$", r"$\Theta/K = Pu/(6NK)$", "formula", None),
    # proposition 6.1 (1): one 4-byte term missing, the sum no longer gives 16N.
    ("fo_mixed_precision_missing_term", CH, 274, r"$(2 + 2 + 4 + 4 + 4)N", r"$(2 + 2 + 4 + 4)N", "formula", None),

    # ------------------------------------------------------------------ claim
    # key points: r is constant only for alpha = beta.
    ("cl_keypoint_condition", CH, 10, r"$\alpha = \beta$ のときに限り", r"$\alpha > \beta$ のときに限り", "claim", None),
    # remark 3.2 lists three items.
    ("cl_remark_count", CH, 80, "3 つのものが", "2 つのものが", "claim", None),
    # proof of 4.1: h is strictly increasing.
    ("cl_h_monotone", CH, 112, "狭義単調増加で", "狭義単調減少で", "claim", None),
    # after 4.1: with alpha > beta the data term is the larger one.
    ("cl_larger_term", CH, 120, r"データの項のほうが $\alpha/\beta$ 倍大きい", r"モデルの項のほうが $\alpha/\beta$ 倍大きい",
     "claim", None),
    # proposition 4.5: alpha > beta makes r increasing.
    ("cl_r_monotone", CH, 176, "単調増加する", "単調減少する", "claim", None),
    # 92.83 / 20 = 4.64: "4 倍以上", not "5 倍以上".
    ("cl_factor_bound", CH, 189, "4 倍以上違います", "5 倍以上違います", "claim", None),
    # proposition 4.6: the ratio does not depend on C.
    ("cl_phi_independent_of_C", CH, 197, r"で、$C$ によらない。", r"で、$C$ に比例する。", "claim", None),
    # the cubic term favours k > 1 when alpha > beta.
    ("cl_larger_model_favoured", CH, 217, "わずかに有利です", "わずかに不利です", "claim", None),
    # the Chinchilla gap is 0.0067: below 0.01 but not below 0.005.
    ("cl_gap_bound", CH, 232, "差は 0.01 未満", "差は 0.005 未満", "claim", None),
    # proposition 5.2: throughput inversely proportional to N.
    ("cl_throughput_proportional", CH, 256, r"$N$ に反比例する", r"$N$ に比例する", "claim", None),
    # example 5.3: T inversely proportional to u.
    ("cl_time_vs_mfu", CH, 266, r"$u$ に反比例するので", r"$u$ に比例するので", "claim", None),
    # proof of 6.1: the list holds five numbers.
    ("cl_count_numbers", CH, 281, "fp32 の 5 個の数", "fp32 の 4 個の数", "claim", None),
    # 13.04 devices' worth: 14 devices are needed, not 13.
    ("cl_devices_needed", CH, 299, "14 台が要ります", "13 台が要ります", "claim", None),
    # mixed precision total equals the fp32 total (16N both).
    ("cl_mixed_precision_total", CH, 285, "fp32 だけの場合と同じです", "fp32 だけの場合の半分です", "claim", None),

    # ------------------------------------------------------------------ structure
    # end of proof of proposition 3.1 deleted; the proof opens at line 62.
    ("st_qed_3_1_deleted", CH, 74, "∎", "", "structure", 62),
    # end of proof of proposition 4.1 deleted; the proof opens at line 102.
    ("st_qed_4_1_deleted", CH, 118, "∎", "", "structure", 102),
    # end of proof of proposition 5.2 deleted; the proof opens at line 258.
    ("st_qed_5_2_deleted", CH, 262, "∎", "", "structure", 258),
    # heading number duplicated: proposition 4.1 already exists at line 94.
    ("st_duplicate_prop_4_1", CH, 122, "命題 4.2（最適な損失", "命題 4.1（最適な損失", "structure", None),
    # element kind changed: proposition 4.5 becomes theorem 4.5 (its proof and references say 命題).
    ("st_kind_changed_4_5", CH, 174, "命題 4.5（", "定理 4.5（", "structure", None),
    # reference to an element that does not exist.
    ("st_missing_example_5_4", CH, 162, "例 5.3 の設定", "例 5.4 の設定", "structure", None),
    # reference to a proposition that does not exist.
    ("st_missing_prop_4_9", CH, 303, "命題 4.6 の比", "命題 4.9 の比", "structure", None),
    # unpaired $: closing dollar dropped.
    ("st_unpaired_dollar", CH, 152, r"$\alpha + \beta = 0.62$ なので", r"$\alpha + \beta = 0.62 なので", "structure", None),
    # element number changed: example 4.7 renumbered 4.6, colliding with proposition 4.6.
    ("st_example_renumbered", CH, 219, "例 4.7（", "例 4.6（", "structure", None),

    # ------------------------------------------------------------------ neutral
    ("ne_reword_question", CH, 22, "この選択に答えるには、", "この問いに答えるには、", "neutral", None),
    ("ne_ln_for_log", CH, 10, r"(\log k)^2", r"(\ln k)^2", "neutral", None),
    ("ne_factor_order", CH, 70, r"和は $6nmk$ で", r"和は $6mnk$ で", "neutral", None),
    ("ne_square_as_product", CH, 183, r"$6\rho N^2 = C$", r"$6\rho N \cdot N = C$", "neutral", None),
    ("ne_math_spacing", CH, 44, r"\qquad A = 406.4", r"\quad A = 406.4", "neutral", None),
    ("ne_fullwidth_digit", CH, 28, "乗算 1 回", "乗算 １ 回", "neutral", None),
    ("ne_math_spacing_args", CH, 36, "L(N, D) :=", "L(N,D) :=", "neutral", None),
    ("ne_exponent_sum_order", CH, 114, r"\Big)^{\beta/(\alpha+\beta)}", r"\Big)^{\beta/(\beta+\alpha)}", "neutral", None),
    ("ne_spacing_fraction", CH, 254, r"\frac{6ND}{KPu}", r"\frac{6 N D}{K P u}", "neutral", None),
    ("ne_devices_no_comma", CH, 162, "1,024 台", "1024 台", "neutral", None),
    ("ne_reword_reading", CH, 148, "一般的な読み方の具体例です", "一般的な解釈の具体例です", "neutral", None),
    ("ne_K_with_comma", CH, 266, r"$K = 1024$", r"$K = 1{,}024$", "neutral", None),
    # literal: the script searches for "全体の 75 % を占める".
    ("ne_fraction_for_percent", CH, 299, "全体の 75 % を占める", "全体の 3/4 を占める", "neutral", None),
    # literal: the script searches for "$12d^2 = 12 \times 768^2 = 7{,}077{,}888$".
    ("ne_comma_notation", CH, 88, r"7{,}077{,}888", r"7,077,888", "neutral", None),
]

CATEGORIES = ("prose arithmetic", "rounding", "example number", "table cell", "listing output",
              "formula", "claim", "structure", "neutral")

if __name__ == "__main__":
    import sys
    from collections import Counter
    from pathlib import Path

    here = Path(__file__).resolve().parent
    lines = {}
    bad = 0
    names = Counter(s[0] for s in SLIPS)
    for name, n in names.items():
        if n > 1:
            print(f"duplicate name {name}")
            bad += 1
    for name, chap, line, old, new, cat, exp in SLIPS:
        if chap not in lines:
            lines[chap] = (here / chap).read_text(encoding="utf-8").splitlines()
        text = lines[chap][line - 1] if 0 < line <= len(lines[chap]) else ""
        count = text.count(old) if old else 0
        if count != 1 or old == new or cat not in CATEGORIES:
            print(f"BAD {name}: line {line}: old occurs {count} times (category {cat!r})")
            bad += 1
    counts = Counter(s[5] for s in SLIPS)
    for cat in CATEGORIES:
        print(f"{cat:18s} {counts[cat]}")
    print(f"{'slips':18s} {sum(v for k, v in counts.items() if k != 'neutral')}")
    print("all old strings found exactly once" if not bad else f"{bad} problems")
    sys.exit(1 if bad else 0)
