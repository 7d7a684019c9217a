"""symbolic.cache: derivations kept between runs give what deriving gives, and an entry of
another version, of other inputs or unreadable is never used."""

from __future__ import annotations

import pickle
import platform
import shutil
from pathlib import Path

import numpy as np
import pytest
import sympy
from sympy import eye, ones
from sympy.stats import Normal

from symbolic import cache
from symbolic.layer_norm_definition import chapter_jacobian
from symbolic.layer_norm_explicit import derive_layer_norm_jacobian, jacobian_properties
from symbolic.layer_norm_general import _differentiate_general_entry, general_entry
from symbolic.mask import mask_limit
from symbolic.polynomials import SparsePolynomial
from symbolic.probability import _moment, standard_normal

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def kept(tmp_path):
    """Derivations kept in a fresh folder for the test, and not afterwards."""
    cache.remember_in(tmp_path)
    try:
        yield tmp_path
    finally:
        cache.remember_in(None)


def counted(value):
    calls = []

    def compute():
        calls.append(1)
        return value

    return compute, calls


def entry_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.pickle"))


def test_without_a_folder_every_call_derives_and_nothing_is_kept(tmp_path):
    assert cache.remembering() is None
    compute, calls = counted(3)
    assert cache.remembered("f", "x", compute) == cache.remembered("f", "x", compute) == 3
    assert len(calls) == 2


def test_a_kept_derivation_is_read_back_for_the_same_name_and_inputs_only(kept):
    compute, calls = counted({"holds": True})
    assert cache.remembered("f", "x", compute) == {"holds": True}
    assert cache.remembered("f", "x", compute) == {"holds": True}
    assert len(calls) == 1
    cache.remembered("f", "y", compute)
    cache.remembered("g", "x", compute)
    assert len(calls) == 3
    assert len(entry_files(kept)) == 3


def test_an_entry_of_another_version_at_the_same_place_is_not_used(kept):
    compute, calls = counted("derived")
    cache.remembered("f", "x", compute)
    (path,) = entry_files(kept)
    _, name, digest, _ = pickle.loads(path.read_bytes())
    path.write_bytes(pickle.dumps(("another version", name, digest, "wrong")))
    assert cache.remembered("f", "x", compute) == "derived"
    assert len(calls) == 2
    assert pickle.loads(path.read_bytes())[3] == "derived"  # replaced


def test_the_first_entry_of_a_version_removes_other_versions_folders_and_nothing_else(kept):
    older = kept / "0123456789abcdef" / "f"
    older.mkdir(parents=True)
    (older / "entry.pickle").write_bytes(b"")
    notes = kept / "notes"  # not a version's folder
    notes.mkdir()
    cache.remembered("f", "x", lambda: 1)
    assert not (kept / "0123456789abcdef").exists() and notes.exists()
    assert [p.parent.parent.name for p in entry_files(kept)] == [cache.fingerprint()[:16]]


def test_an_entry_written_for_other_inputs_or_unreadable_is_not_used(kept):
    compute, calls = counted("derived")
    cache.remembered("f", "x", compute)
    (path,) = entry_files(kept)
    fingerprint, name, _, _ = pickle.loads(path.read_bytes())
    path.write_bytes(pickle.dumps((fingerprint, name, "other inputs", "wrong")))
    assert cache.remembered("f", "x", compute) == "derived"
    path.write_bytes(b"not a pickle")
    assert cache.remembered("f", "x", compute) == "derived"
    path.unlink()  # deleting is safe
    assert cache.remembered("f", "x", compute) == "derived"
    assert len(calls) == 4


def test_kept_in_restores_the_setting_it_found(tmp_path):
    with cache.kept_in(tmp_path):
        assert cache.remembering() == tmp_path
        with cache.kept_in(None):
            assert cache.remembering() is None
        assert cache.remembering() == tmp_path
    assert cache.remembering() is None
    with pytest.raises(RuntimeError), cache.kept_in(tmp_path):
        raise RuntimeError
    assert cache.remembering() is None


