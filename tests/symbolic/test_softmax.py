"""命題 3.2 (softmax Jacobian) and 演習 10.2 (n = 2), derived and judged."""

import pytest
from sympy import (
    Eq,
    Ge,
    KroneckerDelta,
    Matrix,
    Ne,
    Rational,
    Sum,
    diag,
    expand,
    sqrt,
    symbols,
)

import symbolic.softmax as softmax_module
from symbolic.identities import is_zero
from symbolic.softmax import (
    DIFFERENTIATION_LIMIT,
    INDEX_PATTERNS,
    SIZE_LIMIT,
    EntryBoundProof,
    TwoByTwo,
    chapter_entry,
    chapter_matrix,
    derive_softmax_jacobian,
    derive_softmax_jacobian_by_differentiation,
    derive_softmax_jacobian_general,
    entry_bound_certificates,
    entry_bound_general,
    general_properties,
    is_maximum,
    jacobian_asymmetry,
    jacobian_times_ones,
    proved_entry,
    psd_certificate,
    sigma_i,
    sigma_j,
    simplex,
    softmax,
    two_by_two,
)
from symbolic.symbols import n as n_symbol


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
    # the normaliser runs over 1..n, the indices of z
    assert {s.limits[0][1:] for s in result.derived.atoms(Sum)} == {(1, n_symbol)}


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


def test_prop_softmax_jacobian_times_ones_is_a_column():
    assert jacobian_times_ones(3).shape == (3, 1)


def test_prop_softmax_jacobian_property_judges_reject_wrong_formulas():
    assert not is_zero(jacobian_times_ones(3, diag_only))
    assert not psd_certificate(3, transposed_outer).holds
    assert not is_zero(jacobian_asymmetry(3, skewed))


@pytest.mark.parametrize("n", range(1, 5))
def test_prop_softmax_jacobian_entry_bound(n):
    certificates = entry_bound_certificates(n)
    assert len(certificates) == 2 * n**3
    assert all(c.holds for c in certificates)


def test_prop_softmax_jacobian_entry_bound_claims_name_their_slacks():
    s = simplex(2)
    J = chapter_matrix(Matrix(s))
    certificates = entry_bound_certificates(2)
    assert [c.claim for c in certificates[:4]] == [
        "1 - sigma_1 - J_11 >= 0",
        "1 - sigma_1 + J_11 >= 0",
        "1 - sigma_2 - J_11 >= 0",
        "1 - sigma_2 + J_11 >= 0",
    ]
    assert certificates[-1].claim == "1 - sigma_2 + J_22 >= 0"
    assert certificates[0].expression == 1 - s[0] - J[0, 0]
    assert certificates[-1].expression == 1 - s[1] + J[1, 1]


def test_prop_softmax_jacobian_entry_bound_rejects_wrong_formula():
    certificates = entry_bound_certificates(3, diag_only)
    assert not all(c.holds for c in certificates)


def test_prop_softmax_jacobian_entry_bound_for_symbolic_n():
    proof = entry_bound_general()
    assert proof.holds
    assert [case.pattern for case in proof.cases] == list(INDEX_PATTERNS)
    for case in proof.cases:
        for certificate in case.certificates:
            assert certificate.nonnegative and certificate.identity_holds
            # the certificate equals the slack once r = 1 - (the other quantities)
            *others, rest = case.quantities
            slack = certificate.expression - certificate.certificate
            assert expand(slack.subs(rest, 1 - sum(others))) == 0


def test_prop_softmax_jacobian_entry_bound_for_symbolic_n_states_each_case():
    case = entry_bound_general().cases[1]
    i, j, k = symbols("i j k", integer=True, positive=True)
    s_i, s_k, r = case.quantities
    assert case.pattern == "i = j != k"
    assert case.relations == (Eq(i, j), Ne(i, k), Ne(j, k))
    assert case.hypotheses == (
        *(Ge(q, 0, evaluate=False) for q in (s_i, s_k, r)),
        Eq(s_i + s_k + r, 1),
    )
    minus, plus = case.certificates
    assert minus.claim == "i = j != k: bound(sigma_k) - J_ij >= 0"
    assert expand(minus.expression - (1 - s_k - case.entry)) == 0
    assert expand(plus.expression - (1 - s_k + case.entry)) == 0


def test_prop_softmax_jacobian_entry_bound_for_symbolic_n_cases():
    entries = {case.pattern: case.entry for case in entry_bound_general().cases}
    s_i = entry_bound_general().cases[0].quantities[0]
    assert entries["i = j = k"] == s_i * (1 - s_i)
    assert entries["i, j, k distinct"].could_extract_minus_sign()


