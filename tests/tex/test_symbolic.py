"""Formulas read into trees (proofs.tex.tree), evaluated in a notation (proofs.tex.symbolic)
and decided (proofs.tex.decide): each reading, each refusal and each verdict."""

from __future__ import annotations

from functools import partial

import pytest
import sympy

from proofs.audit.deciding.notation import OpenEvaluator
from proofs.book.registry import CHAPTERS, load_all
from proofs.tex.decide import decide, equal_members
from proofs.tex.symbolic import Evaluator
from proofs.tex.tree import MAX_DEPTH, MAX_DIGITS, MAX_TOKENS, Node, TexError, parse

A = sympy.Matrix([[1, 2], [3, 4]])
B = sympy.Matrix([[0, 1], [1, 0]])
N = sympy.Symbol("n", positive=True)
NOTATION = Evaluator(
    {
        "A": A,
        "B": B,
        "n": N,
        "d": sympy.Integer(3),
        "bold x": sympy.Matrix([1, 2]),
        "f": lambda x: x**2,
    },
    index_ranges={"i": lambda e: range(1, 3)},
)


def value(tex: str):
    return NOTATION(parse(tex))


# the tree ------------------------------------------------------------------------------


def test_a_chain_keeps_its_relations_in_order():
    tree = parse(r"a = b \le c")
    assert tree.op == "chain" and tree.args[0] == ("=", "<=")


def test_a_trailing_membership_restricts_the_index_and_a_range_is_dropped():
    where = parse(r"x_i = 0 \quad (i \notin U)")
    assert where.op == "where" and where.args[1] == ("i", "notin", "U")
    assert parse(r"x_i = 0 \quad (i = 1, \ldots, n)") == parse("x_i = 0")
    with pytest.raises(TexError, match="not a membership or a range"):
        parse(r"x_i = 0 \quad (i > 2)")


def test_a_definitions_type_and_a_sentences_full_stop_are_dropped():
    assert parse(r"S := A + B \in \mathbb{R}^{n \times n}") == parse("S := A + B")
    assert parse("a = b。") == parse("a = b")


