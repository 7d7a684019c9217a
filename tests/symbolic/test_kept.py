"""symbolic.kept: the derivations kept between runs read back equal to the derived ones;
expressions are written over an allow-list of nodes and read back without evaluating, and
anything else read is refused."""

from __future__ import annotations

import json

import pytest
from sympy import (
    Dummy,
    Float,
    Function,
    IndexedBase,
    KroneckerDelta,
    Matrix,
    Rational,
    Symbol,
    exp,
    eye,
    ones,
    pi,
    sin,
    sqrt,
)
from sympy.stats import Normal

from cache import remembered as cache
from cache.codec import NotKept
from symbolic.kept import EXPRESSION, decode_expressions, expressions, matrix, polynomials_key
from symbolic.layer_norm_definition import chapter_jacobian
from symbolic.layer_norm_explicit import (
    _properties_codec,
    derive_layer_norm_jacobian,
    jacobian_properties,
)
from symbolic.layer_norm_general import _differentiate_general_entry, general_entry
from symbolic.mask import mask_limit
from symbolic.polynomials import SparsePolynomial
from symbolic.probability import _moment, standard_normal

x, y = Symbol("x", real=True), Symbol("y", positive=True)
i, j = Symbol("i", integer=True), Symbol("j", integer=True)


@pytest.fixture
def kept(tmp_path):
    """Derivations kept in a fresh folder for the test, and not afterwards."""
    folder = tmp_path / "derivations"
    folder.mkdir()
    with cache.kept_in(folder, tmp_path / "key"):
        yield folder


def entry_files(folder):
    return sorted(folder.rglob("*.json"))


def read_back(value):
    """`value` written by EXPRESSION, through JSON text, and read back."""
    return EXPRESSION.decode(json.loads(json.dumps(EXPRESSION.encode(value))))


@pytest.mark.parametrize(
    "value",
    [
        Rational(-3, 7) * x**2 * y ** Rational(-3, 2) + 2 * x - 1,
        exp(x - y) / (exp(x) + exp(y)),
        KroneckerDelta(i, j) - sqrt(y) * IndexedBase("x", real=True)[i],
        2 * (x + 1),  # a product SymPy would not make of 2*x + 2: kept as it is
        Symbol("z"),
        Rational(0),
    ],
    ids=["polynomial", "softmax", "indexed", "unevaluated", "symbol", "zero"],
)
def test_an_expression_reads_back_as_the_very_tree_written(value):
    again = read_back(value)
    assert again == value and again.args == value.args and str(again) == str(value)


def test_a_symbol_reads_back_with_its_assumptions():
    (again,) = read_back(y).free_symbols
    assert again.is_positive and again == y and again != Symbol("y")


def test_a_shared_subexpression_is_written_once():
    data = EXPRESSION.encode((x + y) ** 2 + (x + y) ** 3)
    assert data["nodes"][2:] == [["+", 0, 1], 2, ["^", 2, 3], 3, ["^", 2, 5], ["+", 4, 6]]


@pytest.mark.parametrize(
    "value",
    [Dummy("u"), Float(0.5), pi, sin(x), Function("f")(x), IndexedBase("x", offset=1)[i]],
    ids=["dummy", "float", "pi", "sin", "function", "offset"],
)
def test_a_node_outside_the_allow_list_is_not_kept(value):
    with pytest.raises(NotKept):
        EXPRESSION.encode(x + value)


@pytest.mark.parametrize(
    "nodes",
    [
        [["exec", 0]],  # a tag outside TAGS
        [1, ["+", 0, 1]],  # an argument that is not an earlier node
        [1, ["+", 0, -1]],  # nor a negative index
        [True],  # a boolean where an integer is written
        [["q", 1, 0]],  # a denominator of 0
        [["q", 1.5, 2]],
        [["s", "x", {"positive": True, "negative": True}]],  # contradicting assumptions
        [["s", "x", {"positive": "yes"}]],
        [["s", 3, {}]],
        [["s", "x", ["positive"]]],  # assumptions that are not a mapping
        [["s", "x", {"real": True}]],  # not all of the symbol's own assumptions
        [["^", 0]],  # a power of one argument
        [["s", "x", {"commutative": True}], ["[]", 0]],  # an indexed symbol without an index
        ["x + 1"],  # text is never parsed
        [{"+": [0]}],
    ],
    ids=[
        "tag",
        "forward",
        "negative",
        "bool",
        "zero-denominator",
        "float",
        "contradiction",
        "assumption-type",
        "name-type",
        "assumptions-type",
        "partial",
        "arity",
        "no-index",
        "text",
        "object",
    ],
)
def test_data_that_is_not_what_the_cache_writes_is_refused(nodes):
    with pytest.raises((ValueError, TypeError)):
        decode_expressions({"nodes": nodes, "roots": [len(nodes) - 1]})


