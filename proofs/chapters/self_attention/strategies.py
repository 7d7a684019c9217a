"""Hypothesis strategies and fixed inputs shared by the self-attention checks."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from numeric.attention import causal_mask
from proofs.evidence.measures import (
    LAYER_KINDS,
)


def bounded_floats(bound: float, width: int = 64) -> st.SearchStrategy[float]:
    """Finite floats in [-bound, bound] (bound rounded to the nearest float of `width`:
    32 or 64).

    >>> from hypothesis import find
    >>> find(bounded_floats(2.0), lambda x: x <= -2.0)
    -2.0
    """
    if width == 32:
        return st.floats(
            -float(np.float32(bound)),
            float(np.float32(bound)),
            allow_nan=False,
            allow_infinity=False,
            width=32,
        )
    return st.floats(-bound, bound, allow_nan=False, allow_infinity=False, width=64)


def float_arrays(shape: tuple[int, ...], bound: float = 3.0, dtype=np.float64) -> st.SearchStrategy:
    """Arrays of `shape` and `dtype` with finite entries in [-bound, bound].

    >>> from hypothesis import find
    >>> x = find(float_arrays((2, 3), bound=1.0), lambda a: True)
    >>> x.shape, x.dtype.name, bool((abs(x) <= 1.0).all())
    ((2, 3), 'float64', True)
    """
    width = 32 if np.dtype(dtype) == np.float32 else 64
    return hnp.arrays(dtype, shape, elements=bounded_floats(bound, width))


@st.composite
def attention_parameters_strategy(draw, h: int, d: int, bias: bool | None = None) -> dict:
    """w_q, w_k, w_v (h, d, d/h), w_o (h, d/h, d), and with `bias` the four biases."""
    k = d // h
    p = {name: draw(float_arrays((h, d, k), 1.0)) for name in ("w_q", "w_k", "w_v")}
    p["w_o"] = draw(float_arrays((h, k, d), 1.0))
    if draw(st.booleans()) if bias is None else bias:
        p.update({name: draw(float_arrays((h, k), 1.0)) for name in ("b_q", "b_k", "b_v")})
        p["b_o"] = draw(float_arrays((d,), 1.0))
    return p


@st.composite
def mha_case(draw, max_n: int = 5, max_heads: int = 3, max_head_width: int = 3) -> tuple:
    """(x (n, d), params) with h | d drawn: h heads of width d/h."""
    h = draw(st.integers(1, max_heads))
    d = h * draw(st.integers(1, max_head_width))
    n = draw(st.integers(1, max_n))
    return draw(float_arrays((n, d), 2.0)), draw(attention_parameters_strategy(h, d))


def _float_case(dtype) -> tuple[float, int]:
    """(largest |z| drawn, bit width) for a float dtype: float64 draws up to 1e300 (beyond,
    z_i - max z may overflow to -inf, which softmax maps to the exact limit 0; a fixed
    input covers it); float32 up to 1e30."""
    return (1e300, 64) if np.dtype(dtype) == np.float64 else (1e30, 32)


# Inputs every softmax check runs besides the drawn ones: entries far beyond exp's range
# (overflow without the max shift), all-underflow rows, and the float64 extremes.
FIXED_SOFTMAX_INPUTS = (
    np.array([1000.0, 999.0, 0.0]),
    np.array([-1000.0, -1001.0, -1002.0]),
    np.array([1.7e308, -1.7e308, 0.0]),
    np.array([100.0, 0.0], dtype=np.float32),
)


def softmax_inputs(max_n: int = 8) -> st.SearchStrategy:
    """z of 1..max_n entries, float64 (|z| <= 1e300) or float32 (|z| <= 1e30), mixing
    moderate values with huge ones.

    >>> from hypothesis import find
    >>> z = find(softmax_inputs(4), lambda z: len(z) == 3 and z.dtype.name == "float32")
    >>> z.shape, z.dtype.name
    ((3,), 'float32')
    """

    def arrays(dtype):
        bound, width = _float_case(dtype)
        elements = st.one_of(bounded_floats(30.0, width), bounded_floats(bound, width))
        return st.integers(1, max_n).flatmap(lambda n: hnp.arrays(dtype, (n,), elements=elements))

    return st.one_of(arrays(np.float64), arrays(np.float32))


@st.composite
def qkv_case(draw, max_n: int = 5, max_m: int = 5, max_heads: int = 3, max_width: int = 3):
    """(q (h, n, d_k), k (h, m, d_k), v (h, m, d_v), mask (n, m) or None): the mask is
    None, causal (j <= i + m - n, when m >= n) or drawn with a non-empty row each."""
    h, n = draw(st.integers(1, max_heads)), draw(st.integers(1, max_n))
    m = draw(st.integers(1, max_m))
    d_k, d_v = draw(st.integers(1, max_width)), draw(st.integers(1, max_width))
    q, k = draw(float_arrays((h, n, d_k))), draw(float_arrays((h, m, d_k)))
    v = draw(float_arrays((h, m, d_v), 5.0))
    kind = draw(st.sampled_from(("none", "causal", "drawn")))
    if kind == "causal":
        return q, k, v, causal_mask(n, m) if m >= n else None
    if kind == "drawn":
        rows = [draw(st.lists(st.booleans(), min_size=m, max_size=m).filter(any)) for _ in range(n)]
        return q, k, v, np.array(rows)
    return q, k, v, None


@st.composite
def stack_case(draw, max_layers: int = 3, max_n: int = 5):
    """(layers, x): 1..max_layers layers of LAYER_KINDS with drawn parameters, h | d."""
    h = draw(st.integers(1, 2))
    d = h * draw(st.integers(1, 2))
    n = draw(st.integers(1, max_n))
    layers = []
    for kind in draw(st.lists(st.sampled_from(LAYER_KINDS), min_size=1, max_size=max_layers)):
        if kind.endswith("attn"):
            layers.append((kind, draw(attention_parameters_strategy(h, d))))
        else:
            f = draw(st.integers(1, 4))
            layers.append(
                (
                    kind,
                    {
                        "w_1": draw(float_arrays((d, f), 1.0)),
                        "b_1": draw(float_arrays((f,), 1.0)),
                        "w_2": draw(float_arrays((f, d), 1.0)),
                        "b_2": draw(float_arrays((d,), 1.0)),
                    },
                )
            )
    return layers, draw(float_arrays((n, d), 2.0))


def seeded_stack(seed: int, n: int = 6, d: int = 8, h: int = 2, kinds=("attn",)):
    """A fixed stack of the listing's size (n = 6, d = 8, h = 2) drawn from default_rng(seed)."""
    rng = np.random.default_rng(seed)
    layers = []
    for kind in kinds:
        if kind.endswith("attn"):
            p = {
                name: rng.standard_normal((h, d, d // h)) / math.sqrt(d)
                for name in ("w_q", "w_k", "w_v")
            }
            p["w_o"] = rng.standard_normal((h, d // h, d)) / math.sqrt(d)
            p.update(
                {name: 0.1 * rng.standard_normal((h, d // h)) for name in ("b_q", "b_k", "b_v")}
            )
            p["b_o"] = 0.1 * rng.standard_normal(d)
        else:
            p = {
                "w_1": rng.standard_normal((d, 4 * d)) / math.sqrt(d),
                "b_1": np.zeros(4 * d),
                "w_2": rng.standard_normal((4 * d, d)) / math.sqrt(4 * d),
                "b_2": np.zeros(d),
            }
        layers.append((kind, p))
    return layers, rng.standard_normal((n, d))
