"""The named formulas `python -m proofs latex` exports, each produced by symbolic/.

A chapter registers its formulas (`@CHAPTER.formula(...)` in its package's
`formulas.py`). A formula is built when asked for: a count is the polynomial
symbolic.counts derives from spec's declarations; a Jacobian is the chapter's
stated form, exported only after symbolic/'s derivation has shown it equal to
the derivative (so a formula that has stopped being true is never printed).
The TeX is `symbolic.printing.chapter_latex`, in the chapters' notation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Formula:
    name: str
    title: str  # where the chapters state it: 命題 3.2［自己注意］ the softmax Jacobian
    build: Callable[[], object]
    printer: str = "chapter_latex"  # the symbolic.printing function that writes it

    def latex(self) -> str:
        from symbolic import printing

        return str(getattr(printing, self.printer)(self.build()))


class FormulaNotProved(RuntimeError):
    """symbolic/'s derivation no longer confirms the chapter's stated form."""


def proved(derivation: object) -> None:
    """Raise FormulaNotProved unless the derivation holds."""
    if not getattr(derivation, "holds", False):
        name = getattr(derivation, "name", "derivation")
        raise FormulaNotProved(f"{name}: derived and stated forms differ")
