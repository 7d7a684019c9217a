"""The TeX-parser benchmark's counting (benchmarks/latex_parsers.py) on a few formulas: which
statements are formulas, a reading's failure and time limit, the hand-labelled meanings
against our reader (plainly and under a chapter's notation), a wrong meaning counted as a
misreading, and the maintained parsers' typical misreadings where they are installed."""

from __future__ import annotations

import time

import pytest
import sympy
from places import SEEDS

from benchmarks import latex_parsers as bench
from proofs.tex.tree import Node


def sample(tex: str) -> bench.Sample:
    """The benchmark's hand-labelled sample with this TeX."""
    return next(s for s in bench.SAMPLE if s.tex == tex)


def test_definitions_and_relations_are_formulas_declarations_are_not():
    assert bench.formula(r"A := B \in \mathbb{R}^{n \times m}") == "A := B"
    assert bench.formula(r"\lim_{c \to \infty} f(c) = 0") == r"\lim_{c \to \infty} f(c) = 0"
    assert bench.formula(r"4nd^2 + 2n^2d") == r"4nd^2 + 2n^2d"
    for declaration in (
        r"\boldsymbol{z} \in \mathbb{R}^n",
        r"X \mapsto X + F(X)",
        r"l = 1, \ldots, L",
        "J_l :=",
        r"\boldsymbol{\gamma}\odot",
    ):
        assert bench.formula(declaration) is None, declaration


def test_a_reading_past_its_limit_is_stopped():
    slept_through = []

    def slow(tex: str) -> None:
        time.sleep(5)
        slept_through.append(tex)

    reading = bench.attempt(slow, "x", 0.2)
    assert reading == bench.Reading(error="timed out after 0.2 s")
    assert slept_through == []


def test_a_reading_is_a_sympy_value_or_our_tree_else_a_failure():
    assert bench.attempt(bench.parse, "x", 1).value == Node("name", ("x",))
    assert bench.attempt(bench.parse, r"x \otimes y", 1).error.startswith(
        "TexError: unexpected '\\\\otimes'"
    )
    assert (
        bench.attempt(lambda tex: object(), "x", 1).error == "returned a object, not a SymPy value"
    )


def test_a_failure_at_a_column_names_the_tex_token_there():
    def lark_like(tex):
        raise ValueError("No terminal matches '\\' at line 1 col 3")

    assert bench.attempt(lark_like, r"x \sigma_i", 1) == bench.Reading(
        error=r"ValueError at '\\sigma_i'", at=r"\sigma"
    )


def test_names_are_compared_without_fonts_braces_and_backslashes():
    assert bench.plain_name(r"d_{\mathrm{ff}}") == "d_ff"
    assert bench.plain_name("boldsymbol{z}") == bench.plain_name("bold z") == "z"
    assert bench.plain_name(r"\text{diag}") == "diag"
    assert bench.plain_name(r"\varepsilon") == "epsilon"
    diag = sympy.Function(r"\text{diag}")(sympy.Symbol(r"boldsymbol{\sigma}"))
    assert bench.canonical(diag) == sympy.Function("diag")(sympy.Symbol("sigma"))
    assert bench.canonical(sympy.Abs(sympy.Symbol("V"))) == sympy.Symbol("|V|")
    assert bench.canonical(sympy.Symbol("e") ** sympy.Symbol("x")) == sympy.exp(sympy.Symbol("x"))


def test_the_plain_meaning_of_a_polynomial_is_what_our_reader_reads():
    n, d = sympy.symbols("n d")
    polynomial = sample(r"4nd^2 + 2n^2d")
    assert polynomial.meaning(bench.PLAIN) == 4 * n * d**2 + 2 * n**2 * d
    assert bench.our_reading(polynomial) == 4 * n * d**2 + 2 * n**2 * d
    assert bench.judge(bench.OURS.reading, polynomial, True, 10) == bench.Verdict(polynomial, True)


def test_under_the_notation_our_softmax_entry_is_the_labelled_one():
    entry = sample(r"\sigma(\boldsymbol{z})_i := \frac{e^{z_i}}{\sum_{j=1}^{n} e^{z_j}}")
    z = [sympy.Symbol(f"z_{k}", real=True) for k in (1, 2, 3)]
    meaning = bench.expected(entry, ours=True)
    assert entry.indices == {"i": 2}
    assert sympy.simplify(meaning.rhs - sympy.exp(z[1]) / sum(map(sympy.exp, z))) == 0
    assert bench.judge(bench.OURS.reading, entry, True, 10).correct


