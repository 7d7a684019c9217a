"""LaTeX in the chapters' notation: a LatexPrinter subclass and the key formulas.

Vectors (column MatrixSymbols) are bold, the transpose is ^{\\mathsf{T}}, the
diagonal matrix is \\mathrm{diag}, the sizes are d_{\\mathrm{ff}}, L_{\\mathrm{ctx}}
and |V|, products are juxtaposed (4d^2 + 4d, not 4 d^{2}), functions are written
\\Phi(t), parentheses are plain, matrices are pmatrix, and the terms of a sum come
in the chapters' order: in a polynomial, higher total degree first, then lower
degree in n first (4nd^2 + 2n^2 d), then d_ff before d; a sum that would open
with a minus sign opens with its positive constant instead (1 - s, 2 - t^2, not
-s + 1); a sum of terms with functions puts the simplest term first
(\\Phi(t) + t\\varphi(t), 1 - \\max(s, t)).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sympy import Add, Expr, MatAdd, MatMul, Mul, Poly, Symbol, count_ops
from sympy.core.function import AppliedUndef
from sympy.matrices.expressions import Identity, MatrixSymbol
from sympy.matrices.expressions.diagonal import DiagMatrix
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE

from symbolic.symbols import L, L_ctx, V, d, d_ff, d_k, h, m, n

NAMES = {
    d_ff: r"d_{\mathrm{ff}}",
    L_ctx: r"L_{\mathrm{ctx}}",
    V: r"|V|",
    d_k: r"d_k",
}
# order of the factors inside a monomial: |V| d, L_ctx d, hn^2, 4nd^2, 2d d_ff
FACTOR_ORDER = (V, L_ctx, L, h, n, m, d, d_ff, d_k)
WIDE = {d_ff, L_ctx, V}  # multi-letter symbols, set off by \, as the chapters do


class ChapterLatexPrinter(LatexPrinter):
    """LatexPrinter writing the chapters' notation (see the module docstring).

    `term_order`: monomials (without coefficients) to print first, in that order,
    where a chapter departs from the default order; `factor_order`: the order of
    symbols inside a monomial (default FACTOR_ORDER).

    >>> ChapterLatexPrinter().doprint(4 * n * d**2 + 2 * n**2 * d)
    '4nd^2 + 2n^2 d'
    """

    def __init__(
        self,
        settings: dict | None = None,
        term_order: Sequence[Expr] = (),
        factor_order: Sequence[Symbol] = FACTOR_ORDER,
    ) -> None:
        super().__init__({"mat_str": "pmatrix", "mat_delim": "", **(settings or {})})
        self.term_order = tuple(term_order)
        self.factor_order = tuple(factor_order)

    def _rank(self, sym: Symbol) -> tuple[int, str]:
        order = self.factor_order
        return (order.index(sym) if sym in order else len(order), sym.name)

    def _term_rank(self, gens, monom) -> tuple:
        term = Mul(*(g**p for g, p in zip(gens, monom, strict=True)))
        if term in self.term_order:
            return (0, self.term_order.index(term))
        degree = sum(monom)
        in_n = monom[gens.index(n)] if n in gens else 0
        in_ff = monom[gens.index(d_ff)] if d_ff in gens else 0
        return (1, -degree, in_ff, in_n)

    def doprint(self, expr: Expr) -> str:
        """The LaTeX of expr, with LatexPrinter's \\left( \\right) pairs as plain ( )."""
        return super().doprint(expr).replace(r"\left(", "(").replace(r"\right)", ")")

    def _print_AppliedUndef(self, expr: AppliedUndef) -> str:
        args = ", ".join(self._print(a) for a in expr.args)
        return f"{self._print(Symbol(expr.func.__name__))}({args})"

    def _print_Symbol(self, expr: Symbol, style: str = "plain") -> str:
        if expr in NAMES:
            return NAMES[expr]
        return super()._print_Symbol(expr, style)

    def _print_MatrixSymbol(self, expr: MatrixSymbol) -> str:
        name = expr.name
        body = "1" if name == "1" else self._print(Symbol(name))
        return rf"\boldsymbol{{{body}}}" if expr.shape[1] == 1 else body

    def _print_Identity(self, expr: Identity) -> str:
        return "I"

    def _print_DiagMatrix(self, expr: DiagMatrix) -> str:
        return rf"\mathrm{{diag}}({self._print(expr.args[0])})"

    def _print_Transpose(self, expr) -> str:
        return rf"{self._print(expr.arg)}^{{\mathsf{{T}}}}"

    def _print_MatMul(self, expr: MatMul) -> str:
        coeff, factors = expr.as_coeff_matrices()
        body = "".join(self._print(f) for f in factors)
        if coeff == 1:
            return body
        if coeff == -1:
            return "-" + body
        sign = "-" if coeff.could_extract_minus_sign() else ""
        magnitude = -coeff if sign else coeff
        if len(factors) == 1 and isinstance(factors[0], MatAdd):
            body = rf"\Big( {body} \Big)"
        return sign + self._print(magnitude) + body

    def _print_MatAdd(self, expr: MatAdd) -> str:
        terms = sorted(expr.args, key=lambda t: self._print(t).startswith("-"))
        out = ""
        for t in terms:
            s = self._print(t)
            out += (" - " + s[1:]) if s.startswith("-") else ((" + " if out else "") + s)
        return out

    def _monomial(self, coeff, powers: dict) -> str:
        parts: list[tuple[str, Symbol]] = []
        for sym in sorted(powers, key=self._rank):
            p = powers[sym]
            text = self._print(sym) + (f"^{p}" if p != 1 else "")
            if parts and (sym in WIDE or parts[-1][1] in WIDE):
                parts.append((r"\," + text, sym))
            elif parts and parts[-1][0].endswith(tuple("0123456789")):
                parts.append((" " + text, sym))
            else:
                parts.append((text, sym))
        body = "".join(t for t, _ in parts)
        if not body:
            return self._print(coeff)
        if coeff == 1:
            return body
        return self._print(coeff) + body

    def _print_Add(self, expr: Add, order=None) -> str:
        gens = sorted(expr.free_symbols, key=self._rank)
        if not gens or not expr.is_polynomial(*gens):
            return self._print_sum_of_functions(expr, order)
        poly = Poly(expr, *gens)
        terms = _positive_constant_first(
            sorted(poly.terms(), key=lambda t: self._term_rank(gens, t[0])),
            negative=lambda t: t[1] < 0,
            constant=lambda t: not any(t[0]),
        )
        out = ""
        for monom, coeff in terms:
            powers = {g: p for g, p in zip(gens, monom, strict=True) if p}
            sign = "-" if coeff < 0 else "+"
            text = self._monomial(abs(coeff), powers)
            out += (f" {sign} " if out else ("-" if sign == "-" else "")) + text
        return out

    def _print_sum_of_functions(self, expr: Add, order=None) -> str:
        """A sum that is not a polynomial: positive terms first, and the simplest
        (fewest operations) first among those of one sign, SymPy's order among equals."""

        def magnitude(term: Expr) -> Expr:
            return -term if term.could_extract_minus_sign() else term

        terms = sorted(
            self._as_ordered_terms(expr, order=order),
            key=lambda t: (t.could_extract_minus_sign(), count_ops(magnitude(t))),
        )
        out = ""
        for term in terms:
            sign = "-" if term.could_extract_minus_sign() else "+"
            text = self.parenthesize(magnitude(term), PRECEDENCE["Add"], strict=True)
            out += (f" {sign} " if out else ("-" if sign == "-" else "")) + text
        return out

    def _print_Mul(self, expr: Mul) -> str:
        numerator, denominator = expr.as_numer_denom()
        if denominator != 1 and not denominator.is_Number:
            gens = sorted(expr.free_symbols, key=self._rank)
            if gens and numerator.is_polynomial(*gens) and denominator.is_polynomial(*gens):
                sign = "-" if numerator.could_extract_minus_sign() else ""
                top = -numerator if sign else numerator
                return rf"{sign}\frac{{{self._print(top)}}}{{{self._print(denominator)}}}"
        gens = sorted(expr.free_symbols, key=self._rank)
        if gens and expr.is_polynomial(*gens) and len(Poly(expr, *gens).terms()) == 1:
            ((monom, coeff),) = Poly(expr, *gens).terms()
            powers = {g: p for g, p in zip(gens, monom, strict=True) if p}
            text = self._monomial(abs(coeff), powers)
            return ("-" if coeff < 0 else "") + text
        return super()._print_Mul(expr)


