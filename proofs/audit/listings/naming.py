"""The names a chapter's text gives its listings: a listing is saved under the file name
the text gives it (「次のコードを kv_cache.py として保存します」), or as
`listing_<line>.py`; a name the listing itself imports is an earlier listing's
(「attention.py は前のコード」)."""

from __future__ import annotations

import ast
import re

from proofs.reader import Document
from proofs.reader.records import Listing

FILE_NAME = re.compile(r"(?<![A-Za-z0-9_./-])([A-Za-z_][A-Za-z0-9_]*)\.py(?![A-Za-z0-9_])")


def _mentions(document: Document, listing: Listing) -> list[str]:
    """The `name.py` in the listing's leading comments and in the paragraph of prose
    just before it, in the order of the text."""
    above = listing.line - (2 if document.form == "MDX" else 1)  # above the fence or `# Python`
    while above >= 1 and not document.line(above).strip():
        above -= 1
    paragraph: list[str] = []
    while above >= 1 and document.line(above).strip() and above not in document.code:
        paragraph.insert(0, document.line(above))
        above -= 1
    comments = []
    for text in listing.code:
        if text.strip() and not text.lstrip().startswith("#"):
            break
        comments.append(text)
    found = [m.group(1) for text in paragraph + comments for m in FILE_NAME.finditer(text)]
    return list(dict.fromkeys(found))


def _imports(code: str) -> dict[str, set[str] | None]:
    """Each top-level module name the code imports, with the names it takes from it
    (`from m import a, b`, `m.a`); None when it takes everything (`import *`)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return {}
    taken: dict[str, set[str] | None] = {}
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if "." in node.module:
                continue
            names = {a.name for a in node.names}
            before = taken.get(node.module, set())
            taken[node.module] = None if "*" in names or before is None else before | names
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if "." not in alias.name:
                    taken.setdefault(alias.name, set())
                    aliases[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
        ):
            wanted = taken[aliases[node.value.id]]
            if wanted is not None:
                wanted.add(node.attr)
    return taken


def _defines(code: str) -> set[str]:
    """The names a module defines when imported (its `__main__` block aside)."""
    try:
        pending = list(ast.parse(code).body)
    except SyntaxError:
        return set()
    names: set[str] = set()
    while pending:
        node = pending.pop(0)
        targets: list[ast.AST | None] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        elif isinstance(node, ast.For | ast.While | ast.With | ast.If | ast.Try):
            if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
                continue
            targets = [node.target] if isinstance(node, ast.For) else []
            if isinstance(node, ast.With):
                targets = [item.optional_vars for item in node.items]
            inner = [getattr(node, part, []) for part in ("body", "orelse", "finalbody")]
            pending = [statement for block in inner for statement in block] + pending
        for target in targets:
            if target is not None:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def file_names(document: Document) -> dict[int, str]:
    """The file name of each listing with code, by its line: the name the text gives it
    (see the module's docstring) or `listing_<line>.py`."""
    if not isinstance(document, Document):
        raise TypeError(f"document: expected a Document, got {type(document).__name__}")
    runnable = [listing for listing in document.listings if listing.code]
    named: dict[int, str] = {}
    for k, listing in enumerate(runnable):
        code = "\n".join(listing.code)
        imports = _imports(code)
        for name in _mentions(document, listing):
            if name in imports:
                wanted = imports[name] or set()
                if name in named.values():
                    continue
                for earlier in reversed(runnable[:k]):
                    if earlier.line in named:
                        continue
                    if wanted <= _defines("\n".join(earlier.code)):
                        named[earlier.line] = name
                        break
            elif name not in named.values() and listing.line not in named:
                named[listing.line] = name
    return {
        listing.line: f"{named[listing.line]}.py"
        if listing.line in named
        else f"listing_{listing.line}.py"
        for listing in runnable
    }
