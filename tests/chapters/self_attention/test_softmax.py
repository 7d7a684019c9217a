"""§3 softmax の性質 (proofs/chapters/self_attention/softmax.py): basic properties
(命題 3.1), the Jacobian (命題 3.2), the mask as a limit (命題 3.3). Each check passes, and
rejects wrong variants."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from chapters.self_attention.variants import (
    jacobian_without_outer,
    masked_softmax_ignoring_mask,
    softmax_without_shift,
)

from numeric.softmax import masked_softmax, softmax, softmax_jacobian
from proofs.book.judge import CheckFailed
from proofs.chapters.self_attention.softmax import (
    prop_mask_as_limit,
    prop_softmax_basic,
    prop_softmax_jacobian,
)
from symbolic import mask as sym_mask
from symbolic.mask import chapter_bound as chapter_mask_bound
from symbolic.softmax import derive_softmax_jacobian, derive_softmax_jacobian_general

symbolic = pytest.mark.symbolic
numeric = pytest.mark.numeric


@numeric
def test_prop_softmax_basic_holds():
    assert len(prop_softmax_basic()) == 3


@numeric
@pytest.mark.parametrize("bound", [0, 2])
def test_prop_softmax_basic_rejects_a_wrong_bound_of_the_shifted_exponents(bound):
    with pytest.raises(CheckFailed, match=f"reaches 1.0, the text says at most {bound}"):
        prop_softmax_basic(shifted_bound=bound)


@numeric
def test_prop_softmax_basic_positivity_fails_only_by_underflow():
    """Outside the stated domain: e^(z_i - max z) below the smallest float gives exactly 0."""
    assert softmax(np.array([0.0, -800.0]))[1] == 0.0
    assert softmax(np.array([0.0, -700.0]))[1] > 0.0
    assert softmax(np.array([0.0, -120.0], dtype=np.float32))[1] == 0.0


@numeric
def test_prop_softmax_basic_rejects_the_overflowing_softmax():
    with pytest.raises(CheckFailed):
        prop_softmax_basic(softmax=softmax_without_shift)


@pytest.mark.symbolic
def test_prop_softmax_basic_rejects_an_unnormalised_symbolic_softmax():
    with pytest.raises(CheckFailed, match="sum_i sigma_i != 1"):
        prop_softmax_basic(symbolic=lambda z: z.applyfunc(sp.exp))


def indexed_variant(entry, lower=1):
    """A softmax for symbolic n: sigma_i = entry(z_i) / sum_{k=lower}^{n} entry(z_k)."""
    k = sp.Symbol("k", integer=True, positive=True)
    return lambda z, i, n: entry(z[i]) / sp.Sum(entry(z[k]), (k, lower, n))


@pytest.mark.symbolic
@pytest.mark.parametrize(
    "indexed, message",
    [
        (indexed_variant(sp.exp, lower=0), "sum_i sigma_i = .* does not reduce to 1"),
        (
            lambda z, i, n: indexed_variant(sp.exp)(z, i, n) / 2,
            "sum_i sigma_i = .* does not reduce",
        ),
        (indexed_variant(lambda t: t), r"sigma\(z \+ c1\)_i - sigma\(z\)_i = .* does not reduce"),
    ],
    ids=["normaliser from 0", "halved", "linear"],
)
def test_prop_softmax_basic_rejects_a_wrong_softmax_for_symbolic_n(indexed, message):
    with pytest.raises(CheckFailed, match=message):
        prop_softmax_basic(indexed=indexed)


@pytest.mark.symbolic
def test_prop_softmax_basic_rejects_a_symbolic_softmax_of_squares():
    def squares(z):
        e = z.applyfunc(lambda v: sp.exp(v**2))
        return e / sum(e)

    with pytest.raises(CheckFailed, match="sigma_j - sigma_i"):
        prop_softmax_basic(symbolic=squares)


@pytest.mark.symbolic
def test_prop_softmax_basic_rejects_a_symbolic_softmax_weighting_positions():
    def weighted(z):
        e = sp.Matrix([(k + 1) * sp.exp(v) for k, v in enumerate(z)])
        return e / sum(e)

    with pytest.raises(CheckFailed, match=r"sigma\(Pz\) != P sigma\(z\) for pi = \(1, 0\)"):
        prop_softmax_basic(symbolic=weighted)


@pytest.mark.symbolic
def test_prop_softmax_basic_rejects_a_symbolic_softmax_of_minus_z():
    def reversed_order(z):  # equivariant, positive, sums to 1
        e = z.applyfunc(lambda v: sp.exp(-v))
        return e / sum(e)

    with pytest.raises(CheckFailed, match="sigma_j - sigma_i"):
        prop_softmax_basic(symbolic=reversed_order)


@numeric
def test_prop_softmax_basic_rejects_squares():
    def squares(z):
        z = np.asarray(z, dtype=float)
        return softmax(z * z)  # order not preserved for negative entries

    with pytest.raises(CheckFailed):
        prop_softmax_basic(softmax=squares)


def softmax_top_two_swapped(z):
    """The two largest weights exchanged: positive, sums to 1, shift-invariant; order broken."""
    sigma = np.array(softmax(z))
    top = np.argsort(sigma)[-2:]
    sigma[top] = sigma[top[::-1]]
    return sigma


def softmax_top_two_averaged(z):
    """The two largest weights replaced by their mean: order kept, but not strictly."""
    sigma = np.array(softmax(z))
    top = np.argsort(sigma)[-2:]
    sigma[top] = sigma[top].mean()
    return sigma


def softmax_of_index_shifted(z):
    """sigma(z + 1e-3 (0, 1, ..., n-1)): every property but permutation equivariance."""
    z = np.asarray(z)
    return softmax(z + np.arange(z.size, dtype=z.dtype) / 1000)


def softmax_tie_broken(z):
    """Breaks ties by index, and only ties: the shift stays below half the smallest gap
    between distinct entries, so their order holds (a shift of 1/1000 reversed two entries
    6e-5 apart, and the order clause rejected it first)."""
    z = np.asarray(z)
    distinct = np.unique(z)
    if distinct.size == z.size:
        return softmax(z)
    gap = np.diff(distinct).min() if distinct.size > 1 else z.dtype.type(1)
    return softmax(z + np.arange(z.size, dtype=z.dtype) * (gap / (2 * z.size)))


@numeric
@pytest.mark.parametrize(
    "variant, clause",
    [
        (lambda z: softmax(z) * 1.001, "sums to"),
        (lambda z: softmax(np.asarray(z) + np.asarray(z) ** 2 / 1000), "softmax\\(z \\+"),
        (softmax_top_two_swapped, "but sigma_. > sigma_"),
        (softmax_top_two_averaged, "but sigma_. = sigma_"),
        (softmax_tie_broken, "but sigma differs"),
        (softmax_of_index_shifted, "softmax\\(Pz\\) != P softmax"),
    ],
    ids=["sum", "shift", "order", "strict order", "ties", "permutation"],
)
def test_prop_softmax_basic_rejects_a_softmax_failing_one_property(variant, clause):
    with pytest.raises(CheckFailed, match=clause):
        prop_softmax_basic(softmax=variant)


@symbolic
def test_prop_softmax_basic_rejects_a_symbolic_softmax_with_a_non_positive_entry():
    def difference_first(z):
        e = z.applyfunc(sp.exp)
        if len(e) > 1:
            e[0], e[1] = e[0] - e[1], 2 * e[1]  # the sum is unchanged
        return e / sum(z.applyfunc(sp.exp))

    with pytest.raises(CheckFailed, match="a sigma_i is not positive at n = 2"):
        prop_softmax_basic(symbolic=difference_first)


@numeric
def test_prop_softmax_jacobian_holds():
    assert len(prop_softmax_jacobian()) == 2


@numeric
def test_prop_softmax_jacobian_rejects_missing_sigma_sigma_t():
    with pytest.raises(CheckFailed):
        prop_softmax_jacobian(jacobian=jacobian_without_outer)


@symbolic
def test_prop_softmax_jacobian_rejects_a_stated_entry_missing_sigma_sigma_t():
    """The stated entry sigma_i delta_ij (the sigma sigma^T term missing): SymPy's derivations
    at n = 3 and for symbolic n do not reduce to it, and the check rejects it."""

    def without_sigma_sigma_t(sigma, i, j):
        return sigma[i] * sp.KroneckerDelta(i, j)

    assert not derive_softmax_jacobian(3, without_sigma_sigma_t).holds
    assert not derive_softmax_jacobian_general(without_sigma_sigma_t).holds
    with pytest.raises(CheckFailed, match="derived - stated does not vanish for symbolic n"):
        prop_softmax_jacobian(stated_entry=without_sigma_sigma_t)


def _skewed(z):
    jac = np.array(softmax_jacobian(z))
    if jac.shape[0] > 1:
        jac[0, 1] += 1e-3
        jac[1, 0] -= 1e-3
    return jac


@numeric
@pytest.mark.parametrize(
    "variant, clause",
    [
        (lambda z: softmax_jacobian(z)[:-1], "jacobian of shape"),
        (_skewed, "J not symmetric"),
        (lambda z: -softmax_jacobian(z), "v\\^T J v ="),
        (lambda z: softmax_jacobian(z) + 1e-3 * np.eye(np.size(z)), "J1 != 0"),
        (lambda z: 2 * softmax_jacobian(z), "\\|J_ij\\| > 1 - max sigma"),
        # shrunk: symmetric, PSD, J1 = 0 and within the entry bound, but not the derivative (adding
        # 1e-9 (I - 11^T/n) instead breaks the entry bound too, where 1 - max sigma is below 1e-9)
        (lambda z: softmax_jacobian(z) * (1 - 1e-6), "against the 80-digit finite differences"),
    ],
    ids=["shape", "symmetry", "semidefinite", "J1", "entry bound", "derivative"],
)
def test_prop_softmax_jacobian_rejects_a_jacobian_failing_one_property(variant, clause):
    with pytest.raises(CheckFailed, match=clause):
        prop_softmax_jacobian(jacobian=variant)


@symbolic
def test_prop_softmax_jacobian_rejects_a_wrong_stated_entry():
    def entry(sigma, i, j):
        return sigma[i] * (sp.KroneckerDelta(i, j) + sigma[j])

    with pytest.raises(CheckFailed):
        prop_softmax_jacobian(stated_entry=entry)


@symbolic
def test_prop_softmax_jacobian_rejects_a_stated_matrix_without_the_outer_product():
    with pytest.raises(CheckFailed, match="J1 != 0"):
        prop_softmax_jacobian(stated_matrix=lambda sigma: sp.diag(*sigma))


@numeric
def test_prop_mask_as_limit_holds():
    assert len(prop_mask_as_limit()) >= 2


@symbolic
def test_prop_mask_as_limit_rejects_an_e_minus_2c_bound():
    def too_small(z, allowed, i, c):
        return chapter_mask_bound(z, allowed, i, c) * sp.exp(-c)

    with pytest.raises(CheckFailed, match="the e\\^\\(-c\\) bound is not certified"):
        prop_mask_as_limit(stated_bound=too_small)


@numeric
def test_prop_mask_as_limit_rejects_a_bound_wrong_beyond_the_symbolic_sizes():
    def halved_from_n_4(z, allowed, i, c):  # the chapter's for n <= 3 only
        return chapter_mask_bound(z, allowed, i, c) / (1 if len(z) <= 3 else 2)

    with pytest.raises(CheckFailed, match=r"sigma_\d = .* not in \(0, "):
        prop_mask_as_limit(stated_bound=halved_from_n_4)


@symbolic
def test_prop_mask_as_limit_rejects_a_masked_softmax_normalised_over_every_position():
    def over_all(z, allowed):
        total = sum(sp.exp(v) for v in z)
        return sp.Matrix([sp.exp(z[i]) / total if i in set(allowed) else 0 for i in range(z.rows)])

    with pytest.raises(CheckFailed, match=r"lim sigma\(z - c m\) != sigma\^U\(z\)"):
        prop_mask_as_limit(stated_masked=over_all)


@numeric
def test_prop_mask_as_limit_rejects_a_masked_softmax_wrong_beyond_the_symbolic_sizes():
    def over_all_from_n_4(z, allowed):  # sigma^U for n <= 3, normalised over all positions after
        if z.rows <= 3:
            return sym_mask.masked_softmax(z, allowed)
        total = sum(sp.exp(v) for v in z)
        return sp.Matrix([sp.exp(z[i]) / total if i in set(allowed) else 0 for i in range(z.rows)])

    rate = r"\|sigma_i - sigma\^U_i\| = .* exceeds the e\^\(-c\) rate"
    with pytest.raises(CheckFailed, match=rate):
        prop_mask_as_limit(stated_masked=over_all_from_n_4)


@numeric
def test_prop_mask_as_limit_rejects_a_mask_that_is_ignored():
    with pytest.raises(CheckFailed):
        prop_mask_as_limit(masked_softmax=masked_softmax_ignoring_mask)


@numeric
def test_prop_mask_as_limit_rejects_a_masked_softmax_off_the_limit():
    def off(z, mask):
        return masked_softmax(z, mask) * (1 + 1e-10)  # masked entries stay exactly 0

    with pytest.raises(CheckFailed, match="masked_softmax off the c = 1000 limit"):
        prop_mask_as_limit(masked_softmax=off)
