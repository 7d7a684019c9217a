"""A chapter's own notation, read from what it declares and defines: the names its
formulas use become values an evaluator can compute with, so that a statement can be
tried at points of the space the chapter states.

Read from every formula of the chapter, in order:

- declarations: `\\boldsymbol{z} \\in \\mathbb{R}^{|V|}` (a vector of |V| entries),
  `X \\in \\mathbb{R}^{n \\times d}` (a matrix), `T > 0`, `A, B > 0`, `0 < \\lambda < 1`,
  `\\lambda \\in (0, 1)` (a number in a range), `k \\in \\{1, \\ldots, n\\}`,
  `n \\in \\mathbb{N}` (an integer); a size is a name a shape uses (|V|, n, d), or the
  space of what the text does not name (`\\phi : \\mathbb{R}^{d_k} \\to (0, \\infty)^{m}`,
  `\\phi(Q) \\in \\mathbb{R}^{n \\times m}`: m); a bound
  the prose between elements derives (「$i \\ge 42$、つまり」) declares nothing;
- definitions: `f(x) := …`, `f_T(\\boldsymbol{z})_j := …` (a function, defined entry by
  entry when its left side has an index), `p_j := …` (the entries of p, a sequence when p
  has no parameters), `\\rho_H := …` (an upper-case subscript: a name of its own),
  `S := …`; in a 定義 also `f(x) = …` for a name no earlier formula gives a meaning;
- settings: `d = 8`, `\\varepsilon = 1/2`, `\\boldsymbol{z} = (2, 1, 0.5, -1)` (a value
  the text works with) — not a list of values (「$\\omega_k = 1,\\ 0.1$」), a case of a
  定義's sentence, a value in the prose between elements, or a name set to two values.

What a definition or a declaration inside a proposition, a lemma, … says holds in that
element only (「$\\boldsymbol{p} := \\sigma_T(\\boldsymbol{z})$ とする」), and what a
proposition's statement names also for the later elements that give the name no meaning
of their own (「$G := \\ldots$ と置く」); in a 定義 for the rest of the chapter. A bound
on a function the chapter defines (「$C > 0$ について」 of `C(N, D) := 6ND`) makes it a
number in its element. A name is defined once: a second
definition of it (the same object written two ways, σ_T(z) := σ(z/T) then entry by entry)
is kept only when the first could not be evaluated.

`Notation.at(sizes)` gives an Evaluator in which each size is an integer, each declared
vector or matrix a column or matrix of real symbols, each declared number a positive
symbol, each function what its definition computes; `Notation.ranges` what a witness
must respect. Nothing here judges: proofs.audit.deciding.instances tries statements with it.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction

import sympy

from proofs.audit.deciding.notation import CONSTANTS, FUNCTIONS
from proofs.audit.deciding.sentence import (
    cases_before,
    condition_in_sentence,
    is_case,
    is_hypothesis,
    is_setting,
)
from proofs.reader import Document
from proofs.reader.math import split_relations, statement_lines
from proofs.reader.records import Element, Math
from proofs.tex.symbolic import Evaluator, Value
from proofs.tex.tree import Node, TexError, parse, tree_names
from proofs.tex.witness import Range

# a name as the chapters write one: \boldsymbol{z}, \mathbf{x}, \lambda, \mathrm{RMS},
# x, |V|, with a subscript of letters or one digit (d_k, d_{\mathrm{ff}}, t_0)
_NAME = (
    r"(?:\\(?:boldsymbol|mathbf|bm)\{\\?[A-Za-z]+\}|\\mathrm\{[A-Za-z]+\}|\|[A-Za-z]\|"
    r"|\\[A-Za-z]+|[A-Za-z])(?:_\{\\mathrm\{[A-Za-z]+\}\}|_\{[A-Za-z0-9]\}|_[A-Za-z0-9])?"
)
_NAMES = rf"({_NAME}(?:\s*,\s*{_NAME})*)"
_SPACE = re.compile(rf"^\s*{_NAMES}\s*\\in\s*(.+?)\s*$", re.S)
# a space of what the text does not name: after the arrow of a map, or the space of an
# application (「$\\phi(Q) \\in \\mathbb{R}^{n \\times m}$」)
_UNNAMED_SPACE = re.compile(
    r"(?:\\in|\\to)\s*(?:\\mathbb\{R\}|\(\s*0\s*,\s*\\infty\s*\))\^(?:\{([^{}]+)\}|(\w))"
)
_REAL_POWER = re.compile(r"^\\mathbb\{R\}\^(?:\{(.+)\}|(\S))$", re.S)
_INTERVAL = re.compile(r"^([(\[])\s*(-?[\d./]+)\s*,\s*(-?[\d./]+|\\infty)\s*([)\]])$")
_INDEX_SET = re.compile(r"^\\\{\s*(-?\d+)\s*,\s*\\[lc]dots\s*,\s*(.+?)\s*\\\}$")
_INTEGERS = re.compile(r"^\\mathbb\{[NZ]\}(?:_\{?[>\\]?(?:ge|geq)?\s*[01]\}?)?$")
_REALS = re.compile(r"^\\mathbb\{R\}$")
_POSITIVE_REALS = re.compile(r"^\\mathbb\{R\}_\{?(?:>|\\gt)\s*0\}?$")
_STATING = ("proposition", "lemma", "theorem", "corollary")  # kinds whose statement names
_DOTS = re.compile(r"\\(?:ldots|dots|cdots)")
_NUMBER = re.compile(r"(?:\s|\\[ ,;])*-?\d+(?:\.\d+)?\s*")
_BOUND = re.compile(
    rf"^\s*(?:(-?[\d./]+)\s*(<|\\le|\\leq)\s*)?{_NAMES}\s*(<|>|\\le|\\leq|\\ge|\\geq)\s*(-?[\d./]+)\s*$"
)


@dataclass(frozen=True)
class Shape:
    """A declared object: its dimensions (none for a number, one for a vector, two for a
    matrix) as TeX of sizes, and for a number its range."""

    dimensions: tuple[str, ...] = ()
    range: Range = field(default_factory=Range)
    words: str = ""  # what the text says of it besides its space (「を確率分布とし」): no point
    # may be drawn for it then, since the words may restrict it


@dataclass(frozen=True)
class Definition:
    """`name(params)_index := body` (params and index may be absent), at its line."""

    name: str
    params: tuple[str, ...]
    subscript: str | None  # σ_T: a parameter written below the name
    index: str | None  # the entry the body gives (…)_j
    body: Node
    line: int
    # `f(x) := … = …`: the later members, what the text works the body out to (a closed
    # form in fewer names), for where the body names what nothing sets
    worked: tuple[Node, ...] = ()


@dataclass
class Notation:
    """The names of a part of a chapter, as declared, defined and set."""

    shapes: dict[str, Shape] = field(default_factory=dict)
    definitions: dict[str, Definition] = field(default_factory=dict)
    settings: dict[str, Node] = field(default_factory=dict)
    rebound: set[str] = field(default_factory=set)  # chapter's names an element re-means
    fixed: dict[str, Node] = field(default_factory=dict)  # what the element sets (ε = 0 とし)
    varied: set[str] = field(default_factory=set)  # names set to two values: set to none
    # the sizes of spaces the text writes of what it does not name: φ(Q) ∈ R^{n×m},
    # φ : R^{d_k} → (0, ∞)^m
    measures: list[str] = field(default_factory=list)

    def copy(self) -> Notation:
        return Notation(
            dict(self.shapes),
            dict(self.definitions),
            dict(self.settings),
            set(self.rebound),
            dict(self.fixed),
            set(self.varied),
            list(self.measures),
        )

    @property
    def sizes(self) -> list[str]:
        """The names the declared shapes are measured in, in the order first declared."""
        out: list[str] = []
        for shape in self.shapes.values():
            for dimension in shape.dimensions:
                for name in _size_names(dimension):
                    if name not in out:
                        out.append(name)
        return out + [name for name in self.measures if name not in out]

    @property
    def ranges(self) -> dict[str, Range]:
        return {name: s.range for name, s in self.shapes.items() if not s.dimensions}

    def defines(self, name: str) -> bool:
        """Whether a definition gives the name (or its bold vector) a formula."""
        return name in self.definitions or f"bold {name}" in self.definitions

    def knows(self, name: str) -> bool:
        """Whether the name has a meaning here: declared (with nothing said of it in
        words), defined, a size, an elementary function or constant (e, π), or the entries
        of a declared or defined vector."""
        return (
            any(
                (n in self.shapes and not self.shapes[n].words)
                or n in self.definitions
                or n in self.sizes
                for n in (name, f"bold {name}")
            )
            or name in FUNCTIONS
            or name in CONSTANTS
            or name in ("e", "bold 1", "bold 0")
        )

    def set_sizes(self) -> dict[str, int]:
        """The sizes the settings give: an integer set for a size (`d = 8`), or the number
        of entries of a vector set for a name declared with that size."""
        sizes: dict[str, int] = {}
        for name, node in self.settings.items():
            if name in self.sizes and node.op == "num" and node.args[0] == int(node.args[0]):
                sizes[name] = int(node.args[0])
        for name, shape in self.shapes.items():
            setting = self.settings.get(name)
            if setting is not None and setting.op == "tuple" and len(shape.dimensions) == 1:
                sizes.setdefault(shape.dimensions[0].strip(), len(setting.args))
        return sizes

    def at(self, sizes: dict[str, int], concrete: bool = False) -> DefinedEvaluator:
        """An evaluator of this notation with each size set to an integer (`concrete`: and
        each name the text sets, to the value it sets)."""
        names: dict[str, Value] = {**FUNCTIONS, **CONSTANTS}
        names.update({name: sympy.Integer(v) for name, v in sizes.items()})
        every = max(sizes.values(), default=0)
        if every:  # 1 and 0 as vectors of that many entries (every size is the same)
            for name, fill in (("bold 1", sympy.ones), ("bold 0", sympy.zeros)):
                names[name] = _Lazy(functools.partial(_filled, name, fill, every))
        entries: dict[str, str] = {}
        evaluator = DefinedEvaluator(names, {}, entries)
        for name, shape in self.shapes.items():
            if name in sizes:
                continue
            if shape.dimensions:
                names[name] = _Lazy(functools.partial(_array, name, shape, evaluator))
            else:  # a number, drawn below 0 where its range says so (「$x < 0$ のとき」)
                integer = shape.range.integer or None
                below = shape.range.high is not None and shape.range.high <= 0
                sign = {"negative": True} if below else {"positive": True}
                names[name] = sympy.Symbol(name, integer=integer, **sign)
            if shape.dimensions and name.startswith("bold "):
                entries[name[5:]] = name
        for name, definition in self.definitions.items():
            names[name] = _meaning(definition, evaluator)
            if name.startswith("bold "):  # p := σ_T(z): p_j its entries
                entries.setdefault(name[5:], name)
        evaluator.names, evaluator.entries = names, entries
        for name, node in (self.settings if concrete else self.fixed).items():
            if name not in sizes:  # an example's values; a statement's hypotheses (ε = 0)
                names[name] = evaluator(node)
        if concrete:  # I and O beside an example's matrices: of the largest size they have
            arrays = [v for k, v in names.items() if k in self.settings and _is_matrix(v)]
            size = max((max(a.shape) for a in arrays), default=0)
            for name, matrix in (("I", sympy.eye), ("O", sympy.zeros)):
                if size and name not in names:
                    names[name] = matrix(size)
        # a sum whose range the formula does not write runs over the entries (every size
        # is the same here, so every vector has that many)
        evaluator.index_ranges = dict.fromkeys(_LETTERS, functools.partial(_entries_of, every))
        return evaluator


def _is_matrix(value: object) -> bool:
    return isinstance(value, sympy.MatrixBase)


def _entries_of(size: int, _evaluator: Evaluator) -> range:
    """The range of an index a formula does not state: 1..size."""
    return range(1, size + 1)


MAX_ENTRIES = 64  # entries of a declared vector or matrix made into symbols, at most


def _array(name: str, shape: Shape, evaluator: Evaluator) -> sympy.Matrix:
    """A declared vector or matrix as symbols, at the evaluator's sizes."""
    dims = [int(evaluator(parse(d))) for d in shape.dimensions]
    if any(d < 1 for d in dims) or sympy.prod(dims) > MAX_ENTRIES:
        raise TexError(f"{name} would have {' x '.join(map(str, dims))} entries")
    if len(dims) == 1:
        return sympy.Matrix([_symbol(f"{_plain(name)}_{i + 1}") for i in range(dims[0])])
    return sympy.Matrix(dims[0], dims[1], lambda i, j: _symbol(f"{_plain(name)}_{i + 1}{j + 1}"))


