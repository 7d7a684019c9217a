"""`proofs new-chapter`: the skeleton package of a new chapter, read from its file.

The skeleton holds the chapter's `Chapter` (its key, file name, title and the
short name cross references use) and one registered stub per element, in one
module per section. It imports itself relatively, so it works as a folder under
`proofs/chapters/` (found by the registry) or as a package of its own named by an
entry point of the group `transformer_proofs.chapters`. A stub raises `Unchecked`
and declares no methods, so it is reported as unchecked, never as passed, until
its check is written.
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from proofs.book.declarations import Declaration, declarations, sizes
from proofs.reader import Document
from proofs.reader.records import ID_PREFIXES, Element

KEY = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


def chapter_key(given: str) -> str:
    """The chapter key as the registry writes it, from either spelling an author uses:
    kv_cache and kv-cache are both kv-cache."""
    key = given.replace("_", "-")
    if not KEY.fullmatch(key):
        raise ValueError(f"--key must be lower-case words joined by - or _, got {given!r}")
    return key


def package_name(key: str) -> str:
    """The Python package of a chapter key: self-attention (or self_attention) ->
    self_attention."""
    name = chapter_key(key).replace("-", "_")
    if keyword.iskeyword(name):
        raise ValueError(f"--key {key!r} gives the Python keyword {name!r} as package name")
    return name


def element_id(element: Element) -> str:
    """The MDX id, or (rendered text, which prints none) kind prefix and number."""
    if element.id:
        return element.id
    return f"{ID_PREFIXES[element.kind]}-{element.number.split()[1].replace('.', '-').lower()}"


def quoted(text: str) -> str:
    """A Python string literal in double quotes holding `text`, whatever it holds: quotes,
    backslashes and every character that is not printable (line breaks, NUL, a lone
    surrogate) escaped; Japanese and other printable characters kept as they are. The
    skeleton writes chapter text only through this, never into code."""
    escaped = []
    for ch in text:
        if ch in '"\\':
            escaped.append("\\" + ch)
        elif ch.isprintable():
            escaped.append(ch)
        else:
            escaped.append(repr(ch)[1:-1])  # \n, \x00, \u2028, \ud800
    return '"' + "".join(escaped) + '"'


def _function_name(id_: str) -> str:
    """The name of an element's check: the registry requires its id with _ for -."""
    return id_.replace("-", "_")


def _comment(text: str) -> str:
    """Chapter text as the body of a `#` comment: what Python cannot hold in one (a NUL,
    a line break of another kind) written as its escape."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


STATEMENT_LINES = 12  # the lines of an element's statement a stub quotes at most

TEMPLATE = """\
# A stub becomes a check when its raise is replaced by what proves the statement. A check
# judges what the chapter prints: declare each formula, number or phrase it proves as a
# Claim of the decorator (the audit reads it from the chapter) and take it as an argument:
#
#   @CHAPTER.element("prop-x", "命題 3.2", "...", "proposition", ("symbolic",),
#                    claims=(Claim(r"<the formula as printed>", argument="stated",
#                                  read=polynomial),))
#   def prop_x(*, stated) -> list[str]:
#       \"\"\"What it proves and how.\"\"\"
#       derived = ...  # the statement derived with SymPy, or computed with NumPy
#       require(equal(derived, stated), f"derived {derived}, stated {stated}")
#       return [f"{stated} derived"]
#
# A check takes its claims by keyword (prop_x(stated=...) judges another version; prop_x()
# the chapter's, as transcribed). Claim: proofs.book.claims; polynomial and the other
# readers: proofs.book.stated; require and the judge of a rounding bound: proofs.book.judge;
# equal: symbolic.identities; each with examples in docs/api.md.
"""


def _stub(element: Element, lines: tuple[str, ...]) -> str:
    heading = element.number + (f"（{element.title}）" if element.title else "")
    first, last = element.statement
    statement = [f"    # {_comment(line)}".rstrip() for line in lines[first - 1 : last]]
    if len(statement) > STATEMENT_LINES:
        statement = [*statement[:STATEMENT_LINES], "    # …"]
    return (
        f"@CHAPTER.element({quoted(element_id(element))}, {quoted(element.number)}, "
        f"{quoted(element.title)}, {quoted(element.kind)}, ())\n"
        f"def {_function_name(element_id(element))}() -> list[str]:\n"
        f"    {quoted(heading + ': not checked yet.')}\n"
        f"    # The statement, as the chapter prints it (line {first}):\n"
        + "".join(f"{q}\n" for q in statement)
        + f"    raise Unchecked({quoted(element.number + ' has no check yet')})\n"
    )


NOTATION_IMPORTS = """\
from __future__ import annotations

