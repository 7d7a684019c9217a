"""§7 パラメータ数と計算量: parameters (命題 7.1), multiplications (命題 7.2), cross-attention
(注意 7.3)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from numeric.attention import attention, multi_head_attention
from numeric.contraction import count_multiplications
from numeric.error_bounds import attention_error_bound, mha_error_bound
from numeric.model import init_parameters
from numeric.parameters import parameter_count, sub_parameters
from proofs.book.claims import Claim
from proofs.book.judge import Verdict, judge_cases, require, weigh
from proofs.book.printed import cell_agrees
from proofs.book.profiles import scaled
from proofs.book.stated import (
    crossover,
    formula_in_phrase,
    integer,
    member,
    order,
    polynomial,
    prose_integer,
    regime,
    table_rows,
)
from proofs.chapters.self_attention.attention import convexity_violations
from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.chapters.self_attention.strategies import float_arrays, mha_case, seeded_stack
from proofs.chapters.self_attention.tables import attention_complexity_table
from proofs.evidence.reference import (
    DIGITS,
    mp_error,
    mp_multi_head_attention,
)
from spec.config import ModelConfig
from spec.contractions import ATTENTION_WEIGHTS_MEMORY
from symbolic import counts, symbols
from symbolic.identities import equal
from symbolic.orders import same_order


@CHAPTER.element(
    "prop-attention-parameters",
    "命題 7.1",
    "マルチヘッド自己注意のパラメータ数",
    "proposition",
    ("symbolic", "numeric"),
    claims=(
        Claim(r"d_k = d_v = d/h"),
        Claim(r"4d^2 + 4d", argument="stated", read=polynomial),
        Claim(r"4d^2", argument="stated_without_bias", read=polynomial),
        Claim("ヘッド数 $h$ に依らない", phrase=True),
        Claim(
            r"4 \times 512^2 + 4 \times 512 = 1{,}050{,}624",
            where="text",
            lhs=r"4 \times 512^2 + 4 \times 512",
            argument="printed.with_bias",
            read=integer,
        ),
        Claim(
            "1{,}048{,}576",
            where="text",
            argument="printed.without_bias",
            read=integer,
        ),
    ),
)
def prop_attention_parameters(stated, stated_without_bias, printed) -> list[str]:
    """4d^2 + 4d (4d^2 without biases), independent of h: symbolic, the polynomial derived
    from spec's parameter declaration (d_head = d/h) minus the stated one is 0 and h does
    not occur in it; numeric, on Hypothesis-drawn (d, h) with h | d (d <= 64), the sizes of
    the arrays numeric.model.init_parameters allocates for one attention layer equal the
    polynomial's value; the printed counts at d = 512 (1,050,624 and 1,048,576) are the
    polynomial's values."""
    d = symbols.d
    evidence = []
    for bias, want in ((True, stated), (False, stated_without_bias)):
        require(not _has_h(want), f"the stated {want} depends on h (bias = {bias})")
        derived = sp.expand(counts.attention_parameters(bias=bias))
        require(equal(derived, want), f"derived {derived} != stated {want} (bias = {bias})")
        evidence.append(f"bias = {bias}: derived {derived} = stated, no h")

    stats = {"cases": 0}

    @given(
        st.integers(1, 8).flatmap(lambda h: st.tuples(st.just(h), st.integers(1, 8))), st.booleans()
    )
    def arrays(hk, bias):
        h, k = hk
        config = ModelConfig(vocab=3, d=h * k, n_layer=1, n_head=h, d_ff=4, n_ctx=4, bias=bias)
        params = init_parameters(config, np.random.default_rng(0))
        counted = parameter_count(sub_parameters(params, "blocks.0.attn"))
        want = int((stated if bias else stated_without_bias).subs(d, h * k))
        require(
            counted == want,
            f"d = {h * k}, h = {h}, bias = {bias}: arrays hold {counted}, the formula gives {want}",
        )
        stats["cases"] += 1

    arrays()
    evidence.append(f"allocated arrays = the polynomial on {stats['cases']} drawn (d, h, bias)")
    at_512 = (int(stated.subs(d, 512)), int(stated_without_bias.subs(d, 512)))
    shown = (printed["with_bias"], printed["without_bias"])
    require(at_512 == shown, f"at d = 512 the formulas give {at_512}, the chapter prints {shown}")
    evidence.append(f"d = 512: {at_512[0]:,} and {at_512[1]:,}")
    return evidence


