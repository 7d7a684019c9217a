"""cache.seal: a body comes back only under the key it was sealed with and unchanged."""

from __future__ import annotations

import hashlib

import pytest

from cache.seal import FORMAT, sealed, unsealed

KEY = bytes(range(32))
BODY = b'{"value":[[4,4.004]]}'


def test_a_sealed_body_comes_back_under_its_key():
    assert unsealed(sealed(BODY, KEY), KEY) == BODY
    assert sealed(BODY, KEY).startswith(FORMAT) and sealed(BODY, KEY).count(b"\n") == 1


@pytest.mark.parametrize(
    "change",
    [
        lambda data: data.replace(b"4.004", b"9.990"),  # the value, the digest kept
        lambda data: data[:-1],  # a byte less
        lambda data: data + b" ",  # a byte more
        lambda data: data.replace(b"\n", b" "),  # no first line
        lambda data: b"transformer-proofs entry 2 " + data[len(FORMAT) :],  # another format
        lambda data: data[:40] + (b"0" if data[40:41] != b"0" else b"1") + data[41:],  # digest
        lambda data: b"",
    ],
    ids=["value", "shorter", "longer", "one-line", "format", "digest", "empty"],
)
def test_a_changed_entry_does_not_verify(change):
    assert unsealed(change(sealed(BODY, KEY)), KEY) is None


def test_a_digest_recomputed_without_the_key_does_not_verify():
    """Whoever changes the value and writes a digest of their own (a plain SHA-256, or the
    HMAC under another key) still fails: only the key makes the digest."""
    changed = BODY.replace(b"4.004", b"9.990")
    plain = hashlib.sha256(FORMAT + changed).hexdigest().encode()
    assert unsealed(FORMAT + plain + b"\n" + changed, KEY) is None
    assert unsealed(sealed(changed, bytes(32)), KEY) is None
    assert unsealed(sealed(BODY, KEY), bytes(32)) is None
