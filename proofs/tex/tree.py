"""Read a chapter's TeX formula into a small tree (`Node`), exactly or not at all.

The grammar is the chapters' own: relation chains (`=`, `:=`, `\\le`, `\\approx`, …), sums
and products kept in their written order, fractions, roots, powers, `e^{…}`, subscripts and
superscripts, `\\boldsymbol`, `\\mathrm{…}` names and functions, `^{\\mathsf{T}}`, norms,
inner products, `\\sum`, `\\underbrace`, `|V|`, tuples and `pmatrix`. Names: `\\boldsymbol{z}`
is `bold z`, distinct from `z`; Greek letters are their command names (`\\sigma` is `sigma`);
`d_{\\mathrm{ff}}` is the one name `d_ff`, `|V|` the name `|V|`, `\\mathrm{LN}` the function
`LN`. Anything outside the grammar raises `TexError` naming the token, and the cost is
bounded (MAX_TOKENS tokens, MAX_DEPTH levels, numbers of MAX_DIGITS digits): a chapter line is
text the package did not write. `proofs.tex.symbolic` evaluates a tree in a chapter's notation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import sympy

MAX_TOKENS = 2000  # a formula of a chapter has at most a few hundred tokens
MAX_DEPTH = 60  # nesting of groups, far beyond the chapters' (about 8)
MAX_DIGITS = 1_000  # of one number (the chapters' longest has 19)

RELATIONS = {
    "=": "=", ":=": ":=", r"\le": "<=", r"\leq": "<=", r"\ge": ">=", r"\geq": ">=",
    "<": "<", ">": ">", r"\ne": "!=", r"\neq": "!=", r"\approx": "≈",
}
_SPACING = {r"\,", r"\;", r"\:", r"\!", r"\ ", r"\quad", r"\qquad", "~", r"\left", r"\right",
            r"\big", r"\Big", r"\bigg", r"\Bigg", r"\bigl", r"\bigr", r"\Bigl", r"\Bigr",
            r"\displaystyle"}
_TOKEN = re.compile(
    r"\\begin\{pmatrix\}|\\end\{pmatrix\}|\\\\|\\[A-Za-z]+|\\.|:=|\d+(?:\{,\}\d{3})*(?:\.\d+)?"
    r"|[A-Za-z]|\S"
)
_NAMED_FONTS = (r"\mathrm", r"\operatorname", r"\mathsf", r"\text", r"\mathit")
_GREEK_VARIANTS = {r"\varepsilon": "epsilon", r"\epsilon": "epsilon"}
_LETTERS = {  # the commands that name a letter; any other command is refused
    "alpha", "beta", "gamma", "delta", "zeta", "eta", "theta", "iota", "kappa", "lambda",
    "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega",
    "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi",
    "Omega", "varphi", "vartheta", "varpi", "varrho", "varsigma", "ell",
}
_ELLIPSES = {r"\ldots", r"\cdots", r"\dots"}


class TexError(ValueError):
    """The formula is not in the grammar the chapters' formulas use."""


@dataclass(frozen=True)
class Node:
    """A node of a formula's tree: `op` and its operands (nodes, names, numbers)."""

    op: str
    args: tuple[Any, ...]

    def __repr__(self) -> str:
        return f"{self.op}{self.args!r}"


def tokens(tex: str) -> list[str]:
    out = [t for t in _TOKEN.findall(tex) if t not in _SPACING]
    if len(out) > MAX_TOKENS:
        raise TexError(f"too large: {len(out)} tokens (at most {MAX_TOKENS})")
    longest = max((sum(map(str.isdigit, t)) for t in out), default=0)
    if longest > MAX_DIGITS:
        raise TexError(f"too large: a number of {longest} digits (at most {MAX_DIGITS})")
    return out


