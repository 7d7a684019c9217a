"""§4.1 なぜ √d_k で割るのか (proofs/chapters/self_attention/scaling.py): the variance
of <q, k> (命題 4.4), the d_k table (例 4.5), and 補題 A.1 which its proof uses. Each check
passes, and rejects wrong variants."""

from __future__ import annotations

import math

import pytest

from proofs.book.judge import CheckFailed
from proofs.book.stated import table_rows
from proofs.chapters.self_attention.scaling import (
    SCALING_TABLE,
    ex_scaling_numeric,
    lem_product_expectation,
    prop_scaling_variance,
)

symbolic = pytest.mark.symbolic
numeric = pytest.mark.numeric


@numeric
def test_prop_scaling_variance_holds():
    assert len(prop_scaling_variance()) >= 3


@numeric
def test_prop_scaling_variance_rejects_variance_d_k_squared():
    # every symbolic result that disagrees is named: the generic moments and each
    # distribution at d_k = 2, 3 (at d_k = 1, d_k^2 = d_k)
    with pytest.raises(
        CheckFailed,
        match=r"generic moments: the variance is d_k, the chapter "
        r"states d_k\*\*2; .*normal, d_k = 2: the variance",
    ):
        prop_scaling_variance(stated_variance=lambda d_k: d_k**2)


@symbolic
def test_prop_scaling_variance_rejects_a_scaled_variance_of_2():
    with pytest.raises(
        CheckFailed, match="generic moments: the scaled variance is 1, the chapter states 2"
    ):
        prop_scaling_variance(stated_scaled_variance=2)


@pytest.fixture(scope="module")
def scaling_table():
    from proofs.chapters.self_attention.tables import scaling_table

    return scaling_table()


@numeric
def test_ex_scaling_numeric_holds(scaling_table):
    evidence = ex_scaling_numeric(table=scaling_table)
    assert "1024 1036.38 1.012 0.971 0.361" in evidence[0]
    assert scaling_table.rows == table_rows(SCALING_TABLE)


@numeric
def test_ex_scaling_numeric_rejects_a_misprinted_cell(scaling_table):
    printed = list(table_rows(SCALING_TABLE))
    printed[2] = ("64", "62.92", "0.983", "0.878", "0.362")
    with pytest.raises(CheckFailed):
        ex_scaling_numeric(printed=tuple(printed), table=scaling_table)


@numeric
def test_ex_scaling_numeric_rejects_a_decreasing_raw_column(scaling_table):
    from dataclasses import replace

    values = list(scaling_table.values)
    values[1] = (16, values[1][1], values[1][2], 0.1, values[1][4])
    with pytest.raises(CheckFailed):
        ex_scaling_numeric(table=replace(scaling_table, values=tuple(values)))


@numeric
def test_lem_product_expectation_holds():
    assert len(lem_product_expectation()) >= 4


@numeric
def test_lem_product_expectation_rejects_the_sum_of_means():
    with pytest.raises(CheckFailed, match="m = 2: E"):
        lem_product_expectation(stated=sum)


@numeric
def test_lem_product_expectation_rejects_a_product_wrong_beyond_the_symbolic_sizes():
    def sum_from_4(means):  # the product for m <= 3, where the symbolic part looks
        return math.prod(means) if len(means) <= 3 else sum(means)

    with pytest.raises(
        CheckFailed, match="sample mean of the product: sample .* vs stated .* standard errors"
    ):
        lem_product_expectation(stated=sum_from_4)
