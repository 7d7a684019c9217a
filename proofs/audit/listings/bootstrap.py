"""What a listing's process runs first (`python -s -B -c <this file> NAME FD`): the listing
NAME as __main__, and, when it raises, a record of what and where on descriptor FD: the
exception's name, whether it is a MemoryError, its message's first line, the missing
module's name, and (file, line) of the deepest frames in the listing's folder.

The listing runs in this same process after it, so it can write on FD too: the record is
the listing's own word, which the audit reads as data (`proofs.audit.listings.record`).
A script, not a module the package imports.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
import traceback

FRAMES = 20  # the deepest frames kept (a RecursionError has a thousand): record.FRAMES


def main() -> None:
    listing, fd = sys.argv[1], int(sys.argv[2])
    os.set_inheritable(fd, False)  # not given to the programs the listing starts
    here = os.path.dirname(os.path.abspath(listing))
    sys.argv = [listing]
    sys.path[0] = here
    try:
        runpy.run_path(listing, run_name="__main__")
    except BaseException as exc:
        if isinstance(exc, SystemExit):
            raise
        frames = [
            (os.path.basename(f.filename), f.lineno)
            for f in traceback.extract_tb(exc.__traceback__)
            if os.path.dirname(os.path.abspath(f.filename)) == here
        ]
        if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
            frames.append((os.path.basename(exc.filename), exc.lineno))
        try:
            message = (str(exc).strip().splitlines() or [""])[0][:200]  # record.MESSAGE
        except Exception:
            message = ""
        record = {
            "type": type(exc).__name__,
            "memory": isinstance(exc, MemoryError),
            "message": message,
            "module": name if isinstance(name := getattr(exc, "name", None), str) else None,
            "frames": frames[-FRAMES:],
        }
        with open(fd, "w", encoding="utf-8", closefd=False) as out:
            out.write(json.dumps(record))
        traceback.print_exc()
        sys.exit(1)


if __name__ == "__main__":
    main()
