"""The one TeX parser (proofs.tex.tree) on small formulas, each with the exact tree it reads:
the constructs printed arithmetic writes (printed numbers, `\\%`, `\\sqrt[n]`, `{a, b}`, `*`),
the printed form each number keeps, the reading of printed arithmetic (`notation=False`)
and where a reading that stops says it stopped."""

from __future__ import annotations

import pytest
import sympy

from proofs.reader.math import split_relations
from proofs.tex.tokens import tokens
from proofs.tex.tree import EXPONENT, MAX_DEPTH, Node, TexError, parse, parse_expression


def num(value: str | int) -> Node:
    return Node("num", (sympy.Rational(value),))


def name(text: str) -> Node:
    return Node("name", (text,))


def arithmetic(tex: str) -> Node:
    """The tree of tex read as printed arithmetic."""
    return parse_expression(tokens(tex), notation=False)


# the constructs of printed arithmetic -----------------------------------------------------


@pytest.mark.parametrize(
    "tex, tree",
    [
        (r"31\%", Node("percent", (num(31),))),
        (r"23.5\%", Node("percent", (num("23.5"),))),
        (r"2^3\%", Node("percent", (Node("pow", (num(2), num(3))),))),
        (r"\sqrt[3]{8}", Node("root", (num(3), num(8)))),
        (r"\sqrt{2}", Node("sqrt", (num(2),))),
        ("{1, 2}", Node("tuple", (num(1), num(2)))),
        ("[1, 2]", Node("tuple", (num(1), num(2)))),
        ("(0.5, 1)", Node("tuple", (num("0.5"), num(1)))),
        ("2 * 3", Node("mul", (num(2), num(3)))),
        (r"2 \cdot 3", Node("mul", (num(2), num(3)))),
        (r"1{,}024", num(1024)),
        (
            r"2.5 \times 10^{-6}",
            Node("mul", (num("2.5"), Node("pow", (num(10), Node("add", ((-1, num(6)),)))))),
        ),
        (r"\tfrac12", Node("div", (num(1), num(2)))),
        (r"\dfrac{1}{2}", Node("div", (num(1), num(2)))),
        (r"e^{-1}", Node("pow", (name("e"), Node("add", ((-1, num(1)),))))),
        (r"\log 2", Node("call", (name("log"), (num(2),)))),
        (r"\exp{2}", Node("call", (name("exp"), (num(2),)))),
        (
            r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}",
            Node("matrix", ((num(1), num(2)), (num(3), num(4)))),
        ),
    ],
)
def test_each_construct_of_printed_arithmetic_reads_into_its_tree(tex, tree):
    assert parse(tex) == tree
    assert arithmetic(tex) == tree


def test_a_number_keeps_its_printed_form_and_a_one_digit_argument_has_none():
    thousands, decimal = arithmetic(r"1{,}024 \times 0.50").args
    assert (thousands.token, decimal.token) == ("1{,}024", "0.50")
    assert decimal == num("0.5")  # the printed form does not make another tree
    one, four = arithmetic(r"\frac14").args
    assert (one.token, four.token) == ("", "")
    assert arithmetic("x^2").args[1].token == ""
    assert arithmetic("x^{2}").args[1].token == "2"  # a braced exponent is printed


def test_a_node_keeps_the_command_it_was_read_from():
    assert parse(r"\sigma").token == r"\sigma"
    assert parse(r"\boldsymbol{z}").token == r"\boldsymbol"
    assert parse(r"\mathrm{D}") == name("D") and parse(r"\mathrm{D}").token == r"\mathrm"
    assert parse(r"\underbrace{1 + 1}_{2}").token == r"\underbrace"
    assert parse(r"\infty").token == r"\infty"


# printed arithmetic has no notation ---------------------------------------------------------


@pytest.mark.parametrize(
    "tex, notation, printed",
    [
        ("W^T", Node("T", (name("W"),)), Node("pow", (name("W"), name("T")))),
        (
            r"\sigma^2(x)",
            Node("call", (name("sigma^2"), (name("x"),))),
            Node("mul", (Node("pow", (name("sigma"), num(2))), name("x"))),
        ),
        ("d(1)", Node("call", (name("d"), (num(1),))), Node("mul", (name("d"), num(1)))),
        ("x_{12}", Node("sub", (name("x"), Node("text", ("12",)))), None),
    ],
)
def test_printed_arithmetic_reads_a_power_and_a_product_where_notation_reads_more(
    tex, notation, printed
):
    assert parse(tex) == notation
    assert arithmetic(tex) == (printed or notation)


