# ruff: noqa: E501 - the chapters are lines of TeX and Japanese, kept whole so that they read as written
"""A chapter's own notation (proofs.audit.deciding.defined) and its statements tried at points with
it (proofs.audit.deciding.instances), on small MDX chapters written for the tests: what the
chapter defines is computed, a true statement is confirmed numerically, a slipped one is
an error with a witness a reader can put back in, and a statement whose names the
chapter constrains in words, or whose case the text sets, is not tried."""

from __future__ import annotations

import re
from pathlib import Path

import sympy

from proofs.audit import audit_document
from proofs.audit.deciding.defined import MAX_ENTRIES, read_notation
from proofs.audit.deciding.instances import _result_rounding, try_statement
from proofs.reader import parse

TEMPLATE = """\
# 試しの章

## 2. 定義

<Definition id="def-tempered" title="温度つき softmax">

$\\boldsymbol{{z}} \\in \\mathbb{{R}}^{{n}}$ と $T > 0$ に対し

$$
\\sigma_T(\\boldsymbol{{z}})_j := \\frac{{e^{{z_j/T}}}}{{\\sum_{{k=1}}^{{n}} e^{{z_k/T}}}}
$$

とする。

</Definition>

## 3. 性質

<Lemma id="lem-ratio" title="比">

$\\boldsymbol{{p}} := \\sigma_T(\\boldsymbol{{z}})$ とする。すべての $j, k$ について {claim} である。

</Lemma>
"""


def chapter(claim: str) -> str:
    return TEMPLATE.format(claim=claim)


def findings(text: str) -> list[tuple[int, str, str]]:
    report = audit_document(parse(text, "c.mdx"), with_checks=False)
    return [(f.line, str(f.severity), f.detail) for f in report.findings if f.line == 21]


def test_a_true_statement_of_the_definitions_is_confirmed_numerically():
    (found,) = findings(chapter(r"$p_j/p_k = e^{(z_j - z_k)/T}$"))
    assert found[1] == ""  # confirmed
    assert found[2] == (
        "tried with the chapter's definitions, with n = 3, confirmed numerically at 16 points, "
        "not proved"
    )


def test_a_slipped_statement_is_an_error_whose_witness_replays():
    (found,) = findings(chapter(r"$p_j/p_k = e^{(z_j + z_k)/T}$"))
    assert found[1] == "error"
    witness = re.search(r"j = (\d), k = (\d), false at T = ([\d./]+), (.*): left", found[2])
    assert witness is not None, found[2]
    j, k = int(witness.group(1)), int(witness.group(2))
    values = {
        name: sympy.Rational(value)
        for name, value in re.findall(
            r"(\w+) = ([\d./]+)", f"T = {witness.group(3)}, {witness.group(4)}"
        )
    }
    z = [values[f"z_{i}"] for i in (1, 2, 3)]
    t = values["T"]
    total = sum(sympy.exp(v / t) for v in z)
    left = (sympy.exp(z[j - 1] / t) / total) / (sympy.exp(z[k - 1] / t) / total)
    right = sympy.exp((z[j - 1] + z[k - 1]) / t)
    assert abs(sympy.N(left - right, 30)) > 1e-6  # the reader's own arithmetic shows it


def test_a_vector_described_in_words_is_not_drawn_for():
    described = chapter(r"$p_j/p_k = e^{(z_j + z_k)/T}$").replace(
        r"$\boldsymbol{p} := \sigma_T(\boldsymbol{z})$ とする。",
        r"$\boldsymbol{q} \in \mathbb{R}^{n}$ を確率分布とし、$\boldsymbol{p} := \boldsymbol{q}$ とする。",
    )
    assert [f for f in findings(described) if f[1] == "error"] == []


def test_the_notation_reads_declarations_definitions_and_words():
    document = parse(chapter(r"$p_j/p_k = e^{(z_j - z_k)/T}$"), "c.mdx")
    notation = read_notation(document)(21)
    assert notation.shapes["bold z"].dimensions == ("n",)
    assert notation.shapes["T"].range.low == 0
    assert set(notation.definitions) == {"sigma", "bold p"}
    assert notation.definitions["sigma"].subscript == "T"
    assert notation.definitions["sigma"].index == "j"
    assert notation.knows("z") and notation.knows("p") and not notation.knows("q")


def test_a_choice_or_a_case_is_not_a_claim():
    notation = read_notation(parse(chapter("$p_1 = 1$"), "c.mdx"))(21)
    assert try_statement("c = p_1", notation) == "gives c a value: a choice or a case, not a claim"
    assert try_statement(r"\boldsymbol{z} = (1, 2, 3)", notation) == "a setting"
    where = "says where x lies: a condition or a case, not a claim"
    assert try_statement(r"0 \le x < p_1", notation) == where  # 「…の範囲の元は」
    assert try_statement(r"|x| < p_1", notation) == where.replace("x", "|x|", 1)


def test_an_inequality_of_what_the_chapter_defines_is_still_tried():
    for slipped in (r"$p_j < 0$", r"$p_j > 1$"):  # neither read as the range p is drawn in
        (found,) = findings(chapter(slipped))
        assert found[1] == "error"
        assert "false at" in found[2]
    (found,) = findings(chapter(r"$0 < p_j < 1$"))
    assert found[1:] == (
        "",
        "tried with the chapter's definitions, with n = 3, confirmed numerically at 16 points, not proved",
    )


def test_an_example_is_tried_at_the_values_it_sets_only():
    text = chapter("$p_1 = 1$").replace(
        "</Lemma>",
        '</Lemma>\n\n<Example id="ex-two" title="例">\n\n'
        r"$\boldsymbol{z} = (0, 0, 0)$、$T = 1$ とすると $\sigma_T(\boldsymbol{z})_1 = 1/3$ です。"
        "\n\n</Example>",
    )
    document = parse(text, "c.mdx")
    line = next(n for n, t in enumerate(document.lines, 1) if "1/3" in t)
    notation = read_notation(document)(line)
    tried = try_statement(r"\sigma_T(\boldsymbol{z})_1 = 1/3", notation, concrete=True)
    assert not isinstance(tried, str) and tried.judgement.outcome == "holds"
    wrong = try_statement(r"\sigma_T(\boldsymbol{z})_1 = 1/4", notation, concrete=True)
    assert not isinstance(wrong, str) and wrong.judgement.outcome == "fails"
    free = try_statement(r"\sigma_T(\boldsymbol{q})_1 = 1/3", notation, concrete=True)
    assert free == "the chapter gives bold q no meaning"


