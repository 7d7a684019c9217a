"""§10 演習 10.1–10.4."""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from numeric.attention import multi_head_attention
from numeric.error_bounds import (
    softmax_error_bound,
    unit_roundoff,
)
from numeric.softmax import masked_softmax, softmax
from proofs.book.claims import Claim
from proofs.book.judge import Verdict, judge_cases, judge_within, require, weigh
from proofs.book.printed import half_unit
from proofs.book.stated import (
    expression_in,
    member_text,
    printed_text,
    printed_texts,
    prose_integers,
    tuple_of_numbers,
)
from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.chapters.self_attention.strategies import mha_case, seeded_stack
from proofs.evidence.anchors import stack_attention_off_definition
from proofs.evidence.measures import (
    run_stack,
)
from proofs.evidence.reference import (
    DIGITS,
    mp_softmax_exact,
)
from symbolic import softmax as sym
from symbolic.identities import equal
from symbolic.softmax import softmax as symbolic_softmax


@CHAPTER.element(
    "exr-softmax-compute",
    "演習 10.1",
    "softmax の計算",
    "exercise",
    ("symbolic", "numeric"),
    claims=(
        Claim(r"\boldsymbol{z} = (0, \log 2, \log 3)"),
        Claim(r"\boldsymbol{z}' = (100, 100 + \log 2, 100 + \log 3)"),
        Claim(r"\sigma(\boldsymbol{z}') = (1/6, 1/3, 1/2)", where="proof"),
        Claim(
            r"\sigma(\boldsymbol{z}) = (1/6, 1/3, 1/2)",
            where="proof",
            lhs=r"\sigma(\boldsymbol{z})",
            argument="answer",
            read=tuple_of_numbers,
        ),
    ),
)
def exr_softmax_compute(answer=None, softmax=softmax) -> list[str]:
    """sigma(0, log 2, log 3) = (1/6, 1/3, 1/2) exactly (SymPy, symbolic.softmax.softmax),
    and sigma(100, 100 + log 2, 100 + log 3) is the same exactly; the NumPy softmax gives
    both to within softmax_error_bound (the +100 row without overflow)."""

    answer = (sp.Rational(1, 6), sp.Rational(1, 3), sp.Rational(1, 2)) if answer is None else answer
    evidence = []
    z = sp.Matrix([0, sp.log(2), sp.log(3)])
    for shift in (0, 100):
        got = symbolic_softmax(z + shift * sp.ones(3, 1))
        require(
            all(equal(a, b) for a, b in zip(got, answer, strict=True)),
            f"sigma(z + {shift}) = {list(got)} != {list(answer)}",
        )
        zn = np.array([float(t) for t in z + shift * sp.ones(3, 1)])
        num = np.asarray(softmax(zn))
        want = np.array([float(a) for a in answer])
        # plus the rounding of z to float64, |delta_i| <= u |z_i|, which moves sigma_i by
        # sigma_i (delta_i - sum_j sigma_j delta_j), at most 2 max|delta| sigma_i, and the
        # rounding of the exact answer to float64, u |want|
        u = unit_roundoff(np.float64)
        bound = softmax_error_bound(zn, num) + 2 * u * np.abs(zn).max() * num + u * want
        judge_within(num - want, bound, f"NumPy gives {num} at shift {shift}")
        evidence.append(f"shift {shift}: exact {[str(a) for a in got]}, NumPy {num.tolist()}")
    return evidence


S = sp.Symbol("s", positive=True)  # sigma(z) = (s, 1 - s): symbolic.softmax.two_by_two's s


