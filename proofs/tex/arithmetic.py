"""Arithmetic on printed numbers, read from TeX: the audit's evaluator.

A member of an equality is read by the one TeX parser (proofs.tex.tree) and its tree
evaluated by proofs.tex.intervals, never `eval`. A printed decimal with k digits after
the point stands for the interval of half a unit in its last place around it (mpmath's
interval arithmetic); an integer is exact, or ±0.5 when it is the printed result of an
`\\approx`. Two values agree when their intervals meet.

The evaluator reads text it did not write, so its cost is bounded: a member of
an equality longer than MAX_CHARS characters or MAX_TOKENS tokens, a literal of
more than MAX_DIGITS digits, groups nested deeper than MAX_DEPTH, an exponent
beyond MAX_EXPONENT and any value beyond 10^±MAX_DECIMAL_EXPONENT raise
`TooLarge` before the costly step is taken (10^{10^{10^{10}}} would need
gigabytes). The SymPy reading that recognises cancelling symbols is tried only
on members of at most MAX_SYMBOLIC_TOKENS tokens whose powers of symbols have a
total degree of at most MAX_SYMBOLIC_DEGREE, since `simplify` grows quickly with
both. Under these bounds one member costs at most about a second (a degree-100
`simplify`), most far less; identical members are evaluated once (`evaluate`
keeps the last CACHE_SIZE outcomes).
"""

from __future__ import annotations

import functools

import mpmath
import sympy
from mpmath import iv
from mpmath.libmp import mpf_abs, mpf_le, mpf_sub

from proofs.tex.intervals import (
    MAX_DECIMAL_EXPONENT,
    MAX_EXPONENT,
    MAX_SYMBOLIC_EXPONENT,
    Arithmetic,
    Exact,
    Intervals,
    NotNumeric,
    TooLarge,
    Value,
    midpoint,
    scientific,
)
from proofs.tex.tokens import LETTER, NUMBER, tokens
from proofs.tex.tree import Node, TexError, parse_expression

__all__ = [
    "MAX_CHARS",
    "MAX_DECIMAL_EXPONENT",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_EXPONENT",
    "MAX_SYMBOLIC_DEGREE",
    "MAX_SYMBOLIC_EXPONENT",
    "MAX_SYMBOLIC_TOKENS",
    "MAX_TOKENS",
    "NotNumeric",
    "TexArithmetic",
    "TooLarge",
    "Value",
    "evaluate",
    "gap",
    "meet",
    "show",
]

MAX_CHARS = 10_000  # characters of one member of an equality
MAX_TOKENS = 1_000  # tokens of one member (the chapters' longest has 60)
MAX_DIGITS = 1_000  # digits of one printed number (the chapters' longest has 19)
MAX_DEPTH = 50  # nested groups: ( { \frac \sqrt e^ … (each level is ~8 Python frames)
MAX_SYMBOLIC_TOKENS = 100
MAX_SYMBOLIC_DEGREE = 100
CACHE_SIZE = 2_048
CACHED_CHARS = 1_000  # longer members are evaluated without being kept
KEPT_TREES = 256
KEPT_TREE_TOKENS = 100  # longer members are parsed again each time


