"""§4 残差接続 (proofs/chapters/transformer_block/residual.py): the identity path of
the Jacobian (命題 4.1) and 注意 4.2. Each check passes, and rejects wrong variants."""

import mpmath
import numpy as np
import pytest
import sympy

from numeric.block import pre_ln_block
from numeric.model import init_parameters
from proofs.book.judge import CheckFailed
from proofs.chapters.transformer_block.residual import (
    DEPTH_M,
    FD_ERROR,
    FD_STEP,
    MP,
    STACK,
    mp_jacobian,
    pre_ln_sublayers,
    prop_residual_identity_path,
    rem_pre_post_ln_empirical,
    residual_jacobians,
)
from proofs.evidence.reference import DIGITS, mp_central_jacobian
from symbolic import residual


@pytest.mark.symbolic
@pytest.mark.numeric
def test_prop_residual_identity_path_holds():
    assert prop_residual_identity_path()


@pytest.mark.numeric
def test_prop_residual_identity_path_rejects_a_stack_without_residual():
    with pytest.raises(CheckFailed, match="x_M != x_0"):
        prop_residual_identity_path(step=lambda x, g: g(x), depths=())


@pytest.mark.numeric
def test_prop_residual_identity_path_rejects_a_step_with_a_1e_18_square():
    """Below float64's rounding of x_l, so the stack still telescopes and equals the blocks;
    its Jacobian gains 2e-18 x, beyond the 50-digit bounds of the product."""
    with pytest.raises(CheckFailed, match=r"differs from prod \(I \+ J_k\)"):
        prop_residual_identity_path(step=lambda x, g: x + g(x) + 1e-18 * x**2, depths=())


@pytest.mark.numeric
def test_prop_residual_identity_path_rejects_blocks_off_by_a_relative_1e_9():
    def drifting(x, params):
        return pre_ln_block(x, params) * (1 + 1e-9)

    with pytest.raises(CheckFailed, match="the sublayer stack differs from the blocks"):
        prop_residual_identity_path(block=drifting, depths=())


@pytest.mark.symbolic
@pytest.mark.parametrize(
    "stated, match",
    [
        ({"identity_count": 2}, "M - l = 1: 1 bare I terms, stated 2"),
        ({"term_count": 2 * DEPTH_M}, r"M - l = 3: 8 terms \(distinct\), stated 6"),
    ],
    ids=["two identities", "2(M - l) terms"],
)
def test_prop_residual_identity_path_judges_the_stated_counts(stated, match):
    with pytest.raises(CheckFailed, match=match):
        prop_residual_identity_path(**stated, depths=(1, 2, 3))


@pytest.mark.numeric
def test_prop_residual_identity_path_rejects_post_ln_factors_in_the_other_order():
    def swapped(k, d):  # (I + D_k) K_k
        return (np.eye(len(d)).astype(d.dtype) + d) @ k

    with pytest.raises(CheckFailed, match=r"Post-LN: dx_M/dx_0 differs from prod K_k"):
        prop_residual_identity_path(factor=swapped, depths=())


@pytest.mark.numeric
def test_prop_residual_identity_path_rejects_a_layer_norm_jacobian_without_centring():
    def without_centring(s, eps):  # (I - y y^T / d) / sigma: the -1 1^T / d term dropped
        d = s.shape[-1]
        sigma = np.sqrt(s.var(axis=-1, keepdims=True) + eps)  # (n, 1)
        y = (s - s.mean(axis=-1, keepdims=True)) / sigma  # (n, d)
        return (np.eye(d) - y[:, :, None] * y[:, None, :] / d) / sigma[:, :, None]

    with pytest.raises(CheckFailed, match="K_1 does not annihilate 'add 1 to row 1'"):
        prop_residual_identity_path(jacobian=without_centring, depths=())


def test_rem_pre_post_ln_empirical_rejects_an_unregistered_statement():
    with pytest.raises(CheckFailed, match="'prop-residual-path', which is not registered"):
        rem_pre_post_ln_empirical(statement_id="prop-residual-path")


@pytest.mark.symbolic
def test_prop_residual_identity_path_rejects_a_pre_ln_product_one_factor_too_long():
    def one_more(depth, start):
        return residual.pre_ln_product(depth + 1, start)

    with pytest.raises(CheckFailed, match=r"M - l = 1: 4 terms \(distinct\), stated 2"):
        prop_residual_identity_path(pre_ln_product=one_more, depths=(1,))