COMPLEXITY_TABLE = "\n".join(
    (
        "$n$ | $4nd^2$ | $2n^2d$ | 合計 | $2n^2d$ の前の行との比 | 合計の前の行との比",
        "64 | 1,048,576 | 524,288 | 1,572,864 |  | ",
        "128 | 2,097,152 | 2,097,152 | 4,194,304 | 4.00 | 2.67",
        "256 | 4,194,304 | 8,388,608 | 12,582,912 | 4.00 | 3.00",
        "512 | 8,388,608 | 33,554,432 | 41,943,040 | 4.00 | 3.33",
        "1024 | 16,777,216 | 134,217,728 | 150,994,944 | 4.00 | 3.60",
    )
)


def _has_h(expr: sp.Expr) -> bool:
    """Whether a count depends on the number of heads (a symbol named h)."""
    return any(s.name == "h" for s in expr.free_symbols)


def _orders(derived: sp.Expr, quadratic: sp.Expr, softmax: sp.Expr, orders, regimes) -> str:
    """The stated orders against the derived counts: the softmax's exponentials and
    divisions (one each per weight) Θ(orders.softmax); the time, products and softmax,
    Θ(orders.time) when h ≤ d and Θ(orders.long) when also n ≥ d; the quadratic term
    Θ(orders.paper), the order Vaswani et al. give."""
    time = derived + softmax
    heads, long = [regimes["heads"]], [regimes["heads"], regimes["long"]]
    for count, stated, within, what in (
        (softmax, orders["softmax"], [], "the softmax's exponentials and divisions"),
        (time, orders["time"], heads, "the time"),
        (time, orders["long"], long, "the time"),
        (quadratic, orders["paper"], [], "the quadratic term"),
    ):
        where = " and ".join(f"{a} >= {b}" for a, b in within)
        require(
            same_order(count, stated, within),
            f"{what}, {count}, is not Θ({stated})" + (f" when {where}" if where else ""),
        )
    return (
        f"orders: softmax Θ({orders['softmax']}); time {time} is Θ({orders['time']}) when "
        f"{regimes['heads'][0]} >= {regimes['heads'][1]} and Θ({orders['long']}) when also "
        f"{regimes['long'][0]} >= {regimes['long'][1]}; the quadratic term Θ({orders['paper']})"
    )


