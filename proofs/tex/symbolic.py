"""Evaluate a formula's tree (proofs.tex.tree) in SymPy, under a chapter's notation.

`Evaluator` gives each name of the notation its meaning at an explicit size: a size is an
integer, a vector a column `Matrix` of symbols, a function a Python callable returning
SymPy values (the chapter's definitions). Products keep their order, so matrices multiply
as written, and a transpose, a norm, an inner product or a Hadamard product mean what they
mean in the chapters. A name that is both a value and a function (μ := μ(x) in a proof,
then μ(y)) has its function under `name()`; a subscript on a name is indexing (`z_i` is
entry i of `bold z` when the notation says so). A power or an exponential too large to
compute is refused with `TexError`, as anything the notation cannot evaluate.
"""

from __future__ import annotations

import difflib
import functools
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

import sympy
from sympy.integrals.manualintegrate import manualintegrate

from proofs.tex.functions import KNOWN, known
from proofs.tex.tree import Node, TexError

MAX_POWER_DIGITS = 4_000  # decimal digits of a number's power: 10^{10^{10}} is refused
MAX_EXP_ARGUMENT = 10_000  # |x| of e^x for a number x: e^{e^{e^{10}}} is refused
# digits of an exact power's numerator or denominator: (999/1000)^{10000}, 30,000 of them, is
# worked at FLOAT_DIGITS instead (its error 10^{-56} of it; printed numbers have 4 to 10 digits)
MAX_EXACT_DIGITS = 1_000
FLOAT_DIGITS = 60


def _refuse_huge_power(b: Value, e: Value) -> None:
    """b^e for numbers b, e whose result would have more than MAX_POWER_DIGITS digits
    (or its reciprocal): refused before SymPy computes it exactly; 0 to a negative
    power is no number."""
    if not (getattr(b, "is_number", False) and getattr(e, "is_number", False)):
        return
    if b == 0 and sympy.N(e, 15) < 0:
        raise TexError("a negative power of zero")
    size, power = abs(sympy.N(b, 15)), abs(sympy.N(e, 15))
    if size not in (0, 1) and power * abs(sympy.log(size, 10).evalf(15)) > MAX_POWER_DIGITS:
        raise TexError(f"too large: a power of more than {MAX_POWER_DIGITS} digits")


def _exact_digits(b: Value, e: Value) -> float:
    """The decimal digits of the larger of b^e's numerator and denominator, for a rational
    b and a number e; 0 for anything else (a symbol, an irrational base)."""
    if not (isinstance(b, sympy.Rational) and getattr(e, "is_number", False)) or b == 0:
        return 0.0
    largest = max(abs(b.p), b.q)
    return float(abs(sympy.N(e, 15))) * math.log10(largest) if largest > 1 else 0.0


class Indexed:
    """A value whose subscripts pass through unchanged: `sigma_i` is `target[i]` with the
    caller's own index convention (a symbolic index, or 0-based positions)."""

    def __init__(self, target: Any) -> None:
        self.target = target

    def __getitem__(self, index: Any) -> Any:
        return self.target[index]


Value = Any  # a SymPy Expr, a Matrix, a tuple (a vector written out) or a callable