@CHAPTER.element(
    "exr-jacobian-two",
    "演習 10.2",
    "n = 2 のヤコビ行列",
    "exercise",
    ("symbolic",),
    claims=(
        Claim(r"n = 2"),
        Claim(r"\sigma(\boldsymbol{z}) = (s, 1 - s)"),
        Claim(
            r"J = \begin{pmatrix} s(1-s) & -s(1-s) \\ -s(1-s) & (1-s)s \end{pmatrix} = "
            r"s(1-s)\begin{pmatrix} 1 & -1 \\ -1 & 1 \end{pmatrix}",
            where="proof",
            lhs="J",
            argument="stated_closed",
            read=expression_in(s=S),
        ),
        Claim(
            "固有値は 0 と 2 です",
            phrase=True,
            where="proof",
            argument="pattern_eigenvalues",
            read=prose_integers,
        ),
        Claim(r"2s(1-s)", where="proof", argument="stated_eigenvalue", read=expression_in(s=S)),
        Claim(
            r"s = 1/2", where="proof", lhs="s", argument="stated_maximiser", read=expression_in()
        ),
        Claim(r"1/2", where="proof", argument="stated_maximum", read=expression_in()),
        Claim(
            "$s$ が 0 か 1 に近づくと 0 に近づきます",
            phrase=True,
            where="proof",
            argument="edges",
            read=prose_integers,
        ),
    ),
)
def exr_jacobian_two(
    stated_closed: sp.Matrix,
    stated_eigenvalue: sp.Expr,
    stated_maximiser: sp.Expr,
    stated_maximum: sp.Expr,
    pattern_eigenvalues: tuple[int, ...],
    edges: tuple[int, ...],
    jacobian=None,
) -> list[str]:
    """n = 2, sigma = (s, 1 - s): J = s(1 - s)[[1, -1], [-1, 1]], eigenvalues 0 (vector 1)
    and 2s(1 - s), whose maximum 1/2 is at s = 1/2 and which tends to 0 as s tends to 0 or
    1 (SymPy's limit); the pattern [[1, -1], [-1, 1]] has eigenvalues 0 and 2:
    symbolic.softmax.two_by_two on the stated matrix formula, each compared exactly with
    the chapter's answer."""

    r = sym.two_by_two(sym.chapter_matrix if jacobian is None else jacobian)
    require(sym.is_zero(r.jacobian - stated_closed), f"J = {r.jacobian} != {stated_closed}")
    eig = {sp.factor(k): v for k, v in r.eigenvalues.items()}
    require(
        set(eig) == {0, sp.factor(stated_eigenvalue)},
        f"eigenvalues {r.eigenvalues}, stated 0 and {stated_eigenvalue}",
    )
    require(sym.is_zero(r.jacobian * sp.ones(2, 1)), "1 is not in the kernel")
    require(sym.is_maximum(r), f"2s(1-s) has no interior maximum at {r.maximiser}")
    require(
        tuple(r.maximiser) == (stated_maximiser,) and r.maximum == stated_maximum,
        f"maximum {r.maximum} at {r.maximiser}, stated {stated_maximum} at {stated_maximiser}",
    )
    shape = (r.jacobian / r.jacobian[0, 0]).applyfunc(sp.cancel)  # J over s(1 - s)
    pattern = shape.eigenvals()
    require(
        sorted(pattern) == sorted(pattern_eigenvalues),
        f"{shape.tolist()} has eigenvalues {sorted(pattern)}, stated {pattern_eigenvalues}",
    )
    *ends, tends_to = edges
    limits = [sp.limit(stated_eigenvalue, S, end) for end in ends]
    require(
        bool(ends) and all(limit == tends_to for limit in limits),
        f"as s tends to {ends}, {stated_eigenvalue} tends to {limits}, stated {tends_to}",
    )
    return [
        f"J = {stated_closed}; eigenvalues 0 and {stated_eigenvalue} (the pattern's "
        f"{sorted(pattern)}); max {stated_maximum} at s = {stated_maximiser}; "
        f"{stated_eigenvalue} -> {tends_to} as s -> {ends}"
    ]


@CHAPTER.element(
    "exr-mask-limit",
    "演習 10.3",
    "マスクの極限の計算",
    "exercise",
    ("numeric", "high precision"),
    claims=(
        Claim(r"\boldsymbol{z} = (1, 2, 0.5)"),
        Claim(r"U = \{1, 2\}"),
        Claim(r"c = 10"),
        Claim(
            r"\sigma^{U}(\boldsymbol{z}) = (0.2689,\ 0.7311,\ 0)",
            where="proof",
            lhs=r"\sigma^{U}(\boldsymbol{z})",
            argument="printed.sigma_U",
            read=printed_texts,
        ),
        Claim(
            r"e^{1} = 2.7183", where="proof", lhs="e^{1}", argument="printed.e^1", read=printed_text
        ),
        Claim(
            r"e^{2} = 7.3891", where="proof", lhs="e^{2}", argument="printed.e^2", read=printed_text
        ),
        Claim(r"10.1073", where="proof", argument="printed.sum", read=printed_text),
        Claim(
            r"e^{-10}e^{0.5}/10.1073 = 4.54\times10^{-5} \times 1.6487 / 10.1073 \approx "
            r"7.4 \times 10^{-6}",
            where="proof",
            lhs=r"e^{-10}e^{0.5}/10.1073",
            argument="printed.e^-10",
            read=member_text(1, 0),
        ),
        Claim(
            r"e^{-10}e^{0.5}/10.1073 = 4.54\times10^{-5} \times 1.6487 / 10.1073 \approx "
            r"7.4 \times 10^{-6}",
            where="proof",
            lhs=r"e^{-10}e^{0.5}/10.1073",
            argument="printed.e^(1/2)",
            read=member_text(1, 1),
        ),
        Claim(
            r"e^{-10}e^{0.5}/10.1073 = 4.54\times10^{-5} \times 1.6487 / 10.1073 \approx "
            r"7.4 \times 10^{-6}",
            where="proof",
            lhs=r"e^{-10}e^{0.5}/10.1073",
            argument="printed.bound",
            read=member_text(2, 0),
        ),
    ),
)
def exr_mask_limit(
    printed: dict, masked_softmax=masked_softmax, exact_softmax=mp_softmax_exact
) -> list[str]:
    """z = (1, 2, 0.5), U = {1, 2}: sigma^U(z) by the NumPy masked_softmax and the bound
    e^{-10} e^{0.5} / (e + e^2) at 50 digits, each compared with the printed value at
    its printed precision (4 decimals; 3 significant digits for 4.54e-5, 2 for 7.4e-6);
    the actual third weight of sigma(z - 10 m) at 50 digits (`exact_softmax`, the
    reference softmax of proofs.evidence.reference) lies in (0, bound]."""
    z = np.array([1.0, 2.0, 0.5])
    got = np.asarray(masked_softmax(z, np.array([True, True, False])))
    with mpmath.workdps(DIGITS):
        e1, e2 = mpmath.e, mpmath.exp(2)
        values = {
            "e^1": e1,
            "e^2": e2,
            "sum": e1 + e2,
            "e^-10": mpmath.exp(-10),
            "e^(1/2)": mpmath.exp(0.5),
        }
        values["bound"] = values["e^-10"] * values["e^(1/2)"] / values["sum"]
        third = exact_softmax([mpmath.mpf(1), mpmath.mpf(2), mpmath.mpf(0.5) - 10])[2]
        require(0 < third <= values["bound"], f"sigma_3 = {third} not in (0, bound]")
    judge_within(
        got - np.array([float(want) for want in printed["sigma_U"]]),
        [half_unit(want) for want in printed["sigma_U"]],
        f"sigma^U = {got.tolist()} against the printed {printed['sigma_U']}",
    )
    for key, value in values.items():
        want = printed[key]
        judge_within(
            float(value) - float(want),
            half_unit(want),
            f"{key} = {mpmath.nstr(value, 8)} but the chapter prints {want}",
        )
    return [
        f"sigma^U = {np.round(got, 4).tolist()}; bound = {mpmath.nstr(values['bound'], 4)}; "
        f"sigma_3 at c = 10 is {mpmath.nstr(third, 4)}"
    ]