def _positive_constant_first(terms: list, negative, constant) -> list:
    """Move a positive constant to the front of a sum that would open with a minus:
    1 - s and 2 - t^2, as the chapters write them, rather than -s + 1."""
    if not terms or not negative(terms[0]):
        return terms
    first = next((t for t in terms if constant(t) and not negative(t)), None)
    return terms if first is None else [first, *(t for t in terms if t is not first)]


def chapter_latex(
    expr: Expr, term_order: Sequence[Expr] = (), factor_order: Sequence[Symbol] = FACTOR_ORDER
) -> str:
    """expr in the chapters' notation (see ChapterLatexPrinter for the two orders).

    >>> print(chapter_latex(2 * d * d_ff + d_ff + d, term_order=(d * d_ff, d_ff, d)))
    2d\\,d_{\\mathrm{ff}} + d_{\\mathrm{ff}} + d
    """
    return ChapterLatexPrinter(term_order=term_order, factor_order=factor_order).doprint(expr)


def softmax_jacobian_expression(size: Expr = n) -> Expr:
    """diag(sigma) - sigma sigma^T as a matrix expression (命題 3.2).

    >>> print(chapter_latex(softmax_jacobian_expression()))
    \\mathrm{diag}(\\boldsymbol{\\sigma}) - \\boldsymbol{\\sigma}\\boldsymbol{\\sigma}^{\\mathsf{T}}
    """
    sigma = MatrixSymbol("sigma", size, 1)
    return MatAdd(DiagMatrix(sigma), -sigma * sigma.T)