def test_a_name_defined_by_itself_is_not_evaluated():
    text = chapter(r"$\mu = 2\mu$").replace(
        r"$\boldsymbol{p} := \sigma_T(\boldsymbol{z})$ とする。", r"$\mu := \mu + 1$ とする。"
    )
    notation = read_notation(parse(text, "c.mdx"))(21)
    assert try_statement(r"\mu + \sigma_T(\boldsymbol{z})_1 = 2", notation).startswith(
        "not evaluated: a name defined in terms of itself"
    )


def test_a_declared_array_larger_than_the_bound_is_not_made():
    text = chapter(r"$p_1 = 1$").replace(r"\mathbb{R}^{n}", r"\mathbb{R}^{n \times n \times n}")
    notation = read_notation(parse(text, "c.mdx"))(21)
    assert "bold z" not in notation.shapes  # three dimensions: no shape read
    wide = chapter(r"$p_1 = 1$").replace(r"\mathbb{R}^{n}", r"\mathbb{R}^{n \times m}")
    notation = read_notation(parse(wide, "c.mdx"))(21)
    evaluator = notation.at({"n": 9, "m": 9})
    assert 9 * 9 > MAX_ENTRIES
    assert "would have 9 x 9 entries" in str(_refusal(evaluator))


def test_the_vectors_one_and_zero_of_a_large_size_are_not_made():
    notation = read_notation(parse(chapter(r"$p_1 = 1$"), "c.mdx"))(21)
    assert notation.at({"n": 3}).names["bold 1"].value() == sympy.ones(3, 1)
    assert notation.at({"n": MAX_ENTRIES}).names["bold 0"].value() == sympy.zeros(MAX_ENTRIES, 1)
    large = notation.at({"n": 32000})  # a vocabulary: no vector of 32,000 entries made
    assert "bold 1 would have 32000 entries" in str(_refusal(large, "bold 1"))
    assert "bold 0 would have 32000 entries" in str(_refusal(large, "bold 0"))


def _refusal(evaluator, name: str = "bold z") -> Exception:
    try:
        evaluator.names[name].value()
    except Exception as exc:  # noqa: BLE001 - the refusal is what is asserted
        return exc
    raise AssertionError("made")


RMS_CHAPTER = """\
# 試しの章

## 2. 定義

<Definition id="def-rms" title="二乗平均平方根">

$\\boldsymbol{x} \\in \\mathbb{R}^{d}$ に対し

$$\\mathrm{RMS}(\\boldsymbol{x}) := \\sqrt{\\frac{1}{d}\\sum_{j=1}^{d} x_j^2} = \\frac{\\|\\boldsymbol{x}\\|}{RIGHT}$$

とする。

</Definition>

## 3. 性質

<Proposition id="prop-rms" title="性質">

$\\boldsymbol{y} := \\boldsymbol{x}/\\mathrm{RMS}(\\boldsymbol{x})$ は $\\mathrm{RMS}(\\boldsymbol{y}) = 1$ を満たし、$\\mathrm{RMS}(2\\boldsymbol{x}) = CLAIM$ である。

</Proposition>
"""


def rms_mismatches(right: str = r"\sqrt{d}", claim: str = r"2\,\mathrm{RMS}(\boldsymbol{x})"):
    text = RMS_CHAPTER.replace("RIGHT", right).replace("CLAIM", claim)
    report = audit_document(parse(text, "c.mdx"), with_checks=False)
    return sorted((f.line, f.code) for f in report.mismatched)


def test_a_definition_followed_by_a_claim_defines_and_the_claim_is_tried():
    assert rms_mismatches() == []
    assert rms_mismatches(right="d") == [(9, "EQ004")]  # ‖x‖/d is not RMS(x)


def test_applying_a_defined_function_in_a_claim_re_means_nothing():
    # RMS(y) = 1 in the proposition is a claim about RMS, after which RMS(2x) is still tried
    assert rms_mismatches(claim=r"4\,\mathrm{RMS}(\boldsymbol{x})") == [(19, "EQ004")]


def test_a_name_defined_by_what_is_not_read_is_not_drawn_for():
    # ν^2 := ν^2(z) from another chapter: a bound ν > 0 later does not make ν a free number
    text = chapter(r"$\sigma^2 = 2$").replace(
        r"$\boldsymbol{p} := \sigma_T(\boldsymbol{z})$ とする。",
        r"$\nu^2 := \nu^2(\boldsymbol{z})$ とし、$\nu > 0$ とする。",
    )
    notation = read_notation(parse(text, "c.mdx"))(21)
    assert notation.shapes["nu"].words.startswith(":=")
    assert not notation.knows("nu")
    assert try_statement(r"\nu + \sigma_T(\boldsymbol{z})_1 = 2", notation).startswith(
        "the chapter gives nu no meaning"
    )


MATRICES = """\
# 試しの章

<Example id="ex-merge" title="手計算">

$d_{\\mathrm{in}} = d_{\\mathrm{out}} = 3$、$W_0 = I$ とし、

$$B = \\begin{pmatrix} 1 \\\\ 0 \\\\ 2 \\end{pmatrix}, \\qquad A = \\begin{pmatrix} 0.5 & -1 & 0 \\end{pmatrix}$$

とします。マージした重みは

$$W' = I + 2BA = \\begin{pmatrix} 2 & -2 & 0 \\\\ 0 & 1 & 0 \\\\ 2 & -4 & CORNER \\end{pmatrix}$$

です。$\\boldsymbol{x} = (1, 1, 1)^{\\mathsf{T}}$ では $2B(A\\boldsymbol{x}) = (-1, 0, LAST)^{\\mathsf{T}}$ で、足します。

</Example>
"""


def matrix_mismatches(corner: str = "1", last: str = "-2") -> list[tuple[int, str]]:
    text = MATRICES.replace("CORNER", corner).replace("LAST", last)
    report = audit_document(parse(text, "m.mdx"), with_checks=False)
    return sorted((f.line, f.code) for f in report.mismatched)


