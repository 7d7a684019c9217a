"""normalise_sums: sums over 1..n, their limits, end terms, shifts, deltas and names."""

import signal

import pytest
from sympy import Add, Indexed, IndexedBase, KroneckerDelta, Piecewise, Sum, symbols

from symbolic.identities import is_zero
from symbolic.sums import EXPLICIT_TERMS_LIMIT, collapse_deltas, indices_in_range, normalise_sums

k, n, m = symbols("k n m", integer=True, positive=True)
i, j = symbols("i j", integer=True, positive=True)
v, a = IndexedBase("v", real=True), IndexedBase("a", real=True)


def reduces_to_zero(expr):
    return is_zero(normalise_sums(expr, n, {}, (i, j)))


@pytest.mark.parametrize(
    "difference",
    [
        Sum(v[k], (k, 2, n)) - Sum(v[k], (k, 1, n)),
        Sum(v[k], (k, 1, n - 1)) - Sum(v[k], (k, 1, n)),
        Sum(v[k] ** 2, (k, 1, 5)) - Sum(v[k] ** 2, (k, 1, n)),
        Sum(v[k], (k, n, 1)) - Sum(v[k], (k, 1, n)),
        Sum(v[k], (k, 1, m)) - Sum(v[k], (k, 1, n)),
        Sum(v[k], (k, 0, n - 1)) - Sum(v[k], (k, 1, n)),
        Sum(v[k + 1], (k, 1, n)) - Sum(v[k], (k, 1, n)),
        Sum(v[k], (k, 1, n + 1)) - Sum(v[k], (k, 1, n)),
        Sum(Sum(a[i, j], (j, 1, n)), (i, 1, n)) - n * Sum(a[i, j], (j, 1, n)),
        Sum(Sum(v[j], (j, 1, i)), (i, 1, n)) - Sum(Sum(v[j], (j, 1, n)), (i, 1, n)),
        Sum(v[k], (k, 1, 100)) - Sum(v[k], (k, 1, 99)),
    ],
    ids=[
        "2..n vs 1..n",
        "1..n-1 vs 1..n",
        "1..5 vs 1..n",
        "reversed limits",
        "1..m vs 1..n",
        "0..n-1 vs 1..n",
        "shifted subscript",
        "1..n+1 vs 1..n",
        "outer index left free",
        "triangle vs square",
        "long explicit ranges",
    ],
)
def test_normalise_sums_does_not_prove_false_identities(difference):
    assert not reduces_to_zero(difference)


@pytest.mark.parametrize(
    "difference",
    [
        Sum(v[k], (k, 2, n)) + v[1] - Sum(v[k], (k, 1, n)),
        Sum(v[k + 1], (k, 0, n - 1)) - Sum(v[k], (k, 1, n)),
        Sum(v[k + 1], (k, 0, n)) - Sum(v[k], (k, 1, n)) - v[n + 1],
        Sum(v[k], (k, 1, n - 1)) + v[n] - Sum(v[j], (j, 1, n)),
        Sum(v[k] ** 2, (k, 1, 3)) - v[1] ** 2 - v[2] ** 2 - v[3] ** 2,
        Sum(v[k], (k, n, 1)) + Sum(v[k], (k, 2, n - 1)),  # Karr: sum_n^1 = -sum_2^{n-1}
        Sum(v[k], (k, 1, m)) - Sum(v[j], (j, 1, m)),
        Sum(a[i, j], (i, 1, n), (j, 1, n)) - Sum(Sum(a[i, j], (i, 1, n)), (j, 1, n)),
        Sum(KroneckerDelta(i, k) * v[k], (k, 1, n)) - v[i],
        Sum(3 * v[k] + 2, (k, 1, n)) - 3 * Sum(v[j], (j, 1, n)) - 2 * n,
    ],
    ids=[
        "split off v_1",
        "index shifted back",
        "shift with an end term",
        "split off v_n",
        "explicit range",
        "reversed limits",
        "same sum over 1..m",
        "two limits vs nested",
        "delta",
        "linearity",
    ],
)
def test_normalise_sums_proves_true_identities(difference):
    assert reduces_to_zero(difference)


