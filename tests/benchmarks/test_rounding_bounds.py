"""The rounding-bound benchmark (benchmarks/rounding_bounds.py) on a few drawn models and
blocks: every ratio is a bound over an error, so none is below 1."""

import numpy as np

from benchmarks import rounding_bounds as bench


def test_ratio_is_the_largest_bound_over_the_largest_error():
    assert bench.ratio(np.array([1e-8, -4e-8]), np.array([2e-7, 1e-7])) == 5.0
    assert bench.ratio(np.zeros(2), np.ones(2)) == float("inf")


def test_every_bound_is_above_its_error_on_drawn_models():
    ratios = bench.measure(5)
    assert len(ratios) == 7
    assert all(value >= 1 for values in ratios.values() for value in values)


def test_main_prints_one_line_per_bound():
    lines: list[str] = []
    bench.main(["--models", "3"], write=lines.append)
    assert len(lines) == 2 + 7
    assert lines[2].startswith("model_rounding_bound (max / max)")
    assert lines[-2].startswith("block_rounding_bound (Pre-LN)")
    assert lines[-1].startswith("block_rounding_bound (Post-LN)")