def _filled(name: str, fill: Callable[[int, int], sympy.Matrix], size: int) -> sympy.Matrix:
    """The vector 1 or 0 of `size` entries, made only when a formula uses it: a size of
    the chapter's settings (a vocabulary of 32,000) would otherwise fill it each time."""
    if size > MAX_ENTRIES:
        raise TexError(f"{name} would have {size} entries")
    return fill(size, 1)


def _symbol(name: str) -> sympy.Symbol:
    """An entry of a declared vector or matrix: a positive real symbol (a point drawn for
    it is inside any space of reals the chapter declares)."""
    return sympy.Symbol(name, positive=True)


def _plain(name: str) -> str:
    return name[5:] if name.startswith("bold ") else name


def _size_names(dimension: str) -> list[str]:
    try:
        tree = parse(dimension)
    except TexError:
        return []
    return sorted(tree_names(tree))


class DefinedEvaluator(Evaluator):
    """An Evaluator in which a defined function applied to an entry is that entry of its
    value: p_j(T) is p(T)_j when p is a function of T whose values are vectors."""

    def bound(self, **values: Value) -> Evaluator:
        return DefinedEvaluator({**self.names, **values}, self.index_ranges, self.entries)

    def _name(self, name: str) -> Value:
        value = super()._name(name)
        return value.value() if isinstance(value, _Lazy) else value

    def _index(self, value: Value, index: Node) -> Value:
        return super()._index(value.value() if isinstance(value, _Lazy) else value, index)

    def _fold(self, op: str, index: str, low, high, over, body: Node) -> Value:
        """A sum or product; one without its range over a sequence the chapter defines
        (\\sum_s \\pi_s, π_s := (1 - λ)λ^s for s = 0, 1, 2, …) is not taken over the
        entries of the vectors: the sequence has no stated number of terms."""
        if low is None and high is None and over is None:
            if any(_is_sequence(self.names.get(name)) for name in tree_names(body)):
                raise TexError(f"the range of {index} over a sequence is not stated")
        return super()._fold(op, index, low, high, over, body)

    def _call(self, function: Node, args: tuple[Node, ...]) -> Value:
        """σ_T(z): the defined σ with its subscript parameter T, then z; p_j(T): entry j
        of p(T)."""
        if function.op == "sub" and function.args[0].op == "name":
            name = function.args[0].args[0]
            own = self.names.get(f"{name}_{function.args[1].args[0]}")  # GELU_{\tanh}
            if isinstance(own, Defined) and function.args[1].op == "text":
                return own(*(self(a) for a in args))
            if own is not None and function.args[1].op == "text":
                return super()._call(function, args)  # M_1(t_0 + k): a number of its own times
            base = self.names.get(name, self.names.get(f"bold {name}"))
            if isinstance(base, Defined):
                values = [self(a) for a in args]
                if base.definition.subscript:
                    return base(self(Node("name", (function.args[1].args[0],))), *values)
                return self._index(base(*values), function.args[1])
        return super()._call(function, args)


