"""numeric.contraction: the declared einsums, their fast paths, and the multiplication counter."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from numeric.contraction import contract, count_multiplications, record
from numeric.error_bounds import gamma, unit_roundoff
from spec.contractions import BLOCK, LETTERS, LM_HEAD, SCORES, Contraction

pytestmark = pytest.mark.numeric
DECLARED = BLOCK + (LM_HEAD,)


def operands(c: Contraction, sizes: dict[str, int], rng, dtype=np.float64):
    inputs = c.subscripts.split("->")[0].split(",")
    return [rng.standard_normal([sizes[ch] for ch in s]).astype(dtype) for s in inputs]


def summed(c: Contraction, sizes: dict[str, int]) -> int:
    """Terms in each output entry: the product of the letters not in the output."""
    out = c.subscripts.split("->")[1]
    return math.prod(sizes[ch] for ch in c.letters if ch not in out)


@pytest.mark.parametrize("c", DECLARED, ids=[c.name for c in DECLARED])
def test_contract_equals_einsum_and_counts_every_index_assignment(c):
    @given(st.fixed_dictionaries({ch: st.integers(1, 6) for ch in LETTERS}), st.integers(0, 99))
    def check(sizes, seed):
        ops = operands(c, sizes, np.random.default_rng(seed))
        with count_multiplications() as counter:
            out = contract(c, *ops)
        reference = np.einsum(c.subscripts, *ops)
        # Both are sums of K products in some order: each within gamma_K |a||b| of exact.
        magnitude = np.einsum(c.subscripts, *[np.abs(a) for a in ops])
        bound = 2 * gamma(summed(c, sizes), unit_roundoff(np.float64)) * magnitude
        assert out.shape == reference.shape
        assert (np.abs(out - reference) <= bound).all()
        assert counter.total == math.prod(sizes[ch] for ch in c.letters)
        assert dict(counter.by_name) == {c.name: counter.total}

    check()


@pytest.mark.parametrize("c", DECLARED, ids=[c.name for c in DECLARED])
def test_contract_keeps_float32(c):
    sizes = dict.fromkeys(LETTERS, 3)
    ops = operands(c, sizes, np.random.default_rng(0), np.float32)
    assert contract(c, *ops).dtype == np.float32


def test_contract_writes_into_out():
    q, k = operands(SCORES, dict.fromkeys(LETTERS, 4), np.random.default_rng(1))
    out = np.empty((4, 4, 4))
    assert contract(SCORES, q, k, out=out) is out
    # both are sums of 4 products in some order: each within gamma_4 |q||k| of exact
    bound = 2 * gamma(4, unit_roundoff(np.float64)) * np.einsum(SCORES.subscripts, abs(q), abs(k))
    assert (np.abs(out - np.einsum(SCORES.subscripts, q, k)) <= bound).all()


def test_undeclared_subscripts_fall_back_to_einsum():
    c = Contraction("trace_product", "ij,ji->")
    a = np.arange(6.0).reshape(2, 3)
    with count_multiplications() as counter:
        assert contract(c, a, a.T.copy()) == np.einsum("ij,ji->", a, a.T)
    assert counter.total == 6


def test_counters_nest_and_stop_counting_outside():
    q, k = operands(SCORES, {"h": 2, "n": 3, "m": 5, "k": 4}, np.random.default_rng(2))
    with count_multiplications() as outer:
        contract(SCORES, q, k)
        with count_multiplications() as inner:
            contract(SCORES, q, k)
    contract(SCORES, q, k)
    assert inner.total == 2 * 3 * 5 * 4
    assert outer.total == 2 * inner.total
    assert outer.by_name == {"scores": 240}


def test_record_counts_without_evaluating_and_uncounted_pieces_add_nothing():
    q, k = operands(SCORES, {"h": 2, "n": 3, "m": 5, "k": 4}, np.random.default_rng(3))
    with count_multiplications() as counter:
        record(SCORES, q, k)
        contract(SCORES, q[:, :1], k, counted=False)
    assert counter.total == 120
    assert counter.executed == {"scores": 2 * 1 * 5 * 4}  # the piece, run but not counted


def test_contract_rejects_mismatched_operands_naming_the_contraction():
    q = np.ones((2, 3, 4))
    with pytest.raises(ValueError, match=r"scores \(hnk,hmk->hnm\) takes 2 operands, got 1"):
        contract(SCORES, q)
    with pytest.raises(ValueError, match=r"operand 1 must have 3 dimensions \(hmk\)"):
        contract(SCORES, q, np.ones((3, 4)))
    with pytest.raises(ValueError, match="index k has size 4 in one operand and 5 in operand 1"):
        contract(SCORES, q, np.ones((2, 3, 5)))
    with pytest.raises(TypeError, match="c must be a spec.contractions.Contraction"):
        contract("hnk,hmk->hnm", q, q)


@pytest.mark.parametrize("dtype", [str, object, bool, complex])
def test_contract_rejects_operands_that_are_not_real_numbers(dtype):
    q = np.ones((1, 2, 2), dtype=dtype)
    with pytest.raises(
        TypeError,
        match=f"scores .*: operand 0 must be a real float or integer array, got dtype {q.dtype}",
    ):
        contract(SCORES, q, np.ones((1, 2, 2)))