def test_a_wrong_meaning_is_counted_as_a_misreading():
    n, d = sympy.symbols("n d")
    wrong = bench.Sample(
        "self-attention", "命題 7.2", r"4nd^2 + 2n^2d", lambda v: 4 * n * d**2 + 2 * n * d**2
    )
    assert bench.judge(bench.OURS.reading, wrong, True, 10) == bench.Verdict(
        wrong, False, "other", "read as 4*d**2*n + 2*d*n**2"
    )


def test_our_reader_reads_an_application_its_notation_does_not_define_as_a_product():
    verdict = bench.judge(bench.OURS.reading, sample(r"T(n) = 12nd^2 + 2n^2d"), True, 10)
    assert (verdict.correct, verdict.kind) == (False, "f(x) read as the product f·x")
    assert verdict.detail == "read as Eq(T*n, 12*d**2*n + 2*d*n**2)"


def test_measure_counts_formulas_read_and_sample_read_correctly():
    chosen = (sample(r"\sqrt{d_k}"), sample(r"E[X_1]E[Y]"))
    result = bench.measure(bench.OURS, [r"\sqrt{d_k}", r"x \otimes y", r"E[X_1]E[Y]"], chosen, 10)
    assert (result.read, result.correct) == (2, 1)
    assert bench.typical(result.verdicts) == "f(x) read as the product f·x (1)"


def test_a_parser_that_does_not_import_is_reported_and_the_rest_run(monkeypatch):
    def absent():
        raise ImportError("no module named nothing")

    monkeypatch.setattr(bench, "MAINTAINED", (("nothing", "nothing", absent),))
    assert bench.available() == ([bench.OURS], ["nothing: not installed (no module named nothing)"])


def test_the_table_has_one_row_per_parser_with_time_relative_to_ours():
    verdicts = (
        bench.Verdict(bench.SAMPLE[0], True),
        bench.Verdict(bench.SAMPLE[1], False, "fails"),
    )
    other = bench.Parser("other", str, str)
    rows = bench.table(
        [bench.Result(bench.OURS, 9, 0.5, verdicts), bench.Result(other, 3, 5.0, verdicts[1:])],
        10,
        2,
    ).splitlines()
    assert rows[2:] == [
        "| ours (proofs.tex.symbolic) | 9 / 10 (90.0 %) | 1 / 2 | 0.50 s (1.0× ours) | fails (1) |",
        "| other | 3 / 10 (30.0 %) | 0 / 2 | 5.00 s (10.0× ours) | fails (1) |",
    ]


def _maintained(prefix: str) -> bench.Parser:
    parsers, _ = bench.available()
    found = [p for p in parsers if p.name.startswith(prefix)]
    if not found:
        pytest.skip(f"{prefix} is not installed")
    return found[0]


def test_latex2sympy_reads_a_transpose_as_a_power():
    pytest.importorskip("latex2sympy2_extended")
    verdict = bench.judge(
        _maintained("latex2sympy2_extended").reading,
        sample(r"QK^{\mathsf{T}}/\sqrt{d_k}"),
        False,
        10,
    )
    assert (verdict.correct, verdict.kind) == (False, "^T read as a power")


def test_sympy_antlr_reads_a_roman_name_as_letters():
    pytest.importorskip("antlr4")
    verdict = bench.judge(
        _maintained("SymPy parse_latex, ANTLR").reading,
        sample(r"\mathrm{Cov}(q_ik_i, q_jk_j)"),
        False,
        10,
    )
    assert (verdict.correct, verdict.kind) == (
        False,
        r"a command read as letters (\mathrm{Var}: mathrm·V·a·r)",
    )


def test_sympy_lark_reads_a_square_root_and_fails_on_a_bold_name():
    pytest.importorskip("lark")
    lark = _maintained("SymPy parse_latex, lark")
    assert bench.judge(lark.reading, sample(r"\sqrt{d_k}"), False, 10).correct
    bold = sample(r"J(\boldsymbol{z})\boldsymbol{1} = \boldsymbol{0}")
    assert bench.judge(lark.reading, bold, False, 10).kind == r"fails at \boldsymbol"


@pytest.mark.slow
def test_every_sample_formula_is_a_formula_of_its_chapter_as_printed():
    if not SEEDS.is_dir():
        pytest.skip(f"the chapters are not at {SEEDS}")
    bench.load_all()
    formulas = {
        key: bench.chapter_formulas(SEEDS / chapter.file) for key, chapter in bench.CHAPTERS.items()
    }
    assert {key: len(found) for key, found in formulas.items()} == {
        "self-attention": 494,
        "transformer-block": 437,
    }
    assert len(bench.SAMPLE) >= 30
    for s in bench.SAMPLE:
        assert any(s.tex in f for f in formulas[s.chapter]), s.tex
