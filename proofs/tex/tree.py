"""Read a chapter's TeX formula into a small tree (`Node`), exactly or not at all.

The grammar is the chapters' own: relation chains (`=`, `:=`, `\\le`, `\\approx`, …), sums
and products kept in their written order, fractions, roots, powers, `e^{…}`, subscripts and
superscripts, `\\boldsymbol`, `\\mathrm{…}` names and functions, `^{\\mathsf{T}}`, norms,
inner products, `\\sum`, `\\underbrace`, `|V|`, percentages, tuples and `pmatrix`. Names:
`\\boldsymbol{z}` is `bold z`, distinct from `z`; Greek letters are their command names
(`\\sigma` is `sigma`); `d_{\\mathrm{ff}}` is the one name `d_ff`, `|V|` the name `|V|`,
`\\mathrm{LN}` the function `LN`. Anything outside the grammar raises `TexError` naming the
token, and the cost is bounded (MAX_TOKENS tokens, MAX_DEPTH levels, numbers of MAX_DIGITS
digits): a chapter line is text the package did not write. `proofs.tex.symbolic` evaluates
a tree in a chapter's notation, `proofs.tex.intervals` its arithmetic on printed numbers.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from typing import Any

import sympy

from proofs.tex.tokens import JUXTAPOSED, LETTER, NUMBER, tokens

MAX_TOKENS = 2000  # a formula of a chapter has at most a few hundred tokens
MAX_DEPTH = 60  # nesting of groups, far beyond the chapters' (about 8)
MAX_DIGITS = 1_000  # of one number (the chapters' longest has 19)

RELATIONS = {
    "=": "=",
    ":=": ":=",
    r"\le": "<=",
    r"\leq": "<=",
    r"\ge": ">=",
    r"\geq": ">=",
    "<": "<",
    ">": ">",
    r"\ne": "!=",
    r"\neq": "!=",
    r"\approx": "≈",
}
_NAMED_FONTS = (r"\mathrm", r"\operatorname", r"\mathsf", r"\text", r"\mathit")
_GREEK_VARIANTS = {r"\varepsilon": "epsilon", r"\epsilon": "epsilon"}
_LETTERS = frozenset(  # the commands that name a letter; any other command is refused
    "alpha beta gamma delta zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau "
    "upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega "
    "varphi vartheta varpi varrho varsigma ell".split()
)
_ELLIPSES = {r"\ldots", r"\cdots", r"\dots"}
_ENDS_FACTORS = frozenset(  # after a factor, these end a product rather than continue it
    [")", "]", "}", ",", "+", "-", "−", "|", r"\|", "&", r"\rangle", r"\times", r"\cdot", "/"]
    + [r"\odot", r"\end{pmatrix}", r"\\", ";", "^", "_", "'", r"\in", r"\to", r"\circ"]
    + [r"\pm", r"\mapsto", "*", r"\rceil", r"\rfloor"]
)
_SIGNS = ("+", "-", "−")
_NOTATION_SIGNS = (*_SIGNS, r"\pm")
_ARITHMETIC_OPERATORS = {r"\times": "mul", r"\cdot": "mul", "*": "mul", "/": "div"}
_NOTATION_OPERATORS = _ARITHMETIC_OPERATORS | {r"\odot": "hadamard", r"\circ": "compose"}
EXPONENT = "^{…}"  # in `TexError.before`: an exponent being read
# what continues a product of printed numbers, besides numbers and letters
_ROUNDINGS = {r"\lceil": ("ceil", r"\rceil"), r"\lfloor": ("floor", r"\rfloor")}
_TRIGONOMETRIC = (r"\sin", r"\cos", r"\tan", r"\tanh")
_OPENING_BRACKETS = ("(", r"\left(", r"\big(", r"\Big(", r"\bigl(", r"\Bigl(")
ARITHMETIC_FACTORS = frozenset(
    ["(", "{", r"\frac", r"\dfrac", r"\tfrac", r"\sqrt", r"\exp", r"\log", r"\ln"]
    + [r"\begin{pmatrix}", JUXTAPOSED, r"\pi", r"\lceil", r"\lfloor"]  # \pi: where arithmetic says
    + list(_TRIGONOMETRIC)  # \cos 1 + \cos 0.1 in radians
)


class TexError(ValueError):
    """The formula is not in the grammar the chapters' formulas use.

    Where the reading stopped, for a reader that words it its own way: `kind` is "token" (a
    token that begins nothing the grammar reads), "expected" (not the token `expected`;
    None: any), "trailing" (more after a whole formula), "end" (the formula ends early),
    "nested" (too deeply nested) or "" (anything else), and `token` the token it stopped at
    (None at the end). `parse_expression` adds `before`, what was read before the stop.
    """

    def __init__(
        self, message: str, kind: str = "", token: str | None = None, expected: str | None = None
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.token = token
        self.expected = expected
        self.before: tuple[Node | str, ...] = ()


@dataclass(frozen=True)
class Node:
    """A node of a formula's tree: `op` and its operands (nodes, names, numbers).

    `token` is the token the node was read from, for a reader that judges the text itself:
    a number's printed form (`1{,}024`, `0.50`; empty for a one-digit argument such as the 2
    of `x^2` or the 1 and 4 of `\\frac14`), a name's letter or command (`z`, `\\sigma`,
    `\\boldsymbol`), the command or bracket opening any other construct, the operator of an
    infix or postfix one. Trees compare and print without it.
    """

    op: str
    args: tuple[Any, ...]
    token: str = field(default="", compare=False)

    def __repr__(self) -> str:
        return f"{self.op}{self.args!r}"


def _bounded(found: list[str]) -> list[str]:
    """The tokens; TexError past MAX_TOKENS tokens or a number of MAX_DIGITS digits."""
    if len(found) > MAX_TOKENS:
        raise TexError(f"too large: {len(found)} tokens (at most {MAX_TOKENS})")
    longest = max((sum(map(str.isdigit, t)) for t in found), default=0)
    if longest > MAX_DIGITS:
        raise TexError(f"too large: a number of {longest} digits (at most {MAX_DIGITS})")
    return found


class _Parser:
    """Recursive descent over a formula's tokens.

    Every nested group passes through an atom, an exponent or a call's arguments, where the
    depth is counted. What was read is recorded for `before`: each atom, power, product,
    term and expression with the span of its tokens (`read`), and the constructs being read
    (`open`, by their first token, EXPONENT for an exponent).
    """

    def __init__(self, found: list[str], tex: str, max_depth: int, notation: bool) -> None:
        self.tokens = found
        self.pos = 0
        self.tex = tex
        self.depth = 0
        self.max_depth = max_depth
        self.notation = notation  # notation, or printed arithmetic (see parse_expression)
        self.read: list[tuple[int, int, Node]] = []
        self.open: list[tuple[int, str]] = []

    # the cursor ----------------------------------------------------------------------------
    def peek(self, k: int = 0) -> str | None:
        i = self.pos + k
        return self.tokens[i] if i < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise TexError(
                f"expected {expected or 'more'}, got {token!r} in {self.tex!r}",
                "expected",
                token,
                expected,
            )
        self.pos += 1
        return token

    def trailing(self) -> TexError:
        token = self.peek()
        return TexError(f"unexpected {token!r} in {self.tex!r}", "trailing", token)

    def enter(self, token: str) -> int:
        """One level deeper, reading the construct `token` opens; its start."""
        self.depth += 1
        if self.depth > self.max_depth:
            raise TexError(f"too deeply nested (more than {self.max_depth} levels)", "nested")
        self.open.append((self.pos, token))
        return self.pos

    def leave(self) -> None:
        self.depth -= 1
        self.open.pop()

    def done(self, start: int, node: Node) -> Node:
        """The node, recorded as read from `start` to here."""
        self.read.append((start, self.pos, node))
        return node

    def before(self) -> tuple[Node | str, ...]:
        """What was read before the stop, left to right: the whole atoms and powers read
        (none inside another) and the first tokens of the constructs open at the stop."""
        parts: list[tuple[int, Node | str]] = []
        end = -1
        for start, stop, node in sorted(self.read, key=lambda r: (r[0], -r[1])):
            if start >= end:
                parts.append((start, node))
                end = stop
        parts += self.open
        return tuple(part for _, part in sorted(parts, key=lambda p: p[0]))

    # grammar -------------------------------------------------------------------------------
    def relation(self) -> Node:
        """expr (rel expr)*: a chain a = b = c, or a single expression."""
        parts = [self.expression()]
        ops = []
        while self.peek() in RELATIONS:
            ops.append(RELATIONS[self.take()])
            parts.append(self.expression())
        if self.peek() is not None:
            raise self.trailing()
        return parts[0] if not ops else Node("chain", (tuple(ops), tuple(parts)))

    def expression(self) -> Node:
        start = self.pos
        terms: list[tuple[int, Node]] = []
        sign = 1
        while self.peek() in _SIGNS:
            sign = -sign if self.take() != "+" else sign
        terms.append((sign, self.term()))
        while self.peek() in (_NOTATION_SIGNS if self.notation else _SIGNS):
            if self.peek() == r"\pm":
                raise TexError(r"\pm is two formulas, not one", "trailing", r"\pm")
            op = self.take()
            terms.append((1 if op == "+" else -1, self.term()))
        if terms == [(1, terms[0][1])]:
            return terms[0][1]
        return self.done(start, Node("add", tuple(terms)))

    def term(self) -> Node:
        start = self.pos
        value = self.product()
        operators = _NOTATION_OPERATORS if self.notation else _ARITHMETIC_OPERATORS
        while (token := self.peek()) in operators:
            self.take()
            value = self.done(start, Node(operators[token], (value, self.product()), token))
        return value

    def product(self) -> Node:
        start = self.pos
        factors = [self.power()]
        while self.starts_factor(self.peek()):
            factors.append(self.power())
        return factors[0] if len(factors) == 1 else self.done(start, Node("mul", tuple(factors)))

    def trigonometric(self, token: str) -> Node:
        """`\\sin(x)`, `\\sin^2 x`, and `\\cos\\omega_k\\Delta`: without brackets the
        argument is the product of the factors written after it, up to a bracket, an
        operator or another function (`\\sin x\\cos y` is sin(x) cos(y))."""
        self.take()
        power = None
        if self.peek() == "^":
            self.take()
            power = self.argument() if self.peek() == "{" else self.atom()
        if self.peek() in _OPENING_BRACKETS:
            arg = self.atom()
        else:
            factors = [self.power()]
            while (
                self.starts_factor(self.peek())
                and self.peek() not in _OPENING_BRACKETS
                and self.peek() not in _TRIGONOMETRIC
                and self.peek() not in (r"\exp", r"\log", r"\ln")
            ):
                factors.append(self.power())
            arg = factors[0] if len(factors) == 1 else Node("mul", tuple(factors))
        call = Node("call", (Node("name", (token[1:],), token), (arg,)), token)
        return call if power is None else Node("pow", (call, power), "^")

    def starts_factor(self, token: str | None) -> bool:
        if token is None:
            return False
        if not self.notation:
            return token in ARITHMETIC_FACTORS or bool(
                LETTER.fullmatch(token) or NUMBER.fullmatch(token)
            )
        if token == "|":  # |V| (a size) starts a factor; any other bar closes a group
            return bool(LETTER.fullmatch(self.peek(1) or "")) and self.peek(2) == "|"
        return token not in RELATIONS and token not in _ENDS_FACTORS

    def power(self) -> Node:
        """An atom with its postfixes and superscripts (powers, transposes), then `\\%`."""
        start = self.pos
        atom = self.atom()
        base = first = self.postfix(atom)
        if base is not atom:
            self.done(start, base)
        while self.peek() == "^":
            sans_t = [self.peek(k) for k in (1, 2, 4)] == ["{", r"\mathsf", "T"]
            if self.notation and sans_t:
                for expected in ("^", "{", r"\mathsf", "{", "T", "}", "}"):
                    self.take(expected)
                base = self.postfix(Node("T", (base,), "^"))
            elif self.notation and self.peek(1) == "T":
                self.take("^")
                self.take("T")
                base = self.postfix(Node("T", (base,), "^"))
            elif self.notation and base.op == "name" and self._starred():
                base = self.postfix(Node("name", (f"{base.args[0]}*",), base.token))
            else:
                self.enter(EXPONENT)
                self.take("^")
                exponent = self.argument()
                self.leave()
                if (
                    self.notation
                    and base.op == "name"
                    and self.peek() == "("
                    and exponent.op in ("name", "sub", "num")
                ):
                    name = f"{base.args[0]}^{_label(exponent)}"
                    base = self.postfix(Node("name", (name,), base.token))
                else:
                    base = self.postfix(Node("pow", (base, exponent)))
        if self.peek() == r"\%":
            base = Node("percent", (base,), self.take())
        return base if base is first else self.done(start, base)

    def _starred(self) -> bool:
        """`^*`, `^{*}`, `^{\\ast}` after a name, taken: a mark of a name of its own (x* the
        optimum, Δ* the best gap), as a prime is."""
        for marks in (("^", "*"), ("^", "{", "*", "}"), ("^", "{", r"\ast", "}")):
            if tuple(self.peek(k) for k in range(len(marks))) == marks:
                for mark in marks:
                    self.take(mark)
                return True
        return False

    def postfix(self, node: Node) -> Node:
        """Calls f(x), subscripts x_i and primes after an atom (none in arithmetic)."""
        while self.notation:
            token = self.peek()
            if token == "_":
                self.take()
                node = Node("sub", (node, self.subscript()), "_")
            elif token in ("(", "[") and node.op in ("name", "sub", "prime"):
                close = ")" if token == "(" else "]"
                self.enter(token)
                self.take()
                args = self.items(close)
                self.leave()
                node = Node("call", (node, tuple(args)), token)
            elif token == "'":
                node = Node("prime", (node,), self.take())
            else:
                break
        return node

    def items(self, close: str) -> list[Node]:
        """expression (, expression)* up to the closing token, which is taken."""
        found = [self.expression()]
        while self.peek() == ",":
            self.take()
            found.append(self.expression())
        self.take(close)
        return found

    def subscript(self) -> Node:
        """A braced group (kept whole: `ij`, `1:i`, `\\mathrm{ff}`) or one token."""
        if self.peek() != "{":
            token = self.take()
            if token.isdecimal() and len(token) > 1:  # x_12 is x_{1}2
                self.tokens[self.pos : self.pos] = list(token[1:])
                token = token[0]
            return Node("text", (token,))
        self.take("{")
        start = self.pos
        depth = 1
        while depth:
            token = self.take()
            depth += token == "{"
            depth -= token == "}"
        inner = self.tokens[start : self.pos - 1]
        text = "".join(
            t for t in inner if t not in _NAMED_FONTS and t not in ("{", "}", JUXTAPOSED)
        )
        return Node("text", (text,))

    def argument(self) -> Node:
        """A braced group or one token: \\frac14, x^2, \\sqrt2 (the first digit of a
        printed integer is an argument of its own, the rest read after it, as TeX does)."""
        token = self.peek()
        if token == "{":
            self.take()
            value = self.expression()
            self.take("}")
            return value
        if token is not None and NUMBER.fullmatch(token) and "." not in token:
            self.take()
            if len(token) > 1:
                self.tokens[self.pos : self.pos] = list(token[1:])
            return Node("num", (sympy.Integer(token[0]),))
        return self.atom()

    def atom(self) -> Node:
        """One factor, recorded with its span (after the spacing that set it apart from a
        name before it, `K\\,(x)`, which is read as nothing but that)."""
        if self.peek() == JUXTAPOSED:
            self.take()
        token = self.peek()
        start = self.enter(token or "")
        if token is None:
            raise TexError(f"{self.tex!r} ends early", "end")
        if token == "d" and self._slashed_leibniz():
            raise TexError("a derivative written d…/d…, not a quotient")
        node = self.construct(token)
        self.leave()
        return self.done(start, node)

    def construct(self, token: str) -> Node:
        """The construct an atom's first token opens."""
        if LETTER.fullmatch(token):
            self.take()
            letter = Node("name", (token,), token)
            if not self.notation and self.peek() == "_":  # d_k: in arithmetic, one name
                underscore = self.take()
                return Node("sub", (letter, self.subscript()), underscore)
            return letter
        if NUMBER.fullmatch(token):
            self.take()
            return Node("num", (_value(token),), token)
        if token in ("(", "[", "{"):
            self.take()
            items = self.items({"(": ")", "[": "]", "{": "}"}[token])
            return items[0] if len(items) == 1 else Node("tuple", tuple(items), token)
        if token == r"\{":
            self.take()
            return Node("set", tuple(self.items(r"\}")), token)
        if token == "|":
            self.take()
            if self.peek(1) == "|" and LETTER.fullmatch(self.peek() or ""):
                name = self.take()
                self.take("|")
                return Node("name", (f"|{name}|",), token)
            return Node("abs", (self.group_until("|"),), token)
        if token == r"\|":
            self.take()
            return Node("norm", (self.group_until(r"\|"),), token)
        if token in _ROUNDINGS:  # \lceil x \rceil, \lfloor x \rfloor
            self.take()
            op, closing = _ROUNDINGS[token]
            return Node(op, (self.group_until(closing),), token)
        if token == r"\langle":
            self.take()
            a = self.expression()
            self.take(",")
            return Node("inner", (a, self.group_until(r"\rangle")), token)
        if token in (r"\frac", r"\dfrac", r"\tfrac"):
            self.take()
            if self.notation and self.peek() == "{" and self.peek(1) == r"\partial":
                return self.derivative()
            start = self.pos
            top, bottom = self.argument(), self.argument()
            if self._leibniz(start):
                raise TexError("a derivative written \\frac{d…}{d…}, not a quotient")
            return Node("div", (top, bottom), token)
        if token == r"\underbrace":  # \underbrace{x}_{label}: x
            self.take()
            value = self.argument()
            if self.peek() == "_":
                self.take()
                self.subscript()
            return replace(value, token=token)
        if token == r"\sqrt":
            self.take()
            if self.peek() == "[":  # \sqrt[n]{x}
                self.take()
                degree = self.group_until("]")
                return Node("root", (degree, self.argument()), token)
            return Node("sqrt", (self.argument(),), token)
        if token in (r"\sum", r"\prod", r"\max", r"\min"):
            return self.big_operator()
        if token == r"\int" and self.notation:
            return self.integral()
        if token == r"\lim":
            for expected in (r"\lim", "_", "{"):
                self.take(expected)
            var = self.take()
            self.take(r"\to")
            target = self.group_until("}")
            return Node("lim", (var, target, self.product()), token)
        if token in (r"\exp", r"\log", r"\ln"):
            self.take()
            # \log_2 x is ln x / ln 2: the base a subscript names
            base = None
            if token == r"\log" and self.peek() == "_":
                self.take()
                base = self.argument()
            # \exp(x)^{1/N} is (e^x)^{1/N}, as \sin(x)^2 is sin(x)^2; \log x^2 is log(x^2)
            bracketed = self.peek() in _OPENING_BRACKETS
            arg = (
                self.argument()
                if self.peek() == "{"
                else self.atom()
                if bracketed
                else self.power()
            )
            call = Node("call", (Node("name", (token[1:],), token), (arg,)), token)
            if base is None:
                return call
            logarithm = Node("name", ("log",), token)
            return Node("div", (call, Node("call", (logarithm, (base,)), token)), token)
        if token in _TRIGONOMETRIC:
            return self.trigonometric(token)
        if token == r"\infty":
            self.take()
            return Node("num", (sympy.oo,), token)
        if token in _ELLIPSES:
            raise TexError(f"{token} stands for terms not written out", "token", token)
        if token == r"\boldsymbol":
            self.take()
            self.take("{")
            inner = self.take()
            self.take("}")
            return Node("name", (f"bold {self.name_of(inner)}",), token)
        if token in _NAMED_FONTS:
            self.take()
            self.take("{")
            parts = []
            while self.peek() != "}":
                parts.append(self.take())
            self.take("}")
            return Node("name", ("".join(parts),), token)
        if token in (r"\mathbb", r"\mathcal"):
            raise TexError(f"{token} names a set, not a value", "token", token)
        if token == r"\begin{pmatrix}":
            return self.matrix()
        if token in _GREEK_VARIANTS or token[1:] in _LETTERS and token.startswith("\\"):
            self.take()
            return Node("name", (self.name_of(token),), token)
        raise TexError(f"unexpected {token!r} in {self.tex!r}", "token", token)

    def group_until(self, close: str) -> Node:
        value = self.expression()
        self.take(close)
        return value

    @staticmethod
    def name_of(token: str) -> str:
        if token in _GREEK_VARIANTS:
            return _GREEK_VARIANTS[token]
        return token[1:] if token.startswith("\\") else token

    def _slashed_leibniz(self) -> bool:
        """Whether the tokens from here are dβ/dT (dH/dβ) or d/ds: a derivative, which
        d·β/(d·T) would misread."""
        top = 2 if _is_variable(self.peek(1) or "") else 1
        return (
            self.peek(top) == "/"
            and self.peek(top + 1) == "d"
            and _is_variable(self.peek(top + 2) or "")
        )

    def _leibniz(self, start: int) -> bool:
        """Whether the two groups read from `start` are {d…}{dx} (\\frac{d\\beta}{dT},
        \\frac{d}{dx}): a derivative, which d·β/(d·T) would misread; \\frac{d+1}{d} and
        \\frac{d_k}{d_v} stay quotients."""
        groups, k = [], start
        for _ in range(2):
            depth, first = 0, k
            while k < len(self.tokens):
                depth += {"{": 1, "}": -1}.get(self.tokens[k], 0)
                k += 1
                if depth == 0:
                    break
            groups.append(self.tokens[first + 1 : k - 1])
        top, bottom = groups
        variable = bottom[2:] == [] or (bottom[2:3] == ["_"] and _one_group(bottom[3:]))
        return (
            top[:1] == ["d"]
            and (len(top) == 1 or _is_variable(top[1]))
            and bottom[:1] == ["d"]
            and len(bottom) >= 2
            and _is_variable(bottom[1])
            and variable  # dT, dx_i: d\sigma^2 over d\sigma^2 is a quotient
        )

    def derivative(self) -> Node:
        """\\frac{\\partial f}{\\partial x}: f differentiated by the variable x."""
        self.take("{")
        self.take(r"\partial")
        top = self.group_until("}")
        self.take("{")
        self.take(r"\partial")
        var = self.group_until("}")
        return Node("diff", (top, var), r"\partial")

    def big_operator(self) -> Node:
        """\\sum_{j=1}^{n}, \\sum_{j \\in U}, \\sum_j, \\max_k, \\max_{1 \\le j \\le m}."""
        token = self.take()
        index, low, high, over = None, None, None, None
        if self.peek() == "_":
            self.take()
            if self.peek() == "{":
                self.take()
                if self.peek(1) == "=":
                    index = self.take()
                    self.take("=")
                    low = self.expression()
                elif self.peek(1) == r"\in":
                    index = self.take()
                    self.take(r"\in")
                    over = self.expression()
                elif self.peek(2) in (r"\le", r"\leq") and self.peek(4) in (r"\le", r"\leq"):
                    low = self.expression()
                    self.take()
                    index = self.take()
                    self.take()
                    high = self.expression()
                else:
                    index = self.take()
                self.take("}")
            else:
                index = self.take()
        if self.peek() == "^":
            self.take()
            high = self.argument()
        op = token[1:]
        body = self.product() if op in ("sum", "prod") else self.power()
        return Node(op, (index, low, high, over, body), token)

    def integral(self) -> Node:
        """\\int_{a}^{b} f(t)\\,dt: f integrated over t from a to b (the factors up to the
        d and the letter that close it)."""
        token = self.take()
        self.take("_")
        low = self.argument()
        self.take("^")
        high = self.argument()
        factors: list[Node] = []
        while not (self.peek() == "d" and LETTER.fullmatch(self.peek(1) or "")):
            if self.peek() is None:
                raise TexError(f"an integral without its d in {self.tex!r}", "expected", None, "d")
            if self.peek() == "/" and factors:  # e^{-t}/(1 + t)\,dt
                self.take()
                before = factors[0] if len(factors) == 1 else Node("mul", tuple(factors))
                factors = [Node("div", (before, self.power()))]
                continue
            factors.append(self.power())
        self.take("d")
        var = self.take()
        if not factors:
            raise TexError(f"an integral of nothing in {self.tex!r}", "token", token)
        body = factors[0] if len(factors) == 1 else Node("mul", tuple(factors))
        return Node("int", (var, low, high, body), token)

    def matrix(self) -> Node:
        token = self.take(r"\begin{pmatrix}")
        rows: list[tuple[Node, ...]] = []
        row: list[Node] = []
        while self.peek() != r"\end{pmatrix}":
            if self.peek() == r"\\":
                self.take()
                rows.append(tuple(row))
                row = []
                continue
            if self.peek() == "&":
                self.take()
                continue
            row.append(self.expression())
        self.take(r"\end{pmatrix}")
        if row:
            rows.append(tuple(row))
        return Node("matrix", tuple(rows), token)