@CHAPTER.element(
    "prop-attention-complexity",
    "命題 7.2",
    "自己注意 1 層の計算量",
    "proposition",
    ("symbolic", "numeric"),
    claims=(
        Claim(r"d_k = d/h"),
        Claim(
            COMPLEXITY_TABLE, table=True, where="text", argument="printed_table", read=table_rows
        ),
        Claim(
            r"\underbrace{4nd^2}_{\text{射影}} + \underbrace{2n^2 "
            r"d}_{\text{点数と重みつき和}}",
            argument="stated",
            read=polynomial,
        ),
        Claim("ヘッド数 $h$ に依らない", phrase=True),
        Claim(r"O(hn^2)", argument="orders.softmax", read=order),
        Claim(r"hn^2", argument="stated_memory", read=polynomial),
        Claim(r"h \le d", argument="regimes.heads", read=regime),
        Claim(r"O(nd^2 + n^2 d)", argument="orders.time", read=order),
        Claim(r"n \ge d", argument="regimes.long", read=regime),
        Claim(r"O(n^2 d)", argument="orders.long", read=order),
        Claim(
            "$2n^2d$ の項は 4 倍", phrase=True, argument="doubling.quadratic", read=prose_integer
        ),
        Claim(
            "$4nd^2$ の項は 2 倍になる", phrase=True, argument="doubling.linear", read=prose_integer
        ),
        Claim(r"O(n^2 \cdot d)", where="text", argument="orders.paper", read=order),
        Claim(
            "$n$ が $d$ より小さいあいだは",
            phrase=True,
            where="text",
            argument="linear_larger_below",
            read=formula_in_phrase(2),
        ),
        Claim(r"d = 64", where="text", lhs="d", argument="table_d", read=integer),
        Claim(
            "4 に近づきます",
            phrase=True,
            where="text",
            argument="total_ratio_limit",
            read=prose_integer,
        ),
        Claim(
            "n = 2d = 128",
            where="text",
            lhs="n",
            argument="stated_crossover",
            read=crossover,
        ),
        Claim(
            "n = 2d = 128",
            where="text",
            lhs="n",
            argument="crossover_at_table_d",
            read=member(2, integer),
        ),
    ),
)
def prop_attention_complexity(
    stated,
    stated_crossover,
    printed_table,
    stated_memory,
    doubling,
    orders,
    regimes,
    linear_larger_below,
    table_d,
    total_ratio_limit,
    crossover_at_table_d,
    multi_head_attention=multi_head_attention,
) -> list[str]:
    """4nd^2 + 2n^2 d multiplications, independent of h: symbolic, the stated polynomial
    has no h and equals the one derived from spec's declared contractions; doubling n
    multiplies the quadratic term and the linear one by the stated `doubling` factors
    (4 and 2), the two terms are equal at n = 2d (solved); the weights' memory is the
    stated h n^2. Numeric: on Hypothesis-drawn
    (n <= 6, h | d, d <= 9) the multiplications counted from the actual contractions of a
    multi_head_attention pass equal the polynomial; the weights it returns hold h n^2
    numbers, as many as the declared score array (spec ATTENTION_WEIGHTS_MEMORY, the
    entries on which softmax takes one exp and one division each: O(h n^2)). The
    chapter's d = 64 table is regenerated by proofs.typeset.tables and equals the printed cells."""

    d, n = symbols.d, symbols.n
    require(not _has_h(stated), f"the stated {stated} depends on h")
    derived = sp.expand(counts.attention_multiplications())
    require(equal(derived, stated), f"derived {derived} != stated {stated}")
    linear, quadratic = counts.linear_quadratic(derived, n)
    ratios = [counts.doubling_ratio(quadratic, n), counts.doubling_ratio(linear, n)]
    factors = [doubling["quadratic"], doubling["linear"]]
    require(
        ratios == factors,
        f"doubling n multiplies the quadratic term by {ratios[0]} and "
        f"the linear one by {ratios[1]}, stated {factors[0]} and "
        f"{factors[1]}",
    )
    cross = counts.crossover(derived, n)
    require(
        equal(cross, stated_crossover),
        f"the terms are equal at n = {cross}, the chapter states n = {stated_crossover}",
    )
    memory = counts.attention_weights_memory()
    require(equal(memory, stated_memory), f"weights memory {memory} != stated {stated_memory}")
    at_table = cross.subs(d, table_d)
    require(
        at_table == crossover_at_table_d,
        f"at d = {table_d} the terms are equal at n = {at_table}, the chapter prints "
        f"{crossover_at_table_d}",
    )
    require(
        sp.simplify(cross - linear_larger_below).is_nonnegative is True,
        f"the projections' term is the larger only below n = {cross}, the chapter says "
        f"below n = {linear_larger_below}",
    )
    limit = counts.doubling_limit(derived)
    require(
        limit == total_ratio_limit,
        f"doubling n multiplies the total by {limit} as n grows, the chapter says "
        f"{total_ratio_limit}",
    )
    evidence = [
        f"derived {derived} = stated, no h; doubling ratios {ratios[0]} and "
        f"{ratios[1]}, the total's tends to {limit}; terms equal at n = {cross} "
        f"({at_table} at d = {table_d}); weights memory {memory}",
        _orders(derived, quadratic, memory, orders, regimes),
    ]
    stats = {"cases": 0}

    def count(x: np.ndarray, params: dict, causal: bool) -> tuple[int, int, int]:
        """(the definition's count, the products executed, the formula) of one pass;
        judges that the causal pass executes no more than the definition and at least
        the products of the unmasked scores and weights (n(n-1)/2 pairs per head fewer,
        each d_k + d_v = 2d/h products)."""
        with count_multiplications() as counter:
            _, weights = multi_head_attention(x, params, causal=causal)
        nn, dd = x.shape
        want = int(stated.subs({n: nn, d: dd}))
        h = params["w_q"].shape[0]
        require(
            counter.total == want,
            f"n = {nn}, d = {dd}, h = {h}: counted {counter.total}, the formula gives {want}",
        )
        least = want - nn * (nn - 1) * dd if causal else want
        require(
            least <= counter.executed_total <= want,
            f"n = {nn}, d = {dd}, h = {h}, causal = {causal}: {counter.executed_total} "
            f"products executed, outside [{least}, {want}]",
        )
        sizes = {"h": h, "n": nn, "m": nn}
        declared = math.prod(sizes[dim] for dim in ATTENTION_WEIGHTS_MEMORY)
        require(
            np.asarray(weights).size == declared == h * nn * nn,
            f"weights hold {np.asarray(weights).size}; the declared score array "
            f"{ATTENTION_WEIGHTS_MEMORY} holds {declared}; h n^2 = {h * nn * nn}",
        )
        stats["cases"] += 1
        return counter.total, counter.executed_total, want

    @given(mha_case(max_n=6), st.booleans())
    def counted(case, causal):
        x, params = case
        count(x, params, causal)

    counted()
    evidence.append(
        f"counted multiplications of real passes = the polynomial; weights h n^2, "
        f"on {stats['cases']} drawn sizes"
    )
    rng = np.random.default_rng(0)
    x = rng.standard_normal((300, 2))
    params = {w: rng.standard_normal((1, 2, 2)) for w in ("w_q", "w_k", "w_v", "w_o")}
    full, executed, want = count(x, params, causal=True)
    evidence.append(
        f"causal pass at n = 300, d = 2, h = 1: the definition counts {full} "
        f"multiplications (= the polynomial, {want}); the blocked pass executes "
        f"{executed}, skipping masked blocks"
    )

    table = attention_complexity_table(d=table_d, ns=tuple(int(r[0]) for r in printed_table))
    for got, values, want in zip(table.rows, table.values, printed_table, strict=True):
        require(
            len(got) == len(want) and all(map(cell_agrees, got, values, want)),
            f"table row {got} != printed {want} at the printed precision",
        )
    evidence.append(
        f"the d = {table_d} table regenerated equals the printed cells at their precision"
    )
    return evidence


