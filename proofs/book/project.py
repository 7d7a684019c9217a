"""`proofs new-chapter --package DIR`: the skeleton of a chapter as a project of its own,
for an author who installed the package and writes a chapter outside its checkout.

DIR holds what `pip install -e DIR` needs: a `pyproject.toml` naming the chapter's
package in an entry point of the group the registry discovers
(`transformer_proofs.chapters`), the package (`<name>_checks`: the skeleton of
`proofs.book.scaffold`), and `tests/` with one test file per section and one that holds
every check's claims to the chapter's text (`proofs.testing`). The test files carry the
package's name, so that the tests of two chapters collected from one book folder never
share a module name. `[tool.proofs] chapters` points from DIR at the chapter file's
folder, so that the tests find the chapter from DIR as from the book folder.
"""

from __future__ import annotations

import os
from pathlib import Path

from proofs.book.registry import ENTRY_POINT_GROUP
from proofs.book.scaffold import chapter_key, package_name, quoted, skeleton
from proofs.reader import Document


def import_name(key: str) -> str:
    """The import name of a chapter's package of checks: kv-cache -> kv_cache_checks."""
    return f"{package_name(key)}_checks"


def default_folder(key: str) -> Path:
    """The project folder `new-chapter` writes without --package or --out outside a
    checkout: kv-cache -> kv-cache-checks."""
    return Path(f"{chapter_key(key)}-checks")


def toml_string(text: str) -> str:
    """A TOML basic string holding `text` (the chapter's title, a folder name): quotes and
    backslashes escaped, every character that is not printable written \\uXXXX (a lone
    surrogate, which TOML cannot hold, as U+FFFD).

    >>> print(toml_string('a "b"\\n\\x00\\ud800 自己注意'))
    "a \\"b\\"\\u000A\\u0000\\uFFFD 自己注意"
    """
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0xD800 <= ord(ch) <= 0xDFFF:
            out.append("\\uFFFD")
        elif not ch.isprintable():
            out.append(f"\\u{ord(ch):04X}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _pyproject(key: str, title: str, chapters: str) -> str:
    name = import_name(key)
    return (
        "[build-system]\n"
        'requires = ["setuptools>=68"]\n'
        'build-backend = "setuptools.build_meta"\n\n'
        "[project]\n"
        f'name = "{chapter_key(key)}-checks"\n'
        'version = "0.1.0"\n'
        f"description = {toml_string('The checks of the chapter ' + title)}\n"
        'requires-python = ">=3.11"\n'
        'dependencies = ["transformer-proofs"]\n\n'
        "# the registry of transformer-proofs imports the chapter's package from this entry point\n"
        f'[project.entry-points."{ENTRY_POINT_GROUP}"]\n'
        f'{chapter_key(key)} = "{name}"\n\n'
        "[tool.setuptools]\n"
        f'packages = ["{name}"]\n\n'
        "[tool.proofs]\n"
        "# the folder of the chapter file, for the commands and tests run from this folder\n"
        f"chapters = {toml_string(chapters)}\n"
    )


def _claims_test(key: str, title: str) -> str:
    return (
        f"{quoted(title + ': every check judges what the chapter file prints.')}\n\n"
        "import pytest\n\n"
        "from proofs.testing import claims_differences, element_ids, pristine\n\n"
        f"KEY = {quoted(chapter_key(key))}\n\n\n"
        '@pytest.mark.parametrize("element", element_ids(KEY), ids=lambda i: i.replace("-", "_"))\n'
        "def test_claims_are_the_chapters_text(element):\n"
        '    """Each claim of the check found as transcribed in the chapter file, and each\n'
        '    argument a claim feeds what the file, read, gives the check."""\n'
        "    assert claims_differences(element, pristine(KEY)) == []\n"
    )


def project(
    document: Document, key: str, folder: Path, taken: frozenset[str] = frozenset()
) -> dict[str, str]:
    """The files of the project, by name relative to `folder` (where it will be written,
    which says where the chapter file is from it)."""
    name = import_name(key)
    chapters = os.path.relpath(Path(document.path).resolve().parent, folder.resolve())
    files = {"pyproject.toml": _pyproject(key, document.title, Path(chapters).as_posix())}
    for path, text in skeleton(document, key, taken).items():
        if path.startswith("tests/test_"):
            files[f"tests/test_{name}_{path.removeprefix('tests/test_')}"] = text
        else:
            files[f"{name}/{path}"] = text
    files[f"tests/test_{name}_claims.py"] = _claims_test(key, document.title)
    return files


def write_project(
    document: Document, key: str, folder: Path, taken: frozenset[str] = frozenset()
) -> Path:
    """Write the project into `folder`, which must not exist (FileExistsError): a project
    is made whole, never merged into files that are there."""
    if folder.exists() or folder.is_symlink():
        raise FileExistsError(f"{folder}: exists; choose another --package folder")
    files = project(document, key, folder, taken)  # refused before anything is written
    folder.mkdir(parents=True)
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    return folder
