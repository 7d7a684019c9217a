"""The Transformer-block chapter: every element's check passes, and rejects wrong variants.

Test names carry the element id with underscores (`pytest -k prop_layer_norm_jacobian`).
"""

import ast
import math
import re
from pathlib import Path

import numpy as np
import pytest
import sympy
from hypothesis import Phase, settings

import proofs.transformer_block as tb
from numeric.layer_norm import layer_norm, layer_norm_jacobian
from proofs.registry import CheckFailed, load_all

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


@pytest.fixture(autouse=True)
def no_shrinking(request):
    """Wrong variants fail on the first falsifying example: skip Hypothesis' shrinking
    (it would only look for a smaller counterexample) in the tests that expect CheckFailed."""
    if "rejects" not in request.node.name:
        yield
        return
    current = settings.default
    settings.register_profile("no-shrinking", parent=current,
                              phases=(Phase.explicit, Phase.generate))
    settings.load_profile("no-shrinking")
    try:
        yield
    finally:
        settings.register_profile("restored", parent=current)
        settings.load_profile("restored")


def unbiased_layer_norm(x, gamma=None, beta=None, eps=1e-5):
    """A wrong LayerNorm: divides by the unbiased variance (d - 1 in the denominator)."""
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    c = x - x.mean(axis=-1, keepdims=True)
    var = (c * c).sum(axis=-1, keepdims=True) / (d - 1)
    if eps == 0 and not var.all():
        raise ValueError("constant row")
    y = c / np.sqrt(var + eps)
    return y * (1 if gamma is None else gamma) + (0 if beta is None else beta)


# 定義 2.1 ------------------------------------------------------------------------------


@pytest.mark.numeric
def test_def_layer_norm_holds():
    assert tb.def_layer_norm()


@pytest.mark.numeric
def test_def_layer_norm_rejects_unbiased_variance():
    with pytest.raises(CheckFailed, match="differs from the definition"):
        tb.def_layer_norm(normalise=unbiased_layer_norm)


@pytest.mark.numeric
def test_def_layer_norm_rejects_silent_nan_on_constant_row():
    def nan_on_constant(x, gamma=None, beta=None, eps=1e-5):
        x = np.asarray(x, dtype=float)
        if eps == 0 and np.ptp(x) == 0:
            return np.full_like(x, np.nan)
        return layer_norm(x, gamma, beta, eps)

    with pytest.raises(CheckFailed, match="constant row"):
        tb.def_layer_norm(normalise=nan_on_constant)


def test_def_layer_norm_error_bound_grows_with_the_condition():
    well = tb.layer_norm_error_bound(np.array([1.0, 2.0, 3.0, 6.0]))
    ill = tb.layer_norm_error_bound(np.array([1.0, 1.0 + 1e-6, 1.0, 1.0]))
    assert ill.max() > 1e5 * well.max()


# 定義 2.2 ------------------------------------------------------------------------------


@pytest.mark.numeric
def test_def_transformer_block_holds():
    assert tb.def_transformer_block()


@pytest.mark.numeric
def test_def_transformer_block_rejects_a_block_without_residual():
    def no_residual(x, params, causal=True, activation="gelu", eps=1e-5):
        return tb.pre_ln_block(x, params, causal, activation, eps) - x

    with pytest.raises(CheckFailed, match="Pre-LN"):
        tb.def_transformer_block(pre_ln=no_residual)


@pytest.mark.numeric
def test_def_transformer_block_rejects_swapped_layouts():
    with pytest.raises(CheckFailed, match="Pre-LN"):
        tb.def_transformer_block(pre_ln=tb.post_ln_block)


@pytest.mark.numeric
def test_def_transformer_block_rejects_mlp_without_hidden_bias():
    def no_b1(x, params, activation="gelu"):
        return tb.mlp(x, {k: v for k, v in params.items() if k != "b_1"}, activation)

    with pytest.raises(CheckFailed, match="MLP row"):
        tb.def_transformer_block(network=no_b1)


# 命題 3.1 ------------------------------------------------------------------------------


@pytest.mark.symbolic
@pytest.mark.numeric
def test_prop_layer_norm_invariance_holds():
    assert tb.prop_layer_norm_invariance()


@pytest.mark.numeric
def test_prop_layer_norm_invariance_rejects_unbiased_variance():
    with pytest.raises(CheckFailed, match="mean, variance"):
        tb.prop_layer_norm_invariance(normalise=unbiased_layer_norm, widths=())


@pytest.mark.numeric
def test_prop_layer_norm_invariance_rejects_a_map_without_centring():
    def uncentred(x, gamma=None, beta=None, eps=1e-5):
        x = np.asarray(x, dtype=float)
        return x / np.sqrt(x.var(axis=-1, keepdims=True) + eps)

    with pytest.raises(CheckFailed):
        tb.prop_layer_norm_invariance(normalise=uncentred, widths=())


@pytest.mark.symbolic
def test_prop_layer_norm_invariance_rejects_unbiased_variance_symbolically():
    def unbiased(x, eps=0):
        return tb.symbolic_layer_norm.unbiased_layer_norm(x, eps)

    with pytest.raises(CheckFailed, match="variance of LN"):
        tb.prop_layer_norm_invariance(symbolic_normalise=unbiased, widths=(3,))


# 例 3.2 --------------------------------------------------------------------------------


