"""The self-attention chapter's checks: each passes, and each rejects a wrong variant.

Test names carry the element id with underscores, so `pytest -k <id>` selects
exactly that element's tests.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy as sp

from numeric.attention import attention, multi_head_attention
from numeric.softmax import masked_softmax, softmax, softmax_jacobian
from proofs.book.judge import CheckFailed, Finding
from proofs.book.registry import REGISTRY, claim_arguments
from proofs.book.stated import table_rows
from proofs.chapters.self_attention import cost
from proofs.chapters.self_attention.attention import (
    convexity_violation,
    def_attention,
    ex_attention_by_hand,
    prop_attention_convex_combination,
)
from proofs.chapters.self_attention.causality import (
    cor_parallel_next_token,
    def_causal_map,
    lem_causal_closure,
    thm_causal_mask,
)
from proofs.chapters.self_attention.cost import (
    prop_attention_complexity,
    prop_attention_parameters,
    rem_cross_attention,
)
from proofs.chapters.self_attention.equivariance import (
    cor_bag_of_tokens,
    lem_equivariant_closure,
    rem_causal_not_equivariant,
    thm_attention_equivariance,
)
from proofs.chapters.self_attention.exercises import (
    exr_causal_last_row,
    exr_jacobian_two,
    exr_mask_limit,
    exr_softmax_compute,
)
from proofs.chapters.self_attention.preliminaries import (
    NOTION_EXAMPLES,
    def_permutation_matrix,
    def_softmax,
)
from proofs.chapters.self_attention.scaling import (
    SCALING_TABLE,
    ex_scaling_numeric,
    lem_product_expectation,
    prop_scaling_variance,
)
from proofs.chapters.self_attention.softmax import (
    prop_mask_as_limit,
    prop_softmax_basic,
    prop_softmax_jacobian,
)
from proofs.evidence.measures import permutation_matrix
from symbolic import mask as sym_mask
from symbolic.mask import chapter_bound as chapter_mask_bound

SEEDS_README = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "README.md"
IDS = sorted(e.id for e in REGISTRY.values() if e.chapter == "self-attention")

symbolic = pytest.mark.symbolic
numeric = pytest.mark.numeric


# wrong variants ------------------------------------------------------------------------


def softmax_without_shift(z):
    """The textbook formula without the max shift: overflows for z > 709."""
    z = np.asarray(z)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(z)
        return e / e.sum(axis=-1, keepdims=True)


def masked_softmax_ignoring_mask(z, mask):
    return softmax(z)


def jacobian_without_outer(z):
    """diag(sigma): the sigma sigma^T term missing."""
    return np.diag(softmax(z))


def mha_with_positions(x, params, causal=False, context=None):
    """Adds the row index to every row first: no longer permutation-equivariant."""
    x = np.asarray(x, dtype=float)
    return multi_head_attention(x + np.arange(x.shape[0])[:, None], params, causal=causal)


def mha_ignoring_mask(x, params, causal=False, context=None):
    return multi_head_attention(x, params)


def _heads_with(x, params, mask, scale=1.0):
    """定義 4.1's multi-head attention with the given mask (n, n) and the queries times
    `scale`: the building block of the wrong variants below."""
    x = np.asarray(x, dtype=float)

    def heads(w, b):
        y = np.einsum("nd,hdk->hnk", x, params[w])  # (h, n, k)
        return y + params[b][:, None, :] if b in params else y

    q, k, v = heads("w_q", "b_q"), heads("w_k", "b_k"), heads("w_v", "b_v")
    out, weights = attention(scale * q, k, v, mask)
    y = np.einsum("hnk,hkd->nd", out, params["w_o"]) + params.get("b_o", 0)
    return y, weights


def mha_leaking_next(x, params, causal=False, context=None):
    """A causal mask that lets key j = i + 1 through."""
    n = np.shape(x)[0]
    return _heads_with(x, params, np.tri(n, n, 1, dtype=bool) if causal else None)


def mha_attending_to_itself(x, params, causal=False, context=None):
    """Each position attends only to itself under the mask: causal, but not 定義 4.1's
    causal MHA (its weights are the identity)."""
    n = np.shape(x)[0]
    return _heads_with(x, params, np.eye(n, dtype=bool) if causal else None)


def mha_scaled_by_length(x, params, causal=False, context=None):
    """定義 4.1's MHA times 1 + 1/n: rows 1..i still ignore rows i+1..n, but f_n(X)_(1:i)
    is not f_i(X_(1:i)) (a map of the rows that also reads their number)."""
    y, weights = multi_head_attention(x, params, causal=causal)
    return y * (1 + 1 / np.shape(x)[0]), weights


def mha_unscaled(x, params, causal=False, context=None):
    """Scores Q K^T without the 1/sqrt(d_k): equivariant and causal under the mask, but not
    定義 4.1's MHA."""
    n, d_k = np.shape(x)[0], params["w_q"].shape[-1]
    return _heads_with(x, params, np.tri(n, dtype=bool) if causal else None, math.sqrt(d_k))


def attention_unscaled(q, k, v, mask=None):
    """Attn with scores Q K^T, the 1/sqrt(d_k) missing: still a convex combination."""
    return attention(np.asarray(q) * math.sqrt(np.shape(q)[-1]), k, v, mask)


