"""Claims: every check's transcriptions equal what the reader finds in the pristine
chapters; locating and reading claims on small documents, clause by clause."""

from __future__ import annotations

import pytest
import sympy
from places import SEEDS

from proofs.book.claims import Claim, locate, normalise_tex
from proofs.book.printed import Printed
from proofs.book.registry import CHAPTERS, load_all
from proofs.book.stated import (
    crossover,
    entry_formula,
    formula_in_phrase,
    integer,
    member,
    order,
    percentage,
    plus_minus,
    polynomial,
    printed,
    printed_texts,
    product_terms,
    prose_integer,
    prose_integers,
    regime,
    table_rows,
)
from proofs.reader import parse, read_chapter
from proofs.testing import claims_differences, element_ids
from proofs.tex.tree import TexError
from symbolic import symbols


def pristine(chapter: str):
    path = SEEDS / CHAPTERS[chapter].file
    if not path.is_file():
        pytest.skip(f"{path} is not here")
    return read_chapter(path)


@pytest.mark.parametrize("chapter", ["self-attention", "transformer-block"])
def test_every_claim_is_the_pristine_chapters_text(chapter):
    """Every claim found as transcribed, and each argument a claim feeds, read from the
    pristine chapter, what the check receives without it (proofs.testing, which a
    chapter's package of checks written elsewhere runs too)."""
    document = pristine(chapter)
    ids = element_ids(chapter)
    assert [d for i in ids for d in claims_differences(i, document)] == []
    assert sum(len(load_all()[i].claims) for i in ids) >= 100


def test_a_claim_changed_in_the_chapter_is_a_difference():
    document = pristine("transformer-block")
    changed = parse("\n".join(document.lines).replace("4d^2 + 4d", "4d^2 + 5d"), document.path)
    differences = [
        d for i in element_ids("transformer-block") for d in claims_differences(i, changed)
    ]
    assert differences and all("changed" in d or "missing" in d for d in differences)


def test_the_statement_formulas_are_bound_to_the_checks():
    """At least 90 % of the relations stated in the elements' statements are claims."""
    from proofs.audit.rules.statements import kind_of
    from proofs.reader.math import statement_lines

    bound = total = 0
    for chapter in ("self-attention", "transformer-block"):
        document = pristine(chapter)
        registry = load_all()
        for record in document.elements:
            element = next(
                e
                for e in registry.values()
                if e.chapter == chapter and (e.id == record.id or e.number == record.number)
            )
            texts = {normalise_tex(c.text) for c in element.claims}
            for m in document.math_in(*record.statement):
                for _, statement in statement_lines(m.line, m.tex):
                    if kind_of(statement) == "relation":
                        total += 1
                        bound += normalise_tex(statement) in texts
    assert total > 150
    assert bound / total >= 0.9, (bound, total)


DOC = parse(
    '# T\n\n## 1. S\n\n<Proposition id="prop-x" title="t">\n\n'
    "$a = b + 1$ で、$\\mu = 3$、$\\mu = 14$ であり、これは正定値である。\n\n"
    "</Proposition>\n"
)
RECORD = DOC.elements[0]


def test_locate_finds_changes_misses():
    assert locate(Claim("a = b + 1"), DOC, RECORD).status == "found"
    changed = locate(Claim("a = b + 2"), DOC, RECORD)
    assert (changed.status, changed.text) == ("changed", "a = b + 1")
    second = locate(Claim(r"\mu = 15", lhs=r"\mu", occurrence=2), DOC, RECORD)
    assert (second.status, second.text) == ("changed", r"\mu = 14")
    assert locate(Claim(r"\mu = 14", lhs=r"\mu", occurrence=2), DOC, RECORD).status == "found"
    assert locate(Claim("正定値である", phrase=True), DOC, RECORD).status == "found"
    missing = locate(Claim("半正定値である", phrase=True), DOC, RECORD)
    assert (missing.status, missing.line) == ("missing", 7)
    assert (
        locate(Claim(r"\frac{\partial \sigma}{\partial z} = q^{7}"), DOC, RECORD).status
        == "missing"
    )


REWORDED = parse(
    '# T\n\n## 1. S\n\n<Proposition id="prop-y" title="t">\n\n'
    "ある命題。\n\n</Proposition>\n\n"
    "したがって領域は高々 7 個で、8 通りのうち現れたのは 7 通りでした。\n\n"
    "比は長くなるにつれて 4 倍に近づいていきます。\n"
)


@pytest.mark.parametrize(
    ("phrase", "status"),
    [
        ("領域は多くても 7 個", "found"),  # other words, the same number
        ("8 通りのうち現れるのは 7 通り", "found"),
        ("長くなるにつれて 4 倍に近づきます", "found"),
        ("領域は多くても 6 個", "missing"),  # a number changed is never a rewording
        ("8 通りのうち現れるのは 6 通り", "missing"),
        ("比は長くなっても 4 倍に近づきません", "missing"),  # a negation the text does not have
        ("まったく別の 7 個の話", "missing"),  # too few of the words
    ],
)
def test_a_phrase_the_check_reads_is_found_reworded_with_the_same_numbers(phrase, status):
    claim = Claim(phrase, phrase=True, where="text", argument="x", read=prose_integer)
    assert locate(claim, REWORDED, REWORDED.elements[0]).status == status


def test_a_phrase_the_check_does_not_read_must_stand_as_written():
    claim = Claim("領域は多くても 7 個", phrase=True, where="text")
    assert locate(claim, REWORDED, REWORDED.elements[0]).status == "missing"