class Evaluator:
    """Evaluates trees in an environment `names` (name -> value or callable).

    `index_ranges` gives the default range of an index summed without limits
    (`\\sum_j` over 1..n); `entries` maps a name to the vector or matrix its
    subscripts index (`sigma` -> `bold sigma`, so that `\\sigma_i` is entry i).
    """

    def __init__(
        self,
        names: Mapping[str, Value],
        index_ranges: Mapping[str, Callable[[Evaluator], range]] | None = None,
        entries: Mapping[str, str] | None = None,
    ) -> None:
        self.names = dict(names)
        self.index_ranges = dict(index_ranges or {})
        self.entries = dict(entries or {})

    def bound(self, **values: Value) -> Evaluator:
        """A copy with more names bound (an index of a sum, a free i and j)."""
        return Evaluator({**self.names, **values}, self.index_ranges, self.entries)

    def __call__(self, node: Node) -> Value:
        return getattr(self, "_" + node.op)(*node.args)

    # leaves ------------------------------------------------------------------------------
    def _num(self, value: sympy.Expr) -> Value:
        return value

    def _text(self, text: str) -> Value:
        if text in self.names:
            return self.names[text]
        if re.fullmatch(r"\d+", text):
            return sympy.Integer(text)
        raise TexError(f"subscript {text!r} is not a bound index")

    def _name(self, name: str) -> Value:
        if name in self.names:
            return self.names[name]
        inner = self.names.get(name[1:-1]) if name[:1] == name[-1:] == "|" else None
        if isinstance(inner, sympy.Expr):  # |x| of a number x: its absolute value
            return sympy.Abs(inner)
        value = known(name)
        if value is None:
            nearest = difflib.get_close_matches(
                name, list(dict.fromkeys([*self.names, *KNOWN])), n=3, cutoff=0.5
            )
            said = f"; nearest: {', '.join(nearest)}" if nearest else ""
            raise TexError(f"{name!r} has no meaning in this notation{said}")
        return value

    def _matrix(self, *rows: tuple[Node, ...]) -> Value:
        return sympy.Matrix([[self(x) for x in row] for row in rows])

    def _tuple(self, *items: Node) -> Value:
        values = [self(x) for x in items]
        if all(isinstance(v, sympy.MatrixBase) for v in values):
            return sympy.Matrix.vstack(*[v.T for v in values])  # rows
        return sympy.Matrix(values)

    def _set(self, *items: Node) -> Value:
        return frozenset(self(x) for x in items)

    # structure ---------------------------------------------------------------------------
    def _sub(self, base: Node, index: Node) -> Value:
        """x_i: an entry of a vector or matrix (1-based), a named size (d_k), or the
        entry of the vector the notation says the name's subscripts index."""
        if base.op == "name":
            whole = f"{base.args[0]}_{index.args[0]}" if index.op == "text" else None
            if whole is not None and whole in self.names:
                return self._name(whole)
            target = self.entries.get(base.args[0])
            if target is not None:
                return self._index(self._name(target), index)
        value = self(base)
        if callable(value) and index.op == "text":  # delta_{ij}: a function of the indices
            return value(*(self._text(c) for c in index.args[0]))
        return self._index(value, index)

    def _index(self, value: Value, index: Node) -> Value:
        if isinstance(value, Indexed):
            return value[self._text(index.args[0]) if index.op == "text" else self(index)]
        if not isinstance(value, sympy.MatrixBase | tuple):
            raise TexError(f"cannot index {value!r}")
        text = index.args[0] if index.op == "text" else None
        if text is not None and len(text) == 2 and all(c in self.names for c in text):
            if not isinstance(value, sympy.MatrixBase):
                raise TexError(f"two indices of a tuple {value!r}")
            i, j = (int(self.names[c]) for c in text)  # A_{ij}
            return value[i - 1, j - 1]
        i = int(self._text(text)) if text is not None else int(self(index))
        if isinstance(value, sympy.MatrixBase) and value.cols > 1 and value.rows > 1:
            return value[i - 1, :].T  # a row of a matrix, as a column vector
        return value[i - 1]

    def _function(self, function: Node) -> Value:
        """What a name applied to arguments stands for: its meaning as a function (`mu()`,
        when `mu` is also a value), else its meaning; a name read as a function with its
        power (sigma^2(x)) that the notation does not define is that power of the name."""
        name = function.args[0] if function.op == "name" else None
        if name is not None and f"{name}()" in self.names:
            return self.names[f"{name}()"]
        if name is not None and "^" in name and name not in self.names:
            base, _, label = name.partition("^")
            power = (
                Node("num", (sympy.Integer(label),)) if label.isdigit() else Node("name", (label,))
            )
            return self._pow(Node("name", (base,)), power)
        return self(function)

    def _call(self, function: Node, args: tuple[Node, ...]) -> Value:
        f = self._function(function)
        values = [self(a) for a in args]
        if not callable(f):
            if len(values) == 1:  # juxtaposition: a (b) is a product
                return _times(f, values[0])
            raise TexError(f"{function!r} is not a function")
        return f(*values)

    # arithmetic --------------------------------------------------------------------------
    def _add(self, *terms: tuple[int, Node]) -> Value:
        values = [sign * self(node) for sign, node in terms]
        if any(_scalar(v) for v in values):  # a 1x1 product added to a scalar is a scalar
            values = [
                v[0] if isinstance(v, sympy.MatrixBase) and v.shape == (1, 1) else v for v in values
            ]
        total = values[0]
        for value in values[1:]:
            total = total + value
        return total

    def _mul(self, *factors: Node) -> Value:
        value = self(factors[0])
        for node in factors[1:]:
            value = _times(value, self(node))
        return value

    def _div(self, top: Node, bottom: Node) -> Value:
        b = self(bottom)
        if isinstance(b, sympy.MatrixBase) and b.shape == (1, 1):
            b = b[0]
        if isinstance(b, sympy.MatrixBase):
            raise TexError("division by a vector or matrix")
        if b == 0:
            raise TexError("division by zero")
        return self(top) / b

    def _pow(self, base: Node, exponent: Node) -> Value:
        if base.op == "call" and len(base.args[1]) == 1:
            function = self._function(base.args[0])
            if not callable(function):  # K(x/6)^{-g}: no function, so the power is the group's
                return _times(function, self._pow(base.args[1][0], exponent))
        if base.op == "name" and base.args[0] == "e" and "e" not in self.names:
            x = self(exponent)
            if getattr(x, "is_number", False) and abs(sympy.N(x, 15)) > MAX_EXP_ARGUMENT:
                raise TexError(f"too large: e^x with |x| above {MAX_EXP_ARGUMENT}")
            return sympy.exp(x)
        b, e = self(base), self(exponent)
        if isinstance(b, sympy.MatrixBase):
            if b.is_square:
                return b**e
            raise TexError("power of a non-square matrix")
        _refuse_huge_power(b, e)
        if _exact_digits(b, e) > MAX_EXACT_DIGITS:
            return sympy.Float(b, FLOAT_DIGITS) ** e
        return b**e

    def _T(self, x: Node) -> Value:
        value = self(x)
        if not isinstance(value, sympy.MatrixBase):
            raise TexError("transpose of a scalar")
        if x.op == "tuple" and value.cols == 1:  # (1, 2, 3)^T: a column, written as a row
            return value
        return value.T

    def _sqrt(self, x: Node) -> Value:
        return sympy.sqrt(self(x))

    def _root(self, degree: Node, x: Node) -> Value:
        return sympy.root(self(x), self(degree))

    def _percent(self, x: Node) -> Value:
        return self(x) / 100

    def _abs(self, x: Node) -> Value:
        value = self(x)
        return (
            value.applyfunc(sympy.Abs) if isinstance(value, sympy.MatrixBase) else sympy.Abs(value)
        )

    def _ceil(self, x: Node) -> Value:
        return sympy.ceiling(self(x))

    def _floor(self, x: Node) -> Value:
        return sympy.floor(self(x))

    def _norm(self, x: Node) -> Value:
        value = self(x)
        return sympy.sqrt(sum(v**2 for v in value))

    def _inner(self, a: Node, b: Node) -> Value:
        left, right = self(a), self(b)
        if not isinstance(left, sympy.MatrixBase) or not isinstance(right, sympy.MatrixBase):
            raise TypeError("an inner product of what is not a vector here")
        return (left.T * right)[0]

    def _hadamard(self, a: Node, b: Node) -> Value:
        return sympy.matrix_multiply_elementwise(self(a), self(b))

    def _prime(self, f: Node) -> Value:
        derivative = _derivative(self(f)(_PRIME_VARIABLE))
        return lambda x: derivative.subs(_PRIME_VARIABLE, x)

    def _compose(self, f: Node, g: Node) -> Value:
        outer, inner = self(f), self(g)
        return lambda *x: outer(inner(*x))

    def _diff(self, top: Node, var: Node) -> Value:
        f, x = self(top), self(var)
        if isinstance(x, sympy.MatrixBase):
            if not isinstance(f, sympy.MatrixBase):
                raise TexError("derivative of a scalar by a vector")
            return f.jacobian(x)
        return sympy.diff(f, x)

    def _lim(self, var: str, target: Node, body: Node) -> Value:
        symbol = sympy.Symbol(var, positive=True)
        value = self.bound(**{var: symbol})(body)
        to = self(target)
        if isinstance(value, sympy.MatrixBase):
            return value.applyfunc(lambda v: sympy.limit(v, symbol, to))
        return sympy.limit(value, symbol, to)

    # big operators -----------------------------------------------------------------------
    def _range(self, index: str, low: Node | None, high: Node | None, over: Node | None) -> list:
        if over is not None:
            values = self(over)
            return sorted(values) if isinstance(values, frozenset) else list(values)
        if low is not None and high is not None:
            return list(range(int(self(low)), int(self(high)) + 1))
        if index in self.index_ranges:
            return list(self.index_ranges[index](self))
        raise TexError(f"the range of {index} is not stated")

    def _fold(self, op: str, index: str, low, high, over, body: Node) -> Value:
        values = [
            self.bound(**{index: sympy.Integer(k)})(body)
            for k in self._range(index, low, high, over)
        ]
        if not values:
            raise TexError(f"empty {op}")
        if op == "sum" and all(isinstance(v, sympy.Expr) for v in values):
            return sympy.Add(*values)  # at once: term by term, SymPy re-sorts each partial sum
        if op == "sum":  # matrices
            total = values[0]
            for v in values[1:]:
                total = total + v
            return total
        if op == "prod":
            total = values[0]
            for v in values[1:]:
                total = _times(total, v)
            return total
        return (sympy.Max if op == "max" else sympy.Min)(*values)

    def _int(self, var: str, low: Node, high: Node, body: Node) -> Value:
        """The integral of the body over `var` from low to high, by an antiderivative in
        closed form (∫ e^{-t^2/2} dt in erf); none found, it is not evaluated, rather than
        integrated numerically at every point a statement is tried at."""
        t = sympy.Symbol(f"integrated {var}", real=True)
        value = self.bound(**{var: t})(body)
        if not isinstance(value, sympy.Expr):
            raise TexError(f"the integrand over {var} is not a number")
        antiderivative = _antiderivative(value, t)
        if antiderivative is None:
            raise TexError(f"the integral over {var} has no antiderivative in closed form")
        try:
            upper, lower = (
                _at_limit(antiderivative, t, self(high)),
                _at_limit(antiderivative, t, self(low)),
            )
        except (NotImplementedError, ValueError, TypeError) as failed:
            raise TexError(  # Piecewise((…, λ < 1/2)) at ∞: a limit SymPy does not take
                f"the integral over {var}: no limit of its antiderivative at its bounds"
            ) from failed
        return upper - lower

    def _sum(self, *args: Any) -> Value:
        return self._fold("sum", *args)

    def _prod(self, *args: Any) -> Value:
        return self._fold("prod", *args)

    def _max(self, index, low, high, over, body) -> Value:
        if index is None:  # \max(a, b)
            values = self(body)
            return sympy.Max(*values) if isinstance(values, sympy.MatrixBase) else values
        return self._fold("max", index, low, high, over, body)

    def _min(self, index, low, high, over, body) -> Value:
        if index is None:
            values = self(body)
            return sympy.Min(*values) if isinstance(values, sympy.MatrixBase) else values
        return self._fold("min", index, low, high, over, body)

    def _chain(self, ops: tuple[str, ...], parts: tuple[Node, ...]) -> Value:
        raise TexError("a relation is judged member by member, not evaluated")