OFF_DEFINITION = "not 定義 4.1's"  # the anchor's message: the check rejects it for that


# registry ------------------------------------------------------------------------------


def test_every_chapter_element_is_registered_with_its_number():
    if not SEEDS_README.exists():
        pytest.skip(f"{SEEDS_README} is not present")
    text = SEEDS_README.read_text(encoding="utf-8")
    section = text.split("### Self-attention")[1].split("### ")[0]
    rows = re.findall(r"^\|\s*(\S+ [A-Z0-9.]+)\s*\|\s*([a-z][a-z0-9-]+)\s*\|", section, re.M)
    assert len(rows) == 26
    for number, element_id in rows:
        assert element_id in REGISTRY, f"{element_id} is not registered"
        assert REGISTRY[element_id].number == number
        assert REGISTRY[element_id].chapter == "self-attention"
    assert sorted(i for _, i in rows) == IDS


def test_selection_by_id_is_unambiguous():
    module = sys.modules[__name__]
    names = [name for name in dir(module) if name.startswith("test_")]
    for element_id in IDS:
        key = element_id.replace("-", "_")
        assert any(key in name for name in names), f"no test selects {element_id}"
    for name in names:
        hits = [i for i in IDS if i.replace("-", "_") in name]
        assert len(hits) <= 1, f"{name} carries several ids: {hits}"


def test_every_description_says_how():
    how = ("SymPy", "symbolic", "Hypothesis", "witness", "digits", "Monte Carlo", "bit for bit",
           "exactly", "printed")
    for element_id in IDS:
        description = REGISTRY[element_id].description
        assert any(word in description for word in how), element_id


# 定義 2.1, 定義 2.2, 命題 3.1–3.3 --------------------------------------------------------


@symbolic
def test_def_permutation_matrix_holds():
    assert len(def_permutation_matrix()) == 3


@symbolic
def test_def_permutation_matrix_rejects_the_column_permuting_transpose():
    def transposed(pi):
        # P_pi^T: applied from the right it permutes columns by pi (A P_pi^T = A[:, pi]);
        # applied from the left it moves row i to pi(i) instead of taking row pi(i)
        return permutation_matrix(pi).T

    with pytest.raises(CheckFailed, match=r"symbolic, pi = \(1, 2, 0\): P_pi X = X\[pi\], "
                                          r"A P_pi\^T = A\[:, pi\] fail"):
        def_permutation_matrix(permutation_matrix=transposed)


@symbolic
def test_def_permutation_matrix_rejects_a_matrix_that_leaves_the_rows_in_place():
    def identity(pi):
        return np.eye(len(pi))  # applies the permutation to nothing

    with pytest.raises(CheckFailed, match=r"pi = \(1, 0\): P_pi X = X\[pi\], A P_pi\^T = "
                                          r"A\[:, pi\] fail"):
        def_permutation_matrix(permutation_matrix=identity)


@symbolic
@pytest.mark.parametrize("row, facts", [
    (lambda n: np.eye(n)[0], "P_pi X = X\\[pi\\], A P_pi\\^T = A\\[:, pi\\], "
                             "P_pi\\^T P_pi = I fail"),
    (lambda n: np.zeros(n), "P_pi X = X\\[pi\\], A P_pi\\^T = A\\[:, pi\\], "
                            "P_pi\\^T P_pi = I, P_pi 1 = 1 fail"),
], ids=["a repeated row", "a zero row"])
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
    with pytest.raises(CheckFailed, match=r"numeric, pi = .*(P_pi X = X\[pi\]|A P_pi\^T = "
                                          r"A\[:, pi\])"):
        def_permutation_matrix(permutation_matrix=transposed_from_5)


def test_def_permutation_matrix_rejects_a_non_permutation():
    with pytest.raises(ValueError, match="pi must be a permutation"):
        permutation_matrix([0, 0, 1])


@pytest.mark.parametrize(("kind", "wrong", "message"), [
    ("row-wise", lambda y: np.cumsum(y, axis=0), "the row-wise example has equivariance defect"),
    ("invariant", lambda y: y[0], "the invariant example changes under a row permutation"),
    ("neither", np.tanh, "the example of neither looks equivariant"),
])
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
    with pytest.raises(CheckFailed, match=r"^sigma\^U off the definition: \d+ of \d+ cases exceed "
                                         r"their bound; worst: sigma\^U\(\["):
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


@numeric
def test_prop_softmax_basic_holds():
    assert len(prop_softmax_basic()) == 3


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
@pytest.mark.parametrize("indexed, message", [
    (indexed_variant(sp.exp, lower=0), "sum_i sigma_i = .* does not reduce to 1"),
    (lambda z, i, n: indexed_variant(sp.exp)(z, i, n) / 2, "sum_i sigma_i = .* does not reduce"),
    (indexed_variant(lambda t: t), r"sigma\(z \+ c1\)_i - sigma\(z\)_i = .* does not reduce"),
], ids=["normaliser from 0", "halved", "linear"])
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
@pytest.mark.parametrize("variant, clause", [
    (lambda z: softmax(z) * 1.001, "sums to"),
    (lambda z: softmax(np.asarray(z) + np.asarray(z) ** 2 / 1000), "softmax\\(z \\+"),
    (softmax_top_two_swapped, "but sigma_. > sigma_"),
    (softmax_top_two_averaged, "but sigma_. = sigma_"),
    (softmax_tie_broken, "but sigma differs"),
    (softmax_of_index_shifted, "softmax\\(Pz\\) != P softmax"),
], ids=["sum", "shift", "order", "strict order", "ties", "permutation"])
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


