"""`proofs verify` keeps the symbolic derivations in the user's cache directory, and a
second run, with every kept entry replaced by a wrong one of another version, reports
what the first did."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import early
import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNS = "verify with an empty cache, then with wrong entries of another version"


def verify(cache: Path, *selectors: str) -> tuple[int, list[dict]]:
    environment = early.environment(XDG_CACHE_HOME=str(cache), HYPOTHESIS_PROFILE="ci")
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


@early.job(RUNS)
def verify_twice(items: object) -> tuple[tuple[int, list[dict]], set[str], tuple[int, list]]:
    """verify of 命題 3.3 with an empty cache; the kinds of entry it kept; verify again,
    every kept entry replaced by a wrong result of another version."""
    with tempfile.TemporaryDirectory(prefix="verify-cache-") as folder:
        cache = Path(folder)
        first = verify(cache, "prop-mask-as-limit")
        entries = sorted((cache / "transformer-proofs" / "derivations").rglob("*.pickle"))
        for path in entries:
            _, name, digest, value = pickle.loads(path.read_bytes())
            path.write_bytes(pickle.dumps(("another version", name, digest, value * 0)))
        return first, {path.parent.name for path in entries}, verify(cache, "prop-mask-as-limit")


@pytest.mark.early(RUNS)
def test_verify_again_ignores_kept_derivations_of_another_version():
    """On 命題 3.3 of 自己注意 (the name does not carry its id, so that
    `-k prop_mask_as_limit` does not select this run of the command line)."""
    (code, first), kinds, (code_again, again) = early.result(RUNS)
    assert code == 0 and [e["result"] for e in first] == ["passed"]
    assert "mask_limit" in kinds
    assert code_again == 0 and again == first
