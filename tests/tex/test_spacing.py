"""Spacing in a formula changes how it looks, not what it says (proofs.tex.tokens): a
product is the product of its factors as written, each power on the atom just before it,
whatever spacing stands between the factors (`K\\,(x/6)^{-g}` is K times (x/6)^{-g}); and
digits grouped by three with thin spaces are one number (`38\\,597\\,376`)."""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from proofs.book.stated import integer, printed
from proofs.tex.arithmetic import evaluate
from proofs.tex.symbolic import Evaluator
from proofs.tex.tokens import tokens
from proofs.tex.tree import Node, TexError, parse, parse_expression

SPACINGS = (r"\,", r"\;", r"\:", r"\ ", "~", r"\quad", r"\qquad", r"\!")
LETTERS = "abcgKxy"  # no e (e^x) and no d (the sizes' d is a name like any other, kept apart)
NAMES = {letter: sympy.Symbol(letter, positive=True) for letter in LETTERS}
NAMES |= {"alpha": sympy.Symbol("alpha", positive=True), "bold x": sympy.Symbol("X")}

# an atom: its TeX and its value
ATOMS = st.one_of(
    st.sampled_from([(letter, NAMES[letter]) for letter in LETTERS]),
    st.just((r"\alpha", NAMES["alpha"])),
    st.just((r"\boldsymbol{x}", NAMES["bold x"])),
    st.sampled_from(LETTERS).map(lambda v: (f"({v}/6)", NAMES[v] / 6)),
    st.sampled_from(LETTERS).map(lambda v: (f"(1 + {v})", 1 + NAMES[v])),
    st.sampled_from(LETTERS).map(lambda v: (rf"\frac{{{v}}}{{3}}", NAMES[v] / 3)),
    st.sampled_from(LETTERS).map(lambda v: (rf"\sqrt{{{v}}}", sympy.sqrt(NAMES[v]))),
)
EXPONENTS = st.one_of(
    st.just(("", 1)),
    st.integers(2, 4).map(lambda k: (f"^{k}", k)),
    st.integers(-3, 3).map(lambda k: (f"^{{{k}}}", k)),
    st.sampled_from("gy").map(lambda v: (f"^{{-{v}}}", -NAMES[v])),
)


@st.composite
def products(draw: st.DrawFn) -> tuple[str, str, sympy.Expr]:
    """(the product spaced at random, the same without spacing, its value): a number may
    lead, then 1 to 5 atoms, each raised to a power or not."""
    lead = draw(st.one_of(st.just(""), st.integers(2, 99).map(str)))
    factors = draw(st.lists(st.tuples(ATOMS, EXPONENTS), min_size=1, max_size=5))
    texts = [lead] if lead else []
    value = sympy.Integer(int(lead)) if lead else sympy.Integer(1)
    for (atom, atom_value), (power, exponent) in factors:
        texts.append(atom + power)
        value *= atom_value**exponent
    spaced = texts[0]
    for text in texts[1:]:
        spacing = draw(st.sampled_from(SPACINGS))
        after = " " if spacing[-1].isalpha() else draw(st.sampled_from(["", " "]))  # \quad x
        spaced += draw(st.sampled_from(["", " "])) + spacing + after + text
    return spaced, " ".join(texts), value


@given(products())
def test_a_product_spaced_at_random_reads_as_the_product_of_its_factors(case):
    spaced, plain, value = case
    reading = Evaluator(NAMES)
    assert sympy.simplify(reading(parse(spaced)) - value) == 0, spaced
    assert sympy.simplify(reading(parse(plain)) - value) == 0, plain
    assert as_arithmetic(spaced) == as_arithmetic(plain)


def as_arithmetic(tex: str) -> Node | str:
    """The tree of tex read as printed arithmetic, or "refused" (a Greek letter continues
    no product there: 2\\sigma may be an application)."""
    try:
        return parse_expression(tokens(tex), notation=False)
    except TexError:
        return "refused"


@pytest.mark.parametrize("spacing", SPACINGS)
def test_a_name_spaced_from_a_group_is_a_factor_and_the_power_is_the_group_s(spacing):
    """`K\\,(x/6)^{-g}` is K (x/6)^{-g}, not (K x/6)^{-g}; without spacing, K being no
    function of the notation, the same."""
    k, x, g = NAMES["K"], NAMES["x"], NAMES["g"]
    for tex in (rf"K{spacing}(x/6)^{{-g}}", "K(x/6)^{-g}"):
        assert sympy.simplify(Evaluator(NAMES)(parse(tex)) - k * (x / 6) ** -g) == 0, tex


def test_a_function_of_the_notation_applied_then_raised_is_the_application_raised():
    f = sympy.Function("f")
    x = NAMES["x"]
    assert Evaluator({"f": f, "x": x})(parse("f(x)^2")) == f(x) ** 2


def thin_spaced(value: int) -> str:
    digits = str(value)
    head = len(digits) % 3 or 3
    groups = [digits[:head]] + [digits[k : k + 3] for k in range(head, len(digits), 3)]
    return r"\,".join(groups)


@given(st.integers(0, 10**40))
def test_an_integer_grouped_by_thin_spaces_reads_as_that_integer(value):
    tex = thin_spaced(value)
    assert parse(tex) == parse(str(value))
    assert evaluate(tex, {}, False).items == evaluate(str(value), {}, False).items
    assert integer(f"n = {tex}") == value
    assert printed(f"n = {tex}").value == float(value)


@pytest.mark.parametrize(
    "tex, value",
    [
        (r"38\,597\,376", 38_597_376),
        (r"1\,050\,624 + 1", 1_050_625),
        (r"12\,34", 12 * 34),  # not groups of three: two numbers side by side
        (r"0.4011\,(1 + 1)", sympy.Rational(8022, 10_000)),  # a decimal, then a factor
    ],
)
def test_thin_spaces_join_only_groups_of_three_digits(tex, value):
    assert Evaluator({})(parse(tex)) == value