def _skewed(z):
    jac = np.array(softmax_jacobian(z))
    if jac.shape[0] > 1:
        jac[0, 1] += 1e-3
        jac[1, 0] -= 1e-3
    return jac


@numeric
@pytest.mark.parametrize("variant, clause", [
    (lambda z: softmax_jacobian(z)[:-1], "jacobian of shape"),
    (_skewed, "J not symmetric"),
    (lambda z: -softmax_jacobian(z), "v\\^T J v ="),
    (lambda z: softmax_jacobian(z) + 1e-3 * np.eye(np.size(z)), "J1 != 0"),
    (lambda z: 2 * softmax_jacobian(z), "\\|J_ij\\| > 1 - max sigma"),
    # shrunk: symmetric, PSD, J1 = 0 and within the entry bound, but not the derivative (adding
    # 1e-9 (I - 11^T/n) instead breaks the entry bound too, where 1 - max sigma is below 1e-9)
    (lambda z: softmax_jacobian(z) * (1 - 1e-6), "against the 80-digit finite differences"),
], ids=["shape", "symmetry", "semidefinite", "J1", "entry bound", "derivative"])
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
        return sp.Matrix([sp.exp(z[i]) / total if i in set(allowed) else 0
                          for i in range(z.rows)])

    with pytest.raises(CheckFailed, match=r"lim sigma\(z - c m\) != sigma\^U\(z\)"):
        prop_mask_as_limit(stated_masked=over_all)


@numeric
def test_prop_mask_as_limit_rejects_a_masked_softmax_wrong_beyond_the_symbolic_sizes():
    def over_all_from_n_4(z, allowed):  # sigma^U for n <= 3, normalised over all positions after
        if z.rows <= 3:
            return sym_mask.masked_softmax(z, allowed)
        total = sum(sp.exp(v) for v in z)
        return sp.Matrix([sp.exp(z[i]) / total if i in set(allowed) else 0
                          for i in range(z.rows)])

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


# 定義 4.1, 命題 4.2, 例 4.3 ---------------------------------------------------------------


@numeric
def test_def_attention_holds():
    assert len(def_attention()) == 2


@numeric
def test_def_attention_rejects_a_mask_letting_the_next_key_through():
    def leaky(n, m=None):
        m = n if m is None else m
        return np.tri(n, m, m - n + 1, dtype=bool)

    with pytest.raises(CheckFailed):
        def_attention(causal_mask=leaky)


@numeric
def test_def_attention_rejects_an_unscaled_product():
    with pytest.raises(CheckFailed):
        def_attention(attention=attention_unscaled)


def weights_changed(change):
    """multi_head_attention whose returned weights are change(weights): the output (the
    only thing the definition's comparison sees) is untouched."""
    def mha(x, params, causal=False, context=None):
        out, weights = multi_head_attention(x, params, causal=causal, context=context)
        return out, change(np.asarray(weights))
    return mha


def leaked(weights):  # 1e-300 on every entry above the diagonal
    return weights + np.triu(np.full(weights.shape[-2:], 1e-300), 1)


@numeric
def test_def_attention_rejects_an_unscaled_multi_head_attention():
    with pytest.raises(CheckFailed, match="multi_head_attention off the definition"):
        def_attention(multi_head_attention=mha_unscaled)


@numeric
def test_def_attention_rejects_causal_weights_not_exactly_zero_above_the_diagonal():
    with pytest.raises(CheckFailed, match="causal weights are not exactly 0"):
        def_attention(multi_head_attention=weights_changed(leaked))


@numeric
def test_prop_attention_convex_combination_holds():
    assert len(prop_attention_convex_combination()) == 2


@numeric
def test_prop_attention_convex_combination_rejects_unnormalised_weights():
    def unnormalised(q, k, v, mask=None):
        out, weights = attention(q, k, v, mask)
        return 2 * out, 2 * weights

    with pytest.raises(CheckFailed):
        prop_attention_convex_combination(attention=unnormalised)


@numeric
def test_prop_attention_convex_combination_rejects_unscaled_attention():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        prop_attention_convex_combination(attention=attention_unscaled)


@numeric
def test_prop_attention_convex_combination_rejects_unscaled_multi_head_attention():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        prop_attention_convex_combination(multi_head_attention=mha_unscaled)


@numeric
def test_prop_attention_convex_combination_rejects_unmasked_multi_head_weights():
    with pytest.raises(CheckFailed, match="multi-head weights negative or unmasked"):
        prop_attention_convex_combination(multi_head_attention=weights_changed(leaked))


@numeric
def test_prop_attention_convex_combination_rejects_multi_head_rows_not_summing_to_1():
    with pytest.raises(CheckFailed, match="multi-head weight rows sum to"):
        prop_attention_convex_combination(
            multi_head_attention=weights_changed(lambda w: w * (1 + 1e-9)))


