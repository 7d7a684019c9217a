"""Cache-sized pieces of elementwise work.

A chain of NumPy ufuncs over a large array makes one pass through memory per
ufunc. Taken a piece of CACHE_ENTRIES entries at a time, every pass after the
first reads what the previous one left in the core's cache. The roundings are
those of the whole-array chain: each entry meets the same operations in the
same order.
"""

from __future__ import annotations

from collections.abc import Iterator

CACHE_ENTRIES = 1 << 16  # 256 KiB of float32 per array: a few arrays fit a core's L2


def row_chunks(rows: int, row_size: int) -> Iterator[slice]:
    """Consecutive slices covering range(rows), each about CACHE_ENTRIES entries of rows of
    `row_size` entries (at least one row).

    >>> [(s.start, s.stop) for s in row_chunks(5, CACHE_ENTRIES // 2)]
    [(0, 2), (2, 4), (4, 5)]
    """
    step = max(1, CACHE_ENTRIES // max(row_size, 1))
    for start in range(0, rows, step):
        yield slice(start, min(rows, start + step))
