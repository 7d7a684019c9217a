"""命題 3.2 (softmax Jacobian) and 演習 10.2 (n = 2), derived and judged."""

import pytest
from sympy import KroneckerDelta, Matrix, Rational, diag

from symbolic.identities import is_zero
from symbolic.softmax import (
    chapter_matrix,
    derive_softmax_jacobian,
    derive_softmax_jacobian_general,
    entry_bound_certificates,
    general_properties,
    is_maximum,
    jacobian_asymmetry,
    jacobian_times_ones,
    psd_certificate,
    two_by_two,
)


def without_sigma_sigma_t(sigma, i, j):
    return sigma[i] * KroneckerDelta(i, j)


def diag_only(sigma):
    return diag(*sigma)


def transposed_outer(sigma):  # sigma^T sigma (a 1 x 1) broadcast: a wrong "outer" term
    n = sigma.rows
    return diag(*sigma) - (sigma.T * sigma)[0, 0] * Matrix.ones(n, n) / n


def skewed(sigma):  # diag(sigma) - sigma sigma^T with one entry perturbed: not symmetric
    J = chapter_matrix(sigma)
    J[0, -1] += sigma[0] * sigma[-1]
    return J


@pytest.mark.parametrize("n", range(1, 9))
def test_prop_softmax_jacobian_entries_for_explicit_n(n):
    assert derive_softmax_jacobian(n).holds


def test_prop_softmax_jacobian_entries_for_symbolic_n():
    result = derive_softmax_jacobian_general()
    assert result.holds
    assert result.derived.has(KroneckerDelta)


def test_prop_softmax_jacobian_rejects_missing_sigma_sigma_t():
    assert not derive_softmax_jacobian(3, without_sigma_sigma_t).holds
    assert not derive_softmax_jacobian_general(without_sigma_sigma_t).holds


def test_prop_softmax_jacobian_rejects_wrong_sign_of_delta():
    def flipped(sigma, i, j):
        return sigma[i] * (sigma[j] - KroneckerDelta(i, j))

    assert not derive_softmax_jacobian(2, flipped).holds


def test_prop_softmax_jacobian_properties_for_symbolic_n():
    properties = general_properties()
    assert properties == {name: 0 for name in properties}
    assert len(properties) == 3


def test_prop_softmax_jacobian_properties_for_symbolic_n_reject_wrong_formulas():
    no_outer = general_properties(without_sigma_sigma_t)
    assert no_outer["J 1 = 0"] != 0
    assert no_outer["v^T J v = sum_i sigma_i (v_i - m)^2"] != 0

    def lopsided(sigma, i, j):  # sigma_i (delta_ij - sigma_i): not symmetric
        return sigma[i] * (KroneckerDelta(i, j) - sigma[i])

    assert general_properties(lopsided)["J symmetric"] != 0


@pytest.mark.parametrize("n", range(1, 9))
def test_prop_softmax_jacobian_symmetric_psd_and_kernel(n):
    assert is_zero(jacobian_asymmetry(n))
    assert is_zero(jacobian_times_ones(n))
    certificate = psd_certificate(n)
    assert certificate.nonnegative and certificate.identity_holds


def test_prop_softmax_jacobian_property_judges_reject_wrong_formulas():
    assert not is_zero(jacobian_times_ones(3, diag_only))
    assert not psd_certificate(3, transposed_outer).holds
    assert not is_zero(jacobian_asymmetry(3, skewed))


@pytest.mark.parametrize("n", range(1, 5))
def test_prop_softmax_jacobian_entry_bound(n):
    certificates = entry_bound_certificates(n)
    assert len(certificates) == 2 * n**3
    assert all(c.holds for c in certificates)


def test_prop_softmax_jacobian_entry_bound_rejects_wrong_formula():
    certificates = entry_bound_certificates(3, diag_only)
    assert not all(c.holds for c in certificates)


def test_exr_jacobian_two_closed_form_eigenvalues_and_maximum():
    result = two_by_two()
    s = result.s
    assert is_zero(result.jacobian - result.closed_form)
    eigenvalues = sorted(result.eigenvalues, key=lambda e: e.subs(s, Rational(1, 3)))
    assert eigenvalues[0] == 0 and is_zero(eigenvalues[1] - 2 * s * (1 - s))
    assert result.maximiser == (Rational(1, 2),)
    assert result.maximum == Rational(1, 2)
    assert is_maximum(result)


def test_exr_jacobian_two_rejects_missing_sigma_sigma_t():
    result = two_by_two(diag_only)
    assert not is_zero(result.jacobian - result.closed_form)
    assert result.maximum != Rational(1, 2)


def test_softmax_sizes_are_validated():
    with pytest.raises(ValueError, match="n must be >= 1, got 0"):
        derive_softmax_jacobian(0)
    with pytest.raises(TypeError, match="n must be an int"):
        psd_certificate(2.0)