def _one_head(weights, v):
    """(out, v, weights, mask, bound, scores) of one head with exact out = weights v."""
    weights, v = np.array([weights], dtype=float), np.array([v], dtype=float)
    return weights @ v, v, weights, None, np.zeros((1, weights.shape[1], v.shape[2])), \
        np.zeros(weights.shape)


@numeric
def test_prop_attention_convex_combination_judge_accepts_a_convex_combination():
    assert convexity_violation(*_one_head([[0.25, 0.75]], [[1.0, 0.0], [0.0, 1.0]])) == ""


@numeric
def test_prop_attention_convex_combination_judge_names_a_negative_weight():
    assert convexity_violation(*_one_head([[-0.5, 1.5]], [[1.0, 0.0], [0.0, 1.0]])) == \
        "a negative weight -5.00e-01"


@numeric
def test_prop_attention_convex_combination_judge_rejects_an_output_beyond_the_values():
    out, v, weights, mask, bound, scores = _one_head([[0.5, 0.5]], [[1.0, 0.0], [0.0, 1.0]])
    assert convexity_violation(3 * out, v, weights, mask, bound, scores) == \
        f"||out|| = {float(np.linalg.norm([1.5, 1.5]))!r} > max ||v_j|| = 1.0 (head 0, row 0)"
    beside = np.array([[[0.8, -0.5]]])  # ||.|| <= 1, but below min_j (v_j)_2 = 0
    assert convexity_violation(beside, v, weights, mask, bound, scores) == \
        "a component leaves [min v, max v] (head 0, row 0)"


@numeric
def test_ex_attention_by_hand_holds():
    evidence = ex_attention_by_hand()
    assert "weights: [[0.4011, 0.1978, 0.4011], [0.1978, 0.4011, 0.4011], " \
           "[0.2483, 0.2483, 0.5035]]" in evidence
    assert "changed_unmasked_row_1: [4.6488, -1.811]" in evidence
    # e^1.4142 = 4.1133 is e^sqrt(2) with sqrt(2) printed rounded: a note, not a finding
    assert not any(isinstance(line, Finding) for line in evidence)
    assert any(line.startswith("note: the printed 'e^1.4142 = 4.1133'") for line in evidence)


@numeric
def test_ex_attention_by_hand_rejects_a_misprinted_weight():
    printed = claim_arguments(REGISTRY["ex-attention-by-hand"].claims)["printed"]
    printed["weights"] = [[0.4012, 0.1978, 0.4011], [0.1978, 0.4011, 0.4011],
                          [0.2483, 0.2483, 0.5035]]
    with pytest.raises(CheckFailed, match=r"^weights: computed .* but the chapter prints .*: 1 of "
                                         r"9 entries exceed their bound; worst at \[0, 0\]"):
        ex_attention_by_hand(printed=printed)


@numeric
def test_ex_attention_by_hand_rejects_a_wrong_self_score():
    with pytest.raises(CheckFailed, match="not 27"):
        ex_attention_by_hand(stated_self_score=sp.sympify("27/sqrt(2)"))


@numeric
def test_ex_attention_by_hand_rejects_a_mask_that_is_ignored():
    with pytest.raises(CheckFailed):
        ex_attention_by_hand(multi_head_attention=mha_ignoring_mask)


@numeric
def test_ex_attention_by_hand_rejects_causal_outputs_reading_the_last_row_by_1e_9():
    """Far below the printed 4 decimals, and the weights stay exact: only the bit-for-bit
    comparison of rows 1-2 sees it."""
    def leaking(x, params, causal=False, context=None):
        out, weights = multi_head_attention(x, params, causal=causal)
        return (out + 1e-9 * x[-1].sum() if causal else out), weights

    with pytest.raises(CheckFailed, match="changing row 3 changed the causal output rows 1-2"):
        ex_attention_by_hand(multi_head_attention=leaking)


# 命題 4.4, 例 4.5, 補題 A.1 --------------------------------------------------------------


@numeric
def test_prop_scaling_variance_holds():
    assert len(prop_scaling_variance()) >= 3


@numeric
def test_prop_scaling_variance_rejects_variance_d_k_squared():
    # every symbolic result that disagrees is named: the generic moments and each
    # distribution at d_k = 2, 3 (at d_k = 1, d_k^2 = d_k)
    with pytest.raises(CheckFailed, match=r"generic moments: the variance is d_k, the chapter "
                                          r"states d_k\*\*2; .*normal, d_k = 2: the variance"):
        prop_scaling_variance(stated_variance=lambda d_k: d_k**2)


@symbolic
def test_prop_scaling_variance_rejects_a_scaled_variance_of_2():
    with pytest.raises(CheckFailed, match="generic moments: the scaled variance is 1, the "
                                          "chapter states 2"):
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

    with pytest.raises(CheckFailed, match="sample mean of the product: sample .* vs stated "
                                          ".* standard errors"):
        lem_product_expectation(stated=sum_from_4)


# 補題 5.1 – 注意 5.4 --------------------------------------------------------------------


@numeric
def test_lem_equivariant_closure_holds():
    assert len(lem_equivariant_closure()) == 1


