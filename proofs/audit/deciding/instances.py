"""A statement of a chapter tried at points: its names given the meanings the chapter's
own declarations and definitions give them (proofs.audit.deciding.defined), each size set to
SIZE, each free index run over its range, and the symbols left (the entries of a
declared vector, a declared number) drawn by proofs.tex.witness in the ranges the
chapter states.

A statement is tried only when the chapter gives every name in it a meaning and it uses
at least one thing the chapter defines or a declared vector or matrix (a relation
between plain numbers is the open notation's, proofs.audit.deciding.notation). Its verdict is the
witness module's: false with a witness (the sizes, the indices and the values at which
its sides differ), confirmed numerically at so many points, or not decided with the
reason.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

import sympy

from proofs.audit.deciding.defined import Definition, Notation, closure
from proofs.audit.deciding.notation import summation_limits
from proofs.audit.deciding.printed_result import judge_printed, printed_entries
from proofs.reader.math import split_relations
from proofs.tex.symbolic import Evaluator
from proofs.tex.tree import BINDING, Node, TexError, parse, tree_names
from proofs.tex.witness import Judgement, judge

SIZE = 3  # every size of the chapter, when a statement is tried
MAX_INDEX_VALUES = 27  # index assignments tried at most (three free indices over 1..3)
RELATIONS = ("=", "<=", ">=", "<", ">", "!=")


@dataclass(frozen=True)
class Tried:
    """A statement's verdict at points, and where its sizes and indices stood."""

    judgement: Judgement
    sizes: tuple[tuple[str, int], ...]  # the sizes, and the free indices of the witness
    uses: tuple[Definition, ...] = ()  # the chapter's definitions its names reached

    def detail(self) -> str:
        sizes = ", ".join(f"{name} = {value}" for name, value in self.sizes)
        said = self.judgement.detail()
        where = f"with {sizes}, " if sizes else ""
        return f"tried with the chapter's definitions, {where}{said}"


def try_statement(
    statement: str,
    notation: Notation,
    seed: int = 0,
    concrete: bool = False,
    cased: frozenset[str] = frozenset(),
) -> Tried | str:
    """The statement's verdict at points, or why it is not tried: the chapter does not
    give each of its names a meaning, it uses nothing the chapter defines, a side cannot
    be evaluated. `concrete`: a statement of an example or an exercise, about the values
    the text set (`z = (1, 2, 0.5)`, `T = 0.5`), tried there only, and only when those
    values leave nothing free. `cased`: the names a case of its sentence ranges
    (「$x > 0$ のとき $x\\,s(x) < x$」), which it concludes of, not where they lie.

    Where a definition's body names what nothing gives a meaning (Δ*(ε, V) := z_y - z_k
    = log(1 + V(1 - ε)/ε)), the statement is tried again with the last form each
    definition is worked out to."""
    tried = _try_statement(statement, notation, seed, concrete, cased)
    if isinstance(tried, str) and tried.startswith(NO_MEANING):
        worked = notation.copy()
        for name, definition in notation.definitions.items():
            if definition.worked:
                worked.definitions[name] = replace(definition, body=definition.worked[-1])
        if worked.definitions != notation.definitions:
            return _try_statement(statement, worked, seed, concrete, cased)
    return tried


NO_MEANING = "the chapter gives"


