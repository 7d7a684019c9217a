"""Sums over a symbolic range 1..n, rewritten into a normal form that is zero only when the
sum is zero for every n: limits, end terms, shifted subscripts, Kronecker deltas, names.
"""

from __future__ import annotations

from sympy import (
    Add,
    Dummy,
    Expr,
    Indexed,
    KroneckerDelta,
    Mul,
    Piecewise,
    S,
    Sum,
    Symbol,
    expand,
    sympify,
)


def indices_in_range(expr: Expr, indices: tuple[Symbol, ...], upper: Symbol) -> Expr:
    """Resolve Piecewise conditions 1 <= i <= upper to True for the given indices: the
    first piece whose condition becomes True is taken, provided every piece before it
    is decided False; a condition left undecided leaves the Piecewise as it is.

    >>> from sympy import Piecewise, symbols
    >>> i, n = symbols("i n", integer=True, positive=True)
    >>> indices_in_range(Piecewise((1, i <= n), (0, True)), (i,), n)
    1
    """

    def resolve(pw: Piecewise) -> Expr:
        facts = {}
        for i in indices:
            facts.update({i <= upper: True, upper >= i: True, i >= 1: True})  # 1 <= i is i >= 1
        for value, cond in pw.args:
            decided = cond.xreplace(facts)
            if decided == True:  # noqa: E712 (a SymPy boolean)
                return value
            if decided != False:  # noqa: E712 undecided: a later piece may not be taken
                return pw
        return pw

    return expr.replace(lambda e: isinstance(e, Piecewise), resolve)


def collapse_deltas(expr: Expr) -> Expr:
    """delta_ij f(i, j) = delta_ij f(i, i): in each term, for each KroneckerDelta(a, b)
    in turn, replace one of its arguments by the other everywhere else in the term
    (a symbol by a number when one side is a number).

    >>> from sympy import KroneckerDelta, symbols
    >>> i, j = symbols("i j", integer=True)
    >>> collapse_deltas(KroneckerDelta(i, j) * (i - j))
    0
    """
    out = S.Zero
    for term in Add.make_args(expand(expr)):
        kept = S.One
        while deltas := [f for f in Mul.make_args(term) if isinstance(f, KroneckerDelta)]:
            delta = deltas[0]
            a, b = delta.args
            if b.is_Number:
                a, b = b, a
            term = (term / delta).xreplace({b: a})
            kept *= delta
        out += kept * term
    return expand(out)


EXPLICIT_TERMS_LIMIT = 64
"""At most this many terms of a sum are written out one by one (end terms split off a
sum over 1..n, or a whole sum between two integers); a longer stretch stays unnamed."""

_BOUND: list[Dummy] = []  # the bound index of a normalised sum holding `level` nested sums
_NAMES: dict[Expr, Dummy] = {}  # a normalised sum -> the symbol that stands for it


def _bound_index(level: int) -> Dummy:
    while len(_BOUND) <= level:
        _BOUND.append(Dummy(f"k{len(_BOUND) + 1}", integer=True))
    return _BOUND[level]


def _nesting(expr: Expr) -> int:
    """How many normalised sums are nested in expr (the level its own index takes)."""
    return max(
        (_BOUND.index(v) + 1 for s in expr.atoms(Sum) for v in s.variables if v in _BOUND),
        default=0,
    )


def _name(total: Sum) -> Dummy:
    """The symbol standing for a normalised sum: the same sum, the same symbol."""
    if total not in _NAMES:
        _NAMES[total] = Dummy(f"[{total}]")
    return _NAMES[total]