def test_an_example_computes_with_the_matrices_and_vectors_it_sets():
    assert matrix_mismatches() == []
    # I is the identity of the example's matrices; W' names what the example works out
    assert matrix_mismatches(corner="0") == [(11, "EQ004")]
    # a result before 「で、」 in an example is a claim; (1, 1, 1)^T is a column
    assert matrix_mismatches(last="-4") == [(13, "EQ004")]


def test_one_value_of_an_indexed_function_does_not_define_it():
    # S_0(r) := 0 then S_j(r) := …: the second defines S; the first is its value at j = 0
    text = chapter(r"$p_1 = p_1$").replace(
        r"$\boldsymbol{p} := \sigma_T(\boldsymbol{z})$ とする。",
        r"$S_0(r) := 0$、$S_j(r) := j\,r$ とする。",
    )
    notation = read_notation(parse(text, "c.mdx"))(21)
    assert str(notation.definitions["S"].body) == "mul(name('j',), name('r',))"


POWER_LAW = """\
# 試しの章

<Definition id="def-cost" title="計算量">

$C(N, D) := 6ND$ とする。

</Definition>

<Definition id="def-loss" title="損失">

定数 $A, B > 0$、$\\alpha, \\beta > 0$ に対し、$N, D > 0$ の関数 $L(N, D) := A/N^{\\alpha} + B/D^{\\beta}$ とする。

</Definition>

<Proposition id="prop-opt" title="最適点">

$C > 0$ について、$G := (\\alpha A/(\\beta B))^{1/(\\alpha+\\beta)}$ と置く。

</Proposition>

<Proof of="prop-opt">

$$f(N) := L\\Big(N, \\frac{C}{6N}\\Big) = AN^{-\\alpha} + B\\Big(\\frac{6}{C}\\Big)^{\\beta}N^{BETA}$$

$$f'(N) = -\\alpha AN^{-\\alpha-1} + \\beta B\\Big(\\frac{6}{C}\\Big)^{\\beta}N^{DERIVATIVE}$$

</Proof>

<Proposition id="prop-g" title="G">

$G^{\\alpha+\\beta} = POWER$ である。

</Proposition>
"""


def power_law_mismatches(
    beta: str = r"\beta", derivative: str = r"\beta-1", power: str = r"\alpha A/(\beta B)"
) -> list[tuple[int, str]]:
    text = POWER_LAW.replace("BETA", beta).replace("DERIVATIVE", derivative)
    report = audit_document(parse(text.replace("POWER", power), "c.mdx"), with_checks=False)
    return sorted((f.line, f.code) for f in report.mismatched)


def test_a_bound_on_a_list_of_names_ranges_each():
    notation = read_notation(parse(POWER_LAW, "c.mdx"))(12)
    assert {"A", "B", "alpha", "beta", "N", "D"} <= notation.ranges.keys()
    assert notation.ranges["alpha"].low == 0


def test_a_bound_ranges_names_with_a_digit_below_but_not_entries_of_a_vector():
    text = (
        "# 章\n\n## 1. 数\n\n"
        '<Definition id="def-m" title="量">\n\n'
        "$\\boldsymbol{x} \\in \\mathbb{R}^{n}$、$k, t_0 > 0$、$0 < \\beta_1 < 1$ とし、"
        "$x_1 > 0$ とする。\n\n</Definition>\n"
    )
    notation = read_notation(parse(text, "c.mdx"))(8)
    assert {"k", "t_0", "beta_1"} <= notation.ranges.keys()
    assert notation.ranges["beta_1"].high == 1
    assert "x_1" not in notation.shapes  # an entry of the declared x


def test_a_function_bounded_as_a_number_in_an_element_is_that_number_there():
    # C(N, D) := 6ND, then 「$C > 0$ について」: in the proposition and its proof, C is a
    # budget, so f(N) := L(N, C/(6N)) = … and its derivative f'(N) are tried
    assert power_law_mismatches() == []
    assert power_law_mismatches(beta=r"-\beta") == [(23, "EQ004")]
    assert power_law_mismatches(derivative=r"\beta+1") == [(25, "EQ004")]


def test_a_definition_a_proposition_states_serves_the_later_elements():
    # G := … 「と置く」 in the statement of one proposition: a later one uses it
    assert power_law_mismatches(power=r"\beta A/(\alpha B)") == [(31, "EQ004")]


SETTINGS = """\
# 試しの章

<Definition id="def-norm" title="正規化">

$\\boldsymbol{x} \\in \\mathbb{R}^{d}$、$\\varepsilon \\ge 0$ に対し $s(\\boldsymbol{x}) := \\sqrt{\\|\\boldsymbol{x}\\|^2/d + \\varepsilon}$ とする。$\\varepsilon = 0$ のときは $\\boldsymbol{x} \\ne \\boldsymbol{0}$ とする。ふつうは $\\varepsilon = 1$ とし、$\\varepsilon = 2,\\ 3$ も試す。

</Definition>

一つの文の例として、$\\varepsilon = 4$ とすると $s$ は大きくなる。

<Exercise id="exr-s" title="値">

$\\varepsilon = 0.5$、$\\boldsymbol{x} = (1, 2, 3, 6)$ とし、$s(\\boldsymbol{x})$ を求めよ。

<Solution>

$s(\\boldsymbol{x})^2 = VALUE$ です。$\\varepsilon = 0$ なら $\\sqrt{12.5}$ です。

</Solution>

</Exercise>
"""


def test_a_case_a_list_or_a_second_value_sets_nothing():
    text = SETTINGS.replace("VALUE", "13")
    notation = read_notation(parse(text, "c.mdx"))
    # the 定義 sets ε = 1: 「$\\varepsilon = 0$ のときは」 is a case and 「$\\varepsilon = 2,\\ 3$」
    # a list, and a value in the prose between elements illustrates its sentence
    assert str(notation(8).settings["epsilon"]) == "num(1,)"
    assert str(notation(10).settings["epsilon"]) == "num(1,)"
    # the exercise sets ε to 0.5, then to 0 in a case: to neither (nor to the chapter's 1),
    # and 13 is no slip of what another value of ε would give
    assert "epsilon" not in notation(17).settings
    report = audit_document(parse(text, "c.mdx"), with_checks=False)
    assert report.mismatched == []
    # 1/2 is a value as 0.5 is: set, then set again in a case
    halved = text.replace(r"$\varepsilon = 0.5$", r"$\varepsilon = 1/2$")
    assert audit_document(parse(halved, "c.mdx"), with_checks=False).mismatched == []