@numeric
def test_lem_equivariant_closure_rejects_a_position_dependent_map():
    def positional(x, params):
        return np.asarray(x) + np.arange(np.shape(x)[0])[:, None]

    with pytest.raises(CheckFailed):
        lem_equivariant_closure(row_wise=positional)


@numeric
def test_thm_attention_equivariance_holds():
    evidence = thm_attention_equivariance()
    assert evidence[0].startswith("listing sizes")


@numeric
def test_thm_attention_equivariance_rejects_attention_with_positions():
    with pytest.raises(CheckFailed):
        thm_attention_equivariance(multi_head_attention=mha_with_positions)


@numeric
def test_thm_attention_equivariance_rejects_positions_everywhere_but_at_the_listings_sizes():
    def positions_off_listing(x, params, causal=False, context=None):
        if np.shape(x) == (6, 8):
            return multi_head_attention(x, params, causal=causal)
        return mha_with_positions(x, params, causal)

    # equivariance is judged on every draw before the definition is
    with pytest.raises(CheckFailed, match=r"^MHA\(PX\) != P MHA\(X\): \d+ of \d+ cases exceed "
                                         r"their bound; worst: pi = "):
        thm_attention_equivariance(multi_head_attention=positions_off_listing)


@numeric
def test_thm_attention_equivariance_rejects_unscaled_scores_everywhere_but_at_the_listings_sizes():
    def unscaled_off_listing(x, params, causal=False, context=None):
        if np.shape(x) == (6, 8):
            return multi_head_attention(x, params, causal=causal)
        return mha_unscaled(x, params, causal)

    with pytest.raises(CheckFailed, match=r"^the attention against 定義 4\.1's MHA at 50 digits: "
                                         r"\d+ of \d+ cases exceed their bound; worst: x \("):
        thm_attention_equivariance(multi_head_attention=unscaled_off_listing)


@numeric
def test_thm_attention_equivariance_rejects_unscaled_scores():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        thm_attention_equivariance(multi_head_attention=mha_unscaled)


@numeric
def test_cor_bag_of_tokens_holds():
    assert len(cor_bag_of_tokens()) == 1


@numeric
def test_cor_bag_of_tokens_rejects_attention_with_positions():
    with pytest.raises(CheckFailed):
        cor_bag_of_tokens(multi_head_attention=mha_with_positions)


@numeric
def test_cor_bag_of_tokens_rejects_unscaled_scores():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        cor_bag_of_tokens(multi_head_attention=mha_unscaled)


@numeric
def test_rem_causal_not_equivariant_holds():
    assert len(rem_causal_not_equivariant()) == 5


@numeric
def test_rem_causal_not_equivariant_rejects_a_mask_that_is_ignored():
    with pytest.raises(CheckFailed):
        rem_causal_not_equivariant(multi_head_attention=mha_ignoring_mask)


@numeric
def test_rem_causal_not_equivariant_rejects_unscaled_causal_scores():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        rem_causal_not_equivariant(multi_head_attention=mha_unscaled)


# 定義 6.1 – 系 6.4 ----------------------------------------------------------------------


@numeric
def test_def_causal_map_holds():
    assert len(def_causal_map()) == 3


@numeric
def test_def_causal_map_rejects_a_mask_letting_the_next_key_through():
    with pytest.raises(CheckFailed):
        def_causal_map(multi_head_attention=mha_leaking_next)


@numeric
def test_def_causal_map_rejects_a_leak_at_the_future_rows():
    with pytest.raises(CheckFailed, match=r"changing rows \d+\.\.\d+ changed rows 1\.\."):
        def_causal_map(multi_head_attention=mha_leaking_next)


@numeric
def test_def_causal_map_rejects_rows_that_depend_on_the_length_at_the_prefixes():
    with pytest.raises(CheckFailed, match=r"f_n\(X\)_\(1:i\) != f_i\(X_\(1:i\)\)"):
        def_causal_map(multi_head_attention=mha_scaled_by_length)


@numeric
def test_def_causal_map_rejects_attention_masked_even_when_unmasked_is_asked():
    def always_masked(x, params, causal=False, context=None):
        return multi_head_attention(x, params, causal=True)

    with pytest.raises(CheckFailed, match="unmasked attention looks causal"):
        def_causal_map(multi_head_attention=always_masked)


@numeric
def test_def_causal_map_rejects_attention_to_itself_only():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        def_causal_map(multi_head_attention=mha_attending_to_itself)


@numeric
def test_lem_causal_closure_holds():
    assert len(lem_causal_closure()) == 1


@numeric
def test_lem_causal_closure_rejects_a_map_reading_the_future():
    def reverse_cumsum(y):
        return np.cumsum(np.asarray(y)[::-1], axis=0)[::-1]

    with pytest.raises(CheckFailed):
        lem_causal_closure(position_wise=reverse_cumsum)


@numeric
def test_thm_causal_mask_holds():
    assert len(thm_causal_mask()) == 2


@numeric
def test_thm_causal_mask_rejects_a_mask_letting_the_next_key_through():
    with pytest.raises(CheckFailed):
        thm_causal_mask(multi_head_attention=mha_leaking_next)


@numeric
def test_thm_causal_mask_rejects_attention_to_itself_only():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        thm_causal_mask(multi_head_attention=mha_attending_to_itself)