def _scalar(value: Value) -> bool:
    return not isinstance(value, sympy.MatrixBase | tuple | frozenset) and not callable(value)


def _times(a: Value, b: Value) -> Value:
    """a b as written: the matrix product when both are matrices (a 1x1 result stays a
    matrix, so that n = 1 keeps its shapes; sums and comparisons take it as a scalar),
    else the scalar product."""
    if isinstance(a, sympy.MatrixBase) and isinstance(b, sympy.MatrixBase):
        if a.cols != b.rows:
            raise TexError(f"shapes {a.shape} and {b.shape} do not multiply")
        return a * b
    return a * b


_PRIME_VARIABLE = sympy.Dummy("t")  # one variable for every f', so that equal f' are equal


@functools.lru_cache(maxsize=256)
def _derivative(expression: sympy.Expr) -> sympy.Expr:
    """d/dt of a function's value at t: the same f' is evaluated at every point drawn."""
    return sympy.diff(expression, _PRIME_VARIABLE)


@functools.lru_cache(maxsize=256)
def _antiderivative(integrand: sympy.Expr, t: sympy.Symbol) -> sympy.Expr | None:
    """An antiderivative by SymPy's rule-based integration (fast, and it gives up where
    Risch's algorithm could run long); None when it finds none."""
    found = manualintegrate(integrand, t)
    return None if found.has(sympy.Integral) else found


@functools.lru_cache(maxsize=1024)
def _at_limit(antiderivative: sympy.Expr, t: sympy.Symbol, at: sympy.Expr) -> sympy.Expr:
    """The antiderivative at a limit of integration; at ±∞ its limit there."""
    if at in (sympy.oo, -sympy.oo):
        return sympy.limit(antiderivative, t, at)
    return antiderivative.subs(t, at)