def test_a_claim_is_well_formed():
    with pytest.raises(ValueError, match="where"):
        Claim("x = 1", where="nowhere")
    with pytest.raises(ValueError, match="argument and read"):
        Claim("x = 1", argument="x")
    with pytest.raises(ValueError, match="left side"):
        locate(Claim("x = 1", lhs="y"), DOC, RECORD)


def test_normalise_tex_ignores_spacing_and_sizing_only():
    assert normalise_tex(r"\sigma_i (\delta_{ij}-\sigma_j).") == normalise_tex(
        r"\sigma_i\big(\delta_{ij} - \sigma_j\big)"
    )
    assert normalise_tex(r"\dfrac12") == normalise_tex(r"\frac12")
    assert normalise_tex("a + b") != normalise_tex("a - b")


def test_readers():
    d, n = symbols.d, symbols.n
    assert polynomial(r"4nd^2 + 2n^2 d") == 4 * n * d**2 + 2 * n**2 * d
    assert polynomial(r"|V|\,d") == symbols.V * d
    assert crossover("n = 2d = 128") == 2 * d
    assert order(r"O(nd^2 + n^2 d)") == n * d**2 + n**2 * d
    assert order(r"O(n^2 \cdot d)") == n**2 * d
    assert regime(r"n \ge d") == (n, d)
    assert regime(r"h \le d") == (d, symbols.h)
    assert formula_in_phrase(2)("$n$ が $d$ より小さいあいだ") == d
    assert prose_integers("固有値は 0 と 2 です") == (0, 2)
    assert integer(r"4 \times 512^2 = 1{,}050{,}624") == 1050624
    assert printed(r"\sigma = 1.8708") == Printed(1.8708, 4)
    assert member(2, printed)(r"\sigma^2 = \frac14(36) = 31.5 = 9 \times 3.5") == Printed(31.5, 1)
    assert percentage(r"a/b \approx 23.5\%") == Printed(0.235, 3)
    assert printed_texts(r"x = 4.54\times10^{-5}") == ("4.54e-5",)
    assert prose_integer("例 5.3 の結果は 124,439,808 です") == 124439808
    assert prose_integer("117M と記載") == 117_000_000
    assert product_terms("I + J_1 + J_2J_1") == ((), (1,), (2, 1))
    assert plus_minus(r"t = \pm\sqrt2") == {-sympy.sqrt(2), sympy.sqrt(2)}
    assert plus_minus(r"t = \pm \frac12") == {-sympy.Rational(1, 2), sympy.Rational(1, 2)}
    entry = entry_formula("bold sigma", "i", "j")(r"\sigma_i(\delta_{ij} - \sigma_j)")
    s = sympy.IndexedBase("s")
    i, j = sympy.symbols("i j")
    assert entry(s, i, j) == s[i] * (sympy.KroneckerDelta(i, j) - s[j])


@pytest.mark.parametrize(
    "reader, text",
    [
        (polynomial, r"\mathbb{R}^n"),
        (integer, "1.5"),
        (printed, "x = y"),
        (product_terms, "I + K_1"),
        (prose_integer, "なし"),
        (crossover, "n"),
        (order, "nd^2 + n^2 d"),
        (regime, "n = d"),
        (regime, r"n \ge 2d"),
        (formula_in_phrase(2), "$n$ だけ"),
        (prose_integers, "なし"),
        (plus_minus, r"t = \sqrt2"),
        (plus_minus, r"t = \pm n"),
    ],
)
def test_a_reader_refuses_what_it_cannot_read(reader, text):
    with pytest.raises(TexError):
        reader(text)


TABLE_DOC = parse(
    '# T\n\n## 1. S\n\n<Example id="ex-x" title="t">\n\n'
    "| $n$ | 合計 |\n|---|---|\n| 64 | 1,572,864 |\n| 128 | 4,194,304 |\n\n"
    "</Example>\n"
)


def test_locate_finds_a_table_by_its_header_and_reports_changed_cells():
    record = TABLE_DOC.elements[0]
    claim = Claim(
        "$n$ | 合計\n64 | 1,572,864\n128 | 4,194,304", table=True, argument="rows", read=table_rows
    )
    assert locate(claim, TABLE_DOC, record).status == "found"
    assert claim.value() == (("64", "1,572,864"), ("128", "4,194,304"))
    changed = locate(Claim("$n$ | 合計\n64 | 1,572,865", table=True), TABLE_DOC, record)
    assert changed.status == "changed"
    assert changed.text.splitlines()[1] == "64 | 1,572,864"
    assert locate(Claim("$d$ | 合計\n64 | 1", table=True), TABLE_DOC, record).status == "missing"


def test_table_rows_needs_a_header_and_a_row():
    with pytest.raises(TexError, match="header"):
        table_rows("$n$ | 合計")


def test_the_architecture_table_reader_refuses_unknown_cells():
    from proofs.chapters.transformer_block.activations import ARCHITECTURE_TABLE, architectures

    assert [a.parts for a in architectures(ARCHITECTURE_TABLE)] == [2, 3, 2]
    with pytest.raises(TexError, match="あり"):
        architectures(ARCHITECTURE_TABLE.replace("MLP | あり", "MLP | たぶん"))
    with pytest.raises(TexError, match="mask"):
        architectures(ARCHITECTURE_TABLE.replace("| 因果マスク |", "| 双方向 |", 1))
    with pytest.raises(TexError, match="rows"):
        architectures(ARCHITECTURE_TABLE.replace("交差注意 |", "交差 |"))
