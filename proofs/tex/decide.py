"""Deciding a formula of a chapter: each relation of a chain judged by SymPy, with the
chapter's definitions substituted (its notation's environment) at explicit sizes.

The environment gives the names symbolic meanings (z is a column of symbols,
sigma the package's softmax of it, J its Jacobian, LN the package's LayerNorm);
every index left free (i, j) runs over its range. Each relation's sides are
evaluated symbolically, then compared at several points (`points`), each giving
the free symbols other exact rational values (positive where the symbol is): an
equality holds when the difference is zero at every point (exactly, or within
10^-40 at 50 digits where it holds transcendental numbers such as e^{1/3}), an
inequality when both sides compare as stated at every point. A definition `a := b` is judged
like `a = b` when `a` is an application (σ(z)_i, the package's definition), and
binds `a` for the formulas that follow when `a` is a name (S := …).

This decides at explicit sizes and sampled points: it tells whether a formula
of the chapter says what the package computes. The proofs for every size are
the checks'.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy

from proofs.tex.symbolic import Evaluator
from proofs.tex.tree import Node, TexError, parse

DIGITS = 50
TOLERANCE = sympy.Rational(1, 10**40)
POINTS = 3


@dataclass(frozen=True)
class Decision:
    status: str  # "confirmed" | "mismatched" | "not checkable"
    detail: str
    binds: tuple[str, sympy.Basic] | None = None  # a definition's name and meaning


Environment = Callable[[], Evaluator]


def free_indices(node: Node, evaluator: Evaluator) -> list[str]:
    """Index names the tree uses that the evaluator leaves unbound but can range."""
    found: list[str] = []

    def visit(x: object) -> None:
        if isinstance(x, Node):
            if x.op == "sub" and x.args[0].op == "name":  # k_i: k names a vector, i an index
                visit(x.args[1])
                return
            if x.op == "text":
                for ch in x.args[0]:
                    if (
                        ch in evaluator.index_ranges
                        and ch not in evaluator.names
                        and ch not in found
                    ):
                        found.append(ch)
            elif (
                x.op == "name"
                and x.args[0] in evaluator.index_ranges
                and x.args[0] not in evaluator.names
                and x.args[0] not in found
            ):
                found.append(x.args[0])
            for a in x.args:
                visit(a)
        elif isinstance(x, tuple):
            for a in x:
                visit(a)

    visit(node)
    return found


def _difference(a: Any, b: Any) -> sympy.Basic:
    if isinstance(a, sympy.MatrixBase) != isinstance(b, sympy.MatrixBase):
        if isinstance(a, sympy.MatrixBase) and a.shape == (1, 1):
            return a[0] - b
        if isinstance(b, sympy.MatrixBase) and b.shape == (1, 1):
            return a - b[0]
        raise TexError("a vector or matrix compared with a scalar")
    if isinstance(a, sympy.MatrixBase):
        if a.shape != b.shape:
            raise TexError(f"shapes {a.shape} and {b.shape} differ")
    return a - b


def draw_point(symbols: set[sympy.Symbol], rng: np.random.Generator) -> dict:
    """Exact rational values in [-2, 2] (in (0, 2] for a positive symbol), k/8."""
    point = {}
    for s in sorted(symbols, key=str):
        k = int(rng.integers(1, 17)) if s.is_positive else int(rng.integers(-16, 17))
        point[s] = sympy.Rational(k, 8)
    return point


def _at(value: object, point: dict) -> object:
    if isinstance(value, sympy.MatrixBase):
        return value.xreplace(point)
    return sympy.sympify(value).xreplace(point)


def _is_zero(x: object) -> bool:
    entries = list(x) if isinstance(x, sympy.MatrixBase) else [x]
    for e in entries:
        e = sympy.sympify(e)
        if e == 0:
            continue
        value = sympy.N(e, DIGITS)
        if not value.is_number or abs(value) > TOLERANCE:
            return False
    return True


def _compare(op: str, a: object, b: object) -> bool:
    if op in ("=", ":=", "≈"):
        return _is_zero(_difference(a, b))
    if op == "!=":
        return not _is_zero(_difference(a, b))
    x, y = (sympy.N(v, DIGITS) for v in (a, b))
    if not (x.is_real and y.is_real):
        raise TexError(f"{op} between values that are not real numbers")
    return bool({"<=": x <= y, ">=": x >= y, "<": x < y, ">": x > y}[op])


Condition = tuple[str, str, str] | Node  # (index, "in" | "notin", set name), or i \\ne j


def _meets(condition: Condition, values: dict[str, int], evaluator: Evaluator) -> bool:
    if isinstance(condition, Node):  # a relation between indices
        ops, parts = condition.args
        bound = evaluator.bound(**{i: sympy.Integer(v) for i, v in values.items()})
        members = [bound(p) for p in parts]
        return all(
            _compare(op, a, b) for op, a, b in zip(ops, members[:-1], members[1:], strict=True)
        )
    index, relation, name = condition
    if index not in values:
        raise TexError(f"the condition's index {index} is not free in the formula")
    inside = values[index] in evaluator.names[name]
    return inside if relation == "in" else not inside


def _symbols(values: list[object]) -> set[sympy.Symbol]:
    out: set[sympy.Symbol] = set()
    for v in values:
        if isinstance(v, sympy.Basic | sympy.MatrixBase):
            out |= {s for s in v.free_symbols if isinstance(s, sympy.Symbol)}
    return out


def _show(value: object) -> str:
    if isinstance(value, sympy.MatrixBase):
        return str([sympy.N(v, 6) for v in value])
    try:
        return str(sympy.N(value, 6))
    except (TypeError, ValueError):
        return str(value)


_DECISIONS: dict[tuple, Decision] = {}


def decide_once(
    key: tuple, tex: str, environment: Environment, given: Node | None = None
) -> Decision:
    """decide, remembered under `key` (what the environment is: the chapter, the element,
    the names its earlier definitions bound): an audit of many copies of a chapter
    decides each formula once."""
    full = (*key, tex, repr(given))
    if full not in _DECISIONS:
        _DECISIONS[full] = decide(tex, environment, given=given)
    return _DECISIONS[full]


def decide(
    tex: str,
    environment: Environment,
    seed: int = 0,
    points: int = POINTS,
    given: Node | None = None,
) -> Decision:
    """Judge a statement (a relation chain) of the chapter in the environment; `given` is
    a hypothesis on its indices (i \\ne j) that its sentence states."""
    try:
        tree = parse(tex)
    except TexError as why:
        return Decision("not checkable", f"not read: {why}")
    condition: Condition | None = given
    if tree.op == "where":
        tree, condition = tree.args
    if tree.op != "chain":
        return Decision("not checkable", "no relation to judge")
    ops, parts = tree.args
    evaluator = environment()
    defined = _defined_name(parts[0], evaluator)
    if ops[0] == ":=" and defined is not None:  # `S := …`, `c_i := …` name a value
        name, index = defined
        try:
            if index is None:
                value = evaluator(parts[1])
            else:  # c_i := x_i - mu(x): the vector of its entries
                value = sympy.Matrix(
                    [
                        evaluator.bound(**{index: sympy.Integer(k)})(parts[1])
                        for k in evaluator.index_ranges[index](evaluator)
                    ]
                )
        except (TexError, TypeError, ValueError, ZeroDivisionError) as why:
            return Decision("not checkable", f"defines {name}, not evaluated: {why}")
        if len(ops) > 1:
            rest = judge_chain(ops[1:], parts[1:], evaluator, seed, points, condition)
            if rest.status != "confirmed":
                return rest
        return Decision("confirmed", f"defines {name}", binds=(name, value))
    return judge_chain(ops, parts, evaluator, seed, points, condition)


def _defined_name(node: Node, evaluator: Evaluator) -> tuple[str, str | None] | None:
    """(name, index) when a definition's left side is a name (S) or a name with a free
    index (c_i); None for an application (σ(z)_i), which the definition is judged as."""
    if node.op == "name":
        return node.args[0], None
    if node.op == "sub" and node.args[0].op == "name" and node.args[1].op == "text":
        index = node.args[1].args[0]
        if index in evaluator.index_ranges and node.args[0].args[0] not in evaluator.names:
            return node.args[0].args[0], index
    return None


def equal_members(
    a: Node, b: Node, environment: Environment, seed: int = 0, points: int = POINTS
) -> Decision:
    """Whether two formulas (trees) have the same value in the environment."""
    verdict = judge_chain(("=",), (a, b), environment(), seed, points)
    if verdict.status == "mismatched":
        return Decision("mismatched", verdict.detail.replace("relation 1 (=) fails", "differ"))
    return verdict


def judge_chain(
    ops: tuple[str, ...],
    parts: tuple[Node, ...],
    evaluator: Evaluator,
    seed: int = 0,
    points: int = POINTS,
    condition: Condition | None = None,
) -> Decision:
    """Each relation of a chain at every free index value (those meeting the condition
    `(index, "in" | "notin", set name)`) and drawn point."""
    rng = np.random.default_rng(seed)
    tree = Node("chain", (ops, parts + ((condition,) if isinstance(condition, Node) else ())))
    try:
        free = free_indices(tree, evaluator)
        ranges = [list(evaluator.index_ranges[i](evaluator)) for i in free]
        for values in itertools.product(*ranges):
            if condition is not None and not _meets(
                condition, dict(zip(free, values, strict=True)), evaluator
            ):
                continue
            bound = evaluator.bound(
                **{i: sympy.Integer(v) for i, v in zip(free, values, strict=True)}
            )
            members = [bound(p) for p in parts]
            symbols = _symbols(members)
            for _ in range(points if symbols else 1):
                point = draw_point(symbols, rng)
                at = [_at(m, point) for m in members]
                for k, (op, a, b) in enumerate(zip(ops, at[:-1], at[1:], strict=True)):
                    if not _compare(op, a, b):
                        where = ", ".join(f"{i} = {v}" for i, v in zip(free, values, strict=True))
                        return Decision(
                            "mismatched",
                            f"relation {k + 1} ({op}) fails{' at ' + where if where else ''}: "
                            f"left {_show(a)}, right {_show(b)} (the chapter's definitions at "
                            "explicit sizes)",
                        )
    except TexError as why:
        return Decision("not checkable", f"not evaluated: {why}")
    except (TypeError, ValueError, ZeroDivisionError, AttributeError, IndexError) as why:
        return Decision("not checkable", f"not evaluated: {type(why).__name__}: {why}")
    return Decision("confirmed", f"holds at {points} drawn points (SymPy, explicit sizes)")