@CHAPTER.element(
    "rem-cross-attention",
    "注意 7.3",
    "交差注意",
    "remark",
    ("numeric", "high precision"),
    claims=(Claim("はそのまま成り立ちます", phrase=True),),
)
def rem_cross_attention(
    multi_head_attention=multi_head_attention, attention=attention
) -> list[str]:
    """Cross-attention (queries from X (n, d), keys and values from a context (m, d),
    m != n allowed): multi_head_attention with `context` equals the definition at 50
    digits within mha_error_bound on Hypothesis-drawn n <= 4, m <= 5, h | d, d <= 6 (and a
    fixed n = 2, m = 3, d = 4, h = 2 case); and
    命題 4.2 still holds per head: with Q = X W_Q, K = C W_K, V = C W_V drawn, the
    weights are >= 0 with rows summing to 1 and the outputs obey the norm and component
    bounds within the rounding bound."""
    definition: list[Verdict] = []

    def cross(x, params, context):
        m = context.shape[0]
        out, weights = multi_head_attention(x, params, context=context)
        weights = np.asarray(weights)
        require(
            weights.shape == (params["w_q"].shape[0], x.shape[0], m),
            f"cross-attention weights have shape {weights.shape}",
        )
        with mpmath.workdps(DIGITS):
            err = mp_error(out, mp_multi_head_attention(x, params, context=context))
        definition.append(
            weigh(
                err,
                mha_error_bound(x, params, weights, context=context),
                f"n = {x.shape[0]}, m = {m}",
            )
        )
        q = np.einsum("nd,hdk->hnk", x, params["w_q"])
        k = np.einsum("md,hdk->hmk", context, params["w_k"])
        v = np.einsum("md,hdk->hmk", context, params["w_v"])
        o, w = attention(q, k, v)
        o, w = np.asarray(o), np.asarray(w)
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])
        bound = attention_error_bound(q, k, v, w)
        violations = convexity_violations(o, v, w, None, bound, scores)
        require(not violations, f"cross-attention breaks 命題 4.2: {'; '.join(violations)}")

    layers, x = seeded_stack(0, n=2, d=4, h=2)
    cross(x, layers[0][1], np.random.default_rng(1).standard_normal((3, 4)))

    @scaled(0.5)
    @given(mha_case(max_n=4, max_heads=2), st.integers(1, 5), st.data())
    def drawn(case, m, data):
        x, params = case
        cross(x, params, data.draw(float_arrays((m, x.shape[1]), 2.0)))

    drawn()
    judged = judge_cases(definition, "cross-attention off the definition")
    return [
        f"cross-attention = the definition at 50 digits (largest error/bound "
        f"{judged.ratio:.2f}) and convex per head on {len(definition)} drawn (n, m, d, h)"
    ]