def _meaning(definition: Definition, evaluator: Evaluator) -> Value:
    """The value a definition gives its name in the evaluator: a function of its
    parameters (entry by entry when it has an index), or the value of its body."""
    if not definition.params and not definition.subscript and definition.index is None:
        return _Lazy(lambda: evaluator(definition.body))
    return Defined(definition, evaluator)


class Defined:
    """A function the chapter defines: its subscript parameter first (σ_T), then its
    arguments; defined entry by entry when its left side has an index, as many entries as
    its first vector argument has."""

    def __init__(self, definition: Definition, evaluator: Evaluator) -> None:
        self.definition, self.evaluator = definition, evaluator
        self.params = ((definition.subscript,) if definition.subscript else ()) + definition.params

    def __call__(self, *args: Value) -> Value:
        definition = self.definition
        if not self.params and definition.index is not None and len(args) == 1:
            # m_h := 2^{-8h/H}: a sequence, its entry at the index given
            return self.evaluator.bound(**{definition.index: args[0]})(definition.body)
        if len(args) != len(self.params):
            raise TexError(f"{definition.name} takes {len(self.params)} arguments, got {len(args)}")
        bound = self.evaluator.bound(**dict(zip(self.params, args, strict=True)))
        if definition.index is None:
            return bound(definition.body)
        size = next((len(a) for a in args if isinstance(a, sympy.MatrixBase) and a.cols == 1), None)
        if size is None:
            raise TexError(f"the entries of {definition.name} have no stated number")
        return sympy.Matrix(
            [
                bound.bound(**{definition.index: sympy.Integer(k)})(definition.body)
                for k in range(1, size + 1)
            ]
        )


