"""Bad declarations and configurations, one named case each: a ValueError or a TypeError
naming the field and what came. Cases marked "(was a bug)" were accepted before (a config
that no model can use, or a str taken for a truthy switch) or raised a KeyError."""

import numpy as np
import pytest

from spec import Contraction, ModelConfig, Parameter, model_parameters
from spec.parameters import attention_parameters, layer_norm_parameters

SIZES = dict(vocab=5, d=8, n_layer=1, n_head=2, d_ff=12, n_ctx=6)


def config(**changes):
    return ModelConfig(**{**SIZES, **changes})


REFUSED = [
    pytest.param(
        lambda: config(layer_norm_eps=float("inf")),
        ValueError,
        r"layer_norm_eps must be a finite float >= 0, got inf",
        id="ModelConfig-infinite-eps-(was a bug)",
    ),
    pytest.param(
        lambda: config(layer_norm_eps=float("nan")),
        ValueError,
        r"layer_norm_eps must be a finite float >= 0, got nan",
        id="ModelConfig-nan-eps",
    ),
    pytest.param(
        lambda: config(layer_norm_eps=-1e-5),
        ValueError,
        r"layer_norm_eps must be a finite float >= 0, got -1e-05",
        id="ModelConfig-negative-eps",
    ),
    pytest.param(
        lambda: config(layer_norm_eps="1e-5"),
        TypeError,
        r"layer_norm_eps must be a float >= 0, got str '1e-5'",
        id="ModelConfig-str-eps-(was a bug)",
    ),
    pytest.param(
        lambda: config(layer_norm_eps=True),
        TypeError,
        r"layer_norm_eps must be a float >= 0, got bool True",
        id="ModelConfig-bool-eps-(was a bug)",
    ),
    pytest.param(
        lambda: config(d=2.5),
        TypeError,
        r"d must be an int, got float 2\.5",
        id="ModelConfig-non-integer-width",
    ),
    pytest.param(
        lambda: config(n_head=True),
        TypeError,
        r"n_head must be an int, got bool True",
        id="ModelConfig-bool-head-count",
    ),
    pytest.param(
        lambda: config(vocab="5"),
        TypeError,
        r"vocab must be an int, got str '5'",
        id="ModelConfig-str-vocab",
    ),
    pytest.param(
        lambda: config(vocab=0),
        ValueError,
        r"vocab must be >= 1, got 0",
        id="ModelConfig-empty-vocabulary",
    ),
    pytest.param(
        lambda: config(n_ctx=-3),
        ValueError,
        r"n_ctx must be >= 1, got -3",
        id="ModelConfig-negative-context",
    ),
    pytest.param(
        lambda: config(d=10, n_head=4),
        ValueError,
        r"n_head must divide d, got d = 10 and n_head = 4",
        id="ModelConfig-n_head-not-dividing-d",
    ),
    pytest.param(
        lambda: config(tied="false"),
        TypeError,
        r"tied must be a bool, got str 'false'",
        id="ModelConfig-str-tied",
    ),
    pytest.param(
        lambda: config(bias=1),
        TypeError,
        r"bias must be a bool, got int 1",
        id="ModelConfig-int-bias",
    ),
    pytest.param(
        lambda: config(activation=["gelu"]),
        TypeError,
        r"activation must be a str, one of \('gelu', 'gelu_tanh', 'relu'\), got list "
        r"\['gelu'\]",
        id="ModelConfig-activation-list-(was a bug)",
    ),
    pytest.param(
        lambda: config(activation="swish"),
        ValueError,
        r"activation must be one of \('gelu', 'gelu_tanh', 'relu'\), got 'swish'",
        id="ModelConfig-unknown-activation",
    ),
    pytest.param(
        lambda: Contraction("bad", "nd,df"),
        ValueError,
        r"subscripts of bad must be explicit einsum subscripts such as 'nd,df->nf'",
        id="Contraction-without-an-output-(was a bug)",
    ),
    pytest.param(
        lambda: Contraction("bad", "nd,dF->nF"),
        ValueError,
        r"subscripts of bad must be explicit einsum subscripts",
        id="Contraction-upper-case-letter",
    ),
    pytest.param(
        lambda: Contraction("bad", "nd,df->nz"),
        ValueError,
        r"every output letter must appear in an input and only once in the output",
        id="Contraction-output-letter-not-in-an-input",
    ),
    pytest.param(
        lambda: Contraction("bad", 3),
        TypeError,
        r"subscripts of bad must be a str such as 'nd,df->nf', got int 3",
        id="Contraction-int-subscripts",
    ),
    pytest.param(
        lambda: Contraction("trace", "ij,ji->").dims,
        ValueError,
        r"trace \(ij,ji->\): letter 'i' names no dimension",
        id="Contraction-dims-of-an-undeclared-letter-(was a bug)",
    ),
    pytest.param(
        lambda: Parameter("w", ("width",)),
        ValueError,
        r"Parameter 'w': dimension 'width' is not one of",
        id="Parameter-unknown-dimension",
    ),
    pytest.param(
        lambda: Parameter("w", "d"),
        TypeError,
        r"Parameter 'w': dims must be a tuple of dimension names, got str 'd'",
        id="Parameter-dims-as-str",
    ),
    pytest.param(
        lambda: Parameter("w", ("d",), per_layer="yes"),
        TypeError,
        r"per_layer must be a bool, got str 'yes'",
        id="Parameter-str-per_layer",
    ),
    pytest.param(
        lambda: model_parameters(bias="no"),
        TypeError,
        r"bias must be a bool, got str 'no'",
        id="model_parameters-str-bias-(was a bug)",
    ),
    pytest.param(
        lambda: attention_parameters(None),
        TypeError,
        r"bias must be a bool, got NoneType None",
        id="attention_parameters-None-bias",
    ),
    pytest.param(
        lambda: layer_norm_parameters(3),
        TypeError,
        r"prefix must be a non-empty str such as 'ln_1', got 3",
        id="layer_norm_parameters-int-prefix",
    ),
]


@pytest.mark.parametrize("call, error, message", REFUSED)
def test_bad_declaration_is_refused_naming_it(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_numpy_sizes_switches_and_eps_are_stored_as_python_values():
    """A config built from NumPy scalars (read from an array, say) is the same config."""
    built = config(d=np.int64(8), tied=np.True_, layer_norm_eps=np.float32(0.5))
    assert built == config(tied=True, layer_norm_eps=0.5)
    assert type(built.d) is int and type(built.tied) is bool
    assert type(built.layer_norm_eps) is float
