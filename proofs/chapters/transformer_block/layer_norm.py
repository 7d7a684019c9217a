"""§3 層正規化: invariance (命題 3.1), the worked example (例 3.2), the Jacobian (命題 3.3)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import mpmath
import numpy as np
import sympy
from hypothesis import example, given
from hypothesis import strategies as st

from numeric.error_bounds import (
    U,
    gamma,
    layer_norm_error_bound,
    layer_norm_jacobian_error_bound,
)
from numeric.layer_norm import layer_norm, layer_norm_jacobian
from proofs.book.claims import Claim
from proofs.book.judge import (
    Cases,
    CheckFailed,
    Finding,
    Verdict,
    finding,
    judge_cases,
    judge_within,
    require,
    weigh,
)
from proofs.book.profiles import scaled
from proofs.book.stated import (
    affine_coefficients,
    integers,
    matrix_formula,
    member,
    printed,
    printed_tuple,
    prose_integers,
    radicand_terms,
)
from proofs.chapters.transformer_block.chapter import CHAPTER
from proofs.chapters.transformer_block.strategies import vectors
from proofs.evidence.anchors import layer_norm_off_definition
from proofs.evidence.measures import spread
from proofs.evidence.reference import mp_central_jacobian, mp_error, mp_layer_norm
from symbolic import layer_norm as symbolic_layer_norm
from symbolic import symbols as sym
from symbolic.identities import equal, is_zero


def _moments_bound(x: np.ndarray) -> tuple[float, float, float]:
    """Bounds on the float errors of mean(y), var(y) and ||y|| for y = fl(LN(x)) (gamma = 1):
    entries err by dy (`layer_norm_error_bound`), |y_j| <= sqrt d, sums by gamma_{d+1}."""
    d = x.size
    dy = float(layer_norm_error_bound(x).max())
    root = math.sqrt(d)
    return (
        dy + gamma(d + 1) * root,
        2 * root * dy + dy * dy + 2 * gamma(d + 2),
        root * dy + gamma(d + 2) * root,
    )


@CHAPTER.element(
    "prop-layer-norm-invariance",
    "命題 3.1",
    "層正規化はスケールと平行移動に不変",
    "proposition",
    ("symbolic", "numeric", "witness"),
    claims=(
        Claim(r"\varepsilon = 0"),
        Claim(r"\boldsymbol{\gamma} = \boldsymbol{1}"),
        Claim(r"\boldsymbol{\beta} = \boldsymbol{0}"),
        Claim(
            r"\mathrm{LN}(a\boldsymbol{x} + b\boldsymbol{1}) = "
            r"\mathrm{LN}(\boldsymbol{x})",
        ),
        Claim(r"\boldsymbol{y} := \mathrm{LN}(\boldsymbol{x})"),
        Claim(r"\mu(\boldsymbol{y}) = 0"),
        Claim(r"\sigma^2(\boldsymbol{y}) = 1"),
        Claim(r"\|\boldsymbol{y}\| = \sqrt{d}"),
        Claim(r"a > 0"),
    ),
)
def prop_layer_norm_invariance(
    normalise: Callable = layer_norm,
    symbolic_normalise: Callable = symbolic_layer_norm.layer_norm,
    widths: tuple[int, ...] = (2, 3, 4, 5),
    indexed_normalise: Callable = symbolic_layer_norm.indexed_layer_norm,
) -> list[str]:
    """(1) LN(a x + b 1) = LN(x) for a > 0, b real; (2) with gamma = 1, beta = 0, eps = 0:
    mean 0, variance 1, norm sqrt d. Symbolic: for d in `widths` explicit variables, the
    difference normalise(a x + b 1) - normalise(x) with a > 0 and the moments of
    normalise(x) reduce to 0, 1, sqrt d (judge: symbolic.identities); for symbolic d,
    sum y_k = 0 and sum y_k^2 = d from `indexed_normalise` (symbolic.layer_norm's
    indexed_layer_norm, summed by output_sums);
    for a = -1 the output is -LN(x), so the hypothesis a > 0 is needed. Numeric, on Hypothesis-drawn
    rows (d = 2..16, entries in [-100, 100], sigma >= 1e-3 max|x|), a in [0.01, 100],
    b = t a sigma(x) with t in [-100, 100] (so that a x + b 1 is as well conditioned,
    max|.| / sigma <= 1100; a larger b can round a x + b 1 to a constant vector, where LN
    is undefined: tested apart): |LN(fl(a x + b)) - LN(x)| within the two rounding bounds plus the
    input rounding 2u(a max|x| + |b|) times ||J|| = 1/sigma(ax + b) times sqrt d; the
    moments within their rounding bounds; and LN(-a x + b) = -LN(x), a witness that the
    statement fails for a < 0 (the two differ by 2 max|LN(x)| >= 2). On the same draws
    `normalise` is 定義 2.1's LN at 50 digits within its rounding bound, so the
    properties are shown of the defined map."""
    evidence = []
    for d in widths:
        x = symbolic_layer_norm.variables(d)
        y = symbolic_normalise(x)
        require(
            is_zero(symbolic_layer_norm.invariance_difference(d, symbolic_normalise)),
            f"LN(a x + b 1) - LN(x) does not reduce to 0 for d = {d}",
        )
        require(is_zero(symbolic_normalise(-x) + y), f"LN(-x) != -LN(x) for d = {d}")
        require(is_zero(symbolic_layer_norm.mean(y)), f"mean of LN(x) is not 0 for d = {d}")
        require(
            equal(symbolic_layer_norm.variance(y), 1), f"variance of LN(x) is not 1 for d = {d}"
        )  # so ||y||^2 = d (var + mu^2) = d
    evidence.append(
        f"symbolic, d = {', '.join(map(str, widths))}: LN(a x + b 1) - LN(x) = 0 "
        "(a > 0), LN(-x) = -LN(x), mean 0, variance 1, ||LN(x)||^2 = d"
    )
    total, squares = symbolic_layer_norm.output_sums(indexed_normalise)
    require(
        is_zero(total) and is_zero(squares - sym.d),
        f"symbolic d: sum y_k = {total}, sum y_k^2 = {squares}, not 0 and d",
    )
    evidence.append("symbolic d: sum y_k = 0 and sum y_k^2 = d, so mean 0, variance 1, norm sqrt d")
    # measured on every draw, then judged in this order: invariance, the moments, the map
    invariance: list[Verdict] = []
    moments: list[Verdict] = []
    defined: list[Verdict] = []
    negated: list[float] = []  # how far LN(-a x + b 1) is from LN(x): the witness for a > 0

    @scaled(1.0)
    @given(vectors(), st.floats(0.01, 100), st.floats(-100, 100))
    def invariant(x, scale, units):
        d = x.size
        sigma = spread(x)
        shift = units * scale * sigma  # b in units of a sigma: a x + b keeps condition <= 1100
        y = normalise(x, eps=0.0)
        for sign in (1, -1):
            moved = sign * scale * x + shift
            bound = (
                layer_norm_error_bound(x)
                + layer_norm_error_bound(moved)
                + math.sqrt(d) * 2 * U * (scale * np.abs(x).max() + abs(shift)) / (scale * sigma)
            )
            invariance.append(
                weigh(
                    normalise(moved, eps=0.0) - sign * y,
                    bound,
                    f"LN({sign * scale} x + {shift}) against {sign} LN(x) at x = {x.tolist()}",
                )
            )
        negated.append(float(np.abs(normalise(-scale * x + shift, eps=0.0) - y).max()))
        moments.append(
            weigh(
                (y.mean(), y.var() - 1, np.linalg.norm(y) - math.sqrt(d)),
                _moments_bound(x),
                f"x = {x.tolist()}",
            )
        )
        defined.append(weigh(*layer_norm_off_definition(normalise, x), f"x = {x.tolist()}"))

    invariant()
    invariant_cases = judge_cases(
        invariance, "LN(a x + b 1) against LN(x), LN(-a x + b 1) against -LN(x)"
    )
    moment_cases = judge_cases(moments, "mean, variance - 1, norm - sqrt d of LN(x)")
    judge_cases(defined, "normalise is not 定義 2.1's LN at 50 digits")
    evidence.append(
        f"numeric: LN(a x + b 1) = LN(x) and LN(-a x + b 1) = -LN(x) within the "
        f"rounding bounds (worst gap / bound = {invariant_cases.ratio:.2e}); "
        f"LN(-a x + b 1) differs from LN(x) by at least {min(negated):.3f} (max "
        f"entry) at every drawn point, so a > 0 is needed; mean 0, variance 1, norm "
        f"sqrt d to {moment_cases.largest:.1e}"
    )
    return evidence


@CHAPTER.element(
    "ex-layer-norm-scale",
    "例 3.2",
    "3 倍しても出力は変わらない",
    "example",
    ("symbolic", "numeric"),
    claims=(
        Claim(r"\boldsymbol{\gamma} = \boldsymbol{1}"),
        Claim(r"\boldsymbol{\beta} = \boldsymbol{0}"),
        Claim(r"\varepsilon = 0"),
        Claim(
            r"\boldsymbol{x} = (1, 2, 3, 6)",
            lhs=r"\boldsymbol{x}",
            argument="stated.x",
            read=integers,
        ),
        Claim(r"\mu = 3", lhs=r"\mu", argument="stated.mean", read=printed),
        Claim(
            r"\sigma^2 = \frac14(4 + 1 + 0 + 9) = 3.5",
            lhs=r"\sigma^2",
            argument="stated.variance",
            read=member(2, printed),
        ),
        Claim(
            r"\sigma = 1.8708",
            lhs=r"\sigma",
            argument="stated.sigma",
            read=printed,
        ),
        Claim(
            r"\mathrm{LN}(\boldsymbol{x}) = \frac{(-2, -1, 0, 3)}{1.8708} = "
            r"(-1.0690,\ -0.5345,\ 0,\ 1.6036)",
            lhs=r"\mathrm{LN}(\boldsymbol{x})",
            argument="stated.output",
            read=printed_tuple,
        ),
        Claim(
            r"3\boldsymbol{x} + 5\cdot\boldsymbol{1} = (8, 11, 14, 23)",
            argument="stated.shift",
            read=affine_coefficients,
        ),
        Claim(
            r"\mu = 14",
            lhs=r"\mu",
            occurrence=2,
            argument="stated.scaled_mean",
            read=printed,
        ),
        Claim(
            r"\sigma^2 = \frac14(36 + 9 + 0 + 81) = 31.5 = 9 \times 3.5",
            lhs=r"\sigma^2",
            occurrence=2,
            argument="stated.scaled_variance",
            read=member(2, printed),
        ),
        Claim(
            r"\sigma = 5.6125",
            lhs=r"\sigma",
            occurrence=2,
            argument="stated.scaled_sigma",
            read=printed,
        ),
        Claim(
            r"\sqrt{1.1428 + 0.2857 + 0 + 2.5714} = \sqrt{4} = 2 = \sqrt{d}",
            argument="stated.norm",
            read=member(2, printed),
        ),
        Claim(
            r"\sqrt{1.1428 + 0.2857 + 0 + 2.5714} = \sqrt{4} = 2 = \sqrt{d}",
            argument="stated.squares",
            read=radicand_terms,
        ),
    ),
)
def ex_layer_norm_scale(stated: Mapping, normalise: Callable = layer_norm) -> list[str | Finding]:
    """x = (1, 2, 3, 6) and 3x + 5: the mean, variance, sigma and LN computed exactly
    (SymPy rationals and square roots) and compared with the printed numbers at their
    printed precision; LN(3x + 5) = LN(x) and ||LN(x)|| = 2 = sqrt d exactly; the numeric
    `normalise` (eps = 0) agrees with the exact values to 4 decimals."""
    x = sympy.Matrix(stated["x"])
    a, b = stated["shift"]
    moved = a * x + b * sympy.ones(x.rows, 1)
    evidence: list[str | Finding] = []
    for label, vec, keys in (
        ("x", x, ("mean", "variance", "sigma")),
        (f"{a}x + {b}", moved, ("scaled_mean", "scaled_variance", "scaled_sigma")),
    ):
        mu, var = symbolic_layer_norm.mean(vec), symbolic_layer_norm.variance(vec)
        for key, value in zip(keys, (mu, var, sympy.sqrt(var)), strict=True):
            require(
                stated[key].agrees(float(value)),
                f"{key} of {label}: printed {stated[key].value}, exact {value} = "
                f"{float(value):.6f}",
            )
        evidence.append(
            f"{label}: mu = {mu}, sigma^2 = {var}, sigma = {sympy.sqrt(var)} "
            f"= {float(sympy.sqrt(var)):.4f}"
        )
    y = symbolic_layer_norm.layer_norm(x)
    require(equal(symbolic_layer_norm.layer_norm(moved), y), "LN(3x + 5) != LN(x)")
    numeric_y = normalise(np.array(stated["x"], dtype=float), eps=0.0)
    for shown, exact, computed in zip(stated["output"], y, numeric_y, strict=True):
        require(
            shown.agrees(float(exact)) and shown.agrees(float(computed)),
            f"LN(x) entry printed {shown.value}, exact {exact} = {float(exact):.6f}, "
            f"numeric {computed:.6f}",
        )
    evidence.append(
        f"LN(x) = LN(3x + 5) = {[str(v) for v in y]} = "
        f"{[round(float(v), 4) for v in y]}, as printed"
    )
    norm = sympy.sqrt(sum(v**2 for v in y))
    require(
        equal(norm**2, 4) and stated["norm"].agrees(float(norm)),
        f"||LN(x)|| = {norm}, printed {stated['norm'].value}",
    )
    squares = [sympy.nsimplify(v**2) for v in y]
    evidence.append(f"||LN(x)|| = sqrt({' + '.join(map(str, squares))}) = 2 = sqrt d exactly")
    for shown, exact in zip(stated["squares"], squares, strict=True):
        if shown.agrees(float(exact)):
            continue
        places = shown.decimals
        require(
            shown.truncates(float(exact)),
            f"the square {exact} = {float(exact):.6f} is printed {shown.value}",
        )
        printed = f"{shown.value:.{places}f}"
        evidence.append(
            finding(
                printed,
                f"the chapter prints {printed} for {exact} = "
                f"{float(exact):.6f}..., which rounds to {float(exact):.{places}f}: the "
                f"printed value is truncated, not rounded (the exact squares still sum to "
                f"{x.rows} = d)",
            )
        )
    return evidence


def _mp_jacobian(x: np.ndarray, eps: float = 0.0) -> list[list]:
    """d LN(x) / dx by mpmath central differences at 50 digits (step 1e-20 sigma(x): the
    O((h / sigma)^2) truncation, about 1e-40 relative, is far below float64's resolution)."""
    d = x.size
    values = [mpmath.mpf(v) for v in x]
    mu = mpmath.fsum(values) / d
    step = mpmath.mpf("1e-20") * mpmath.sqrt(mpmath.fsum((v - mu) ** 2 for v in values) / d)
    return mp_central_jacobian(lambda v: mp_layer_norm(v, eps=eps), [float(v) for v in x], step)


@CHAPTER.element(
    "prop-layer-norm-jacobian",
    "命題 3.3",
    "層正規化のヤコビ行列",
    "proposition",
    ("symbolic", "numeric", "high precision"),
    claims=(
        Claim(r"\varepsilon = 0"),
        Claim(r"\boldsymbol{\gamma} = \boldsymbol{1}"),
        Claim(r"\boldsymbol{\beta} = \boldsymbol{0}"),
        Claim(r"a > 0"),
        Claim(r"\sigma := \sqrt{\sigma^2(\boldsymbol{x})}"),
        Claim(r"\boldsymbol{y} := \mathrm{LN}(\boldsymbol{x})"),
        Claim(
            r"J(\boldsymbol{x}) = \frac{1}{\sigma}\Big( I - "
            r"\frac{1}{d}\boldsymbol{1}\boldsymbol{1}^{\mathsf{T}} - "
            r"\frac{1}{d}\boldsymbol{y}\boldsymbol{y}^{\mathsf{T}} \Big)",
            lhs=r"J(\boldsymbol{x})",
            argument="stated",
            read=matrix_formula(y="bold y", sigma="sigma"),
        ),
        Claim(r"J(\boldsymbol{x})\boldsymbol{1} = \boldsymbol{0}"),
        Claim(
            r"J(\boldsymbol{x})\big(\boldsymbol{x} - "
            r"\mu(\boldsymbol{x})\boldsymbol{1}\big) = \boldsymbol{0}",
        ),
        Claim(r"J(\boldsymbol{x})\boldsymbol{v} = \boldsymbol{v}/\sigma"),
        Claim(r"J(a\boldsymbol{x}) = J(\boldsymbol{x})/a"),
        Claim(
            r"W := \mathrm{span}\{\boldsymbol{1},\ \boldsymbol{x} - "
            r"\mu(\boldsymbol{x})\boldsymbol{1}\}",
        ),
        Claim(r"は $W$ の直交補空間 $W^{\perp}$ への直交射影である", phrase=True),
        Claim(
            "その 2 方向の微分が 0 になります",
            phrase=True,
            where="text",
            argument="vanishing",
            read=prose_integers,
        ),
    ),
)
def prop_layer_norm_jacobian(
    vanishing: tuple[int, ...],
    jacobian: Callable = layer_norm_jacobian,
    stated: Callable = symbolic_layer_norm.chapter_jacobian,
    stated_entry: Callable = symbolic_layer_norm.chapter_entry,
    widths: Sequence[int] = (*range(2, 17), 32, 64),
    property_widths: tuple[int, ...] = (2, 3, 4, 8, 16),
    normalise: Callable = layer_norm,
) -> list[str]:
    """J(x) = (1/sigma)(I - 11^T/d - yy^T/d). Symbolic: derived by differentiating LN for
    symbolic d (IndexedBase sums, symbolic.layer_norm; compared with the entry formula
    `stated_entry`, and J1 = 0, Jy = 0, sigma J symmetric, idempotent, of trace d - 2
    for that entry formula) and in explicit variables for d in `widths` (d = 2..16, about
    20 s together), compared with `stated` (judge: symbolic.identities); for d in
    `property_widths`: J1 = 0, J(x - mu 1) = 0, sigma J symmetric and idempotent of trace
    d - 2 (the orthogonal projection onto W-perp), J(a x) = J(x)/a; J = 0 at d = 2.
    Numeric, on Hypothesis-drawn rows (d = 2..8, entries in [-100, 100],
    sigma >= 1e-3 max|x|): `jacobian` against mpmath central differences of 定義 2.1 at
    50 digits within `layer_norm_jacobian_error_bound`; J1 = 0 and J(x - mu 1) = 0
    within that bound times the vectors' 1-norms; the eigenvalues of sigma J are d - k
    ones and k zeros (Weyl: within d times the entry bound times sigma), where
    `vanishing` = (k, 0) is the text's 「その 2 方向の微分が 0」 (J 1 and J(x - mu 1) are
    judged against 0 times the vector); J(a x) = J(x)/a for a = 2^k, k in -8..8 (a x exact
    in float); at d = 2, J = 0 and `normalise`(x) = +-(1, -1). Near-constant rows, outside
    the domain: with sigma = 1e-9 max|x| the NumPy Jacobian still matches mpmath within the
    same bound (which grows with max|x| / sigma), a constant row with eps = 0 is a
    ValueError, and with eps > 0 J = (I - 11^T/d)/sqrt(eps)."""
    vanishing_directions, derivative = vanishing
    evidence = []
    # one judgement: the properties pin sigma J (the projection onto the complement of 1
    # and y), so the stated entry has them exactly when it equals the derived one
    general = symbolic_layer_norm.derive_layer_norm_jacobian_general(stated_entry)
    properties = symbolic_layer_norm.general_jacobian_properties(stated_entry)
    failing = [] if general.holds else [f"dLN/dx differs from the stated J by {general.difference}"]
    failing += [
        f"{name} fails for the stated J ({defect})"
        for name, defect in properties.items()
        if not is_zero(defect)
    ]
    require(not failing, f"symbolic d: {'; '.join(failing)}")
    evidence.append(
        "symbolic d: the derived entry (delta_ij - 1/d - y_i y_j/d)/sigma equals "
        f"the stated one, which has {', '.join(properties)}"
    )
    for d in widths:
        derivation = symbolic_layer_norm.derive_layer_norm_jacobian(d, stated)
        require(derivation.holds, f"d = {d}: dLN/dx differs from the stated J")
    if widths:
        evidence.append(f"explicit d = {min(widths)}..{max(widths)}: dLN/dx equals the stated J")
    wanted = (
        "J 1 = 0",
        "J c = 0",
        "s J symmetric",
        "s J idempotent",
        "tr(s J) = d - 2",
        "J(a x) = J(x) / a",
    )
    for d in property_widths:
        for which, formula in (("derived", None), ("stated", stated)):
            holds = symbolic_layer_norm.jacobian_properties(d, stated=formula).holds
            for name in wanted + (("J = 0",) if d == 2 else ()):
                require(holds[name], f"d = {d}: {name} does not hold for the {which} J")
    evidence.append(
        f"symbolic, d = {', '.join(map(str, property_widths))}, for the derived and "
        "the stated J: J1 = 0, J(x - mu 1) = 0, sigma J symmetric, idempotent, "
        "trace d - 2, J(a x) = J(x)/a; d = 2: J = 0"
    )
    # judged draw by draw, each clause before the next (the mpmath values last): a wrong J
    # fails at its own clause before a later draw could make an earlier clause fail too
    eigenvalues: list[Verdict] = []
    scalings: list[Verdict] = []
    values: list[Verdict] = []

    @scaled(0.5)
    @given(vectors(2, 8), st.integers(-8, 8))
    @example(np.array([0.75, -2.5]), 3)  # d = 2 on every run, whatever widths are drawn
    def numeric_properties(x, k):
        # the properties first, each with its own tolerance, then the values against
        # mpmath (which, within its bound, implies them all): so each clause can fail
        d = x.size
        got = jacobian(x)
        bound = float(layer_norm_jacobian_error_bound(x))
        ones, centred = np.ones(d), x - x.mean()
        for name, v in (("1", ones), ("x - mu 1", centred)):
            # |J v| <= |(J - fl J) v| + rounding of the product, |v| bounded by its 1-norm
            # (centred entries err by 3 gamma_{d+1} max|x| and J by at most 3/sigma)
            v_err = 3 * gamma(d + 1) * np.abs(x).max() if name != "1" else 0.0
            tol = (bound + gamma(d) * np.abs(got).max()) * np.abs(v).sum() + 3 / spread(
                x
            ) * v_err * d
            judge_within(
                got @ v - derivative * v,
                tol,
                f"|J ({name}) - {derivative} ({name})| at x = {x.tolist()}",
            )
        sigma = spread(x)
        eigen = np.sort(np.linalg.eigvalsh(sigma * got))
        require(vanishing_directions <= d, f"{vanishing_directions} directions in d = {d}")
        want = np.array([0.0] * vanishing_directions + [1.0] * (d - vanishing_directions))
        eigenvalues.append(
            judge_within(
                eigen - want,
                d * sigma * bound + gamma(d) * d,
                f"eigenvalues of sigma J are {eigen}, not {want}",
            )
        )
        a = 2.0**k
        # times a = 2^k, exactly: a J(a x) = J(x) to 2 bound
        scalings.append(
            judge_within(
                a * (jacobian(a * x) - got / a),
                2 * bound,
                f"J({a} x) - J(x)/{a}, times {a}, at x = {x.tolist()}",
            )
        )
        if d == 2:
            judge_within(got, bound, f"d = 2 but J = {got}")
            y = normalise(x, eps=0.0)  # (1, -1) or (-1, 1): the only outputs at d = 2
            corner = np.sign(x[0] - x[1]) * np.array([1.0, -1.0])
            judge_within(y - corner, layer_norm_error_bound(x), f"d = 2: LN(x) = {y}, not {corner}")
        with mpmath.workdps(50):
            err = mp_error(got, _mp_jacobian(x))
        values.append(judge_within(err, bound, f"J differs from mpmath's at x = {x.tolist()}"))

    numeric_properties()
    evidence.append(
        f"numeric J equals mpmath's 50-digit central differences within the "
        f"rounding bound (worst error / bound = {Cases(tuple(values)).ratio:.2e}); "
        f"J1 = 0, J(x - mu 1) = 0; eigenvalues of sigma J: d - {vanishing_directions} "
        f"ones, {vanishing_directions} zeros (to "
        f"{Cases(tuple(eigenvalues)).largest:.1e}); a J(a x) = J(x) (to "
        f"{Cases(tuple(scalings)).largest:.1e}); at d = 2, J = 0 and LN(x) = +-(1, -1)"
    )
    rng = np.random.default_rng(0)
    x = 3.0 + 1e-9 * 3.0 * rng.standard_normal(6)
    got = jacobian(x)
    bound = float(layer_norm_jacobian_error_bound(x))
    with mpmath.workdps(50):
        err = mp_error(got, _mp_jacobian(x))
    near = judge_within(err, bound, "near-constant row: J differs from mpmath's")
    evidence.append(
        f"near-constant row (sigma / max|x| = {x.std() / 3:.1e}): |J| = "
        f"{np.abs(got).max():.2e}, error {near.largest:.1e} <= bound {bound:.1e}"
    )
    try:
        jacobian(np.full(4, 1.5))
    except ValueError:
        evidence.append("a constant row with eps = 0 is a ValueError")
    else:
        raise CheckFailed("the Jacobian of a constant row with eps = 0 did not raise")
    eps = 1e-2
    got = jacobian(np.full(4, 1.5), eps=eps)
    want = (np.eye(4) - 0.25) / math.sqrt(eps)
    judge_within(
        got - want,
        8 * U / math.sqrt(eps),
        f"constant row, eps = {eps}: J = {got}, not (I - 11^T/d)/sqrt(eps)",
    )
    evidence.append("a constant row with eps = 1e-2 gives J = (I - 11^T/d)/sqrt(eps)")
    return evidence
