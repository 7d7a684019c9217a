"""cache.fingerprint: another version of anything that computes a kept value is another
fingerprint, read without importing what it names."""

from __future__ import annotations

import platform
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sympy

from cache import fingerprint as fingerprints
from cache.fingerprint import SOURCES, installed, version_fingerprint

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "module",
    [
        "cache/seal.py",
        "symbolic/mask.py",
        "spec/config.py",
        "numeric/softmax.py",
        "proofs/chapters/self_attention/tables.py",  # a subpackage's module
    ],
)
def test_the_fingerprint_changes_with_a_version_and_with_an_edited_module(tmp_path, module):
    for name in SOURCES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    first = version_fingerprint(tmp_path, ("0.1.0",))
    assert version_fingerprint(tmp_path, ("0.1.0",)) == first
    assert version_fingerprint(tmp_path, ("0.1.1",)) != first
    edited = tmp_path / module
    edited.write_text(edited.read_text() + "\n# edited\n")
    assert version_fingerprint(tmp_path, ("0.1.0",)) != first
    assert len(fingerprints.fingerprint()) == 64


def test_the_fingerprint_changes_with_a_moved_module(tmp_path):
    (tmp_path / "proofs" / "a").mkdir(parents=True)
    (tmp_path / "proofs" / "a" / "m.py").write_text("x = 1\n")
    first = version_fingerprint(tmp_path, ())
    (tmp_path / "proofs" / "a" / "m.py").rename(tmp_path / "proofs" / "m.py")
    assert version_fingerprint(tmp_path, ()) != first


def test_the_fingerprints_parts_cannot_run_into_each_other(tmp_path):
    """Versions, paths and texts are each closed by a NUL: no two different packages give
    the same stream of bytes."""
    assert version_fingerprint(tmp_path, ("ab", "c")) != version_fingerprint(tmp_path, ("a", "bc"))

    def package(**modules: str) -> str:
        root = tmp_path / str(len(list(tmp_path.iterdir())))
        (root / "proofs").mkdir(parents=True)
        for name, text in modules.items():
            (root / "proofs" / f"{name}.py").write_text(text)
        return version_fingerprint(root, ())

    two = package(a="X", b="Y")
    assert package(a="X\0proofs/b.pyY") != two  # a path read as text
    assert package(a="Xproofs/b.py\0Y") != two  # a text read as a path


def test_the_fingerprint_names_the_versions_of_what_computes(monkeypatch):
    named = []

    def fingerprint_of(root: Path, versions: tuple[str, ...]) -> str:
        assert (root / "cache" / "fingerprint.py").samefile(fingerprints.__file__)  # the package's
        named.extend(versions)
        return "0" * 64

    monkeypatch.setattr(fingerprints, "version_fingerprint", fingerprint_of)
    fingerprints.fingerprint.cache_clear()
    try:
        fingerprints.fingerprint()
    finally:
        fingerprints.fingerprint.cache_clear()
    assert named == [
        installed("transformer-proofs"),
        sympy.__version__,
        np.__version__,
        platform.python_version(),
    ]
    assert installed("transformer-proofs") != "not installed"


def test_the_fingerprint_imports_neither_sympy_nor_numpy():
    """symbolic/ never imports NumPy: the fingerprint it keys its derivations by reads the
    versions from the installed metadata."""
    code = (
        "import sys; from cache.remembered import remembered; from cache.fingerprint import "
        "fingerprint; fingerprint(); print(sorted({'numpy', 'sympy'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "[]\n", "")
