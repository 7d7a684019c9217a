"""Time the explicit-d LayerNorm Jacobian (命題 3.3) and its properties beside SymPy.

For each d it prints, from one run:
- closed form: `derive_layer_norm_jacobian(d)`, the entry derived for symbolic d written
  out at every (i, j) and compared with the chapter's formula as exact polynomials in
  y, sigma and 1/sigma on LN's outputs (best of --repeats runs);
- differentiation: `derive_layer_norm_jacobian_by_differentiation(d)`, LN differentiated
  on the ring of x, sqrt(sigma^2) and its inverse (the derivation before the closed form
  was used; run once in a child process, past its size limit if need be);
- plain SymPy: SymPy's Jacobian of LN, each entry of derived - stated given to `simplify`;
then the same for `jacobian_properties(d)` (J1 = 0, Jc = 0, sigma J symmetric,
idempotent, of trace d - 2, J(ax) = J(x)/a) against
`jacobian_properties_by_differentiation(d)`. The closed form comes from the general-d
derivation, timed first (once per process; the closed-form times exclude it).
Ratios are baseline / closed form. A baseline is stopped after --timeout seconds
("> 60 s") and not started again at larger d.

Run from the repository root:

    python -m benchmarks.layer_norm_jacobian [--timeout 60] [--sizes 4 8 16 32 64]
"""

from __future__ import annotations

import argparse

from sympy import simplify, sqrt

from benchmarks.symbolic_timing import Baseline, best_time, without_limit
from symbolic import layer_norm_differentiation as module
from symbolic.layer_norm_definition import chapter_jacobian, layer_norm, variables, variance
from symbolic.layer_norm_differentiation import (
    derive_layer_norm_jacobian_by_differentiation,
    jacobian_properties_by_differentiation,
)
from symbolic.layer_norm_explicit import derive_layer_norm_jacobian, jacobian_properties
from symbolic.layer_norm_general import derive_layer_norm_jacobian_general


def plain_simplify(d: int) -> bool:
    """derived - stated reduced entry by entry with simplify; True when all are 0."""
    x = variables(d)
    difference = layer_norm(x).jacobian(x) - chapter_jacobian(layer_norm(x), sqrt(variance(x)))
    return all(simplify(e) == 0 for e in difference)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 8, 16, 32, 64])
    parser.add_argument("--property-sizes", type=int, nargs="+", default=[4, 6, 8, 12, 16])
    args = parser.parse_args()
    sizes = args.sizes + args.property_sizes
    if args.timeout <= 0 or args.repeats < 1 or any(d < 2 for d in sizes):
        parser.error("--timeout must be > 0, --repeats >= 1 and every size >= 2")
    timeout = args.timeout

    general = best_time(derive_layer_norm_jacobian_general, 1)
    verdict = "holds" if derive_layer_norm_jacobian_general().holds else "FAILED"
    print(f"general d (symbolic), once per process: {general.text(timeout)}, {verdict}")
    print("Jacobian")
    differentiation, plain = Baseline(timeout), Baseline(timeout)
    print(
        f"{'d':>4}  {'closed form':>11}  {'differentiation':>15}  {'plain SymPy':>11}  "
        f"{'diff./closed':>12}  {'plain/closed':>12}"
    )
    for d in args.sizes:
        if not derive_layer_norm_jacobian(d).holds:
            raise SystemExit(f"the derivation at d = {d} did not hold")
        fast = best_time(lambda d=d: derive_layer_norm_jacobian(d), args.repeats)
        slow = differentiation.time(
            without_limit(
                module,
                "DIFFERENTIATION_LIMIT",
                lambda d=d: derive_layer_norm_jacobian_by_differentiation(d),
            )
        )
        baseline = plain.time(lambda d=d: plain_simplify(d))
        print(
            f"{d:>4}  {fast.text(timeout):>11}  {slow.text(timeout):>15}  "
            f"{baseline.text(timeout):>11}  {slow.ratio(fast, timeout):>12}  "
            f"{baseline.ratio(fast, timeout):>12}"
        )

    print("properties of the Jacobian")
    differentiation = Baseline(timeout)
    print(f"{'d':>4}  {'closed form':>11}  {'differentiation':>15}  {'diff./closed':>12}")
    for d in args.property_sizes:
        if not jacobian_properties(d).holds["s J idempotent"]:
            raise SystemExit(f"the properties at d = {d} did not hold")
        fast = best_time(lambda d=d: jacobian_properties(d), args.repeats)
        slow = differentiation.time(
            without_limit(
                module,
                "DIFFERENTIATED_PROPERTIES_LIMIT",
                lambda d=d: jacobian_properties_by_differentiation(d),
            )
        )
        print(
            f"{d:>4}  {fast.text(timeout):>11}  {slow.text(timeout):>15}  "
            f"{slow.ratio(fast, timeout):>12}"
        )


if __name__ == "__main__":
    main()
