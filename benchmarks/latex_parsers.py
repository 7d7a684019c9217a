"""Which TeX reader reads more of the chapters' formulas: ours (`proofs.tex.symbolic`), SymPy's
`parse_latex` (lark and ANTLR backends, the ANTLR one in its default, non-strict mode) or
latex2sympy2_extended (keeping case: the chapters' q and Q differ). A parser that does not
import is reported "not installed"; the rest still run.

The formulas: every statement (`statement_lines`) of every element's statement and proof in
both chapters (a definition's trailing type `\\in \\mathbb{R}^{…}` dropped), less declarations
(a set or a map: `\\in`, `\\subset`, `\\mapsto`, `\\to` outside `\\lim_{…}`, `\\mathbb`,
`\\mathcal`, `\\perp`; a list or range `, \\ldots`; a fragment ending in an operator, `J_l :=`).

For each parser:
1. read: the formulas read without an exception within --timeout seconds each into a SymPy
   value (ours: into its tree; a SymPy value needs a notation);
2. correct: the SAMPLE formulas read as they mean. Each meaning is written by hand once, as a
   function of a namespace. Plainly every name is a symbol (`\\boldsymbol{z}` z, `d_{\\mathrm{ff}}`
   d_ff, `\\sigma_i` sigma_i, `|V|` |V|), every function undefined (transpose, inner product,
   norm, Hadamard product and "component i of" included) and products commute. A maintained
   parser's reading, its names normalised alike (`d_{k}`, `\\text{diag}`, Abs(V) as |V|), is
   correct when it equals the plain meaning: the same relation, sides equal structurally or
   by simplify(a - b) == 0. In every reading e is Euler's number and pi is π. Ours is judged
   under the chapter's notation (the element's Evaluator at explicit sizes, the sample's
   index values) where the sample uses the notation's vectors and matrices, against the
   meaning in that notation (so the order of matrix products counts for ours only); its
   other samples are its tree read plainly, a name being a function only where the notation
   makes it one (`s(1-s)` is a product; so is `T(n)`);
3. time: the wall time of one run over all formulas, grammars built beforehand.

It prints a Markdown table and, with --verbose, every misreading of the sample. A reading runs
under an interval timer (SIGALRM): `benchmarks.symbolic_timing.in_child` returns no result, and
a fork per formula would be timed with the reading.

Run from the repository root: PYTHONPATH=. python benchmarks/latex_parsers.py [--verbose]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import signal
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import sympy
from sympy.core.function import AppliedUndef
from sympy.logic.boolalg import BooleanAtom

from proofs.book.registry import CHAPTERS, load_all
from proofs.reader import read_chapter
from proofs.reader.math import statement_lines
from proofs.tex.symbolic import Evaluator
from proofs.tex.tree import Node, parse

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
TIMEOUT = 10.0  # seconds for one formula's reading; the slowest here takes under one

# Collecting the formulas ------------------------------------------------------------------

_TYPE = re.compile(r"\s*\\in\s*\\mathbb\{R\}(\^.*)?$", re.S)
_LIMIT = re.compile(r"\\lim_\{[^{}]*\}")
_DECLARATION = re.compile(
    r"\\(?:in|notin|subset|mapsto|to|mathbb|mathcal|perp)(?![A-Za-z])|,\s*\\[lc]?dots"
    r"|\\[lc]?dots\s*,|(?::=|=|\\odot|\\times|[+\-])\s*$"
)


def formula(statement: str) -> str | None:
    """The statement as a formula (a definition's trailing type dropped), None for a
    declaration."""
    tex = (_TYPE.sub("", statement) if ":=" in statement else statement).strip()
    return None if _DECLARATION.search(_LIMIT.sub("", tex)) or not tex else tex


def chapter_formulas(path: Path) -> list[str]:
    """Every formula of the elements' statements and proofs, in the chapter's order."""
    document = read_chapter(path)
    spans = [s for e in document.elements for s in (e.statement, e.proof) if s is not None]
    statements = (
        s
        for span in spans
        for m in document.math_in(*span)
        for _, s in statement_lines(m.line, m.tex)
    )
    return [tex for tex in map(formula, statements) if tex is not None]


# Reading one formula, within a time limit ---------------------------------------------------


class TimedOut(BaseException):
    """A reading ran past its limit (a BaseException: no parser's `except Exception`
    swallows it)."""


def within(seconds: float, run: Callable[[], Any]) -> Any:
    """run(), stopped by SIGALRM after `seconds` with TimedOut."""

    def stop(signum: int, frame: object) -> None:
        raise TimedOut

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return run()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def quietly(seconds: float, run: Callable[[], Any]) -> Any:
    """run() within `seconds`, its warnings and stderr chatter (ANTLR's) silenced."""
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        return within(seconds, run)


@dataclass(frozen=True)
class Reading:
    """A parser's result, or why there is none (and the TeX token it stopped at, when it
    says)."""

    value: Any = None
    error: str = ""
    at: str = ""


def attempt(read: Callable[[str], Any], tex: str, timeout: float) -> Reading:
    """read(tex), quietly within `timeout` seconds; a result that is neither a SymPy value
    nor our tree (lark's ambiguous Tree) is no reading."""
    try:
        value = quietly(timeout, lambda: read(tex))
    except TimedOut:
        return Reading(error=f"timed out after {timeout:g} s")
    except Exception as why:  # a parser's own error of any kind is its failure to read
        return _failure(why, tex)
    if not isinstance(value, sympy.Basic | sympy.MatrixBase | Node):
        return Reading(error=f"returned a {type(value).__name__}, not a SymPy value")
    return Reading(value)


def _failure(error: Exception, tex: str) -> Reading:
    """The exception and its first line, or the TeX from the column it names (lark's)."""
    message = (str(error).strip().splitlines() or [""])[0]
    column = re.search(r"\bcol (\d+)", message)
    if column is None:
        return Reading(error=f"{type(error).__name__}: {message[:80]}")
    rest = tex[int(column.group(1)) - 1 :]
    token = re.match(r"\\[A-Za-z]+|\S", rest)
    return Reading(
        error=f"{type(error).__name__} at {rest[:20]!r}", at=token.group() if token else ""
    )


# The meaning of a name: plainly, or under a chapter's notation --------------------------------

_FONT = re.compile(r"\\?(?:boldsymbol|mathrm|mathsf|mathbf|operatorname|text)\{([^{}]*)\}")


def plain_name(name: str) -> str:
    """A name without fonts, braces and backslashes: `d_{\\mathrm{ff}}` is d_ff, our
    `bold z` and latex2sympy's `boldsymbol{z}` are z."""
    name = name.removeprefix("bold ")
    while (stripped := _FONT.sub(r"\1", name)) != name:
        name = stripped
    name = re.sub(r"[\\{}\s]", "", name)
    return {"varepsilon": "epsilon"}.get(name, name)


class Plain:
    """Names as plain SymPy: symbols, undefined functions, commuting products."""

    def name(self, key: str) -> Any:
        return sympy.Symbol(plain_name(key))

    def entry(self, key: str, index: str) -> Any:
        return sympy.Symbol(f"{plain_name(key)}_{index}")

    def apply(self, key: str, *args: Any) -> Any:
        """f(x); sigma^2(x) is sigma(x)**2."""
        base, _, power = key.partition("^")
        if power.isdigit():
            return sympy.Function(plain_name(base))(*args) ** int(power)
        return sympy.Function(plain_name(key))(*args)

    def component(self, value: Any, index: str) -> Any:
        return sympy.Function("component")(value, sympy.Symbol(index))

    def transpose(self, x: Any) -> Any:
        return sympy.Function("transpose")(x)

    def inner(self, a: Any, b: Any) -> Any:
        return sympy.Function("inner")(a, b)

    def norm(self, x: Any) -> Any:
        return sympy.Function("norm")(x)

    def hadamard(self, a: Any, b: Any) -> Any:
        return sympy.Function("hadamard")(a, b)

    def diff(self, f: Any, x: Any) -> Any:
        return sympy.Derivative(f, x)

    def sum(self, index: str, low: Any, high: Any, body: Callable[[Any], Any]) -> Any:
        return sympy.Sum(body(self), (sympy.Symbol(index), low, high))


class Notation:
    """Names as a chapter's notation gives them at an element (its Evaluator's names)."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator, self.names = evaluator, evaluator.names

    def name(self, key: str) -> Any:
        return self.names[key]

    def _position(self, index: str) -> int:
        return int(self.names.get(index, index))

    def entry(self, key: str, index: str) -> Any:
        """d_k, b_1 by their own names; delta_ij applied to i, j; sigma_i entry i of sigma."""
        if f"{key}_{index}" in self.names:
            return self.names[f"{key}_{index}"]
        value, positions = self.names[key], [self._position(c) for c in index]
        if callable(value):
            return value(*positions)
        return (
            value[positions[0] - 1]
            if len(positions) == 1
            else value[positions[0] - 1, positions[1] - 1]
        )

    def apply(self, key: str, *args: Any) -> Any:
        return self.names[key](*args)

    def component(self, value: Any, index: str) -> Any:
        return value[self._position(index) - 1]

    def transpose(self, x: Any) -> Any:
        return x.T

    def inner(self, a: Any, b: Any) -> Any:
        return (a.T * b)[0]

    def norm(self, x: Any) -> Any:
        return sympy.sqrt(sum(v**2 for v in x))

    def hadamard(self, a: Any, b: Any) -> Any:
        return sympy.matrix_multiply_elementwise(a, b)

    def diff(self, f: Any, x: Any) -> Any:
        return sympy.diff(f, x)

    def sum(self, index: str, low: Any, high: Any, body: Callable[[Any], Any]) -> Any:
        return sum(
            body(Notation(self.evaluator.bound(**{index: sympy.Integer(k)})))
            for k in range(int(low), int(high) + 1)
        )


PLAIN = Plain()
Namespace = Plain | Notation
_RELATIONS = {
    "=": sympy.Eq,
    ":=": sympy.Eq,
    "<=": sympy.Le,
    ">=": sympy.Ge,
    "<": sympy.Lt,
    ">": sympy.Gt,
    "!=": sympy.Ne,
}


def relation(op: str, a: Any, b: Any) -> sympy.Basic:
    """a op b unevaluated (a definition := is an equality)."""
    return _RELATIONS[op](_immutable(a), _immutable(b), evaluate=False)


def _immutable(value: Any) -> Any:
    return sympy.ImmutableMatrix(value) if isinstance(value, sympy.MatrixBase) else value


# The hand-labelled sample --------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """A formula of a chapter (a statement or a member of one, verbatim) and its meaning,
    written once as a function of a namespace (Plain or Notation)."""

    chapter: str  # the key of its Chapter
    element: str  # the element's number: the notation it is read under
    tex: str
    meaning: Callable[[Namespace], Any]
    notation: bool = False  # ours judged under the chapter's notation, else plainly
    indices: dict[str, int] = field(default_factory=dict)  # free indices' values there


SA, TB = "self-attention", "transformer-block"
_E, _PI, _SQRT = sympy.E, sympy.pi, sympy.sqrt


def _sigma_z(v: Namespace) -> Any:
    return v.apply("sigma", v.name("bold z"))


def _mlp(v: Namespace) -> Any:
    hidden = v.transpose(v.name("W_1")) * v.name("bold x") + v.entry("bold b", "1")
    return v.transpose(v.name("W_2")) * v.apply("ReLU", hidden) + v.entry("bold b", "2")


def _layer_norm(v: Namespace) -> Any:
    x = v.name("bold x")
    centred = x - v.apply("mu", x) * v.name("bold 1")
    scale = _SQRT(v.apply("sigma^2", x) + v.name("epsilon"))
    return v.hadamard(v.name("bold gamma"), centred / scale) + v.name("bold beta")


def _ln_jacobian(v: Namespace) -> Any:
    one, y, d = v.name("bold 1"), v.name("bold y"), v.name("d")
    inside = v.name("I") - one * v.transpose(one) / d - y * v.transpose(y) / d
    return inside / v.name("sigma")


def _matrix(*rows: tuple[Any, ...]) -> sympy.ImmutableMatrix:
    return sympy.ImmutableMatrix(rows)


SAMPLE = (
    Sample(
        SA,
        "命題 3.2",
        r"\delta_{ij}\sigma_i - \sigma_i\sigma_j",
        lambda v: (
            v.entry("delta", "ij") * v.entry("bold sigma", "i")
            - v.entry("bold sigma", "i") * v.entry("bold sigma", "j")
        ),
        True,
        {"i": 2, "j": 2},
    ),
    Sample(
        SA,
        "命題 3.2",
        r"\frac{\partial \sigma_i}{\partial z_j} = \sigma_i(\delta_{ij} - \sigma_j)",
        lambda v: relation(
            "=",
            v.diff(v.entry("bold sigma", "i"), v.entry("bold z", "j")),
            v.entry("bold sigma", "i") * (v.entry("delta", "ij") - v.entry("bold sigma", "j")),
        ),
        True,
        {"i": 1, "j": 2},
    ),
    Sample(
        SA,
        "命題 3.2",
        r"J(\boldsymbol{z}) = \mathrm{diag}(\boldsymbol{\sigma})"
        r" - \boldsymbol{\sigma}\boldsymbol{\sigma}^{\mathsf{T}}",
        lambda v: relation(
            "=",
            v.apply("J", v.name("bold z")),
            v.apply("diag", v.name("bold sigma"))
            - v.name("bold sigma") * v.transpose(v.name("bold sigma")),
        ),
        True,
    ),
    Sample(
        SA,
        "定義 2.2",
        r"\sigma(\boldsymbol{z})_i := \frac{e^{z_i}}{\sum_{j=1}^{n} e^{z_j}}",
        lambda v: relation(
            ":=",
            v.component(_sigma_z(v), "i"),
            _E ** v.entry("bold z", "i")
            / v.sum("j", 1, v.name("n"), lambda w: _E ** w.entry("bold z", "j")),
        ),
        True,
        {"i": 2},
    ),
    Sample(
        SA,
        "命題 3.1",
        r"\sum_{i=1}^{n} \sigma(\boldsymbol{z})_i = 1",
        lambda v: relation(
            "=", v.sum("i", 1, v.name("n"), lambda w: w.component(_sigma_z(w), "i")), 1
        ),
        True,
    ),
    Sample(
        SA,
        "命題 3.1",
        r"\sigma(\boldsymbol{z} + c\boldsymbol{1}) = \sigma(\boldsymbol{z})",
        lambda v: relation(
            "=", v.apply("sigma", v.name("bold z") + v.name("c") * v.name("bold 1")), _sigma_z(v)
        ),
        True,
    ),
    Sample(
        SA,
        "命題 3.1",
        r"\sigma(P\boldsymbol{z}) = P\sigma(\boldsymbol{z})",
        lambda v: relation(
            "=", v.apply("sigma", v.name("P") * v.name("bold z")), v.name("P") * _sigma_z(v)
        ),
        True,
    ),
    Sample(
        SA,
        "命題 3.2",
        r"J(\boldsymbol{z})\boldsymbol{1} = \boldsymbol{0}",
        lambda v: relation(
            "=", v.apply("J", v.name("bold z")) * v.name("bold 1"), v.name("bold 0")
        ),
        True,
    ),
    Sample(
        SA,
        "定義 4.1",
        r"A := \sigma\!\left( \frac{Q K^{\mathsf{T}}}{\sqrt{d_k}} \right)",
        lambda v: relation(
            ":=",
            v.name("A"),
            v.apply("sigma", v.name("Q") * v.transpose(v.name("K")) / _SQRT(v.name("d_k"))),
        ),
        True,
    ),
    Sample(
        SA,
        "定義 4.1",
        r"\mathrm{Attn}(Q, K, V) := A\,V",
        lambda v: relation(
            ":=", v.apply("Attn", v.name("Q"), v.name("K"), v.name("V")), v.name("A") * v.name("V")
        ),
        True,
    ),
    Sample(
        SA,
        "定理 5.2",
        r"QK^{\mathsf{T}}/\sqrt{d_k}",
        lambda v: v.name("Q") * v.transpose(v.name("K")) / _SQRT(v.name("d_k")),
        True,
    ),
    Sample(
        SA,
        "定理 5.2",
        r"P^{\mathsf{T}}P = I",
        lambda v: relation("=", v.transpose(v.name("P")) * v.name("P"), v.name("I")),
        True,
    ),
    Sample(
        SA,
        "例 4.3",
        r"XX^{\mathsf{T}}/\sqrt2",
        lambda v: v.name("X") * v.transpose(v.name("X")) / _SQRT(2),
        True,
    ),
    Sample(
        SA,
        "例 4.3",
        r"\frac{1}{\sqrt2}\begin{pmatrix} 1 & 0 & 1 \\ 0 & 1 & 1 \\ 1 & 1 & 2 \end{pmatrix}",
        lambda v: _matrix((1, 0, 1), (0, 1, 1), (1, 1, 2)) / _SQRT(2),
    ),
    Sample(
        SA,
        "演習 10.2",
        r"\begin{pmatrix} s(1-s) & -s(1-s) \\ -s(1-s) & (1-s)s \end{pmatrix}",
        lambda v: _matrix(
            (v.name("s") * (1 - v.name("s")), -v.name("s") * (1 - v.name("s"))),
            (-v.name("s") * (1 - v.name("s")), (1 - v.name("s")) * v.name("s")),
        ),
    ),
    Sample(
        SA,
        "演習 10.2",
        r"2s(1-s) = \tfrac12 - 2(s - \tfrac12)^2",
        lambda v: relation(
            "=",
            2 * v.name("s") * (1 - v.name("s")),
            sympy.Rational(1, 2) - 2 * (v.name("s") - sympy.Rational(1, 2)) ** 2,
        ),
    ),
    Sample(
        SA,
        "命題 4.4",
        r"E[\langle \boldsymbol{q}, \boldsymbol{k}\rangle] = 0",
        lambda v: relation("=", v.apply("E", v.inner(v.name("bold q"), v.name("bold k"))), 0),
        True,
    ),
    Sample(
        SA,
        "命題 4.4",
        r"\mathrm{Var}\!\left(\frac{\langle \boldsymbol{q}, \boldsymbol{k}\rangle}"
        r"{\sqrt{d_k}}\right) = 1",
        lambda v: relation(
            "=",
            v.apply("Var", v.inner(v.name("bold q"), v.name("bold k")) / _SQRT(v.name("d_k"))),
            1,
        ),
        True,
    ),
    Sample(
        SA,
        "命題 4.4",
        r"E[q_ik_iq_jk_j]",
        lambda v: v.apply(
            "E",
            v.entry("bold q", "i")
            * v.entry("bold k", "i")
            * v.entry("bold q", "j")
            * v.entry("bold k", "j"),
        ),
    ),
    Sample(
        SA,
        "命題 4.4",
        r"\mathrm{Cov}(q_ik_i, q_jk_j)",
        lambda v: v.apply(
            "Cov",
            v.entry("bold q", "i") * v.entry("bold k", "i"),
            v.entry("bold q", "j") * v.entry("bold k", "j"),
        ),
    ),
    Sample(
        SA,
        "命題 4.4",
        r"\mathrm{Var}(q_i) + (E[q_i])^2",
        lambda v: (
            v.apply("Var", v.entry("bold q", "i")) + v.apply("E", v.entry("bold q", "i")) ** 2
        ),
    ),
    Sample(
        SA,
        "補題 A.1",
        r"E[X_1]E[Y]",
        lambda v: v.apply("E", v.entry("X", "1")) * v.apply("E", v.name("Y")),
    ),
    Sample(
        SA,
        "命題 7.2",
        r"d_k = d/h",
        lambda v: relation("=", v.name("d_k"), v.name("d") / v.name("h")),
    ),
    Sample(SA, "例 4.5", r"\sqrt{d_k}", lambda v: _SQRT(v.name("d_k"))),
    Sample(
        SA,
        "命題 7.2",
        r"\underbrace{4nd^2}_{\text{射影}} + \underbrace{2n^2 d}_{\text{点数と重みつき和}}",
        lambda v: 4 * v.name("n") * v.name("d") ** 2 + 2 * v.name("n") ** 2 * v.name("d"),
    ),
    Sample(
        SA,
        "命題 7.2",
        r"4nd^2 + 2n^2d",
        lambda v: 4 * v.name("n") * v.name("d") ** 2 + 2 * v.name("n") ** 2 * v.name("d"),
    ),
    Sample(
        SA,
        "命題 7.1",
        r"3(d\cdot hd_k + hd_k)",
        lambda v: 3 * (v.name("d") * v.name("h") * v.name("d_k") + v.name("h") * v.name("d_k")),
    ),
    Sample(SA, "命題 7.2", r"n \cdot n \cdot d_k", lambda v: v.name("n") ** 2 * v.name("d_k")),
    Sample(
        TB,
        "定義 2.1",
        r"\mu(\boldsymbol{x}) := \frac{1}{d}\sum_{j=1}^{d} x_j",
        lambda v: relation(
            ":=",
            v.apply("mu", v.name("bold x")),
            v.sum("j", 1, v.name("d"), lambda w: w.entry("bold x", "j")) / v.name("d"),
        ),
        True,
    ),
    Sample(
        TB,
        "定義 2.1",
        r"\sigma^2(\boldsymbol{x}) := \frac{1}{d}\sum_{j=1}^{d}"
        r"\big(x_j - \mu(\boldsymbol{x})\big)^2",
        lambda v: relation(
            ":=",
            v.apply("sigma^2", v.name("bold x")),
            v.sum(
                "j",
                1,
                v.name("d"),
                lambda w: (w.entry("bold x", "j") - w.apply("mu", w.name("bold x"))) ** 2,
            )
            / v.name("d"),
        ),
        True,
    ),
    Sample(
        TB,
        "定義 2.1",
        r"\mathrm{LN}(\boldsymbol{x}) := \boldsymbol{\gamma} \odot \frac{\boldsymbol{x}"
        r" - \mu(\boldsymbol{x})\boldsymbol{1}}{\sqrt{\sigma^2(\boldsymbol{x}) + \varepsilon}}"
        r" + \boldsymbol{\beta}",
        lambda v: relation(":=", v.apply("LN", v.name("bold x")), _layer_norm(v)),
        True,
    ),
    Sample(
        TB,
        "命題 8.1",
        r"W_2^{\mathsf{T}}\,\mathrm{ReLU}(W_1^{\mathsf{T}}\boldsymbol{x} + \boldsymbol{b}_1)"
        r" + \boldsymbol{b}_2",
        _mlp,
        True,
    ),
    Sample(
        TB,
        "命題 3.3",
        r"J(\boldsymbol{x}) = \frac{1}{\sigma}\Big( I - \frac{1}{d}\boldsymbol{1}"
        r"\boldsymbol{1}^{\mathsf{T}} - \frac{1}{d}\boldsymbol{y}\boldsymbol{y}^{\mathsf{T}}"
        r" \Big)",
        lambda v: relation("=", v.apply("J", v.name("bold x")), _ln_jacobian(v)),
        True,
    ),
    Sample(
        TB,
        "命題 3.1",
        r"\|\boldsymbol{y}\| = \sqrt{d}",
        lambda v: relation("=", v.norm(v.name("bold y")), _SQRT(v.name("d"))),
        True,
    ),
    Sample(
        TB,
        "命題 3.1",
        r"\mathrm{LN}(a\boldsymbol{x} + b\boldsymbol{1}) = \mathrm{LN}(\boldsymbol{x})",
        lambda v: relation(
            "=",
            v.apply("LN", v.name("a") * v.name("bold x") + v.name("b") * v.name("bold 1")),
            v.apply("LN", v.name("bold x")),
        ),
        True,
    ),
    Sample(
        TB,
        "命題 3.3",
        r"\partial\mu/\partial x_j = 1/d",
        lambda v: relation("=", v.diff(v.name("mu"), v.entry("bold x", "j")), 1 / v.name("d")),
    ),
    Sample(
        TB,
        "定理 5.1",
        r"d_{\mathrm{ff}} = 4d",
        lambda v: relation("=", v.name("d_ff"), 4 * v.name("d")),
    ),
    Sample(
        TB,
        "命題 6.1",
        r"2nd\,d_{\mathrm{ff}}",
        lambda v: 2 * v.name("n") * v.name("d") * v.name("d_ff"),
    ),
    Sample(TB, "命題 6.1", r"nd\,|V|", lambda v: v.name("n") * v.name("d") * v.name("|V|")),
    Sample(
        TB,
        "定理 5.1",
        r"4d^2 + 4d + 8d^2 + 4d + d + 4d = 12d^2 + 13d",
        lambda v: relation(
            "=", 12 * v.name("d") ** 2 + 13 * v.name("d"), 12 * v.name("d") ** 2 + 13 * v.name("d")
        ),
    ),
    Sample(
        TB,
        "演習 11.4",
        r"T(n) = 12nd^2 + 2n^2d",
        lambda v: relation(
            "=",
            v.apply("T", v.name("n")),
            12 * v.name("n") * v.name("d") ** 2 + 2 * v.name("n") ** 2 * v.name("d"),
        ),
    ),
    Sample(
        TB,
        "定義 2.2",
        r"\mathrm{ReLU}(t) := \max(0, t)",
        lambda v: relation(":=", v.apply("ReLU", v.name("t")), sympy.Max(0, v.name("t"))),
    ),
    Sample(
        TB,
        "定義 2.2",
        r"\mathrm{GELU}(t) := t\,\Phi(t)",
        lambda v: relation(
            ":=", v.apply("GELU", v.name("t")), v.name("t") * v.apply("Phi", v.name("t"))
        ),
    ),
    Sample(
        TB,
        "命題 8.1",
        r"\varphi(t) = \frac{1}{\sqrt{2\pi}}e^{-t^2/2}",
        lambda v: relation(
            "=", v.apply("varphi", v.name("t")), _E ** (-(v.name("t") ** 2) / 2) / _SQRT(2 * _PI)
        ),
    ),
    Sample(TB, "例 5.3", r"12\times768^2 + 13\times768", lambda v: sympy.Integer(7_087_872)),
    Sample(
        TB,
        "演習 11.1",
        r"64{,}000 + 8{,}192 + 199{,}936 + 128 = 272{,}256",
        lambda v: relation("=", sympy.Integer(272_256), sympy.Integer(272_256)),
    ),
)


# Readings of a sample and their judgement ----------------------------------------------------


def canonical(value: Any) -> Any:
    """A reading with every name plain (`plain_name`), Abs(V) the size |V|, e Euler's number
    and pi π: what it is compared as."""
    if isinstance(value, sympy.MatrixBase):
        return sympy.ImmutableMatrix(value.shape[0], value.shape[1], [canonical(x) for x in value])
    if isinstance(value, sympy.Symbol):
        name = plain_name(value.name)
        return {"e": sympy.E, "pi": sympy.pi}.get(name, sympy.Symbol(name))
    if isinstance(value, sympy.Abs) and isinstance(value.args[0], sympy.Symbol):
        return sympy.Symbol(f"|{plain_name(value.args[0].name)}|")
    if isinstance(value, AppliedUndef):
        return sympy.Function(plain_name(value.func.__name__))(*map(canonical, value.args))
    if isinstance(value, sympy.core.relational.Relational):
        return value.func(*map(canonical, value.args), evaluate=False)
    if isinstance(value, sympy.Basic) and value.args:
        return value.func(*map(canonical, value.args))
    return value


def environment(sample: Sample) -> Evaluator:
    """The sample element's notation with its free indices bound."""
    load_all()
    notation = CHAPTERS[sample.chapter].environment
    if notation is None:
        raise ValueError(f"chapter {sample.chapter} registers no notation")
    evaluator = notation(sample.element)
    return evaluator.bound(**{i: sympy.Integer(k) for i, k in sample.indices.items()})


def expected(sample: Sample, ours: bool) -> Any:
    """The sample's meaning: under the notation for ours where the sample says so, plainly
    otherwise."""
    namespace = Notation(environment(sample)) if ours and sample.notation else PLAIN
    return sample.meaning(namespace)


def _walk(node: Any) -> Iterator[Node]:
    if isinstance(node, Node):
        yield node
        for arg in node.args:
            yield from _walk(arg)
    elif isinstance(node, tuple):
        for arg in node:
            yield from _walk(arg)


def plain_evaluator(tree: Node, notation: Evaluator) -> Evaluator:
    """Our Evaluator with every name of the tree plain: a function where the notation makes it
    one (an undefined function), else a symbol; e stays Euler's number."""
    functions = {n.removesuffix("()") for n, v in notation.names.items() if callable(v)}
    names: dict[str, Any] = {}
    for node in _walk(tree):
        if node.op == "name" and node.args[0] != "e":
            name = node.args[0]
            names[name] = (
                (lambda *a, n=name: PLAIN.apply(n, *a)) if name in functions else PLAIN.name(name)
            )
        elif node.op == "sub" and node.args[0].op == "name" and node.args[1].op == "text":
            whole = f"{node.args[0].args[0]}_{node.args[1].args[0]}"
            names[whole] = PLAIN.name(whole)
    return Evaluator(names)


def our_reading(sample: Sample) -> Any:
    """Our tree of the sample evaluated under the notation or plainly (`expected`'s rule); a
    relation is its members' values, related."""
    tree = parse(sample.tex)
    notation = environment(sample)
    evaluator = notation if sample.notation else plain_evaluator(tree, notation)
    if tree.op != "chain":
        value = _immutable(evaluator(tree))
        return value if sample.notation else canonical(value)
    (op, *more), (left, right, *_) = tree.args
    if more:
        raise ValueError("a sample holds at most one relation")
    value = relation(op, evaluator(left), evaluator(right))
    return value if sample.notation else canonical(value)


def same(value: Any, meaning: Any) -> bool:
    """Whether a reading says the meaning: the same relation with equal sides, equal matrices,
    or equal values (structurally, else simplify(a - b) == 0). A relation a parser evaluated
    to True or False counts when it has no symbols and that is its truth."""
    if isinstance(meaning, sympy.core.relational.Relational):
        if isinstance(value, BooleanAtom):
            return not meaning.free_symbols and bool(meaning.func(*meaning.args)) == bool(value)
        return (
            type(value) is type(meaning)
            and same(value.lhs, meaning.lhs)
            and same(value.rhs, meaning.rhs)
        )
    if isinstance(meaning, sympy.MatrixBase):
        return (
            isinstance(value, sympy.MatrixBase)
            and value.shape == meaning.shape
            and all(same(a, b) for a, b in zip(value, meaning, strict=True))
        )
    if not isinstance(value, sympy.Expr):
        return False
    try:
        return value == meaning or sympy.simplify(value - meaning) == 0
    except Exception:  # a value SymPy cannot subtract from the meaning (a Tuple) is not it
        return False


@dataclass(frozen=True)
class Verdict:
    """A parser's reading of a sample judged: correct, or how it is not."""

    sample: Sample
    correct: bool
    kind: str = ""  # the kind of misreading, for the table
    detail: str = ""  # the reading or the failure, for --verbose


_COMMANDS = ("mathrm", "boldsymbol", "mathsf", "text", "underbrace", "cdot", "left", "Big")


def misreading(value: Any, meaning: Any) -> str:
    """A short name for how a reading differs from the meaning (the first that fits)."""
    if isinstance(value, BooleanAtom):
        return "relation evaluated to True/False"
    if isinstance(meaning, sympy.core.relational.Relational) and not isinstance(
        value, sympy.core.relational.Relational
    ):
        return "the relation and what follows dropped"
    names = {str(s) for s in value.free_symbols}
    exponents = {str(s) for p in value.atoms(sympy.Pow) for s in p.exp.free_symbols}
    applied = {f.func.__name__ for f in meaning.atoms(AppliedUndef)}
    if any(e.endswith("T") for e in exponents):
        return "^T read as a power"
    if any(c in name for c in _COMMANDS for name in names):
        return r"a command read as letters (\mathrm{Var}: mathrm·V·a·r)"
    if any("*" in name for name in names):
        return "a subscript read as a product (δ_{i·j})"
    if applied & names:
        return "f(x) read as the product f·x"
    if {f.func.__name__ for f in value.atoms(AppliedUndef)} - applied:
        return "a product a(b) read as a function a of b"
    return "other"


def judge(reading: Callable[[Sample], Any], sample: Sample, ours: bool, timeout: float) -> Verdict:
    """One parser's reading of a sample (`reading`), compared with its meaning within
    `timeout` seconds each."""
    result = attempt(lambda _: reading(sample), sample.tex, timeout)
    if result.error:
        return Verdict(
            sample, False, f"fails at {result.at}" if result.at else "fails", result.error
        )
    meaning = expected(sample, ours)
    try:
        correct = quietly(timeout, lambda: same(result.value, meaning))
    except TimedOut:
        return Verdict(sample, False, "comparison timed out", sympy.sstr(result.value)[:100])
    if correct:
        return Verdict(sample, True)
    return Verdict(
        sample,
        False,
        misreading(result.value, meaning),
        f"read as {sympy.sstr(result.value)[:100]}",
    )


# The parsers -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Parser:
    """A TeX reader: `read` for every formula, `reading` the SymPy value of a sample."""

    name: str
    read: Callable[[str], Any]
    reading: Callable[[Sample], Any]
    ours: bool = False


OURS = Parser("ours (proofs.tex.symbolic)", parse, our_reading, ours=True)


def _sympy_backend(backend: str) -> Callable[[str], Any]:
    from sympy.parsing.latex import parse_latex

    return lambda tex: parse_latex(tex, backend=backend)


def _latex2sympy() -> Callable[[str], Any]:
    """latex2sympy2_extended keeping case (the chapters' q and Q differ) and reading
    2\\frac{1}{2} as a product, as the chapters mean it."""
    from latex2sympy2_extended import latex2sympy
    from latex2sympy2_extended.latex2sympy2 import ConversionConfig

    config = ConversionConfig(interpret_as_mixed_fractions=False, lowercase_symbols=False)
    return lambda tex: latex2sympy(tex, conversion_config=config)


def _package(name: str) -> str:
    try:
        return f"{name} {version(name)}"
    except PackageNotFoundError:
        return name


MAINTAINED: tuple[tuple[str, str, Callable[[], Callable[[str], Any]]], ...] = (
    ("SymPy parse_latex, lark", "lark", lambda: _sympy_backend("lark")),
    ("SymPy parse_latex, ANTLR", "antlr4-python3-runtime", lambda: _sympy_backend("antlr")),
    ("latex2sympy2_extended", "latex2sympy2_extended", _latex2sympy),
)


def _plain_reading(read: Callable[[str], Any]) -> Callable[[Sample], Any]:
    """A maintained parser's reading of a sample, its names made plain (`canonical`)."""
    return lambda sample: canonical(read(sample.tex))


def available() -> tuple[list[Parser], list[str]]:
    """Ours and each maintained parser that imports and reads `x` (its warm-up: grammars are
    built here, not timed); the others named with the package they need."""
    parsers, missing = [OURS], []
    for name, package, build in MAINTAINED:
        try:
            read = build()
            quietly(TIMEOUT, partial(read, "x"))
        except ImportError as why:
            missing.append(f"{name}: not installed ({str(why).splitlines()[0]})")
            continue
        parsers.append(Parser(f"{name} ({_package(package)})", read, _plain_reading(read)))
    return parsers, missing


# Measuring and reporting ---------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """One parser's figures: formulas read, the wall time, and the sample's verdicts."""

    parser: Parser
    read: int
    seconds: float
    verdicts: tuple[Verdict, ...]

    @property
    def correct(self) -> int:
        return sum(v.correct for v in self.verdicts)


def measure(
    parser: Parser, formulas: list[str], sample: tuple[Sample, ...], timeout: float
) -> Result:
    """Read every formula once (timed), then judge the parser on the sample."""
    start = time.perf_counter()
    readings = [attempt(parser.read, tex, timeout) for tex in formulas]
    seconds = time.perf_counter() - start
    verdicts = tuple(judge(parser.reading, s, parser.ours, timeout) for s in sample)
    return Result(parser, sum(not r.error for r in readings), seconds, verdicts)


def typical(verdicts: tuple[Verdict, ...], most: int = 3) -> str:
    """The most frequent kinds of misreading, with their counts."""
    kinds = Counter(v.kind for v in verdicts if not v.correct)
    return "; ".join(f"{kind} ({count})" for kind, count in kinds.most_common(most)) or "none"


def table(results: list[Result], total: int, size: int) -> str:
    """The Markdown table: one row per parser, time relative to ours (the first)."""
    ours = results[0].seconds
    rows = [
        "| parser | formulas read without error | sample read correctly | time "
        "| typical misreadings |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        rows.append(
            f"| {r.parser.name} | {r.read} / {total} ({100 * r.read / total:.1f} %) "
            f"| {r.correct} / {size} | {r.seconds:.2f} s ({r.seconds / ours:.1f}× ours) "
            f"| {typical(r.verdicts)} |"
        )
    return "\n".join(rows)


def misreadings(result: Result) -> list[str]:
    """One line per misread sample formula: element, TeX, kind and detail."""
    return [
        f"  {v.sample.element} `{v.sample.tex}`: {v.kind}: {v.detail}"
        for v in result.verdicts
        if not v.correct
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list the sample's misreadings")
    parser.add_argument(
        "--timeout", type=float, default=TIMEOUT, help="seconds for one formula's reading"
    )
    parser.add_argument("--seeds", type=Path, default=SEEDS, help="the chapters' directory")
    args = parser.parse_args()
    if args.timeout <= 0:
        parser.error("--timeout must be > 0")

    load_all()
    formulas = []
    for chapter in CHAPTERS.values():
        found = chapter_formulas(args.seeds / chapter.file)
        print(f"{chapter.key} ({chapter.file}): {len(found)} formulas ({len(set(found))} distinct)")
        formulas += found
    parsers, missing = available()
    for line in missing:
        print(line)
    results = [measure(p, formulas, SAMPLE, args.timeout) for p in parsers]
    print(
        f"\n{len(SAMPLE)} hand-labelled formulas; one run each, "
        f"per-formula limit {args.timeout:g} s\n"
    )
    print(table(results, len(formulas), len(SAMPLE)))
    if args.verbose:
        for result in results:
            print(f"\n{result.parser.name}: {len(SAMPLE) - result.correct} misread")
            print("\n".join(misreadings(result)))


if __name__ == "__main__":
    main()