@pytest.mark.parametrize(
    "bound",
    [lambda top: (1 - top) / 2, lambda top: 1 - top - top * (1 - top) / 4, lambda top: -top],
    ids=["half", "less a quarter of the diagonal", "negative"],
)
def test_prop_softmax_jacobian_entry_bound_for_symbolic_n_rejects_wrong_bounds(bound):
    assert not entry_bound_general(bound=bound).holds


def test_prop_softmax_jacobian_entry_bound_for_symbolic_n_rejects_wrong_formula():
    def doubled_outer(sigma, i, j):
        return sigma[i] * (KroneckerDelta(i, j) - 2 * sigma[j])

    assert not entry_bound_general(without_sigma_sigma_t).holds
    assert not entry_bound_general(doubled_outer).holds


def test_prop_softmax_jacobian_entry_bound_needs_every_case():
    proof = entry_bound_general()
    assert not EntryBoundProof(proof.claim, proof.cases[:-1]).holds


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


def eigenvalue(f, maximiser):
    """A 2 x 2 result whose only eigenvalue is f(s), with the given critical points."""
    s = two_by_two().s
    return TwoByTwo(s, Matrix(), Matrix(), {f(s): 1}, tuple(maximiser), None)


def test_exr_jacobian_two_is_maximum_accepts_the_chapter_eigenvalue():
    assert is_maximum(eigenvalue(lambda s: 2 * s * (1 - s), [Rational(1, 2)]))


@pytest.mark.parametrize(
    "f, maximiser",
    [
        (lambda s: -2 * s * (1 - s), [Rational(1, 2)]),  # a minimum: f'' > 0
        (lambda s: (1 - (2 * s - 1) ** 4) / 2, [Rational(1, 2)]),  # value 1/2 but f'' = 0
        (lambda s: 2 * s * (1 - s) + Rational(1, 2), [Rational(1, 2)]),  # not 0 at the ends
        (lambda s: 2 * s * (1 - s) + s / 2, [Rational(5, 8)]),  # not 0 at s = 1 only
        (lambda s: 2 * s * (1 - s) + (1 - s) / 2, [Rational(3, 8)]),  # not 0 at s = 0 only
        (lambda s: 2 * s * (1 - s), [Rational(1, 3)]),  # not a critical point
        (lambda s: 2 * s * (1 - s), [Rational(1, 4), Rational(3, 4)]),  # two points
    ],
    ids=["minimum", "flat", "ends", "one end", "other end", "not critical", "two points"],
)
def test_exr_jacobian_two_is_maximum_rejects_each_failing_clause(f, maximiser):
    assert not is_maximum(eigenvalue(f, maximiser))


def test_exr_jacobian_two_critical_points_are_those_inside_the_interval():
    def cubic(sigma):  # eigenvalues 0 and f(s) with f' = (s - 1/2)(s - 3/2)
        s = sigma[0]
        return (s**3 / 3 - s**2 + 3 * s / 4) * Matrix([[1, -1], [-1, 1]]) / 2

    assert two_by_two(cubic).maximiser == (Rational(1, 2),)


def test_softmax_sizes_are_validated():
    with pytest.raises(ValueError, match="n must be >= 1, got 0"):
        derive_softmax_jacobian(0)
    with pytest.raises(TypeError, match="n must be an int"):
        psd_certificate(2.0)


# ----------------------------------------------- explicit sizes, fast path


def test_prop_softmax_jacobian_proved_entry_comes_from_the_symbolic_n_derivation():
    i, j = symbols("i j", integer=True, positive=True)
    assert proved_entry() == sigma_i * KroneckerDelta(i, j) - sigma_i * sigma_j


@pytest.mark.parametrize("n", range(1, 5))
def test_prop_softmax_jacobian_explicit_n_equals_differentiation(n):
    fast, slow = derive_softmax_jacobian(n), derive_softmax_jacobian_by_differentiation(n)
    assert fast.holds and slow.holds
    z = Matrix(symbols(f"z_1:{n + 1}", real=True))
    on_softmax = dict(zip(simplex(n), softmax(z), strict=True))
    assert is_zero(fast.derived.xreplace(on_softmax) - slow.derived)


@pytest.mark.parametrize("n", range(1, 5))
@pytest.mark.parametrize(
    "wrong",
    [without_sigma_sigma_t, lambda s, i, j: s[i] * s[j]],
    ids=["no outer product", "outer product only"],
)
def test_prop_softmax_jacobian_explicit_n_agrees_with_differentiation_on_wrong_formulas(n, wrong):
    assert (
        derive_softmax_jacobian(n, wrong).holds
        == derive_softmax_jacobian_by_differentiation(n, wrong).holds
    )