import sympy

from proofs.audit.deciding.notation import OpenEvaluator
from proofs.tex.symbolic import Evaluator

from .chapter import CHAPTER

"""

NOTATION_FUNCTIONS = """\


def _value(name: str, shape: tuple[str | int, ...]) -> sympy.Expr | sympy.Matrix:
    \"\"\"A declared name at the sizes above: a real symbol, a column of them, or a matrix.\"\"\"
    if not shape:
        return sympy.Symbol(name, real=True)
    rows, cols = (*(SIZES[s] if isinstance(s, str) else s for s in shape), 1)[:2]
    return sympy.Matrix(
        rows, cols, lambda i, j: sympy.Symbol(f"{name}[{i + 1},{j + 1}]", real=True)
    )


# Until this module is registered, the audit decides the chapter's formulas in the open
# notation, which reports a step as wrong only when it relates the same quantities. A
# registered notation is trusted: each relation of a statement is decided at random values
# of the names, so every name the statements use must first mean what the chapter says
# (its := definitions, functions, index ranges; a name left open takes values of its own,
# and i = s then fails). Then put @CHAPTER.notation above `def environment`, import this
# module in __init__.py, and compare the audit before and after. The sizes must satisfy
# the chapter's relations between sizes (d = h d_k, say); they stay symbols in formulas.
def environment(number: str | None = None) -> Evaluator:
    \"\"\"The chapter's names at an element (its number; one notation for them all here):
    the declared vectors and matrices at the sizes above, every other name a positive
    number, as in the open notation (proofs.audit.deciding.notation).\"\"\"
    return OpenEvaluator(facts={name: _value(name, shape) for name, shape in DECLARED.items()})


__all__ = ["CHAPTER", "DECLARED", "SIZES", "environment"]
"""


def _shape(shape: tuple[str | int, ...]) -> str:
    items = [quoted(s) if isinstance(s, str) else str(s) for s in shape]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def _notation(title: str, found: list[Declaration]) -> str:
    """The chapter's notation module, pre-filled with its declarations and not registered:
    the open notation decides its formulas until the author registers this one."""
    size_lines = "".join(f"    {quoted(n)}: {v},\n" for n, v in sizes(found).items())
    declared = "".join(
        f"    {quoted(d.name)}: {_shape(d.shape)},  # line {d.line}: {_comment(d.tex)}\n"
        for d in found
    )
    return (
        f"{quoted(title + ': the notation, pre-filled from the declarations of its file.')}\n\n"
        + NOTATION_IMPORTS
        + "# the sizes the declared vectors and matrices take: small, and distinct so that a\n"
        + "# product of mismatched shapes fails\n"
        + f"SIZES: dict[str, int] = {{\n{size_lines}}}\n"
        + "# the names the chapter declares, with their shapes and where it declares them\n"
        + f"DECLARED: dict[str, tuple[str | int, ...]] = {{\n{declared}}}\n"
        + NOTATION_FUNCTIONS
    )


def _tests(elements: list[Element]) -> str:
    """The test file of a section: each element's check run, to pass once written."""
    names = [_function_name(element_id(e)) for e in elements]
    return (
        f"{quoted(', '.join(e.number for e in elements) + ': each check, run.')}\n\n"
        "import pytest\n\n"
        "from proofs.book.registry import load_all, run_check\n\n\n"
        + "\n\n".join(
            f"def test_{name}_holds():\n"
            f"    run = run_check(load_all()[{quoted(element_id(e))}])\n"
            '    if run.result == "unchecked":\n'
            f"        pytest.skip({quoted(e.number + ' has no check yet')})\n"
            '    assert run.result == "passed", run.message\n'
            for name, e in zip(names, elements, strict=True)
        )
    )