def test_a_bound_the_prose_derives_declares_no_range():
    prose = "$T > 0$ に対し、$L = 2048$ では $i \\ge 42$、つまり 23 組です。\n"
    ranges = read_notation(parse(chapter("$p_1 = p_1$") + prose, "c.mdx"))(30).ranges
    assert ranges["T"].low == 0 and "i" not in ranges


APPROXIMATE = """\
# 試しの章

<Definition id="def-g" title="g">

$g(x) := 2^{x}$ とし、$c = 0.5$ とする。

</Definition>

<Example id="ex-g" title="値">

$x = 3$ とします。$g(x + c) \\approx DECIMAL$ で、$g(x) \\approx INTEGER$ です。

</Example>
"""


def approximate_mismatches(decimal: str = "11.31", integer: str = "8") -> list[int]:
    text = APPROXIMATE.replace("DECIMAL", decimal).replace("INTEGER", integer)
    report = audit_document(parse(text, "c.mdx"), with_checks=False)
    return [f.line for f in report.mismatched]


def test_an_approximation_an_example_prints_is_judged_at_its_rounding():
    assert approximate_mismatches() == []  # 2^{3.5} = 11.3137…
    assert approximate_mismatches(decimal="11.32") == [11]
    assert approximate_mismatches(integer="9") == [11]


def test_the_rounding_after_an_approximation_is_half_a_unit_of_what_it_prints():
    assert _result_rounding("2.829") == sympy.Rational(1, 5658)
    assert _result_rounding(r"3.249 \times 10^{10}") == sympy.Rational(1, 6498)  # as 3.249
    assert _result_rounding("1{,}024") == sympy.Rational(1, 2048)
    # a tuple: the loosest of its entries, so that no entry is held finer than printed
    assert _result_rounding(r"(0.2837,\ -0.9589)^{\mathsf{T}}") == sympy.Rational(1, 5674)
    assert _result_rounding("1 + x") is None


def test_an_approximation_by_a_formula_is_not_tried():
    text = APPROXIMATE.replace("DECIMAL", "11.31").replace("INTEGER", "8")
    notation = read_notation(parse(text, "c.mdx"))(11)
    assert try_statement(r"g(x) \approx 2^{x}", notation, concrete=True) == (
        "≈ before what is no printed number"
    )


SEQUENCES = """\
# 試しの章

<Definition id="def-slopes" title="傾き">

$H$ ヘッドの第 $h$ ヘッドの傾きを $m_h := 2^{-8h/H}$ とする。

</Definition>

<Proposition id="prop-slopes" title="和">

$\\rho_H := 2^{-8/H}$ と置く。

1. $m_h = \\rho_H^{h}$。
2. $\\sum_{h=1}^{H} m_h = SUM$。

</Proposition>

<Proposition id="prop-lags" title="分布">

$0 < \\lambda < 1$ とし、$\\pi_s := (1 - \\lambda)\\lambda^s$（$s = 0, 1, 2, \\ldots$）と置く。$\\sum_s \\pi_s = 1$ である。

</Proposition>
"""


def sequence_mismatches(
    total: str = r"(1 - 2^{-8})\,\rho_H/(1 - \rho_H)",
) -> list[tuple[int, str]]:
    text = SEQUENCES.replace("SUM", total)
    report = audit_document(parse(text, "c.mdx"), with_checks=False)
    return sorted((f.line, f.code) for f in report.mismatched)


def test_a_sequence_is_summed_over_a_count_the_chapter_names_only_there():
    # m_h := … is a sequence, ρ_H a name of its own, and H, the sum's upper limit, a size
    assert sequence_mismatches() == []
    # item 1 says of m what its definition gives: a claim, which re-means nothing
    assert sequence_mismatches(total=r"(1 - 2^{-8})/(1 - \rho_H)") == [(14, "EQ004")]
    # \sum_s over π_s, for s = 0, 1, 2, … in words: no stated number of terms, not tried
    notation = read_notation(parse(SEQUENCES, "c.mdx"))(20)
    assert try_statement(r"\sum_s \pi_s = 1", notation) == (
        "not evaluated: the range of s over a sequence is not stated"
    )


def test_a_name_with_a_digit_below_is_a_name_of_its_own():
    # c_0 := …: not entry 0 of c; q_0 := q_0(z), defined by itself, is not drawn for
    text = chapter(r"$p_1 = p_1$").replace(
        r"$\boldsymbol{p} := \sigma_T(\boldsymbol{z})$ とする。",
        r"$c_0 := \dfrac{4 - \pi}{6\pi}$、$q_0 := q_0(\boldsymbol{z})$ とする。",
    )
    notation = read_notation(parse(text, "c.mdx"))(21)
    step = (
        r"\frac{2}{3\pi} - \frac16 + \sigma_T(\boldsymbol{z})_1 = c_0 + \sigma_T(\boldsymbol{z})_1"
    )
    assert try_statement(step, notation).judgement.outcome == "holds"
    assert try_statement(step.replace("c_0", "2c_0"), notation).judgement.outcome == "fails"
    assert try_statement(r"q_0 + \sigma_T(\boldsymbol{z})_1 = 1", notation) == (
        "not evaluated: a name defined in terms of itself"
    )


EULER = """\
# 試しの章

## 1. 関数

<Proposition id="prop-even" title="偶部">

$e(x) := \\frac12\\big(f(x) + f(-x)\\big)$ は偶関数である。

</Proposition>

<Definition id="def-s" title="シグモイド">

$s(x) := \\frac{{1}}{{1 + e^{{-x}}}}$ とする。

</Definition>

<Example id="ex-s" title="値">

$x = 1$ では $s(x) \\approx {}$ である。

</Example>
"""


def test_a_statements_e_of_x_leaves_eulers_number_to_the_later_elements():
    report = audit_document(parse(EULER.format("0.7311"), "c.mdx"), with_checks=False)
    assert [(f.line, f.code, str(f.status)) for f in report.findings if f.code == "EQ004"] == [
        (19, "EQ004", "confirmed")
    ]
    report = audit_document(parse(EULER.format("0.7113"), "c.mdx"), with_checks=False)
    assert [(f.line, f.code) for f in report.mismatched] == [(19, "EQ004"), (13, "DEF002")]


