"""The names every notation knows (proofs.tex.functions), and the names it suggests for
one it does not."""

import pytest
import sympy

from proofs.book.stated import formula_of, number
from proofs.tex.functions import KNOWN
from proofs.tex.symbolic import Evaluator
from proofs.tex.tree import TexError, parse


@pytest.mark.parametrize(
    ("tex", "value"),
    [
        (r"\log e", 1),
        (r"\ln(e^{3})", 3),
        (r"\exp(0)", 1),
        (r"\sqrt{16}", 4),
        (r"\mathrm{sin}(0)", 0),
        (r"\mathrm{cos}(\pi)", -1),
        (r"\mathrm{tanh}(0)", 0),
        (r"\tanh(0)", 0),
        (r"\mathrm{erf}(0)", 0),
    ],
)
def test_a_known_name_means_its_function(tex, value):
    assert Evaluator({})(parse(tex)) == value


def test_a_notation_name_comes_before_a_known_one():
    assert Evaluator({"log": lambda x: 2 * x})(parse(r"\log 3")) == 6


def test_a_reader_of_claims_knows_the_logarithm():
    x = sympy.Symbol("x", positive=True)
    assert formula_of("x")(r"y = \log(1 + x)")(x) == sympy.log(1 + x)
    assert number(r"a = \log e") == 1


def test_an_unknown_name_is_refused_with_the_nearest_known_ones():
    with pytest.raises(TexError, match=r"'lgo' has no meaning in this notation; nearest: log$"):
        Evaluator({})(parse(r"\mathrm{lgo}(2)"))
    with pytest.raises(TexError, match=r"nearest: sigma"):
        Evaluator({"sigma": 1})(parse(r"\mathrm{sigm}"))
    with pytest.raises(TexError, match=r"'q' has no meaning in this notation$"):
        Evaluator({})(parse("q"))


def test_every_known_name_says_what_it_means():
    assert all(entry.meaning for entry in KNOWN.values())
