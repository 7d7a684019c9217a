"""Certificates of non-negativity: an identity with a form that is >= 0 term by term.

A Certificate records the claim, the expression, the certificate it equals (proved by
`is_zero`) and the atoms known to be >= 0; `simplex_certificate` builds one for a
polynomial on the simplex by Polya's theorem.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sympy import Add, Expr, Mul, Number, Poly, Pow, Symbol, expand, sympify

from symbolic.identities import is_zero


def manifestly_nonnegative(expr: Expr, atoms: Iterable[Expr] = ()) -> bool:
    """True when expr is a sum of non-negative multiples of products of even powers
    and of `atoms` (expressions known to be >= 0, e.g. probabilities).

    >>> p, x = Symbol("p"), Symbol("x", real=True)
    >>> manifestly_nonnegative(p * (x - 1) ** 2, [p]), manifestly_nonnegative(p * x, [p])
    (True, False)
    """
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
    """expression = certificate (proved), and certificate >= 0 term by term.

    >>> x = Symbol("x", real=True)
    >>> square, slack = (x - 1) ** 2, x**2 - 2 * x + 1
    >>> Certificate("x^2 - 2x + 1 >= 0", slack, square, slack - square, ()).holds
    True
    """

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


POLYA_ROUNDS = 4
"""simplex_certificate multiplies by (sum of the variables)^N for N up to this."""


def simplex_certificate(claim: str, slack: Expr, variables: Sequence[Symbol]) -> Certificate:
    """A certificate that slack >= 0 where the variables are >= 0 and sum to 1.

    slack, a polynomial in the variables, equals on that simplex its homogenisation
    (each term of degree e times (sum of the variables)^(D - e), D the degree), times
    (sum)^N for the first N <= POLYA_ROUNDS whose expansion has only non-negative
    coefficients (Polya's theorem: N exists when slack > 0 on the simplex). The
    Certificate holds when that expansion is manifestly non-negative and slack minus
    it vanishes once the last variable is replaced by 1 minus the others. A slack that
    is not a polynomial in the variables alone is its own certificate.

    >>> from sympy import Rational, symbols
    >>> p, r = symbols("p r", nonnegative=True)
    >>> c = simplex_certificate("1 - p - p(1 - p) >= 0", 1 - p - p * (1 - p), (p, r))
    >>> c.certificate, c.holds
    (r**2, True)
    >>> simplex_certificate("1/2 - p >= 0", Rational(1, 2) - p, (p, r)).holds
    False
    """
    variables = tuple(variables)
    slack = sympify(slack)
    total = Add(*variables)
    certificate = slack
    if slack.free_symbols <= set(variables) and slack.is_polynomial(*variables):
        poly = Poly(slack, *variables)
        top = poly.total_degree()
        homogeneous = Add(
            *(
                c
                * Mul(*(v**e for v, e in zip(variables, m, strict=True)))
                * total ** (top - sum(m))
                for m, c in poly.terms()
            )
        )
        certificate = expand(homogeneous)  # shown when no round gives a certificate
        for rounds in range(POLYA_ROUNDS + 1):
            candidate = expand(homogeneous * total**rounds)
            if manifestly_nonnegative(candidate, variables):
                certificate = candidate
                break
    last = {variables[-1]: 1 - Add(*variables[:-1])}
    difference = expand((slack - certificate).xreplace(last))
    return Certificate(claim, slack, certificate, difference, variables)