EQUIVALENT = """\
# 試しの章

## 1. 関数

<Definition id="def-g" title="g">

$x \\in \\mathbb{R}$ に対し $g(x) := 1 + x + e^{x}$、$h(x) := x + e^{x}$ とする。

</Definition>

<Proposition id="prop-zero" title="零点">

$g(x) = 0$ は $h(x) = -1$ と同値で、その解はただ 1 つである。

</Proposition>
"""


def test_the_sides_of_an_equivalence_are_conditions_not_identities():
    report = audit_document(parse(EQUIVALENT, "c.mdx"), with_checks=False)
    assert report.mismatched == []


WORKED_OUT = """\
# 試しの章

## 1. 関数

<Definition id="def-f" title="f">

$x \\in \\mathbb{{R}}$ に対し $f(x) := x^2 + 1$ とする。

</Definition>

{text}
"""


def test_a_value_worked_out_to_a_printed_number_is_tried_anywhere():
    between = "たとえば $f(2) \\approx {}$ です。"
    remark = '<Remark id="rem-f" title="値">\n\n$f(3) \\approx {}$ である。\n\n</Remark>'
    for text, right, wrong in ((between, "5.0", "5.1"), (remark, "10.0", "10.2")):
        report = audit_document(
            parse(WORKED_OUT.format(text=text.format(right)), "c.mdx"), with_checks=False
        )
        assert report.mismatched == []
        report = audit_document(
            parse(WORKED_OUT.format(text=text.format(wrong)), "c.mdx"), with_checks=False
        )
        assert [f.code for f in report.mismatched] == ["EQ004"]


DESCRIBED = """\
# 試しの章

## 1. 集中

<Proposition id="prop-max" title="最大">

{declared}について $1/\\max_j p_j \\le n$ である。

</Proposition>

<Proof of="prop-max">

$\\sum_j p_j^2 \\le \\max_j p_j$ です。

</Proof>
"""


def test_a_declaration_said_to_be_of_a_probability_vector_is_not_tried_at_any_vector():
    # the words restrict p (non-negative, summing to 1): no point may be drawn for it
    def words(declared: str) -> str:
        document = parse(DESCRIBED.format(declared=declared), "c.mdx")
        return read_notation(document)(13).shapes["bold p"].words

    assert words("確率ベクトル $\\boldsymbol{p} \\in \\mathbb{R}^{n}$ ") != ""
    assert words("$\\boldsymbol{p} \\in \\mathbb{R}^{n}$（成分が非負で和が 1）") != ""
    assert words("$\\boldsymbol{p} \\in \\mathbb{R}^{n}$ ") == ""


def test_a_row_a_setting_names_is_no_claim_of_its_value():
    text = """\
# 試しの章

<Example id="ex-t" title="温度">

$T = 1$ とします。確率は $0.5$ です。$T = \\infty$ の行は一様な分布です。

</Example>
"""
    assert audit_document(parse(text, "c.mdx"), with_checks=False).mismatched == []


DENSITY = """\
# 試しの章

## 1. 密度

<Definition id="def-phi" title="密度">

$t \\in \\mathbb{{R}}$ に対し $\\varphi(t) := \\frac{{1}}{{\\sqrt{{2\\pi}}}}e^{{-t^2/2}}$ とする。

</Definition>

<Example id="ex-phi" title="値">

{text}

</Example>
"""


def worked_mismatches(text: str) -> list[str]:
    report = audit_document(parse(DENSITY.format(text=text), "c.mdx"), with_checks=False)
    return [f.code for f in report.mismatched if f.code.startswith("EQ")]


def test_a_value_below_one_is_held_to_half_a_unit_of_its_last_digit():
    # φ(3) = 0.0044318…: 0.004432 is it rounded, 0.004431 is not, though within 1e-4
    assert worked_mismatches("$\\varphi(3) \\approx 0.004432$ です。") == []
    assert worked_mismatches("$\\varphi(3) \\approx 0.004431$ です。") == ["EQ004"]


def test_a_number_set_alone_is_taken_as_written():
    # a constant or a choice: 10 × 0.4 + φ(1) = 4.2420 to its last digit
    choice = "$u = 0.4$ とします。$10u + \\varphi(1) \\approx {}$ です。"
    assert worked_mismatches(choice.format("4.2420")) == []
    assert worked_mismatches(choice.format("4.2410")) == ["EQ004"]
    constant = "$u = 0.3989$ とします。$10u + \\varphi(1) \\approx {}$ です。"
    assert worked_mismatches(constant.format("4.2310")) == []
    assert worked_mismatches(constant.format("4.2314")) == ["EQ004"]


def test_a_vector_of_rounded_entries_widens_the_result_by_its_rounding():
    # q was worked out and rounded before: q_1 lies in 0.50105 to 0.50115, so q_1 φ(0) in
    # 0.199895 to 0.199935 (0.19991 at the printed entry): 0.1999 stands, 0.1998 cannot
    # hold beside q_1 = 0.5011 whatever q_1 was before it was rounded
    text = (
        "$\\boldsymbol{{q}} \\in \\mathbb{{R}}^{{2}}$ とし、$\\boldsymbol{{q}} = (0.5011,\\ 0.4989)$ "
        "とします。$q_1\\,\\varphi(0) \\approx {}$ です。"
    )
    assert worked_mismatches(text.format("0.1999")) == []
    assert worked_mismatches(text.format("0.1998")) == ["EQ004"]
    assert worked_mismatches(text.format("0.1990")) == ["EQ004"]


def test_a_case_of_the_sentence_sets_its_value_for_the_rest_of_it():
    text = "$a = 2$ とします。たとえば $t = 1$ のとき $\\varphi(t) + a \\approx {}$ です。"
    assert worked_mismatches(text.format("2.2420")) == []
    assert worked_mismatches(text.format("2.2402")) == ["EQ004"]


