"""Audits of one-edit copies of chapters, in a process of their own (tests/early.py).

Reads on stdin a JSON list of edits, each {"name", "path", "line", "old", "new"} (old
None: the file as it is), and writes on stdout a JSON object naming, for each edit, what
the audit of the edited copy found: its mismatches (section, line, text, detail) and
every finding (section, status, text, code), or the error of an edit whose text is not on its
line. The copies are made in a temporary folder, under the chapter's own file name; the
chapters are only read.

    python -P tests/audit_copies.py < edits.json   (-P: not tests/ first on the path)
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from proofs.audit import audit_file


def audited(path: Path) -> dict:
    report = audit_file(path)
    return {
        "mismatched": [[f.section, f.line, f.text, f.detail, f.code] for f in report.mismatched],
        "findings": [[f.section, f.status, f.text, f.code] for f in report.findings],
    }


def edited(edit: dict, folder: Path) -> dict:
    source = Path(edit["path"])
    if edit["old"] is None:
        return audited(source)
    lines = source.read_text(encoding="utf-8").split("\n")
    if edit["old"] not in lines[edit["line"] - 1]:
        return {"error": f"{edit['name']}: {edit['old']!r} not on line {edit['line']}"}
    lines[edit["line"] - 1] = lines[edit["line"] - 1].replace(edit["old"], edit["new"], 1)
    copy = folder / source.name
    copy.write_text("\n".join(lines), encoding="utf-8")
    return audited(copy)


def main() -> None:
    edits = json.load(sys.stdin)
    with tempfile.TemporaryDirectory(prefix="audit-copies-") as folder:
        found = {edit["name"]: edited(edit, Path(folder)) for edit in edits}
    json.dump(found, sys.stdout)


if __name__ == "__main__":
    main()
