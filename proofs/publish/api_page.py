"""docs/api.md: what a check uses, written from the docstrings of the package itself, so
that the page says what the code does (`python -m proofs.publish.api_page` rewrites it;
tests/test_api_page.py fails while it is stale).

Each name is listed with its signature and its docstring, whose examples (`>>>`) the
doctests run; the names every notation knows are a table of what each means.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path

from proofs.tex.functions import KNOWN

PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"

# (module, its names on the page, what it is for a check), in the order a check uses them
SECTIONS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        "proofs.book.claims",
        ("Claim",),
        "A check declares what it proves as the chapter states it; the audit locates each "
        "claim in the chapter file and hands the check the chapter's version.",
    ),
    (
        "proofs.book.stated",
        (),  # every public function of the module
        "Readers of claims: a claim's `read=`, turning the chapter's TeX or words into the "
        "value the check's argument takes. A text a reader cannot read raises `TexError`, "
        "which the audit reports at the claim's line.",
    ),
    (
        "proofs.book.judge",
        (
            "require",
            "judge_within",
            "weigh",
            "judge_cases",
            "Verdict",
            "finding",
            "CheckFailed",
            "Unchecked",
        ),
        "Where a check decides that a statement does not hold.",
    ),
    (
        "symbolic.identities",
        ("equal",),
        "The one way to decide that two SymPy values are equal.",
    ),
    (
        "proofs.testing",
        ("element_ids", "pristine", "claims_differences"),
        "What a chapter's tests use to hold its checks to the chapter file; the test file "
        "`new-chapter --package` writes calls these.",
    ),
    (
        "proofs.chapters.self_attention.strategies",
        ("bounded_floats", "float_arrays", "softmax_inputs"),
        "Hypothesis strategies of the self-attention chapter's numeric checks, for a check "
        "that draws arrays.",
    ),
    (
        "proofs.chapters.transformer_block.strategies",
        ("vectors", "seeds"),
        "Hypothesis strategies of the Transformer block chapter's numeric checks.",
    ),
)


def public_names(module_name: str, names: tuple[str, ...]) -> list[tuple[str, object]]:
    """The objects of a section: the names given, or every public function the module
    defines (in the order of its source)."""
    module = importlib.import_module(module_name)
    if names:
        return [(name, getattr(module, name)) for name in names]
    found = [
        (name, value)
        for name, value in vars(module).items()
        if inspect.isfunction(value) and value.__module__ == module_name and name[0] != "_"
    ]
    return sorted(found, key=lambda item: inspect.getsourcelines(item[1])[1])  # type: ignore[arg-type]


def signature(name: str, value: object) -> str:
    """`name(arguments) -> returned` as the source declares it (its annotations as
    written); an exception's class alone."""
    try:
        found = inspect.signature(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):  # an exception class: no signature of its own
        return f"class {name}"
    parameters = []
    for parameter in found.parameters.values():
        text = parameter.replace(annotation=inspect.Parameter.empty).__str__()
        if parameter.annotation is not inspect.Parameter.empty:
            head, eq, default = text.partition("=")
            text = f"{head}: {parameter.annotation}" + (f" = {default}" if eq else "")
        parameters.append(text)
    shown = _keyword_marks(found, parameters)
    returned = found.return_annotation
    shown_return = returned not in (inspect.Signature.empty, "None") and not inspect.isclass(value)
    arrow = f" -> {returned}" if shown_return else ""
    return f"{'class ' if inspect.isclass(value) else ''}{name}({', '.join(shown)}){arrow}"


def _keyword_marks(found: inspect.Signature, parameters: list[str]) -> list[str]:
    """The parameters with `*` before the first keyword-only one and `/` after the last
    positional-only one, as Python writes a signature."""
    out: list[str] = []
    kinds = [p.kind for p in found.parameters.values()]
    for k, (kind, text) in enumerate(zip(kinds, parameters, strict=True)):
        before = kinds[k - 1] if k else None
        if kind is inspect.Parameter.KEYWORD_ONLY and before not in (
            inspect.Parameter.KEYWORD_ONLY,
            inspect.Parameter.VAR_POSITIONAL,
        ):
            out.append("*")
        out.append(text)
        following = kinds[k + 1] if k + 1 < len(kinds) else None
        if kind is inspect.Parameter.POSITIONAL_ONLY and following is not kind:
            out.append("/")
    return out


def docstring_markdown(doc: str) -> str:
    """A docstring as Markdown: its prose as it is, each run of `>>>` lines and the output
    after them a ```pycon block."""
    out: list[str] = []
    lines = doc.splitlines()
    k = 0
    while k < len(lines):
        if lines[k].lstrip().startswith(">>>"):
            block = []
            while k < len(lines) and lines[k].strip():
                block.append(lines[k].strip() if lines[k].lstrip().startswith(">>>") else lines[k])
                k += 1
            out += ["```pycon", *(line.rstrip() for line in block), "```"]
            continue
        out.append(lines[k].rstrip())
        k += 1
    return "\n".join(out).strip()


def known_names_table() -> str:
    """The names every notation knows, and what each means."""
    rows = [f"| `{name}` | {entry.meaning} |" for name, entry in KNOWN.items()]
    return "\n".join(["| name | meaning |", "|---|---|", *rows])


def page() -> str:
    """The text of docs/api.md."""
    parts = [
        "# The API of a check",
        "",
        "<!-- written by `python -m proofs.publish.api_page` from the docstrings; "
        "tests/test_api_page.py fails when it is stale -->",
        "",
        "What a chapter's check is written with: its claims, the readers that turn the "
        "chapter's text into values, the judges, the notation's names and the strategies "
        "of the numeric checks. Every example below is a doctest of the package, run by "
        "the test suite. [adding-a-chapter.md](adding-a-chapter.md) shows a check written "
        "with them; a check takes its claims by keyword (`prop_x(stated=…)`), and "
        "`prop_x()` judges the chapter as transcribed.",
    ]
    for module_name, names, what in SECTIONS:
        parts += ["", f"## `{module_name}`", "", what]
        for name, value in public_names(module_name, names):
            doc = inspect.getdoc(value) or ""
            parts += ["", f"### `{name}`", "", "```python", signature(name, value), "```"]
            parts += ["", docstring_markdown(doc)]
        if module_name == "proofs.book.stated":
            parts += ["", _notation()]
    return "\n".join(parts).rstrip() + "\n"


def _notation() -> str:
    module = importlib.import_module("proofs.tex.functions")
    return "\n".join(
        [
            "## The notation's names: `proofs.tex.functions`",
            "",
            docstring_markdown(inspect.getdoc(module) or ""),
            "",
            known_names_table(),
            "",
            "A name neither the notation nor this table knows is refused with the nearest "
            "names that are known: `'lgo' has no meaning in this notation; nearest: log`.",
        ]
    )


if __name__ == "__main__":
    PAGE.write_text(page(), encoding="utf-8")
    print(f"wrote {PAGE}", file=sys.stderr)
