"""cache.remembered: a kept value is read back for the same name and inputs only; an entry
of another version or inputs, changed, of the wrong type or shape, planted, or unreadable
is computed again, never believed and never run."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import stat
from pathlib import Path

import pytest

from cache import folders
from cache import remembered as cache
from cache.codec import BOOL, Codec, NotKept
from cache.fingerprint import fingerprint
from cache.seal import FORMAT, sealed, unsealed
from cache.secret import secret

DIGEST = hashlib.sha256(b"f\0x").hexdigest()  # of the name "f" and the inputs "x"
NUMBERS: Codec[list] = Codec(
    lambda v: v, lambda d: d if type(d) is list and all(type(x) is int for x in d) else [][0]
)  # lists of ints; anything else an IndexError, as a decoder's own check would raise


@pytest.fixture
def kept(tmp_path):
    """Values kept in a fresh folder, sealed with a fresh key, for the test alone."""
    folder = tmp_path / "derivations"
    folder.mkdir()
    with cache.kept_in(folder, tmp_path / "key"):
        yield folder


def key_of(folder: Path) -> bytes:
    key = secret(folder.parent / "key")
    assert key is not None
    return key


def counted(value):
    calls = []

    def compute():
        calls.append(1)
        return value

    return compute, calls


def entry_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json"))


def rewritten(path: Path, key: bytes, **changes) -> None:
    """The entry at `path` with fields changed, sealed again under `key`."""
    entry = json.loads(unsealed(path.read_bytes(), key))
    path.write_bytes(sealed(json.dumps({**entry, **changes}).encode(), key))


def test_without_a_folder_every_call_computes_and_nothing_is_kept():
    assert cache.remembering() is None
    compute, calls = counted(True)
    assert cache.remembered("f", "x", compute, BOOL) is cache.remembered("f", "x", compute, BOOL)
    assert len(calls) == 2


def test_a_kept_value_is_read_back_for_the_same_name_and_inputs_only(kept):
    compute, calls = counted([1, 2])
    assert cache.remembered("f", "x", compute, NUMBERS) == [1, 2]
    assert cache.remembered("f", "x", compute, NUMBERS) == [1, 2]
    assert len(calls) == 1
    cache.remembered("f", "y", compute, NUMBERS)
    cache.remembered("g", "x", compute, NUMBERS)
    assert len(calls) == 3
    files = entry_files(kept)
    assert [p.relative_to(kept).parts[:2] for p in files] == [
        (fingerprint()[:16], name) for name in sorted(("f", "f", "g"))
    ]
    assert kept / fingerprint()[:16] / "f" / f"{DIGEST}.json" in files


@pytest.mark.parametrize(
    "changes",
    [
        {"fingerprint": "0" * 64},  # another version's entry at this place
        {"inputs": "0" * 64},  # written for other inputs
        {"name": "g"},  # for another derivation
    ],
    ids=["version", "inputs", "name"],
)
def test_an_entry_of_another_version_inputs_or_name_is_not_used_and_is_replaced(kept, changes):
    compute, calls = counted([1])
    cache.remembered("f", "x", compute, NUMBERS)
    (path,) = entry_files(kept)
    rewritten(path, key_of(kept), **changes, value=[666])
    assert cache.remembered("f", "x", compute, NUMBERS) == [1]
    assert len(calls) == 2
    assert json.loads(unsealed(path.read_bytes(), key_of(kept)))["value"] == [1]  # replaced


def test_a_changed_value_under_its_old_digest_is_computed_again_and_replaced(kept):
    """The header intact, the value changed, the first line as it was."""
    compute, calls = counted([400])
    cache.remembered("f", "x", compute, NUMBERS)
    (path,) = entry_files(kept)
    original = path.read_bytes()
    path.write_bytes(original.replace(b"[400]", b"[999]"))
    assert cache.remembered("f", "x", compute, NUMBERS) == [400]
    assert len(calls) == 2 and path.read_bytes() == original


def test_a_changed_value_with_a_digest_recomputed_without_the_key_is_computed_again(kept):
    compute, calls = counted([400])
    cache.remembered("f", "x", compute, NUMBERS)
    (path,) = entry_files(kept)
    body = path.read_bytes().partition(b"\n")[2].replace(b"[400]", b"[999]")
    plain = hashlib.sha256(FORMAT + body).hexdigest().encode()
    path.write_bytes(FORMAT + plain + b"\n" + body)
    assert cache.remembered("f", "x", compute, NUMBERS) == [400]
    path.write_bytes(sealed(body, bytes(32)))  # sealed under a key of the attacker's own
    assert cache.remembered("f", "x", compute, NUMBERS) == [400]
    assert len(calls) == 3


@pytest.mark.parametrize("value", [1, "true", None, [True], {"holds": True}])
def test_a_value_of_the_wrong_type_is_a_miss_even_under_the_key(kept, value):
    compute, calls = counted(True)
    cache.remembered("f", "x", compute, BOOL)
    (path,) = entry_files(kept)
    rewritten(path, key_of(kept), value=value)
    assert cache.remembered("f", "x", compute, BOOL) is True
    assert len(calls) == 2


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[1, 2]",  # not an object
        b'{"fingerprint": "f"}',  # fields missing
        b'{"fingerprint":"F","name":"f","inputs":"I","value":[1],"more":0}',  # a field more
        b'{"name":"f","fingerprint":"F","inputs":"I","value":[1]}',  # in another order
        b"[" * 100_000 + b"]" * 100_000,  # nested deeper than the parser goes
        b'{"fingerprint":"F","name":"f","inputs":"I","value":[NaN]}',  # not a value it writes
        b'{"fingerprint":"F","name":"f","inputs":"I","value":[' + b"9" * 5000 + b"]}",
        b"\xff\xfe",
    ],
    ids=["text", "list", "fields", "more", "order", "deep", "nan", "long-integer", "not-utf-8"],
)
def test_a_sealed_entry_that_is_not_an_entry_is_a_miss(kept, body):
    compute, calls = counted([1])
    cache.remembered("f", "x", compute, NUMBERS)
    (path,) = entry_files(kept)
    header = json.loads(unsealed(path.read_bytes(), key_of(kept)))
    text = body.replace(b'"F"', json.dumps(header["fingerprint"]).encode())
    path.write_bytes(
        sealed(text.replace(b'"I"', json.dumps(header["inputs"]).encode()), key_of(kept))
    )
    assert cache.remembered("f", "x", compute, NUMBERS) == [1]
    assert len(calls) == 2


def test_whatever_a_decoder_raises_on_what_it_reads_is_a_miss(kept):
    class Unforeseen(Exception):
        pass

    def decode(data):
        if data == [2]:
            raise Unforeseen
        return data

    compute, calls = counted([1])
    cache.remembered("f", "x", compute, Codec(lambda v: v, decode))
    (path,) = entry_files(kept)
    rewritten(path, key_of(kept), value=[2])
    assert cache.remembered("f", "x", compute, Codec(lambda v: v, decode)) == [1]
    assert len(calls) == 2


def planted_pickle(marker: Path) -> bytes:
    """A pickle that, loaded, would make the file `marker`."""

    class Planted:
        def __reduce__(self):
            return (Path.touch, (marker,))

    return pickle.dumps(Planted())


def test_a_planted_pickle_never_runs(kept, tmp_path):
    """At the place of the earlier format's entry, and at the place of this one's, alone
    or behind a first line: a miss, computed, and the file it would make never made."""
    shown, marker = tmp_path / "shown", tmp_path / "HACKED"
    pickle.loads(planted_pickle(shown))  # what loading it would do
    assert shown.exists()
    folder = kept / fingerprint()[:16] / "f"
    folder.mkdir(parents=True)
    (folder / f"{DIGEST}.pickle").write_bytes(planted_pickle(marker))
    for planted in (planted_pickle(marker), FORMAT + b"0" * 64 + b"\n" + planted_pickle(marker)):
        (folder / f"{DIGEST}.json").write_bytes(planted)
        compute, calls = counted([1])
        assert cache.remembered("f", "x", compute, NUMBERS) == [1]
        assert len(calls) == 1
    assert not marker.exists()


def test_a_fifo_in_place_of_an_entry_is_a_miss_without_waiting(kept):
    """With no writer, or with one that holds it open and writes nothing."""
    path = kept / fingerprint()[:16] / "f" / f"{DIGEST}.json"
    path.parent.mkdir(parents=True)
    compute, calls = counted([1])
    for held in (False, True):
        path.unlink(missing_ok=True)  # the entry the last miss wrote
        os.mkfifo(path)
        writer = os.open(path, os.O_RDWR | os.O_NONBLOCK) if held else None
        try:
            assert cache.remembered("f", "x", compute, NUMBERS) == [1]
        finally:
            if writer is not None:
                os.close(writer)
    assert len(calls) == 2


def test_entries_and_their_folders_are_the_users_alone(kept):
    cache.remembered("f", "x", lambda: [1], NUMBERS)
    (path,) = entry_files(kept)
    modes = [stat.S_IMODE(p.stat().st_mode) for p in (path, path.parent, path.parent.parent)]
    assert modes == [0o600, 0o700, 0o700]


def test_a_link_in_place_of_an_entry_is_not_followed_nor_written_through(kept, tmp_path):
    compute, calls = counted([1])
    cache.remembered("f", "x", compute, NUMBERS)
    (path,) = entry_files(kept)
    elsewhere = tmp_path / "elsewhere.json"
    path.rename(elsewhere)
    path.symlink_to(elsewhere)  # a valid entry, through a link
    before = elsewhere.read_bytes()
    assert cache.remembered("f", "x", compute, NUMBERS) == [1]
    assert len(calls) == 2
    assert elsewhere.read_bytes() == before and not path.is_symlink()  # the link replaced


def test_an_entry_larger_than_the_limit_is_not_read(kept, monkeypatch):
    compute, calls = counted(list(range(100)))
    cache.remembered("f", "x", compute, NUMBERS)
    (path,) = entry_files(kept)
    monkeypatch.setattr(folders, "LIMIT", path.stat().st_size - 1)
    cache.remembered("f", "x", compute, NUMBERS)
    monkeypatch.setattr(folders, "LIMIT", path.stat().st_size)
    cache.remembered("f", "x", compute, NUMBERS)
    assert len(calls) == 2


def test_a_value_its_codec_cannot_write_or_read_back_is_computed_each_time(kept):
    def refuse(value):
        raise NotKept("not this one")

    unwritable = Codec(refuse, lambda data: data)
    unfaithful = Codec(lambda v: v, lambda data: [*data, 0])
    for codec in (unwritable, unfaithful, NUMBERS):
        compute, calls = counted([1.5] if codec is NUMBERS else [1])
        cache.remembered("f", "x", compute, codec)
        cache.remembered("f", "x", compute, codec)
        assert len(calls) == 2
    assert entry_files(kept) == []


def test_without_a_usable_key_nothing_is_kept_or_read(tmp_path):
    folder = tmp_path / "derivations"
    folder.mkdir()
    (tmp_path / "file").write_text("")
    group_readable = tmp_path / "shared-key"
    secret(group_readable)
    group_readable.chmod(0o640)
    for key in (tmp_path / "file" / "key", group_readable):
        with cache.kept_in(folder, key):
            compute, calls = counted([1])
            cache.remembered("f", "x", compute, NUMBERS)
            cache.remembered("f", "x", compute, NUMBERS)
        assert len(calls) == 2
    assert list(folder.iterdir()) == []


def test_a_folder_that_is_missing_or_cannot_be_written_keeps_nothing(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    for folder in (tmp_path / "missing", blocked / "below"):
        with cache.kept_in(folder, tmp_path / "key"):
            compute, calls = counted([1])
            assert cache.remembered("f", "x", compute, NUMBERS) == [1]
            assert cache.remembered("f", "x", compute, NUMBERS) == [1]
        assert len(calls) == 2
    assert not (tmp_path / "missing").exists()


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


def test_bad_arguments_name_themselves(tmp_path):
    for name in ("a/b", "", "F", "../f", "f.g"):
        with pytest.raises(ValueError, match="name must be lowercase letters"):
            cache.remembered(name, "x", lambda: True, BOOL)
    with pytest.raises(TypeError, match="inputs must be a str, got int"):
        cache.remembered("f", 3, lambda: True, BOOL)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="folder must be a Path or None, got str"):
        cache.remember_in("/tmp")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="key must be a Path or None, got str"):
        cache.remember_in(tmp_path, "key")  # type: ignore[arg-type]
    assert cache.remembering() is None
