"""A formula's place in its sentence: a hypothesis (「$z_i < z_j$ ならば」), the conclusion
drawn from one (「$i \\ne j$ のとき $E[\\cdots] = 0$」), or a statement on its own.

Deciding a formula alone would drop its condition; a condition on indices only
(i ≠ j, j ≤ i) is carried into the decision, any other makes the formula
conditional, which the audit leaves to the check that binds it.
"""

from __future__ import annotations

import re

from proofs.reader import Document
from proofs.tex_tree import Node, TexError, parse

# A formula followed by one of these is a hypothesis of what follows, not a claim.
CONDITIONS = ("ならば", "なら", "のとき", "とき", "とし", "とする", "について", "に対し",
              "を満たす", "では", "かつ", "の成分", "で、", "（", "の場合", "となる")
# A formula after a hypothesis and one of these is its conclusion.
CONCLUDING = ("ならば", "なら", "のとき", "とき")
# a number other than 0, 1, 2 in a relation of symbols: a setting of an illustration or a
# value the text sets elsewhere (d = 512, 4d^2 + 4d = 288), not a general claim
LARGE_LITERAL = re.compile(r"(?<![\\\w.])(?:[3-9]|\d{2,})(?:\.\d+)?(?![\w.])")
_INDEX_RELATION = re.compile(r"^\s*[a-z]\s*(\\ne|\\neq|\\le|\\leq|<|>|\\ge|\\geq|=)\s*[a-z]\s*$")


def is_hypothesis(document: Document, line: int, statement: str) -> bool:
    """Whether the statement is a hypothesis of its sentence."""
    text = document.line(line)
    start = text.find(statement)
    if start < 0:
        return False
    end = text.find("$", start + len(statement))
    if end < 0:
        return False
    after = text[end + 1:]
    # a list of settings: 「$\\pi(1) = 2$、$\\pi(2) = 1$、$\\pi(3) = 3$（…）とすると」
    after = re.sub(r"^(?:\s*、\s*\$[^$]+\$)*\s*(?:（[^）]*）)?", "", after)
    return after.lstrip().startswith(CONDITIONS)


def condition_of(document: Document, line: int, statement: str) -> tuple[bool, Node | None]:
    """(conditional, index condition): whether an earlier formula of the paragraph is a
    hypothesis the statement follows from (the paragraph's sentences continue an
    argument: 「… のとき、…。よって …」), and that hypothesis when it only relates indices
    (then the statement can be decided under it)."""
    text = document.line(line)
    start = text.find(statement)
    if start <= 0:
        return False, None
    before = text[:start]  # the paragraph so far: 「$i \\ne j$ のとき、…。よって $…$」
    hypotheses = [m for m in re.finditer(r"\$([^$]+)\$\s*(" + "|".join(CONCLUDING) + ")",
                                         before)]
    if not hypotheses:
        return False, None
    condition = hypotheses[-1].group(1)
    if not _INDEX_RELATION.match(condition):
        return True, None
    try:
        return True, parse(condition)
    except TexError:
        return True, None