def test_in_printed_arithmetic_a_subscript_completes_a_letters_name():
    assert arithmetic(r"\frac d_k 2") == Node(
        "div", (Node("sub", (name("d"), Node("text", ("k",)))), num(2))
    )
    with pytest.raises(TexError, match="unexpected '_'"):
        arithmetic("(P)_i")


@pytest.mark.parametrize(
    "tex, kind, token",
    [
        (r"2\sigma", "trailing", r"\sigma"),  # a product of numbers ends at \sigma
        (r"(2\sigma)", "expected", r"\sigma"),
        ("x'", "trailing", "'"),
        (r"a \odot b", "trailing", r"\odot"),
        (r"\frac{\partial f}{\partial x}", "token", r"\partial"),
    ],
)
def test_notation_ends_printed_arithmetic_where_it_begins(tex, kind, token):
    parse(tex)  # notation
    with pytest.raises(TexError) as stopped:
        arithmetic(tex)
    assert (stopped.value.kind, stopped.value.token) == (kind, token)


def test_a_plus_minus_is_two_formulas_in_notation_and_ends_printed_arithmetic():
    with pytest.raises(TexError, match="two formulas"):
        parse(r"1 \pm 2")
    with pytest.raises(TexError) as stopped:
        arithmetic(r"(1 \pm 2)")
    assert (stopped.value.kind, stopped.value.token, stopped.value.expected) == (
        "expected",
        r"\pm",
        ")",
    )


# where a reading stops ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tex, kind, token, expected",
    [
        ("1 +", "end", None, None),
        ("(1", "expected", None, ")"),
        ("1 )", "trailing", ")", None),
        (r"\hat{x}", "token", r"\hat", None),
        (r"\mathbb{R}", "token", r"\mathbb", None),
        ("(" * (MAX_DEPTH + 1) + "1", "nested", None, None),
    ],
)
def test_a_stop_says_where_and_why(tex, kind, token, expected):
    with pytest.raises(TexError) as stopped:
        parse_expression(tokens(tex))
    assert (stopped.value.kind, stopped.value.token, stopped.value.expected) == (
        kind,
        token,
        expected,
    )


def test_a_stop_carries_what_was_read_before_it_left_to_right():
    with pytest.raises(TexError) as stopped:
        parse_expression(tokens(r"f : \mathbb{R}"))
    assert stopped.value.before == (name("f"), ":")
    with pytest.raises(TexError) as stopped:
        parse_expression(tokens(r"x_1 + \{1, \ldots\}"))
    sub = Node("sub", (name("x"), Node("text", ("1",))))
    assert stopped.value.before == (sub, r"\{", num(1), r"\ldots")
    with pytest.raises(TexError) as stopped:
        parse_expression(tokens(r"e^{\hat{x}}"))
    assert stopped.value.before == (name("e"), EXPONENT, r"\hat")


def test_every_nesting_counts_toward_the_depth_fractions_and_exponents_included():
    for tex in (r"\frac" * 200 + "1 " * 201, "x^{" * 200 + "1" + "}" * 200):
        with pytest.raises(TexError, match="too deeply nested"):
            parse(tex)
    assert parse("x^{" * 50 + "1" + "}" * 50).op == "pow"


def test_ceiling_floor_and_trigonometric_functions_are_read():
    assert str(parse(r"\lceil k/2 \rceil")) == "ceil(div(name('k',), num(2,)),)"
    assert str(parse(r"\sin^2 x")) == "pow(call(name('sin',), (name('x',),)), num(2,))"
    # without brackets, the argument is the product of the factors after the function
    assert str(parse(r"\cos\omega_k\Delta + 1")) == (
        "add((1, call(name('cos',), (mul(sub(name('omega',), text('k',)), name('Delta',)),))),"
        " (1, num(1,)))"
    )
    assert str(parse(r"\sin x \cos y")) == (
        "mul(call(name('sin',), (name('x',),)), call(name('cos',), (name('y',),)))"
    )


def test_a_power_after_a_bracketed_argument_applies_to_the_call():
    # \exp(x)^{1/N} is (e^x)^{1/N} and \log(x)^2 is (log x)^2, as \sin(x)^2 is;
    # without brackets \log x^2 is log(x^2)
    assert str(parse(r"\exp(x)^{2}")) == "pow(call(name('exp',), (name('x',),)), num(2,))"
    assert str(parse(r"\log\big(x\big)^2")) == "pow(call(name('log',), (name('x',),)), num(2,))"
    assert str(parse(r"\log x^2")) == "call(name('log',), (pow(name('x',), num(2,)),))"
    assert str(parse(r"\exp{x}^2")) == "pow(call(name('exp',), (name('x',),)), num(2,))"