def test_a_free_index_beside_a_fixed_one_runs_over_the_others():
    # z_1 - z_j ≥ 3 compares the first entry with the others: j = 1 is no witness
    text = (
        "$\\boldsymbol{{z}} \\in \\mathbb{{R}}^{{3}}$ とし、$\\boldsymbol{{z}} = (3,\\ 0,\\ -1)$ "
        "とします。$\\varphi(0) > 0$ で、$z_1 - z_j \\ge {}$ を満たします。"
    )
    assert worked_mismatches(text.format("3")) == []
    assert worked_mismatches(text.format("4")) == ["EQ004"]


def test_settings_listed_before_a_case_are_cases_too():
    # 「$\eta = 6 \times 10^{-4}$、$\lambda = 0.1$ なら」: the なら assumes both
    text = (
        "小さな値では $\\eta = 6 \\times 10^{{-4}}$、$\\lambda = 0.1$ なら "
        "$\\eta\\lambda = {}$ です。"
    )
    assert worked_mismatches(text.format("6 \\times 10^{-5}")) == []
    assert worked_mismatches(text.format("6 \\times 10^{-4}")) == ["EQ005"]
    # a setting of an earlier sentence is no case of this one: nothing is judged
    apart = text.replace("、$\\lambda", "。$\\lambda")
    assert worked_mismatches(apart.format("6 \\times 10^{-4}")) == []


SQUARE = """\
# 試しの章

## 1. 大きさ

<Definition id="def-g" title="g">

$\\boldsymbol{{u}} \\in \\mathbb{{R}}^{{m}}$、$\\boldsymbol{{v}} \\in \\mathbb{{R}}^{{n}}$ とし、$g := m + n$ と置く。

</Definition>

<Proposition id="prop-g" title="正方">

正方の場合（$m = n$）では {claim} で、$g$ は偶数である。

</Proposition>
"""


def test_a_case_that_makes_two_names_one_is_tried_as_a_claim():
    def codes(claim: str) -> list[str]:
        text = SQUARE.format(claim=claim)
        return [f.code for f in audit_document(parse(text, "c.mdx"), with_checks=False).mismatched]

    assert codes("$g = 2n$") == []
    assert codes("$g = 3n$") == ["EQ004"]


def test_an_integer_after_approx_is_rounded_to_its_last_digit():
    # 50 φ(0) = 19.947: 「≈ 20」 is it rounded; after = an integer is exact
    assert worked_mismatches("$50\\varphi(0) \\approx 20$ です。") == []
    assert worked_mismatches("$50\\varphi(0) \\approx 21$ です。") == ["EQ004"]


GELU = """\
# 試しの章

## 1. 定義

<Definition id="def-phi" title="正規分布">

$x \\in \\mathbb{{R}}$ に対し

$$\\varphi(t) := \\frac{{1}}{{\\sqrt{{2\\pi}}}}e^{{-t^2/2}}, \\qquad \\Phi(x) := \\int_{{-\\infty}}^{{x}}\\varphi(t)\\,dt, \\qquad \\mathrm{{GELU}}(x) := x\\,\\Phi(x), \\qquad s(x) := \\frac{{1}}{{1 + e^{{-x}}}}$$

と置く。

</Definition>

<Proposition id="prop-d" title="導関数">

{claim}

</Proposition>
"""


def _gelu_codes(claim: str) -> list[str]:
    text = GELU.format(claim=claim)
    return [f.code for f in audit_document(parse(text, "c.mdx"), with_checks=False).mismatched]


def test_the_variable_an_integral_binds_is_no_name_the_chapter_must_define():
    # Φ's t is bound by its integral: GELU'' is tried with φ and Φ as defined
    assert _gelu_codes("$\\mathrm{GELU}''(x) = (2 - x^2)\\,\\varphi(x)$ である。") == []
    assert _gelu_codes("$\\mathrm{GELU}''(x) = (1 - x^2)\\,\\varphi(x)$ である。") == ["EQ004"]


def test_the_hyperbolic_tangent_is_known():
    claim = "$s'(x) = s(x)\\big(1 - s(x)\\big)$、$s(x) = \\frac{{1}}{{2}}\\big(1 {} \\tanh(x/2)\\big)$ である。"
    assert _gelu_codes(claim.format("+")) == []
    assert _gelu_codes(claim.format("-")) == ["EQ004"]


def test_a_hypothesis_with_to_suru_to_is_no_claim_for_every_value():
    # 「$x < 0$ とすると」: what follows holds for negative x only
    assert _gelu_codes("$x < 0$ とすると $\\mathrm{GELU}(x) < 0$ です。") == []
    assert _gelu_codes("$\\mathrm{GELU}(x) < 0$ です。") == ["EQ004"]


def test_a_statement_on_an_interval_the_words_describe_is_no_claim_for_every_value():
    text = "$\\Phi$ は増加なので、その区間では $\\Phi(x) < \\frac{1}{2}$ です。"
    assert _gelu_codes(text) == []
    assert _gelu_codes(text.replace("その区間では ", "")) == ["EQ004"]


def test_an_upper_case_subscript_labels_a_point_and_is_no_index():
    # x_G names the point the text describes; no meaning the chapter gives: not tried
    assert _gelu_codes("$\\mathrm{GELU}(x_G) = -x_G^2\\,\\varphi(x_G)$ である。") == []


def test_a_hypothesis_far_before_its_conclusion_in_a_proof_is_still_its_hypothesis():
    # activations.txt 103: 「$x < 0$ とすると、… で、1 を $|x| > 0$ に使うと $-\varphi(|x|) <
    # \mathrm{GELU}(x) < 0$」: the chain holds for negative x, which the sentence assumes
    path = Path(__file__).parents[2] / "benchmarks" / "unseen" / "activations.txt"
    lines = path.read_text(encoding="utf-8").splitlines()[:104]
    assert "$x < 0$ とすると、" in lines[102]

    def codes(text: str) -> list[str]:
        report = audit_document(parse(text + "\n", "activations.txt"), with_checks=False)
        return [f.code for f in report.mismatched if f.line == 103]

    assert codes("\n".join(lines)) == []
    lines[102] = lines[102].replace("$x < 0$ とすると、", "")
    assert codes("\n".join(lines)) == ["EQ004"]


def _gelu_details(claim: str) -> list[str]:
    text = GELU.format(claim=claim)
    return [f.detail for f in audit_document(parse(text, "c.mdx"), with_checks=False).mismatched]


