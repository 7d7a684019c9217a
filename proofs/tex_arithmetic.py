"""Arithmetic on printed numbers, read from TeX: the audit's evaluator.

`TexArithmetic` reads the arithmetic subset of TeX math (numbers, + − × /,
fractions, roots, powers, e^{…}, log, tuples and pmatrix) by recursive descent,
never `eval`. A printed decimal with k digits after the point stands for the
interval of half a unit in its last place around it (mpmath's interval
arithmetic); an integer is exact, or ±0.5 when it is the printed result of an
`\\approx`. Two values agree when their intervals meet.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import sympy
from mpmath import iv

iv.dps = 30

class NotNumeric(Exception):
    """The expression involves something that is not arithmetic on numbers."""


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


def _literal_interval(token: str, loose_integer: bool):
    """The interval a printed number stands for (see the module docstring)."""
    digits = token.replace("{,}", "")
    if "." in digits:
        places = len(digits.split(".")[1])
        half = iv.mpf(5) * iv.mpf(10) ** (-(places + 1))
        x = iv.mpf(digits)
        return iv.mpf([(x - half).a, (x + half).b])
    if loose_integer:
        return iv.mpf([int(digits) - 0.5, int(digits) + 0.5])
    return iv.mpf(int(digits))


class TexArithmetic:
    """Recursive-descent evaluator of the arithmetic subset of TeX math.

    Numbers (with `{,}` thousands separators), + − × · / and implicit
    products, ^, \\frac \\dfrac \\tfrac, \\sqrt, e^{…}, \\exp, \\log, \\ln, \\%,
    `a \\times 10^{k}`, parentheses and tuples `(a, b)`, pmatrix (flattened),
    and symbols bound to integers in `bindings` (a setting such as `d = 768`
    earlier on the same line). A juxtaposed product binds tighter than / and ×,
    as in `16d/7d` = (16d)/(7d). Anything else raises NotNumeric: the
    expression is not a computation on numbers.

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
        self.tokens = [
            t for t in self.TOKEN.findall(text) if t not in _SPACES and t not in _IGNORED
        ]
        self.bindings = bindings
        self.loose = loose_integers
        self.symbolic = symbolic
        self.face_value = face_value  # printed numbers exact, not intervals
        self.pos = 0
        self.symbols: set[str] = set()  # unbound symbols met (symbolic mode)

    # the two arithmetics: intervals (the default) or SymPy (symbolic=True)
    def _number(self, token: str):
        if self.symbolic:
            return sympy.Rational(token.replace("{,}", ""))
        if self.face_value:
            return iv.mpf(token.replace("{,}", ""))
        return _literal_interval(token, self.loose)

    def _integer(self, k: int):
        return sympy.Integer(k) if self.symbolic else iv.mpf(k)

    def _exp(self, a):
        return sympy.exp(a) if self.symbolic else iv.exp(a)

    def _sqrt(self, a):
        return sympy.sqrt(a) if self.symbolic else _sqrt(a)

    def _log(self, a):
        return sympy.log(a) if self.symbolic else _log(a)

    def _divide(self, a, b):
        if self.symbolic:
            if b == 0:
                raise NotNumeric("division by zero")
            return a / b
        return _divide(a, b)

    def _power(self, a, b):
        return a**b if self.symbolic else _power(a, b)

    def evaluate(self) -> Value:
        if not self.tokens:
            raise NotNumeric("empty")
        value = self.expression()
        if self.pos != len(self.tokens):
            raise NotNumeric(f"unexpected {self.tokens[self.pos]!r}")
        return value

    # expression := term (± term)* ; term := power ((× | · | / | juxtaposition) power)*
    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise NotNumeric(f"expected {expected!r}, got {token!r}")
        self.pos += 1
        return token

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
            value = value.map2(right, (lambda a, b: a + b) if op == "+" else (lambda a, b: a - b))
        return value

    def term(self) -> Value:
        value = self.product()
        while True:
            token = self.peek()
            if token in (r"\times", r"\cdot", "*"):
                self.take()
                value = value.map2(self.product(), lambda a, b: a * b)
            elif token == "/":
                self.take()
                value = value.map2(self.product(), self._divide)
            else:
                return value

    def product(self) -> Value:
        """Juxtaposed factors: 12nd^2, 0.4011\\,(1, 0), e^{-10}e^{0.5}."""
        value = self.power()
        while (token := self.peek()) is not None and self._starts_factor(token):
            value = value.map2(self.power(), lambda a, b: a * b)
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
            base = base.map1(lambda a: a / 100)
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


def _power(a, b):
    if b.a == b.b and b.a == int(b.a):
        return a ** int(b.a)
    if a.a <= 0:
        raise NotNumeric("non-integer power of a non-positive number")
    return iv.exp(b * iv.log(a))


def evaluate(member: str, bindings: dict[str, int], loose: bool, face: bool = False) -> Value:
    """The member's value; when its only obstacle is symbols that cancel (16d/7d),
    SymPy shows it constant and the value is taken with those symbols set to 1.
    `face`: the printed numbers taken at face value (points, not intervals)."""
    try:
        return TexArithmetic(member, bindings, loose, face_value=face).evaluate()
    except NotNumeric as why:
        if not str(why).startswith("symbol "):
            raise
        cancelling = _cancelling_symbols(member, tuple(sorted(bindings.items())))
        if cancelling is None:
            raise why from None
        return TexArithmetic(member, {**bindings, **dict.fromkeys(cancelling, 1)}, loose).evaluate()


@functools.cache
def _cancelling_symbols(member: str, bindings: tuple) -> tuple[str, ...] | None:
    """The unbound symbols of `member` when SymPy shows that they cancel (16d/7d),
    else None; cached, since simplify is the audit's costliest step."""
    reader = TexArithmetic(member, dict(bindings), symbolic=True)
    try:
        exact = reader.evaluate()
    except NotNumeric:
        return None
    if any(sympy.simplify(x).free_symbols for x in exact.items):
        return None
    return tuple(sorted(reader.symbols))


def show(value: Value) -> str:
    def one(x) -> str:
        mid = (x.a + x.b) / 2
        return f"{float(mid.a):.6g}"

    if value.vector:
        return "(" + ", ".join(one(x) for x in value.items) + ")"
    return one(value.items[0])


def meet(a: Value, b: Value) -> bool:
    if a.vector != b.vector or len(a.items) != len(b.items):
        return False
    return all(x.a <= y.b and y.a <= x.b for x, y in zip(a.items, b.items, strict=True))


def gap(a: Value, b: Value) -> str:
    def mid(x):
        return float(((x.a + x.b) / 2).a)

    gaps = [abs(mid(x) - mid(y)) for x, y in zip(a.items, b.items, strict=False)]
    return f"{max(gaps):.3g}" if gaps else "?"