def test_a_primed_function_applied_is_a_call_of_its_derivative():
    # f'(N): the derivative of f at N, not the product of f' and N
    assert parse("f'(N)") == Node("call", (Node("prime", (name("f"),)), (name("N"),)))


@pytest.mark.parametrize(
    "tex",
    [r"\frac{d\beta}{dT}", r"\frac{dL_{\mathrm{opt}}}{dC}", r"\frac{d}{dx}", r"d\beta/dT", "dH/dx"]
    + [r"d/ds\,(s^2)", r"\frac{\mathrm{d}}{\mathrm{d}s} s^3", r"\mathrm{d}/\mathrm{d}s\, s^3"]
    + [r"\frac{\mathrm{d} s^3}{\mathrm{d}s}", r"\frac{\operatorname{d}\beta}{\operatorname{d}T}"],
)
def test_a_derivative_in_leibnizs_notation_is_not_read_as_a_quotient(tex):
    with pytest.raises(TexError, match="a derivative"):
        parse(tex)


@pytest.mark.parametrize(
    "tex",
    [r"\frac{d+1}{d}", r"\frac{d_k}{d_v}", r"\frac{d}{2}", r"\frac{dx}{y}", "d_k/d_v", "2d/d"]
    + ["d/d_k", "d/2d", r"d/d^2"],
)
def test_a_quotient_of_ds_stays_a_quotient(tex):
    assert parse(tex).op == "div"


def test_d_times_a_power_over_itself_is_a_quotient():
    assert parse(r"\frac{d\sigma^2}{d\sigma^2}").op == "div"


def test_a_starred_name_is_a_name_of_its_own():
    # x* the root, Δ* the best gap: marked names, as W' is, not powers
    assert parse(r"x^{*} + 1") == Node("add", ((1, Node("name", ("x*",))), (1, Node("num", (1,)))))
    assert parse(r"\Delta^*(1, V)") == Node(
        "call", (Node("name", ("Delta*",)), (Node("num", (1,)), Node("name", ("V",))))
    )
    assert parse(r"\alpha^{\ast}_{\mathrm{G}}") == Node(
        "sub", (Node("name", ("alpha*",)), Node("text", ("G",)))
    )
    with pytest.raises(TexError):  # no name before it: nothing the mark belongs to
        parse(r"2^{*}")


@pytest.mark.parametrize(
    ("written", "as_read"),
    [
        (r"\lVert \mathbf{x} \rVert^2", r"\|\boldsymbol{x}\|^2"),
        (r"\left\lVert x \right\rVert", r"\|x\|"),
        (r"\Vert x \Vert", r"\|x\|"),
        (r"\lvert x \rvert + \vert y \vert", "|x| + |y|"),
        (r"\bm{q}^{\top}\bm{k}", r"\boldsymbol{q}^{\mathsf{T}}\boldsymbol{k}"),
        (r"x^\intercal y", r"x^{\mathsf{T}} y"),
        (r"x^{\mathrm{T}} y", r"x^{\mathsf{T}} y"),
        (r"0 \leqslant x \geqslant -1", r"0 \le x \ge -1"),
    ],
)
def test_another_authors_commands_for_the_same_thing_read_as_that_thing(written, as_read):
    assert parse(written) == parse(as_read)
    assert split_relations(written)[1] == split_relations(as_read)[1]


def test_a_command_that_only_begins_like_a_synonym_is_not_one():
    for tex in (r"\topology", r"\Vertex", r"\bmod"):
        with pytest.raises(TexError):
            parse(tex)


def test_a_logarithm_with_a_base_is_the_natural_logarithm_over_that_of_its_base():
    # \log_2 y is ln y / ln 2 (the base a subscript, a digit or a braced group), so that
    # 「$\log_2 y = \ln y / \ln 2$」 is read, and a slip of it judged
    log = name("log")
    assert parse(r"\log_2 y") == Node(
        "div", (Node("call", (log, (name("y"),))), Node("call", (log, (num(2),))))
    )
    assert parse(r"\log_{10} x") == Node(
        "div", (Node("call", (log, (name("x"),))), Node("call", (log, (num(10),))))
    )
    assert str(parse(r"\log x")) == "call(name('log',), (name('x',),))"
