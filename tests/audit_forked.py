"""Audits of the two sample chapters with `audit_documents`, in a process of its own: the
suite's process runs other threads, with which the audit never forks.

Writes on stdout a first line, unflushed when the workers fork, then a JSON object: for
each way of auditing three chapters, which processes audited each, in turn ("worker",
"here"), and whether the reports equal those of the chapters audited one by one here; for
a worker whose audit raises, the error raised here.

    python -P tests/audit_forked.py   (-P: not tests/ first on the path)
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from proofs import reader
from proofs.audit import audit_document, several

MDX, TEXT = Path("tests/samples/chapter.mdx"), Path("tests/samples/chapter.txt")
SAMPLES = [MDX, TEXT, MDX]  # three chapters: the two samples, then the first again
HERE = os.getpid()


FOLDER: list[Path] = []  # where `audit` writes, set by `audited`
FAIL: list[Callable[[], None]] = []  # what a worker calls before auditing


def audit(document: reader.Document, run: bool, earlier: list) -> object:
    """audit_document, recording whether this process or a worker audits `document`
    under the number of documents it is given as the ones before it (its place, when they
    are right), and calling FAIL first in a process other than this one (a module's
    function, which the workers find by name)."""
    with (FOLDER[0] / str(len(earlier))).open("a") as record:
        record.write("here\n" if os.getpid() == HERE else "worker\n")
    if os.getpid() != HERE:
        FAIL[0]()
    return audit_document(document, run, earlier)


def dies() -> None:
    os._exit(3)


def raises() -> None:
    raise ValueError("a worker's audit went wrong")


def audited(documents: list, jobs: int, fail: Callable[[], None] = lambda: None) -> dict:
    """Who audited each document in `audit_documents(documents, False, jobs)`, and whether
    its reports are those of the documents audited one by one."""
    with tempfile.TemporaryDirectory() as name:
        FOLDER[:], FAIL[:] = [Path(name)], [fail]
        several.audit_document = audit
        try:
            reports = several.audit_documents(documents, False, jobs)
        finally:
            several.audit_document = audit_document
        places = [Path(name) / str(k) for k in range(len(documents))]
        by = [p.read_text().split() if p.exists() else [] for p in places]
    alone = [audit_document(d, False, documents[:k]).to_dict() for k, d in enumerate(documents)]
    return {"audited by": by, "same": [r.to_dict() for r in reports] == alone}


def main() -> None:
    print("the audits follow")  # still in this process's buffer when the workers fork
    documents = [reader.read_chapter(path) for path in SAMPLES]
    out = {
        "can fork": several.can_fork(),
        "forked": audited(documents, 3),
        "fewer jobs than chapters": audited(documents, 2),
        "one job": audited(documents, 1),
        "worker died": audited(documents, 2, dies),
    }
    try:
        audited(documents, 2, raises)
        out["worker raised"] = "nothing"
    except ValueError as error:
        out["worker raised"] = str(error)
    stop = threading.Event()
    waiting = threading.Thread(target=stop.wait)
    waiting.start()
    try:
        out["another thread"] = audited(documents, 2)
    finally:
        stop.set()
        waiting.join()
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
