"""§2 準備 (proofs/chapters/self_attention/preliminaries.py): the permutation matrix
(定義 2.1) and softmax with its masked form (定義 2.2). Each check passes, and rejects wrong
variants."""

from __future__ import annotations

import numpy as np
import pytest
from chapters.self_attention.variants import masked_softmax_ignoring_mask, softmax_without_shift

from numeric.softmax import masked_softmax, softmax
from proofs.book.judge import CheckFailed
from proofs.chapters.self_attention.preliminaries import (
    NOTION_EXAMPLES,
    def_permutation_matrix,
    def_softmax,
)
from proofs.evidence.measures import permutation_matrix

symbolic = pytest.mark.symbolic
numeric = pytest.mark.numeric


@symbolic
def test_def_permutation_matrix_holds():
    assert len(def_permutation_matrix()) == 3


def test_def_permutation_matrix_rejects_a_wrong_count_of_ones_per_row():
    with pytest.raises(CheckFailed, match="each row holds 2 entries 1"):
        def_permutation_matrix(ones_per_row=(1, 2))


@symbolic
def test_def_permutation_matrix_rejects_the_column_permuting_transpose():
    def transposed(pi):
        # P_pi^T: applied from the right it permutes columns by pi (A P_pi^T = A[:, pi]);
        # applied from the left it moves row i to pi(i) instead of taking row pi(i)
        return permutation_matrix(pi).T

    with pytest.raises(
        CheckFailed,
        match=r"symbolic, pi = \(1, 2, 0\): P_pi X = X\[pi\], "
        r"A P_pi\^T = A\[:, pi\] fail",
    ):
        def_permutation_matrix(permutation_matrix=transposed)


@symbolic
def test_def_permutation_matrix_rejects_a_matrix_that_leaves_the_rows_in_place():
    def identity(pi):
        return np.eye(len(pi))  # applies the permutation to nothing

    with pytest.raises(
        CheckFailed,
        match=r"pi = \(1, 0\): P_pi X = X\[pi\], A P_pi\^T = "
        r"A\[:, pi\] fail",
    ):
        def_permutation_matrix(permutation_matrix=identity)


@symbolic
@pytest.mark.parametrize(
    "row, facts",
    [
        (
            lambda n: np.eye(n)[0],
            "P_pi X = X\\[pi\\], A P_pi\\^T = A\\[:, pi\\], P_pi\\^T P_pi = I fail",
        ),
        (
            lambda n: np.zeros(n),
            "P_pi X = X\\[pi\\], A P_pi\\^T = A\\[:, pi\\], P_pi\\^T P_pi = I, P_pi 1 = 1, "
            "each row holds 1 entries 1 fail",
        ),
    ],
    ids=["a repeated row", "a zero row"],
)
def test_def_permutation_matrix_names_every_fact_a_wrong_matrix_fails(row, facts):
    def last_row_replaced(pi):
        p = permutation_matrix(pi)
        p[-1] = row(len(pi)) if len(pi) > 1 else p[-1]
        return p

    with pytest.raises(CheckFailed, match=r"symbolic, pi = \(0, 1\): " + facts):
        def_permutation_matrix(permutation_matrix=last_row_replaced)


@symbolic
def test_def_permutation_matrix_rejects_entries_other_than_0_and_1():
    with pytest.raises(CheckFailed, match="is not a 0/1 matrix"):
        def_permutation_matrix(permutation_matrix=lambda pi: 2 * permutation_matrix(pi))


@numeric
def test_def_permutation_matrix_rejects_a_matrix_wrong_only_beyond_n_4():
    def transposed_from_5(pi):  # right on the symbolic range n = 1..4, wrong on the draws
        p = permutation_matrix(pi)
        return p.T if len(pi) >= 5 else p

    # the first failing draw fails P_pi X = X[pi]; shrunk to X = 0, it fails A P_pi^T
    with pytest.raises(
        CheckFailed,
        match=r"numeric, pi = .*(P_pi X = X\[pi\]|A P_pi\^T = "
        r"A\[:, pi\])",
    ):
        def_permutation_matrix(permutation_matrix=transposed_from_5)


def test_def_permutation_matrix_rejects_a_non_permutation():
    with pytest.raises(ValueError, match="pi must be a permutation"):
        permutation_matrix([0, 0, 1])


@pytest.mark.parametrize(
    ("kind", "wrong", "message"),
    [
        (
            "row-wise",
            lambda y: np.cumsum(y, axis=0),
            "the row-wise example has equivariance defect",
        ),
        ("invariant", lambda y: y[0], "the invariant example changes under a row permutation"),
        ("neither", np.tanh, "the example of neither looks equivariant"),
    ],
)
def test_def_permutation_matrix_rejects_an_example_of_the_wrong_kind(kind, wrong, message):
    examples = dict(NOTION_EXAMPLES, **{kind: wrong})
    with pytest.raises(CheckFailed, match=message):
        def_permutation_matrix(examples=examples)


@numeric
def test_def_softmax_holds():
    assert len(def_softmax()) == 3


@numeric
def test_def_softmax_rejects_the_unshifted_formula():
    with pytest.raises(CheckFailed):
        def_softmax(softmax=softmax_without_shift)


@numeric
def test_def_softmax_rejects_a_mask_that_is_ignored():
    with pytest.raises(CheckFailed):
        def_softmax(masked_softmax=masked_softmax_ignoring_mask)


@numeric
def test_def_softmax_rejects_float64_out_of_float32_in():
    with pytest.raises(CheckFailed, match="softmax of a float32 array of shape"):
        def_softmax(softmax=lambda z: softmax(z.astype(np.float64)))


@numeric
def test_def_softmax_rejects_a_masked_softmax_off_by_a_relative_1e_6():
    with pytest.raises(
        CheckFailed,
        match=r"^sigma\^U off the definition: \d+ of \d+ cases exceed "
        r"their bound; worst: sigma\^U\(\[",
    ):
        def_softmax(masked_softmax=lambda z, mask: masked_softmax(z, mask) * (1 + 1e-6))


@numeric
def test_def_softmax_rejects_a_softmax_taking_nan_for_0():
    with pytest.raises(CheckFailed, match="a NaN entry was not rejected with a ValueError"):
        def_softmax(softmax=lambda z: softmax(np.nan_to_num(z)))


@numeric
def test_def_softmax_rejects_an_empty_mask_giving_zeros():
    def zeros_if_empty(z, mask):
        return masked_softmax(z, mask) if mask.any() else np.zeros_like(z)

    with pytest.raises(CheckFailed, match="empty U was not rejected with a ValueError"):
        def_softmax(masked_softmax=zeros_if_empty)