def _value(printed: str) -> sympy.Rational:
    """The exact value of a printed number (1{,}024, 0.50), from its digits as integers:
    a chapter prints many numbers, and SymPy reads a string several times slower."""
    whole, _, places = printed.replace("{,}", "").partition(".")
    if not places:
        return sympy.Integer(int(whole))
    return sympy.Rational(int(whole + places), 10 ** len(places))


def _label(node: Node) -> str:
    """A name as written in a superscript: U, U_i, 2 (sigma^2(x) is one function)."""
    if node.op in ("name", "num"):
        return str(node.args[0])
    base, index = node.args
    return f"{_label(base)}_{index.args[0]}"


def parse_expression(found: list[str], max_depth: int = MAX_DEPTH, notation: bool = True) -> Node:
    """The tree of one expression given as its tokens (a member of a relation).

    A reader with bounds of its own passes its bounded tokens and depth. With
    `notation=False` it is read as printed arithmetic, which has no notation: no transposes
    (`W^T` is a power), functions (`d(d + 1)` and `d^2(d + 1)` are products), indexing
    (`(PX)_i`), primes, ⊙, ∘, ∂ or ±; a subscript only completes a name (`d_k`), and a
    product continues only with what can be a number (a number, a letter, a group, a
    fraction, a root, `\\exp`, `\\log`, `\\ln`, a matrix: `2\\sigma` ends after the 2).

    The TexError of a formula outside the grammar carries `before`: the whole parts read
    before the stop (nodes) and the first tokens of the constructs open at it (EXPONENT for
    an exponent), left to right, so that a reader that evaluates as it reads can tell what it
    would have met first.

    >>> parse_expression(tokens(r"\\frac{1{,}024}{2} \\times 10^{-6}"))
    mul(div(num(1024,), num(2,)), pow(num(10,), add((-1, num(6,)),)))
    """
    parser = _Parser(found, "", max_depth, notation)
    try:
        node = parser.expression()
        if parser.pos < len(parser.tokens):
            raise parser.trailing()
    except TexError as stop:
        stop.before = parser.before()
        raise
    return node


