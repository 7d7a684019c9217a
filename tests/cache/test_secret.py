"""cache.secret: the key is made once, private to the user, and used only while it stays so;
otherwise no key, and nothing is kept or read."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from cache.secret import SIZE, key_file, secret, usable


def test_the_key_is_made_once_with_mode_0600_and_read_back(tmp_path):
    path = tmp_path / "config" / "transformer-proofs" / "cache-key"
    key = secret(path)
    assert key is not None and len(key) == SIZE == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert secret(path) == key == path.read_bytes()
    assert [p.name for p in path.parent.iterdir()] == ["cache-key"]  # its scratch file gone


def test_a_key_made_first_by_another_process_is_kept(tmp_path):
    path = tmp_path / "cache-key"
    theirs = bytes(range(SIZE))
    path.write_bytes(theirs)
    path.chmod(0o600)
    assert secret(path) == theirs


@pytest.mark.parametrize(
    "spoil",
    [
        lambda path: path.chmod(0o640),  # its group can read it
        lambda path: path.chmod(0o602),  # others can write it
        lambda path: path.chmod(0o601),  # others have a right to it at all
        lambda path: path.write_bytes(bytes(SIZE + 1)),  # not a key's size
        lambda path: path.write_bytes(b""),
    ],
    ids=["group-readable", "others-writable", "others-executable", "longer", "empty"],
)
def test_a_key_file_others_could_read_or_change_is_not_used_nor_replaced(tmp_path, spoil):
    path = tmp_path / "cache-key"
    secret(path)
    spoil(path)
    before = (path.read_bytes(), path.stat().st_mode)
    assert secret(path) is None
    assert (path.read_bytes(), path.stat().st_mode) == before


def test_a_link_in_place_of_the_key_is_not_followed(tmp_path):
    real = tmp_path / "elsewhere"
    assert secret(real) is not None
    (tmp_path / "cache-key").symlink_to(real)
    assert secret(tmp_path / "cache-key") is None


def test_a_fifo_in_place_of_the_key_is_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "cache-key")
    assert secret(tmp_path / "cache-key") is None


def test_a_key_that_cannot_be_made_is_none(tmp_path):
    (tmp_path / "file").write_text("")
    assert secret(tmp_path / "file" / "cache-key") is None


def test_a_key_is_usable_only_as_its_owners_private_regular_file(tmp_path):
    path = tmp_path / "cache-key"
    secret(path)
    status = path.stat()
    fields = list(status[:10])
    assert usable(status, status.st_uid)
    assert not usable(status, status.st_uid + 1)  # another account's file
    fields[stat.ST_MODE] = stat.S_IFDIR | 0o700
    assert not usable(os.stat_result(fields), status.st_uid)


def test_the_key_lives_in_the_configuration_directory(tmp_path):
    folder = tmp_path / "configuration"
    assert key_file({"XDG_CONFIG_HOME": str(folder)}) == folder / "transformer-proofs" / "cache-key"
    assert key_file({}) == Path.home() / ".config" / "transformer-proofs" / "cache-key"
