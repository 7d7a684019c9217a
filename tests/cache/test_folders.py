"""cache.folders: the tree is never left through a link, and the cleanup of other versions
removes the cache's own files and the folders they leave empty, nothing of the user's."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cache import remembered as cache
from cache.codec import BOOL
from cache.fingerprint import fingerprint

ENTRY = hashlib.sha256(b"an entry").hexdigest()
OLD, OTHER = "0123456789abcdef", "fedcba9876543210"  # two other versions' folders


def tree(folder: Path) -> dict[str, str]:
    """Every path under `folder` (links not followed), with a file's text or a link's target."""
    out = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[name] = f"-> {os.readlink(path)}"
        elif path.is_file():
            out[name] = path.read_text()
        else:
            out[name] = "folder"
    return out


def user_folder(path: Path) -> Path:
    """A folder of the user's holding what the cleanup would remove were it the cache's."""
    (path / OLD / "f").mkdir(parents=True)
    (path / OLD / "f" / f"{ENTRY}.json").write_text("the user's")
    (path / "notes.txt").write_text("the user's")
    return path


def derive(folder: Path, key: Path) -> list[int]:
    """One value kept under `folder` and read back; the calls it took to compute."""
    calls: list[int] = []
    with cache.kept_in(folder, key):
        for _ in range(2):
            cache.remembered("f", "x", lambda: calls.append(1) or True, BOOL)
    return calls


def test_the_first_entry_of_a_version_removes_the_other_versions_own_files_only(tmp_path):
    root = tmp_path / "derivations"
    mine = user_folder(tmp_path / "mine")
    (root / OLD / "f").mkdir(parents=True)
    for name in (f"{ENTRY}.json", f"{ENTRY}.pickle", f".{ENTRY}.json.{'0' * 16}.part"):
        (root / OLD / "f" / name).write_text("the cache's")
    (root / OLD / "g").mkdir()
    (root / OLD / "g" / f"{ENTRY}.json").write_text("the cache's")
    (root / OTHER / "f").mkdir(parents=True)
    (root / OTHER / "f" / f"{ENTRY}.json").write_text("the cache's")
    (root / OTHER / "f" / "notes.txt").write_text("the user's")  # not named as an entry
    (root / OTHER / "f" / f"{'1' * 64}.json").symlink_to(mine / "notes.txt")  # a link
    (root / OTHER / "Kept").mkdir()  # not named as a kind of entry
    (root / OTHER / "Kept" / f"{ENTRY}.json").write_text("the user's")
    (root / OTHER / "h").symlink_to(mine / OLD / "f")  # a kind's folder that is a link
    (root / "aaaaaaaaaaaaaaaa").symlink_to(mine)  # a version's folder that is a link
    (root / "notes").mkdir()  # not named as a version
    (root / "notes" / "f").mkdir()
    (root / "notes" / "f" / f"{ENTRY}.json").write_text("the user's")
    user = tree(mine)
    assert derive(root, tmp_path / "key") == [1]
    assert tree(mine) == user
    version = fingerprint()[:16]
    assert {k: v for k, v in tree(root).items() if not k.startswith(version)} == {
        OTHER: "folder",
        f"{OTHER}/f": "folder",
        f"{OTHER}/f/notes.txt": "the user's",
        f"{OTHER}/f/{'1' * 64}.json": f"-> {mine / 'notes.txt'}",
        f"{OTHER}/Kept": "folder",
        f"{OTHER}/Kept/{ENTRY}.json": "the user's",
        f"{OTHER}/h": f"-> {mine / OLD / 'f'}",
        "aaaaaaaaaaaaaaaa": f"-> {mine}",
        "notes": "folder",
        "notes/f": "folder",
        f"notes/f/{ENTRY}.json": "the user's",
    }


def test_a_later_entry_of_the_same_version_cleans_nothing(tmp_path):
    root = tmp_path / "derivations"
    (root / fingerprint()[:16]).mkdir(parents=True)  # the version has begun
    (root / OLD / "f").mkdir(parents=True)
    (root / OLD / "f" / f"{ENTRY}.json").write_text("the cache's")
    derive(root, tmp_path / "key")
    assert (root / OLD / "f" / f"{ENTRY}.json").exists()


def test_a_linked_derivations_folder_is_neither_written_nor_cleaned(tmp_path):
    mine = user_folder(tmp_path / "mine")
    (tmp_path / "derivations").symlink_to(mine)
    user = tree(mine)
    assert derive(tmp_path / "derivations", tmp_path / "key") == [1, 1]
    assert tree(mine) == user


def test_a_linked_version_or_kind_folder_is_not_written_through(tmp_path):
    root = tmp_path / "derivations"
    root.mkdir()
    mine = user_folder(tmp_path / "mine")
    user = tree(mine)
    version = root / fingerprint()[:16]
    version.symlink_to(mine)
    assert derive(root, tmp_path / "key") == [1, 1]
    version.unlink()
    version.mkdir()
    (version / "f").symlink_to(mine)
    assert derive(root, tmp_path / "key") == [1, 1]
    assert tree(mine) == user