class TexArithmetic:
    """The value of a member of an equality, from its TeX.

    Numbers (with `{,}` thousands separators), + − × · / and implicit
    products, ^, \\frac \\dfrac \\tfrac, \\sqrt, \\sqrt[n], e^{…}, \\exp, \\log, \\ln,
    \\%, `a \\times 10^{k}`, parentheses and tuples `(a, b)`, pmatrix (flattened),
    and symbols bound to integers in `bindings` (a setting such as `d = 768`
    earlier on the same line). A juxtaposed product binds tighter than / and ×,
    as in `16d/7d` = (16d)/(7d). Anything else raises NotNumeric: the
    expression is not a computation on numbers; what exceeds the module's bounds
    raises TooLarge (the length bounds when it is made, the others when it is
    evaluated).

    With `symbolic=True` the tree is evaluated in SymPy (printed numbers taken at
    face value, unbound symbols as SymPy symbols, listed in `symbols`), so that an
    expression whose symbols cancel (16d/7d) is recognised as a number; never one with
    a name right before a bracket (f(0) may apply f: not decided here).
    """

    def __init__(
        self,
        text: str,
        bindings: dict[str, int],
        loose_integers: bool = False,
        symbolic: bool = False,
        face_value: bool = False,
    ):
        self.tokens = _tokens(text)
        exact = Exact()
        self.symbols = exact.symbols  # the unbound symbols met (symbolic mode)
        numbers = exact if symbolic else _intervals(loose_integers, face_value)
        with_digits = any(NUMBER.fullmatch(token) for token in self.tokens)
        applied = any(  # \pi(1): a permutation applied, not the number
            a == r"\pi" and b in ("(", r"\left(", r"\big(", r"\Big(")
            for a, b in zip(self.tokens, self.tokens[1:], strict=False)
        )
        # e^{2} + e + 1: the e beside a power of e is that number, not a name
        euler = any(
            a == "e" and b == "^" for a, b in zip(self.tokens, self.tokens[1:], strict=False)
        )
        self.arithmetic = Arithmetic(
            numbers, bindings, constants=with_digits and not applied, euler=with_digits and euler
        )

    def tree(self) -> Node:
        """The member's tree as printed arithmetic (kept for a short member); NotNumeric
        where the parser stopped, said as arithmetic's obstacle."""
        if not self.tokens:
            raise NotNumeric("empty")
        found = self.tokens
        tree = _kept_tree(found) if len(found) <= KEPT_TREE_TOKENS else _tree(found)
        if isinstance(tree, TexError):
            raise self.arithmetic.stopped(tree, MAX_DEPTH)
        return tree

    def evaluate(self) -> Value:
        return self.arithmetic(self.tree())


def _tree(found: tuple[str, ...]) -> Node | TexError:
    """The tree of a member's tokens read as printed arithmetic, or where the parser
    stopped. A short member's is kept: the audit reads a member in several ways (at the
    printed precision, at face value, with its symbols set), and both sides of `k = k`."""
    try:
        return parse_expression(list(found), MAX_DEPTH, notation=False)
    except TexError as stop:
        return stop.with_traceback(None)


_kept_tree = functools.lru_cache(maxsize=KEPT_TREES)(_tree)


_intervals = functools.cache(Intervals)  # one for each way of reading printed numbers


def _tokens(text: str) -> tuple[str, ...]:
    """The tokens of `text`; TooLarge past MAX_CHARS characters, then at the first token
    past MAX_TOKENS or of more than MAX_DIGITS digits, whichever comes first."""
    if len(text) > MAX_CHARS:
        raise TooLarge(f"too large: {len(text)} characters exceed the limit of {MAX_CHARS}")
    found = tokens(text)
    for count, token in enumerate(found):
        if count == MAX_TOKENS:
            raise TooLarge(f"too large: more than {MAX_TOKENS} tokens")
        if len(token) > MAX_DIGITS and token[0].isdigit():  # fewer characters, fewer digits
            digits = sum(c.isdigit() for c in token)
            if digits > MAX_DIGITS:
                raise TooLarge(
                    f"too large: a number of {digits} digits exceeds the limit of {MAX_DIGITS}"
                )
    return _column_written_as_row(tuple(found))


# a transpose closing a member after a bracket: (1, 0, -2)^T is the column it prints
_TRANSPOSES = (
    ("^", "{", r"\mathsf", "{", "T", "}", "}"),
    ("^", r"\mathsf", "{", "T", "}"),
    ("^", r"\top"),
    ("^", "{", r"\top", "}"),
)


def _column_written_as_row(found: tuple[str, ...]) -> tuple[str, ...]:
    """The member's tokens without a transpose that closes it after a bracket: its
    entries are what it prints (a transpose inside it, x^T y, is left to refuse)."""
    for transpose in _TRANSPOSES:
        k = len(found) - len(transpose)
        if k > 0 and found[k:] == transpose and found[k - 1] == ")":
            return found[:k]
    return found


def evaluate(member: str, bindings: dict[str, int], loose: bool, face: bool = False) -> Value:
    """The member's value; when its only obstacle is symbols that cancel (16d/7d),
    SymPy shows it constant and the value is taken with those symbols set to 1.
    `face`: the printed numbers taken at face value (points, not intervals).
    NotNumeric (TooLarge past a bound) when it is not a number. The outcome of a
    member of at most CACHED_CHARS characters is kept: a chapter repeats members."""
    if len(member) > CACHED_CHARS:
        outcome = _outcome(member, tuple(sorted(bindings.items())), loose, face)
    else:
        outcome = _kept_outcome(member, tuple(sorted(bindings.items())), loose, face)
    if isinstance(outcome, NotNumeric):
        raise type(outcome)(*outcome.args)
    return outcome


