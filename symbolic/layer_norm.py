"""LayerNorm (定義 2.1): its Jacobian (命題 3.3), invariance and moments (命題 3.1, 演習 11.2).

The chapter's checks read these names as `symbolic.layer_norm.<name>`; each is derived in
one of the modules below, listed in dependency order:

symbolic.layer_norm_definition        定義 2.1 at an explicit width, SymPy's Jacobian of
                                      it, the chapter's stated Jacobian
symbolic.layer_norm_general           the Jacobian and its properties for symbolic d
symbolic.layer_norm_differentiation   the Jacobian by differentiation (eps != 0, other
                                      normalisations)
symbolic.layer_norm_explicit          the Jacobian and its properties at explicit widths
symbolic.layer_norm_moments           invariance and moments
"""

from symbolic.layer_norm_definition import (
    chapter_jacobian,
    layer_norm,
    mean,
    unbiased_layer_norm,
    variables,
    variance,
)
from symbolic.layer_norm_explicit import derive_layer_norm_jacobian, jacobian_properties
from symbolic.layer_norm_general import (
    chapter_entry,
    derive_layer_norm_jacobian_general,
    general_jacobian_properties,
    indexed_layer_norm,
    output_sums,
)
from symbolic.layer_norm_moments import invariance_difference, moments, moments_general

__all__ = [
    "chapter_entry",
    "chapter_jacobian",
    "derive_layer_norm_jacobian",
    "derive_layer_norm_jacobian_general",
    "general_jacobian_properties",
    "indexed_layer_norm",
    "invariance_difference",
    "jacobian_properties",
    "layer_norm",
    "mean",
    "moments",
    "moments_general",
    "output_sums",
    "unbiased_layer_norm",
    "variables",
    "variance",
]
