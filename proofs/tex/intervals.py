"""A formula's tree (proofs.tex.tree) evaluated as arithmetic on printed numbers.

`Arithmetic` has one method per kind of node: numbers, + − × · / and juxtaposition,
fractions, `\\sqrt` and `\\sqrt[n]`, powers, `e^{…}`, `\\exp`, `\\log`, `\\ln`, `\\sin`,
`\\cos`, `\\tan` and `\\tanh` (in radians), `\\%`,
tuples and pmatrix (flattened), and letters bound to integers; anything else is refused
with NotNumeric naming the token it was read from. It computes in one of two number
systems: `Intervals` (mpmath interval arithmetic: a printed decimal with k digits after
the point stands for the interval of half a unit in its last place around it, an integer
is exact or, loose, ±0.5) or `Exact` (SymPy: printed numbers at face value, unbound
letters as symbols). Every value stays within 10^±MAX_DECIMAL_EXPONENT and every exponent
within MAX_EXPONENT (MAX_SYMBOLIC_EXPONENT exactly), checked before the costly step is
taken: past a bound, TooLarge says which.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy
from mpmath import iv
from mpmath.libmp import finf, fnan, fninf, fzero, mpf_add, mpf_shift, round_nearest, to_float

from proofs.tex.tokens import LETTER, NUMBER
from proofs.tex.tree import ARITHMETIC_FACTORS, EXPONENT, Node, TexError

iv.dps = 30

MAX_EXPONENT = 10**6  # magnitude of an exponent
# Every value stays within 10^±MAX_DECIMAL_EXPONENT; below Python's 4300-digit limit of
# int-to-str conversion, which SymPy meets when it prints an exact rational.
MAX_DECIMAL_EXPONENT = 4_000
MAX_SYMBOLIC_EXPONENT = 100  # of one SymPy power: (d + 1)^{1000} would be expanded

_LIMIT_BITS = MAX_DECIMAL_EXPONENT * math.log2(10)
_MAX_EXP_ARGUMENT = MAX_DECIMAL_EXPONENT * math.log(10)  # e^x within the limit
# the tokens a construct of arithmetic opens with (besides numbers and letters)
_OPENERS = ARITHMETIC_FACTORS | {"["}
_OPERATORS = frozenset([r"\times", r"\cdot", "*", "/", r"\%", "_"])


class NotNumeric(Exception):
    """The expression involves something that is not arithmetic on numbers."""


class TooLarge(NotNumeric):
    """The expression exceeds one of the evaluator's bounds, so it is not evaluated:
    the message starts with "too large:" and says what exceeded which limit."""


@dataclass(frozen=True)
class Value:
    """An interval, or a tuple of intervals (a vector or a flattened matrix, with its rows
    and columns)."""

    items: tuple
    vector: bool
    shape: tuple[int, int] | None = None  # a matrix's (rows, columns); None for a tuple

    @staticmethod
    def scalar(x) -> Value:
        return Value((x,), False)

    def map2(self, other: Value, op) -> Value:
        if not self.vector and not other.vector:
            return Value.scalar(op(self.items[0], other.items[0]))
        if self.vector and other.vector:
            if len(self.items) != len(other.items):
                raise NotNumeric("vectors of different lengths")
            shape = self.shape if self.shape == other.shape else None
            return Value(
                tuple(op(a, b) for a, b in zip(self.items, other.items, strict=True)),
                True,
                shape,
            )
        if self.vector:
            return Value(tuple(op(a, other.items[0]) for a in self.items), True, self.shape)
        return Value(tuple(op(self.items[0], b) for b in other.items), True, other.shape)

    def map1(self, op) -> Value:
        return Value(tuple(op(a) for a in self.items), self.vector, self.shape)


# sizes and printing of numbers of any magnitude ----------------------------------------------
def _log2_abs(end: tuple) -> float | None:
    """log2 |x| of an mpf tuple (sign, mantissa, exponent, bits); None for 0, inf for
    ±inf and nan."""
    _, mantissa, exponent, _ = end
    if not mantissa:
        return None if end == fzero else math.inf
    return exponent + math.log2(mantissa)


def _log2_size(x) -> float:
    """log2 of the largest |endpoint| of an interval; -inf for [0, 0]."""
    logs = [log2 for log2 in map(_log2_abs, x._mpi_) if log2 is not None]
    return max(logs, default=-math.inf)


def midpoint(x) -> tuple:
    """The midpoint of an interval, as an mpf tuple (any magnitude)."""
    low, high = x._mpi_
    return mpf_shift(mpf_add(low, high, iv.prec + 10, round_nearest), -1)


def scientific(x: Any, digits: int) -> str:
    """x (an mpf tuple) as f"{x:.{digits}g}" prints a float, for a number of any
    magnitude: 1e+400, not inf; 1e-400, not 0."""
    near = to_float(x) if x in (fzero, finf, fninf, fnan) else None
    if near is None and -990 < x[2] + x[3] < 990:  # well inside the float range
        near = to_float(x)
    if near is not None:
        return f"{near:.{digits}g}"
    x = mpmath.mp.make_mpf(x)
    exponent = int(mpmath.floor(mpmath.log10(abs(x))))
    mantissa = float(x / mpmath.mpf(10) ** exponent)
    text = f"{mantissa:.{digits}g}"
    if abs(float(text)) >= 10:  # 9.9999995 rounded up to 10
        exponent += 1
        text = f"{mantissa / 10:.{digits}g}"
    return f"{text}e{exponent:+03d}"


def _beyond_limit(log2: float) -> TooLarge:
    if math.isinf(log2):
        return TooLarge("too large: an infinite value")
    power = f"10^{{{log2 / math.log2(10):.0f}}}"
    return TooLarge(
        f"too large: a value of about {power} is beyond the limit of "
        f"10^{{±{MAX_DECIMAL_EXPONENT}}} in magnitude"
    )


def _exponent_too_large(text: str, limit: int) -> TooLarge:
    return TooLarge(f"too large: the exponent {text} of a power exceeds {limit} in magnitude")


def _exp_too_large(size: tuple) -> TooLarge:
    return TooLarge(
        f"too large: e^{{x}} with x about {scientific(size, 3)} is beyond "
        f"10^{{±{MAX_DECIMAL_EXPONENT}}}"
    )


# interval arithmetic ------------------------------------------------------------------------
def _bounded_interval(x):
    """x itself; TooLarge when an endpoint lies beyond 10^±MAX_DECIMAL_EXPONENT."""
    for end in x._mpi_:
        log2 = _log2_abs(end)
        if log2 is not None and not abs(log2) <= _LIMIT_BITS:
            raise _beyond_limit(log2)
    return x


@functools.lru_cache(maxsize=2_048)
def _literal_interval(printed: str, loose_integer: bool, face_value: bool):
    """The interval a printed number stands for (see the module docstring), or its
    face value; read from the digits by mpmath, so that no digit count meets a
    float's or an int's limit. Kept: a chapter prints the same numbers often."""
    digits = printed.replace("{,}", "")
    if face_value:
        return _bounded_interval(iv.mpf(digits))
    if "." in digits:
        places = len(digits.split(".")[1])
        half = iv.mpf(5) * iv.mpf(10) ** (-(places + 1))
    elif loose_integer:
        half = iv.mpf(0.5)
    else:
        return _bounded_interval(iv.mpf(digits))
    x = iv.mpf(digits)
    return _bounded_interval(iv.mpf([(x - half).a, (x + half).b]))


def _exp(a):
    """e^a; TooLarge when it would leave 10^±MAX_DECIMAL_EXPONENT."""
    if _log2_size(a) > math.log2(_MAX_EXP_ARGUMENT):
        raise _exp_too_large(midpoint(a))
    return iv.exp(a)


def _power(a, b):
    """a^b: an integer power of any a (not a negative one of an interval containing 0),
    else e^{b log a} for a > 0. The size of an integer power is estimated first, from
    log2|a| and b, so that no power beyond the limit is computed."""
    if _log2_size(b) > math.log2(MAX_EXPONENT):
        raise _exponent_too_large(scientific(midpoint(b), 3), MAX_EXPONENT)
    if b.a == b.b and b.a == int(b.a):
        n = int(b.a)
        if n < 0 and a.a <= 0 <= a.b:
            raise NotNumeric("negative power of an interval containing 0")
        sizes = [n * log2 for log2 in map(_log2_abs, a._mpi_) if log2 is not None]
        if sizes and not max(map(abs, sizes)) <= _LIMIT_BITS:
            raise _beyond_limit(max(sizes, key=abs))
        return a**n
    if a.a <= 0:
        raise NotNumeric("non-integer power of a non-positive number")
    return _exp(b * iv.log(a))


class Intervals:
    """Interval arithmetic on printed numbers: `loose` integers stand for ±0.5 (the
    printed result of an `\\approx`), `face` takes every printed number at face value."""

    def __init__(self, loose: bool = False, face: bool = False) -> None:
        self.loose = loose
        self.face = face

    def number(self, printed: str):
        return _literal_interval(printed, self.loose, self.face)

    def integer(self, k: int):
        return iv.mpf(k)

    def symbol(self, name: str):
        raise NotNumeric(f"symbol {name}")

    def add(self, a, b):
        return _bounded_interval(a + b)

    def subtract(self, a, b):
        return _bounded_interval(a - b)

    def multiply(self, a, b):
        return _bounded_interval(a * b)

    def divide(self, a, b):
        if b.a <= 0 <= b.b:
            raise NotNumeric("division by an interval containing 0")
        return _bounded_interval(a / b)

    def power(self, a, b):
        return _bounded_interval(_power(a, b))

    def exp(self, a):
        return _bounded_interval(_exp(a))

    def pi(self):
        return iv.pi

    def ceil(self, a):
        return self._whole(a, mpmath.ceil)

    def floor(self, a):
        return self._whole(a, mpmath.floor)

    @staticmethod
    def _whole(a, to_integer):
        """An interval's rounding to an integer: one integer when both ends round to it,
        else no value (12.5 ± 0.05 rounds up to 13; 12.0 ± 0.05 to 12 or 13)."""
        low, high = to_integer(a.a), to_integer(a.b)
        if low != high:
            raise NotNumeric("rounds to two integers within its printed precision")
        return iv.mpf(low)

    def log(self, a):
        if a.a <= 0:
            raise NotNumeric("logarithm of a non-positive number")
        return iv.log(a)

    def sin(self, a):
        return iv.sin(a)

    def cos(self, a):
        return iv.cos(a)

    def tan(self, a):
        if iv.cos(a).a <= 0 <= iv.cos(a).b:
            raise NotNumeric("tangent at a pole within its printed precision")
        return iv.tan(a)

    def tanh(self, a):
        """tanh increases: its values at the ends, each widened by a unit of the last
        place (mpmath's iv has no tanh)."""
        ends = [mpmath.tanh(iv.mpf(end).a) for end in (a.a, a.b)]
        return iv.mpf([ends[0] - mpmath.eps, ends[1] + mpmath.eps])

    def sqrt(self, a):
        if a.a < 0:
            raise NotNumeric("square root of a negative number")
        return iv.sqrt(a)

    def root(self, degree, a):
        """The degree-th root of a ≥ 0, from its ends (x^{1/n} increases)."""
        if not (degree.a == degree.b and degree.a == int(degree.a) and degree.a >= 1):
            raise NotNumeric("a root of a degree that is not a positive integer")
        if a.a < 0:
            raise NotNumeric("root of a negative number")
        n = iv.mpf(degree.a)
        ends = [iv.mpf(0) if end == 0 else _exp(iv.log(iv.mpf(end)) / n) for end in (a.a, a.b)]
        return iv.mpf([ends[0].a, ends[1].b])


# exact arithmetic ---------------------------------------------------------------------------
def _bounded_exact(x):
    """x itself; TooLarge when it is an exact rational whose numerator or denominator
    lies beyond 10^MAX_DECIMAL_EXPONENT (SymPy keeps them exact, and prints them)."""
    if isinstance(x, sympy.Rational) and x != 0:
        for part in (x.p, x.q):
            bits = abs(part).bit_length()
            if bits > _LIMIT_BITS:
                raise _beyond_limit(bits if part == x.p else -bits)
    return x


def _symbolic_power(a, b):
    """a^b in SymPy: a rational exponent at most MAX_SYMBOLIC_EXPONENT in magnitude
    (SymPy expands and computes exactly), and a rational a^b within the limit."""
    if isinstance(b, sympy.Rational):
        if abs(b) > MAX_SYMBOLIC_EXPONENT:
            raise _exponent_too_large(scientific(sympy.Float(b)._mpf_, 3), MAX_SYMBOLIC_EXPONENT)
        if isinstance(a, sympy.Rational) and a != 0:
            log2 = float(b) * (math.log2(abs(a.p)) - math.log2(a.q))
            if not abs(log2) <= _LIMIT_BITS:
                raise _beyond_limit(log2)
    result = a**b
    if result.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        raise NotNumeric("not a finite number")
    return _bounded_exact(result)


class Exact:
    """SymPy arithmetic: printed numbers at face value, a letter no binding gives a
    positive symbol (collected in `symbols`), so that symbols that cancel (16d/7d) show."""

    def __init__(self) -> None:
        self.symbols: set[str] = set()

    def number(self, printed: str):
        return _bounded_exact(sympy.Rational(printed.replace("{,}", "")))

    def integer(self, k: int):
        return sympy.Integer(k)

    def symbol(self, name: str):
        self.symbols.add(name)
        return sympy.Symbol(name, positive=True)

    def add(self, a, b):
        return _bounded_exact(a + b)

    def subtract(self, a, b):
        return _bounded_exact(a - b)

    def multiply(self, a, b):
        return _bounded_exact(a * b)

    def divide(self, a, b):
        if b == 0:
            raise NotNumeric("division by zero")
        return _bounded_exact(a / b)

    def power(self, a, b):
        return _symbolic_power(a, b)

    def exp(self, a):
        if not a.free_symbols:  # a number: its size is known before e^a is formed
            size = abs(a.evalf(15))
            if not size.is_comparable:
                raise NotNumeric("not a finite real number")
            if size > _MAX_EXP_ARGUMENT:
                raise _exp_too_large(size._mpf_)
        return sympy.exp(a)

    def log(self, a):
        return sympy.log(a)

    def sin(self, a):
        return sympy.sin(a)

    def cos(self, a):
        return sympy.cos(a)

    def tan(self, a):
        return sympy.tan(a)

    def tanh(self, a):
        return sympy.tanh(a)

    def pi(self):
        return sympy.pi

    def ceil(self, a):
        return sympy.ceiling(a)

    def floor(self, a):
        return sympy.floor(a)

    def sqrt(self, a):
        return sympy.sqrt(a)

    def root(self, degree, a):
        if not (isinstance(degree, sympy.Integer) and degree >= 1):
            raise NotNumeric("a root of a degree that is not a positive integer")
        return _symbolic_power(a, 1 / degree)


# the tree ------------------------------------------------------------------------------------
def _letter(node: Node) -> str | None:
    """The letter a name was read from (`d`, not `\\delta` or `\\mathrm{d}`), else None."""
    is_letter = node.op == "name" and LETTER.fullmatch(node.token) is not None
    return node.token if is_letter and node.args[0] == node.token else None


def _is_arithmetic(token: str) -> bool:
    """Whether arithmetic reads the construct `token` opens or the operator it is ("": the
    end, or no token of its own)."""
    return (
        token in ("", EXPONENT)
        or token in _OPENERS
        or token in _OPERATORS
        or NUMBER.fullmatch(token) is not None
        or LETTER.fullmatch(token) is not None
    )


class Arithmetic:
    """Evaluates a tree in a number system (`Intervals` or `Exact`), with `bindings`
    giving letters their integer values (a setting such as `d = 768`, `d_k = 64`).

    The nodes are evaluated left to right as they were read, so the first obstacle in the
    text is the one reported: NotNumeric names the token of a construct that is not
    arithmetic (`'\\\\sigma'`), an unbound letter (`symbol d`) or the operation that has no
    value; TooLarge says which bound a value or an exponent passed.

    `constants`: \\pi is the number π (a member with digits besides it, `2\\pi`,
    `\\pi/4`); alone it may name anything, a permutation as often as the number. `euler`:
    a letter e that nothing binds is Euler's number (a member that also raises e to a power,
    `e^{2} + e + 1`).
    """

    def __init__(
        self,
        numbers: Intervals | Exact,
        bindings: Mapping[str, int],
        constants: bool = False,
        euler: bool = False,
    ) -> None:
        self.numbers = numbers
        self.bindings = bindings
        self.constants = constants
        self.euler = euler

    def __call__(self, node: Node) -> Value:
        if self.constants and node.op == "name" and node.token == r"\pi":
            return Value.scalar(self.numbers.pi())
        self._check(node)
        method: Callable[[Node], Value] = getattr(self, "_" + node.op)
        return method(node)

    @staticmethod
    def _check(node: Node) -> None:
        """NotNumeric naming the token of a node that is not arithmetic (`\\sigma`, `|`)."""
        if not _is_arithmetic(node.token):
            raise NotNumeric(f"{node.token!r}")

    def stopped(self, stop: TexError, max_depth: int) -> NotNumeric:
        """The obstacle met first in a formula the parser could not read: what was read
        before the stop is evaluated (a letter e before an exponent is e^{…}), then the
        stop itself is worded as arithmetic's."""
        for k, part in enumerate(stop.before):
            if isinstance(part, str):
                if not _is_arithmetic(part):
                    return NotNumeric(f"{part!r}")
            elif not (_letter(part) == "e" and stop.before[k + 1 : k + 2] == (EXPONENT,)):
                self(part)
        if stop.kind == "nested":
            return TooLarge(f"too large: groups nested deeper than {max_depth} levels")
        if stop.kind == "expected":
            return NotNumeric(f"expected {stop.expected!r}, got {stop.token!r}")
        if stop.kind == "trailing":
            return NotNumeric(f"unexpected {stop.token!r}")
        if stop.kind == "end":
            return NotNumeric("ends early")
        return NotNumeric(f"{stop.token!r}")

    # leaves ---------------------------------------------------------------------------------
    def _num(self, node: Node) -> Value:
        if not node.token:  # a one-digit argument: x^2, \frac14
            return Value.scalar(self.numbers.integer(int(node.args[0])))
        return Value.scalar(self.numbers.number(node.token))

    def _name(self, node: Node) -> Value:
        if self.euler and node.token == "e" and "e" not in self.bindings:
            return Value.scalar(self.numbers.exp(self.numbers.integer(1)))
        return self._bound(node.args[0])

    def _bound(self, name: str) -> Value:
        if name in self.bindings:
            return Value.scalar(self.numbers.integer(self.bindings[name]))
        return Value.scalar(self.numbers.symbol(name))

    def _sub(self, node: Node) -> Value:
        """x_i, d_{\\mathrm{ff}}: one name, bound or not (\\sigma_i is refused with \\sigma)."""
        base, index = node.args
        self._check(base)
        return self._bound(f"{base.args[0]}_{index.args[0]}")

    # arithmetic -----------------------------------------------------------------------------
    def _add(self, node: Node) -> Value:
        (sign, first), *rest = node.args
        value = self(first)
        if sign < 0:
            value = value.map1(lambda a: -a)
        for sign, term in rest:
            value = value.map2(self(term), self.numbers.add if sign > 0 else self.numbers.subtract)
        return value

    def _mul(self, node: Node) -> Value:
        value = self(node.args[0])
        for factor in map(self, node.args[1:]):
            if value.vector and factor.vector:  # two matrices side by side: their product
                value = self._matrix_product(value, factor)
            else:
                value = value.map2(factor, self.numbers.multiply)
        return value

    def _matrix_product(self, left: Value, right: Value) -> Value:
        """The product of two matrices, rows by columns; of two tuples (no rows and
        columns written) or of shapes that do not fit, none."""
        if left.shape is None or right.shape is None or left.shape[1] != right.shape[0]:
            raise NotNumeric("a product of two vectors or matrices whose shapes do not fit")
        (rows, inner), (_, columns) = left.shape, right.shape
        items = []
        for i in range(rows):
            for j in range(columns):
                terms = [
                    self.numbers.multiply(left.items[i * inner + k], right.items[k * columns + j])
                    for k in range(inner)
                ]
                total = terms[0]
                for term in terms[1:]:
                    total = self.numbers.add(total, term)
                items.append(total)
        return Value(tuple(items), True, (rows, columns))

    def _div(self, node: Node) -> Value:
        top, bottom = node.args
        return self(top).map2(self(bottom), self.numbers.divide)

    def _pow(self, node: Node) -> Value:
        base, exponent = node.args
        operands = self._operands
        if _letter(base) == "e":
            return operands(exponent).map1(self.numbers.exp)
        return operands(base).map2(operands(exponent), self.numbers.power)

    @functools.cached_property
    def _operands(self) -> Arithmetic:
        """What evaluates a power's base and exponent: with the printed integers exact even
        where they are loose (an ≈'s rounded result, 3 for 2.5 to 3.5): the 10 and the -4
        of 3.354 × 10^{-4} are no rounded values."""
        if not isinstance(self.numbers, Intervals) or not self.numbers.loose:
            return self
        return Arithmetic(
            Intervals(False, self.numbers.face), self.bindings, self.constants, self.euler
        )

    def _sqrt(self, node: Node) -> Value:
        return self(node.args[0]).map1(self.numbers.sqrt)

    def _root(self, node: Node) -> Value:
        degree, radicand = node.args
        return self(degree).map2(self(radicand), self.numbers.root)

    def _ceil(self, node: Node) -> Value:
        return self(node.args[0]).map1(self.numbers.ceil)

    def _floor(self, node: Node) -> Value:
        return self(node.args[0]).map1(self.numbers.floor)

    def _percent(self, node: Node) -> Value:
        return self(node.args[0]).map1(lambda a: self.numbers.divide(a, self.numbers.integer(100)))

    def _call(self, node: Node) -> Value:
        function, (arg,) = node.args
        name = {"ln": "log"}.get(function.args[0], function.args[0])  # exp, log, sin, tanh, …
        return self(arg).map1(getattr(self.numbers, name))

    def _tuple(self, node: Node) -> Value:
        values = [self(item) for item in node.args]
        if any(v.vector for v in values):
            raise NotNumeric("nested tuples")
        return Value(tuple(v.items[0] for v in values), True)

    def _matrix(self, node: Node) -> Value:
        items = []
        for row in node.args:
            for cell in row:
                value = self(cell)
                if value.vector:
                    raise NotNumeric("nested matrix")
                items.append(value.items[0])
        widths = {len(row) for row in node.args}
        shape = (len(node.args), widths.pop()) if len(widths) == 1 else None
        return Value(tuple(items), True, shape)