def _check_ids(document: Document, taken: frozenset[str]) -> None:
    """ValueError naming the file and line of an element whose id cannot name a check (not
    a Python name once - is _, or a keyword), or that another element of the file or a
    chapter already registered has: the package written would not import."""
    seen: dict[str, int] = {}
    for element in document.elements:
        id_, where = element_id(element), f"{document.path}:{element.line}"
        name = _function_name(id_)
        if not name.isidentifier() or keyword.iskeyword(name):
            raise ValueError(
                f"{where}: the id {id_!r} of {element.number} cannot name a check (letters, "
                "digits, - and _, not starting with a digit, not a Python keyword)"
            )
        if id_ in seen:
            raise ValueError(f"{where}: id {id_!r} is the id of line {seen[id_]} too")
        if id_ in taken:
            raise ValueError(f"{where}: id {id_!r} is registered by another chapter")
        seen[id_] = element.line


def skeleton(document: Document, key: str, taken: frozenset[str] = frozenset()) -> dict[str, str]:
    """The files of the skeleton package, by name relative to the package directory;
    `taken`: the ids registered already, which the new chapter's must not repeat."""
    package_name(key)
    key = chapter_key(key)
    _check_ids(document, taken)
    title = document.title
    short = title.split("：")[0].strip() or key
    sections: dict[str, list[Element]] = {}
    for element in document.elements:
        section = element.number.split()[1].split(".")[0]
        sections.setdefault(section, []).append(element)
    modules = {f"section_{s.lower()}": elements for s, elements in sections.items()}
    files = {
        "chapter.py": (
            f"{quoted(title + ': how its file is recognised and cited.')}\n\n"
            "from proofs.book.registry import Chapter\n\n"
            "CHAPTER = Chapter(\n"
            f"    key={quoted(key)},\n"
            f"    file={quoted(Path(document.path).name)},\n"
            f"    title={quoted(title)},\n"
            f"    short={quoted(short)},\n"
            ")\n"
        ),
        "__init__.py": (
            f"{quoted(title + ', one check per element (skeleton: every check unchecked).')}\n\n"
            + "".join(f"from . import {m}  # noqa: F401 - registers\n" for m in modules)
            + "from .chapter import CHAPTER\n\n"
            + '__all__ = ["CHAPTER"]\n'
        ),
    }
    files["notation.py"] = _notation(title, declarations(document))
    for module, elements in modules.items():
        numbers = ", ".join(e.number for e in elements)
        files[f"{module}.py"] = (
            f"{quoted(numbers + '.')}\n\n"
            "from __future__ import annotations\n\n"
            "from proofs.book.judge import Unchecked\n\n"
            "from .chapter import CHAPTER\n\n"
            + TEMPLATE
            + "\n\n"
            + "\n\n".join(_stub(e, document.lines) for e in elements)
        )
        files[f"tests/test_{module}.py"] = _tests(elements)
    return files


def write_skeleton(
    document: Document, key: str, out: Path, taken: frozenset[str] = frozenset()
) -> Path:
    """Write the skeleton package into out/<package>; refuse to overwrite a directory."""
    target = out / package_name(key)
    if target.exists():
        raise FileExistsError(f"{target}: exists; choose another --out or --key")
    files = skeleton(document, key, taken)  # refused before anything is written
    target.mkdir(parents=True)
    for name, text in files.items():
        (target / name).parent.mkdir(exist_ok=True)
        (target / name).write_text(text, encoding="utf-8")
    return target
