"""Data: one-slip edits of the chapter activations.txt (MLP の活性化関数).

Each entry of SLIPS is a tuple
    (name, chapter file name, line, old, new, category, expected line or None)
Applying an entry replaces the single occurrence of `old` on 1-based line `line` of the chapter
by `new`.  Every entry except those of category "neutral" leaves exactly one mistake in the
chapter; "neutral" entries change only how something is written.  `expected line` is None when
the mistake is visible on the edited line, otherwise the line where the broken element opens.

Notes on the recompute script (recompute_activations.py), checked on a copy of the chapter:
  * neutral_comma_2048 makes it exit 1 only because it looks up the printed text
    "$8d/3 = 8 \\times 256 = 2{,}048$" literally; the mathematics is unchanged.
  * it does not catch the numeric slip example_value_swapped (line 273): the vector
    W_3^T x = (2, 1) is recomputed inside the script but never compared with the text.
  * it does not catch the non-numeric slips (formula, claim, structure, and the algebraic
    prose slip prose_tanh_identity): it checks printed numbers and the listing only.
  * every other numeric slip makes it exit 1; most prose numbers are caught because the
    script's quoted snippet is no longer found, and table_dff256_1024_floor is caught by an
    AssertionError (exit 1 with a traceback) rather than by an "NG" line.
"""

CH = "activations.txt"

