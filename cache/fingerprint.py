"""The version a kept value belongs to: the versions of what computes it and the text of
every module of the package.

An edit without a new version number is another version, and a value computed by code
anywhere in the package is never read by another version of that code. The versions of
SymPy and NumPy are read from their installed metadata, so that this module imports
neither (it serves symbolic/, which never imports NumPy, as well as numeric/ and proofs/).
"""

from __future__ import annotations

import functools
import hashlib
import platform
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

SOURCES = ("cache", "symbolic", "spec", "numeric", "proofs")  # the package's folders
COMPUTING = ("transformer-proofs", "sympy", "numpy")  # distributions whose version counts


def version_fingerprint(root: Path, versions: Iterable[str]) -> str:
    """A SHA-256 of `versions` and of the text of every module of the package's folders
    (SOURCES, with their subfolders) under `root`: another version number, or an edited,
    added or moved module, gives another fingerprint."""
    digest = hashlib.sha256()
    for part in versions:
        digest.update(part.encode() + b"\0")
    for source in sorted(p for name in SOURCES for p in (root / name).rglob("*.py")):
        digest.update(source.relative_to(root).as_posix().encode() + b"\0")
        digest.update(source.read_bytes() + b"\0")
    return digest.hexdigest()


def installed(distribution: str) -> str:
    """The installed version of `distribution`, or "not installed".

    >>> installed("no-such-distribution-of-this-name")
    'not installed'
    """
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "not installed"


@functools.lru_cache(maxsize=1)
def fingerprint() -> str:
    """This version's fingerprint: the package's, SymPy's, NumPy's and Python's versions and
    the text of the package's modules (`version_fingerprint`).

    >>> len(fingerprint()), fingerprint() == fingerprint()
    (64, True)
    """
    root = Path(__file__).resolve().parents[1]
    versions = (*map(installed, COMPUTING), platform.python_version())
    return version_fingerprint(root, versions)