def _outcome(member: str, bindings: tuple, loose: bool, face: bool) -> Value | NotNumeric:
    """The value of the member, or the NotNumeric saying why it has none."""
    try:
        return TexArithmetic(member, dict(bindings), loose, face_value=face).evaluate()
    except TooLarge as why:
        return why
    except NotNumeric as why:
        if not str(why).startswith("symbol "):
            return why
        cancelling = _cancelling_symbols(member, bindings)
        if cancelling is None:
            return why
    try:
        with_ones = {**dict(bindings), **dict.fromkeys(cancelling, 1)}
        return TexArithmetic(member, with_ones, loose, face_value=face).evaluate()
    except NotNumeric as why:
        return why


_kept_outcome = functools.lru_cache(maxsize=CACHE_SIZE)(_outcome)


@functools.lru_cache(maxsize=CACHE_SIZE)
def _cancelling_symbols(member: str, bindings: tuple) -> tuple[str, ...] | None:
    """The unbound symbols of `member` when SymPy shows that they cancel (16d/7d),
    else None (also when the member is past the symbolic bounds). Most members that
    cancel do so as SymPy builds them; the costlier test (`_not_constant`) is asked
    only about members whose values agree at two points."""
    reader = TexArithmetic(member, dict(bindings), symbolic=True)
    if len(reader.tokens) > MAX_SYMBOLIC_TOKENS or _applied(reader.tokens, bindings):
        return None
    try:
        exact = reader.evaluate()
    except NotNumeric:
        return None
    symbols = tuple(sorted(reader.symbols))
    if not any(x.free_symbols for x in exact.items):
        return symbols
    if not _agrees_at_two_points(member, bindings, symbols):
        return None
    degree = sum(
        abs(p.exp)
        for x in exact.items
        for p in x.atoms(sympy.Pow)
        if isinstance(p.exp, sympy.Rational) and p.base.free_symbols
    )
    if degree > MAX_SYMBOLIC_DEGREE:
        return None
    if any(_not_constant(x) for x in exact.items):
        return None
    return symbols


def _applied(found: tuple[str, ...], bindings: tuple) -> bool:
    """Whether an unbound name stands right before a bracket (`f(0)`): an application of a
    function as much as a product, which printed arithmetic cannot tell apart; its symbol
    is never taken to cancel (f(0) is not f times 0). Spaced from it (`f\\,(0)`) it is a
    factor (proofs.tex.tokens)."""
    bound = {name for name, _ in bindings}
    return any(
        LETTER.fullmatch(a) is not None and a not in bound and b in ("(", "[")
        for a, b in zip(found, found[1:], strict=False)
    )


def _not_constant(x: sympy.Expr) -> bool:
    """Whether x keeps a symbol: `cancel` decides a rational function in a few
    milliseconds; `simplify`, ten times dearer, is asked only about what it leaves."""
    return bool(sympy.cancel(x).free_symbols and sympy.simplify(x).free_symbols)


def _agrees_at_two_points(member: str, bindings: tuple, symbols: tuple[str, ...]) -> bool:
    """Whether the member has meeting values with its symbols set to 2, 3, 4, … and to
    5, 7, 9, … (not proportional): a cheap test that rejects almost every member whose
    symbols do not cancel."""
    values = []
    for first, step in ((2, 1), (5, 2)):
        points = {name: first + step * k for k, name in enumerate(symbols)}
        try:
            values.append(TexArithmetic(member, {**dict(bindings), **points}).evaluate())
        except NotNumeric:
            return False
    return meet(*values)


def show(value: Value) -> str:
    """The value's midpoints, six significant digits each."""
    texts = [scientific(midpoint(x), 6) for x in value.items]
    return "(" + ", ".join(texts) + ")" if value.vector else texts[0]


def meet(a: Value, b: Value) -> bool:
    """Whether the values have the same shape and every pair of intervals meets."""
    if a.vector != b.vector or len(a.items) != len(b.items):
        return False
    return all(
        mpf_le(x._mpi_[0], y._mpi_[1]) and mpf_le(y._mpi_[0], x._mpi_[1])
        for x, y in zip(a.items, b.items, strict=True)
    )


def gap(a: Value, b: Value) -> str:
    """The largest distance between corresponding midpoints, three significant digits."""
    prec = iv.prec + 10
    gaps = [
        mpf_abs(mpf_sub(midpoint(x), midpoint(y), prec))
        for x, y in zip(a.items, b.items, strict=False)
    ]
    return scientific(max(gaps, key=mpmath.mp.make_mpf), 3) if gaps else "?"