def test_a_folder_that_cannot_be_written_keeps_nothing_and_derives(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    cache.remember_in(blocked / "below")  # under a file: never made
    try:
        compute, calls = counted(1)
        assert cache.remembered("f", "x", compute) == cache.remembered("f", "x", compute) == 1
        assert len(calls) == 2
    finally:
        cache.remember_in(None)


@pytest.mark.parametrize(
    "module",
    [
        "symbolic/mask.py",
        "spec/config.py",
        "numeric/softmax.py",
        "proofs/chapters/self_attention/tables.py",  # a subpackage's module
    ],
)
def test_the_fingerprint_changes_with_a_version_and_with_an_edited_module(tmp_path, module):
    for name in ("symbolic", "spec", "numeric", "proofs"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    first = cache.version_fingerprint(tmp_path, ("0.1.0",))
    assert cache.version_fingerprint(tmp_path, ("0.1.0",)) == first
    assert cache.version_fingerprint(tmp_path, ("0.1.1",)) != first
    edited = tmp_path / module
    edited.write_text(edited.read_text() + "\n# edited\n")
    assert cache.version_fingerprint(tmp_path, ("0.1.0",)) != first
    assert len(cache.fingerprint()) == 64


def test_the_fingerprint_changes_with_a_moved_module(tmp_path):
    (tmp_path / "proofs" / "a").mkdir(parents=True)
    (tmp_path / "proofs" / "a" / "m.py").write_text("x = 1\n")
    first = cache.version_fingerprint(tmp_path, ())
    (tmp_path / "proofs" / "a" / "m.py").rename(tmp_path / "proofs" / "m.py")
    assert cache.version_fingerprint(tmp_path, ()) != first


def test_the_fingerprints_parts_cannot_run_into_each_other(tmp_path):
    """Versions, paths and texts are each closed by a NUL: no two different packages give
    the same stream of bytes."""
    assert cache.version_fingerprint(tmp_path, ("ab", "c")) != cache.version_fingerprint(
        tmp_path, ("a", "bc")
    )

    def package(**modules: str) -> str:
        root = tmp_path / str(len(list(tmp_path.iterdir())))
        (root / "proofs").mkdir(parents=True)
        for name, text in modules.items():
            (root / "proofs" / f"{name}.py").write_text(text)
        return cache.version_fingerprint(root, ())

    two = package(a="X", b="Y")
    assert package(a="X\0proofs/b.pyY") != two  # a path read as text
    assert package(a="Xproofs/b.py\0Y") != two  # a text read as a path


def test_the_fingerprint_names_the_versions_of_what_computes(monkeypatch):
    named = []

    def fingerprint_of(root: Path, versions: tuple[str, ...]) -> str:
        assert (root / "symbolic" / "cache.py").samefile(cache.__file__)  # the package's
        named.extend(versions)
        return "0" * 64

    monkeypatch.setattr(cache, "version_fingerprint", fingerprint_of)
    cache.fingerprint.cache_clear()
    try:
        cache.fingerprint()
    finally:
        cache.fingerprint.cache_clear()
    assert {sympy.__version__, np.__version__, platform.python_version()} <= set(named)


def test_bad_arguments_name_themselves():
    with pytest.raises(ValueError, match="name"):
        cache.remembered("a/b", "x", lambda: 1)
    with pytest.raises(TypeError, match="inputs"):
        cache.remembered("f", 3, lambda: 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="folder"):
        cache.remember_in("/tmp")  # type: ignore[arg-type]


def test_the_key_of_polynomials_tells_equal_from_unequal_entries():
    p, q = SparsePolynomial.variable(0), SparsePolynomial.variable(1)
    assert cache.polynomials_key([[p + q]]) == cache.polynomials_key([[q + p]])
    assert cache.polynomials_key([[p, q]]) != cache.polynomials_key([[q, p]])
    assert cache.polynomials_key([[p], [q]]) != cache.polynomials_key([[p, q]])


def without_y_y_t(y, sigma):
    """命題 3.3's J without its - y y^T / d term."""
    d = y.rows
    return (eye(d) - ones(d, d) / d) / sigma


@pytest.mark.parametrize("d", [3, 8])
def test_prop_layer_norm_jacobian_kept_equals_derived_for_the_chapters_and_a_wrong_formula(kept, d):
    for stated in (chapter_jacobian, without_y_y_t):
        fresh = derive_layer_norm_jacobian(d, stated)  # derived, then kept
        again = derive_layer_norm_jacobian(d, stated)  # read back
        assert again.holds == fresh.holds == (stated is chapter_jacobian)
        assert again.derived == fresh.derived and again.difference == fresh.difference
    for stated in (None, without_y_y_t):
        fresh_p, again_p = (jacobian_properties(d, stated=stated) for _ in range(2))
        assert again_p.holds == fresh_p.holds and again_p.defects == fresh_p.defects
    assert not all(jacobian_properties(d, stated=without_y_y_t).holds.values())
    cache.remember_in(None)
    assert jacobian_properties(d, stated=without_y_y_t).holds == again_p.holds


def test_general_entry_and_the_mask_limit_kept_equal_the_derived_ones(kept):
    derived = _differentiate_general_entry()
    assert cache.remembered("general_entry", "", _differentiate_general_entry) == derived
    assert cache.remembered("general_entry", "", lambda: None) == derived  # read back
    assert general_entry() == derived
    fresh = mask_limit(3, [0, 2])
    again = mask_limit(3, [0, 2])
    assert again.limit == fresh.limit and again.holds and fresh.holds
    assert not mask_limit(3, [0, 2], lambda z, U: z).holds  # a wrong target, limit read back


def test_lem_product_expectation_moments_kept_equal_the_derived_ones_per_distribution(kept):
    _moment.cache_clear()  # the process's own cache in front of the kept one
    fresh = _moment(standard_normal, 2)
    _moment.cache_clear()
    again = _moment(standard_normal, 2)  # read back
    _moment.cache_clear()
    wider = _moment(lambda name: Normal(name, 0, 2), 2)  # another distribution, its own
    _moment.cache_clear()
    assert fresh == again == 1 and wider == 4
    assert {path.parent.name for path in entry_files(kept)} == {"moment"}
    assert len(entry_files(kept)) == 2