def _try_statement(
    statement: str,
    notation: Notation,
    seed: int = 0,
    concrete: bool = False,
    cased: frozenset[str] = frozenset(),
) -> Tried | str:
    try:
        tree = parse(statement)
    except TexError as why:
        return f"not read: {why}"
    if tree.op != "chain":
        return "no relation"
    ops, parts = tree.args
    relative = printed_rounding(statement)
    if concrete and "≈" in ops:  # 「$10^{a} \\approx 2.829$」: equal at the printed rounding
        relative = _result_rounding(split_relations(statement)[0][ops.index("≈") + 1])
        if relative is None:
            return "≈ before what is no printed number"
        ops = tuple("=" if op == "≈" else op for op in ops)
        tree = Node("chain", (ops, parts))
    if any(op not in RELATIONS for op in ops):
        return "a relation other than =, <, ≤, >, ≥, ≠"
    sizes = notation.set_sizes() if concrete else {name: SIZE for name in notation.sizes}
    # 「$\\sum_{h=1}^{H} m_h$」: a count the chapter declares nowhere else is a size too
    counted = set() if concrete else set(summation_limits([statement])[1]) - set(sizes)
    counted = {name for name in counted if not notation.knows(name)}
    sizes |= dict.fromkeys(counted, SIZE)
    try:
        evaluator = notation.at(sizes, concrete)
    except (TexError, TypeError, ValueError, ZeroDivisionError) as why:
        return f"the chapter's notation is not evaluated: {why}"
    if _is_setting(parts):
        return "a setting"
    first = _bare_name(parts[0])
    if (
        concrete
        and len(parts) > 2
        and ops[0] == "="
        and first
        and (not notation.defines(first) or _is_function(parts[0], evaluator))
    ):
        # W' = I + 2BA = (…): a name for what is worked out; r = W_r^T x = (…) with r(x)
        # defined: the name of the function's value at the example's x
        ops, parts = ops[1:], parts[1:]
        tree = Node("chain", (ops, parts))
    bare = [n for n in map(_bare_name, parts) if n is not None and not notation.defines(n)]
    if bare and "=" in ops:  # 「$c = m$ と取ると」「（$p_i = 1/|V|$）では」: a choice or a case
        return f"gives {bare[0]} a value: a choice or a case, not a claim"
    free = [n for n in bare if not notation.defines(n.split("_")[0].strip("|")) and n not in cased]
    if free:  # 「$0 \le x < 2^{1-b}$ の範囲の元は」「$t < u$ のときは」: where a name lies
        return f"says where {free[0]} lies: a condition or a case, not a claim"
    indices = _free_indices(tree, evaluator)
    used = _used(tree, set(indices) | _summed(tree)) - _summed(tree)
    # |x| of a number the chapter declares is its absolute value (|V| of a set, a size)
    used = {_absolute(n) if _absolute(n) and notation.knows(_absolute(n)) else n for n in used}
    set_here = set(notation.settings) if concrete else set()  # their values, not formulas
    if any(_set_array(notation, name, concrete) for name in set_here):
        set_here |= {"I", "O"} - set(notation.definitions) - set(notation.shapes)
    names = _reached(used, notation, set_here)
    unknown = sorted(n for n in names if not (notation.knows(n) or n in set_here | counted))
    # c_0 := …: a name of its own, not entry 0 of an unknown c
    named = {w.split("_")[0] for w in _subscripted(tree) if notation.knows(w)}
    unknown = [n for n in unknown if n not in named]
    if not used:
        return "no names: arithmetic on numbers"
    if unknown:
        return f"{NO_MEANING} {', '.join(unknown)} no meaning"
    if not any(
        k in notation.definitions or _is_array(notation, k) or _set_array(notation, k, concrete)
        for n in used
        for k in (n, f"bold {n}")
    ):
        return "it uses nothing the chapter defines"
    pairs = _sides(ops, parts, evaluator, indices)
    if isinstance(pairs, str):
        return pairs
    if concrete and any(e.free_symbols for r in pairs for e in (*r.left, *r.right)):
        return "about a value the example does not set"
    integers = frozenset(n for n, s in notation.shapes.items() if s.range.integer)
    judgement, place = _judged(pairs, integers, notation, seed, relative)
    result = split_relations(statement)[0][-1]
    about = r"\approx" in statement
    # a number in a power of ten (3.249 × 10^{10}) is judged by the relative tolerance
    printed = printed_entries(result, about) if concrete and r"\times" not in result else None
    if printed is not None and not indices and pairs[-1].op == "=":
        # the worked-out value against the printed one's rounding, over the rounding of
        # the settings it was worked from, rather than a relative tolerance
        def computed(local: Notation) -> list[sympy.Expr]:
            return _entries(local.at(sizes, concrete)(parts[-2]))

        sources = reached_names(parts[-2], notation, set_here)  # what the value comes from
        last = judge_printed(computed, notation, sources | {f"bold {n}" for n in sources}, printed)
        before = _judged(pairs[:-1], integers, notation, seed, relative) if pairs[1:] else None
        if last is not None and (before is None or before[0].outcome != "fails"):
            judgement, place = last, ()
    named = reached_names(tree, notation, set_here)
    shown = tuple((name, value) for name, value in sizes.items() if name in named)
    return Tried(judgement, shown + place, _definitions(names, notation))


