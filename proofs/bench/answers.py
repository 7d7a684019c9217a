"""Why a reader's count is off: the difference explained by one or two named parts of the
symbolic count (spec's arrays, spec's contractions), never by the answer itself."""

from __future__ import annotations

from itertools import combinations

import sympy

from spec import contractions as declared
from spec import parameters as declared_parameters
from symbolic import counts
from symbolic import symbols as sym

PARTS = (
    ("the final LayerNorm's γ and β", ("ln_f.",)),
    ("the blocks' LayerNorms' γ and β", ("blocks.ln_",)),
    ("the attention biases b_Q, b_K, b_V, b_O", ("blocks.attn.b_",)),
    ("the MLP biases b₁ and b₂", ("blocks.mlp.b_",)),
    ("the position embeddings P", ("wpe",)),
    ("the embedding matrix E", ("wte",)),
    ("the attention matrices W_Q, W_K, W_V, W_O", ("blocks.attn.w_",)),
    ("the MLP matrices W₁ and W₂", ("blocks.mlp.w_",)),
)
PRODUCTS = {
    "q_projection": "the projections XW_Q, XW_K, XW_V, and [H]W_O",
    "k_projection": "the projections XW_Q, XW_K, XW_V, and [H]W_O",
    "v_projection": "the projections XW_Q, XW_K, XW_V, and [H]W_O",
    "output_projection": "the projections XW_Q, XW_K, XW_V, and [H]W_O",
    "scores": "the scores QKᵀ",
    "weighted_sum": "the weighted sum AV",
    "mlp_in": "the MLP's products XW₁ and φ(·)W₂",
    "mlp_out": "the MLP's products XW₁ and φ(·)W₂",
}


def parameter_parts() -> list[tuple[str, sympy.Expr]]:
    """定理 5.1's count split into named parts, from spec's declaration."""
    params = declared_parameters.model_parameters(True, False, True)
    out = []
    for label, prefixes in PARTS:
        chosen = [p for p in params if p.name.startswith(prefixes)]
        out.append((label, counts.parameter_polynomial(chosen)))
    out.append(("an output matrix of its own (E is shared with the output)", sym.V * sym.d))
    out.append(("one whole block", counts.block_parameters()))
    return out


def product_parts() -> list[tuple[str, sympy.Expr]]:
    """命題 6.1's count split into named products, from spec's contractions."""
    merged: dict[str, sympy.Expr] = {}
    for name, poly in counts.contraction_multiplications(declared.BLOCK).items():
        label = PRODUCTS.get(name, name)
        merged[label] = merged.get(label, 0) + poly
    singles = counts.contraction_multiplications(declared.BLOCK)
    return [
        *merged.items(),
        *((f"{PRODUCTS.get(k, k)} (one of them)", v) for k, v in singles.items()),
    ]


def explain(difference: int, poly: sympy.Expr, sizes: dict) -> str:
    """': <part> <left out|counted twice>?' when one or two named parts (with signs) make up
    `difference` at `sizes`, else ''."""
    parts = parameter_parts() if poly.has(sym.V) or poly.has(sym.L_ctx) else product_parts()
    valued = [(label, expr, int(sympy.sympify(expr).subs(sizes))) for label, expr in parts]
    valued = [v for v in valued if v[2]]
    for size in (1, 2):
        for chosen in combinations(valued, size):
            for signs in ((1,), (-1,)) if size == 1 else ((1, 1), (-1, -1), (1, -1), (-1, 1)):
                if sum(s * v for s, (_, _, v) in zip(signs, chosen, strict=True)) == difference:
                    said = [
                        f"{label} ({sympy.sstr(sympy.factor(expr))}) "
                        + ("counted twice or where it has none" if s > 0 else "left out")
                        for s, (label, expr, _) in zip(signs, chosen, strict=True)
                    ]
                    return ": " + " and ".join(said) + "?"
    return ""
