"""What a costly computation returned, kept in a folder between runs: keyed by the code
that computed it (`cache.fingerprint`) and the inputs it was given, sealed with a key kept
elsewhere (`cache.seal`, `cache.secret`), and decoded by its kind's codec (`cache.codec`).

Off until a folder is chosen (`remember_in`). An entry is used only when all of these
hold, and is otherwise a miss, computed again and replaced: it is a regular file under
the folder, reached without a link; its digest verifies under the key; it is JSON whose
fingerprint, name and inputs' digest are those asked for; and its value decodes, every
type and shape checked. A value is kept only when its codec can encode it and decoding
that gives the value back, equal; else it is computed each time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from cache.codec import Codec
from cache.fingerprint import fingerprint
from cache.folders import NAME, entry_name, read_entry, write_entry
from cache.seal import sealed, unsealed
from cache.secret import key_file, secret

T = TypeVar("T")

FIELDS = ("fingerprint", "name", "inputs", "value")  # an entry's JSON object, in order
UNWRITABLE = (ValueError, TypeError, KeyError, IndexError, RecursionError)


@dataclass(frozen=True)
class _Place:
    folder: Path
    key: Path


_place: _Place | None = None


def remember_in(folder: Path | None, key: Path | None = None) -> None:
    """Keep values in `folder` from now on, sealed with the key in the file `key` (by default
    `cache.secret.key_file()`); None: compute every time, keep nothing."""
    global _place
    for argument, value in (("folder", folder), ("key", key)):
        if value is not None and not isinstance(value, Path):
            raise TypeError(
                f"remember_in: {argument} must be a Path or None, got {type(value).__name__}"
            )
    _place = None if folder is None else _Place(folder, key or key_file())


@contextlib.contextmanager
def kept_in(folder: Path | None, key: Path | None = None) -> Iterator[None]:
    """Keep values in `folder` for the duration, then as before (a command run inside
    another program, a test, leaves the setting as it found it)."""
    global _place
    previous = _place
    remember_in(folder, key)
    try:
        yield
    finally:
        _place = previous


def remembering() -> Path | None:
    """The folder values are kept in, or None."""
    return None if _place is None else _place.folder


def remembered(name: str, inputs: str, compute: Callable[[], T], codec: Codec[T]) -> T:
    """compute(), or what it returned for the same `name` and `inputs` under this version
    when a folder is chosen. `inputs` must say everything the result depends on besides
    the package's code and the versions the fingerprint names; `codec` writes and reads
    the value."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ValueError(f"remembered: name must be lowercase letters, digits and _, got {name!r}")
    if not isinstance(inputs, str):
        raise TypeError(f"remembered: inputs must be a str, got {type(inputs).__name__}")
    place = _place
    key = None if place is None else secret(place.key)
    if place is None or key is None:
        return compute()
    digest = hashlib.sha256(f"{name}\0{inputs}".encode()).hexdigest()
    header = {"fingerprint": fingerprint(), "name": name, "inputs": digest}
    where = (place.folder, fingerprint()[:16], name, entry_name(digest))
    data = read_entry(*where)
    if data is not None:
        with contextlib.suppress(Exception):  # whatever reading it raises, it is a miss
            return _value(unsealed(data, key), header, codec)
    value = compute()
    body = _body(value, header, codec)
    if body is not None:
        write_entry(*where, sealed(body, key))
    return value


def _value(body: bytes | None, header: dict[str, str], codec: Codec[T]) -> T:
    """The value an entry's verified body holds for `header`; ValueError (or whatever the
    decoder raises) for a body that is missing, not this JSON, of another header, or whose
    value does not decode."""
    if body is None:
        raise ValueError("the entry does not verify")
    entry = json.loads(body, parse_constant=_no_constant)
    if type(entry) is not dict or list(entry) != list(FIELDS):
        raise ValueError("not an entry")
    if {k: entry[k] for k in FIELDS[:3]} != header:
        raise ValueError("an entry of another version or other inputs")
    return codec.decode(entry["value"])


def _body(value: T, header: dict[str, str], codec: Codec[T]) -> bytes | None:
    """The JSON of an entry holding `value`, or None when the codec cannot encode it or
    decoding it does not give it back."""
    try:
        encoded = codec.encode(value)
        body = json.dumps({**header, "value": encoded}, allow_nan=False, separators=(",", ":"))
        if codec.decode(json.loads(body)["value"]) != value:
            return None
    except UNWRITABLE:
        return None
    return body.encode("utf-8")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a value this cache writes")