def test_prop_softmax_jacobian_the_size_limit_is_the_largest_n_derived(monkeypatch):
    """n = SIZE_LIMIT is derived and one more refused, with the limit set to 6 so that the
    boundary costs what n = 6 does (n = 256 itself: the thorough test below)."""
    assert SIZE_LIMIT == 256
    monkeypatch.setattr(softmax_module, "SIZE_LIMIT", 6)
    assert derive_softmax_jacobian(6).holds
    with pytest.raises(ValueError, match="n = 7 is above SIZE_LIMIT = 6"):
        derive_softmax_jacobian(7)


def test_prop_softmax_jacobian_explicit_n_rejects_one_entry_off_in_the_last_row():
    n = 6

    def one_entry_off(sigma, i, j):  # wrong only at (n - 1, 0)
        return chapter_entry(sigma, i, j) + (sigma[0] if (i, j) == (n - 1, 0) else 0)

    assert not derive_softmax_jacobian(n, one_entry_off).holds
    assert not derive_softmax_jacobian(n, without_sigma_sigma_t).holds


@pytest.mark.thorough
def test_prop_softmax_jacobian_n_256_the_size_limit_and_its_wrong_formulas():
    assert SIZE_LIMIT == 256
    assert derive_softmax_jacobian(256).holds
    assert not derive_softmax_jacobian(256, without_sigma_sigma_t).holds

    def one_entry_off(sigma, i, j):  # wrong only at (255, 0)
        return chapter_entry(sigma, i, j) + (sigma[0] if (i, j) == (255, 0) else 0)

    assert not derive_softmax_jacobian(256, one_entry_off).holds


def test_prop_softmax_jacobian_explicit_n_judges_on_the_simplex():
    def times_total(sigma, i, j):  # equal to the chapter's wherever sum sigma = 1
        return chapter_entry(sigma, i, j) * sum(sigma)

    assert derive_softmax_jacobian(5, times_total).holds
    assert derive_softmax_jacobian_by_differentiation(3, times_total).holds
    difference = derive_softmax_jacobian(3, without_sigma_sigma_t).difference
    assert difference[0, 1] == -simplex(3)[0] * simplex(3)[1]  # derived - stated
    assert difference[0, 0] == -(simplex(3)[0] ** 2)  # sigma_1 - sigma_1^2 - sigma_1


def root(sigma, i, j):  # not a polynomial in sigma
    return sqrt(sigma[i]) * (KroneckerDelta(i, j) - sigma[j])


def test_prop_softmax_jacobian_explicit_n_outside_the_polynomials_differentiates():
    assert not derive_softmax_jacobian(3, root).holds
    with pytest.raises(ValueError, match="DIFFERENTIATION_LIMIT|handles n <= 32"):
        derive_softmax_jacobian(DIFFERENTIATION_LIMIT + 1, root)


def test_prop_softmax_jacobian_explicit_n_differentiates_up_to_n_32(monkeypatch):
    calls = []
    monkeypatch.setattr(
        softmax_module,
        "derive_softmax_jacobian_by_differentiation",
        lambda n, stated: calls.append(n),
    )
    derive_softmax_jacobian(32, root)
    assert calls == [32]


def test_prop_softmax_jacobian_by_differentiation_up_to_its_limit(monkeypatch):
    """n = DIFFERENTIATION_LIMIT is differentiated and one more refused, with the limit set
    to 4 so that the boundary costs what n = 4 does (n = 32 itself: the thorough test)."""
    assert DIFFERENTIATION_LIMIT == 32
    monkeypatch.setattr(softmax_module, "DIFFERENTIATION_LIMIT", 4)
    assert derive_softmax_jacobian_by_differentiation(4).holds
    with pytest.raises(ValueError, match="n = 5 is above DIFFERENTIATION_LIMIT = 4"):
        derive_softmax_jacobian_by_differentiation(5)


@pytest.mark.thorough
def test_prop_softmax_jacobian_by_differentiation_at_n_32():
    assert DIFFERENTIATION_LIMIT == 32
    assert derive_softmax_jacobian_by_differentiation(32).holds


def test_prop_softmax_jacobian_explicit_n_limits():
    with pytest.raises(ValueError, match="n = 257 is above SIZE_LIMIT = 256"):
        derive_softmax_jacobian(257)
    with pytest.raises(ValueError, match="above DIFFERENTIATION_LIMIT"):
        derive_softmax_jacobian_by_differentiation(DIFFERENTIATION_LIMIT + 1)
