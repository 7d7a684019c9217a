"""§4.1 なぜ √d_k で割るのか: the variance of <q, k> (命題 4.4), the d_k table (例 4.5), and
補題 A.1 which
its proof uses."""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from proofs.book.claims import Claim
from proofs.book.judge import judge_within, require
from proofs.book.printed import cell_agrees
from proofs.book.stated import function_of, number, table_rows
from proofs.chapters.self_attention.chapter import CHAPTER
from proofs.chapters.self_attention.tables import scaling_table
from symbolic import probability, symbols
from symbolic.identities import equal

MONTE_CARLO_SIGMAS = 5  # a fresh seed would miss by 5 standard errors with prob. < 6e-7


def _within(sample_value: float, stated: float, standard_error: float, what: str) -> str:
    gap = judge_within(
        sample_value - stated,
        MONTE_CARLO_SIGMAS * standard_error,
        f"{what}: sample {sample_value:.4f} vs stated {stated}, against "
        f"{MONTE_CARLO_SIGMAS} standard errors ({standard_error:.4f})",
    ).error
    return f"{what} {sample_value:.3f} (stated {stated}, {gap / standard_error:.1f} SE)"


@functools.cache
def dot_moments() -> tuple:
    """(distribution, d_k, DotMoments) for symbolic d_k and d_k = 1..3 and each of
    symbolic.probability's unit-variance distributions; derived once per process."""
    return tuple(
        (name, size, probability.dot_product_moments(size, distribution))
        for name, distribution in probability.DISTRIBUTIONS.items()
        for size in (symbols.d_k, 1, 2, 3)
    )


@functools.cache
def product_expectations() -> tuple:
    """(m, E[X_1...X_m] on the joint distribution, (E[X_1], ..., E[X_m])) for m = 2, 3
    independent normal, exponential and uniform variables; derived once per process."""
    from sympy.stats import E, Exponential, Normal, Uniform

    variables = [Normal("X1", 1, 2), Exponential("X2", 3), Uniform("X3", 0, 2)]
    return tuple(
        (m, probability.product_expectation(variables[:m])[0], tuple(E(x) for x in variables[:m]))
        for m in (2, 3)
    )


@CHAPTER.element(
    "prop-scaling-variance",
    "命題 4.4",
    "内積の分散は次元に比例する",
    "proposition",
    ("symbolic", "numeric"),
    claims=(
        Claim(
            r"E[\langle \boldsymbol{q}, \boldsymbol{k}\rangle] = 0",
            lhs=r"E[\langle \boldsymbol{q}, \boldsymbol{k}\rangle]",
            argument="stated_mean",
            read=number,
        ),
        Claim(
            r"\mathrm{Var}\big(\langle \boldsymbol{q}, \boldsymbol{k}\rangle\big) = "
            "d_k",
            lhs=r"\mathrm{Var}\big(\langle \boldsymbol{q}, \boldsymbol{k}\rangle\big)",
            argument="stated_variance",
            read=function_of("d_k"),
        ),
        Claim(
            r"\mathrm{Var}\!\left(\frac{\langle \boldsymbol{q}, "
            r"\boldsymbol{k}\rangle}{\sqrt{d_k}}\right) = 1",
            lhs=(
                r"\mathrm{Var}\!\left(\frac{\langle \boldsymbol{q}, "
                r"\boldsymbol{k}\rangle}{\sqrt{d_k}}\right)"
            ),
            argument="stated_scaled_variance",
            read=number,
        ),
        Claim("を独立な確率変数とし、どれも平均 0・分散 1 とする", phrase=True),
    ),
)
def prop_scaling_variance(
    stated_variance=lambda d_k: d_k, stated_mean=0, stated_scaled_variance=1
) -> list[str]:
    """E<q,k> = 0, Var<q,k> = d_k, Var(<q,k>/sqrt d_k) = 1: symbolic from
    symbolic.probability.dot_product_moments for symbolic d_k and d_k = 1..3 with normal,
    Rademacher and uniform coordinates. Monte Carlo, seeded (default_rng(2024)), 20,000 pairs for
    d_k in (1, 4, 16, 64) and three unit-variance distributions (normal, Rademacher,
    uniform on [-sqrt 3, sqrt 3]): the sample mean within 5 standard errors of 0 (SE =
    sample sd / sqrt N), the sample variances within 5 standard errors of d_k and 1
    (SE = sqrt((m_4 - s^4)/N), m_4 the sample fourth central moment)."""
    evidence = []
    # one judgement of every symbolic result, naming each that disagrees: the generic
    # derivation implies the explicit distributions' moments, so judged one after another
    # only the first could ever fail
    derivation = probability.dot_product_variance(symbols.d_k)
    disagreements = [
        f"Var(<q, k>): the step {step.claim} fails ({step.difference})"
        for step in derivation.steps
        if not step.holds
    ]
    cases = [
        ("generic moments", symbols.d_k, derivation),
        *((f"{name}, d_k = {size}", size, moments) for name, size, moments in dot_moments()),
    ]
    for label, size, moments in cases:
        for what, got, want in (
            ("mean", moments.mean, stated_mean),
            ("variance", moments.variance, stated_variance(size)),
            ("scaled variance", moments.scaled_variance, stated_scaled_variance),
        ):
            if not equal(got, want):
                disagreements.append(f"{label}: the {what} is {got}, the chapter states {want}")
    require(not disagreements, "; ".join(disagreements))
    evidence.append(
        f"symbolic: from generic moments (E = 0, E[x^2] = 1, independent), in "
        f"{len(derivation.steps)} checked steps (S^2 split into i = j and i != j "
        "terms, 補題 A.1 on each), Var<q, k> = d_k; and mean 0, variance d_k, "
        "scaled variance 1 for symbolic d_k and d_k = 1..3, normal, Rademacher and "
        "uniform coordinates"
    )
    rng = np.random.default_rng(2024)
    draws = {
        "normal": lambda size: rng.standard_normal(size),
        "Rademacher": lambda size: rng.choice([-1.0, 1.0], size=size),
        "uniform": lambda size: rng.uniform(-math.sqrt(3), math.sqrt(3), size=size),
    }
    count = 20_000
    for name, draw in draws.items():
        for d_k in (1, 4, 16, 64):
            s = (draw((count, d_k)) * draw((count, d_k))).sum(axis=1)
            m4 = float(np.mean((s - s.mean()) ** 4))
            var = float(s.var())
            se_var = math.sqrt(max(m4 - var**2, 0.0) / count)
            scaled = s / math.sqrt(d_k)
            se_scaled = se_var / d_k
            _within(float(s.mean()), stated_mean, math.sqrt(var / count), "mean")
            _within(var, stated_variance(d_k), se_var, "variance")
            _within(float(scaled.var()), stated_scaled_variance, se_scaled, "scaled variance")
        evidence.append(
            f"{name}: mean, variance and scaled variance within 5 SE for d_k = 1, 4, 16, 64"
        )
    return evidence


