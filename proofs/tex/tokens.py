"""The tokens of a TeX formula: the one tokenizer of every reader in proofs.tex.

A token is a command (`\\frac`, `\\,`), an environment's delimiter (`\\begin{pmatrix}`), a
line break `\\\\`, `:=`, a number as printed (`1{,}024`, `0.50`), a letter or any other
character that is not a space. Spaces and sizing commands (`\\,`, `\\left`, `\\big`) are
dropped: they change how a formula looks, not what it says.
"""

from __future__ import annotations

import re

SPACING = frozenset(
    [r"\,", r"\;", r"\:", r"\!", r"\ ", r"\quad", r"\qquad", "~", r"\displaystyle"]
    + r"\left \right \big \Big \bigg \Bigg \bigl \bigr \Bigl \Bigr".split()
)
NUMBER = re.compile(r"\d+(?:\{,\}\d{3})*(?:\.\d+)?")  # 1{,}024 and 0.50 as printed
LETTER = re.compile(r"[A-Za-z]")
_TOKEN = re.compile(
    r"\\begin\{pmatrix\}|\\end\{pmatrix\}|\\\\|\\[A-Za-z]+|\\.|:="
    rf"|{NUMBER.pattern}|{LETTER.pattern}|\S"
)


def tokens(tex: str) -> list[str]:
    """The tokens of a formula, less spaces and sizing commands.

    >>> tokens(r"1{,}024 \\times 10^{-6}\\,\\%")
    ['1{,}024', '\\\\times', '10', '^', '{', '-', '6', '}', '\\\\%']
    """
    return [t for t in _TOKEN.findall(tex) if t not in SPACING]