SLIPS = [
    # ------------------------------------------------------------ prose arithmetic
    ("prose_tanh_identity", CH, 41, "= 2/(1 + e^{-x})$", "= 1/(1 + e^{-x})$", "prose arithmetic", None),
    ("prose_xG_squared", CH, 127, "x_G^2 \\approx 0.5652", "x_G^2 \\approx 0.5625", "prose arithmetic", None),
    ("prose_c_minus_c0", CH, 166, "= -0.000825", "= -0.000725", "prose arithmetic", None),
    ("prose_x_half_fourth_power", CH, 170, "\\times 0.0625", "\\times 0.125", "prose arithmetic", None),
    ("prose_ratio_43", CH, 185, "tanh 近似の約 43 倍", "tanh 近似の約 4.3 倍", "prose arithmetic", None),
    ("prose_ratio_1638", CH, 219, "約 1.638 倍深く", "約 1.683 倍深く", "prose arithmetic", None),
    ("prose_swish10_bound", CH, 241, "$0.02785$ 以内", "$0.2785$ 以内", "prose arithmetic", None),
    # ------------------------------------------------------------ rounding
    ("round_gelu_min_summary", CH, 8, "最小値 $\\approx -0.1700$", "最小値 $\\approx -0.1699$", "rounding", None),
    ("round_xstar_summary", CH, 10, "-1.2785", "-1.2784", "rounding", None),
    ("round_sqrt_2_over_pi", CH, 53, "\\approx 0.7979", "\\approx 0.7978", "rounding", None),
    ("round_phi3", CH, 107, "\\varphi(3) \\approx 0.004432", "\\varphi(3) \\approx 0.004431", "rounding", None),
    ("round_Phi_sqrt2", CH, 127, "0.9214", "0.9213", "rounding", None),
    ("round_c0", CH, 148, "\\approx 0.04554", "\\approx 0.04553", "rounding", None),
    ("round_3e_minus3", CH, 215, "3e^{-3} \\approx 0.1494", "3e^{-3} \\approx 0.1493", "rounding", None),
    # ------------------------------------------------------------ example number
    ("example_gelu_minus1", CH, 140, "= -0.1587$", "= -0.1687$", "example number", None),
    ("example_ratio_524", CH, 140, "約 5.24 倍", "約 5.42 倍", "example number", None),
    ("example_value_swapped", CH, 273, "\\boldsymbol{x} = (2, 1)$", "\\boldsymbol{x} = (1, 2)$", "example number", None),
    ("example_swiglu_output", CH, 273, "(1.1932,\\ -0.2689)", "(1.1923,\\ -0.2689)", "example number", None),
    ("example_43_times_64", CH, 288, "43 \\times 64 = 2{,}752", "43 \\times 64 = 2{,}762", "example number", None),
    ("example_oku", CH, 295, "約 43.3 億個", "約 4.33 億個", "example number", None),
    ("example_shallower", CH, 406, "約 0.0064 浅く", "約 0.0046 浅く", "example number", None),
    ("example_params_5120", CH, 414, "212{,}336{,}640", "212{,}336{,}460", "example number", None),
    # ------------------------------------------------------------ table cell
    ("table_silu_prime_m1", CH, 135, "0.0723", "0.0732", "table cell", None),
    ("table_gelu_tanh_2", CH, 138, "1.9546", "1.9545", "table cell", None),
    ("table_E_1p5_sign", CH, 179, "−2.176", "2.176", "table cell", None),
    ("table_sig_2p5", CH, 181, "−19.462", "−19.426", "table cell", None),
    ("table_dff256_1024_floor", CH, 285, "2,816", "2,560", "table cell", None),
    ("table_params_1024", CH, 292, "8,650,752", "8,650,725", "table cell", None),
    # ------------------------------------------------------------ listing output
    ("listing_tanh_m1", CH, 367, "-0.1588", "-0.1587", "listing output", None),
    ("listing_tanh_error", CH, 371, "max 4.732e-04", "max 4.723e-04", "listing output", None),
    ("listing_newton2", CH, 373, "-1.278455", "-1.278465", "listing output", None),
    ("listing_silu_prime_argmax", CH, 377, "at 2.3994", "at 2.3995", "listing output", None),
    ("listing_params_swiglu", CH, 379, "SwiGLU 4718592", "SwiGLU 4718529", "listing output", None),
    ("listing_ratio_4096", CH, 383, "ratio 1.0078125", "ratio 1.0078215", "listing output", None),
    # ------------------------------------------------------------ formula
    ("formula_phi_density", CH, 33, "e^{-t^2/2}", "e^{-t^2}", "formula", None),
    ("formula_gelu_tanh_cubic", CH, 47, "c\\,x^3", "c\\,x^2", "formula", None),
    ("formula_derivative_sum", CH, 73, "$f'(x) + f'(-x) = 1$", "$f'(x) - f'(-x) = 1$", "formula", None),
    ("formula_gelu_second", CH, 111, "(2 - x^2)\\,\\varphi(x)", "(1 - x^2)\\,\\varphi(x)", "formula", None),
    ("formula_proof_missing_term", CH, 117, "\\varphi + \\varphi + x\\varphi'", "\\varphi + x\\varphi'", "formula", None),
    ("formula_E_order", CH, 152, "x^4 + O(x^6)", "x^3 + O(x^5)", "formula", None),
    ("formula_c0_sign", CH, 160, "\\frac{2}{3\\pi} - \\frac16 =", "\\frac{2}{3\\pi} + \\frac16 =", "formula", None),
    ("formula_silu_second_sign", CH, 191, "\\big(2 - x\\tanh(x/2)\\big)", "\\big(2 + x\\tanh(x/2)\\big)", "formula", None),
    ("formula_silu_gap_factor", CH, 192, "< x\\,e^{-x}", "< e^{-x}", "formula", None),
    ("formula_swish_min_beta", CH, 225, "最小値は $-W/\\beta$", "最小値は $-W\\beta$", "formula", None),
    ("formula_ceil_floor", CH, 253, "\\big\\lceil 8d/(3m)\\big\\rceil", "\\big\\lfloor 8d/(3m)\\big\\rfloor", "formula", None),
    ("formula_bound_step", CH, 261, "= 1 + \\frac{3m}{8d}", "= 1 + \\frac{m}{8d}", "formula", None),
    # ------------------------------------------------------------ claim
    ("claim_matrix_count", CH, 11, "行列を 3 つ持つ", "行列を 2 つ持つ", "claim", None),
    ("claim_three_points", CH, 21, "考えることを 3 つ挙げます", "考えることを 4 つ挙げます", "claim", None),
    ("claim_five_functions", CH, 89, "5 つの関数", "4 つの関数", "claim", None),
    ("claim_gelu_monotone", CH, 112, "で狭義単調減少", "で狭義単調増加", "claim", None),
    ("claim_xG_interval", CH, 112, "$-\\sqrt2 < x_G < 0$", "$-\\sqrt2 < x_G < -1$", "claim", None),
    ("claim_c_smaller", CH, 170, "$c_0$ より少し小さく", "$c_0$ より少し大きく", "claim", None),
    ("claim_xstar_interval", CH, 193, "$-2 < x^{*} < -1$", "$-1 < x^{*} < 0$", "claim", None),
    ("claim_slower_decay", CH, 215, "より遅く減ります", "より速く減ります", "claim", None),
    ("claim_uniform_independent", CH, 236, "右辺は $x$ に依らず", "右辺は $x$ に比例し", "claim", None),
    ("claim_silu_farther", CH, 241, "ReLU から遠い関数", "ReLU から近い関数", "claim", None),
    ("claim_flop_twice", CH, 251, "ちょうど 2 倍", "ちょうど 3 倍", "claim", None),
    ("claim_ratio_above_4", CH, 277, "$t > 0$ で 4 より大きく", "$t > 0$ で 4 より小さく", "claim", None),
    # ------------------------------------------------------------ structure
    ("structure_qed_3_1", CH, 87, "∎", "", "structure", 75),
    ("structure_qed_4_1", CH, 168, "∎", "", "structure", 154),
    ("structure_duplicate_3_2", CH, 109, "命題 3.3（GELU", "命題 3.2（GELU", "structure", None),
    ("structure_unpaired_dollar", CH, 51, "\\mathrm{SiLU}$ である", "\\mathrm{SiLU} である", "structure", None),
    ("structure_missing_ref_5_4", CH, 406, "命題 5.3 の 1 より", "命題 5.4 の 1 より", "structure", None),
    ("structure_kind_remark", CH, 275, "注意 6.3（", "例 6.3（", "structure", None),
    ("structure_proof_heading", CH, 229, "証明（命題 5.3）", "証明（命題 5.1）", "structure", None),
    # ------------------------------------------------------------ neutral
    ("neutral_reword_intro", CH, 5, "この記事では、これらの関数を", "本記事では、これらの関数を", "neutral", None),
    ("neutral_fullwidth_digit", CH, 11, "行列を 3 つ持つ", "行列を ３ つ持つ", "neutral", None),
    ("neutral_density_fraction", CH, 33, "\\frac{1}{\\sqrt{2\\pi}}e^{-t^2/2}", "\\frac{e^{-t^2/2}}{\\sqrt{2\\pi}}", "neutral", None),
    ("neutral_even_part", CH, 89, "$\\frac12|x|$", "$|x|/2$", "neutral", None),
    ("neutral_math_spacing", CH, 111, "(2 - x^2)\\,\\varphi(x)", "(2-x^2)\\varphi(x)", "neutral", None),
    ("neutral_frac_one_sixth", CH, 160, "\\frac16 = \\frac{4 - \\pi}", "\\frac{1}{6} = \\frac{4 - \\pi}", "neutral", None),
    ("neutral_half_fraction", CH, 170, "$x = 0.5$ では", "$x = \\frac12$ では", "neutral", None),
    ("neutral_flop_order", CH, 245, "$2dk$ FLOP", "$2kd$ FLOP", "neutral", None),
    ("neutral_eight_thirds", CH, 252, "= \\frac{8d}{3}$ で", "= \\frac{8}{3}d$ で", "neutral", None),
    ("neutral_times_dot", CH, 258, "$2d \\cdot 4d = 8d^2$", "$2d \\times 4d = 8d^2$", "neutral", None),
    ("neutral_table_braces", CH, 284, "3,072", "3{,}072", "neutral", None),
    # fails the recompute script only because it looks up "2{,}048" literally:
    ("neutral_comma_2048", CH, 288, "2{,}048", "2,048", "neutral", None),
    ("neutral_reword_multiple", CH, 297, "倍数にそろえるのは行列積を計算機で効率よく実行するためで",
     "倍数にそろえる目的は行列積を計算機で効率よく実行することで", "neutral", None),
]


if __name__ == "__main__":
    import collections
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    cache = {}
    bad = 0
    for name, ch, line, old, new, cat, exp in SLIPS:
        if ch not in cache:
            cache[ch] = open(os.path.join(here, ch), encoding="utf-8").read().split("\n")
        text = cache[ch][line - 1]
        n = text.count(old)
        if n != 1 or old == new:
            bad += 1
            print(f"BAD {name}: line {line} has {n} occurrences of {old!r}")
    names = [s[0] for s in SLIPS]
    dup = [k for k, v in collections.Counter(names).items() if v > 1]
    if dup:
        bad += 1
        print("duplicate names:", dup)
    counts = collections.Counter(s[5] for s in SLIPS)
    for cat in ("prose arithmetic", "rounding", "example number", "table cell", "listing output",
                "formula", "claim", "structure", "neutral"):
        print(f"{cat:17s} {counts.get(cat, 0)}")
    print("slips:", sum(v for k, v in counts.items() if k != "neutral"), " neutral:", counts.get("neutral", 0))
    raise SystemExit(1 if bad else 0)
