"""Time the LayerNorm Jacobian derivation (命題 3.3) beside plain `simplify`.

For d = 4, 8, 16 it prints the time of `derive_layer_norm_jacobian(d)` (the
Jacobian on the polynomial ring in x, sqrt(sigma^2) and its inverse, compared
with the chapter's formula) and the time `simplify` takes to reduce the same
difference, derived - stated, on SymPy matrices. simplify runs in a child
process stopped after --timeout seconds ("> 60 s"). The general-d derivation
(IndexedBase, symbolic d) is timed too. Times are wall clock and this
process's CPU time (CPU time is what other work on the machine does not inflate);
the ratio column is baseline / derivation, both measured in this run.

Run from the repository root:

    python -m benchmarks.layer_norm_jacobian [--timeout 60] [--sizes 4 8 16]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time

from sympy import simplify, sqrt

from symbolic.layer_norm import (
    chapter_jacobian,
    derive_layer_norm_jacobian,
    derive_layer_norm_jacobian_general,
    layer_norm,
    variables,
    variance,
)


def timed(f, *args):
    wall, cpu = time.perf_counter(), time.process_time()
    result = f(*args)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def plain_simplify(d: int) -> bool:
    """derived - stated reduced entry by entry with simplify; True when all are 0."""
    x = variables(d)
    difference = layer_norm(x).jacobian(x) - chapter_jacobian(layer_norm(x), sqrt(variance(x)))
    return all(simplify(e) == 0 for e in difference)


def _child(d: int, queue: mp.Queue) -> None:
    _, wall, cpu = timed(plain_simplify, d)
    queue.put((wall, cpu))


def baseline(d: int, timeout: float) -> tuple[float, float] | None:
    """(wall, cpu) of plain_simplify(d), or None when it runs past `timeout` seconds."""
    queue: mp.Queue = mp.Queue()
    child = mp.Process(target=_child, args=(d, queue))
    child.start()
    child.join(timeout)
    if child.is_alive():
        child.terminate()
        child.join()
        return None
    return queue.get()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 8, 16])
    args = parser.parse_args()
    if args.timeout <= 0 or any(d < 2 for d in args.sizes):
        parser.error("--timeout must be > 0 and every size >= 2")

    print(f"{'d':>3}  {'derivation wall':>15}  {'cpu':>7}  {'simplify wall':>13}  "
          f"{'cpu':>7}  {'ratio (wall)':>12}")
    for d in args.sizes:
        result, wall, cpu = timed(derive_layer_norm_jacobian, d)
        if not result.holds:
            raise SystemExit(f"the derivation at d = {d} did not reduce to zero")
        base = baseline(d, args.timeout)
        if base is None:
            plain, plain_cpu, ratio = f"> {args.timeout:.0f} s", "", f"> {args.timeout / wall:.0f}"
        else:
            plain, plain_cpu = f"{base[0]:.2f} s", f"{base[1]:.2f} s"
            ratio = f"{base[0] / wall:.1f}"
        print(f"{d:>3}  {wall:>13.2f} s  {cpu:>5.2f} s  {plain:>13}  {plain_cpu:>7}  {ratio:>12}")
    result, wall, cpu = timed(derive_layer_norm_jacobian_general)
    verdict = "holds" if result.holds else "FAILED"
    print(f"general d (symbolic): {wall:.2f} s wall, {cpu:.2f} s cpu, {verdict}")


if __name__ == "__main__":
    main()
