"""§7 パラメータ数と計算量 (proofs/chapters/self_attention/cost.py): parameters
(命題 7.1), multiplications (命題 7.2), cross-attention (注意 7.3). Each check passes, and
rejects wrong variants."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.attention import attention, multi_head_attention
from proofs.book.judge import CheckFailed
from proofs.book.registry import REGISTRY, claim_arguments
from proofs.chapters.self_attention import cost
from proofs.chapters.self_attention.cost import (
    prop_attention_complexity,
    prop_attention_parameters,
    rem_cross_attention,
)
from symbolic.symbols import d, h, n

symbolic = pytest.mark.symbolic
numeric = pytest.mark.numeric


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
    assert len(prop_attention_complexity()) == 5


def test_prop_attention_complexity_states_the_products_the_causal_pass_executes():
    evidence = prop_attention_complexity()[3]
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
@pytest.mark.parametrize(
    "doubling, message",
    [
        (
            {"quadratic": 2, "linear": 2},
            "quadratic term by 4 and the linear one by 2, stated 2 and 2",
        ),
        (
            {"quadratic": 4, "linear": 4},
            "quadratic term by 4 and the linear one by 2, stated 4 and 4",
        ),
    ],
    ids=["quadratic", "linear"],
)
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


ORDERS = {"softmax": h * n**2, "time": n * d**2 + n**2 * d, "long": n**2 * d, "paper": n**2 * d}
REGIMES = {"heads": (d, h), "long": (n, d)}


@symbolic
@pytest.mark.parametrize(
    ("orders", "regimes", "message"),
    [
        ({**ORDERS, "time": n**2 * d}, REGIMES, r"the time, .*, is not Θ\(d\*n\*\*2\) when d >= h"),
        ({**ORDERS, "long": n * d**2}, REGIMES, r"is not Θ\(d\*\*2\*n\) when d >= h and n >= d"),
        (ORDERS, {**REGIMES, "long": (d, n)}, r"is not Θ\(d\*n\*\*2\) when d >= h and d >= n"),
        (ORDERS, {**REGIMES, "heads": (h, d)}, r"the time, .*, is not Θ"),
        ({**ORDERS, "softmax": n**2}, REGIMES, r"the softmax's exponentials and divisions"),
        ({**ORDERS, "paper": n * d**2}, REGIMES, r"the quadratic term, 2\*d\*n\*\*2, is not"),
    ],
    ids=["time", "long", "regime", "heads", "softmax", "paper"],
)
def test_prop_attention_complexity_rejects_a_wrong_order(orders, regimes, message):
    with pytest.raises(CheckFailed, match=message):
        prop_attention_complexity(orders=orders, regimes=regimes)


@symbolic
def test_prop_attention_complexity_rejects_a_wrong_crossover_value_or_limit():
    with pytest.raises(CheckFailed, match="at d = 64 the terms are equal at n = 128"):
        prop_attention_complexity(crossover_at_table_d=256)
    with pytest.raises(CheckFailed, match="at d = 32 the terms are equal at n = 64"):
        prop_attention_complexity(table_d=32)
    with pytest.raises(CheckFailed, match="multiplies the total by 4 as n grows"):
        prop_attention_complexity(total_ratio_limit=3)
    with pytest.raises(CheckFailed, match="only below n = 2\\*d, the chapter says below n = 4\\*d"):
        prop_attention_complexity(linear_larger_below=4 * d)
