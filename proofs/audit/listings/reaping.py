"""Ending what a supervisor ran when the supervisor cannot: every process below it, found in
/proc whatever session it moved to, and (where the listings ran as the user) whatever is
left of a listing's session once its supervisor was killed."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable

Table = dict[int, tuple[int, int, str]]  # pid -> (parent, session, state)


def process_table() -> Table:
    """Every process /proc shows: its parent, its session and its state (Z: ended)."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:
            continue
        table[int(entry)] = (int(fields[1]), int(fields[3]), fields[0].decode())
    return table


def descendants(root: int, table: Table) -> list[int]:
    """The processes below `root`: its children, theirs, and so on."""
    below, found = {root}, list[int]()
    while True:
        more = [p for p, (parent, _, _) in table.items() if parent in below and p not in below]
        if not more:
            return found
        below.update(more)
        found += more


def in_session(leader: int, table: Table) -> list[int]:
    """The processes of the session `leader` started."""
    return [p for p, (_, session, _) in table.items() if session == leader]


def kill_all(chosen: Callable[[Table], list[int]], seconds: float = 1.0) -> None:
    """SIGKILL the live processes `chosen` picks from the table, again until none is left
    (each round's orphans are found in the next) or `seconds` have passed: a process may
    not be the user's to kill."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        table = process_table()
        alive = [p for p in chosen(table) if table[p][2] != "Z"]
        if not alive:
            return
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.001)
