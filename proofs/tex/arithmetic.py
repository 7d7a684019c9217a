"""Arithmetic on printed numbers, read from TeX: the audit's evaluator.

`TexArithmetic` reads the arithmetic subset of TeX math (numbers, + − × /,
fractions, roots, powers, e^{…}, log, tuples and pmatrix) by recursive descent,
never `eval`. A printed decimal with k digits after the point stands for the
interval of half a unit in its last place around it (mpmath's interval
arithmetic); an integer is exact, or ±0.5 when it is the printed result of an
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
import math
import re
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy
from mpmath import iv
from mpmath.libmp import (
    finf,
    fnan,
    fninf,
    fzero,
    mpf_abs,
    mpf_add,
    mpf_le,
    mpf_shift,
    mpf_sub,
    round_nearest,
    to_float,
)

from proofs.tex.tree import TokenCursor

iv.dps = 30

MAX_CHARS = 10_000  # characters of one member of an equality
MAX_TOKENS = 1_000  # tokens of one member (the chapters' longest has 60)
MAX_DIGITS = 1_000  # digits of one printed number (the chapters' longest has 19)
MAX_DEPTH = 50  # nested groups: ( { \frac \sqrt e^ … (each level is ~6 Python frames)
MAX_EXPONENT = 10**6  # magnitude of an exponent
# Every value stays within 10^±MAX_DECIMAL_EXPONENT; below Python's 4300-digit limit of
# int-to-str conversion, which SymPy meets when it prints an exact rational.
MAX_DECIMAL_EXPONENT = 4_000
MAX_SYMBOLIC_TOKENS = 100
MAX_SYMBOLIC_DEGREE = 100
MAX_SYMBOLIC_EXPONENT = 100  # of one SymPy power: (d + 1)^{1000} would be expanded
CACHE_SIZE = 2_048
CACHED_CHARS = 1_000  # longer members are evaluated without being kept

_LIMIT_BITS = MAX_DECIMAL_EXPONENT * math.log2(10)
_MAX_EXP_ARGUMENT = MAX_DECIMAL_EXPONENT * math.log(10)  # e^x within the limit


class NotNumeric(Exception):
    """The expression involves something that is not arithmetic on numbers."""


class TooLarge(NotNumeric):
    """The expression exceeds one of the evaluator's bounds, so it is not evaluated:
    the message starts with "too large:" and says what exceeded which limit."""


@dataclass(frozen=True)
class Value:
    """An interval, or a tuple of intervals (a vector or a flattened matrix)."""

    items: tuple
    vector: bool

    @staticmethod
    def scalar(x) -> Value:
        return Value((x,), False)

    def map2(self, other: Value, op) -> Value:
        if not self.vector and not other.vector:
            return Value.scalar(op(self.items[0], other.items[0]))
        if self.vector and other.vector:
            if len(self.items) != len(other.items):
                raise NotNumeric("vectors of different lengths")
            return Value(
                tuple(op(a, b) for a, b in zip(self.items, other.items, strict=True)), True
            )
        if self.vector:
            return Value(tuple(op(a, other.items[0]) for a in self.items), True)
        return Value(tuple(op(self.items[0], b) for b in other.items), True)

    def map1(self, op) -> Value:
        return Value(tuple(op(a) for a in self.items), self.vector)


_NUMBER = re.compile(r"\d+(?:\{,\}\d{3})*(?:\.\d+)?")
_SPACES = (r"\,", r"\;", r"\:", r"\!", r"\ ", r"\quad", r"\qquad", "~")
_IGNORED = {
    r"\left",
    r"\right",
    r"\big",
    r"\Big",
    r"\bigg",
    r"\Bigg",
    r"\bigl",
    r"\bigr",
    r"\Bigl",
    r"\Bigr",
    r"\displaystyle",
}


@functools.lru_cache(maxsize=CACHE_SIZE)
def _literal_interval(token: str, loose_integer: bool, face_value: bool):
    """The interval a printed number stands for (see the module docstring), or its
    face value; read from the digits by mpmath, so that no digit count meets a
    float's or an int's limit. Kept: a chapter prints the same numbers often."""
    digits = token.replace("{,}", "")
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


def _beyond_limit(log2: float) -> TooLarge:
    if math.isinf(log2):
        return TooLarge("too large: an infinite value")
    power = f"10^{{{log2 / math.log2(10):.0f}}}"
    return TooLarge(
        f"too large: a value of about {power} is beyond the limit of "
        f"10^{{±{MAX_DECIMAL_EXPONENT}}} in magnitude"
    )


def _bounded_interval(x):
    """x itself; TooLarge when an endpoint lies beyond 10^±MAX_DECIMAL_EXPONENT."""
    for end in x._mpi_:
        log2 = _log2_abs(end)
        if log2 is not None and not abs(log2) <= _LIMIT_BITS:
            raise _beyond_limit(log2)
    return x


def _bounded_exact(x):
    """x itself; TooLarge when it is an exact rational whose numerator or denominator
    lies beyond 10^MAX_DECIMAL_EXPONENT (SymPy keeps them exact, and prints them)."""
    if isinstance(x, sympy.Rational) and x != 0:
        for part in (x.p, x.q):
            bits = abs(part).bit_length()
            if bits > _LIMIT_BITS:
                raise _beyond_limit(bits if part == x.p else -bits)
    return x


def _exponent_too_large(text: str, limit: int) -> TooLarge:
    return TooLarge(f"too large: the exponent {text} of a power exceeds {limit} in magnitude")


class TexArithmetic(TokenCursor):
    """Recursive-descent evaluator of the arithmetic subset of TeX math.

    Numbers (with `{,}` thousands separators), + − × · / and implicit
    products, ^, \\frac \\dfrac \\tfrac, \\sqrt, e^{…}, \\exp, \\log, \\ln, \\%,
    `a \\times 10^{k}`, parentheses and tuples `(a, b)`, pmatrix (flattened),
    and symbols bound to integers in `bindings` (a setting such as `d = 768`
    earlier on the same line). A juxtaposed product binds tighter than / and ×,
    as in `16d/7d` = (16d)/(7d). Anything else raises NotNumeric: the
    expression is not a computation on numbers; what exceeds the module's bounds
    raises TooLarge.

    With `symbolic=True` the same grammar builds a SymPy expression (printed
    numbers taken at face value, unbound symbols as SymPy symbols), so that an
    expression whose symbols cancel (16d/7d) is recognised as a number.
    """

    TOKEN = re.compile(
        r"\\begin\{pmatrix\}|\\end\{pmatrix\}|\\\\|\\[A-Za-z]+|\\.|\d+(?:\{,\}\d{3})*(?:\.\d+)?"
        r"|[A-Za-z]|\S"
    )

    def __init__(
        self,
        text: str,
        bindings: dict[str, int],
        loose_integers: bool = False,
        symbolic: bool = False,
        face_value: bool = False,
    ):
        super().__init__(_tokens(text))
        self.bindings = bindings
        self.loose = loose_integers
        self.symbolic = symbolic
        self.face_value = face_value  # printed numbers exact, not intervals
        self.depth = 0  # groups open around the current atom
        self.symbols: set[str] = set()  # unbound symbols met (symbolic mode)

    # the two arithmetics: intervals (the default) or SymPy (symbolic=True); every
    # result passes through _bounded
    def _bounded(self, x):
        return _bounded_exact(x) if self.symbolic else _bounded_interval(x)

    def _number(self, token: str):
        if self.symbolic:
            return _bounded_exact(sympy.Rational(token.replace("{,}", "")))
        return _literal_interval(token, self.loose, self.face_value)

    def _integer(self, k: int):
        return sympy.Integer(k) if self.symbolic else iv.mpf(k)

    def _add(self, a, b):
        return self._bounded(a + b)

    def _subtract(self, a, b):
        return self._bounded(a - b)

    def _multiply(self, a, b):
        return self._bounded(a * b)

    def _exp(self, a):
        if not self.symbolic:
            return _bounded_interval(_exp(a))
        if not a.free_symbols:  # a number: its size is known before e^a is formed
            size = abs(a.evalf(15))
            if not size.is_comparable:
                raise NotNumeric("not a finite real number")
            if size > _MAX_EXP_ARGUMENT:
                raise TooLarge(
                    f"too large: e^{{x}} with x about {_scientific(size._mpf_, 3)} is beyond "
                    f"10^{{±{MAX_DECIMAL_EXPONENT}}}"
                )
        return sympy.exp(a)

    def _sqrt(self, a):
        return sympy.sqrt(a) if self.symbolic else _sqrt(a)

    def _log(self, a):
        return sympy.log(a) if self.symbolic else _log(a)

    def _divide(self, a, b):
        if self.symbolic:
            if b == 0:
                raise NotNumeric("division by zero")
            return _bounded_exact(a / b)
        return _bounded_interval(_divide(a, b))

    def _power(self, a, b):
        return _symbolic_power(a, b) if self.symbolic else _bounded_interval(_power(a, b))

    def evaluate(self) -> Value:
        if not self.tokens:
            raise NotNumeric("empty")
        value = self.expression()
        if self.pos != len(self.tokens):
            raise NotNumeric(f"unexpected {self.tokens[self.pos]!r}")
        return value

    def mismatch(self, expected: str | None, token: str | None) -> Exception:
        return NotNumeric(f"expected {expected!r}, got {token!r}")

    # expression := term (± term)* ; term := power ((× | · | / | juxtaposition) power)*
    def expression(self) -> Value:
        sign = 1
        while self.peek() in ("-", "+", "−"):
            sign = -sign if self.take() in ("-", "−") else sign
        value = self.term()
        if sign < 0:
            value = value.map1(lambda a: -a)
        while self.peek() in ("+", "-", "−"):
            op = self.take()
            right = self.term()
            value = value.map2(right, self._add if op == "+" else self._subtract)
        return value

    def term(self) -> Value:
        value = self.product()
        while True:
            token = self.peek()
            if token in (r"\times", r"\cdot", "*"):
                self.take()
                value = value.map2(self.product(), self._multiply)
            elif token == "/":
                self.take()
                value = value.map2(self.product(), self._divide)
            else:
                return value

    def product(self) -> Value:
        """Juxtaposed factors: 12nd^2, 0.4011\\,(1, 0), e^{-10}e^{0.5}."""
        value = self.power()
        while (token := self.peek()) is not None and self._starts_factor(token):
            value = value.map2(self.power(), self._multiply)
        return value

    def _starts_factor(self, token: str) -> bool:
        return bool(
            _NUMBER.fullmatch(token)
            or re.fullmatch(r"[A-Za-z]", token)
            or token in ("(", "{", r"\frac", r"\dfrac", r"\tfrac", r"\sqrt", r"\exp", r"\log")
            or token in (r"\ln", r"\begin{pmatrix}")
        )

    def power(self) -> Value:
        base = self.atom()
        if self.peek() == "^":
            self.take()
            exponent = self.argument()
            base = base.map2(exponent, self._power)
        if self.peek() == r"\%":
            self.take()
            base = base.map1(lambda a: self._bounded(a / 100))
        return base

    def argument(self) -> Value:
        """A braced group or a single token (as in \\frac14, ^2, \\sqrt2)."""
        token = self.peek()
        if token == "{":
            self.take()
            value = self.expression()
            self.take("}")
            return value
        if token is not None and _NUMBER.fullmatch(token) and "." not in token:
            self.take()
            if len(token) > 1:  # \frac14 reads 1 then 4
                self.tokens[self.pos : self.pos] = list(token[1:])
                token = token[0]
            return Value.scalar(self._integer(int(token)))
        return self.atom()

    def atom(self) -> Value:
        """One factor; every nested group passes here, so the depth is counted here."""
        if self.depth >= MAX_DEPTH:
            raise TooLarge(f"too large: groups nested deeper than {MAX_DEPTH} levels")
        self.depth += 1
        try:
            return self._atom()
        finally:
            self.depth -= 1

    def _atom(self) -> Value:
        token = self.peek()
        if token is None:
            raise NotNumeric("ends early")
        if _NUMBER.fullmatch(token):
            self.take()
            return Value.scalar(self._number(token))
        if token in ("(", "{", "["):
            close = {"(": ")", "{": "}", "[": "]"}[self.take()]
            items = [self.expression()]
            while self.peek() == ",":
                self.take()
                items.append(self.expression())
            self.take(close)
            if len(items) == 1:
                return items[0]
            if any(v.vector for v in items):
                raise NotNumeric("nested tuples")
            return Value(tuple(v.items[0] for v in items), True)
        if token in (r"\frac", r"\dfrac", r"\tfrac"):
            self.take()
            top, bottom = self.argument(), self.argument()
            return top.map2(bottom, self._divide)
        if token == r"\sqrt":
            self.take()
            return self.argument().map1(self._sqrt)
        if token in (r"\exp", r"\log", r"\ln"):
            self.take()
            arg = self.argument() if self.peek() == "{" else self.power()
            return arg.map1(self._exp if token == r"\exp" else self._log)
        if token == "e" and self.pos + 1 < len(self.tokens) and self.tokens[self.pos + 1] == "^":
            self.take()
            self.take("^")
            return self.argument().map1(self._exp)
        if token == r"\begin{pmatrix}":
            self.take()
            items = []
            while self.peek() != r"\end{pmatrix}":
                if self.peek() in ("&", r"\\"):
                    self.take()
                    continue
                value = self.expression()
                if value.vector:
                    raise NotNumeric("nested matrix")
                items.append(value.items[0])
            self.take()
            return Value(tuple(items), True)
        if re.fullmatch(r"[A-Za-z]", token):
            self.take()
            name = token
            if self.peek() == "_":
                self.take()
                name += "_" + self._subscript()
            if name in self.bindings:
                return Value.scalar(self._integer(self.bindings[name]))
            if self.symbolic:
                self.symbols.add(name)
                return Value.scalar(sympy.Symbol(name, positive=True))
            raise NotNumeric(f"symbol {name}")
        raise NotNumeric(f"{token!r}")

    def _subscript(self) -> str:
        token = self.take()
        if token != "{":
            return token
        depth, parts = 1, []
        while depth:
            token = self.take()
            depth += token == "{"
            depth -= token == "}"
            if depth:
                parts.append(token)
        return "".join(p for p in parts if p not in (r"\mathrm", "{", "}"))


def _tokens(text: str) -> list[str]:
    """The tokens of `text` less spaces and sizing commands; TooLarge past MAX_CHARS
    characters, MAX_TOKENS tokens or a literal of MAX_DIGITS digits (checked while
    reading, so an oversized member is never tokenised whole)."""
    if len(text) > MAX_CHARS:
        raise TooLarge(f"too large: {len(text)} characters exceed the limit of {MAX_CHARS}")
    tokens: list[str] = []
    for match in TexArithmetic.TOKEN.finditer(text):
        token = match.group()
        if token in _SPACES or token in _IGNORED:
            continue
        if len(tokens) == MAX_TOKENS:
            raise TooLarge(f"too large: more than {MAX_TOKENS} tokens")
        if token[0].isdigit():
            digits = sum(c.isdigit() for c in token)
            if digits > MAX_DIGITS:
                raise TooLarge(
                    f"too large: a number of {digits} digits exceeds the limit of {MAX_DIGITS}"
                )
        tokens.append(token)
    return tokens


def _divide(a, b):
    if b.a <= 0 <= b.b:
        raise NotNumeric("division by an interval containing 0")
    return a / b


def _sqrt(a):
    if a.a < 0:
        raise NotNumeric("square root of a negative number")
    return iv.sqrt(a)


def _log(a):
    if a.a <= 0:
        raise NotNumeric("logarithm of a non-positive number")
    return iv.log(a)


def _exp(a):
    """e^a; TooLarge when it would leave 10^±MAX_DECIMAL_EXPONENT."""
    if _log2_size(a) > math.log2(_MAX_EXP_ARGUMENT):
        raise TooLarge(
            f"too large: e^{{x}} with x about {_scientific(_midpoint(a), 3)} is beyond "
            f"10^{{±{MAX_DECIMAL_EXPONENT}}}"
        )
    return iv.exp(a)


def _power(a, b):
    """a^b: an integer power of any a (not a negative one of an interval containing 0),
    else e^{b log a} for a > 0. The size of an integer power is estimated first, from
    log2|a| and b, so that no power beyond the limit is computed."""
    if _log2_size(b) > math.log2(MAX_EXPONENT):
        raise _exponent_too_large(_scientific(_midpoint(b), 3), MAX_EXPONENT)
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


def _symbolic_power(a, b):
    """a^b in SymPy: a rational exponent at most MAX_SYMBOLIC_EXPONENT in magnitude
    (SymPy expands and computes exactly), and a rational a^b within the limit."""
    if isinstance(b, sympy.Rational):
        if abs(b) > MAX_SYMBOLIC_EXPONENT:
            raise _exponent_too_large(_scientific(sympy.Float(b)._mpf_, 3), MAX_SYMBOLIC_EXPONENT)
        if isinstance(a, sympy.Rational) and a != 0:
            log2 = float(b) * (math.log2(abs(a.p)) - math.log2(a.q))
            if not abs(log2) <= _LIMIT_BITS:
                raise _beyond_limit(log2)
    result = a**b
    if result.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        raise NotNumeric("not a finite number")
    return _bounded_exact(result)


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
    if len(reader.tokens) > MAX_SYMBOLIC_TOKENS:
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


def _midpoint(x) -> tuple:
    """The midpoint of an interval, as an mpf tuple (any magnitude)."""
    low, high = x._mpi_
    return mpf_shift(mpf_add(low, high, iv.prec + 10, round_nearest), -1)


def _scientific(x: Any, digits: int) -> str:
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


def show(value: Value) -> str:
    """The value's midpoints, six significant digits each."""
    texts = [_scientific(_midpoint(x), 6) for x in value.items]
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
        mpf_abs(mpf_sub(_midpoint(x), _midpoint(y), prec))
        for x, y in zip(a.items, b.items, strict=False)
    ]
    return _scientific(max(gaps, key=mpmath.mp.make_mpf), 3) if gaps else "?"
