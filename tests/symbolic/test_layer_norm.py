"""symbolic.layer_norm: the names the chapters' checks read, each from the module deriving it."""

import symbolic.layer_norm as layer_norm_module


def test_layer_norm_gathers_names_without_defining_any():
    for name in layer_norm_module.__all__:
        home = getattr(layer_norm_module, name).__module__
        assert home.startswith("symbolic.layer_norm_"), (name, home)