@numeric
def test_cor_parallel_next_token_holds():
    assert len(cor_parallel_next_token()) == 3


@numeric
def test_cor_parallel_next_token_rejects_a_mask_that_is_ignored():
    with pytest.raises(CheckFailed):
        cor_parallel_next_token(multi_head_attention=mha_ignoring_mask)


@numeric
def test_cor_parallel_next_token_rejects_attention_to_itself_only():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        cor_parallel_next_token(multi_head_attention=mha_attending_to_itself)


@numeric
def test_cor_parallel_next_token_rejects_a_decoder_forgetting_its_cache():
    from numeric.kv_cache import Decoder

    class Forgetful(Decoder):
        def feed(self, tokens):
            self.reset()  # every feed starts a new sequence: earlier keys are lost
            return super().feed(tokens)

    with pytest.raises(CheckFailed):
        cor_parallel_next_token(decoder=Forgetful)


@numeric
def test_cor_parallel_next_token_rejects_a_decoder_giving_each_chunks_last_logits():
    from numeric.kv_cache import Decoder

    class LastOnly(Decoder):
        def feed(self, tokens):
            return super().feed(tokens)[-1:]

    with pytest.raises(CheckFailed, match=r"the KV-cache decoder fed \[4, 4\] tokens gives logits "
                                         r"of shape \(2, 11\), not \(8, 11\)"):
        cor_parallel_next_token(decoder=LastOnly)


@numeric
def test_cor_parallel_next_token_rejects_logits_that_drift_with_the_length_by_1e_12():
    """Row t of a length-n pass off by a relative 1e-12 n: the entrywise bound built from
    |W||dx| chains let it through (and 1e-9 n), the Jacobian-carried bound does not."""
    from numeric.model import forward

    def drifting(tokens, params, config):
        return forward(tokens, params, config) * (1 + 1e-12 * len(tokens))

    with pytest.raises(CheckFailed):
        cor_parallel_next_token(forward=drifting)


@numeric
def test_cor_parallel_next_token_rejects_logits_that_drift_below_the_full_context():
    """Exact at the full context (the fixed sequences' length 8), so only the prefixes
    differ from the one pass's rows."""
    from numeric.model import forward

    def drifting(tokens, params, config):
        return forward(tokens, params, config) * (1 + 1e-9 * (config.n_ctx - len(tokens)))

    with pytest.raises(CheckFailed, match=r"forward\(tokens\)\[t-1\] != forward\(tokens\[:t\]\)"):
        cor_parallel_next_token(forward=drifting)


@numeric
def test_cor_parallel_next_token_rejects_a_model_reading_the_next_token():
    from numeric.model import forward

    def peeking(tokens, params, config):
        """Each row's logits plus the next token's embedding: reads the future."""
        logits = forward(tokens, params, config)
        later = np.append(np.asarray(tokens)[1:], 0)
        return logits + params["wte"][later] @ params["wte"].T

    with pytest.raises(CheckFailed):
        cor_parallel_next_token(forward=peeking)


# 命題 7.1, 命題 7.2, 注意 7.3 -------------------------------------------------------------


@symbolic
def test_prop_attention_parameters_holds():
    assert "d = 512: 1,050,624 and 1,048,576" in prop_attention_parameters()


@symbolic
def test_prop_attention_parameters_rejects_4d2_plus_3d():
    from symbolic.symbols import d

    with pytest.raises(CheckFailed):
        prop_attention_parameters(stated=4 * d**2 + 3 * d)


@symbolic
def test_prop_attention_parameters_rejects_a_stated_count_with_h():
    from symbolic.symbols import d, h

    with pytest.raises(CheckFailed, match=r"the stated 4\*d\*\*2 \+ 4\*h depends on h"):
        prop_attention_parameters(stated=4 * d**2 + 4 * h)


@symbolic
def test_prop_attention_parameters_rejects_a_wrong_printed_count():
    printed = {"with_bias": 1_050_625, "without_bias": 1_048_576}
    with pytest.raises(CheckFailed, match="at d = 512 the formulas give"):
        prop_attention_parameters(printed=printed)


@numeric
def test_prop_attention_parameters_rejects_arrays_the_formula_does_not_count(monkeypatch):
    monkeypatch.setattr(cost, "parameter_count", lambda params: 1)
    with pytest.raises(CheckFailed, match="arrays hold 1, the formula gives"):
        prop_attention_parameters()


@symbolic
def test_prop_attention_complexity_holds():
    assert len(prop_attention_complexity()) == 4


def test_prop_attention_complexity_states_the_products_the_causal_pass_executes():
    evidence = prop_attention_complexity()[2]
    # n = 300, d = 2, h = 1 in blocks of 128 query rows: rows [r0, r1) meet r1 keys
    scores = 128 * 128 + 128 * 256 + 44 * 300
    executed = 4 * 300 * 2**2 + 2 * 2 * scores  # projections, scores and weighted sums
    assert f"the definition counts {4 * 300 * 4 + 2 * 300**2 * 2} multiplications" in evidence
    assert f"the blocked pass executes {executed}," in evidence


