"""An entry's bytes: a first line that names the format and carries a keyed digest of the
rest, then the entry itself as JSON.

The digest is an HMAC-SHA256 under the key of `cache.secret`, which is kept outside the
cache folder: whoever can write the cache folder but not read that key can change an
entry's bytes, but not make them verify again, whether they keep the old digest or
compute a plain SHA-256 of their own. An entry that does not verify is a miss.
"""

from __future__ import annotations

import hashlib
import hmac

FORMAT = b"transformer-proofs entry 1 "  # the first line: this, the digest's 64 hex digits


def _digest(key: bytes, body: bytes) -> bytes:
    return hmac.new(key, FORMAT + body, hashlib.sha256).hexdigest().encode("ascii")


def sealed(body: bytes, key: bytes) -> bytes:
    """`body` behind its first line.

    >>> sealed(b"{}", b"k")[:27]
    b'transformer-proofs entry 1 '
    """
    return FORMAT + _digest(key, body) + b"\n" + body


def unsealed(data: bytes, key: bytes) -> bytes | None:
    """The body of `data` when its first line is this format's with the digest of the body
    under `key`; None for anything else (another format, another key, a changed byte).

    >>> unsealed(sealed(b"[1]", b"k"), b"k"), unsealed(sealed(b"[1]", b"k"), b"j")
    (b'[1]', None)
    """
    head, newline, body = data.partition(b"\n")
    if not newline or not head.startswith(FORMAT):
        return None
    if hmac.compare_digest(head[len(FORMAT) :], _digest(key, body)):
        return body
    return None
