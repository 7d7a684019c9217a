# ruff: noqa: E501 - the chapters are lines of TeX and Japanese, kept whole so that they read as written
"""Properties in words of the formula before them (proofs.audit.rules.properties), on small
chapters written for the tests: the property as written is confirmed, a slipped word is a
warning with two values that show it, and words about something else are left alone."""

from __future__ import annotations

from proofs.audit import audit_document
from proofs.reader import parse

HEAD = '# 試しの章\n\n<Definition id="def-x" title="x">\n\n$0 < \\lambda < 1$ とする。\n\n</Definition>\n\n'


def judged(sentence: str) -> list[tuple[str, str, str]]:
    """(status, code, detail) of each finding of the properties' rules on the sentence."""
    report = audit_document(parse(HEAD + sentence + "\n", "p.mdx"), with_checks=False)
    return [(str(f.status), f.code, f.detail) for f in report.findings if f.code.startswith("PRP")]


def statuses(sentence: str) -> list[str]:
    return [status for status, _, _ in judged(sentence)]


def test_a_direction_of_monotonicity_is_judged_in_the_stated_range():
    line = "係数の和は $\\sum_{{j=1}}^{{t}}\\lambda^{{t-j}} = (1 - \\lambda^t)/(1 - \\lambda)$ で、$t$ について{}し、"
    assert statuses(line.format("増加")) == ["confirmed"]
    ((status, code, detail),) = judged(line.format("減少"))
    assert (status, code) == ("mismatched", "PRP001")
    # the witness: λ in (0, 1) as stated, t and its step whole numbers (t counts terms)
    point = dict(p.split(" = ") for p in detail.split("false at ")[1].split(":")[0].split(", "))
    assert 0 < float(point["lambda"]) < 1
    assert float(point["t"]).is_integer() and float(point["h"]).is_integer()


def test_a_strict_direction_and_a_function_written_with_an_arrow():
    assert statuses("比 $(4d + 3)/(7d + 3)$ は $d$ について狭義減少です。") == ["confirmed"]
    assert statuses("比 $(4d + 3)/(7d + 3)$ は $d$ について狭義増加です。") == ["mismatched"]
    assert statuses("$t \\mapsto t/(1 + t)$ が増加関数です。") == ["confirmed"]
    assert statuses("$t \\mapsto t/(1 + t)$ が減少関数です。") == ["mismatched"]


def test_independence_and_proportionality():
    assert statuses("和 $\\sin^2 t + \\cos^2 t + m$ は $t$ によりません。") == ["confirmed"]
    assert statuses("和 $t + m$ は $t$ によりません。") == ["mismatched"]
    assert statuses("更新は $\\eta G/r$ で、$\\eta$ に比例します。") == ["confirmed"]
    assert statuses("更新は $\\eta G/r$ で、$r$ に比例します。") == ["mismatched"]


def test_words_about_a_name_the_formula_does_not_have_are_left_alone():
    # the formula of ρ comes after the words: 「比 ρ」 has no r
    assert statuses("比 $\\rho$ は $r$ に比例し、$\\rho = 2r/768$ です。") == []
    assert statuses("記憶する数は $md_v + m$ 個で、位置 $t$ によりません。") == []


def test_words_of_a_bound_the_text_does_not_write_are_left_alone():
    # 「$L$ によらない定数で抑えられ」 speaks of a constant, not of the formula before it
    assert statuses("分散を $1/L$ 倍すれば、$L$ によらない定数で抑えられます。") == []
    assert statuses("分散を $1/L$ 倍すれば、$L$ によらない。") == ["mismatched"]


def test_proportional_to_a_formula_of_one_name():
    assert statuses("最初の更新は $\\eta G/r$ で、$1/r$ に比例して小さくなります。") == [
        "confirmed"
    ]
    ((status, code, detail),) = judged(
        "最初の更新は $\\eta G/r$ で、$1/r^2$ に比例して小さくなります。"
    )
    assert (status, code) == ("mismatched", "PRP002")
    assert "false at" in detail
    # the words' own name is where they are, not what they are said of
    assert statuses("$r$ を大きくすると、更新は $1/r$ に比例して小さくなります。") == []


SIZES = '<Definition id="def-s" title="大きさ">\n\n$\\boldsymbol{v} \\in \\mathbb{R}^{m}$、$\\boldsymbol{w} \\in \\mathbb{R}^{d}$ とする。\n\n</Definition>\n\n'


def test_proportional_to_a_name_a_formula_of_sizes_does_not_have():
    ((status, _, detail),) = judged(SIZES + "状態の数 $md + m$ は $t$ に比例します。")
    assert status == "mismatched"
    assert "does not involve t" in detail
    assert statuses(SIZES + "状態の数 $md + m$ は $t$ によりません。") == []
    # a name only declared might stand for anything: left alone
    assert statuses(SIZES + "状態の数 $md + \\lambda$ は $t$ に比例します。") == []
    # a number, or words about another subject after the formula: left alone
    assert (
        statuses(SIZES + "列が $6d$ より短いあいだは、計算の大半は $t$ に比例する部分です。") == []
    )
    assert statuses(SIZES + "ブロックの部分は $d$ の 2 乗と $t$ に比例します。") == []
    assert statuses(SIZES + "$m = 64$ は $t$ に比例します。") == []