@pytest.mark.parametrize(
    "tex, message",
    [
        (r"a \oplus b", "oplus"),
        ("(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), "too deeply nested"),
        ("1" + "+1" * MAX_TOKENS, "too large"),
        ("9" * (MAX_DIGITS + 1), "digits"),
        ("a = ", "ends early"),
    ],
)
def test_what_the_grammar_does_not_hold_is_refused_by_name(tex, message):
    with pytest.raises(TexError, match=message):
        parse(tex)


# the notation --------------------------------------------------------------------------


def test_products_keep_their_written_order():
    assert value("AB") == A * B and value("BA") == B * A and A * B != B * A


def test_sizes_functions_transposes_and_entries_mean_what_the_notation_says():
    assert value("4nd^2 + 2n^2d") == 36 * N + 6 * N**2
    assert value("f(d)") == 9
    assert value(r"A^{\mathsf{T}}") == A.T
    assert value(r"\boldsymbol{x}^{\mathsf{T}}\boldsymbol{x}") == sympy.Matrix([5])
    assert value(r"\sum_{i=1}^{2} i") == 3


@pytest.mark.parametrize(
    "tex, message",
    [
        ("q", "no meaning"),
        (r"n^{\mathsf{T}}", "transpose of a scalar"),
        (r"\frac{1}{d - 3}", "division by zero"),
        ("0^{-1}", "negative power of zero"),
        ("10^{10^{10}}", "too large"),
        ("e^{e^{10}}", "too large"),
    ],
)
def test_what_the_notation_cannot_evaluate_is_refused_by_name(tex, message):
    with pytest.raises(TexError, match=message):
        value(tex)


def test_a_power_too_long_to_work_exactly_is_worked_at_sixty_digits():
    # clipping.txt's 1 - 0.999^{10000}: exactly, 30,000 digits above and below the bar
    worked = value(r"0.999^{10000}")
    assert isinstance(worked, sympy.Float) and worked._prec >= 190  # 60 digits, in bits
    exact = sympy.Rational(999, 1000) ** 10000
    assert abs(worked - exact) < sympy.Rational(1, 10**50) * exact
    # a short one stays exact
    assert value(r"0.999^{100}") == sympy.Rational(999, 1000) ** 100


# deciding ------------------------------------------------------------------------------


def test_a_true_relation_is_confirmed_and_a_false_one_names_the_failing_relation():
    env = lambda: NOTATION  # noqa: E731 - the notation, as decide takes it
    assert decide(r"(AB)^{\mathsf{T}} = B^{\mathsf{T}}A^{\mathsf{T}}", env).status == "confirmed"
    wrong = decide(r"(AB)^{\mathsf{T}} = A^{\mathsf{T}}B^{\mathsf{T}}", env)
    assert wrong.status == "mismatched" and wrong.detail.startswith("relation 1 (=) fails")
    second = decide(r"d = 3 < 2", env)
    assert second.status == "mismatched" and second.detail.startswith("relation 2 (<) fails")


def test_an_inequality_holds_at_every_drawn_point_or_fails():
    env = lambda: NOTATION  # noqa: E731
    assert decide(r"n^2 + 1 > 0", env).status == "confirmed"
    assert decide(r"n > 2", env).status == "mismatched"  # n is drawn in (0, 2]


def test_a_definition_of_a_name_binds_it_and_of_an_application_is_judged():
    env = lambda: NOTATION  # noqa: E731
    binds = decide("S := A + B", env)
    assert binds.status == "confirmed" and binds.binds == ("S", A + B)
    assert decide("f(d) := 9", env).status == "confirmed"
    assert decide("f(d) := 8", env).status == "mismatched"


def test_what_is_not_read_or_not_a_relation_is_not_checkable():
    env = lambda: NOTATION  # noqa: E731
    assert decide(r"a \oplus b", env).status == "not checkable"
    assert decide("A + B", env).detail == "no relation to judge"
    assert decide("q = 1", env).detail.startswith("not evaluated")


def test_equal_members_says_when_two_formulas_differ():
    env = lambda: NOTATION  # noqa: E731
    same = equal_members(parse("AB + B"), parse("B + AB"), env)
    assert same.status == "confirmed"
    differ = equal_members(parse("AB"), parse("BA"), env)
    assert differ.status == "mismatched" and differ.detail.startswith("differ")


def test_the_softmax_jacobian_is_decided_in_the_chapters_notation():
    load_all()
    environment = partial(CHAPTERS["self-attention"].environment, "命題 3.2")
    entry = r"\frac{\partial \sigma_i}{\partial z_j} = \sigma_i(\delta_{ij} - \sigma_j)"
    assert decide(entry, environment).status == "confirmed"
    assert decide(entry.replace("- \\sigma_j", "+ \\sigma_j"), environment).status == "mismatched"


def test_a_condition_on_the_index_restricts_where_the_relation_is_judged():
    env = lambda: NOTATION  # noqa: E731
    assert (
        decide(r"\boldsymbol{x}_i = 1 \quad (i \in U)", lambda: NOTATION.bound(U={1})).status
        == "confirmed"
    )
    assert decide(r"\boldsymbol{x}_i = 1", env).status == "mismatched"
    assert isinstance(parse(r"\boldsymbol{x}_i = 1 \quad (i \in U)").args[0], Node)


# integrals ------------------------------------------------------------------------------


def test_an_integral_reads_its_limits_its_integrand_and_its_variable():
    tree = parse(r"\int_{-\infty}^{x}\varphi(t)\,dt")
    assert tree == Node("int", ("t", parse(r"-\infty"), parse("x"), parse(r"\varphi(t)")))
    assert parse(r"\int_0^{1} 2u\,du").args[3] == parse("2u")


def test_an_upright_differential_is_the_d_of_an_integral():
    assert parse(r"\int_0^{1} 2u\,\mathrm{d}u") == parse(r"\int_0^{1} 2u\,du")
    assert parse(r"\int_0^{1} 2u\,\operatorname{d}\!u") == parse(r"\int_0^{1} 2u\,du")


def test_an_integral_is_its_antiderivative_between_its_limits():
    phi = lambda t: sympy.exp(-(t**2) / 2) / sympy.sqrt(2 * sympy.pi)  # noqa: E731
    notation = Evaluator({"varphi": phi})
    at = notation(parse(r"\int_{-\infty}^{0}\varphi(t)\,dt"))
    assert sympy.simplify(at) == sympy.Rational(1, 2)
    assert Evaluator({})(parse(r"\int_0^{2} 3u^2\,du")) == 8
    assert Evaluator({})(parse(r"\int_0^{2} u/2\,du")) == 1


def test_an_integral_without_an_antiderivative_in_closed_form_is_not_evaluated():
    with pytest.raises(TexError, match="no antiderivative"):
        Evaluator({})(parse(r"\int_0^{1} e^{-t^2}\cos(t)/(1 + t^2)\,dt"))
    with pytest.raises(TexError, match="without its d"):
        parse(r"\int_0^{1} t^2")


def test_an_integral_whose_antiderivative_has_no_limit_sympy_takes_is_not_evaluated():
    # Piecewise on λ < 1/2 at ±∞: SymPy's limit raises NotImplementedError
    gaussian = r"\int_{-\infty}^{\infty}\frac{e^{-(1 - 2\lambda)z^2/2}}{\sqrt{2\pi}}\,dz"
    lam = sympy.Symbol("lambda", positive=True)
    with pytest.raises(TexError, match="no limit of its antiderivative"):
        Evaluator({"lambda": lam})(parse(gaussian))


def test_an_inner_product_of_what_is_not_a_vector_is_no_value():
    # ⟨G, Δ⟩ of two names a table header does not give as vectors: a TypeError the
    # readers turn into "not read", never an AttributeError out of the audit
    with pytest.raises(TypeError, match="inner product"):
        OpenEvaluator()(parse(r"\langle G, \Delta \rangle"))
