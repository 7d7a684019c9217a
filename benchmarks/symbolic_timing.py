"""Timing shared by the symbolic benchmarks (softmax and LayerNorm Jacobians).

A fast path is timed in this process, best of a few runs; a slow baseline (SymPy
differentiation, plain `simplify`) runs once in a forked child stopped after a
timeout, so that one size that does not finish cannot hang the benchmark. A
baseline that ran past the timeout at one size is not started at larger sizes.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Timing:
    """Wall and CPU seconds of one run, or None when it ran past the timeout."""

    wall: float | None
    cpu: float | None = None

    def text(self, timeout: float) -> str:
        return f"> {timeout:.0f} s" if self.wall is None else f"{self.wall:.3f} s"

    def ratio(self, other: Timing, timeout: float) -> str:
        """self / other (how many times slower self is), '>' when self ran out of time."""
        if other.wall is None or other.wall <= 0:
            return ""
        if self.wall is None:
            return f"> {timeout / other.wall:.0f}"
        return f"{self.wall / other.wall:.0f}"


def best_time(run: Callable[[], object], repeats: int) -> Timing:
    """The least wall time of `repeats` runs (the least disturbed), with its CPU time."""
    best = None
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if best is None or wall < best.wall:
            best = Timing(wall, cpu)
    assert best is not None
    return best


def _child(run: Callable[[], object], queue: mp.Queue) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    queue.put((time.perf_counter() - wall, time.process_time() - cpu))


def in_child(run: Callable[[], object], timeout: float) -> Timing:
    """One run of `run` in a forked child process, stopped after `timeout` seconds."""
    context = mp.get_context("fork")
    queue: mp.Queue = context.Queue()
    child = context.Process(target=_child, args=(run, queue))
    child.start()
    child.join(timeout)
    if child.is_alive():
        child.terminate()
        child.join()
        return Timing(None)
    wall, cpu = queue.get()
    return Timing(wall, cpu)


class Baseline:
    """A slow baseline timed size after size, given up after its first timeout."""

    def __init__(self, timeout: float) -> None:
        self.timeout, self.exhausted = timeout, False

    def time(self, run: Callable[[], object]) -> Timing:
        if self.exhausted:
            return Timing(None)
        result = in_child(run, self.timeout)
        self.exhausted = result.wall is None
        return result


def without_limit(module: ModuleType, name: str, run: Callable[[], object]) -> Callable[[], None]:
    """`run` with module.name (a size limit) lifted, for timing a baseline past its limit
    (only ever called in the forked child, so the parent's limit stays)."""

    def lifted() -> None:
        setattr(module, name, 10**9)
        run()

    return lifted