@numeric
def test_prop_attention_complexity_rejects_a_pass_that_computes_the_scores_twice():
    from numeric.contraction import contract
    from spec.contractions import SCORES

    def twice(x, params, causal=False, context=None):  # counts right, executes more
        q = np.einsum("nd,hdk->hnk", np.asarray(x, dtype=float), params["w_q"])  # (h, n, k)
        contract(SCORES, q, q, counted=False)  # (h, n, n), executed and not counted
        return multi_head_attention(x, params, causal=causal)

    with pytest.raises(CheckFailed, match=r"products executed, outside \[\d+, \d+\]"):
        prop_attention_complexity(multi_head_attention=twice)


@symbolic
def test_prop_attention_complexity_rejects_one_n2d_term():
    from symbolic.symbols import d, n

    with pytest.raises(CheckFailed):
        prop_attention_complexity(stated=4 * n * d**2 + n**2 * d)


@symbolic
def test_prop_attention_complexity_rejects_a_stated_count_with_h():
    from symbolic.symbols import d, h, n

    with pytest.raises(CheckFailed, match="depends on h"):
        prop_attention_complexity(stated=4 * n * d**2 + 2 * n**2 * d * h)


@symbolic
@pytest.mark.parametrize("doubling, message", [
    ({"quadratic": 2, "linear": 2}, "quadratic term by 4 and the linear one by 2, stated 2 and 2"),
    ({"quadratic": 4, "linear": 4}, "quadratic term by 4 and the linear one by 2, stated 4 and 4"),
], ids=["quadratic", "linear"])
def test_prop_attention_complexity_rejects_wrong_doubling_factors(doubling, message):
    with pytest.raises(CheckFailed, match=message):
        prop_attention_complexity(doubling=doubling)


@symbolic
def test_prop_attention_complexity_rejects_a_wrong_weights_memory():
    from symbolic.symbols import n

    with pytest.raises(CheckFailed, match=r"weights memory h\*n\*\*2 != stated n\*\*2"):
        prop_attention_complexity(stated_memory=n**2)


@symbolic
def test_prop_attention_complexity_rejects_a_wrong_crossover():
    from symbolic.symbols import d

    with pytest.raises(CheckFailed, match="the terms are equal at n = 2"):
        prop_attention_complexity(stated_crossover=3 * d)


@numeric
def test_prop_attention_complexity_rejects_a_pass_that_multiplies_twice():
    def twice(x, params, causal=False):
        multi_head_attention(x, params, causal=causal)
        return multi_head_attention(x, params, causal=causal)

    with pytest.raises(CheckFailed, match="counted"):
        prop_attention_complexity(multi_head_attention=twice)


@numeric
def test_prop_attention_complexity_rejects_weights_of_the_wrong_size():
    def first_key_only(x, params, causal=False):
        out, weights = multi_head_attention(x, params, causal=causal)
        return out, weights[:, :, :1]

    with pytest.raises(CheckFailed, match="weights hold"):
        prop_attention_complexity(multi_head_attention=first_key_only)


@symbolic
def test_prop_attention_complexity_rejects_a_wrong_printed_cell():
    table = claim_arguments(REGISTRY["prop-attention-complexity"].claims)["printed_table"]
    wrong = (table[0][:1] + ("1,048,577",) + table[0][2:], *table[1:])
    with pytest.raises(CheckFailed, match="table row"):
        prop_attention_complexity(printed_table=wrong)


@numeric
def test_rem_cross_attention_holds():
    assert len(rem_cross_attention()) == 1


@numeric
def test_rem_cross_attention_rejects_attention_ignoring_the_context():
    def self_only(x, params, causal=False, context=None):
        return multi_head_attention(x, params)

    with pytest.raises(CheckFailed):
        rem_cross_attention(multi_head_attention=self_only)


@numeric
def test_rem_cross_attention_rejects_outputs_off_by_a_relative_1e_6():
    def drifting(x, params, causal=False, context=None):
        out, weights = multi_head_attention(x, params, causal=causal, context=context)
        return out * (1 + 1e-6), weights

    with pytest.raises(CheckFailed, match="cross-attention off the definition"):
        rem_cross_attention(multi_head_attention=drifting)


@numeric
def test_rem_cross_attention_rejects_weights_summing_to_1_01():
    def unnormalised(q, k, v):
        out, weights = attention(q, k, v)
        return out, np.asarray(weights) * 1.01

    with pytest.raises(CheckFailed, match="cross-attention breaks 命題 4.2"):
        rem_cross_attention(attention=unnormalised)


# 演習 10.1 – 10.4 -----------------------------------------------------------------------


@symbolic
def test_exr_softmax_compute_holds():
    assert "shift 100: exact ['1/6', '1/3', '1/2']" in exr_softmax_compute()[1]


@symbolic
def test_exr_softmax_compute_rejects_a_swapped_answer():
    with pytest.raises(CheckFailed):
        exr_softmax_compute(answer=(sp.Rational(1, 6), sp.Rational(1, 2), sp.Rational(1, 3)))


@numeric
def test_exr_softmax_compute_rejects_a_numeric_softmax_off_by_1e_10():
    with pytest.raises(CheckFailed, match="NumPy gives"):
        exr_softmax_compute(softmax=lambda z: softmax(z) * (1 + 1e-10))


@symbolic
def test_exr_jacobian_two_holds():
    assert len(exr_jacobian_two()) == 1