def test_normalise_sums_applies_facts_over_1_to_n_only():
    facts = {Sum(v[k], (k, 1, n)): 1}
    assert normalise_sums(Sum(v[j], (j, 1, n)), n, facts, ()) == 1
    assert normalise_sums(Sum(v[j], (j, 2, n)), n, facts, ()) == 1 - v[1]
    assert normalise_sums(Sum(v[j], (j, 1, m)), n, facts, ()) != 1
    with pytest.raises(ValueError, match="a fact must be a sum over 1..n"):
        normalise_sums(v[1], n, {Sum(v[k], (k, 0, n)): 1}, ())


def test_collapse_deltas_substitutes_a_number_for_a_symbol():
    assert collapse_deltas(KroneckerDelta(i, 1) * (i + 1)) == 2 * KroneckerDelta(i, 1)
    assert collapse_deltas(KroneckerDelta(i, j) * KroneckerDelta(j, k) * (i - k)) == 0


def test_indices_in_range_takes_a_piece_only_after_the_earlier_ones_are_false():
    i_, n_ = symbols("i n", integer=True, positive=True)
    piecewise = Piecewise((1, i_ >= 2), (0, True))  # 1 <= i <= n does not decide i >= 2
    assert indices_in_range(piecewise, (i_,), n_) == piecewise
    assert indices_in_range(Piecewise((1, i_ > n_), (0, True)), (i_,), n_).has(Piecewise)
    assert indices_in_range(Piecewise((1, 1 < i_), (0, True)), (i_,), n_).has(Piecewise)
    assert indices_in_range(Piecewise((2, False), (1, i_ <= n_), (0, True)), (i_,), n_) == 1


def test_indices_in_range_knows_the_lower_end_of_an_index_declared_only_integer():
    i_, n_ = symbols("i", integer=True), symbols("n", integer=True, positive=True)
    # 1 <= i is the fact i >= 1, whatever i's assumptions; i >= 0 alone would not decide it
    assert indices_in_range(Piecewise((1, i_ >= 1), (0, True)), (i_,), n_) == 1
    assert indices_in_range(Piecewise((1, n_ >= i_), (0, True)), (i_,), n_) == 1
    assert indices_in_range(Piecewise((1, i_ <= n_), (0, True)), (i_,), n_) == 1


def test_normalise_sums_keeps_a_delta_sum_whose_range_condition_is_undecided():
    # sum_k delta(i + 1, k) v_k is v_{i+1} when i + 1 <= n, which 1 <= i <= n leaves open
    total = Sum(KroneckerDelta(i + 1, k) * v[k], (k, 1, n))
    assert not is_zero(normalise_sums(total, n, {}, (i,)))
    assert not reduces_to_zero(total - v[i + 1])


def named(total):
    return normalise_sums(total, n, {}, (i, j))


def test_normalise_sums_writes_out_at_most_explicit_terms_limit_terms():
    assert EXPLICIT_TERMS_LIMIT == 64
    assert named(Sum(v[k], (k, 1, 64))) == Add(*(v[s] for s in range(1, 65)))
    assert named(Sum(v[k], (k, 1, 65))).free_symbols == {named(Sum(v[k], (k, 1, 65)))}
    assert named(Sum(v[k], (k, -63, 0))) == Add(*(v[s] for s in range(-63, 1)))
    ends = Add(*(v[n + s] for s in range(1, 65)))
    assert named(Sum(v[k], (k, 1, n + 64))) == named(Sum(v[k], (k, 1, n))) + ends
    assert not named(Sum(v[k], (k, 1, n + 65)) - Sum(v[k], (k, 1, n))).has(Indexed)