SCALING_TABLE = "\n".join(
    (
        r"$d_k$ | $\langle\boldsymbol{q},\boldsymbol{k}\rangle$ の分散 "
        r"| $\sqrt{d_k}$ で割ったあとの分散 | 最大の重み（割らない） | 最大の重み（割る）",
        "4 | 4.00 | 1.001 | 0.532 | 0.347",
        "16 | 16.18 | 1.011 | 0.743 | 0.353",
        "64 | 62.92 | 0.983 | 0.878 | 0.361",
        "256 | 255.84 | 0.999 | 0.939 | 0.366",
        "1024 | 1036.38 | 1.012 | 0.971 | 0.361",
    )
)


@CHAPTER.element(
    "ex-scaling-numeric",
    "例 4.5",
    "割らないと重みが 1 点に集中する",
    "example",
    ("numeric",),
    claims=(
        Claim(SCALING_TABLE, table=True, argument="printed", read=table_rows),
        Claim(r"d_k = 1024"),
        Claim(r"1 - 0.97 = 0.03"),
    ),
)
def ex_scaling_numeric(printed: tuple, table=None) -> list[str]:
    """The d_k table regenerated by proofs.tables.scaling_table with the chapter's own
    procedure (default_rng(0), 20,000 pairs, 2,000 trials of one query and 8 keys, d_k
    in turn) equals every printed cell at the precision it is printed with, and the raw mean largest
    weight increases with d_k (the concentration the example shows)."""

    got = scaling_table(dims=tuple(int(r[0]) for r in printed)) if table is None else table
    for row, values, want in zip(got.rows, got.values, printed, strict=True):
        require(
            len(want) == len(row) and all(map(cell_agrees, row, values, want)),
            f"row {row} != printed {want} at the printed precision",
        )
    raw = [float(v[3]) for v in got.values]  # the raw max weights
    require(all(a < b for a, b in itertools.pairwise(raw)), f"raw max weights {raw} not increasing")
    return [
        f"{len(printed)} rows equal the printed cells: " + "; ".join(" ".join(r) for r in got.rows)
    ]


@CHAPTER.element(
    "lem-product-expectation",
    "補題 A.1",
    "独立な可積分確率変数の積の期待値（m 個）",
    "lemma",
    ("symbolic", "numeric"),
    claims=(
        Claim(r"E[X_1 X_2 \cdots X_m] = E[X_1]\,E[X_2]\cdots E[X_m]"),
        Claim(r"m \ge 2"),
        Claim("を独立な確率変数で、どれも可積分とする", phrase=True),
    ),
)
def lem_product_expectation(stated=math.prod) -> list[str]:
    """E[X_1...X_m] = prod E[X_i] for independent integrable X_i: symbolic, E of the
    product on the joint distribution (symbolic.probability.product_expectation, m = 2, 3:
    normal, exponential, uniform) against stated(E[X_1], ..., E[X_m]); Monte Carlo,
    seeded (default_rng(7)), 200,000 draws of m = 2..5 independent variables
    (exponential, uniform, normal with non-zero means), the sample mean of the product
    within 5 standard errors of stated(means)."""
    evidence = []
    for m, joint, means in product_expectations():
        require(
            equal(joint, stated(means)),
            f"m = {m}: E[X_1...X_m] = {joint} but the stated value is {stated(means)}",
        )
    evidence.append(
        "symbolic: E[X_1 X_2] and E[X_1 X_2 X_3] on the joint distribution of "
        "independent normal, exponential and uniform variables = the stated value"
    )
    rng = np.random.default_rng(7)
    count = 200_000
    makers = [
        (lambda: rng.exponential(2.0, count), 2.0),
        (lambda: rng.uniform(0.5, 1.5, count), 1.0),
        (lambda: rng.normal(1.5, 1.0, count), 1.5),
        (lambda: rng.normal(-0.5, 0.5, count), -0.5),
        (lambda: rng.uniform(1.0, 3.0, count), 2.0),
    ]
    for m in range(2, 6):
        product = np.prod([make() for make, _ in makers[:m]], axis=0)
        want = stated([mean for _, mean in makers[:m]])
        evidence.append(
            f"m = {m}: "
            + _within(
                float(product.mean()),
                want,
                float(product.std()) / math.sqrt(count),
                "sample mean of the product",
            )
        )
    return evidence