def test_a_claim_in_a_case_of_its_sentence_is_tried_where_the_case_holds():
    # activations.txt 192: x - x s(x) = x/(1 + e^x), below x e^{-x} for x > 0, and the
    # negative side mirrored; each conclusion holds in its own case only
    claim = "$x > 0$ のとき $0 < x - x\\,s(x) < {}$、$x < 0$ のとき $0 < -x\\,s(x) < {}$ である。"
    assert _gelu_codes(claim.format("x\\,e^{{-x}}", "|x|\\,e^{{x}}")) == []
    # false only for x above about 1.28: a witness in the case, though small x satisfy it
    (detail,) = _gelu_details(claim.format("e^{{-x}}", "|x|\\,e^{{x}}"))
    assert detail.startswith("tried with the chapter's definitions, false at x = ")
    assert detail.endswith("where the case its sentence states holds")
    witness = sympy.Rational(re.search(r"x = ([\d./]+)", detail).group(1))
    assert witness > 0 and witness * sympy.exp(-witness) / (1 + sympy.exp(-witness)) >= sympy.exp(
        -witness
    )
    (detail,) = _gelu_details(claim.format("x\\,e^{{-x}}", "e^{{x}}"))
    assert re.search(r"false at x = -[\d./]+", detail), detail  # drawn below 0, as the case says


def test_a_case_that_bounds_what_the_chapter_defines_or_sizes_is_not_drawn_in():
    # 「$s(x) > 1/2$ のとき」 bounds a defined function's value: no point can be drawn for it
    assert _gelu_codes("$s(x) > 1/2$ のとき $x\\,s(x) > x$ である。") == []
    # the same slip with the case on x itself is found
    assert _gelu_codes("$x > 0$ のとき $x\\,s(x) > x$ である。") == ["EQ004"]


def test_a_conclusion_right_after_its_case_is_no_hypothesis_of_the_next():
    from proofs.audit.deciding.sentence import is_hypothesis

    line = "$x > 0$ のとき $A < B$、$x < 0$ のとき $C < D$ である。"
    text = GELU.format(claim=line)
    document = parse(text, "c.mdx")
    at = text.split("\n").index(line) + 1
    assert not is_hypothesis(document, at, "A < B")
    assert is_hypothesis(document, at, "x < 0")
    # a list of settings before one condition stays a hypothesis
    listed = "$a = 1$、$b = 2$ のとき $a + b = 3$ である。"
    document = parse(GELU.format(claim=listed), "c.mdx")
    assert is_hypothesis(document, at, "a = 1")


def test_a_formula_first_in_an_item_before_de_is_what_the_item_states():
    from proofs.audit.deciding.sentence import is_hypothesis

    # 「2. $A = B$ で、」 states A = B and goes on; 「$d = 8$ で、」 in a sentence sets d
    for line, statement, hypothesis in (
        ("2. $A = B + C$ で、等号は $C = 0$ のときに限る。", "A = B + C", False),
        ("ここでは $d = 8$ で、$d^2 = 64$ である。", "d = 8", True),
    ):
        text = GELU.format(claim=line)
        at = text.split("\n").index(line) + 1
        assert is_hypothesis(parse(text, "c.mdx"), at, statement) is hypothesis
    # the claim an item states is tried
    assert _gelu_codes("1. $x\\,s(x) = x/(1 + e^{{-x}})$ で、これは正である。") == []
    assert _gelu_codes("1. $x\\,s(x) = x/(1 + e^{{x}})$ で、これは正である。") == ["EQ004"]


def test_what_a_proposition_proves_of_a_name_sets_it_nowhere_else():
    # 「等号は $x = 0$ のとき」「$x = 0$ です」: what it proves, not x = 0 for the element;
    # what the text sets (「$x = 1$ とする」) is a setting of the element still
    for line, settings in (
        ("$s(x) \\ge 1/2$ で、等号は $x = 0$ のときに限る。", {}),
        ("$s(x) = 1/2$ から $x = 0$ です。", {}),
        ("$x = 1$ とする。", {"x": "num(1,)"}),
    ):
        text = GELU.format(claim=line)
        at = text.split("\n").index(line) + 1
        notation = read_notation(parse(text, "c.mdx"))(at)
        assert {k: str(v) for k, v in notation.settings.items()} == settings


def test_a_case_remarked_on_in_brackets_keeps_the_formula_before_it():
    # 「$A$（$x > 0$）なら B」: A is the case, x > 0 a remark on it; B follows from both
    from proofs.audit.deciding.sentence import cases_before

    line = "$s(x) = 1/2$（$x > 0$）なら $x = 0$ となるが、これはありえない。"
    text = GELU.format(claim=line)
    at = text.split("\n").index(line) + 1
    assert cases_before(parse(text, "c.mdx"), at, "x = 0") == ["s(x) = 1/2", "x > 0"]


def test_a_range_a_name_runs_over_sets_nothing():
    # 「$t = 1, \\ldots, T$ の順に」 in a 定義: t runs from 1 to T, it is not set to 1
    text = (
        "# 章\n\n## 1. 手順\n\n"
        '<Definition id="def-steps" title="手順">\n\n'
        "$t = 1, \\ldots, T$ の順に $u_t := 2t$ と定める。\n\n</Definition>\n"
    )
    assert "t" not in read_notation(parse(text, "c.mdx"))(9).settings
    assert "t" in read_notation(parse(text.replace(", \\ldots, T", ""), "c.mdx"))(9).settings


def test_names_joined_by_or_before_a_case_are_cases_too():
    from proofs.audit.deciding.sentence import is_hypothesis

    line = "等号は $k = 1$ または $t = 0$ のときに限る。"
    text = GELU.format(claim=line)
    at = text.split("\n").index(line) + 1
    assert is_hypothesis(parse(text, "c.mdx"), at, "k = 1")