@CHAPTER.element(
    "exr-causal-last-row",
    "演習 10.4",
    "因果マスクと最後の行",
    "exercise",
    ("numeric", "witness"),
    claims=(
        Claim(r"\pi(n) = n"),
        Claim(r"f_n(P_\pi X)_n = f_n(X)_n"),
        Claim("2 層では成り立つとは限りません", phrase=True, where="proof"),
    ),
)
def exr_causal_last_row(multi_head_attention=multi_head_attention) -> list[str]:
    """One causal layer (no positions): f_n(P_pi X)_n = f_n(X)_n for permutations with
    pi(n) = n, within the two rounding bounds, on Hypothesis-drawn x, parameters and
    permutations (n <= 5, h | d, one head and several) and at the listing's sizes. Two
    layers: a witness for each of the seeds 0..4 (n = 6, d = 8, h = 2, rows 1 and 2
    swapped) where the last row changes by more than the rounding bounds. On the same
    inputs the attention is 定義 4.1's causal MHA at 50 digits within mha_error_bound."""
    # measured on every case, then judged: the last row first, the definition after
    last_rows: list[Verdict] = []
    defined: list[Verdict] = []

    def one_layer(layers, x, pi):
        y, b = run_stack(layers, x, True, mha=multi_head_attention)
        yp, bp = run_stack(layers, x[pi], True, mha=multi_head_attention)
        last_rows.append(weigh(yp[-1] - y[-1], b[-1] + bp[-1], f"pi = {pi}, x {x.shape}"))
        defined.extend(
            weigh(err, bound, f"x {x.shape}")
            for err, bound in stack_attention_off_definition(multi_head_attention, layers, x, True)
        )

    for seed in range(3):
        layers, x = seeded_stack(seed)
        one_layer(layers, x, [1, 0, 2, 3, 4, 5])

    @given(mha_case(), st.data())
    def drawn(case, data):
        x, params = case
        n = x.shape[0]
        pi = data.draw(st.permutations(list(range(n - 1)))) + [n - 1]
        one_layer([("attn", params)], x, pi)

    drawn()
    judge_cases(last_rows, "one causal layer: last row changed under a permutation fixing it")
    judge_cases(defined, "the attention is not 定義 4.1's causal MHA at 50 digits")
    evidence = [f"one layer: last row unchanged within rounding on {len(last_rows)} cases"]
    for seed in range(5):
        layers, x = seeded_stack(seed, kinds=("attn", "attn"))
        pi = [1, 0, 2, 3, 4, 5]
        y, b = run_stack(layers, x, True, mha=multi_head_attention)
        yp, bp = run_stack(layers, x[pi], True, mha=multi_head_attention)
        gap = float(np.abs(yp[-1] - y[-1]).max())
        tol = float((b[-1] + bp[-1]).max())
        require(gap > tol, f"seed {seed}: two layers left the last row unchanged ({gap:.2e})")
        evidence.append(f"two layers, seed {seed}: last row changes by {gap:.2f} > bound {tol:.1e}")
    return evidence