def test_normalise_sums_shifts_subscripts_by_at_most_the_limit():
    base = named(Sum(v[k], (k, 1, n)))
    ends = Add(*(v[n + s] - v[s] for s in range(1, 65)))
    assert named(Sum(v[k + 64], (k, 1, n))) == base + ends
    assert not named(Sum(v[k + 65], (k, 1, n))).has(Indexed)
    assert not named(Sum(v[k + m], (k, 1, n))).has(Indexed)


def test_normalise_sums_splits_end_terms_off_either_end():
    base = named(Sum(v[k], (k, 1, n)))
    assert named(Sum(v[k], (k, 1, n - 2))) == base - v[n - 1] - v[n]
    assert named(Sum(v[k], (k, 3, n))) == base - v[1] - v[2]
    assert named(Sum(v[k], (k, 1, n + 2))) == base + v[n + 1] + v[n + 2]
    assert named(Sum(v[k], (k, -1, n))) == base + v[-1] + v[0]
    # Karr's convention: sum_{n+1}^{5} = G(5) - G(n)
    assert named(Sum(v[k], (k, n + 1, 5))) == v[1] + v[2] + v[3] + v[4] + v[5] - base
    assert named(Sum(v[k], (k, n, n))) == v[n]
    assert named(Sum(v[k], (k, 2, 1))) == 0


def test_normalise_sums_of_a_delta_whose_index_is_not_in_range():
    t = symbols("t", integer=True)  # not positive: delta(t, 0) stays a delta
    assert named(Sum(KroneckerDelta(t, 0) * v[t], (t, 1, n))) == 0
    assert named(Sum(KroneckerDelta(t, 0) * v[t], (t, 0, n))) == v[0]
    assert named(Sum(KroneckerDelta(k, n + 1) * v[k], (k, 1, n))) == 0
    assert named(Sum(KroneckerDelta(k, 1) * v[k], (k, 1, n))) == v[1]
    unknown = named(Sum(KroneckerDelta(m, k) * v[k], (k, 1, n)))  # m not among the indices
    assert not unknown.has(Piecewise) and not unknown.has(Indexed)


def test_normalise_sums_names_a_sum_after_its_canonical_bound_indices():
    assert str(named(Sum(v[j], (j, 1, n)))) == "_[Sum(v[_k1], (_k1, 1, n))]"
    double = named(Sum(Sum(a[i, j], (j, 1, n)), (i, 1, n)))
    assert str(double) == "_[Sum(a[_k2, _k1], (_k1, 1, n), (_k2, 1, n))]"
    triple = named(Sum(Sum(Sum(a[i, j] * a[j, k], (k, 1, n)), (j, 1, n)), (i, 1, n)))
    assert str(triple) == (
        "_[Sum(a[_k3, _k2]*Sum(a[_k2, _k1], (_k1, 1, n)), (_k2, 1, n), (_k3, 1, n))]"
    )
    # the outer index never captures the inner one
    assert named(Sum(Sum(a[i, j], (j, 1, n)), (i, 1, n))) != named(Sum(a[k, k], (k, 1, n)))


def test_collapse_deltas_substitutes_in_the_order_of_the_factors():
    assert collapse_deltas(KroneckerDelta(i, j) * KroneckerDelta(j, k) * k) == (
        i * KroneckerDelta(i, j) * KroneckerDelta(i, k)
    )


def test_collapse_deltas_drops_the_delta_it_substitutes_by():
    # delta(-j, j) holds -j: substituting j -> -j rewrites the delta itself to delta(j, -j),
    # so the delta must be taken out of the term first
    # (kept in the term, delta(-j, j) would come back after each substitution, for ever)
    j_ = symbols("j", integer=True)

    def stop(signum, frame):
        raise TimeoutError("collapse_deltas did not finish")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(10)
    try:
        collapsed = collapse_deltas(KroneckerDelta(-j_, j_) * j_)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert collapsed == -j_ * KroneckerDelta(-j_, j_)