def test_a_rational_is_read_back_in_its_lowest_terms():
    assert decode_expressions({"nodes": [["q", 6, 4], ["q", 3, 1]], "roots": [0, 1]}) == [
        Rational(3, 2),
        3,
    ]


def test_the_number_of_expressions_and_the_matrix_shape_are_checked():
    data = expressions(2).encode([x, y])
    assert expressions(2).decode(data) == [x, y]
    with pytest.raises(ValueError, match="expected 3 expressions, got 2"):
        expressions(3).decode(data)
    with pytest.raises(ValueError, match="expected {'nodes'"):
        expressions(2).decode({**data, "more": []})
    column = matrix(2, 1).encode(Matrix([x, y]))
    assert matrix(2, 1).decode(column) == Matrix([x, y])
    with pytest.raises(ValueError, match="expected 1 expressions, got 2"):
        matrix(1, 1).decode(column)
    with pytest.raises(NotKept, match=r"a \(1, 2\) matrix where \(2, 1\) was expected"):
        matrix(2, 1).encode(Matrix([[x, y]]))


def test_the_key_of_polynomials_tells_equal_from_unequal_entries():
    p, q = SparsePolynomial.variable(0), SparsePolynomial.variable(1)
    assert polynomials_key([[p + q]]) == polynomials_key([[q + p]])
    assert polynomials_key([[p, q]]) != polynomials_key([[q, p]])
    assert polynomials_key([[p], [q]]) != polynomials_key([[p, q]])


def without_y_y_t(y, sigma):
    """命題 3.3's J without its - y y^T / d term."""
    d = y.rows
    return (eye(d) - ones(d, d) / d) / sigma


@pytest.mark.parametrize("d", [3, 8])
def test_prop_layer_norm_jacobian_kept_equals_derived_for_the_chapters_and_a_wrong_formula(kept, d):
    for stated in (chapter_jacobian, without_y_y_t):
        fresh = derive_layer_norm_jacobian(d, stated)  # derived, then kept
        again = derive_layer_norm_jacobian(d, stated)  # read back
        assert again.holds == fresh.holds == (stated is chapter_jacobian)
        assert again.derived == fresh.derived and again.difference == fresh.difference
    for stated in (None, without_y_y_t):
        fresh_p, again_p = (jacobian_properties(d, stated=stated) for _ in range(2))
        assert again_p.holds == fresh_p.holds and again_p.defects == fresh_p.defects
    assert not all(jacobian_properties(d, stated=without_y_y_t).holds.values())
    kinds = [p.parent.name for p in entry_files(kept) if p.parent.name != "general_entry"]
    assert sorted(kinds) == ["derive_layer_norm_jacobian"] * 2 + ["jacobian_properties"] * 2
    cache.remember_in(None)
    assert jacobian_properties(d, stated=without_y_y_t).holds == again_p.holds


def test_the_kept_properties_are_checked_property_by_property():
    """Read back, each property's verdict is that of its defects: a kept set of defects of
    another width, or with one defect less, is refused."""
    p = jacobian_properties(3, stated=without_y_y_t)
    codec = _properties_codec(3)
    data = codec.encode((p.defects, p.holds))
    assert codec.decode(data) == (p.defects, p.holds)
    with pytest.raises(ValueError, match="expected 23 defects, got 46"):
        _properties_codec(2).decode(data)
    with pytest.raises(ValueError, match="expected 46 defects, got 45"):
        codec.decode({**data, "roots": data["roots"][:-1]})


def test_general_entry_and_the_mask_limit_kept_equal_the_derived_ones(kept):
    derived = _differentiate_general_entry()
    general_entry.cache_clear()  # the process's own cache in front of the kept one
    try:
        assert general_entry() == derived  # derived, then kept
        general_entry.cache_clear()
        assert general_entry() == derived  # read back
    finally:
        general_entry.cache_clear()
    fresh = mask_limit(3, [0, 2])
    again = mask_limit(3, [0, 2])
    assert again.limit == fresh.limit and again.holds and fresh.holds
    assert not mask_limit(3, [0, 2], lambda z, U: z).holds  # a wrong target, limit read back
    assert sorted(p.parent.name for p in entry_files(kept)) == ["general_entry", "mask_limit"]


def test_lem_product_expectation_moments_kept_equal_the_derived_ones_per_distribution(kept):
    _moment.cache_clear()  # the process's own cache in front of the kept one
    fresh = _moment(standard_normal, 2)
    _moment.cache_clear()
    again = _moment(standard_normal, 2)  # read back
    _moment.cache_clear()
    wider = _moment(lambda name: Normal(name, 0, 2), 2)  # another distribution, its own
    _moment.cache_clear()
    assert fresh == again == 1 and wider == 4
    assert {path.parent.name for path in entry_files(kept)} == {"moment"}
    assert len(entry_files(kept)) == 2