_DECIMAL = re.compile(r"(?<![\d.])(\d+)\.(\d+)")


def printed_rounding(statement: str) -> sympy.Rational | None:
    """How far apart, relative to their size, two sides may be when the statement prints
    decimals (a decimal stands for half a unit of its last digit around it): that half
    unit over the least such decimal, doubled for the rounding of the other side; None
    when it prints none."""
    widths = [
        sympy.Rational(1, 2 * 10 ** len(m.group(2)))
        / max(sympy.Rational(m.group()), sympy.Rational(1, 10 ** len(m.group(2))))
        for m in _DECIMAL.finditer(statement)
    ]
    return 2 * max(widths) if widths else None


def _result_rounding(printed: str) -> sympy.Rational | None:
    """How far a value computed from exact settings may lie from the numbers printed after
    ≈, relative to them: half a unit of the last digit (2.829: 0.0005; 91: 0.5; 3.249
    × 10^{10}: as 3.249), the loosest over the entries of a tuple. None when what follows
    ≈ is not printed numbers only."""
    entries = printed_entries(printed, about=True)
    if entries is None:
        return None
    widths = [sympy.Rational(half / abs(value)) for value, half in entries if value]
    return max(widths) if widths else None


def _bare_name(node: Node) -> str | None:
    """The name a member is, alone (c, p_i, d_k); None for anything else."""
    if node.op == "name":
        return node.args[0]
    if node.op == "abs":
        return _bare_name(node.args[0])
    if node.op == "prime":  # W': a name of its own
        inner = _bare_name(node.args[0])
        return None if inner is None else inner + "'"
    if node.op == "sub" and node.args[0].op == "name" and node.args[1].op == "text":
        return f"{node.args[0].args[0]}_{node.args[1].args[0]}"
    return None


def _is_function(node: Node, evaluator: Evaluator) -> bool:
    """Whether the member means a function of arguments (the chapter's r(x)), not a value."""
    try:
        return callable(evaluator(node))
    except (TexError, TypeError, ValueError, ZeroDivisionError, ArithmeticError):
        return False


def _is_array(notation: Notation, name: str) -> bool:
    shape = notation.shapes.get(name)
    return shape is not None and bool(shape.dimensions)


def _is_setting(parts: tuple[Node, ...]) -> bool:
    """`z = (2, 1, 0.5, -1)`, `d = 8`: a name given a value, not a claim."""
    return len(parts) == 2 and parts[0].op == "name" and parts[1].op in ("num", "tuple", "matrix")


def _used(node: object, indices: set[str]) -> set[str]:
    """The names a tree uses: z of z_j when j is an index, d_k as a name of its own, f of
    f(x); the indices themselves aside."""
    found: set[str] = set()
    if isinstance(node, tuple):
        for item in node:
            found |= _used(item, indices)
    elif isinstance(node, Node):
        if node.op == "name":
            found.add(node.args[0])
        elif (
            node.op == "call"
            and node.args[0].op == "sub"
            and node.args[0].args[0].op == "name"
            and node.args[0].args[1].op == "text"
        ):  # σ_T(z): the function σ with T below it; p_j(T): entry j of p(T)
            function, below = node.args[0].args[0].args[0], node.args[0].args[1].args[0]
            found.add(function)
            found |= {c for c in below if c.isalpha() and c not in indices and len(below) == 1}
            found |= _used(node.args[1], indices)
        elif node.op == "sub" and node.args[0].op == "name" and node.args[1].op == "text":
            base, below = node.args[0].args[0], node.args[1].args[0]
            if all(c in indices or c.isdigit() for c in below):
                found.add(base)
            else:
                found.add(f"{base}_{below}")
        elif node.op in ("sum", "prod", "max", "min") and isinstance(node.args[0], str):
            found |= _used(node.args[1:], indices | {node.args[0]})
        else:
            found |= _used(node.args, indices)
    return found


