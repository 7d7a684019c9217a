"""Time the explicit-n softmax Jacobian (命題 3.2) beside SymPy differentiation and simplify.

For each n it prints, from one run:
- closed form: `derive_softmax_jacobian(n)`, the entry derived for symbolic n written
  out at every (i, j) and compared with the chapter's formula as exact polynomials on
  the probability simplex (best of --repeats runs);
- differentiation: `derive_softmax_jacobian_by_differentiation(n)`, SymPy's Jacobian of
  softmax(z) judged by `symbolic.identities.is_zero` (the derivation before the closed
  form was used; run once in a child process, past its size limit if need be);
- plain SymPy: the same Jacobian, each entry of derived - stated given to `simplify`;
and the two ratios baseline / closed form. The closed form comes from the symbolic-n
derivation, timed first (once per process; the closed-form times exclude it). A
baseline is stopped after --timeout seconds ("> 60 s") and not started again at
larger n.

Run from the repository root:

    python -m benchmarks.softmax_jacobian [--timeout 60] [--sizes 10 25 50 100 200]
"""

from __future__ import annotations

import argparse

from sympy import Matrix, simplify, symbols

from benchmarks.symbolic_timing import Baseline, best_time, without_limit
from symbolic import softmax as module
from symbolic.softmax import (
    chapter_entry,
    derive_softmax_jacobian,
    derive_softmax_jacobian_by_differentiation,
    derive_softmax_jacobian_general,
    softmax,
)


def plain_simplify(n: int) -> bool:
    """derived - stated reduced entry by entry with simplify; True when all are 0."""
    z = Matrix(symbols(f"z_1:{n + 1}", real=True))
    sigma = softmax(z)
    difference = sigma.jacobian(z) - Matrix(n, n, lambda i, j: chapter_entry(sigma, i, j))
    return all(simplify(e) == 0 for e in difference)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 25, 50, 100, 200])
    args = parser.parse_args()
    if args.timeout <= 0 or args.repeats < 1 or any(n < 1 for n in args.sizes):
        parser.error("--timeout must be > 0, --repeats >= 1 and every size >= 1")

    general = best_time(derive_softmax_jacobian_general, 1)
    print(f"symbolic n, once per process: {general.text(args.timeout)}")
    differentiation, plain = Baseline(args.timeout), Baseline(args.timeout)
    print(
        f"{'n':>4}  {'closed form':>11}  {'differentiation':>15}  {'plain SymPy':>11}  "
        f"{'diff./closed':>12}  {'plain/closed':>12}"
    )
    for n in args.sizes:
        if not derive_softmax_jacobian(n).holds:
            raise SystemExit(f"the derivation at n = {n} did not hold")
        fast = best_time(lambda n=n: derive_softmax_jacobian(n), args.repeats)
        slow = differentiation.time(
            without_limit(
                module,
                "DIFFERENTIATION_LIMIT",
                lambda n=n: derive_softmax_jacobian_by_differentiation(n),
            )
        )
        baseline = plain.time(lambda n=n: plain_simplify(n))
        print(
            f"{n:>4}  {fast.text(args.timeout):>11}  {slow.text(args.timeout):>15}  "
            f"{baseline.text(args.timeout):>11}  {slow.ratio(fast, args.timeout):>12}  "
            f"{baseline.ratio(fast, args.timeout):>12}"
        )


if __name__ == "__main__":
    main()