def _is_sequence(value: object) -> bool:
    """A definition of entries by an index with no parameters (m_h := 2^{-8h/H})."""
    return isinstance(value, Defined) and not value.params and value.definition.index is not None


class _Lazy:
    """A value computed when first used: a definition's (which may use names set later,
    such as the sizes), a declared array's (made only when a formula uses it)."""

    def __init__(self, compute: Callable[[], Value]) -> None:
        self.compute = compute
        self.computing = False

    def value(self) -> Value:
        if self.computing:  # μ := μ(x): a name defined in terms of itself has no value here
            raise TexError("a name defined in terms of itself")
        self.computing = True
        try:
            return self.compute()
        finally:
            self.computing = False


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


# reading -------------------------------------------------------------------------------


def read_notation(document: Document) -> Callable[[int], Notation]:
    """The notation in force at each line of the chapter: what the chapter declared and
    defined before it, and what its element did before it."""
    chapter = Notation()
    by_element: dict[int, Notation] = {}
    lines: list[int] = []  # the lines where what the chapter says so far changed
    seen: list[Notation] = []  # what it says from each of them on
    for formula in document.math:
        element = document.element_at(formula.line)
        local = element is not None and element.kind != "definition"
        if local:
            assert element is not None
            target = by_element.setdefault(element.line, Notation())
        else:
            target = chapter
        before = None if local else chapter.copy()
        statements = statement_lines(formula.line, formula.tex)
        if element is None and len(statements) == 1 and _BOUND.match(statements[0][1]):
            if not is_hypothesis(document, formula.line, statements[0][1]):
                continue  # 「$i \\ge 42$、つまり」: what the prose derives, no range it declares
        # 「$\\omega_k = 1,\\ 0.1,\\ 0.01$」 lists values a name takes: it sets none of them
        # 「$t = 1, \\ldots, T$ の順に」: the range it runs over
        listed = any(_NUMBER.fullmatch(st.rstrip(".,")) for _, st in statements[1:]) or any(
            _DOTS.search(st) for _, st in statements
        )
        if not _read_bound(formula.tex, target, chapter):
            for line, statement in statements:
                # 「$\\varepsilon = 0$ のときは」 in a 定義: a case of its sentence, not a value
                # for the rest of the chapter (in an example, it is one for its solution); in
                # a proposition and its proof only what the text sets (「$d = 8$ とする」) is
                # one: 「等号は $\\varepsilon = 1$ のとき」「$s_k = 1$ です」 are what it proves
                if element is not None and element.kind in _STATING:
                    sets = not listed and is_setting(document, line, statement)
                else:  # nor what a case of its sentence concludes (「$s \\le 1$ では $\\tau = 1$」)
                    sets = not listed and (
                        local
                        or not (
                            is_case(document, line, statement)
                            or cases_before(document, line, statement)
                        )
                    )
                # 「$x \\in \\mathbb{F}$ なら $\\mathrm{fl}(x) = x$」: a case of fl, no definition
                cased = condition_in_sentence(document, line, statement) is not None
                _read_statement(statement, line, target, chapter, element, sets, cased)
        _read_spaces(formula.tex, target, _words_after(document, formula))
        if before is not None and before != chapter:  # a copy only where it changed
            lines.append(formula.line + 1)
            seen.append(chapter.copy())

    stated = _named_in_statements(document, by_element)  # read once, not per line asked

    def notation_at(line: int) -> Notation:
        at = bisect.bisect_right(lines, line) - 1
        merged = seen[at].copy() if at >= 0 else Notation()
        element = document.element_at(line)
        merged.definitions.update(_carried(stated, line, element, merged))
        if element is not None and element.line in by_element:
            local = by_element[element.line]
            for name in local.rebound:
                merged.definitions.pop(name, None)
            merged.shapes.update(local.shapes)
            merged.measures += [m for m in local.measures if m not in merged.measures]
            merged.settings.update(local.settings)
            merged.fixed.update(local.settings)
            for name in local.varied:  # set to two values in the element: to none
                merged.settings.pop(name, None)
                merged.fixed.pop(name, None)
            for name, definition in local.definitions.items():
                if definition.line <= line:
                    merged.definitions[name] = definition
        return merged

    return notation_at


