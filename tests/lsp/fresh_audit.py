"""Audits of texts, each in a fresh process: reads a JSON list of [path, text] on standard
input and writes the list of their reports' JSON. The package is imported and its checks
loaded; each text is then audited in a child forked from that process, which has audited
nothing and run no check, so that no audit reuses what another decided
(tests/lsp/test_incremental.py compares them with the editor's audits)."""

import json
import os
import sys


def _audited(path: str, text: str) -> str:
    from proofs.audit import audit_document
    from proofs.reader import parse

    return json.dumps(audit_document(parse(text, path)).to_dict(), ensure_ascii=False)


def _in_a_child(path: str, text: str) -> str:
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        with os.fdopen(write, "w", encoding="utf-8") as out:
            out.write(_audited(path, text))
        os._exit(0)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as answer:
        said = answer.read()
    _, status = os.waitpid(child, 0)
    if status != 0:
        raise SystemExit(f"the audit of {path} ended with status {status}")
    return said


if __name__ == "__main__":
    from proofs.book.profiles import load_profile
    from proofs.book.registry import load_all

    load_profile()
    load_all()
    texts = json.loads(sys.stdin.read())
    print(json.dumps([_in_a_child(path, text) for path, text in texts]))
