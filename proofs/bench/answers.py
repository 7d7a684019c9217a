"""A reader's numeric answers to the counting exercises (`proofs check --answers FILE.toml`):
each a configuration and a count, judged against 定理 5.1's parameter polynomial or
命題 6.1's multiplication polynomial at those sizes. A wrong count is never corrected:
when one or two named parts of the symbolic count (spec's arrays, spec's contractions)
make up the difference, the hint names them and the difference as a polynomial ("short
by 2d: the final LayerNorm's γ and β left out?"), else it names the element to recount
with.

The file (docs/bench.md shows one):

    [[parameters]]              # 定理 5.1; bias, tied, positions default to true
    exercise = "演習 11.1"      # optional: a label echoed in the report
    vocab = 1000
    d = 64
    n_layer = 4
    d_ff = 256
    n_ctx = 128
    answer = 272256

    [[multiplications]]         # 命題 6.1: one block's products on n positions
    d = 64
    d_ff = 256
    n = 128
    answer = 4194304
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from itertools import combinations
from pathlib import Path

import sympy

from proofs.bench.results import ClauseResult, Witness
from spec import contractions as declared
from spec import parameters as declared_parameters
from symbolic import counts
from symbolic import symbols as sym

PARAMETERS = ("thm-transformer-parameters", "定理 5.1［Transformer ブロック］")
MULTIPLICATIONS = ("prop-block-complexity", "命題 6.1［Transformer ブロック］")
SIZES = {
    "parameters": {
        "vocab": sym.V,
        "d": sym.d,
        "n_layer": sym.L,
        "d_ff": sym.d_ff,
        "n_ctx": sym.L_ctx,
    },
    "multiplications": {"d": sym.d, "d_ff": sym.d_ff, "n": sym.n},
}
SWITCHES = ("bias", "tied", "positions")  # 定理 5.1's variants, true unless given
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
    "q_projection": "the projections XW_Q, XW_K, XW_V and [H]W_O",
    "k_projection": "the projections XW_Q, XW_K, XW_V and [H]W_O",
    "v_projection": "the projections XW_Q, XW_K, XW_V and [H]W_O",
    "output_projection": "the projections XW_Q, XW_K, XW_V and [H]W_O",
    "scores": "the scores QKᵀ",
    "weighted_sum": "the weighted sum AV",
    "mlp_in": "the MLP's products XW₁ and φ(·)W₂",
    "mlp_out": "the MLP's products XW₁ and φ(·)W₂",
}


class AnswersError(ValueError):
    """An answers file the bench cannot read (exit code 2)."""


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
    """命題 6.1's count split into named products (and each alone), from spec's
    contractions."""
    singles = counts.contraction_multiplications(declared.BLOCK)
    merged: dict[str, sympy.Expr] = {}
    for name, poly in singles.items():
        label = PRODUCTS.get(name, name)
        merged[label] = merged.get(label, 0) + poly
    return [
        *merged.items(),
        *((f"{PRODUCTS.get(k, k)} (one of them)", v) for k, v in singles.items()),
    ]


def shown(expr: sympy.Expr) -> str:
    """A polynomial as the book writes it: 2d, 4d^2 + 4d, n^2 d."""
    return sympy.sstr(sympy.factor(expr)).replace("**", "^").replace("*", "")


def explain(difference: int, poly: sympy.Expr, sizes: Mapping) -> str:
    """'short by 2d: the final LayerNorm's γ and β left out?' (or 'over by …: … counted
    twice or where it has none?') when one or two named parts, with signs, make up
    `difference` (the reader's count less the right one) at `sizes`; else ''."""
    parts = parameter_parts() if poly.has(sym.V) or poly.has(sym.L_ctx) else product_parts()
    valued = [(label, expr, int(sympy.sympify(expr).subs(sizes))) for label, expr in parts]
    valued = [v for v in valued if v[2]]
    for size in (1, 2):
        for chosen in combinations(valued, size):
            for signs in ((1,), (-1,)) if size == 1 else ((1, 1), (-1, -1), (1, -1), (-1, 1)):
                if sum(s * v for s, (_, _, v) in zip(signs, chosen, strict=True)) != difference:
                    continue
                total = sum(s * expr for s, (_, expr, _) in zip(signs, chosen, strict=True))
                said = " and ".join(
                    label + (" counted twice or where it has none" if s > 0 else " left out")
                    for s, (label, _, _) in zip(signs, chosen, strict=True)
                )
                way = "over" if difference > 0 else "short"
                return f"{way} by {shown(abs(total))}: {said}?"
    return ""


def read_answers(path: Path) -> list[tuple[str, dict]]:
    """The file's entries as (kind, entry), each checked: its kind, its keys, whole
    numbers >= 1 for the sizes and the answer, booleans for the switches."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AnswersError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AnswersError(f"{path}: cannot be read as UTF-8 text ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise AnswersError(f"{path}: not TOML ({exc})") from None
    unknown = sorted(set(data) - set(SIZES))
    if unknown:
        raise AnswersError(
            f"{path}: [{unknown[0]}] is not a kind of answer; expected [[parameters]] or "
            "[[multiplications]]"
        )
    entries = []
    for kind, listed in data.items():
        if not isinstance(listed, list) or not all(isinstance(e, dict) for e in listed):
            raise AnswersError(f"{path}: {kind} must be a list of tables ([[{kind}]])")
        for number, entry in enumerate(listed, 1):
            entries.append((kind, _checked(entry, kind, f"{path}: [[{kind}]] number {number}")))
    if not entries:
        raise AnswersError(f"{path}: no answers ([[parameters]] or [[multiplications]])")
    return entries


def _checked(entry: dict, kind: str, where: str) -> dict:
    allowed = {*SIZES[kind], "answer", "exercise", *(SWITCHES if kind == "parameters" else ())}
    extra = sorted(set(entry) - allowed)
    if extra:
        raise AnswersError(f"{where}: unknown key {extra[0]!r}; expected {', '.join(allowed)}")
    for key in (*SIZES[kind], "answer"):
        value = entry.get(key)
        if type(value) is not int or value < 1:
            raise AnswersError(f"{where}: {key} must be a whole number >= 1, got {value!r}")
    for key in SWITCHES:
        if key in entry and type(entry[key]) is not bool:
            raise AnswersError(f"{where}: {key} must be true or false, got {entry[key]!r}")
    if "exercise" in entry and not isinstance(entry["exercise"], str):
        raise AnswersError(f"{where}: exercise must be a string, got {entry['exercise']!r}")
    return entry


def judge_answer(kind: str, entry: dict) -> ClauseResult:
    """One answer against the count's polynomial at its sizes."""
    sizes = {symbol: entry[key] for key, symbol in SIZES[kind].items()}
    if kind == "parameters":
        element, number = PARAMETERS
        switches = {key: entry.get(key, True) for key in SWITCHES}
        poly = counts.model_parameters(**switches)
        off = ", ".join(key for key, on in switches.items() if not on)
        what = "the parameters" + (f" (without {off})" if off else "")
    else:
        element, number = MULTIPLICATIONS
        poly = counts.block_multiplications()
        what = "one block's multiplications"
    given = ", ".join(f"{key} = {entry[key]}" for key in SIZES[kind])
    label = f"{entry['exercise']}: " if "exercise" in entry else ""
    right = int(poly.subs(sizes))
    got = entry["answer"]
    result = ClauseResult(element, number, f"{label}{what} at {given}", "answers", "passed", 1)
    if got == right:
        return result
    hint = explain(got - right, poly, sizes)
    return ClauseResult(
        element,
        number,
        result.clause,
        "answers",
        "failed",
        1,
        witness=Witness(f"{got:,} is not the count at these sizes", given, f"{got:,}"),
        hint=hint or f"recount part by part with {number}'s proof",
        reread=f"{element} {number}",
    )