def _named_in_statements(
    document: Document, by_element: dict[int, Notation]
) -> list[tuple[int, Element, dict[str, Definition]]]:
    """(line, element, definitions) of what the statement of each proposition, lemma,
    theorem and corollary names (「$G := \\ldots$ と置く」), in the order of the text. A
    proof's or an example's definitions stay in it."""
    stated = []
    for start, local in by_element.items():  # in the order of the text
        element = document.element_at(start)
        if element is None or element.kind not in _STATING:
            continue
        first, last = element.statement
        named = {n: d for n, d in local.definitions.items() if first <= d.line <= last}
        if named:
            stated.append((start, element, named))
    return stated


def _carried(
    stated: list[tuple[int, Element, dict[str, Definition]]],
    line: int,
    here: Element | None,
    merged: Notation,
) -> dict[str, Definition]:
    """What earlier statements name, for a later element that uses the name with no
    meaning of its own: the last such definition of each name the chapter gives no
    other meaning (nor the reader: e, π, log, …)."""
    named: dict[str, Definition] = {}
    for start, element, definitions in stated:
        if start >= line:
            break
        if element is not here:
            named.update(definitions)
    # e, π and the elementary functions keep their meaning: a statement's e(x) stays in it
    taken = {*merged.definitions, *merged.shapes, *merged.settings, *FUNCTIONS, *CONSTANTS, "e"}
    return {name: d for name, d in named.items() if name not in taken}


# what makes a declaration say more of its names than their space: a particle that opens
# a description (「$\\boldsymbol{p} \\in \\mathbb{R}^{|V|}$ を確率分布とし」「… は単位ベクトル」),
# or の before what its entries or its kind are said to be (「… の各成分が正のとき」); の
# before what is being defined (「… の二乗平均平方根を」), 「と」「に対し」「で」「、」 add nothing
_DESCRIBED = re.compile(
    r"^\s*(?:（|を|は|が|も|の(?:各|すべて|全|成分|要素|和|ノルム|長さ|大きさ|最大|最小|値が|符号))"
)


# the kind of thing a declaration names, said before it, that restricts it further than
# its space: 「確率ベクトル」「単位ベクトル」「直交行列」
_KIND_BEFORE = re.compile(r"(?:確率|単位|直交|正規直交|対称|正定値)[^\s$、。]*\s*$")


def _words_after(document: Document, formula: Math) -> str:
    """What the text says of an inline formula's names besides it, when it says more
    than a connective: right after it (「を確率分布とし」, a remark in brackets 「（成分が非負で
    和が 1）」), or as the kind of thing named right before it (「確率ベクトル $\boldsymbol{p}
    \\in \\mathbb{R}^{n}$」); "" for a connective or a display."""
    if formula.display:
        return ""
    text = document.line(formula.line)
    at = text.find(f"${formula.tex}$")
    if at < 0:
        return ""
    after = text[at + len(formula.tex) + 2 :]
    if _DESCRIBED.match(after):
        return after[:12]
    before = _KIND_BEFORE.search(text[max(0, at - 12) : at])
    return before.group() if before else ""


