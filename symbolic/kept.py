"""What symbolic/ keeps in the persistent cache (`cache`): SymPy expressions and matrices
written as JSON over an allow-list of node types and read back without evaluating
anything, and the text of a matrix of polynomials that keys a derivation by its inputs.

Expressions are written as a list of distinct nodes, each after its arguments, and the
indices of the expressions' own nodes among them: a node is a JSON integer (an Integer),
["q", p, q] (a Rational), ["s", name, assumptions] (a Symbol), or a tag of TAGS followed
by the indices of its arguments, all earlier in the list. A subexpression met twice is
written once and built once. Those are the nodes of the kept derivations (the LayerNorm
Jacobian's defects, its entry for symbolic d, the mask's limits, the moments): any other
node (a Dummy, a Float, a function outside TAGS) is NotKept, and the value is derived each
time. A node is rebuilt unevaluated from its arguments in their written order, which gives
back the very tree that was written: nothing is simplified, computed or parsed on the way,
and reading is a loop over the list, never a recursion as deep as the file is nested.

>>> from sympy import Symbol, exp
>>> x = Symbol("x")
>>> EXPRESSION.encode(exp(-x) / 2)
{'nodes': [['q', 1, 2], -1, ['s', 'x', {'commutative': True}], ['*', 1, 2], ['exp', 3], \
['*', 0, 4]], 'roots': [5]}
>>> EXPRESSION.decode(EXPRESSION.encode(exp(-x) / 2)) == exp(-x) / 2
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sympy import (
    Add,
    Basic,
    Expr,
    Indexed,
    IndexedBase,
    Integer,
    KroneckerDelta,
    Matrix,
    MatrixBase,
    Mul,
    Pow,
    Rational,
    Symbol,
    exp,
)

from cache.codec import Codec, NotKept
from symbolic.polynomials import SparsePolynomial

TAGS: dict[str, Callable[..., Basic]] = {
    "+": lambda *args: Add(*args, evaluate=False),
    "*": lambda *args: Mul(*args, evaluate=False),
    "^": lambda base, power: Pow(base, power, evaluate=False),
    "exp": lambda argument: exp(argument, evaluate=False),
    "delta": lambda i, j: KroneckerDelta(i, j, evaluate=False),
    "[]": lambda base, index, *more: Indexed(base, index, *more),
    "base": lambda label: IndexedBase(label),
}
_TAG_OF: dict[type, str] = {
    Add: "+",
    Mul: "*",
    Pow: "^",
    exp: "exp",
    KroneckerDelta: "delta",
    Indexed: "[]",
    IndexedBase: "base",
}


def encode_expressions(expressions: Iterable[Basic]) -> dict[str, list]:
    """The nodes of `expressions` and the indices of their roots; NotKept for a node
    outside the allow-list."""
    nodes: list = []
    index: dict[Basic, int] = {}

    def visit(e: Basic) -> int:
        if e not in index:
            if isinstance(e, Integer):
                node: Any = int(e)
            elif isinstance(e, Rational):
                node = ["q", int(e.p), int(e.q)]
            elif type(e) is Symbol:
                node = ["s", e.name, e.assumptions0]
            else:
                node = [_tag(e), *map(visit, e.args)]
            index[e] = len(nodes)
            nodes.append(node)
        return index[e]

    roots = [visit(e) for e in expressions]
    return {"nodes": nodes, "roots": roots}


def _tag(e: Basic) -> str:
    """The tag of a node of TAGS; NotKept for any other (an IndexedBase with an offset or
    strides among them: its arguments do not hold them)."""
    tag = _TAG_OF.get(type(e))
    if tag is None:
        raise NotKept(f"a {type(e).__name__} is not among the nodes the cache writes")
    if isinstance(e, IndexedBase) and (e.offset != 0 or e.strides is not None):
        raise NotKept("an IndexedBase with an offset or strides")
    return tag


def decode_expressions(data: Any) -> list[Basic]:
    """The expressions of `encode_expressions`' data; ValueError or TypeError for anything
    else (an unknown tag, an index that is not of an earlier node, a symbol's name or
    assumptions of the wrong type or contradicting each other)."""
    if type(data) is not dict or sorted(data) != ["nodes", "roots"]:
        raise ValueError("expected {'nodes': [...], 'roots': [...]}")
    built: list[Basic] = []
    for node in _list(data["nodes"]):
        built.append(_node(node, built))
    return [built[_index(root, len(built))] for root in _list(data["roots"])]


def _node(node: Any, built: list[Basic]) -> Basic:
    """The expression of one node, its arguments among the nodes `built` before it."""
    if type(node) is int:
        return Integer(node)
    tag, *args = _list(node) or [None]
    if tag == "q" and len(args) == 2 and all(type(a) is int for a in args) and args[1] > 0:
        return Rational(*args)
    if tag == "s" and len(args) == 2:
        return _symbol(*args)
    if type(tag) is not str or tag not in TAGS:
        raise ValueError("not a node the cache writes")
    return TAGS[tag](*(built[_index(a, len(built))] for a in args))


def _index(data: Any, count: int) -> int:
    if type(data) is not int or not 0 <= data < count:
        raise ValueError(f"expected the index of one of the {count} nodes before, got {data!r}")
    return data


def _list(data: Any) -> list:
    if type(data) is not list:
        raise TypeError(f"expected a list, got {type(data).__name__}")
    return data


def _symbol(name: Any, assumptions: Any) -> Symbol:
    """The symbol `name` with `assumptions`, which must be all of its own (a TypeError from
    Symbol for a name that is not text or assumptions that are not a mapping of names)."""
    symbol = Symbol(name, **assumptions)
    if symbol.assumptions0 != assumptions:
        raise ValueError(f"the assumptions of {name!r} are not a symbol's own")
    return symbol


def expressions(count: int) -> Codec[list[Basic]]:
    """Lists of exactly `count` expressions."""

    def decode(data: Any) -> list[Basic]:
        decoded = decode_expressions(data)
        if len(decoded) != count:
            raise ValueError(f"expected {count} expressions, got {len(decoded)}")
        return decoded

    return Codec(encode_expressions, decode)


def _one(data: Any) -> Expr:
    (expression,) = expressions(1).decode(data)
    return expression


EXPRESSION: Codec[Expr] = Codec(lambda e: encode_expressions([e]), _one)
"""One expression."""


def matrix(rows: int, columns: int) -> Codec[MatrixBase]:
    """Matrices of exactly `rows` x `columns` expressions, read back as a Matrix."""
    entries = expressions(rows * columns)

    def encode(m: MatrixBase) -> dict[str, list]:
        if m.shape != (rows, columns):
            raise NotKept(f"a {m.shape} matrix where {(rows, columns)} was expected")
        return entries.encode(list(m))

    return Codec(encode, lambda data: Matrix(rows, columns, entries.decode(data)))


def polynomials_key(rows: Iterable[Sequence[SparsePolynomial]]) -> str:
    """A text of a matrix of SparsePolynomials that two matrices share exactly when they
    are equal (terms sorted, so the order they were built in does not matter).

    >>> p = SparsePolynomial.variable(0)
    >>> polynomials_key([[p + 1]]) == polynomials_key([[1 + p]])
    True
    >>> polynomials_key([[p]]) == polynomials_key([[p * 2]])
    False
    """
    return "\n".join("|".join(repr(sorted(entry.terms.items())) for entry in row) for row in rows)