class TokenCursor:
    """A position in a list of tokens, for the recursive-descent readers of TeX: look
    ahead, or take the next token (checked against the one expected)."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self, k: int = 0) -> str | None:
        i = self.pos + k
        return self.tokens[i] if i < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise self.mismatch(expected, token)
        self.pos += 1
        return token

    def mismatch(self, expected: str | None, token: str | None) -> Exception:
        """The error `take` raises when the next token is not the one expected."""
        return TexError(f"expected {expected or 'more'}, got {token!r}")


class _Parser(TokenCursor):
    def __init__(self, tex: str) -> None:
        super().__init__(tokens(tex))
        self.tex = tex
        self.depth = 0

    def mismatch(self, expected: str | None, token: str | None) -> Exception:
        return TexError(f"expected {expected or 'more'}, got {token!r} in {self.tex!r}")

    def nested(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise TexError(f"too deeply nested (more than {MAX_DEPTH} levels)")

    # grammar -----------------------------------------------------------------------
    def relation(self) -> Node:
        """expr (rel expr)*: a chain a = b = c, or a single expression."""
        parts = [self.expression()]
        ops = []
        while self.peek() in RELATIONS:
            ops.append(RELATIONS[self.take()])
            parts.append(self.expression())
        if self.peek() is not None:
            raise TexError(f"unexpected {self.peek()!r} in {self.tex!r}")
        return parts[0] if not ops else Node("chain", (tuple(ops), tuple(parts)))

    def expression(self) -> Node:
        self.nested()
        terms: list[tuple[int, Node]] = []
        sign = 1
        while self.peek() in ("+", "-", "−"):
            sign = -sign if self.take() != "+" else sign
        terms.append((sign, self.term()))
        while self.peek() in ("+", "-", "−", r"\pm"):
            op = self.take()
            if op == r"\pm":
                raise TexError(r"\pm is two formulas, not one")
            terms.append((1 if op == "+" else -1, self.term()))
        self.depth -= 1
        return terms[0][1] if terms == [(1, terms[0][1])] else Node("add", tuple(terms))

    def term(self) -> Node:
        value = self.product()
        while True:
            token = self.peek()
            if token in (r"\times", r"\cdot", "*"):
                self.take()
                value = Node("mul", (value, self.product()))
            elif token == "/":
                self.take()
                value = Node("div", (value, self.product()))
            elif token == r"\odot":
                self.take()
                value = Node("hadamard", (value, self.product()))
            elif token == r"\circ":
                self.take()
                value = Node("compose", (value, self.product()))
            else:
                return value

    def product(self) -> Node:
        factors = [self.power()]
        while self.starts_factor(self.peek()):
            factors.append(self.power())
        return factors[0] if len(factors) == 1 else Node("mul", tuple(factors))

    def starts_factor(self, token: str | None) -> bool:
        if token is None:
            return False
        if token == "|":  # |V| (a size) starts a factor; any other bar closes a group
            return bool(re.fullmatch(r"[A-Za-z]", self.peek(1) or "")) and self.peek(2) == "|"
        if token in RELATIONS or token in (")", "]", "}", ",", "+", "-", "−", "|", r"\|", "&",
                                           r"\rangle", r"\times", r"\cdot", "/", r"\odot",
                                           r"\end{pmatrix}", r"\\", ";", "^", "_", "'", r"\in",
                                           r"\to", r"\circ", r"\pm", r"\mapsto"):
            return False
        return True

    def power(self) -> Node:
        base = self.postfix(self.atom())
        while self.peek() == "^":
            self.take()
            if self.peek() == "{" and self.peek(1) == r"\mathsf" and self.peek(3) == "T":
                self.take("{")
                self.take(r"\mathsf")
                self.take("{")
                self.take("T")
                self.take("}")
                self.take("}")
                base = self.postfix(Node("T", (base,)))
            elif self.peek() == "T":
                self.take()
                base = self.postfix(Node("T", (base,)))
            else:
                exponent = self.argument()
                if base.op == "name" and self.peek() == "(" and exponent.op in ("name", "sub",
                                                                               "num"):
                    base = self.postfix(Node("name", (f"{base.args[0]}^{_label(exponent)}",)))
                else:
                    base = self.postfix(Node("pow", (base, exponent)))
        return base

    def postfix(self, node: Node) -> Node:
        """Calls f(x), subscripts x_i and primes after an atom."""
        while True:
            token = self.peek()
            if token == "_":
                self.take()
                node = Node("sub", (node, self.subscript()))
            elif token in ("(", "[") and node.op in ("name", "sub"):
                close = ")" if self.take() == "(" else "]"
                args = [self.expression()]
                while self.peek() == ",":
                    self.take()
                    args.append(self.expression())
                self.take(close)
                node = Node("call", (node, tuple(args)))
            elif token == "'":
                self.take()
                node = Node("prime", (node,))
            else:
                return node

    def subscript(self) -> Node:
        """A braced group (kept whole: `ij`, `1:i`, `\\mathrm{ff}`) or one token."""
        if self.peek() != "{":
            token = self.take()
            if re.fullmatch(r"\d+", token) and len(token) > 1:  # x_12 is x_{1}2
                self.tokens[self.pos:self.pos] = list(token[1:])
                token = token[0]
            return Node("text", (token,))
        self.take("{")
        start = self.pos
        depth = 1
        while depth:
            token = self.take()
            depth += token == "{"
            depth -= token == "}"
        inner = self.tokens[start:self.pos - 1]
        text = "".join(t for t in inner if t not in _NAMED_FONTS and t not in "{}")
        return Node("text", (text,))

    def argument(self) -> Node:
        token = self.peek()
        if token == "{":
            self.take()
            value = self.expression()
            self.take("}")
            return value
        if token is not None and re.fullmatch(r"\d+", token):
            self.take()
            if len(token) > 1:
                self.tokens[self.pos:self.pos] = list(token[1:])
            return Node("num", (sympy.Integer(token[0]),))
        return self.atom()

    def group_until(self, close: str) -> Node:
        value = self.expression()
        self.take(close)
        return value

    def atom(self) -> Node:
        token = self.peek()
        if token is None:
            raise TexError(f"{self.tex!r} ends early")
        if re.fullmatch(r"\d+(?:\{,\}\d{3})*(?:\.\d+)?", token):
            self.take()
            return Node("num", (sympy.Rational(token.replace("{,}", "")),))
        if token in ("(", "["):
            self.take()
            close = ")" if token == "(" else "]"
            items = [self.expression()]
            while self.peek() == ",":
                self.take()
                items.append(self.expression())
            self.take(close)
            return items[0] if len(items) == 1 else Node("tuple", tuple(items))
        if token == "{":
            self.take()
            return self.group_until("}")
        if token == r"\{":
            self.take()
            items = [self.expression()]
            while self.peek() == ",":
                self.take()
                items.append(self.expression())
            self.take(r"\}")
            return Node("set", tuple(items))
        if token == "|":
            self.take()
            if self.peek(1) == "|" and re.fullmatch(r"[A-Za-z]", self.peek() or ""):
                name = self.take()
                self.take("|")
                return Node("name", (f"|{name}|",))
            return Node("abs", (self.group_until("|"),))
        if token == r"\|":
            self.take()
            return Node("norm", (self.group_until(r"\|"),))
        if token == r"\langle":
            self.take()
            a = self.expression()
            self.take(",")
            b = self.expression()
            self.take(r"\rangle")
            return Node("inner", (a, b))
        if token in (r"\frac", r"\dfrac", r"\tfrac"):
            self.take()
            if self.peek() == "{" and self.peek(1) == r"\partial":
                return self.derivative()
            top, bottom = self.argument(), self.argument()
            return Node("div", (top, bottom))
        if token == r"\underbrace":  # \underbrace{x}_{label}: x
            self.take()
            value = self.argument()
            if self.peek() == "_":
                self.take()
                self.subscript()
            return value
        if token == r"\sqrt":
            self.take()
            return Node("sqrt", (self.argument(),))
        if token in (r"\sum", r"\prod", r"\max", r"\min"):
            return self.big_operator()
        if token == r"\lim":
            self.take()
            self.take("_")
            self.take("{")
            var = self.take()
            self.take(r"\to")
            target = self.expression()
            self.take("}")
            return Node("lim", (var, target, self.product()))
        if token in (r"\exp", r"\log", r"\ln"):
            self.take()
            arg = self.argument() if self.peek() == "{" else self.power()
            return Node("call", (Node("name", (token[1:],)), (arg,)))
        if token == r"\infty":
            self.take()
            return Node("num", (sympy.oo,))
        if token in _ELLIPSES:
            raise TexError(f"{token} stands for terms not written out")
        if token == r"\boldsymbol":
            self.take()
            self.take("{")
            inner = self.take()
            self.take("}")
            return Node("name", (f"bold {self.name_of(inner)}",))
        if token in _NAMED_FONTS:
            self.take()
            self.take("{")
            parts = []
            while self.peek() != "}":
                parts.append(self.take())
            self.take("}")
            return Node("name", ("".join(parts),))
        if token in (r"\mathbb", r"\mathcal"):
            raise TexError(f"{token} names a set, not a value")
        if token == r"\begin{pmatrix}":
            return self.matrix()
        if token == r"\delta":
            self.take()
            return Node("name", ("delta",))
        if token in _GREEK_VARIANTS or token[1:] in _LETTERS and token.startswith("\\"):
            self.take()
            return Node("name", (self.name_of(token),))
        if re.fullmatch(r"[A-Za-z]", token):
            self.take()
            return Node("name", (token,))
        raise TexError(f"unexpected {token!r} in {self.tex!r}")

    @staticmethod
    def name_of(token: str) -> str:
        if token in _GREEK_VARIANTS:
            return _GREEK_VARIANTS[token]
        return token[1:] if token.startswith("\\") else token

    def derivative(self) -> Node:
        """\\frac{\\partial f}{\\partial x}: f differentiated by the variable x."""
        self.take("{")
        self.take(r"\partial")
        top = self.expression()
        self.take("}")
        self.take("{")
        self.take(r"\partial")
        var = self.expression()
        self.take("}")
        return Node("diff", (top, var))

    def big_operator(self) -> Node:
        """\\sum_{j=1}^{n}, \\sum_{j \\in U}, \\sum_j, \\max_k, \\max_{1 \\le j \\le m}."""
        op = self.take()[1:]
        index, low, high, over = None, None, None, None
        if self.peek() == "_":
            self.take()
            if self.peek() == "{":
                self.take()
                if self.peek(1) in ("=",):
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
        body = self.product() if op in ("sum", "prod") else self.power()
        return Node(op, (index, low, high, over, body))

    def matrix(self) -> Node:
        self.take(r"\begin{pmatrix}")
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
        return Node("matrix", tuple(rows))


def _label(node: Node) -> str:
    """A name as written in a superscript: U, U_i, 2 (sigma^2(x) is one function)."""
    if node.op in ("name", "num"):
        return str(node.args[0])
    base, index = node.args
    return f"{_label(base)}_{index.args[0]}"


_CONDITION = re.compile(r"^(?P<main>.*?)\\quad\s*\((?P<condition>[^()]*)\)\s*$", re.S)
_TYPE = re.compile(r"\\in\s*\\mathbb\{R\}(?:\^\{[^{}]*\}|\^\w)?\s*$")  # A := … \\in R^{n×m}
_MEMBERSHIP = re.compile(r"^\s*([A-Za-z])\s*\\(in|notin)\s*([A-Za-z])\s*$")


def parse(tex: str) -> Node:
    """The tree of a formula (a relation chain or an expression); TexError otherwise.

    A trailing `\\quad (i \\in U)` restricts the formula's free index: the tree is then
    Node("where", (formula, (index, "in" or "notin", set name))); a trailing range
    `\\quad (i = 1, \\ldots, n)` only repeats the index's range and is dropped.
    """
    tex = _TYPE.sub("", tex.strip().rstrip(".。"))  # a display may end its sentence
    condition = _CONDITION.match(tex)
    if condition is None:
        return _Parser(tex).relation()
    formula = _Parser(condition.group("main")).relation()
    membership = _MEMBERSHIP.match(condition.group("condition"))
    if membership is not None:
        return Node("where", (formula, membership.groups()))
    if re.fullmatch(r"\s*[A-Za-z]\s*=\s*1\s*,\s*\\ldots\s*,\s*[A-Za-z]\s*",
                    condition.group("condition")):
        return formula
    raise TexError(f"condition {condition.group('condition')!r} is not a membership or a range")