def _read_spaces(tex: str, notation: Notation, words: str = "") -> None:
    """Each `names \\in space` of a formula, whole (its commas list names), with the
    words the text says of them right after it."""
    for piece in re.split(r"\\qquad|\\quad|\\\\|、", tex):
        match = _SPACE.match(piece.strip().rstrip(".,"))
        if match is None or _key(match.group(1)) is None:
            for power in _UNNAMED_SPACE.finditer(piece):
                for name in _size_names(power.group(1) or power.group(2)):
                    if name not in notation.measures:
                        notation.measures.append(name)
        if match is None:
            continue
        shape = _shape(match.group(2).strip())
        if shape is None:
            continue
        for name in re.split(r"\s*,\s*", match.group(1)):
            key = _key(name)
            if key is not None:
                notation.shapes[key] = Shape(shape.dimensions, shape.range, words)


def _shape(space: str) -> Shape | None:
    if _REALS.match(space):
        return Shape(range=Range())
    if _POSITIVE_REALS.match(space):
        return Shape(range=Range(low=Fraction(0)))
    if _INTEGERS.match(space):
        return Shape(range=Range(low=Fraction(0), integer=True))
    power = _REAL_POWER.match(space)
    if power is not None:
        dims = re.split(r"\\times", power.group(1) or power.group(2))
        return Shape(tuple(d.strip() for d in dims)) if len(dims) <= 2 else None
    interval = _INTERVAL.match(space)
    if interval is not None:
        low, high = _fraction(interval.group(2)), _fraction(interval.group(3))
        return Shape(range=Range(low=low, high=high))
    index = _INDEX_SET.match(space)
    if index is not None:
        return Shape(range=Range(low=Fraction(int(index.group(1)) - 1), integer=True))
    return None


def _fraction(text: str) -> Fraction | None:
    if text == r"\infty":
        return None
    try:
        return Fraction(text)
    except ValueError:
        return None


def _key(tex: str) -> str | None:
    """The evaluator's name for a name as written (\\boldsymbol{z} -> "bold z")."""
    try:
        return _tree_key(parse(tex))
    except TexError:
        return None


def _tree_key(tree: Node) -> str | None:
    """The evaluator's name for a name read (name, or a name with a subscript)."""
    if tree.op == "name":
        return tree.args[0]
    if tree.op == "sub" and tree.args[0].op == "name" and tree.args[1].op == "text":
        return f"{tree.args[0].args[0]}_{tree.args[1].args[0]}"
    return None


def _read_bound(statement: str, target: Notation, chapter: Notation) -> bool:
    """The range a bound gives each of its names (`T > 0`, `0 < \\lambda < 1`, and a
    formula listing names, `A, B > 0`, which the statements split at its comma); whether
    the statement is one."""
    bound = _BOUND.match(statement.strip().rstrip(".,"))
    if bound is None:
        return False
    defined = {*target.definitions, *chapter.definitions}
    for name in re.split(r"\s*,\s*", bound.group(3)):
        key = _key(name)
        if key is None or key in target.shapes:
            continue
        base = key.split("_")[0]
        if key != base and any(
            shape.dimensions
            for notation in (target, chapter)
            for array in (base, f"bold {base}")
            if (shape := notation.shapes.get(array)) is not None
        ):
            continue  # x_1 > 0 of a declared vector x: a claim of an entry, no name of its own
        function = chapter.definitions.get(key)
        if target is not chapter and function is not None and function.params:
            # 「$C > 0$ について」 of the function C(N, D) := 6ND: in this element, C is a number
            target.rebound.add(key)
            target.shapes[key] = Shape(range=_range(bound))
        # 「$p_j > 0$ である」of a defined p is a claim to judge, not the range p is drawn in
        elif not {base, f"bold {base}"} & defined:
            target.shapes[key] = Shape(range=_range(bound))
    return True


