"""A persistent cache of costly derivations: what a derivation returned, kept in a folder
between runs, keyed by the code that computed it and the inputs it was given.

Off until a folder is chosen (`remember_in`): every command of the command line keeps it in
the user's cache directory (a run of the test suite, in an empty folder of its own). An
entry's key is a SHA-256 of the derivation's name and a text of its inputs, under the
version's fingerprint (the package's version, SymPy's, NumPy's and Python's, and the text of
every module of the package, symbolic/, spec/, numeric/ and proofs/ with its subpackages: an
edit without a new version number is another version, and a value computed by code anywhere
in the package is never read by another version of that code). The entry holds the
fingerprint, the name and the inputs' digest beside the value, and is used only when all
three are those asked for: an entry of another version, or one written for other inputs, is
recomputed and replaced, and the first entry a version writes removes the other versions'
folders. Deleting the folder, or any file in it, is always safe; a file that cannot be read
or written is a miss, never an error. Entries are pickles, read only from the folder the
user's own commands write.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import platform
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

import numpy
import sympy

from symbolic.polynomials import SparsePolynomial

T = TypeVar("T")

_SOURCES = ("symbolic", "spec", "numeric", "proofs")
_folder: Path | None = None


def remember_in(folder: Path | None) -> None:
    """Keep derivations in `folder` from now on (None: compute every time, keep nothing)."""
    global _folder
    if folder is not None and not isinstance(folder, Path):
        raise TypeError(f"remember_in: folder must be a Path or None, got {type(folder).__name__}")
    _folder = folder


@contextlib.contextmanager
def kept_in(folder: Path | None) -> Iterator[None]:
    """Keep derivations in `folder` for the duration, then as before (a command run inside
    another program, a test, leaves the setting as it found it)."""
    previous = _folder
    remember_in(folder)
    try:
        yield
    finally:
        remember_in(previous)


def remembering() -> Path | None:
    """The folder derivations are kept in, or None."""
    return _folder


def version_fingerprint(root: Path, versions: Iterable[str]) -> str:
    """A SHA-256 of `versions` and of the text of every module of the package's folders
    (_SOURCES, with their subfolders) under `root`: another version number, or an edited,
    added or moved module, gives another fingerprint."""
    digest = hashlib.sha256()
    for part in versions:
        digest.update(part.encode() + b"\0")
    for source in sorted(p for name in _SOURCES for p in (root / name).rglob("*.py")):
        digest.update(source.relative_to(root).as_posix().encode() + b"\0")
        digest.update(source.read_bytes() + b"\0")
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def fingerprint() -> str:
    """This version's fingerprint: the package's, SymPy's, NumPy's and Python's versions and
    the text of the package's modules (`version_fingerprint`).

    >>> len(fingerprint()), fingerprint() == fingerprint()
    (64, True)
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        package = version("transformer-proofs")
    except PackageNotFoundError:
        package = "not installed"
    root = Path(__file__).resolve().parents[1]
    versions = (package, sympy.__version__, numpy.__version__, platform.python_version())
    return version_fingerprint(root, versions)


def polynomials_key(rows: Iterable[Iterable[SparsePolynomial]]) -> str:
    """A text of a matrix of SparsePolynomials that two matrices share exactly when they
    are equal (terms sorted, so the order they were built in does not matter).

    >>> p = SparsePolynomial.variable(0)
    >>> polynomials_key([[p + 1]]) == polynomials_key([[1 + p]])
    True
    >>> polynomials_key([[p]]) == polynomials_key([[p * 2]])
    False
    """
    return "\n".join("|".join(repr(sorted(entry.terms.items())) for entry in row) for row in rows)


def _path(name: str, inputs: str) -> tuple[Path, str]:
    """The entry's file under the chosen folder and the inputs' digest."""
    assert _folder is not None
    digest = hashlib.sha256(f"{name}\0{inputs}".encode()).hexdigest()
    return _folder / fingerprint()[:16] / name / f"{digest}.pickle", digest


def remembered(name: str, inputs: str, compute: Callable[[], T]) -> T:
    """compute(), or what it returned for the same `name` and `inputs` under this version
    when a folder is chosen. `inputs` must say everything the result depends on besides
    the package's code and the versions the fingerprint names."""
    if not isinstance(name, str) or not name or "/" in name:
        raise ValueError(f"remembered: name must be a non-empty word without '/', got {name!r}")
    if not isinstance(inputs, str):
        raise TypeError(f"remembered: inputs must be a str, got {type(inputs).__name__}")
    if _folder is None:
        return compute()
    path, digest = _path(name, inputs)
    try:
        stored = pickle.loads(path.read_bytes())
        if stored[:3] == (fingerprint(), name, digest):
            return stored[3]
    except Exception:  # noqa: BLE001, S301 - missing, unreadable or foreign: recompute
        pass
    value = compute()
    _write(path, (fingerprint(), name, digest, value))
    return value


def _write(path: Path, entry: tuple) -> None:
    """Write the entry whole or not at all (a temporary file renamed over it); a value
    that cannot be pickled, or a folder that cannot be written, keeps nothing."""
    version = path.parent.parent
    try:
        data = pickle.dumps(entry)
        first = not version.exists()
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".part")
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return
    if first:
        _forget_other_versions(version)
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _forget_other_versions(version: Path) -> None:
    """Remove the folders of other versions beside `version` (when it gets its first entry:
    an edited module makes a new one, and the old ones would only grow). Only folders named
    as this module names them, 16 hexadecimal digits, are touched."""
    for other in version.parent.iterdir():
        name = other.name
        if other != version and len(name) == 16 and all(c in "0123456789abcdef" for c in name):
            shutil.rmtree(other, ignore_errors=True)
