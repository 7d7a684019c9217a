"""The softmax Jacobian (命題 3.2) and the n = 2 case (演習 10.2), derived.

Two kinds of input are compared with the derivation. An entry formula
`stated(sigma, i, j)` gives J_ij from an indexable sigma (a Matrix for explicit
n, the softmax of an IndexedBase for symbolic n); the chapter's is
sigma_i (delta_ij - sigma_j). A matrix formula `jacobian(sigma)` gives the
whole J from a column of probabilities; the chapter's is diag(sigma) - sigma sigma^T.
The properties are proved for a matrix formula on the probability simplex,
where sigma_n is replaced by 1 - sigma_1 - ... - sigma_{n-1}.

At an explicit n the entry derived for symbolic n, rewritten in sigma_i, sigma_j
and delta_ij, is put at every (i, j) and compared with the stated formula as
polynomials in sigma_1..sigma_n on the simplex (n = 200 in about a second);
differentiating softmax of n variables remains the reference for small n
(benchmarks/softmax_jacobian.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from sympy import (
    Add,
    Dummy,
    Eq,
    Expr,
    Ge,
    IndexedBase,
    KroneckerDelta,
    Matrix,
    Ne,
    Rational,
    S,
    Sum,
    Symbol,
    diag,
    diff,
    exp,
    expand,
    factor,
    ones,
    solve,
    symbols,
)
from sympy.core.sympify import SympifyError

from symbolic.certificates import Certificate, simplex_certificate
from symbolic.identities import Derivation, compare, is_zero
from symbolic.polynomials import EntryPattern, SparsePolynomial
from symbolic.quotients import SimplexQuotient
from symbolic.sums import indices_in_range, normalise_sums
from symbolic.symbols import n as n_symbol


class Indexable(Protocol):
    """sigma as an entry formula sees it: a Matrix, an IndexedBase, a list of polynomials."""

    def __getitem__(self, index: Any) -> Any: ...


EntryFormula = Callable[[Indexable, Any, Any], Any]  # (sigma, i, j) -> J_ij
MatrixFormula = Callable[[Matrix], Matrix]


def _check_size(n: object, name: str = "n", low: int = 1) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"{name} must be an int, got {type(n).__name__} {n!r}")
    if n < low:
        raise ValueError(f"{name} must be >= {low}, got {n}")
    return n


def softmax(z: Matrix) -> Matrix:
    """sigma(z)_i = e^{z_i} / sum_j e^{z_j} (定義 2.2), as a column.

    >>> from sympy import log
    >>> list(softmax(Matrix([0, log(2)])))
    [1/3, 2/3]
    """
    e = Matrix([exp(zi) for zi in z])
    return e / sum(e)


def chapter_entry(sigma: Indexable, i: Any, j: Any) -> Any:
    """The chapter's entry formula: d sigma_i / d z_j = sigma_i (delta_ij - sigma_j).

    >>> chapter_entry(Matrix(simplex(2)), 0, 1)
    -sigma_1*sigma_2
    """
    return sigma[i] * (KroneckerDelta(i, j) - sigma[j])


def chapter_matrix(sigma: Matrix) -> Matrix:
    """The chapter's matrix formula: J = diag(sigma) - sigma sigma^T.

    >>> chapter_matrix(Matrix([Rational(1, 2), Rational(1, 2)]))
    Matrix([
    [ 1/4, -1/4],
    [-1/4,  1/4]])
    """
    return diag(*sigma) - sigma * sigma.T


def simplex(n: int) -> tuple[Symbol, ...]:
    """Probabilities sigma_1..sigma_n (positive symbols; they sum to 1 on the simplex).

    >>> simplex(2)
    (sigma_1, sigma_2)
    """
    _check_size(n)
    return symbols(f"sigma_1:{n + 1}", positive=True)


def simplex_substitution(n: int) -> dict[Symbol, Expr]:
    """sigma_n -> 1 - (sigma_1 + ... + sigma_{n-1}): the constraint sum sigma = 1.

    >>> simplex_substitution(2)
    {sigma_2: 1 - sigma_1}
    """
    s = simplex(n)
    return {s[-1]: 1 - sum(s[:-1])}


SIZE_LIMIT = 256
"""derive_softmax_jacobian handles n up to this (n = 200 in about a second)."""
DIFFERENTIATION_LIMIT = 32
"""derive_softmax_jacobian_by_differentiation handles n up to this (n = 25 in about a second;
the cost grows like n^3)."""


def derive_softmax_jacobian_by_differentiation(
    n: int, stated: EntryFormula = chapter_entry
) -> Derivation:
    """Differentiate softmax of n explicit variables with SymPy; compare with `stated`
    entry-wise on the softmax itself (judge: is_zero). The reference for the fast path.

    >>> derive_softmax_jacobian_by_differentiation(2).holds
    True
    """
    _check_size(n)
    if n > DIFFERENTIATION_LIMIT:
        raise ValueError(
            f"n = {n} is above DIFFERENTIATION_LIMIT = {DIFFERENTIATION_LIMIT} of "
            "derive_softmax_jacobian_by_differentiation; use derive_softmax_jacobian"
        )
    z = Matrix(symbols(f"z_1:{n + 1}", real=True))
    sigma = softmax(z)
    derived = sigma.jacobian(z)  # (n, n)
    claimed = Matrix(n, n, lambda i, j: stated(sigma, i, j))
    return compare(f"softmax Jacobian, n = {n}", derived, claimed)


class _IndexedSoftmax:
    """sigma[i] = e^{z_i} / sum_k e^{z_k} for a symbolic index i and symbolic n."""

    def __init__(self, z: IndexedBase, k: Symbol, n: Symbol) -> None:
        self.z, self.k, self.n = z, k, n
        self.total = Sum(exp(z[k]), (k, 1, n))

    def __getitem__(self, i: Expr) -> Expr:
        return exp(self.z[i]) / self.total


_i, _j, _k = symbols("i j k", integer=True, positive=True)
_z = IndexedBase("z", real=True)


def indexed_softmax(z: Any, i: Expr, n: Symbol) -> Expr:
    """sigma(z)_i for a symbolic index i and size n: e^{z_i} / sum_{k=1}^{n} e^{z_k}, z
    anything indexable by a symbolic index (an IndexedBase, or z + c1 as an object).

    >>> indexed_softmax(_z, _i, n_symbol)
    exp(z[i])/Sum(exp(z[k]), (k, 1, n))
    """
    return _IndexedSoftmax(z, _k, n)[i]


def derive_softmax_jacobian_general(stated: EntryFormula = chapter_entry) -> Derivation:
    """The same derivation for symbolic n: z an IndexedBase, indices i, j in 1..n.

    >>> derive_softmax_jacobian_general().holds
    True
    """
    sigma = _IndexedSoftmax(_z, _k, n_symbol)
    derived = diff(sigma[_i], _z[_j]).doit()  # sums of KroneckerDelta collapse
    derived = indices_in_range(derived, (_i, _j), n_symbol)
    return compare("softmax Jacobian, symbolic n", derived, stated(sigma, _i, _j))


sigma_i, sigma_j = symbols("sigma_i sigma_j", positive=True)


@lru_cache(maxsize=1)
def proved_entry() -> Expr:
    """d sigma_i / d z_j as derive_softmax_jacobian_general derives it for symbolic n,
    in sigma_i, sigma_j and KroneckerDelta(i, j): e^{z_i} = sigma_i T, e^{z_j} = sigma_j T
    with T = sum_k e^{z_k}, which then cancels (an error if anything else is left).

    >>> proved_entry()
    -sigma_i*sigma_j + sigma_i*KroneckerDelta(i, j)
    """
    sigma = _IndexedSoftmax(_z, _k, n_symbol)
    derived = derive_softmax_jacobian_general().derived
    total = Dummy("T", positive=True)
    entry = derived.xreplace({sigma.total: total})
    entry = expand(entry.xreplace({exp(_z[_i]): sigma_i * total, exp(_z[_j]): sigma_j * total}))
    if not entry.free_symbols <= {sigma_i, sigma_j, _i, _j}:
        raise ValueError(f"the derived entry is not a function of sigma_i, sigma_j: {entry}")
    return entry


def derive_softmax_jacobian(n: int, stated: EntryFormula = chapter_entry) -> Derivation:
    """The Jacobian of softmax at n explicit variables, compared with `stated` entry-wise.

    The derived entries are `proved_entry` (differentiated for symbolic n) at each
    (i, j); `stated` is evaluated on sigma_1..sigma_n as exact polynomials
    (`SparsePolynomial`), and each difference must vanish on the probability simplex
    (`SimplexQuotient`), where softmax takes all its values. A formula that is not a
    polynomial in sigma over Q is compared by differentiation (n <= DIFFERENTIATION_LIMIT).
    n above SIZE_LIMIT is a ValueError.

    >>> derive_softmax_jacobian(3).holds
    True
    >>> derive_softmax_jacobian(3, lambda sigma, i, j: sigma[i] * KroneckerDelta(i, j)).holds
    False
    """
    _check_size(n)
    if n > SIZE_LIMIT:
        raise ValueError(
            f"n = {n} is above SIZE_LIMIT = {SIZE_LIMIT} of derive_softmax_jacobian "
            "(explicit sizes); derive_softmax_jacobian_general covers every n"
        )
    sigma = [SparsePolynomial.variable(v) for v in range(n)]
    pattern = EntryPattern(proved_entry(), sigma_i, sigma_j, KroneckerDelta(_i, _j))
    try:
        claimed = [[_as_polynomial(stated(sigma, a, b)) for b in range(n)] for a in range(n)]
    except (TypeError, SympifyError):
        if n > DIFFERENTIATION_LIMIT:
            raise ValueError(
                f"n = {n}: the stated entry is not a polynomial in sigma over Q, so it is "
                f"compared by differentiation, which handles n <= {DIFFERENTIATION_LIMIT}"
            ) from None
        return derive_softmax_jacobian_by_differentiation(n, stated)
    derived = [[pattern(a, b) for b in range(n)] for a in range(n)]
    simplex_ = SimplexQuotient(n)
    rows = range(n)
    holds = all(
        derived[a][b] == claimed[a][b] or simplex_.is_zero(derived[a][b] - claimed[a][b])
        for a in rows
        for b in rows
    )
    names = simplex(n)

    def matrix(entry: Callable[[int, int], SparsePolynomial]) -> Matrix:
        return Matrix(n, n, lambda a, b: entry(a, b).to_expr(names))

    return Derivation(
        f"softmax Jacobian, n = {n}",
        lambda: matrix(lambda a, b: derived[a][b]),
        lambda: matrix(lambda a, b: claimed[a][b]),
        lambda: matrix(lambda a, b: simplex_.reduce(derived[a][b] - claimed[a][b])),
        holds,
    )


def _as_polynomial(value: object) -> SparsePolynomial:
    """A stated entry as a SparsePolynomial; a TypeError when it is not one over Q."""
    polynomial = SparsePolynomial.coerce(value)
    if polynomial is None:
        raise TypeError(f"not a polynomial over Q: {value!r}")
    return polynomial


def general_properties(stated: EntryFormula = chapter_entry) -> dict[str, Expr]:
    """命題 3.2 (1), (2) for symbolic n on an entry formula: each value is zero when the
    property holds. sigma is an IndexedBase with sum_k sigma_k = 1 (the simplex);
    m = sum_k sigma_k v_k. The PSD identity is v^T J v = sum_i sigma_i (v_i - m)^2,
    a sigma-weighted sum of squares.

    >>> set(general_properties().values())
    {0}
    """
    n = n_symbol
    i, j, k = symbols("i j k", integer=True, positive=True)
    sigma, v = IndexedBase("sigma", positive=True), IndexedBase("v", real=True)
    mean = Sum(sigma[k] * v[k], (k, 1, n))
    facts = {Sum(sigma[k], (k, 1, n)): S.One}
    entry = stated(sigma, i, j)
    form = Sum(Sum(v[i] * entry * v[j], (j, 1, n)), (i, 1, n))
    squares = Sum(sigma[i] * (v[i] - mean) ** 2, (i, 1, n))
    return {
        "J symmetric": normalise_sums(entry - stated(sigma, j, i), n, facts, (i, j, k)),
        "J 1 = 0": normalise_sums(Sum(entry, (j, 1, n)), n, facts, (i, j, k)),
        "v^T J v = sum_i sigma_i (v_i - m)^2": normalise_sums(form - squares, n, facts, (i, j, k)),
    }


def _on_simplex(expr, n: int):
    return expr.xreplace(simplex_substitution(n))


def jacobian_asymmetry(n: int, jacobian: MatrixFormula = chapter_matrix) -> Matrix:
    """J - J^T for J = jacobian(sigma): zero exactly when the formula is symmetric.

    >>> jacobian_asymmetry(2).is_zero_matrix
    True
    """
    J = jacobian(Matrix(simplex(n)))
    return _on_simplex(J - J.T, n)


def jacobian_times_ones(n: int, jacobian: MatrixFormula = chapter_matrix) -> Matrix:
    """J 1 on the simplex (命題 3.2 (2) says it is 0).

    >>> is_zero(jacobian_times_ones(3))
    True
    """
    J = jacobian(Matrix(simplex(n)))
    return _on_simplex(J * ones(n, 1), n)


def psd_certificate(n: int, jacobian: MatrixFormula = chapter_matrix) -> Certificate:
    """v^T J v = sum_i sigma_i (v_i - sum_j sigma_j v_j)^2 on the simplex: a variance
    under the weights sigma, hence >= 0 for every v (命題 3.2 (1), for this n).

    >>> psd_certificate(2).holds
    True
    """
    s = simplex(n)
    v = Matrix(symbols(f"v_1:{n + 1}", real=True))
    sigma = Matrix(s)
    form = (v.T * jacobian(sigma) * v)[0, 0]
    mean = sum(si * vi for si, vi in zip(s, v, strict=True))
    certificate = sum(si * (vi - mean) ** 2 for si, vi in zip(s, v, strict=True))
    difference = _on_simplex(form - certificate, n)
    return Certificate(f"v^T J v >= 0, n = {n}", form, certificate, difference, s)


def entry_bound_certificates(
    n: int, jacobian: MatrixFormula = chapter_matrix
) -> tuple[Certificate, ...]:
    """For every i, j, k: 1 - sigma_k - J_ij >= 0 and 1 - sigma_k + J_ij >= 0 on the
    simplex, each certified by `simplex_certificate` (a polynomial with non-negative
    coefficients in the probabilities, equal to the slack when they sum to 1). As they
    hold for every k, |J_ij| <= 1 - max_k sigma_k (命題 3.2 (3)), for this n.

    >>> all(c.holds for c in entry_bound_certificates(2))
    True
    """
    s = simplex(n)
    J = jacobian(Matrix(s))
    out = []
    for i in range(n):
        for j in range(n):
            for k in range(n):
                for sign, word in ((-1, "-"), (1, "+")):
                    claim = f"1 - sigma_{k + 1} {word} J_{i + 1}{j + 1} >= 0"
                    out.append(simplex_certificate(claim, 1 - s[k] + sign * J[i, j], s))
    return tuple(out)


BoundFormula = Callable[[Expr], Expr]


def chapter_bound(top: Expr) -> Expr:
    """The chapter's bound on |J_ij| in terms of the largest probability: 1 - max sigma.

    >>> chapter_bound(Rational(3, 4))
    1/4
    """
    return 1 - top


@dataclass(frozen=True)
class BoundCase:
    """One case of the entry bound for symbolic n: which of i, j, k coincide.

    `quantities` are sigma at the distinct positions among i, j, k and r, the sum of
    the other n - (number of distinct positions) probabilities; `hypotheses` say they
    are >= 0 and sum to 1 (the simplex). `entry` is J_ij in these quantities, and each
    certificate writes bound(sigma_k) - J_ij, resp. bound(sigma_k) + J_ij, as a
    polynomial with non-negative coefficients equal to it under the hypotheses.

    >>> entry_bound_general().cases[0].entry
    sigma_i*(1 - sigma_i)
    """

    pattern: str
    relations: tuple[Expr, ...]  # Eq / Ne between the indices i, j, k
    quantities: tuple[Symbol, ...]
    hypotheses: tuple[Expr, ...]
    entry: Expr
    certificates: tuple[Certificate, Certificate]

    @property
    def holds(self) -> bool:
        return all(c.holds for c in self.certificates)


@dataclass(frozen=True)
class EntryBoundProof:
    """|J_ij| <= bound(max_k sigma_k) for symbolic n, by cases on i, j, k.

    In every case bound(sigma_k) -+ J_ij >= 0 is certified for an arbitrary position k,
    hence for k the position of the largest probability. The five cases are the five
    ways i, j, k can coincide (the set partitions of {i, j, k}); a case with more
    distinct positions than n has no instance.

    >>> [case.pattern for case in entry_bound_general().cases][:2]
    ['i = j = k', 'i = j != k']
    """

    claim: str
    cases: tuple[BoundCase, ...]

    @property
    def holds(self) -> bool:
        partitions = {case.pattern for case in self.cases} == set(INDEX_PATTERNS)
        return partitions and all(case.holds for case in self.cases)


# The set partitions of {i, j, k}: each index -> the first index of its block.
INDEX_PATTERNS = {
    "i = j = k": {"i": "i", "j": "i", "k": "i"},
    "i = j != k": {"i": "i", "j": "i", "k": "k"},
    "i = k != j": {"i": "i", "j": "j", "k": "i"},
    "j = k != i": {"i": "i", "j": "j", "k": "j"},
    "i, j, k distinct": {"i": "i", "j": "j", "k": "k"},
}


def entry_bound_general(
    stated: EntryFormula = chapter_entry, bound: BoundFormula = chapter_bound
) -> EntryBoundProof:
    """命題 3.2 (3) for symbolic n: |J_ij| <= bound(max sigma) with J_ij = stated(sigma, i, j)
    for symbolic indices. In each case of INDEX_PATTERNS, the coinciding indices are
    identified, KroneckerDelta of distinct ones is 0, sigma at the distinct positions
    become the quantities, the other probabilities their sum r >= 0, and both slacks
    are certified by `simplex_certificate` on (quantities, r).

    >>> entry_bound_general().holds
    True
    >>> entry_bound_general(bound=lambda top: (1 - top) / 2).holds
    False
    """
    index = {name: Symbol(name, integer=True, positive=True) for name in "ijk"}
    sigma = IndexedBase("sigma", positive=True)
    entry = stated(sigma, index["i"], index["j"])
    rest = Symbol("r", nonnegative=True)
    cases = []
    for pattern, block in INDEX_PATTERNS.items():
        representative = {index[a]: index[b] for a, b in block.items()}
        distinct = [index[b] for b in dict.fromkeys(block.values())]
        quantity = {t: Symbol(f"sigma_{t}", nonnegative=True) for t in distinct}
        apart = {KroneckerDelta(a, b): S.Zero for a in distinct for b in distinct if a != b}
        case_entry = entry.xreplace(representative).xreplace(apart)
        case_entry = case_entry.xreplace({sigma[t]: quantity[t] for t in distinct})
        top = quantity[representative[index["k"]]]
        variables = (*quantity.values(), rest)
        relations = tuple(
            Eq(index[a], index[b]) if block[a] == block[b] else Ne(index[a], index[b])
            for a, b in (("i", "j"), ("i", "k"), ("j", "k"))
        )
        # stated, not evaluated: the quantities are declared non-negative, which would
        # turn each Ge into True
        hypotheses = (*(Ge(q, 0, evaluate=False) for q in variables), Eq(Add(*variables), 1))
        certificates = tuple(
            simplex_certificate(
                f"{pattern}: bound(sigma_k) {word} J_ij >= 0",
                bound(top) + sign * case_entry,
                variables,
            )
            for sign, word in ((-1, "-"), (1, "+"))
        )
        cases.append(
            BoundCase(
                pattern,
                relations,
                tuple(variables),
                hypotheses,
                case_entry,
                (certificates[0], certificates[1]),
            )
        )
    return EntryBoundProof("|J_ij| <= bound(max_k sigma_k), symbolic n", tuple(cases))


@dataclass(frozen=True)
class TwoByTwo:
    """演習 10.2: n = 2 with s = sigma_1 (so sigma_2 = 1 - s).

    >>> two_by_two().maximiser
    (1/2,)
    """

    s: Symbol
    jacobian: Matrix  # the formula evaluated at (s, 1 - s)
    closed_form: Matrix  # s (1 - s) [[1, -1], [-1, 1]]
    eigenvalues: dict  # eigenvalue -> multiplicity, from the characteristic polynomial
    maximiser: tuple  # critical points of the non-zero eigenvalue on (0, 1)
    maximum: Expr


def two_by_two(jacobian: MatrixFormula = chapter_matrix) -> TwoByTwo:
    """The 2 x 2 Jacobian, its eigenvalues, and where the larger one is maximal.

    >>> two_by_two().maximum
    1/2
    """
    s = Symbol("s", positive=True)
    J = jacobian(Matrix([s, 1 - s])).applyfunc(factor)
    closed = s * (1 - s) * Matrix([[1, -1], [-1, 1]])
    eig = {factor(k): v for k, v in J.eigenvals().items()}
    top = max(eig, key=lambda e: e.subs(s, Rational(1, 3)))  # the non-zero branch
    critical = tuple(c for c in solve(diff(top, s), s) if 0 < c < 1)
    peak = max((top.subs(s, c) for c in critical), default=None)
    return TwoByTwo(s, J, closed, eig, critical, peak)


def is_maximum(result: TwoByTwo) -> bool:
    """The non-zero eigenvalue f has one critical point c in (0, 1) (result.maximiser),
    where f'(c) = 0 and f''(c) < 0, and f is 0 at both ends of [0, 1] (sigma at a vertex,
    where J vanishes): so f(c) is the maximum of f over [0, 1].

    >>> is_maximum(two_by_two())
    True
    """
    s = result.s
    top = max(result.eigenvalues, key=lambda e: e.subs(s, Rational(1, 3)))
    if len(result.maximiser) != 1:
        return False
    (c,) = result.maximiser
    slope, curvature = diff(top, s).subs(s, c), diff(top, s, 2).subs(s, c)
    ends = (top.subs(s, 0), top.subs(s, 1))
    return is_zero(slope) and curvature.is_negative is True and all(is_zero(e) for e in ends)