def _read_statement(
    statement: str,
    line: int,
    target: Notation,
    chapter: Notation,
    element: Element | None,
    sets: bool = True,
    cased: bool = False,
) -> None:
    """A definition, a bound or a setting the statement makes, into `target`; with `sets`
    False (a list of values, a case), `name = value` sets nothing; with `cased` (its
    sentence puts a condition before it), `f(x) := …` defines nothing. A name set to two
    values (「$\\varepsilon = 0.5$ とし」, then 「$\\varepsilon = 0$ なら」) is set to neither."""
    if _read_bound(statement, target, chapter):
        return
    members, relations = split_relations(statement.strip().rstrip(".,"))
    worked: tuple[str, ...] = ()
    if relations and relations[0] == ":=" and ":=" not in relations[1:]:
        if set(relations[1:]) == {"="}:
            worked = tuple(members[2:])
        members, relations = members[:2], relations[:1]  # f(x) := … = …: the rest a claim
    if len(members) > 2 and set(relations) == {"="} and all(map(_key, members[:-1])):
        for name in members[:-1]:  # d_in = d_out = 3: each name set to the value
            _read_statement(f"{name} = {members[-1]}", line, target, chapter, element, sets, cased)
        return
    if len(members) != 2 or relations[0] not in (":=", "="):
        return
    try:
        left, right = parse(members[0]), parse(members[1])
    except TexError:
        return
    worded = _WORDED_SUBSCRIPT.search(members[0]) is not None
    definition = None if cased else _definition(left, right, line, worded)
    if definition is not None and worked:
        try:
            definition = replace(definition, worked=tuple(parse(m) for m in worked))
        except TexError:
            pass
    if definition is None and relations[0] == ":=" and not cased:
        # σ^2 := σ^2(x), from another chapter: a name defined by what is not read here has
        # no value to draw, however a later bound (σ > 0) ranges it
        key = _tree_key(left.args[0] if left.op == "pow" else left)
        if key is not None:
            target.shapes[key] = Shape(words=":= " + members[1].strip())
        return
    in_definition = element is not None and element.kind == "definition"
    by_equality = in_definition and left.op != "name"  # f(x) = … in a 定義; i = s is no definition
    if definition is not None and (relations[0] == ":=" or by_equality):
        known = target.definitions.get(definition.name) or chapter.definitions.get(definition.name)
        if known is None or _unusable(known):
            target.definitions[definition.name] = definition
        return
    key = _key(members[0])
    if relations[0] == "=" and key is not None and (_is_literal(right) or _is_unit(right)):
        # a value set in the prose between elements illustrates that sentence (「MLP の
        # $W_1$（$d_{\\mathrm{out}} = 3072$）なら」): the elements after it do not work with it
        if sets and element is not None and key not in target.varied:
            if key in target.settings and target.settings[key] != right:
                target.varied.add(key)
                del target.settings[key]
            else:
                target.settings[key] = right
    elif relations[0] == "=" and element is not None and not _states(element, line):
        # 「$y_i = c_i/\sigma$ に商の微分を使うと」: the element gives y a meaning of its own
        # (what a 定義 or a proposition's statement says of a name is a claim about it)
        named = _definition(left, right, line, worded)
        if named is not None and not (left.op == "call" and named.params):
            # RMS(y) = 1 applies the chapter's function: a claim, which re-means nothing
            for name in (named.name, f"bold {named.name}"):
                if name in chapter.definitions:
                    target.rebound.add(name)


def with_cases(notation: Notation, cases: list[str]) -> tuple[Notation, bool] | None:
    """The notation with what the cases of a sentence set, for the rest of that sentence
    only, and whether they set values (「$\\boldsymbol{m} = (1, 0, 1, 1)$ のとき」: a
    statement then is worked at them) or only make names one (「（$d_{\\mathrm{in}} =
    d_{\\mathrm{out}} = d$）では」: tried at points still); None when a case is neither
    (「$t > 0$ では」, 「$n = 2d$ のとき」)."""
    local, concrete = notation.copy(), False
    for case in cases:
        members, relations = split_relations(case.strip().rstrip(".,"))
        keys = [_key(m) for m in members[:-1]]
        if len(members) < 2 or set(relations) != {"="} or None in keys:
            return None
        try:
            value = parse(members[-1])
        except TexError:
            return None
        for key in keys:
            assert key is not None
            if _is_literal(value):
                local.settings[key] = value
                local.fixed[key] = value
                concrete = True
            elif value.op == "name":  # the special case where the names are one
                local.definitions[key] = Definition(key, (), None, None, value, 0)
            else:
                return None
    return local, concrete


def with_bounds(notation: Notation, cases: list[str]) -> tuple[Notation, frozenset[str]] | None:
    """The notation with the ranges the cases of a sentence state (「$x > 0$ のとき」,
    「$k \\ge 2$ では」), for the rest of that sentence only: each narrows the range its name
    is drawn in, so that a witness meets the case. The last case of a name is the one in
    force (「$x > 0$ のとき …、$x < 0$ のとき …」). With the names bounded; None when a case
    is no such bound, or bounds what is not drawn at points of its own: a defined name, a
    size, a vector."""
    local, stated = notation.copy(), dict[str, Range]()
    for case in cases:
        bound = _BOUND.match(case.strip().rstrip(".,"))
        if bound is None:
            return None
        for name in re.split(r"\s*,\s*", bound.group(3)):
            key = _key(name)
            if key is None or key in notation.sizes or notation.defines(key):
                return None
            if notation.knows(key) and key not in notation.shapes:
                return None  # e, π, an elementary function
            stated[key] = _range(bound)
    for key, case_range in stated.items():
        shape = local.shapes.get(key, Shape())
        if shape.dimensions or shape.words:
            return None
        both = shape.range.within(case_range)
        # a range apart from the case's is another case's (「$x > 0$ のとき」 read before)
        local.shapes[key] = replace(shape, range=both if both.nonempty() else case_range)
    return local, frozenset(stated)


def _states(element: Element, line: int) -> bool:
    """Whether the line is in a 定義, or in the statement of a proposition, a lemma, a
    theorem or a corollary."""
    if element.kind == "definition":
        return True
    first, last = element.statement
    return element.kind in _STATING and first <= line <= last