def _subscripted(node: object) -> set[str]:
    """The names written with a subscript of letters or digits (c_0, d_k), whole."""
    found: set[str] = set()
    if isinstance(node, tuple):
        for item in node:
            found |= _subscripted(item)
    elif isinstance(node, Node):
        if node.op == "sub" and node.args[0].op == "name" and node.args[1].op == "text":
            found.add(f"{node.args[0].args[0]}_{node.args[1].args[0]}")
        for arg in node.args:
            found |= _subscripted(arg)
    return found


def _set_array(notation: Notation, name: str, concrete: bool) -> bool:
    """Whether an example sets the name to a vector or a matrix (`B = (1, 0, 2)^T`)."""
    value = notation.settings.get(name) if concrete else None
    return value is not None and value.op in ("tuple", "matrix", "T")


def _absolute(name: str) -> str:
    """x of a name |x|; "" for any other name."""
    return name[1:-1] if len(name) > 2 and name[0] == name[-1] == "|" else ""


def _reached(
    used: set[str], notation: Notation, leaves: set[str] | frozenset[str] = frozenset()
) -> set[str]:
    """The names used, and those the definitions of the used names use in turn (their
    parameters and indices aside): a name described in words (「$\\boldsymbol{x}$ は成分が
    すべて等しくはない」) reached through a definition restricts the statement as much as
    one it names."""

    def step(name: str) -> list[str]:
        definition = notation.definitions.get(name) or notation.definitions.get(f"bold {name}")
        if definition is None or name in leaves:
            return []
        bound = {*definition.params, definition.subscript, definition.index} - {None}
        bound |= _summed(definition.body)
        inner = _used(definition.body, bound)  # type: ignore[arg-type]
        return [n for n in inner if n not in bound]

    return closure(used, step)


def _definitions(names: set[str], notation: Notation) -> tuple[Definition, ...]:
    """The definitions of the names, in the order of the text."""
    found = (notation.definitions.get(n) or notation.definitions.get(f"bold {n}") for n in names)
    return tuple(sorted({d for d in found if d is not None}, key=lambda d: (d.line, d.name)))


def reached_names(
    tree: Node, notation: Notation, leaves: set[str] | frozenset[str] = frozenset()
) -> set[str]:
    """The names the tree uses, and those its definitions use in turn (not those of
    `leaves`, names an example sets to values)."""

    def step(name: str) -> list[str]:
        if name in leaves:
            return []
        out: list[str] = []
        definition = notation.definitions.get(name) or notation.definitions.get(f"bold {name}")
        if definition is not None:
            out += tree_names(definition.body)
        shape = notation.shapes.get(name) or notation.shapes.get(f"bold {name}")
        for dimension in shape.dimensions if shape is not None else ():
            try:
                out += tree_names(parse(dimension))
            except TexError:
                continue
        return out

    return closure(tree_names(tree), step)


def _summed(node: object) -> set[str]:
    """The indices the tree's sums, products, maxima and minima bind, and the variables of
    its integrals and limits."""
    found: set[str] = set()
    if isinstance(node, tuple):
        for item in node:
            found |= _summed(item)
    elif isinstance(node, Node):
        if node.op in ("sum", "prod", "max", "min", *BINDING) and isinstance(node.args[0], str):
            found.add(node.args[0])
        for arg in node.args:
            found |= _summed(arg)
    return found


def _free_indices(tree: Node, evaluator: Evaluator) -> list[str]:
    """The one-letter lower-case subscripts of the tree that no sum binds and no name of
    the notation is: the indices a statement holds for every value of (an upper-case one
    labels: $x_G$ is a point the text names, not entry G of x; nor is r of W_r when the
    text sets W_r)."""
    summed = _summed(tree)
    found: list[str] = []

    def visit(node: object) -> None:
        if isinstance(node, tuple):
            for item in node:
                visit(item)
        elif isinstance(node, Node):
            if node.op == "sub" and node.args[1].op == "text":
                base = node.args[0]
                if (
                    base.op == "name"
                    and f"{base.args[0]}_{node.args[1].args[0]}" in evaluator.names
                ):
                    return  # W_r: a name the text sets, r no index of it
                for letter in node.args[1].args[0]:
                    if (
                        letter.isalpha()
                        and letter.islower()
                        and letter not in summed
                        and letter not in evaluator.names
                        and letter not in found
                    ):
                        found.append(letter)
                visit(node.args[0])
                return
            for arg in node.args:
                visit(arg)

    visit(tree)
    return found