def test_a_name_whose_subscript_is_a_word_is_defined_as_its_own():
    text = (
        "# 章\n\n## 1. 数\n\n"
        '<Definition id="def-m" title="記憶量">\n\n'
        "$k > 0$、$t > 0$、$s > 0$ に対し、$M(k, t) := kt$、"
        "$M_{{\\mathrm{{sh}}}}(k, t) := s + k(t - s)$ とする。\n\n</Definition>\n\n"
        '<Proposition id="prop-m" title="差">\n\n$M(k, t) - M_{{\\mathrm{{sh}}}}(k, t) = {}$ である。\n\n'
        "</Proposition>\n"
    )
    notation = read_notation(parse(text.format("(k - 1)s"), "c.mdx"))(12)
    assert notation.definitions["M_sh"].params == ("k", "t")
    assert "M" in notation.definitions  # the two are not one name

    def verdict(right: str) -> list[str]:
        report = audit_document(parse(text.format(right), "c.mdx"), with_checks=False)
        return [str(f.status) for f in report.findings if f.line == 13 and f.code == "EQ004"]

    assert verdict("(k - 1)s") == ["confirmed"]
    assert verdict("(k - 1)t") == ["mismatched"]


ROUTER = """\
# 試しの章

<Definition id="def-router" title="ルータ">

$\\boldsymbol{x} \\in \\mathbb{R}^{d}$ と $W_r \\in \\mathbb{R}^{d \\times E}$ に対し $\\boldsymbol{r}(\\boldsymbol{x}) := W_r^{\\mathsf{T}}\\boldsymbol{x}$ とする。

</Definition>

<Example id="ex-router" title="例">

$d = 2$、$E = 3$ とし、

$$
\\boldsymbol{x} = \\begin{pmatrix} 1 \\\\ 0.5 \\end{pmatrix}, \\qquad W_r = \\begin{pmatrix} 1 & 0 & -0.5 \\\\ 0 & 0.4 & 0 \\end{pmatrix}
$$

とします。ロジットは {claim} です。

</Example>
"""


def _router_findings(claim: str) -> list[tuple[str, str]]:
    text = ROUTER.replace("{claim}", claim)
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "ロジット" in t)
    report = audit_document(parse(text, "c.mdx"), with_checks=False)
    return [(str(f.severity), f.detail) for f in report.findings if f.line == line]


def test_a_function_named_before_its_value_at_the_example_is_judged_there():
    """r = W_r^T x = (…) with r(x) defined: r names the function's value at the example's
    x, and W_r's r is part of a name the example sets, no index to run over."""
    right = _router_findings(
        r"$\boldsymbol{r} = W_r^{\mathsf{T}}\boldsymbol{x} = (1,\ 0.2,\ -0.5)$"
    )
    assert right == [
        (
            "",
            "tried with the chapter's definitions, confirmed numerically at the values set, not proved",
        )
    ]
    wrong = _router_findings(
        r"$\boldsymbol{r} = W_r^{\mathsf{T}}\boldsymbol{x} = (1,\ 0.4,\ -0.5)$"
    )
    assert wrong == [
        (
            "error",
            "tried with the chapter's definitions, false left 0.2, right 0.4 (evaluated at 40 digits)",
        )
    ]


def test_a_value_worked_from_a_rounded_vector_allows_for_its_rounding():
    """μ = 2p_1 + p_2 − p_4 from p printed to four places: 1.4926 from the printed entries
    and 1.4927 from the exact ones are both right; 1.4972 is not."""
    text = chapter("$p_1 > 0$").replace(
        "</Lemma>",
        '</Lemma>\n\n<Example id="ex-mean" title="例">\n\n'
        r"$\boldsymbol{z} = (2, 1, 0, -1)$、$T = 1$ とすると $\boldsymbol{p} = (0.6439,\ 0.2369,\ 0.0871,\ 0.0321)$ で、"
        r"$2p_1 + p_2 - p_4 = 1.4927$ です。"
        "\n\n</Example>",
    )
    document = parse(text, "c.mdx")
    line = next(n for n, t in enumerate(document.lines, 1) if "1.4927" in t)
    notation = read_notation(document)(line)
    right = try_statement(r"2p_1 + p_2 - p_4 = 1.4927", notation, concrete=True)
    assert not isinstance(right, str) and right.judgement.outcome == "holds"
    wrong = try_statement(r"2p_1 + p_2 - p_4 = 1.4972", notation, concrete=True)
    assert not isinstance(wrong, str) and wrong.judgement.outcome == "fails"
    assert wrong.judgement.witness is not None
    assert (wrong.judgement.witness.left, wrong.judgement.witness.right) == (
        sympy.Float("1.4926", 40),
        sympy.Float("1.4972", 40),
    )


def test_a_vector_set_with_to_suru_to_is_a_case_of_the_rest_of_the_sentence():
    # 「$\boldsymbol{x} = (…)$ とすると …」: what follows is worked at that x
    text = (
        "$\\boldsymbol{{x}} \\in \\mathbb{{R}}^{{2}}$ について、$\\boldsymbol{{x}} = (1,\\ 2)$ "
        "とすると $\\varphi(0)\\,\\boldsymbol{{x}} \\approx {}$ です。"
    )
    assert worked_mismatches(text.format("(0.3989,\\ 0.7979)")) == []
    assert worked_mismatches(text.format("(0.3989,\\ 0.7797)")) == ["EQ004"]


def test_a_definition_whose_body_names_what_nothing_sets_is_used_in_its_worked_form():
    # Δ*(ε, V) := z_y - z_k = log(1 + V(1 - ε)/ε): z is the minimiser's, unread; the form
    # it is worked out to decides Δ*(1, V) = 0
    text = """\
# 試しの章

<Definition id="def-gap" title="差">

$V \\ge 2$、$0 < \\varepsilon \\le 1$ に対し $\\Delta^{*}(\\varepsilon, V) := z_y - z_k = \\log\\Big(1 + \\frac{V(1 - \\varepsilon)}{\\varepsilon}\\Big)$ とする。

</Definition>

<Proposition id="prop-gap" title="端">

$\\Delta^{*}(1, V) = {}$ である。

</Proposition>
"""
    right = audit_document(parse(text.replace("{}", "0"), "c.mdx"), with_checks=False)
    assert [f.detail for f in right.findings if f.line == 11] == [
        "tried with the chapter's definitions, confirmed numerically at the values set, not proved"
    ]
    wrong = audit_document(parse(text.replace("{}", "1"), "c.mdx"), with_checks=False)
    assert [(f.line, f.code, f.detail) for f in wrong.mismatched] == [
        (
            11,
            "EQ004",
            "tried with the chapter's definitions, false left 0, right 1 (evaluated at 40 digits)",
        )
    ]