def _range(bound: re.Match[str]) -> Range:
    """The range `0 < λ < 1`, `T > 0`, `x \\ge 1` states."""
    low_text, low_op, _, op, value = bound.groups()
    number = _fraction(value)
    if low_text is not None:
        return Range(low=_fraction(low_text), high=number)
    if op in (">", r"\ge", r"\geq"):
        return Range(low=number)
    return Range(high=number)


# a subscript written as a word: N_{\mathrm{tied}}, M_{\text{sh}}
_WORDED_SUBSCRIPT = re.compile(r"_\{?\s*\\(?:mathrm|text|operatorname)\{[A-Za-z]{2,}\}")


def _definition(left: Node, right: Node, line: int, worded: bool = False) -> Definition | None:
    """The definition `left := right` makes, if its left side is a name, a function of
    names, or either with an index. `worded`: its subscript is a word (N_{\\mathrm{tied}},
    M_{\\mathrm{sh}}(k, t)), part of a name of its own, not indices."""
    index = None
    own = _worded_name(left) if worded else None
    if own is not None:  # N_{\mathrm{tied}} := …
        return Definition(own, (), None, None, right, line)
    if (
        left.op == "sub"
        and left.args[0].op == "name"
        and left.args[1].op == "text"
        and len(left.args[1].args[0]) == 1
        and not left.args[1].args[0].islower()  # ρ_H, W_Q, c_0 := …: a name of its own
    ):
        return Definition(
            f"{left.args[0].args[0]}_{left.args[1].args[0]}", (), None, None, right, line
        )
    if (
        left.op == "sub"
        and left.args[1].op == "text"
        and len(left.args[1].args[0]) == 1
        and left.args[1].args[0].isalpha()  # p_j defines the entries; p_1 is one of them
    ):
        inner, index = left.args[0], left.args[1].args[0]
        if inner.op == "name":  # p_j := …: the entries of p
            return Definition(inner.args[0], (), None, index, right, line)
        left = inner
    if left.op == "name":
        return Definition(left.args[0], (), None, index, right, line) if index is None else None
    if left.op != "call":
        return None
    function, args = left.args
    params = tuple(a.args[0] for a in args if a.op == "name")
    if len(params) != len(args):
        return None
    if function.op == "name":
        return Definition(function.args[0], params, None, index, right, line)
    if (
        function.op == "sub"
        and function.args[0].op == "name"
        and function.args[1].op == "text"
        and len(function.args[1].args[0]) == 1
        and function.args[1].args[0].isalpha()  # S_j(r) := …; S_0(r) := 0 is one value of it
    ):
        return Definition(
            function.args[0].args[0], params, function.args[1].args[0], index, right, line
        )
    if (
        function.op == "sub"
        and function.args[0].op == "name"
        and function.args[1].op == "text"
        # GELU_{\tanh}(x), M_{\mathrm{sh}}(k, t): a function of its own
        and (function.args[1].args[0].startswith("\\") or (worded and _worded_name(function)))
    ):
        name = f"{function.args[0].args[0]}_{function.args[1].args[0]}"
        return Definition(name, params, None, index, right, line)
    return None


def _worded_name(node: Node) -> str | None:
    """N_tied of N_{\\mathrm{tied}}: the evaluator's name for a name whose subscript is a
    word of two letters or more; None for anything else."""
    if node.op == "sub" and node.args[0].op == "name" and node.args[1].op == "text":
        word = node.args[1].args[0]
        if len(word) > 1 and word.isalpha():
            return f"{node.args[0].args[0]}_{word}"
    return None


def _unusable(definition: Definition) -> bool:
    """A definition in terms of a name the chapter does not define (σ(z/T) with σ from
    another chapter), which a later one of the same name may replace."""
    used = tree_names(definition.body) - set(definition.params) - {definition.subscript}
    return any(n not in FUNCTIONS and n not in CONSTANTS and len(n) > 1 for n in used)


def _is_unit(node: Node) -> bool:
    """\\boldsymbol{1} or \\boldsymbol{0}: a vector of ones or zeros, as a setting's value."""
    return node.op == "name" and node.args[0] in ("bold 1", "bold 0")


def _is_literal(node: Node) -> bool:
    """A number (1/2 as well as 0.5), or a tuple or matrix of numbers."""
    if node.op == "num":
        return True
    if node.op == "div":
        return all(_is_literal(n) for n in node.args)
    if node.op == "add":
        return all(_is_literal(n) for _, n in node.args)
    if node.op == "tuple":
        return all(_is_literal(n) for n in node.args)
    if node.op == "T":  # (1, 1, 1)^T: a column written as a row
        return _is_literal(node.args[0])
    if node.op == "matrix":
        return all(_is_literal(n) for row in node.args for n in row)
    return False


def closure(start: Iterable[str], step: Callable[[str], Iterable[str]]) -> set[str]:
    """The names from `start` and those `step` gives of each name reached, in turn: what a
    formula reaches through the definitions (and settings, and shapes) it names."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += step(name)
    return seen


def names_of(tree: Node) -> Iterator[str]:
    """The names a formula uses, for asking whether a notation knows them all."""
    yield from sorted(tree_names(tree))