class _SumNormaliser:
    """Rewrites sums into a normal form in which only sums over 1..n remain, each over
    a single product with a canonical bound index (so sums differing only in the name
    of the index coincide). Every step is an identity of SymPy's Sum, whose sums between
    a and b < a - 1 follow Karr's convention (sum_a^b = -sum_{b+1}^{a-1}), so it holds
    for every integer n: splitting a range, shifting the index, evaluating a delta."""

    def __init__(self, n: Symbol, facts: dict, indices: tuple) -> None:
        self.n, self.indices = n, tuple(indices)
        self.facts = {}
        for key, value in facts.items():
            if not (isinstance(key, Sum) and len(key.limits) == 1 and key.limits[0][1:] == (1, n)):
                raise ValueError(f"normalise_sums: a fact must be a sum over 1..{n}, got {key}")
            (index, _, _), body = key.limits[0], key.function
            self.facts[self._canonical(expand(body), index, 1, n)] = value

    @staticmethod
    def _canonical(body: Expr, index: Symbol, low: Expr, high: Expr) -> Sum:
        bound = _bound_index(_nesting(body))
        return Sum(body.xreplace({index: bound}), (bound, low, high))

    def walk(self, e: Expr) -> Expr:
        if isinstance(e, Sum):
            body = self.walk(e.function)
            for index, low, high in e.limits:  # innermost first
                body = self.over_range(body, index, low, high)
            return body
        if e.args:
            return e.func(*(self.walk(a) for a in e.args))
        return e

    def _end(self, bound: Expr) -> tuple[bool, int] | None:
        """(True, c) for bound = n + c, (False, c) for bound = c (c an integer, |c| within
        EXPLICIT_TERMS_LIMIT), None otherwise."""
        bound = sympify(bound)
        for relative, c in ((True, bound - self.n), (False, bound)):
            if c.is_Integer and abs(int(c)) <= EXPLICIT_TERMS_LIMIT:
                return relative, int(c)
        return None

    def over_range(self, body: Expr, index: Symbol, low: Expr, high: Expr) -> Expr:
        """sum_{index=low}^{high} body = G(high) - G(low - 1), G(t) = sum_{index=1}^{t} body;
        G(n + c) is the sum over 1..n with c end terms added (or removed), G(c) is written
        out. Other limits (another variable, an index of an outer sum) leave the sum as
        it is, with its index renamed: it then equals only itself."""
        if not body.has(index):
            return body * (high - low + 1)
        top, bottom = self._end(high), self._end(low - 1)
        if top is None or bottom is None:
            return self._canonical(body, index, low, high)
        base = self.over_one_to_n(body, index) if top[0] or bottom[0] else S.Zero

        def partial(relative: bool, c: int) -> Expr:
            origin = self.n if relative else S.Zero
            whole = base if relative else S.Zero
            if c >= 0:
                return whole + Add(*(body.xreplace({index: origin + s}) for s in range(1, c + 1)))
            return whole - Add(*(body.xreplace({index: origin + s}) for s in range(c + 1, 1)))

        return partial(*top) - partial(*bottom)

    def _shift(self, body: Expr, index: Symbol) -> int:
        """t when every subscript holding the index is index + t (one integer t), else 0."""
        offsets = {
            a - index for indexed in body.atoms(Indexed) for a in indexed.indices if a.has(index)
        }
        if len(offsets) == 1:
            (t,) = offsets
            if t.is_Integer and abs(int(t)) <= EXPLICIT_TERMS_LIMIT:
                return int(t)
        return 0

    def over_one_to_n(self, body: Expr, index: Symbol) -> Expr:
        """sum_{index=1}^{n} body: shifted so that subscripts read index, split over +,
        factors free of the index pulled out, delta-sums evaluated, facts applied."""
        t = self._shift(body, index)
        if t:  # sum_1^n f(k + t) = sum_{1+t}^{n+t} f(k)
            return self.over_range(body.xreplace({index: index - t}), index, 1 + t, self.n + t)
        out = S.Zero
        for term in Add.make_args(expand(body)):
            free: list[Expr] = []
            bound: list[Expr] = []
            for f in Mul.make_args(term):
                (bound if f.has(index) else free).append(f)
            if not bound:
                out += Mul(*free) * self.n
                continue
            inner = Mul(*bound)
            value = self._delta_sum(inner, index) if inner.has(KroneckerDelta) else None
            if value is None:
                key = self._canonical(inner, index, 1, self.n)
                value = self.facts.get(key, key)
            out += Mul(*free) * value
        return out

    def _delta_sum(self, inner: Expr, index: Symbol) -> Expr | None:
        """sum_{index=1}^{n} inner evaluated through its KroneckerDelta, the free indices
        taken in 1..n; None when a condition or the sum itself remains."""
        from sympy.concrete.delta import deltasummation

        value = indices_in_range(deltasummation(inner, (index, 1, self.n)), self.indices, self.n)
        if value.has(Piecewise) or value.has(index):
            return None
        return value


def normalise_sums(expr: Expr, n: Symbol, facts: dict, indices: tuple) -> Expr:
    """Rewrite the sums in expr into symbols, exactly: a sum between limits of the form
    c or n + c (c an integer) becomes sums over 1..n plus end terms written out; a
    subscript index + t is shifted back to index; sums are split over + and factors free
    of the index pulled out; sums holding a KroneckerDelta are evaluated (the free
    `indices` taken in 1..n); what is left is a sum over one product, named after its
    index is renamed (so sum_j sigma_j v_j and sum_i sigma_i v_i coincide), and `facts`
    (sum over 1..n -> value, e.g. sum_k sigma_k -> 1) are applied. A sum between other
    limits (1..m, 1..i) is only renamed: it equals itself and nothing else. The result
    is zero only when expr is zero for every integer n (sums as SymPy defines them).

    >>> from sympy import IndexedBase, Sum, symbols
    >>> k, n = symbols("k n", integer=True, positive=True)
    >>> v = IndexedBase("v")
    >>> normalise_sums(Sum(v[k], (k, 2, n)) + v[1] - Sum(v[k], (k, 1, n)), n, {}, ())
    0
    >>> normalise_sums(Sum(v[k + 1], (k, 0, n - 1)) - Sum(v[k], (k, 1, n)), n, {}, ())
    0
    >>> normalise_sums(Sum(v[k], (k, 1, n - 1)) - Sum(v[k], (k, 1, n)), n, {}, ())
    -v[n]
    """
    normaliser = _SumNormaliser(n, facts, indices)
    out = collapse_deltas(normaliser.walk(sympify(expr)))
    return out.xreplace({s: _name(s) for s in out.atoms(Sum)})
