"""symbolic.flops.explain: two conventions' difference as the steps of their switches,
exact for symbolic sizes and at a configuration; and the switches' own checks."""

import itertools
from dataclasses import replace

import pytest
from sympy import expand

from spec.flop_conventions import CONVENTIONS, Switches
from spec.published_models import MODELS
from symbolic.flops import STEPS, explain, forward_flops, forward_terms, values
from symbolic.symbols import L, V, d, n

PAIRS = list(itertools.permutations(sorted(CONVENTIONS), 2))


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_the_steps_add_up_to_the_difference(a, b):
    first, second = CONVENTIONS[a].switches, CONVENTIONS[b].switches
    steps = explain(first, second)
    difference = expand(forward_flops(first) - forward_flops(second))
    assert expand(sum(s.flops for s in steps) - difference) == 0
    changed = [f for f in STEPS if getattr(first, f) != getattr(second, f)]
    assert [s.switch for s in steps] == changed
    at = values(MODELS["gpt2"][1].sizes(), 1024)
    assert sum(s.flops.subs(at) for s in steps) == difference.subs(at)


def test_kaplan_minus_palm_is_the_vocabulary_and_the_causal_half():
    steps = explain(CONVENTIONS["kaplan"].switches, CONVENTIONS["palm"].switches)
    assert [(s.switch, s.before, s.after, s.flops) for s in steps] == [
        ("vocabulary", "logits", "none", -2 * V * d * n),
        ("causal_half", False, True, -2 * L * d * n**2),
    ]


def test_a_convention_against_itself_has_no_step():
    assert explain(CONVENTIONS["torch"].switches, CONVENTIONS["torch"].switches) == []


def test_the_order_lets_each_step_count_what_it_changes():
    # the softmax counts nothing while the fused kernel is unseen; seen first, it does
    unseen = replace(CONVENTIONS["torch"].switches, fused_attention=False)
    steps = explain(CONVENTIONS["chinchilla"].switches, unseen)
    assert [s.switch for s in steps][:3] == ["fused_attention", "vocabulary", "softmax"]
    assert all(s.flops != 0 for s in steps)


def test_an_unseen_kernel_hides_its_softmax_too():
    hidden = replace(CONVENTIONS["chinchilla"].switches, fused_attention=False)
    assert "softmax" not in forward_terms(hidden)
    assert "scores" not in forward_terms(hidden)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"vocabulary": "embeddings"}, "vocabulary must be one of"),
        ({"multiply_add": 3}, "multiply_add must be 1 or 2"),
        ({"multiply_add": True}, "multiply_add must be 1 or 2"),
        ({"softmax": -1}, "softmax must be an int >= 0"),
        ({"normalisation": 2.5}, "normalisation must be an int >= 0"),
        ({"causal_half": "yes"}, "causal_half must be a bool"),
    ],
)
def test_switches_reject_what_no_convention_means(fields, message):
    plain = {"vocabulary": "logits", "causal_half": False, "multiply_add": 2}
    with pytest.raises((ValueError, TypeError), match=message):
        Switches(**(plain | fields))


def test_forward_terms_rejects_a_foreign_argument():
    with pytest.raises(TypeError, match="spec.flop_conventions.Switches"):
        forward_terms({"vocabulary": "logits"})
