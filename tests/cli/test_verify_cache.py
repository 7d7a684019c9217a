"""`proofs verify` keeps the symbolic derivations in the user's cache directory, and a
second run, with every kept entry replaced by a wrong one of another version, reports
what the first did."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def verify(cache: Path, *selectors: str) -> tuple[int, list[dict]]:
    environment = {**os.environ, "XDG_CACHE_HOME": str(cache), "HYPOTHESIS_PROFILE": "ci"}
    done = subprocess.run(
        [sys.executable, "-m", "proofs", "verify", "--json", *selectors],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )
    report = json.loads(done.stdout)
    return done.returncode, [
        {k: v for k, v in e.items() if k != "seconds"} for e in report["elements"]
    ]


def test_verify_again_ignores_kept_derivations_of_another_version(tmp_path):
    """On 命題 3.3 of 自己注意 (the name does not carry its id, so that
    `-k prop_mask_as_limit` does not select this run of the command line)."""
    code, first = verify(tmp_path, "prop-mask-as-limit")
    assert code == 0 and [e["result"] for e in first] == ["passed"]
    entries = sorted((tmp_path / "transformer-proofs" / "derivations").rglob("*.pickle"))
    kinds = {path.parent.name for path in entries}
    assert "mask_limit" in kinds
    for path in entries:  # each replaced by a wrong result of another version
        _, name, digest, value = pickle.loads(path.read_bytes())
        path.write_bytes(pickle.dumps(("another version", name, digest, value * 0)))
    code, again = verify(tmp_path, "prop-mask-as-limit")
    assert code == 0 and again == first
