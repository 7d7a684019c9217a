"""Words the reports print: counts with their nouns in the number they take.

>>> counted(1, "check"), counted(2, "check"), counted(0, "mismatch", "mismatches")
('1 check', '2 checks', '0 mismatches')
"""

from __future__ import annotations


def counted(k: int, noun: str, plural: str = "") -> str:
    """`1 check`, `2 checks`: a count with its noun, plural (`plural`, else noun + s)
    unless the count is one."""
    return f"{k} {noun}" if k == 1 else f"{k} {plural or noun + 's'}"