def _others(parts: tuple[Node, ...], indices: list[str]) -> dict[str, set[int]]:
    """For each free index, the entries it runs past: `z_1 - z_j \\ge 3` compares the
    first entry with the others, so j is not 1 there (a subscript of one letter beside
    one of digits on the same name)."""
    fixed: dict[str, set[int]] = {}
    free: dict[str, set[str]] = {}

    def visit(node: object) -> None:
        if isinstance(node, tuple):
            for item in node:
                visit(item)
        elif isinstance(node, Node):
            if node.op == "sub" and node.args[0].op == "name" and node.args[1].op == "text":
                base, below = node.args[0].args[0], node.args[1].args[0]
                if below.isdigit():
                    fixed.setdefault(base, set()).add(int(below))
                elif below in indices:
                    free.setdefault(base, set()).add(below)
            for arg in node.args:
                visit(arg)

    visit(parts)
    out: dict[str, set[int]] = {}
    for base, letters in free.items():
        for letter in letters:
            out.setdefault(letter, set()).update(fixed.get(base, set()))
    return out


@dataclass(frozen=True)
class Relation:
    """One relation of a chain, entry by entry over every value of the free indices:
    `places[k]` the index values of entry k."""

    op: str
    left: list[sympy.Expr]
    right: list[sympy.Expr]
    places: list[tuple[tuple[str, int], ...]]


def _sides(
    ops: tuple[str, ...], parts: tuple[Node, ...], evaluator: Evaluator, indices: list[str]
) -> list[Relation] | str:
    """For each relation of the chain, its left and right sides at every value of the
    free indices (each over 1..SIZE), or why a side cannot be evaluated."""
    combinations = list(itertools.product(range(1, SIZE + 1), repeat=len(indices)))
    if len(combinations) > MAX_INDEX_VALUES:
        return f"{len(indices)} free indices"
    others = _others(parts, indices)
    combinations = [
        values
        for values in combinations
        if not any(v in others.get(i, ()) for i, v in zip(indices, values, strict=True))
    ]
    if not combinations:
        return "no entries left for its free indices"
    pairs = [Relation(op, [], [], []) for op in ops]
    try:
        for values in combinations:
            where = tuple(zip(indices, values, strict=True))
            bound = evaluator.bound(**{i: sympy.Integer(v) for i, v in where})
            members = [bound(p) for p in parts]
            for relation, a, b in zip(pairs, members, members[1:], strict=False):
                left, right = _entries(a), _entries(b)
                if len(left) != len(right):
                    return "sides of different shapes"
                relation.left.extend(left)
                relation.right.extend(right)
                relation.places.extend([where] * len(left))
    except (
        TexError,
        TypeError,
        ValueError,
        ZeroDivisionError,
        AttributeError,
        IndexError,
        RecursionError,
    ) as why:
        return f"not evaluated: {why}"
    return pairs


def _entries(value: object) -> list[sympy.Expr]:
    if isinstance(value, sympy.MatrixBase):
        return list(value)
    if isinstance(value, sympy.Expr):
        return [value]
    raise TypeError(f"not a number: {type(value).__name__}")


def _judged(
    pairs: list[Relation],
    integers: frozenset[str],
    notation: Notation,
    seed: int,
    relative: sympy.Rational | None,
) -> tuple[Judgement, tuple[tuple[str, int], ...]]:
    """The chain's verdict — the first relation that fails, or the weakest of the others —
    and the index values of the entry its witness is."""
    verdicts = [
        judge(
            r.op,
            sympy.Matrix(r.left),
            sympy.Matrix(r.right),
            integers,
            notation.ranges,
            relative,
            seed=seed,
        )
        for r in pairs
    ]
    for outcome in ("fails", "partly", "unknown"):
        for relation, verdict in zip(pairs, verdicts, strict=True):
            if verdict.outcome == outcome:
                entry = verdict.witness.entry if verdict.witness is not None else 0
                return verdict, relation.places[entry] if relation.places else ()
    return min(verdicts, key=lambda v: v.points), ()