_CONDITION = re.compile(r"^(?P<main>.*?)\\quad\s*\((?P<condition>[^()]*)\)\s*$", re.S)
_TYPE = re.compile(r"\\in\s*\\mathbb\{R\}(?:\^\{[^{}]*\}|\^\w)?\s*$")  # A := … \\in R^{n×m}
_MEMBERSHIP = re.compile(r"^\s*([A-Za-z])\s*\\(in|notin)\s*([A-Za-z])\s*$")
_RANGE = re.compile(r"\s*[A-Za-z]\s*=\s*1\s*,\s*\\ldots\s*,\s*[A-Za-z]\s*")


def _relation(tex: str) -> Node:
    return _Parser(_bounded(tokens(tex)), tex, MAX_DEPTH, True).relation()


@functools.lru_cache(maxsize=1 << 14)
def parse(tex: str) -> Node:
    """The tree of a formula (a relation chain or an expression); TexError otherwise.
    A tree is read once per text and process (trees are immutable): the rules that read
    the same formula, and the audits of a chapter's versions in an editor, share it.

    A trailing `\\quad (i \\in U)` restricts the formula's free index: the tree is then
    Node("where", (formula, (index, "in" or "notin", set name))); a trailing range
    `\\quad (i = 1, \\ldots, n)` only repeats the index's range and is dropped; any other
    trailing group is a factor like any other.

    >>> parse(r"31\\% = 0.31")
    chain(('=',), (percent(num(31,),), num(31/100,)))
    """
    tex = _TYPE.sub("", tex.strip().rstrip(".。"))  # a display may end its sentence
    condition = _CONDITION.match(tex)
    if condition is None:
        return _relation(tex)
    membership = _MEMBERSHIP.match(condition.group("condition"))
    if membership is not None:
        return Node("where", (_relation(condition.group("main")), membership.groups()))
    if _RANGE.fullmatch(condition.group("condition")):
        return _relation(condition.group("main"))
    try:  # no condition: a factor set apart by a quad, K \quad (x/6)
        return _relation(tex)
    except TexError:
        raise TexError(
            f"condition {condition.group('condition')!r} is not a membership or a range"
        ) from None


