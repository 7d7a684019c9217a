"""自己注意：スケール付き内積注意・マルチヘッド・因果マスク, one check per element.

The modules follow the chapter's sections; importing them registers the checks
in the chapter's order (補題 A.1 of the appendix beside 命題 4.4, whose proof
uses it), then the tables, formulas, listing lines and the pictures. A check
takes what it judges (the package's functions, the chapter's stated formulas
and printed numbers) as keyword arguments and returns one evidence line per
fact established, or raises CheckFailed.

Tolerances are first-order rounding-error bounds evaluated on the actual
operands (numeric.error_bounds), never tuned constants; exact values come from
the definitions at 50 digits (proofs.evidence.reference); equivariance and causality
defects are measured by proofs.evidence.measures and judged here.
"""

from proofs.chapters.self_attention import (  # noqa: F401 - importing registers
    attention,
    causality,
    cost,
    equivariance,
    exercises,
    figures,
    formulas,
    listings,
    notation,
    preliminaries,
    scaling,
    softmax,
    tables,
)
from proofs.chapters.self_attention.chapter import CHAPTER

__all__ = ["CHAPTER"]