@symbolic
def test_exr_jacobian_two_rejects_a_jacobian_without_the_outer_product():
    with pytest.raises(CheckFailed):
        exr_jacobian_two(jacobian=lambda sigma: sp.diag(*sigma))


@symbolic
def test_exr_jacobian_two_rejects_a_wrong_stated_eigenvalue():
    s = sp.Symbol("s", positive=True)
    with pytest.raises(CheckFailed, match="eigenvalues"):
        exr_jacobian_two(stated_eigenvalue=s * (1 - s))


@symbolic
@pytest.mark.parametrize("stated", [{"stated_maximiser": sp.Rational(1, 3)},
                                    {"stated_maximum": sp.Rational(1, 4)}])
def test_exr_jacobian_two_rejects_a_wrong_stated_maximum(stated):
    with pytest.raises(CheckFailed, match="maximum 1/2 at"):
        exr_jacobian_two(**stated)


@symbolic
def test_exr_jacobian_two_rejects_a_matrix_whose_kernel_misses_the_ones():
    s = sp.Symbol("s", positive=True)
    corner = sp.Matrix([[2 * s * (1 - s), 0], [0, 0]])  # eigenvalues 0 and 2s(1 - s)

    with pytest.raises(CheckFailed, match="1 is not in the kernel"):
        exr_jacobian_two(stated_closed=corner,
                         jacobian=lambda sigma: sp.Matrix([[2 * sigma[0] * sigma[1], 0], [0, 0]]))


@symbolic
def test_exr_jacobian_two_rejects_an_eigenvalue_without_one_interior_maximum():
    s = sp.Symbol("s", positive=True)
    twin = s * (1 - s) * (2 * s - 1) ** 2  # zero at s = 1/2, two interior maxima
    swap = sp.Matrix([[1, -1], [-1, 1]])

    def jacobian(sigma):
        return sigma[0] * sigma[1] * (sigma[0] - sigma[1]) ** 2 / 2 * swap

    with pytest.raises(CheckFailed, match="no interior maximum"):
        exr_jacobian_two(stated_closed=twin / 2 * swap, stated_eigenvalue=twin,
                         jacobian=jacobian)


@numeric
def test_exr_mask_limit_holds():
    assert "bound = 7.406e-6" in exr_mask_limit()[0]


@numeric
def test_exr_mask_limit_rejects_a_misprinted_bound():
    printed = dict(REGISTRY["exr-mask-limit"].arguments()["printed"], bound="7.5e-6")
    with pytest.raises(CheckFailed):
        exr_mask_limit(printed=printed)


@numeric
def test_exr_mask_limit_rejects_a_mask_that_is_ignored():
    with pytest.raises(CheckFailed):
        exr_mask_limit(masked_softmax=masked_softmax_ignoring_mask)


@numeric
def test_exr_mask_limit_rejects_a_reference_softmax_without_its_normaliser():
    def unnormalised(z):
        return [mpmath.exp(v) for v in z]

    with pytest.raises(CheckFailed, match=r"sigma_3 = .* not in \(0, bound\]"):
        exr_mask_limit(exact_softmax=unnormalised)


@numeric
def test_exr_mask_limit_rejects_a_reference_softmax_that_rounds_to_zero():
    def flushed(z):  # a weight driven towards 0 by the mask must stay positive
        return [mpmath.mpf(0) if v < -5 else mpmath.mpf(1) for v in z]

    with pytest.raises(CheckFailed, match=r"sigma_3 = 0\.0 not in \(0, bound\]"):
        exr_mask_limit(exact_softmax=flushed)


@numeric
def test_exr_causal_last_row_rejects_a_witness_whose_swapped_rows_are_equal(monkeypatch):
    from proofs.chapters.self_attention import exercises
    from proofs.chapters.self_attention.strategies import seeded_stack

    def equal_first_rows(seed, **kwargs):  # swapping rows 1 and 2 then changes nothing
        layers, x = seeded_stack(seed, **kwargs)
        x[1] = x[0]
        return layers, x

    monkeypatch.setattr(exercises, "seeded_stack", equal_first_rows)
    with pytest.raises(CheckFailed, match=r"seed 0: two layers left the last row unchanged"):
        exr_causal_last_row()


@numeric
def test_exr_causal_last_row_holds():
    assert len(exr_causal_last_row()) == 6


@numeric
def test_exr_causal_last_row_rejects_a_mask_that_is_ignored():
    with pytest.raises(CheckFailed):
        exr_causal_last_row(multi_head_attention=mha_ignoring_mask)


@numeric
def test_exr_causal_last_row_rejects_unscaled_causal_scores():
    with pytest.raises(CheckFailed, match=OFF_DEFINITION):
        exr_causal_last_row(multi_head_attention=mha_unscaled)


@numeric
def test_exr_causal_last_row_rejects_an_attention_that_reads_the_first_row():
    def first_row_added(x, params, causal=False, context=None):
        out, weights = multi_head_attention(x, params, causal=causal, context=context)
        return out + np.asarray(x)[:1], weights  # every row also sees row 1 as it stands

    with pytest.raises(CheckFailed, match="one causal layer: last row changed"):
        exr_causal_last_row(multi_head_attention=first_row_added)