BINDING = ("sum", "prod", "int", "lim")  # the constructs that bind their first argument


def tree_names(node: object) -> set[str]:
    """The names a tree uses (not the variables its sums, products, integrals and limits
    bind: the t of `\\int_0^x \\varphi(t)\\,dt`)."""
    found: set[str] = set()
    if isinstance(node, tuple):
        for item in node:
            found |= tree_names(item)
    elif isinstance(node, Node):
        if node.op in BINDING and isinstance(node.args[0], str):
            *bounds, body = node.args[1:]
            found |= tree_names(tuple(bounds)) | (tree_names(body) - {node.args[0]})
        elif node.op == "name":
            found.add(node.args[0])
        elif node.op == "sub" and node.args[0].op == "name" and node.args[1].op == "text":
            found.add(f"{node.args[0].args[0]}_{node.args[1].args[0]}")
            found.add(node.args[0].args[0])
        else:
            for arg in node.args:
                found |= tree_names(arg)
    return found


def _one_group(tokens: list[str]) -> bool:
    """Whether the tokens are one subscript: a token, or one brace group."""
    if len(tokens) == 1:
        return tokens[0] not in ("{", "}")
    depth = 0
    for k, token in enumerate(tokens):
        depth += {"{": 1, "}": -1}.get(token, 0)
        if depth == 0:
            return k == len(tokens) - 1 and tokens[0] == "{"
    return False


def _is_variable(token: str) -> bool:
    """A letter or a command naming one (x, \\beta), what d differentiates by."""
    return (token.isalpha() and len(token) == 1) or (
        token.startswith("\\") and token[1:].isalpha() and token not in _NOT_VARIABLES
    )


_NOT_VARIABLES = {
    r"\frac",
    r"\dfrac",
    r"\tfrac",
    r"\sqrt",
    r"\cdot",
    r"\times",
    r"\left",
    r"\right",
}
