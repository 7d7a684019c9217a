"""Readers of claims: the chapter's TeX turned into what a check judges.

Each reader takes a claim's text (the transcription, or the chapter's version
when the audit found it changed) and returns the value the check's argument
expects: a count polynomial in the chapters' symbols, an entry formula as a
function of (sigma, i, j), a printed number with its precision. A text the
reader cannot read raises TexError, which the audit reports at the claim's line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import sympy

from proofs.book.printed import Printed, as_printed, ungrouped
from proofs.reader.math import INLINE_MATH, split_relations
from proofs.tex.symbolic import Evaluator, Indexed
from proofs.tex.tree import Node, TexError, parse
from symbolic import symbols

SIZES = {  # the chapters' size names -> symbolic.symbols
    "n": symbols.n,
    "d": symbols.d,
    "h": symbols.h,
    "m": symbols.m,
    "d_k": symbols.d_k,
    "d_ff": symbols.d_ff,
    "|V|": symbols.V,
    "V": symbols.V,
    "L": symbols.L,
    "L_ctx": symbols.L_ctx,
}


def right_side(tex: str) -> str:
    """The last member of a relation chain (the whole text when it has no relation).

    >>> right_side(r"a = b + 1 = 3")
    '3'
    """
    members, _ = split_relations(tex)
    return members[-1].strip()


def left_side(tex: str) -> str:
    """The first member of a relation chain (the whole text when it has no relation).

    >>> left_side(r"\\sigma^2 = 31.5")
    '\\\\sigma^2'
    """
    members, _ = split_relations(tex)
    return members[0].strip()


def polynomial(tex: str) -> sympy.Expr:
    """A count's right side in the chapters' size symbols: 4nd^2 + 2n^2 d.

    >>> polynomial(r"T = 4nd^2 + 2n^2 d")
    4*d**2*n + 2*d*n**2
    """
    value = Evaluator(SIZES)(parse(right_side(tex)))
    if not isinstance(value, sympy.Expr):
        raise TexError(f"{tex!r} is not a polynomial in the sizes")
    return sympy.expand(value)


def entry_formula(sigma: str, *indices: str, **constants: Any) -> Callable[[str], Callable]:
    """A reader of an entry formula's right side as a function of (sigma, *indices):
    `\\sigma_i(\\delta_{ij} - \\sigma_j)` -> (sigma, i, j) -> sigma[i] (delta_ij - sigma[j]),
    with the caller's own index convention.

    >>> J = entry_formula("bold sigma", "i", "j")(r"J_{ij} = \\sigma_i(\\delta_{ij} - \\sigma_j)")
    >>> J([sympy.Rational(1, 4), sympy.Rational(3, 4)], 0, 0)
    3/16
    """

    def read(tex: str) -> Callable:
        tree = parse(right_side(tex))

        def formula(values: Any, *index_values: Any) -> Any:
            names = {
                sigma: Indexed(values),
                "delta": sympy.KroneckerDelta,
                **constants,
                **dict(zip(indices, index_values, strict=True)),
            }
            return Evaluator(names, entries={sigma.split()[-1]: sigma})(tree)

        return formula

    return read


def matrix_formula(**names: str) -> Callable[[str], Callable]:
    """A reader of a matrix formula's right side as a function of the named arguments:
    matrix_formula(sigma="bold sigma") reads `diag(sigma) - sigma sigma^T` as
    sigma -> diag(sigma) - sigma sigma^T. The size d, the identity I and the vectors 1
    and 0 take the size of the first argument.

    >>> J = matrix_formula(sigma="bold sigma")(
    ...     r"J = \\mathrm{diag}(\\boldsymbol{\\sigma}) - \\boldsymbol{\\sigma}"
    ...     r"\\boldsymbol{\\sigma}^T"
    ... )
    >>> J(sympy.Matrix([sympy.Rational(1, 2), sympy.Rational(1, 2)]))
    Matrix([
    [ 1/4, -1/4],
    [-1/4,  1/4]])
    """

    def read(tex: str) -> Callable:
        tree = parse(right_side(tex))

        def formula(*values: Any) -> Any:
            bound = {tex_name: v for tex_name, v in zip(names.values(), values, strict=True)}
            size = values[0].rows
            sized = {
                "d": sympy.Integer(size),
                "n": sympy.Integer(size),
                "I": sympy.eye(size),
                "bold 1": sympy.ones(size, 1),
                "bold 0": sympy.zeros(size, 1),
            }
            return Evaluator({**sized, **bound, "diag": lambda v: sympy.diag(*v)})(tree)

        return formula

    return read


def printed(tex: str) -> Printed:
    """The number on the right of the last relation, with its printed decimals; its
    digits grouped by `{,}` or a thin space or not (1{,}024, 1\\,024, 1024).

    >>> printed(r"\\sigma = 1.8708")
    Printed(value=1.8708, decimals=4)
    """
    text = right_side(tex).strip()
    found = as_printed(text)
    if found is None:
        raise TexError(f"{text!r} is not a printed number")
    return found


def integer(tex: str) -> int:
    """An integer on the right of the last relation: 1{,}050{,}624 (or 1\\,050\\,624)
    -> 1050624.

    >>> integer(r"4 \\times 512^2 = 1{,}050{,}624")
    1050624
    """
    text = right_side(tex).strip()
    found = as_printed(text)
    if found is None or found.decimals or "." in text:
        raise TexError(f"{text!r} is not a printed integer")
    return int(ungrouped(text.replace("\\,", "")).replace(" ", ""))


def function_of(*names: str) -> Callable[[str], Callable]:
    """A reader of a right side in the chapters' sizes as a function of the named ones:
    function_of("d_k") reads `d_k` as d_k -> d_k and `1` as d_k -> 1.

    >>> f = function_of("d_k")(r"\\mathrm{Var}(q \\cdot k) = d_k")
    >>> f(64)
    64
    """

    def read(tex: str) -> Callable:
        value = Evaluator(SIZES)(parse(right_side(tex)))
        keys = [SIZES[name] for name in names]

        def at(*values: Any) -> Any:
            return sympy.sympify(value).subs(dict(zip(keys, values, strict=True)))

        return at

    return read


def number(tex: str) -> sympy.Expr:
    """The right side as an exact number: `0`, `1`, `1/2`.

    >>> number(r"\\sigma_1 + \\sigma_2 = 1/2")
    1/2
    """
    value = Evaluator(SIZES)(parse(right_side(tex)))
    if not isinstance(value, sympy.Expr) or not value.is_number:
        raise TexError(f"{right_side(tex)!r} is not a number")
    return value


def plus_minus(tex: str) -> frozenset[sympy.Expr]:
    """The right side `\\pm a` as the set {-a, a} of exact numbers: `t = \\pm\\sqrt2`.

    >>> sorted(plus_minus(r"t = \\pm\\sqrt2"))
    [-sqrt(2), sqrt(2)]
    """
    side = right_side(tex).strip()
    if not side.startswith(r"\pm"):
        raise TexError(f"{side!r} does not start with \\pm")
    value = number("x = " + side.removeprefix(r"\pm"))
    return frozenset({-value, value})


def crossover(tex: str) -> sympy.Expr:
    """The size where two terms meet, as the chapter writes it: `n = 2d = 128` -> 2d (the
    first member in other sizes).

    >>> crossover("n = 2d = 128")
    2*d
    """
    members, _ = split_relations(tex)
    if len(members) < 2:
        raise TexError(f"{tex!r} states no crossover")
    return sympy.expand(Evaluator(SIZES)(parse(members[1].strip())))


def order(tex: str) -> sympy.Expr:
    """The argument of an O(·) the chapter states: `O(nd^2 + n^2 d)` -> n d^2 + n^2 d.

    >>> order(r"T = O(nd^2 + n^2 d)")
    d**2*n + d*n**2
    """
    match = re.fullmatch(r"\s*O\s*\((.*)\)\s*", right_side(tex), re.DOTALL)
    if match is None:
        raise TexError(f"{tex!r} states no O(·)")
    return polynomial(match.group(1))


def regime(tex: str) -> tuple[sympy.Symbol, sympy.Symbol]:
    """A regime between two sizes as (larger, smaller): `n \\ge d` -> (n, d), `h \\le d`
    -> (d, h).

    >>> regime(r"n \\ge d")
    (n, d)
    """
    members, relations = split_relations(tex)
    if len(members) != 2 or relations[0] not in (r"\ge", r"\le", r"\geq", r"\leq", "<", ">"):
        raise TexError(f"{tex!r} states no regime between two sizes")
    a, b = (Evaluator(SIZES)(parse(m.strip())) for m in members)
    if not all(isinstance(x, sympy.Symbol) for x in (a, b)):
        raise TexError(f"{tex!r} relates no two sizes")
    return (a, b) if relations[0] in (r"\ge", r"\geq", ">") else (b, a)


def formula_in_phrase(k: int) -> Callable[[str], sympy.Expr]:
    """A reader of the k-th formula (1-based) of a phrase as a polynomial in the sizes:
    「$n$ が $d$ より小さいあいだ」 with k = 2 -> d.

    >>> formula_in_phrase(2)("$n$ が $d$ より小さいあいだ")
    d
    """

    def read(text: str) -> sympy.Expr:
        formulas = INLINE_MATH.findall(text)
        if len(formulas) < k:
            raise TexError(f"{text!r} has no formula {k}")
        return polynomial(formulas[k - 1])

    return read


def tuple_of_numbers(tex: str) -> tuple[sympy.Expr, ...]:
    """A tuple on the right side as exact numbers: `(1/6, 1/3, 1/2)`.

    >>> tuple_of_numbers(r"p = (1/6, 1/3, 1/2)")
    (1/6, 1/3, 1/2)
    """
    value = Evaluator(SIZES)(parse(right_side(tex)))
    if not isinstance(value, sympy.MatrixBase) or not all(v.is_number for v in value):
        raise TexError(f"{right_side(tex)!r} is not a tuple of numbers")
    return tuple(value)


def printed_values(tex: str) -> Any:
    """The printed numbers on the right side, nested as written, each with its printed
    precision: a pmatrix is a list of rows, a tuple of tuples a list of lists, a tuple a
    list, a number a Printed (an integer among them is exact: 0 decimals, `exact`). Only
    numbers as printed are read: a member that computes (`e^{2}`, `\\frac{7}{2}`) is a
    TexError, never the digits found in it.

    >>> printed_values("p = (0.2, 0.80)")
    [Printed(value=0.2, decimals=1), Printed(value=0.8, decimals=2)]
    """
    return _printed_node(parse(right_side(tex)))


def _printed_node(node: Node) -> Any:
    if node.op == "tuple":
        return [_printed_node(item) for item in node.args]
    if node.op == "matrix":
        return [[_printed_node(item) for item in row] for row in node.args]
    if node.op == "add" and len(node.args) == 1 and node.args[0][0] == -1:
        inner = _printed_node(node.args[0][1])
        if isinstance(inner, Printed):
            return Printed(-inner.value, inner.decimals)
    if node.op == "num" and node.token:
        return _as_printed(node.token)
    raise TexError(f"{node!r} is not a number as printed")


def _as_printed(token: str) -> Printed:
    digits = ungrouped(token)
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return Printed(float(digits), decimals)


def divisor(tex: str) -> Printed:
    """The divisor of the left side `(a, b, c)/x`, as printed: the row sum the chapter
    divides by.

    >>> divisor("(1, 2, 3)/6 = (0.17, 0.33, 0.5)")
    Printed(value=6.0, decimals=0)
    """
    value = parse(left_side(tex))
    if value.op != "div" or value.args[1].op != "num" or not value.args[1].token:
        raise TexError(f"{left_side(tex)!r} is not a division by a printed number")
    return _as_printed(value.args[1].token)


def expression(tex: str) -> sympy.Expr:
    """The right side as an exact SymPy expression of numbers: `29/\\sqrt2`.

    >>> expression(r"x = 29/\\sqrt2")
    29*sqrt(2)/2
    """
    return sympy.sympify(Evaluator({})(parse(right_side(tex))))


def member(k: int, reader: Callable[[str], Any]) -> Callable[[str], Any]:
    """A reader of the k-th member (0-based) of a relation chain: member(1, printed) reads
    31.5 from `\\sigma^2 = \\frac14(36 + 9 + 0 + 81) = 31.5 = 9 \\times 3.5`.

    >>> member(2, printed)(r"\\sigma^2 = \\frac14(36 + 9 + 0 + 81) = 31.5 = 9 \\times 3.5")
    Printed(value=31.5, decimals=1)
    """

    def read(tex: str) -> Any:
        members, _ = split_relations(tex)
        if k >= len(members):
            raise TexError(f"{tex!r} has no member {k + 1}")
        return reader(members[k])

    return read


def printed_tuple(tex: str) -> tuple[Printed, ...]:
    """A printed tuple on the right side, each entry with its decimals: (-1.0690, 0, ...).

    >>> [(p.value, p.decimals) for p in printed_tuple(r"y = (-1.0690, 0, 1.3363)")]
    [(-1.069, 4), (0.0, 0), (1.3363, 4)]
    """
    text = right_side(tex)
    inner = re.fullmatch(r"\s*\((.*)\)\s*", text.replace(r"\ ", " "), re.S)
    if inner is None:
        raise TexError(f"{text!r} is not a printed tuple")
    return tuple(printed(part) for part in inner.group(1).split(","))


def integers(tex: str) -> tuple[int, ...]:
    """A tuple of integers on the right side: (1, 2, 3, 6) (1.0 is the integer 1; 1.5
    is no integer, a TexError).

    >>> integers("d = (1, 2, 3, 6)")
    (1, 2, 3, 6)
    """
    value = Evaluator({})(parse(right_side(tex)))
    if not isinstance(value, sympy.MatrixBase) or not all(v.is_integer for v in value):
        raise TexError(f"{right_side(tex)!r} is not a tuple of integers")
    return tuple(int(v) for v in value)


def radicand_terms(tex: str) -> tuple[Printed, ...]:
    """The printed terms under the first member's root: √(1.1428 + 0.2857 + 0 + 2.5714).

    >>> [p.value for p in radicand_terms(r"\\sqrt{1.1428 + 0.2857 + 0 + 2.5714} = 2")]
    [1.1428, 0.2857, 0.0, 2.5714]
    """
    members, _ = split_relations(tex)
    inner = re.fullmatch(r"\s*\\sqrt\{(.*)\}\s*", members[0], re.S)
    if inner is None:
        raise TexError(f"{members[0]!r} is not a square root")
    return tuple(printed(term) for term in inner.group(1).split("+"))


def affine_coefficients(tex: str) -> tuple[int, int]:
    """(a, b) of `a\\boldsymbol{x} + b\\cdot\\boldsymbol{1}` on the left side.

    >>> affine_coefficients(r"2\\boldsymbol{x} + 3\\cdot\\boldsymbol{1} = y")
    (2, 3)
    """
    match = re.fullmatch(
        r"\s*(\d+)\s*\\boldsymbol\{x\}\s*\+\s*(\d+)\s*\\cdot\s*"
        r"\\boldsymbol\{1\}\s*",
        left_side(tex),
    )
    if match is None:
        raise TexError(f"{left_side(tex)!r} is not a x + b 1")
    return int(match.group(1)), int(match.group(2))


def prose_integer(text: str) -> int:
    """The (last) integer a phrase of the prose prints: 「語彙は 50,257」 -> 50257,
    「4 層で $199{,}936$」 -> 199936,
    「例 5.3 の…結果は 124,439,808」 -> 124439808, 117M -> 117000000.

    >>> prose_integer("語彙は 50,257 です")
    50257
    >>> prose_integer("117M のパラメータ")
    117000000
    """
    matches = list(re.finditer(r"(\d{1,3}(?:(?:,|\{,\})\d{3})+|\d+)\s*(M)?", text))
    if not matches:
        raise TexError(f"{text!r} prints no integer")
    match = matches[-1]
    value = int(ungrouped(match.group(1)))
    return value * 1_000_000 if match.group(2) else value


def prose_integers(text: str) -> tuple[int, ...]:
    """Every integer a phrase prints, in order: 「固有値は 0 と 2」 -> (0, 2).

    >>> prose_integers("固有値は 0 と 2 です")
    (0, 2)
    """
    found = tuple(int(ungrouped(m)) for m in re.findall(r"\d{1,3}(?:,\d{3})+|\d+", text))
    if not found:
        raise TexError(f"{text!r} prints no integer")
    return found


def percentage(tex: str) -> Printed:
    """A printed percentage on the right side as a fraction: `\\\\approx 31\\\\%` -> 0.31 at 2
    decimals.

    >>> percentage(r"a/b \\approx 23.5\\%")
    Printed(value=0.235, decimals=3)
    """
    text = right_side(tex).replace(r"\%", "").strip()
    share = printed(text)
    return Printed(round(share.value / 100, share.decimals + 2), share.decimals + 2)


def prose_integer_last(text: str) -> int:
    """The last integer a phrase prints: 「8 通りのパターンのうち現れるのは 7 通り」 -> 7.

    >>> prose_integer_last("8 通りのパターンのうち現れるのは 7 通り")
    7
    """
    numbers = re.findall(r"\d+", text)
    if not numbers:
        raise TexError(f"{text!r} prints no integer")
    return int(numbers[-1])


def prose_rounded(text: str) -> tuple[int, int]:
    """An integer a phrase prints with its rounding: 「117M」 -> (117000000, 500000).

    >>> prose_rounded("およそ 117M")
    (117000000, 500000)
    """
    value = prose_integer(text)
    return value, (500_000 if re.search(r"\d\s*M", text) else 0)


def leading_terms(tex: str) -> sympy.Expr:
    """A count's leading terms: `… + O(nd)` with the O term dropped.

    >>> leading_terms(r"T = 4nd^2 + 2n^2 d + O(nd)")
    4*d**2*n + 2*d*n**2
    """
    kept = re.sub(r"\+\s*O\((?:[^()]|\([^()]*\))*\)\s*$", "", right_side(tex).strip())
    return polynomial(kept)


def sized_expression(tex: str) -> sympy.Expr:
    """The right side in the chapters' sizes, as written (a ratio is not expanded).

    >>> sized_expression(r"r = \\frac{2n^2 d}{4nd^2}")
    n/(2*d)
    """
    value = Evaluator(SIZES)(parse(right_side(tex)))
    if not isinstance(value, sympy.Expr):
        raise TexError(f"{right_side(tex)!r} is not an expression in the sizes")
    return value


def formula_of(*arguments: str, **constants: Any) -> Callable[[str], Callable]:
    """A reader of the right side as a function of the named arguments, the other names
    given: formula_of("t", varphi=phi) reads `(2 - t^2)\\\\varphi(t)` as t -> (2 - t^2) phi(t).

    >>> f = formula_of("t", varphi=sympy.Function("phi"))(r"g(t) = (2 - t^2)\\varphi(t)")
    >>> f(sympy.Symbol("t"))
    (2 - t**2)*phi(t)
    """

    def read(tex: str) -> Callable:
        tree = parse(right_side(tex))

        def formula(*values: Any) -> Any:
            names = {**constants, **dict(zip(arguments, values, strict=True))}
            return Evaluator(names)(tree)

        return formula

    return read


def product_terms(tex: str) -> tuple[tuple[int, ...], ...]:
    """The terms of an expanded product of (I + J_k): `I + J_1 + J_2J_1` -> ((), (1,), (2, 1)).

    >>> product_terms("P = I + J_1 + J_2J_1")
    ((), (1,), (2, 1))
    """
    terms: list[tuple[int, ...]] = []
    for term in right_side(tex).split("+"):
        term = term.strip()
        if term == "I":
            terms.append(())
            continue
        factors = re.findall(r"J_\{?(\d+)\}?", term)
        if not factors or re.sub(r"J_\{?\d+\}?", "", term).strip():
            raise TexError(f"{term!r} is not I or a product of J_k")
        terms.append(tuple(int(k) for k in factors))
    return tuple(terms)


def expression_in(**names: Any) -> Callable[[str], Any]:
    """A reader of the right side with the given names: expression_in(s=Symbol("s")) reads
    `s(1-s)\\\\begin{pmatrix}1 & -1\\\\\\\\ -1 & 1\\\\end{pmatrix}` as that matrix of s.

    >>> s = sympy.Symbol("s")
    >>> expression_in(s=s)(r"H = s(1-s)\\begin{pmatrix}1 & -1 \\\\ -1 & 1\\end{pmatrix}")
    Matrix([
    [ s*(1 - s), -s*(1 - s)],
    [-s*(1 - s),  s*(1 - s)]])
    """

    def read(tex: str) -> Any:
        return Evaluator(dict(names))(parse(right_side(tex)))

    return read


_DECIMAL = r"-?\d+(?:\.\d+)?(?:\s*\\times\s*10\^\{-?\d+\})?"


# what may stand between printed numbers: arithmetic, brackets, commas, spacing
_BETWEEN = re.compile(r"(?:\s|\\[,;:! ]|\\times|\\cdot|\\(?:big|Big)[lr]?|[-+/(),])*")


def printed_texts(tex: str) -> tuple[str, ...]:
    """The printed numbers of the right side as written, in Python's notation:
    `(0.2689, 0.7311, 0)` -> ("0.2689", "0.7311", "0"); `4.54 × 10^{-5}` -> "4.54e-5".
    A side that computes with anything but printed numbers (`e^{2}`, `\\frac{1}{2}`) is a
    TexError: the digits inside it are not numbers the chapter prints.

    >>> printed_texts(r"p = (0.2689, 0.7311, 4.54 \\times 10^{-5})")
    ('0.2689', '0.7311', '4.54e-5')
    """
    side = right_side(tex)
    found = re.findall(_DECIMAL, side)
    if not found:
        raise TexError(f"{side!r} prints no number")
    if not _BETWEEN.fullmatch(re.sub(_DECIMAL, "", side)):
        raise TexError(f"{side!r} computes with more than printed numbers")
    return tuple(re.sub(r"\s*\\times\s*10\^\{(-?\d+)\}", r"e\1", f) for f in found)


def printed_text(tex: str) -> str:
    """The one printed number of the right side, as written (see printed_texts).

    >>> printed_text(r"\\varepsilon \\approx 2.2 \\times 10^{-16}")
    '2.2e-16'
    """
    found = printed_texts(tex)
    if len(found) != 1:
        raise TexError(f"{right_side(tex)!r} prints {len(found)} numbers, expected one")
    return found[0]


def member_text(k: int, index: int) -> Callable[[str], str]:
    """The index-th printed number of the k-th member, as written: member_text(1, 0) reads
    "4.54e-5" from `e^{-10}e^{0.5}/10.1073 = 4.54\\\\times10^{-5} \\\\times 1.6487 / …`.

    >>> member_text(1, 0)(r"e^{-10}e^{0.5}/10.1073 = 4.54\\times10^{-5} \\times 1.6487 / 10.1073")
    '4.54e-5'
    """

    def read(tex: str) -> str:
        members, _ = split_relations(tex)
        found = printed_texts(members[k]) if k < len(members) else ()
        if index >= len(found):
            raise TexError(f"member {k + 1} of {tex!r} has no number {index + 1}")
        return found[index]

    return read


def table_rows(text: str) -> tuple[tuple[str, ...], ...]:
    """A table claim's body rows (the header dropped), each a tuple of its cells.

    >>> table_rows("$n$ | 合計\\n64 | 1,572,864\\n128 | 4,194,304")
    (('64', '1,572,864'), ('128', '4,194,304'))
    """
    rows = [tuple(cell.strip() for cell in line.split(" | ")) for line in text.splitlines()]
    if len(rows) < 2:
        raise TexError("a table claim needs a header and at least one row")
    return tuple(rows[1:])
