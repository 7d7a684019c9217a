"""The tokens of a TeX formula: the one tokenizer of every reader in proofs.tex.

A token is a command (`\\frac`, `\\sqrt`), an environment's delimiter (`\\begin{pmatrix}`),
a line break `\\\\`, `:=`, a number as printed (`1{,}024`, `0.50`), a letter or any other
character that is not a space. Spaces and sizing commands (`\\,`, `\\left`, `\\big`) are
dropped: they change how a formula looks, not what it says; a product is the product of
its factors as written, whatever spacing stands between them. Two places keep what
spacing says:

- digits grouped by three with thin spaces are one number, as with `{,}`:
  `38\\,597\\,376` is the token `38{,}597{,}376`, and so with a bare comma, as an author
  types a large number in math (`262,144`);
- the differential set upright, `\\mathrm{d}x`, is the d of `dx`, not a name `d`;
- another author's commands for the same thing are that thing: `\\lVert x \\rVert` is
  `\\|x\\|`, `\\lvert x \\rvert` is `|x|`, `\\mathbf{x}` and `\\bm{x}` are `\\boldsymbol{x}`,
  `\\leqslant` is `\\le`, `x^{\\top}` and `x^{\\intercal}` are `x^{\\mathsf{T}}`;
- spacing between a name and an opening bracket, `K\\,(x/6)`, makes the bracket a factor
  of its own, not the name's argument: the token JUXTAPOSED stands between them, which
  the parser reads as nothing but that (proofs.tex.tree).
"""

from __future__ import annotations

import re

SPACES = frozenset([r"\,", r"\;", r"\:", r"\!", r"\ ", r"\quad", r"\qquad", "~"])
SPACING = SPACES | frozenset(
    [r"\displaystyle"] + r"\left \right \big \Big \bigg \Bigg \bigl \bigr \Bigl \Bigr".split()
)
JUXTAPOSED = "\\,"  # a name and a bracket set apart: a product, not an application
NUMBER = re.compile(r"\d+(?:\{,\}\d{3})*(?:\.\d+)?")  # 1{,}024 and 0.50 as printed
LETTER = re.compile(r"[A-Za-z]")
_TOKEN = re.compile(
    r"\\begin\{pmatrix\}|\\end\{pmatrix\}|\\\\|\\[A-Za-z]+|\\.|:="
    rf"|{NUMBER.pattern}|{LETTER.pattern}|~|\S"
)
# digits grouped by three with thin spaces (38\,597\,376), not a part of a longer number
_THIN_GROUPS = re.compile(r"(?<![\d.])\d{1,3}(?:\\,\d{3})+(?![\d])")
# digits grouped by three with bare commas (262,144), as one number
_COMMA_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?!\d)")
# a power of ten multiplied by \cdot after a number (5.88 \cdot 10^{23}), as by \times
_DOT_POWER = re.compile(r"(\d)\s*\\cdot\s*10\^")
_FACTOR_END = re.compile(r".*[A-Za-z0-9}]|\\[A-Za-z]+")  # a name, a number, a group, \\sigma
SLANTED = {r"\leqslant": r"\le", r"\geqslant": r"\ge"}  # another author's \le and \ge
# commands another author writes for the same thing, each as the one form the readers take:
# the differential set upright (\mathrm{d}x: the d of dx), a norm's bars, an absolute
# value's, a bold vector, ≤ and ≥, a transpose
_SYNONYMS = {
    r"\\(?:mathrm|operatorname|text|mathit)\s*\{\s*d\s*\}": "d",
    r"\\[lr]?Vert(?![A-Za-z])": r"\|",
    r"\\[lr]?vert(?![A-Za-z])": "|",
    r"\\(?:mathbf|bm)(?![A-Za-z])": r"\boldsymbol",
    **{re.escape(slanted) + "(?![A-Za-z])": plain for slanted, plain in SLANTED.items()},
    r"\^\s*(?:\{\s*(?:\\top|\\intercal|\\mathrm\{T\})\s*\}|\\top|\\intercal)(?![A-Za-z])": (
        r"^{\mathsf{T}}"
    ),
}
_SYNONYM = re.compile("|".join(f"({pattern})" for pattern in _SYNONYMS))
_WRITTEN_AS = list(_SYNONYMS.values())


def printed_numbers(tex: str) -> str:
    """The TeX with its printed numbers in the one form every reader of numbers takes:
    digits grouped by thin spaces written with `{,}` (`38\\,597\\,376` is `38{,}597{,}376`),
    and a number's power of ten after `\\cdot` written after `\\times` (`5.88 \\cdot 10^{23}`).

    >>> printed_numbers(r"L = 1\\,024,\\ K\\,(x), C = 5.88 \\cdot 10^{23}")
    'L = 1{,}024,\\\\ K\\\\,(x), C = 5.88 \\\\times 10^{23}'
    """
    tex = _THIN_GROUPS.sub(lambda m: m.group(0).replace("\\,", "{,}"), tex)
    return _DOT_POWER.sub(r"\1 \\times 10^", tex)


def tokens(tex: str) -> list[str]:
    """The tokens of a formula, less spaces and sizing commands.

    >>> tokens(r"1{,}024 \\times 10^{-6}\\,\\%")
    ['1{,}024', '\\\\times', '10', '^', '{', '-', '6', '}', '\\\\%']
    >>> tokens(r"38\\,597\\,376 = K\\,(x)")
    ['38{,}597{,}376', '=', 'K', '\\\\,', '(', 'x', ')']
    """
    tex = _SYNONYM.sub(
        lambda m: next(w for w, g in zip(_WRITTEN_AS, m.groups(), strict=True) if g),
        printed_numbers(tex),
    )
    tex = _COMMA_GROUPS.sub(lambda m: m.group(0).replace(",", "{,}"), tex)
    out: list[str] = []
    spaced = False
    for token in _TOKEN.findall(tex):
        if token in SPACING:
            spaced = spaced or token in SPACES
            continue
        if spaced and token in ("(", "[") and out and _FACTOR_END.fullmatch(out[-1]):
            out.append(JUXTAPOSED)
        spaced = False
        out.append(token)
    return out


def group_end(tex: str, start: int) -> int | None:
    """The index just past the brace group `{…}` that opens at tex[start]; None when it
    never closes."""
    depth = 0
    for k in range(start, len(tex)):
        depth += {"{": 1, "}": -1}.get(tex[k], 0)
        if depth == 0:
            return k + 1
    return None