@pytest.mark.symbolic
def test_prop_residual_identity_path_rejects_a_pre_ln_product_without_the_identity_path():
    with pytest.raises(CheckFailed, match="M - l = 2: 0 bare I terms, stated 1"):
        prop_residual_identity_path(pre_ln_product=residual.post_ln_product, depths=(2,))


@pytest.mark.symbolic
def test_prop_residual_identity_path_rejects_a_post_ln_product_with_a_bare_identity():
    def with_bare_identity(depth, start):
        return residual.pre_ln_product(depth, start)

    with pytest.raises(CheckFailed, match="Post-LN"):
        prop_residual_identity_path(post_ln_product=with_bare_identity, depths=(2,))
    # the expansion finds the bare identity of (I + K D), the wrong Post-LN factor
    K, D = (sympy.Symbol(f"{c}_1", commutative=False) for c in "KD")
    wrong = 1 + K * D  # (I + K D) instead of K (I + D)
    assert residual.expand_product(wrong).bare_identity_count == 1


def test_prop_residual_identity_path_tolerances_separate_the_identity_term():
    # the Jacobian tolerances are far below 1, the size of the I term a missing residual drops
    stages = residual_jacobians(seed=0)["stages"]
    assert max(bound for *_, bound in stages) < 1e-15


@pytest.mark.numeric
def test_prop_residual_identity_path_jacobians_reject_a_product_without_the_identity():
    stages = residual_jacobians(seed=0, identity=False)["stages"]
    assert all(gap > 1e10 * bound for _, gap, bound in stages)


@pytest.mark.element("prop-residual-identity-path", "exr-residual-expansion")
def test_mp_jacobian_of_a_linear_map_is_the_matrix():
    a = np.array([[2.0, -1.0], [0.5, 4.0]])
    with mpmath.workdps(DIGITS):
        jac = mp_jacobian(lambda y: y @ a.T, np.array([[1.0, 2.0]], dtype=object))
        assert max(abs(v) for v in (jac - a).ravel()) < mpmath.mpf("1e-29")


@pytest.mark.numeric
@pytest.mark.element("prop-residual-identity-path", "exr-residual-expansion")
def test_fd_error_covers_the_truncation_of_the_sublayers_differences():
    """FD_ERROR assumes third derivatives below 6e20 on the step's segment; the truncation
    measured by doubling the step (D(2h) - D(h) = h^2 f^(3) / 2 + O(h^4)) is far below it
    at the stack's first point."""
    params = init_parameters(STACK, np.random.default_rng(0))
    x = np.random.default_rng(1).standard_normal((STACK.n_ctx, STACK.d)).astype(object)
    with mpmath.workdps(DIGITS):
        for g in pre_ln_sublayers(params, STACK, MP):

            def flat(v, g=g):
                return list(g(np.array(v, dtype=object).reshape(x.shape)).ravel())

            fine = mp_central_jacobian(flat, list(x.ravel()), FD_STEP)
            coarse = mp_central_jacobian(flat, list(x.ravel()), 2 * FD_STEP)
            measured = max(
                abs(a - b)
                for r, s in zip(fine, coarse, strict=True)
                for a, b in zip(r, s, strict=True)
            )
            assert measured < 1e-10 * FD_ERROR


def test_rem_pre_post_ln_empirical_holds():
    assert "not a theorem" in rem_pre_post_ln_empirical()[0]


def test_rem_pre_post_ln_empirical_rejects_a_wrong_reference():
    with pytest.raises(CheckFailed, match="refers to"):
        rem_pre_post_ln_empirical(refers_to="命題 4.2")


@pytest.mark.numeric
@pytest.mark.parametrize("count", [1, 3])
def test_prop_residual_identity_path_rejects_a_wrong_count_of_removed_directions(count):
    with pytest.raises(CheckFailed, match=f"removes 2 directions .*, the text says {count}"):
        prop_residual_identity_path(vanishing_per_row=count, depths=())


def test_the_kept_central_differences_equal_a_fresh_computation():
    from proofs.chapters.transformer_block.residual import _central_differences, _residual_step

    args = (_residual_step, 0, STACK, 1)
    kept = _central_differences(*args)
    again = _central_differences(*args)
    fresh = _central_differences.__wrapped__(*args)
    assert again is kept
    for ours, theirs in zip([*kept[0], *kept[1]], [*fresh[0], *fresh[1]], strict=True):
        assert ours.shape == theirs.shape and (ours == theirs).all()