def test_proportional_said_of_the_formula_after_its_unit_and_what_the_name_is():
    assert statuses(SIZES + "記憶する数は $md + m$ 個で、位置 $t$ に比例します。") == ["mismatched"]
    assert statuses(SIZES + "記憶する数は $md + m$ 個で、位置 $t$ によりません。") == []
    # a second subject after the formula is another formula's
    assert statuses(SIZES + "記憶する数は $md + m$ 個で、その時間は $t$ に比例します。") == []


def test_the_sizes_of_a_space_the_text_writes_of_what_it_does_not_name():
    sentence = "記憶する数は $m + m^2$ 個で、位置 $t$ に比例します。"
    maps = '<Definition id="def-f" title="写像">\n\n写像 $\\phi : \\mathbb{R}^{d} \\to (0, \\infty)^{m}$ を考える。\n\n</Definition>\n\n'
    assert statuses(maps + sentence) == ["mismatched"]
    applied = '<Definition id="def-f" title="写像">\n\n$\\phi(Q) \\in \\mathbb{R}^{n \\times m}$ と書く。\n\n</Definition>\n\n'
    assert statuses(applied + sentence) == ["mismatched"]
    # m only named, no space measured by it: left alone
    assert statuses(sentence) == []


def test_a_name_with_a_roman_subscript_is_read():
    line = "倍率 $n_{{\\mathrm{{in}}}}\\sigma^2$ は $n_{{\\mathrm{{in}}}}$ {}。"
    assert statuses(line.format("に比例します")) == ["confirmed"]
    assert statuses(line.format("によりません")) == ["mismatched"]


def test_words_of_a_part_of_the_formula_are_left_alone():
    line = "分母で割ると $I = (P + 2n)/(P/B + 2n)$ で、{}は $B$ について狭義減少です。"
    assert statuses(line.format("分母")) == []
    assert statuses(line.format("これ")) == ["mismatched"]


def test_inverse_proportionality_is_to_one_over_the_name():
    assert statuses("スループットは $Pu/(6N)$ で、$N$ に反比例する。") == ["confirmed"]
    assert statuses("スループットは $PuN/6$ で、$N$ に反比例する。") == ["mismatched"]
    assert statuses("スループットは $Pu/(6N)$ で、$N$ に比例する。") == ["mismatched"]


def test_a_subject_pointing_back_takes_the_formula_of_the_sentence_before():
    line = (
        "送る個数は $V(p, N) := 2(p-1)N/p$ である。これは $p$ について単調{}で、$2N$ 未満である。"
    )
    assert statuses(line.format("増加")) == ["confirmed"]
    assert statuses(line.format("減少")) == ["mismatched"]
    ratio = "バブルは $(p-1)/(m+p-1)$ です。この割合は $m$ について単調{}です。"
    assert statuses(ratio.format("増加")) == ["mismatched"]
    # no subject pointing back: the words are of something the sentence does not write
    assert statuses("バブルは $(p-1)/(m+p-1)$ です。記憶は $m$ について単調増加です。") == []


def test_non_increasing_and_non_decreasing_are_directions_not_strict():
    line = "得点は $-(1 + n)/2$ で、$n$ について{}です。"
    assert statuses(line.format("非増加")) == ["confirmed"]
    assert statuses(line.format("非減少")) == ["mismatched"]
    assert statuses("和は $n^2$ で、$n$ について非減少です。") == ["confirmed"]
    assert statuses("和は $n^2$ で、$n$ について非増加です。") == ["mismatched"]


def test_a_parity_is_judged_of_a_known_function_or_a_formula_of_one_name():
    assert statuses("$\\cos$ は周期 $2\\pi$ の偶関数です。") == ["confirmed"]
    assert statuses("$\\cos$ は周期 $2\\pi$ の奇関数です。") == ["mismatched"]
    assert statuses("$\\tanh$ も奇関数です。") == ["confirmed"]
    assert statuses("$x^3 + \\sin x$ は奇関数です。") == ["confirmed"]
    assert statuses("$x^3 + \\cos x$ は奇関数です。") == ["mismatched"]
    # a name alone: its formula is elsewhere; a formula of two names: of which, unsaid
    assert statuses("$f$ も偶関数です。") == []
    assert statuses("$\\cos(\\omega k)$ は偶関数です。") == []


def test_a_direction_on_an_interval_is_judged_at_two_points_of_it():
    assert statuses("$\\cos$ は $[0, \\pi]$ で狭義単調減少です。") == ["confirmed"]
    assert statuses("$\\cos$ は $[0, \\pi]$ で狭義単調増加です。") == ["mismatched"]
    assert statuses("$\\cos$ は $[\\pi, 2\\pi]$ で単調増加です。") == ["confirmed"]
    assert statuses("$f(x) = x^{-1/2}$ は $x > 0$ で単調減少です。") == ["confirmed"]
    assert statuses("$f(x) = x^{-1/2}$ は $x > 0$ で単調増加です。") == ["mismatched"]
    assert statuses("$x \\mapsto x/(n + x)$ は $x \\ge 0$ で単調増加です。") == ["confirmed"]
    assert statuses("$x \\mapsto x/(n + x)$ は $x \\ge 0$ で単調減少です。") == ["mismatched"]
    # of a name alone, or on an interval whose ends are names, nothing is judged
    assert statuses("$H(\\beta)$ は $[0, \\infty)$ で狭義単調減少です。") == []
    assert statuses("$\\cos$ は $[0, a]$ で狭義単調減少です。") == []