def layer_norm_jacobian_expression(size: Expr = d) -> Expr:
    """(1/sigma)(I - (1/d) 1 1^T - (1/d) y y^T) as a matrix expression (命題 3.3).

    >>> layer_norm_jacobian_expression().shape
    (d, d)
    """
    sigma = Symbol("sigma", positive=True)
    y = MatrixSymbol("y", size, 1)
    one = MatrixSymbol("1", size, 1)
    inner = MatAdd(
        Identity(size),
        MatMul(-1 / size, one, one.T),
        MatMul(-1 / size, y, y.T),
        evaluate=False,
    )
    return MatMul(1 / sigma, inner, evaluate=False)


def model_parameters_latex(parts: dict[str, Expr]) -> str:
    """定理 5.1's count from its groups, per-layer groups inside L(...), in the chapter's
    order (groups kept apart: 4d + d + 4d is not collected, as the chapter writes it).

    >>> print(model_parameters_latex({"embeddings": V * d, "attention": 4 * d**2}))
    |V|\\,d + L(4d^2)
    """
    per_layer = ("attention", "mlp", "layer norms")
    outer = [chapter_latex(parts[k]) for k in ("embeddings", "positions") if k in parts]
    mlp_order = (d * d_ff, d_ff, d)  # the chapter writes 2d d_ff + d_ff + d
    inner = " + ".join(
        chapter_latex(parts[k], mlp_order if k == "mlp" else ()) for k in per_layer if k in parts
    )
    tail = [chapter_latex(parts[k]) for k in ("final layer norm", "output") if k in parts]
    return " + ".join([*outer, f"L({inner})", *tail])


_SPACING = re.compile(r"\\\\|\\[,;:! ]|\\(?:big|Big|bigg|Bigg|left|right)(?![a-zA-Z])|\s+")
_BRACED_TOKEN = re.compile(r"([_^])\{([A-Za-z0-9])\}")


def normalise_tex(s: str) -> str:
    """Drop spacing commands, \\big/\\left sizing and whitespace, and braces around a
    single-character sub- or superscript, so equal formulas compare equal.

    >>> normalise_tex(r"\\left( x^{2} \\right)\\,")
    '(x^2)'
    """
    s = _SPACING.sub(lambda m: m.group() if m.group() == "\\\\" else "", s)
    previous = None
    while previous != s:
        previous, s = s, _BRACED_TOKEN.sub(r"\1\2", s)
    return s
