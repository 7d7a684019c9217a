"""Transformer ブロック：残差接続・層正規化・MLP とパラメータ数, one check per element.

The modules follow the chapter's sections: LayerNorm (定義 2.1, 命題 3.1, 例 3.2,
命題 3.3), the blocks and the residual identity path (定義 2.2, 命題 4.1), the
model and its parameter count (定義 2.3, 定理 5.1, 例 5.2, 例 5.3), the cost of a
block (命題 6.1), row-wise maps, equivariance and causality (命題 7.1, 7.2),
piecewise linearity (命題 8.1) and the exercises (演習 11.1–11.4). Importing
them registers the checks in the chapter's order, then the tables, formulas and
listing lines and the figures.

A check takes what it judges (a function of numeric/, a derivation of
symbolic/, the chapter's printed claim) as keyword arguments with the package's
own as defaults, returns one evidence line per fact established, and raises
`CheckFailed` when the statement does not hold for what it was given. Float
tolerances come from the rounding-error bounds of numeric.error_bounds (u = 2^-53
is float64's unit roundoff and gamma_k = k u / (1 - k u) bounds the relative error
of a k-term sum or dot product; Higham, Accuracy and Stability of Numerical
Algorithms, Lemma 3.1), exact values from the mpmath references of
proofs.evidence.reference, and the activation regions of 命題 8.1 from the exact counting
of symbolic.arrangements.
"""

from proofs.chapters.transformer_block import (  # noqa: F401 - importing registers
    activations,
    complexity,
    definitions,
    equivariance,
    exercises,
    figures,
    formulas,
    layer_norm,
    listings,
    notation,
    parameters,
    residual,
    tables,
)
from proofs.chapters.transformer_block.chapter import CHAPTER

__all__ = ["CHAPTER"]
