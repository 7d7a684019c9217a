"""Judges: decide whether a SymPy difference is zero, and certify non-negativity.

Derivations elsewhere return SymPy objects; only this module says yes or no.
`is_zero` answers True only when it has reduced the expression to the zero
polynomial (it never guesses from sample points). Square roots of polynomials,
which the LayerNorm formulas are full of, are replaced by fresh symbols r with
their defining relation r^2 = b, and powers of r are reduced by it: a
difference A + B r is declared zero only when A = B = 0. That is sound (it can
only miss identities, never invent one) and fast, where `simplify` on the same
matrices takes minutes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from sympy import (
    Add,
    Basic,
    Dummy,
    Expr,
    Function,
    KroneckerDelta,
    MatrixBase,
    Mul,
    Number,
    Piecewise,
    Pow,
    Rational,
    S,
    Sum,
    Symbol,
    expand,
    factor_terms,
    simplify,
    sqrt,
    sympify,
    together,
)


@lru_cache(maxsize=4096)
def _expanded(base: Expr) -> Expr:
    """expand(base); for polynomials through sparse polynomial arithmetic, several
    times faster than expand on the large sums of squares of a LayerNorm."""
    from sympy.polys.domains import QQ
    from sympy.polys.rings import ring

    gens = sorted(base.free_symbols, key=str)
    if gens and base.is_polynomial(*gens):
        try:
            return ring(gens, QQ)[0].from_expr(base).as_expr()
        except ValueError:  # coefficients outside QQ (e.g. sqrt(2))
            pass
    return expand(base)


@lru_cache(maxsize=4096)
def _split_radicand(base: Expr) -> tuple[Expr, tuple[Expr, ...]]:
    """base = outside^2 * prod(parts): squares of positive factors come out, each
    positive (or non-negative) factor and the rational content become their own part,
    the rest stays together, so sqrt(a^2 d B) = a sqrt(d) sqrt(B) for a, d > 0."""
    outside, parts, rest = S.One, [], S.One
    expanded = _expanded(base)
    terms = Add.make_args(expanded)
    shared = set.intersection(*(t.free_symbols for t in terms)) if len(terms) > 1 else {1}
    factors = (
        Mul.make_args(factor_terms(expanded)) if shared else expanded.as_content_primitive()
    )
    for f in factors:
        b, e = f.as_base_exp()
        if e.is_Integer and e >= 2 and not isinstance(b, Add) and b.is_positive:
            outside *= b ** (int(e) // 2)
            f = b ** (int(e) % 2)
        if f.is_Rational and sqrt(f).is_Rational:
            outside *= sqrt(f)
            continue
        if f == 1:
            continue
        if f.is_Rational or (not isinstance(f, Add | Number) and f.is_nonnegative):
            parts.append(f if f.is_Rational else _expanded(f))
        else:
            rest *= f
    if rest != 1:
        parts.append(_expanded(rest))
    return outside, tuple(parts)


def _radicals_to_symbols(
    expr: Basic, roots: dict[Expr, Symbol] | None = None
) -> tuple[Basic, dict[Symbol, Expr]]:
    """Replace every b**(p/2) by outside**p * prod(r**p) over the parts of b
    (`_split_radicand`), with r**2 = part; return the expression and the relations
    r -> part. `roots` (part -> r) is extended in place when given, so several
    expressions can share their radicals."""
    roots = {} if roots is None else roots
    replacements = {}
    for p in expr.atoms(Pow):
        if p.exp.is_Rational and p.exp.q == 2:
            outside, parts = _split_radicand(p.base)
            k = int(p.exp * 2)
            value = outside**k
            for part in parts:
                if part not in roots:
                    roots[part] = Dummy("r", positive=True)
                value *= roots[part] ** k
            replacements[p] = value
    reduced = expr.xreplace(replacements) if replacements else expr
    return reduced, {r: b for b, r in roots.items()}


def _reduce_powers(poly: Expr, relations: dict[Symbol, Expr]) -> Expr:
    """Rewrite r**k as b**(k // 2) * r**(k % 2) for every relation r**2 = b."""
    for _ in range(4):  # relations whose bases hold other radicals need a few rounds
        changed = False
        replacements = {}
        for p in poly.atoms(Pow):
            if p.base in relations and p.exp.is_Integer and abs(p.exp) >= 2:
                k = int(p.exp)
                replacements[p] = relations[p.base] ** (k // 2) * p.base ** (k % 2)
        if replacements:
            poly = expand(poly.xreplace(replacements))
            changed = True
        if not changed:
            break
    return poly


class RadicalField:
    """Expressions polynomial in some variables, in square roots r = sqrt(b) of
    polynomials b, and in their inverses u = 1/r: exact arithmetic, differentiation
    by the chain rule, and a zero test.

    Elements are sparse polynomials over QQ in the variables, r and u (no
    fractions, so no gcd computations). Derivatives use dr/dx = (db/dx) u / 2 and
    du/dx = -(db/dx) u^3 / 2. An element is zero when, multiplied by r^N to clear u
    (r u = 1), its r-powers reduced by r^2 = b, it is the zero polynomial. This is
    what makes a 16 x 16 LayerNorm Jacobian a matter of a second.
    """

    def __init__(self, exprs: Iterable[Basic], variables: Iterable[Symbol]) -> None:
        from sympy.polys.domains import QQ
        from sympy.polys.rings import ring

        self.roots: dict[Expr, Symbol] = {}
        free: set[Symbol] = set(variables)
        for e in exprs:
            reduced, _ = _radicals_to_symbols(sympify(e), self.roots)
            free |= reduced.free_symbols
        self.relations = {r: b for b, r in self.roots.items()}
        self.inverse = {r: Dummy("u", positive=True) for r in self.relations}
        for b in self.roots:
            free |= b.free_symbols
        free -= set(self.relations)
        self.variables = sorted(free, key=str)
        names = self.variables + list(self.relations) + list(self.inverse.values())
        self.ring, *gens = ring(names, QQ)
        self.gen = dict(zip(names, gens, strict=True))
        self._base = {r: self.ring.from_expr(b) for r, b in self.relations.items()}

    def element(self, expr: Expr):
        """expr as a ring element; its radicals (and their inverses and the inverses of
        their squares) must be known to the field."""
        reduced, relations = _radicals_to_symbols(sympify(expr), self.roots)
        if set(relations) - set(self.relations):
            raise ValueError(f"RadicalField: expr holds a radical it was not built with: {expr}")
        swap = {}
        for p in reduced.atoms(Pow):
            if p.exp.is_Integer and p.exp < 0:
                if p.base in self.inverse:
                    swap[p] = self.inverse[p.base] ** -p.exp
                    continue
                outside, parts = _split_radicand(p.base)
                if parts and all(part in self.roots for part in parts):
                    k = int(-p.exp)
                    swap[p] = outside ** (-2 * k) * Mul(
                        *(self.inverse[self.roots[part]] ** (2 * k) for part in parts)
                    )
        return self.ring.from_expr(reduced.xreplace(swap))

    def diff(self, f, x: Symbol):
        """df/dx through the radicals: dr/dx = (db/dx) u / 2, du/dx = -(db/dx) u^3 / 2."""
        out = f.diff(self.gen[x])
        for r, b in self._base.items():
            db = b.diff(self.gen[x])
            if db != 0:
                R, U = self.gen[r], self.gen[self.inverse[r]]
                out += (f.diff(R) * U - f.diff(U) * U**3) * db / 2
        return out

    def jacobian(self, fs, xs) -> list[list]:
        """[[d f / d x for x in xs] for f in fs], the radical factors computed once per f."""
        grads = {r: [b.diff(self.gen[x]) for x in xs] for r, b in self._base.items()}
        out = []
        for f in fs:
            through = {}
            for r in self._base:
                R, U = self.gen[r], self.gen[self.inverse[r]]
                through[r] = (f.diff(R) * U - f.diff(U) * U**3) / 2
            row = []
            for j, x in enumerate(xs):
                value = f.diff(self.gen[x])
                for r, g in through.items():
                    if g and grads[r][j]:
                        value += g * grads[r][j]
                row.append(value)
            out.append(row)
        return out

    def reduce(self, f):
        """f times r^N for each radical (N = its u-degree), with u = 1/r and r^2 = b used."""
        poly = f
        for r, b in self._base.items():
            i = self.ring.gens.index(self.gen[r])
            k = self.ring.gens.index(self.gen[self.inverse[r]])
            top = max((m[k] for m in poly.monoms()), default=0)
            out = self.ring.zero
            for monom, coeff in poly.terms():
                power = monom[i] + top - monom[k]
                rest = list(monom)
                rest[i], rest[k] = power % 2, 0
                out += self.ring({tuple(rest): coeff}) * b ** (power // 2)
            poly = out
        return poly

    def is_zero(self, f) -> bool:
        return self.reduce(f) == 0

    def evaluate(self, expr: Expr, values: dict, inverses: dict | None = None, memo=None):
        """A small expression in other symbols as a ring element: each symbol s is
        replaced by values[s] and s**-k by inverses[s]**k (rational coefficients).
        `memo` (a dict shared between calls) reuses equal sub-expressions."""
        inverses = inverses or {}
        memo = {} if memo is None else memo
        expr = sympify(expr)
        if expr in memo:
            return memo[expr]
        if expr.is_Rational:
            out = self.ring(expr)
        elif expr in values:
            out = values[expr]
        elif expr.is_Symbol and expr in self.gen:
            out = self.gen[expr]
        elif isinstance(expr, Add):
            out = self.ring.zero
            for a in expr.args:
                out += self.evaluate(a, values, inverses, memo)
        elif isinstance(expr, Mul):
            out = self.ring.one
            for a in expr.args:
                out *= self.evaluate(a, values, inverses, memo)
        elif isinstance(expr, Pow) and expr.exp.is_Integer and expr.exp >= 0:
            out = self.evaluate(expr.base, values, inverses, memo) ** int(expr.exp)
        elif isinstance(expr, Pow) and expr.exp.is_Integer and expr.base in inverses:
            out = inverses[expr.base] ** int(-expr.exp)
        else:
            raise ValueError(f"RadicalField.evaluate: cannot evaluate {expr} in the ring")
        memo[expr] = out
        return out

    def to_expr(self, f) -> Expr:
        """f as a SymPy expression in the variables, r and u (built term by term)."""
        terms = []
        for monom, coeff in f.terms():
            factors = [Rational(coeff.numerator, coeff.denominator)]
            for symbol, power in zip(self.ring.symbols, monom, strict=True):
                if power:
                    factors.append(symbol**power)
            terms.append(Mul(*factors))
        return Add(*terms)


def _has_functions(expr: Expr) -> bool:
    """Whether expr holds function applications (exp, erf, Sum, ...), not only +, *, **."""
    return bool(expr.atoms(Function, Sum))


def _is_zero_scalar(expr: Expr) -> bool:
    expr = sympify(expr)
    if expr == 0:
        return True
    reduced, relations = _radicals_to_symbols(expr)
    numerator = expand(together(reduced).as_numer_denom()[0])
    if relations:
        numerator = _reduce_powers(numerator, relations)
    if numerator == 0:
        return True
    if not _has_functions(numerator):
        return False  # a non-zero polynomial in symbols and radicals
    return simplify(numerator) == 0


def is_zero(expr: Expr | MatrixBase) -> bool:
    """True when `expr` (a scalar or every entry of a matrix) is proved to be zero."""
    if isinstance(expr, MatrixBase):
        return all(_is_zero_scalar(e) for e in expr)
    return _is_zero_scalar(expr)


def equal(a: Expr | MatrixBase, b: Expr | MatrixBase) -> bool:
    """True when a - b is proved to be zero (shapes must agree for matrices)."""
    if isinstance(a, MatrixBase) or isinstance(b, MatrixBase):
        if not (isinstance(a, MatrixBase) and isinstance(b, MatrixBase)):
            raise TypeError(
                f"equal: a and b must both be matrices or both scalars, "
                f"got {type(a).__name__} and {type(b).__name__}"
            )
        if a.shape != b.shape:
            return False
    return is_zero(a - b)


class Derivation:
    """A derived result beside the stated one, their difference, and the verdict.

    `derived`, `stated` and `difference` may be given as zero-argument callables
    when building them as SymPy objects is costly (a 16 x 16 Jacobian); they are
    then built on first access.
    """

    __slots__ = ("name", "holds", "_parts")

    def __init__(self, name: str, derived, stated, difference, holds: bool) -> None:
        self.name, self.holds = name, bool(holds)
        self._parts = {"derived": derived, "stated": stated, "difference": difference}

    def _part(self, key: str):
        value = self._parts[key]
        if callable(value) and not isinstance(value, Basic | MatrixBase):
            value = self._parts[key] = value()
        return value

    @property
    def derived(self):
        return self._part("derived")

    @property
    def stated(self):
        return self._part("stated")

    @property
    def difference(self):
        return self._part("difference")

    def __repr__(self) -> str:
        return f"Derivation({self.name!r}, holds={self.holds})"


def compare(name: str, derived: Expr | MatrixBase, stated: Expr | MatrixBase) -> Derivation:
    """Derivation of `name`: derived - stated, judged by `is_zero`."""
    if isinstance(derived, MatrixBase) and isinstance(stated, MatrixBase):
        if derived.shape != stated.shape:
            return Derivation(name, derived, stated, derived, False)
    difference = derived - stated
    return Derivation(name, derived, stated, difference, is_zero(difference))


def manifestly_nonnegative(expr: Expr, atoms: Iterable[Expr] = ()) -> bool:
    """True when expr is a sum of non-negative multiples of products of even powers
    and of `atoms` (expressions known to be >= 0, e.g. probabilities)."""
    atoms = set(atoms)

    def factor_ok(f: Expr) -> bool:
        if f in atoms:
            return True
        if isinstance(f, Number):
            return f >= 0
        if isinstance(f, Pow) and f.exp.is_Integer:
            return int(f.exp) % 2 == 0 or factor_ok(f.base)
        if f.is_nonnegative:
            return True
        if isinstance(f, Add):
            return all(term_ok(t) for t in f.args)
        return False

    def term_ok(t: Expr) -> bool:
        return all(factor_ok(f) for f in Mul.make_args(t))

    return all(term_ok(t) for t in Add.make_args(sympify(expr)))


@dataclass(frozen=True)
class Certificate:
    """expression = certificate (proved), and certificate >= 0 term by term."""

    claim: str
    expression: Expr
    certificate: Expr
    difference: Expr
    atoms: tuple[Expr, ...]

    @property
    def identity_holds(self) -> bool:
        return is_zero(self.difference)

    @property
    def nonnegative(self) -> bool:
        return manifestly_nonnegative(self.certificate, self.atoms)

    @property
    def holds(self) -> bool:
        return self.nonnegative and self.identity_holds


# ------------------------------------------------ sums over a symbolic range


def indices_in_range(expr: Expr, indices: tuple[Symbol, ...], upper: Symbol) -> Expr:
    """Resolve Piecewise conditions 1 <= i <= upper to True for the given indices."""

    def resolve(pw: Piecewise) -> Expr:
        facts = {}
        for i in indices:
            facts.update({i <= upper: True, upper >= i: True, i >= 1: True, 1 <= i: True})
        for value, cond in pw.args:
            if cond.xreplace(facts) == True:  # noqa: E712 (a SymPy boolean)
                return value
        return pw

    return expr.replace(lambda e: isinstance(e, Piecewise), resolve)


def collapse_deltas(expr: Expr) -> Expr:
    """delta_ij f(i, j) = delta_ij f(i, i): in each term with KroneckerDelta(i, j),
    replace the second index by the first everywhere else."""
    out = S.Zero
    for term in Add.make_args(expand(expr)):
        deltas = [f for f in Mul.make_args(term) if isinstance(f, KroneckerDelta)]
        for delta in deltas:
            a, b = delta.args
            rest = term / delta
            term = delta * rest.xreplace({b: a})
        out += term
    return expand(out)


def normalise_sums(expr: Expr, n: Symbol, facts: dict, indices: tuple) -> Expr:
    """Rewrite sums over 1..n into symbols: split sums over + and pull out factors
    free of the index, evaluate sums holding a KroneckerDelta, name what is left
    after renaming its index (so sum_j sigma_j v_j and sum_i sigma_i v_i coincide),
    and apply `facts` (sum -> value, e.g. sum_k sigma_k -> 1)."""
    k = Symbol("k", integer=True, positive=True)

    def one(body: Expr, index: Symbol) -> Expr:
        body = expand(body)
        if isinstance(body, Add):
            return sum((one(t, index) for t in body.args), start=S.Zero)
        free, bound = [], []
        for f in Mul.make_args(body):
            (bound if f.has(index) else free).append(f)
        if not bound:
            return Mul(*free) * n
        inner = Mul(*bound)
        if inner.has(KroneckerDelta):
            value = indices_in_range(Sum(inner, (index, 1, n)).doit(), indices, n)
            if not value.has(Sum):
                return Mul(*free) * value
        key = Sum(inner.xreplace({index: k}), (k, 1, n))
        if key in facts:
            return Mul(*free) * facts[key]
        return Mul(*free) * Symbol(f"[{key}]", real=True)  # the sum, named

    def walk(e: Expr) -> Expr:
        if isinstance(e, Sum):
            body = walk(e.function)
            for index, _, _ in e.limits:
                body = one(body, index)
            return body
        if e.args:
            return e.func(*(walk(a) for a in e.args))
        return e

    return collapse_deltas(walk(expr))