def test_ex_layer_norm_scale_holds_and_reports_the_truncated_square():
    evidence = tb.ex_layer_norm_scale()
    assert any("FINDING" in line and "1.1428" in line for line in evidence)


def test_ex_layer_norm_scale_printed_numbers():
    x = np.array([1.0, 2.0, 3.0, 6.0])
    y = layer_norm(x, eps=0.0)
    assert np.round(y, 4).tolist() == [-1.069, -0.5345, 0.0, 1.6036]
    assert np.round(layer_norm(3 * x + 5, eps=0.0), 4).tolist() == [-1.069, -0.5345, 0.0, 1.6036]
    assert round(float(x.std()), 4) == 1.8708
    assert round(float((3 * x + 5).std()), 4) == 5.6125
    assert round(float(np.linalg.norm(y)), 4) == 2.0


def test_ex_layer_norm_scale_rejects_a_wrong_printed_value():
    wrong = dict(tb.EXAMPLE_3_2, sigma=tb.Printed(1.8709, 4))
    with pytest.raises(CheckFailed, match="sigma"):
        tb.ex_layer_norm_scale(stated=wrong)
    wrong = dict(tb.EXAMPLE_3_2, output=tuple(tb.Printed(v, 4) for v in (-1.069, -0.5345, 0, 1.6)))
    with pytest.raises(CheckFailed, match="entry"):
        tb.ex_layer_norm_scale(stated=wrong)


def test_ex_layer_norm_scale_rejects_unbiased_variance():
    with pytest.raises(CheckFailed):
        tb.ex_layer_norm_scale(normalise=unbiased_layer_norm)


# 命題 3.3 ------------------------------------------------------------------------------


@pytest.mark.symbolic
@pytest.mark.numeric
def test_prop_layer_norm_jacobian_holds():
    assert tb.prop_layer_norm_jacobian()


def missing_yy(x, eps=0.0):
    """A wrong Jacobian: (I - 11^T/d)/sigma, without the yy^T/d term."""
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    return (np.eye(d) - 1.0 / d) / np.sqrt(x.var() + eps)


@pytest.mark.numeric
def test_prop_layer_norm_jacobian_rejects_missing_yy_t_numerically():
    with pytest.raises(CheckFailed, match="J differs"):
        tb.prop_layer_norm_jacobian(jacobian=missing_yy, widths=(), property_widths=())


@pytest.mark.numeric
def test_prop_layer_norm_jacobian_rejects_a_wrong_scale():
    def doubled(x, eps=0.0):
        return 2 * layer_norm_jacobian(x, eps)

    with pytest.raises(CheckFailed, match="J differs"):
        tb.prop_layer_norm_jacobian(jacobian=doubled, widths=(), property_widths=())


@pytest.mark.symbolic
def test_prop_layer_norm_jacobian_rejects_missing_yy_t_symbolically():
    def stated(y, sigma):
        d = y.rows
        return (sympy.eye(d) - sympy.ones(d, d) / d) / sigma

    def stated_entry(y_i, y_j, delta, sigma, d):
        return (delta - 1 / d) / sigma

    with pytest.raises(CheckFailed, match="symbolic d"):
        tb.prop_layer_norm_jacobian(stated_entry=stated_entry, widths=(2,), property_widths=())
    with pytest.raises(CheckFailed, match="d = 3"):
        tb.prop_layer_norm_jacobian(stated=stated, widths=(3,), property_widths=())


def test_prop_layer_norm_jacobian_near_constant_rows():
    x = np.array([2.0, 2.0 + 2**-40, 2.0, 2.0])
    got = layer_norm_jacobian(x)
    assert np.abs(got).max() > 1e10  # 1/sigma: the gradient blows up near constant rows
    assert np.abs(got @ np.ones(4)).max() <= 4 * tb.layer_norm_jacobian_error_bound(x)
    with pytest.raises(ValueError, match="constant"):
        layer_norm_jacobian(np.full(4, 2.0))


# The chapter as a whole -----------------------------------------------------------------


def chapter_ids() -> list[tuple[str, str]]:
    """(number, id) of every row of the seeds' README table for this chapter."""
    readme = SEEDS / "README.md"
    if not readme.is_file():
        pytest.skip(f"{readme} is not here: the chapter's element list cannot be read")
    rows, inside = [], False
    row = re.compile(r"^\| (\S+ [\dA-Z.]+) \| ((?:def|prop|lem|thm|cor|ex|rem|exr)-[a-z0-9-]+) \|")
    for line in readme.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            inside = "Transformer block" in line
        match = row.match(line)
        if inside and match:
            rows.append((match.group(1), match.group(2)))
    return rows


def test_every_element_of_the_chapter_is_registered_with_its_number():
    registry = load_all()
    rows = chapter_ids()
    assert len(rows) == 21
    for number, id_ in rows:
        assert id_ in registry, id_
        assert registry[id_].number == number, id_
        assert registry[id_].chapter == "transformer-block", id_


def test_selection_by_id_is_unambiguous():
    ids = [e.test_name for e in load_all().values()]
    names = [node.name for node in ast.parse(Path(__file__).read_text(encoding="utf-8")).body
             if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]
    for name in names:
        carried = [i for i in ids if i in name]
        assert len(carried) <= 1, (name, carried)
    for _, id_ in chapter_ids():
        assert any(id_.replace("-", "_") in name for name in names), id_
    assert not any(i in Path(__file__).name for i in ids)
    assert math.isfinite(tb.U)
